//! Training the neural evaluations: [`train`] fits a piece-square network (net10a's
//! architecture, `chariot_eval::nnue::PsqNet`) to `chariot datagen` data held in memory;
//! [`king_train`] fits the king-bucketed network ([`king_net`], `chariot_eval::nnue::KingNet`)
//! to data streamed from its files ([`stream`]) on a pool of threads, with sparse first-layer
//! updates. Both run on the CPU (`docs/tuning.md`); [`loss`] measures how well an evaluation
//! predicts the data, and [`vector`] holds the float loops.

pub mod king_net;
pub mod king_train;
pub mod loss;
pub mod stream;
pub mod train;
pub mod vector;
