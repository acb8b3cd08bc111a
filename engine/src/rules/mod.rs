//! The rules of Xiangqi: board, pieces, FEN, Zobrist keys, move generation and game judgement.

pub mod bitboard;
pub mod chase;
pub mod judge;
pub mod movegen;
pub mod mv;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod position;
pub mod setup;
pub mod square;
pub mod tables;
#[cfg(test)]
pub(crate) mod testing;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use judge::{
    GameState, JudgeConfig, Reason, Verdict, forbidden_moves, judge, judge_game, repetition_start,
    repetition_verdict,
};
pub use mv::{Move, MoveList};
pub use outcome::Outcome;
pub use piece::{Color, Kind, Piece};
pub use position::{Position, PositionError, Undo, Waivers};
pub use setup::{FenError, START_FEN, Setup};
pub use square::Square;
