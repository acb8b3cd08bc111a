//! What only a search or the tables can confirm of a puzzle, beyond what the file's reader
//! checks (a legal line, a mate's length and final position): that a mate is forced, that a
//! table position's every solver move is its only winning move, that a game position's move
//! alone gains decisively. The generator keeps only puzzles that pass; the tests check every
//! shipped puzzle with [`forced_mate`] and [`table_line`].

use chariot_engine::search::Score;
use chariot_formats::egtb::{Tablebases, Value};
use chariot_rules::{Move, Position};

use crate::prover::{Line, Prover};
use crate::record::{Goal, Puzzle};

/// A score (centipawns, the solver's) at or above which a gain is decisive: a horse or a cannon
/// up, or more.
pub const DECISIVE: i32 = 300;

/// A score at or below which the second-best move gains nothing decisive: the margin between
/// the one move and every other is then at least `DECISIVE - NOT_DECISIVE`.
pub const NOT_DECISIVE: i32 = 100;

/// Why a puzzle fails a check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The search did not prove the mate the goal states from the position with the line's
    /// first move.
    #[error("no mate in {moves} with {first} proved within {nodes} nodes")]
    MateNotProved {
        /// The mate's moves.
        moves: u32,
        /// The line's first move.
        first: String,
        /// The search's budget.
        nodes: u64,
    },
    /// Another move mates within the same number of moves, where the puzzle claims one alone.
    #[error("at ply {ply}, {other} mates as fast as {stored}")]
    AnotherMate {
        /// The ply of the solver's move (from 1).
        ply: usize,
        /// The line's move.
        stored: String,
        /// The other mate.
        other: String,
    },
    /// The tables do not cover a position of the line.
    #[error("at ply {0} the tables do not cover the position")]
    NotCovered(usize),
    /// The tables say the position is not won by mate for the solver.
    #[error("at ply {ply} the tables say {value}, not a win by mate")]
    NotWon {
        /// The ply of the solver's move (from 1).
        ply: usize,
        /// The tables' value.
        value: String,
    },
    /// A solver's move of the line is not the only winning move.
    #[error("at ply {ply} {count} moves win, not just {stored}")]
    NotOnly {
        /// The ply of the solver's move (from 1).
        ply: usize,
        /// The line's move.
        stored: String,
        /// How many moves win.
        count: usize,
    },
    /// The search does not find the line's move decisive alone.
    #[error("at ply {ply} the search does not find {stored} alone decisive ({found})")]
    NotDecisive {
        /// The ply of the solver's move (from 1).
        ply: usize,
        /// The line's move.
        stored: String,
        /// What the search found instead.
        found: String,
    },
    /// The line's move does not win by the tables.
    #[error("at ply {ply} the line's {stored} does not win")]
    NotWinning {
        /// The ply of the solver's move (from 1).
        ply: usize,
        /// The line's move.
        stored: String,
    },
}

/// A score in centipawns for comparisons, mates beyond every evaluation.
#[must_use]
pub fn centipawns(score: Score) -> i32 {
    chariot_engine::api::centipawns(score)
}

/// Checks that the puzzle's mate is forced: the search proves, from its position, a mate
/// within its goal's moves beginning with the line's first move. Nothing to check for a goal
/// other than mate.
///
/// # Errors
/// [`Fault::MateNotProved`].
pub fn forced_mate(puzzle: &Puzzle, prover: &mut Prover) -> Result<(), Fault> {
    let Goal::Mate(n) = puzzle.goal else {
        return Ok(());
    };
    let first = puzzle.line[0];
    prover
        .mate(&puzzle.position, Some(first), n)
        .map(|_| ())
        .ok_or_else(|| Fault::MateNotProved {
            moves: n,
            first: first.to_string(),
            nodes: prover.nodes(),
        })
}

/// The moves of `pos` that win by the tables (by mate or by the perpetual-check rule), with
/// their values; `None` when the tables do not cover it.
#[must_use]
pub fn winning_moves(tables: &Tablebases, pos: &Position) -> Option<Vec<(Move, Value)>> {
    let values = tables.move_values(pos).ok().flatten()?;
    Some(
        values
            .into_iter()
            .filter(|(_, v)| matches!(v, Value::Win(_) | Value::RuleWin(_)))
            .collect(),
    )
}

/// `true` when `m` leaves the opponent without a legal move.
#[must_use]
pub fn mates_at_once(pos: &Position, m: Move) -> bool {
    let mut after = pos.clone();
    after.make_move(m);
    !after.has_legal_move()
}

