//! Texel tuning: fitting the evaluation's weights to the results of real games.
//!
//! The idea (Peter Österlund's, for his engine Texel): take many quiet positions from games
//! with known results, map each position's evaluation to an expected score with a logistic
//! curve, and choose the weights that minimise the mean squared difference between expected
//! scores and results. The stages, one topic per file:
//!
//! - [`chariot_formats::positions`]: the training file, `FEN;result` per line (written by
//!   `book-builder positions`);
//! - [`chariot_eval::quiet`]: which positions are quiet enough to learn from;
//! - [`dataset`]: the positions as evaluation traces ([`chariot_eval::trace`]), split into a
//!   training and a held-out part;
//! - [`model`]: the logistic curve, the error and its gradient, the fit of the scale `K`;
//! - [`optimize`]: which weights are tuned, their bounds, and Adam gradient descent;
//! - [`source`]: the tuned weights written back as the Rust source of `params.rs` and `pst.rs`.
//!
//! How the built-in weights were tuned, with commands and numbers, is in `docs/tuning.md`.

pub mod dataset;
pub mod model;
pub mod optimize;
pub mod source;
