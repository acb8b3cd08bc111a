//! Training Chariot's evaluations, beside the inference in `chariot-eval` and the search in
//! `chariot-engine`: [`datagen`] plays self-play games and writes training data, [`nnue`]
//! trains the neural network on it, and [`tune`] fits the hand-written evaluation's weights to
//! game results (Texel tuning). Both trainers descend with the one optimiser, [`adam`].

pub mod adam;
pub mod datagen;
pub mod nnue;
pub mod tune;
