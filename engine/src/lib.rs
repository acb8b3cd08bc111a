//! Chariot: Xiangqi (Chinese chess) rules, notation, search and the UCCI/UCI engine.
//!
//! The [`rules`] module is the foundation: positions, legal moves, check, repetition judgement.
//! Everything else (notation, books, tablebases, search) is built on it; [`notation`] reads and
//! writes move text in ICCS, WXF and Chinese. [`search`] and [`eval`] are the engine's thinking:
//! the search and the static evaluation it uses; [`engine`] is the engine API over them (position,
//! options, a non-blocking `go`, the book, tablebase and draw/resign policies), and [`protocol`]
//! holds the UCCI and UCI front ends, text over that API.

pub mod atomic;
pub mod book;
pub mod data;
pub mod datagen;
pub mod display;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod levels;
pub mod nnue;
pub mod notation;
pub mod protocol;
pub mod random;
pub mod rules;
pub mod search;
pub mod training_data;
pub mod tune;

pub use rules::{Color, Kind, Move, MoveList, Piece, Position, Setup, Square};
