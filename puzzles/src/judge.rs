//! Judging a solver's move, and the rest of a winning line from wherever the solver is.
//!
//! The solver need not find the stored line: as lichess accepts any mate in one, a move is
//! correct when it reaches the puzzle's goal as surely as the stored move does.
//!
//! - The stored move (while the solver has followed the line) is correct.
//! - A move that mates at once is correct in every puzzle, and solves it.
//! - In a mate in N, a move after which the search proves a mate within the solver's moves
//!   left is correct; the opponent then answers with the search's defence.
//! - In a position the endgame tables cover, a move that wins at least as fast as the stored
//!   move (as the best move, off the stored line) is correct; the opponent answers with the
//!   tables' longest defence.
//! - Anything else is wrong, including in a tactic another move the search likes: a tactic was
//!   chosen because one move alone wins clearly.

use chariot_formats::egtb::{Tablebases, Value};
use chariot_rules::Move;

use crate::prover::Prover;
use crate::record::{Goal, Puzzle};

/// What the judge says of a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move reaches the goal.
    Correct {
        /// The opponent's answer; `None` when the puzzle is solved.
        reply: Option<Move>,
        /// The puzzle is solved with this move.
        solved: bool,
    },
    /// It does not: the solver tries again from the same position.
    Wrong,
}

/// Why a move cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// A move played so far is not legal where it stands.
    #[error("move {number} played so far ({text}) is not legal there")]
    Illegal {
        /// Its number, from 1.
        number: usize,
        /// Its ICCS text.
        text: String,
    },
    /// The moves played so far leave the opponent to move.
    #[error("after {0} moves it is the opponent's turn, not the solver's")]
    NotSolversTurn(usize),
    /// The solver has made all the moves of the puzzle already.
    #[error("the puzzle is over: the solver has made its {0} moves")]
    Over(usize),
    /// The move to judge is not legal in the position.
    #[error("{0} is not a legal move in the position")]
    IllegalMove(String),
    /// No winning line could be found from the position (the search's budget ran out).
    #[error("no winning line was found from this position within the search's budget")]
    NoLine,
}

/// Judges a puzzle's moves with a prover and the endgame tables.
pub struct Judge<'a> {
    prover: &'a mut Prover,
    tables: &'a Tablebases,
}

