//! A neural evaluation (NNUE): sparse piece-square inputs from both sides' perspectives, a first
//! layer updated incrementally as moves are made, a clipped ReLU and one output.
//!
//! [`features`] defines the inputs, [`network`] the quantised network and its inference (on the
//! vector [`kernels`]: AVX2 where the CPU has it, portable loops elsewhere, the same results),
//! [`file`](mod@file) the `.nnue` format (`docs/formats/nnue.md`), [`builtin`] the network compiled into
//! the binary. The trainer and its loss live apart from inference, in `chariot-training`.

pub mod builtin;
pub mod features;
pub mod file;
pub mod kernels;
pub mod network;

pub use network::{Accumulator, Network};
