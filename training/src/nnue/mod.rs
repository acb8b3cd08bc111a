//! Training the neural evaluation: [`train`] fits a network (`chariot_eval::nnue::Network`) to
//! `chariot datagen` data on the CPU (`docs/tuning.md`), and [`loss`] measures how well an
//! evaluation predicts that data.

pub mod loss;
pub mod train;
