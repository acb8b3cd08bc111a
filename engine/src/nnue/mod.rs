//! A neural evaluation (NNUE): sparse piece-square inputs from both sides' perspectives, a first
//! layer updated incrementally as moves are made, a clipped ReLU and one output.
//!
//! [`features`] defines the inputs, [`network`] the quantised network and its inference (on the
//! vector [`kernels`]: AVX2 where the CPU has it, portable loops elsewhere, the same results),
//! [`file`](mod@file) the `.nnue` format (`docs/formats/nnue.md`), [`builtin`] the network compiled into
//! the binary, [`train`] the trainer that fits a network to `chariot datagen` data on the CPU
//! (`docs/tuning.md`), and [`loss`] its measure of how well an evaluation predicts that data.

pub mod builtin;
pub mod features;
pub mod file;
pub mod kernels;
pub mod loss;
pub mod network;
pub mod train;

pub use network::{Accumulator, Network};