/// Checks a table position's line: the solver wins by mate at the start, and each of its moves
/// is the only winning move where it is played, but for a last move that mates (any mate does).
///
/// # Errors
/// The first [`Fault`] found.
pub fn table_line(puzzle: &Puzzle, tables: &Tablebases) -> Result<(), Fault> {
    let mut pos = puzzle.position.clone();
    match tables.probe(&pos) {
        Ok(Some(Value::Win(_))) => {}
        Ok(Some(v)) => {
            return Err(Fault::NotWon {
                ply: 1,
                value: v.to_string(),
            });
        }
        _ => return Err(Fault::NotCovered(1)),
    }
    for (i, &m) in puzzle.line.iter().enumerate() {
        if i % 2 == 0 && !(i + 1 == puzzle.line.len() && mates_at_once(&pos, m)) {
            let wins = winning_moves(tables, &pos).ok_or(Fault::NotCovered(i + 1))?;
            if !wins.iter().any(|(w, _)| *w == m) {
                return Err(Fault::NotWinning {
                    ply: i + 1,
                    stored: m.to_string(),
                });
            }
            if wins.len() != 1 {
                return Err(Fault::NotOnly {
                    ply: i + 1,
                    stored: m.to_string(),
                    count: wins.len(),
                });
            }
        }
        pos.make_move(m);
    }
    Ok(())
}

/// What the search says of the solver's move in `pos`: the one decisive move, when one move
/// alone gains decisively with a clear margin over every other; `None` otherwise.
///
/// Decisive: the best line scores at least [`DECISIVE`] (or mates); alone: the second-best
/// scores at most [`NOT_DECISIVE`] (a position with one legal move is no puzzle). When the best
/// mates, the second must not mate as fast; a mate in one may have company (any mate is
/// accepted).
pub fn only_decisive(prover: &mut Prover, pos: &Position) -> Option<Line> {
    let lines = prover.best_two(pos);
    let [best, second] = &lines[..] else {
        return None;
    };
    let best_cp = centipawns(best.score);
    if best_cp < DECISIVE {
        return None;
    }
    if let Score::Mate(p) = best.score {
        let moves = (p as u32).div_ceil(2);
        if moves == 1 {
            return Some(best.clone());
        }
        return (!second.mates_within(moves)).then(|| best.clone());
    }
    (centipawns(second.score) <= NOT_DECISIVE).then(|| best.clone())
}

/// Checks a game position's line: each solver move is the one the search finds decisive alone
/// ([`only_decisive`]); in a mate, each mating move mates within the moves left and is the only
/// one that does (but the last, where any mate will do).
///
/// # Errors
/// The first [`Fault`] found.
pub fn game_line(puzzle: &Puzzle, prover: &mut Prover) -> Result<(), Fault> {
    let mut pos = puzzle.position.clone();
    let solver_moves = puzzle.solver_moves() as u32;
    for (i, &m) in puzzle.line.iter().enumerate() {
        if i % 2 == 0 {
            let ply = i + 1;
            let stored = m.to_string();
            let last = ply == puzzle.line.len();
            match puzzle.goal {
                Goal::Mate(_) => {
                    let left = solver_moves - (i / 2) as u32;
                    if prover.mate(&pos, Some(m), left).is_none() {
                        return Err(Fault::MateNotProved {
                            moves: left,
                            first: stored,
                            nodes: prover.nodes(),
                        });
                    }
                    if left > 1
                        && let Some(other) = prover.other_mate(&pos, m, left)
                    {
                        return Err(Fault::AnotherMate {
                            ply,
                            stored,
                            other: other.first().map(|o| o.to_string()).unwrap_or_default(),
                        });
                    }
                }
                Goal::Win if last && mates_at_once(&pos, m) => {}
                Goal::Win => {
                    let best = only_decisive(prover, &pos);
                    if best.as_ref().and_then(Line::first) != Some(m) {
                        return Err(Fault::NotDecisive {
                            ply,
                            stored,
                            found: best
                                .and_then(|l| l.first())
                                .map_or_else(|| "no move alone".into(), |f| f.to_string()),
                        });
                    }
                }
            }
        }
        pos.make_move(m);
    }
    Ok(())
}

/// Checks what the search and the tables can confirm of a puzzle, by its source: a composed
/// mate's first move forces the mate ([`forced_mate`]), a table position's line
/// ([`table_line`]), a game position's line ([`game_line`]).
///
/// # Errors
/// The first [`Fault`] found.
pub fn check(puzzle: &Puzzle, prover: &mut Prover, tables: &Tablebases) -> Result<(), Fault> {
    match puzzle.source {
        crate::record::Source::Classic => forced_mate(puzzle, prover),
        crate::record::Source::Tables => table_line(puzzle, tables),
        _ => game_line(puzzle, prover),
    }
}
