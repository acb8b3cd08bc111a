//! Chariot's file formats, over the rules: each format's reader and writer together, its byte
//! layout documented in `docs/formats/`.
//!
//! - [`book`]: the `.xqb` opening book (memory-mapped reader, writer) and ElephantEye's
//!   `BOOK.DAT`;
//! - [`opening`]: the ECCO file (`.ecco`: the ECCO code of opening lines, derived from master
//!   games) and the opening namer (`中炮对屏风马`);
//! - [`egtb`]: the endgame tablebase files: the position-index mapping shared by generator and
//!   prober, reader, writer and probing;
//! - [`training_data`]: the self-play training records of `chariot datagen`;
//! - [`positions`]: the tuning positions, `FEN;result` per line;
//! - [`atomic`]: how every writer writes (a temporary file renamed into place);
//! - [`data`]: where tables are found and where generated ones go.

pub mod atomic;
pub mod book;
pub mod data;
pub mod egtb;
pub mod opening;
pub mod positions;
pub mod training_data;
