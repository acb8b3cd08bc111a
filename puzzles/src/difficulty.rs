//! How hard a puzzle is: the nodes a fresh search of its position needs before it settles on
//! a correct first move ([`Prover::effort`]): the line's first move, or for a mate any move
//! with a mate as fast. A search is a fair stand-in for a person here: what it finds at once
//! (a capture, a check that mates) people see at once; a quiet first move or a long forced
//! line costs both more. The search has no endgame tables here (they would hand it a table
//! position's move at once). Difficulty is relative: the puzzles of a file are cut into thirds
//! by effort ([`rate`]), so that each level offers as many puzzles; easy ones are mostly found
//! by the first iterations (a piece left hanging, a mate in one), hard ones need far more.

use crate::prover::{Line, Prover};
use crate::record::{Difficulty, Goal, Puzzle};

/// The nodes a search needs to find a correct first move of `puzzle`, or `None` when it does
/// not within the prover's budget (give it a prover without tables).
pub fn effort(puzzle: &Puzzle, prover: &mut Prover) -> Option<u64> {
    let first = puzzle.line[0];
    let solves = |line: &Line| {
        line.first() == Some(first) || matches!(puzzle.goal, Goal::Mate(n) if line.mates_within(n))
    };
    prover.effort(&puzzle.position, &solves)
}

/// Rates `puzzles` against each other: each one's [`effort`] (not found: the most), then the
/// easiest third (by effort, then the solver's moves, then id) easy, the next third medium, the
/// rest hard.
pub fn rate(puzzles: &mut [Puzzle], prover: &mut Prover) {
    let efforts: Vec<u64> = puzzles
        .iter()
        .map(|p| effort(p, prover).unwrap_or(u64::MAX))
        .collect();
    let mut order: Vec<usize> = (0..puzzles.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| (efforts[i], puzzles[i].solver_moves(), &puzzles[i].id);
        key(a).cmp(&key(b))
    });
    let n = puzzles.len();
    for (rank, i) in order.into_iter().enumerate() {
        puzzles[i].difficulty = match rank * 3 / n.max(1) {
            0 => Difficulty::Easy,
            1 => Difficulty::Medium,
            _ => Difficulty::Hard,
        };
    }
}
