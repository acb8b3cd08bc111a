//! Chariot: Xiangqi (Chinese chess) rules, notation, search and the UCCI/UCI engine.
//!
//! The [`rules`] module is the foundation: positions, legal moves, check, repetition judgement.
//! Everything else (notation, books, tablebases, search) is built on it; [`notation`] reads and
//! writes move text in ICCS, WXF and Chinese.

pub mod display;
pub mod egtb;
pub mod notation;
pub mod rules;

pub use rules::{Color, Kind, Move, MoveList, Piece, Position, Setup, Square};
