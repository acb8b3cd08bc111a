//! Neural evaluations (NNUE): sparse piece-square inputs from both sides' perspectives, a first
//! layer updated incrementally as moves are made, and a few small layers over it.
//!
//! Two architectures, one [`Network`] type ([`network`]; what both read of the [`board`] and
//! the [`output`]'s scale and buckets are shared): net10a's piece-square network
//! ([`psq`] over the [`features`]: one first layer, a clipped ReLU and one output per bucket)
//! and the king-bucketed network ([`king`] over the [`king_features`]: inputs that know where
//! the viewer's general stands, a wider first layer, two hidden layers, output buckets), whose
//! sums are rebuilt through a [`refresh`] cache when a general moves, and whose hidden layers
//! read their weights [`packed`] by groups of four inputs. Both compute on the vector
//! [`kernels`] (AVX2, with AVX-512 VNNI for the packed layers, where the CPU has them; portable
//! loops elsewhere; the same results);
//! [`file`](mod@file) is the `.nnue` format (`docs/formats/nnue.md`), [`builtin`] the network
//! compiled into the binary. The trainer and its loss live apart from inference, in
//! `chariot-training`.

pub mod board;
pub mod builtin;
pub mod features;
pub mod file;
pub mod kernels;
pub mod king;
pub mod king_features;
pub mod network;
pub mod output;
pub mod packed;
pub mod psq;
pub mod refresh;

pub use king::KingNet;
pub use network::{Architecture, Network};
pub use psq::PsqNet;
pub use refresh::RefreshCache;
