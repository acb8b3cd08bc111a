//! The rules of Xiangqi (Chinese chess) and its notation: the bottom layer of Chariot, usable
//! alone (what shakmaty is to chess).
//!
//! A [`Setup`] is a parsed FEN, unchecked; [`Position`] is a checked legal position with legal
//! move generation, check, Zobrist keys and perft. [`judge`] applies the Asian rules of
//! repetition (perpetual check and chase) to a game; [`Ending`] is how a game ended (result,
//! reason, sentence, PGN termination), [`GameResult`] its result as PGN writes it and
//! [`DecidedResult`] a result known to be a win or a draw, as data files record it.
//! [`notation`] reads and writes move text in ICCS, WXF and Chinese, [`display`] draws a
//! position as text, and [`random`] is the one seeded random generator every crate above uses.
//!
//! It depends on no database, compression, thread pool or async runtime.

pub mod attacks;
pub mod bitboard;
pub mod chase;
pub mod display;
pub mod ending;
pub mod judge;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod random;
pub mod result;
pub mod setup;
pub mod square;
pub mod tables;
#[doc(hidden)]
pub mod testing;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use ending::{EndReason, Ending};
pub use judge::{
    GameState, JudgeConfig, Reason, Verdict, forbidden_moves, judge, judge_game, repetition_start,
    repetition_verdict,
};
pub use mv::{Move, MoveList};
pub use piece::{Color, Kind, Piece};
pub use position::{Position, PositionError, Undo, Waivers};
pub use result::{DecidedResult, GameResult, UnfinishedGame};
pub use setup::{FenError, START_FEN, Setup};
pub use square::Square;