impl<'a> Judge<'a> {
    /// A judge searching with `prover` and asking `tables`.
    pub fn new(prover: &'a mut Prover, tables: &'a Tablebases) -> Judge<'a> {
        Judge { prover, tables }
    }

    /// Judges `candidate`, the solver's move after `played` (the moves from the puzzle's
    /// position so far: the solver's and the replies).
    ///
    /// # Errors
    /// A [`JudgeError`] when `played` is not a legal line leaving the solver to move, the
    /// puzzle is over, or `candidate` is not legal; [`JudgeError::NoLine`] when a correct move
    /// off the stored line finds no reply (the search's budget ran out).
    pub fn judge(
        &mut self,
        puzzle: &Puzzle,
        played: &[Move],
        candidate: Move,
    ) -> Result<Verdict, JudgeError> {
        let (pos, left) = position_after(puzzle, played)?;
        if !pos.is_legal(candidate) {
            return Err(JudgeError::IllegalMove(candidate.to_string()));
        }
        let solver_move = played.len() / 2 + 1;
        let last = solver_move == puzzle.solver_moves();
        let on_line = puzzle.line.starts_with(played);
        let mut after = pos.clone();
        after.make_move(candidate);
        if !after.has_legal_move() {
            return Ok(Verdict::Correct {
                reply: None,
                solved: true,
            });
        }
        // A correct move before the last needs the opponent's answer, or the solver would be
        // left to move the opponent's pieces.
        let correct = |reply: Option<Move>| match reply {
            None if !last => Err(JudgeError::NoLine),
            _ => Ok(Verdict::Correct {
                reply: reply.filter(|_| !last),
                solved: last,
            }),
        };
        if on_line && puzzle.line[played.len()] == candidate {
            return correct(puzzle.line.get(played.len() + 1).copied());
        }
        if let Goal::Mate(_) = puzzle.goal {
            if left <= 1 {
                return Ok(Verdict::Wrong);
            }
            return match self.prover.mate(&pos, Some(candidate), left) {
                Some(proof) => {
                    let reply = match proof.pv.get(1) {
                        Some(&m) => Some(m),
                        None => self.prover.best(&after).and_then(|l| l.first()),
                    };
                    correct(reply)
                }
                None => Ok(Verdict::Wrong),
            };
        }
        let stored = on_line.then(|| puzzle.line[played.len()]);
        if self.wins_as_fast(&pos, candidate, stored) {
            let reply = self.tables.best_move(&after).ok().flatten().map(|(m, _)| m);
            return correct(reply);
        }
        Ok(Verdict::Wrong)
    }

    /// `true` when the tables cover `pos` and say `candidate` wins at least as fast as the
    /// `stored` move (the best move when `None`).
    fn wins_as_fast(
        &self,
        pos: &chariot_rules::Position,
        candidate: Move,
        stored: Option<Move>,
    ) -> bool {
        let Ok(Some(values)) = self.tables.move_values(pos) else {
            return false;
        };
        let value = |m: Move| values.iter().find(|(x, _)| *x == m).map(|(_, v)| *v);
        let Some(mine) = value(candidate) else {
            return false;
        };
        let target = match stored {
            Some(m) => value(m),
            None => values.iter().map(|(_, v)| *v).max(),
        };
        matches!(mine, Value::Win(_) | Value::RuleWin(_)) && target.is_some_and(|t| mine >= t)
    }

    /// The rest of a winning line after `played`, the solver's move first: the stored line
    /// while the solver has followed it, else one the search (a mate) or the tables find.
    ///
    /// # Errors
    /// As [`Judge::judge`]; [`JudgeError::NoLine`] when neither finds one.
    pub fn continuation(
        &mut self,
        puzzle: &Puzzle,
        played: &[Move],
    ) -> Result<Vec<Move>, JudgeError> {
        let (start, left) = position_after(puzzle, played)?;
        if puzzle.line.starts_with(played) {
            return Ok(puzzle.line[played.len()..].to_vec());
        }
        let mut pos = start;
        let mut line = Vec::new();
        for k in 0..left {
            let remaining = left - k;
            let next = match puzzle.goal {
                Goal::Mate(_) => self
                    .prover
                    .mate(&pos, None, remaining)
                    .and_then(|l| l.first()),
                Goal::Win => self.tables.best_move(&pos).ok().flatten().map(|(m, _)| m),
            };
            let Some(m) = next else {
                return Err(JudgeError::NoLine);
            };
            pos.make_move(m);
            line.push(m);
            if k + 1 == left || !pos.has_legal_move() {
                break;
            }
            let reply = match self.tables.best_move(&pos).ok().flatten() {
                Some((m, _)) => Some(m),
                None => self.prover.best(&pos).and_then(|l| l.first()),
            };
            let Some(r) = reply else {
                return Err(JudgeError::NoLine);
            };
            pos.make_move(r);
            line.push(r);
        }
        Ok(line)
    }
}

/// The position after `played` (each move checked) and the solver's moves left in it.
fn position_after(
    puzzle: &Puzzle,
    played: &[Move],
) -> Result<(chariot_rules::Position, u32), JudgeError> {
    if played.len() % 2 == 1 {
        return Err(JudgeError::NotSolversTurn(played.len()));
    }
    let made = played.len() / 2;
    if made >= puzzle.solver_moves() {
        return Err(JudgeError::Over(puzzle.solver_moves()));
    }
    let mut pos = puzzle.position.clone();
    for (i, &m) in played.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(JudgeError::Illegal {
                number: i + 1,
                text: m.to_string(),
            });
        }
        pos.make_move(m);
    }
    Ok((pos, (puzzle.solver_moves() - made) as u32))
}
