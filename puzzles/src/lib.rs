//! Xiangqi puzzles: a position, the side to move's task (mate in N, or win) and a winning line,
//! solved move by move as on lichess.
//!
//! - [`record`]: one [`Puzzle`], where it came from ([`Source`]), its [`Goal`], [`Difficulty`]
//!   and [`Theme`]s;
//! - [`file`]: the puzzle file, reader and writer (`docs/formats/puzzles.md`);
//! - [`prover`]: the searches puzzles need (a mate proved, the two best moves, the effort to
//!   find a move), reproducible by their node budgets;
//! - [`judge`]: whether a solver's move is correct (the stored move, or another that reaches the
//!   goal as surely) and the opponent's reply, and the rest of a winning line from anywhere;
//! - [`verify`]: what only a search or the tables confirm of a puzzle;
//! - [`difficulty`]: how hard a puzzle is;
//! - [`generate`]: the shipped file made from its sources (`chariot puzzles build`).
//!
//! The shipped puzzles are compiled in ([`shipped`]), as the opening book is, so that
//! `chariot serve` offers them wherever it runs.

pub mod difficulty;
pub mod file;
pub mod generate;
pub mod judge;
pub mod prover;
pub mod record;
pub mod verify;

pub use file::FileError;
pub use judge::{Judge, JudgeError, Verdict};
pub use prover::Prover;
pub use record::{Difficulty, Goal, Puzzle, Source, Theme};

/// The text of the shipped puzzle file, `data/puzzles/puzzles.tsv`.
pub const SHIPPED: &str = include_str!("../../data/puzzles/puzzles.tsv");

/// The shipped puzzles.
///
/// # Errors
/// The [`FileError`] of a damaged file (the tests read it, so a release never has one).
pub fn shipped() -> Result<Vec<Puzzle>, FileError> {
    file::read(SHIPPED)
}
