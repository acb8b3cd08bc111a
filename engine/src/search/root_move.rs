//! A root move with its latest score and line: what iterative deepening sorts and reports, and
//! what each search thread keeps of the root.

use super::score::INFINITE;
use chariot_rules::Move;

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// The score from the iteration in progress; `-INFINITE` until the move has been searched
    /// and found to be the best so far.
    pub score: i32,
    /// The score from the previous iteration.
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

impl RootMove {
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            seldepth: 0,
            pv: vec![mv],
        }
    }

    /// The score to show: the current one, or the previous one if the move has no current one.
    pub(super) fn shown_score(&self) -> i32 {
        if self.score > -INFINITE {
            self.score
        } else {
            self.prev_score
        }
    }
}

/// Sorts root moves by score, best first, keeping the order of equal scores.
pub(super) fn sort_moves(moves: &mut [RootMove]) {
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
}
