//! The searches puzzles need, on one engine searcher: a mate proved within a number of moves,
//! the two best moves with their scores (is one move alone decisive?), the defender's best
//! reply, and the work a search needs to find a move (a puzzle's difficulty).
//!
//! Every search runs on one thread with the transposition table cleared first and a node
//! budget but no clock, so that the same question gets the same answer on every machine: the
//! generator's output depends only on its inputs. The search's mate scores are proofs: it
//! prunes no move of a side that has not yet found one escaping mate (`engine/src/search/pvs.rs`),
//! so a mate it reports is forced. A mate it does not find within its budget is not proved
//! absent; the callers say what that means for them.

use std::sync::Arc;

use chariot_engine::resources;
use chariot_engine::search::{Bound, Control, Limits, Options, Report, Score, Searcher};
use chariot_formats::egtb::Tablebases;
use chariot_rules::{Move, Position};

/// The hash table of a prover's searcher, MiB.
const HASH_MB: usize = 16;

/// A line the search found: its first move, score (for the side to move) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score for the side to move.
    pub score: Score,
    /// The moves, the root move first.
    pub pv: Vec<Move>,
}

impl Line {
    /// The line's first move.
    #[must_use]
    pub fn first(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    /// `true` when the side to move mates within `moves` of its moves on this line's score.
    #[must_use]
    pub fn mates_within(&self, moves: u32) -> bool {
        matches!(self.score, Score::Mate(p) if p > 0 && p < 2 * moves as i32)
    }
}

/// One engine searcher with a node budget per search, the built-in network and the endgame
/// tables it is given.
pub struct Prover {
    searcher: Searcher,
    nodes: u64,
}

impl Prover {
    /// A prover spending at most `nodes` nodes a search, scoring positions that `tables` cover
    /// from them.
    #[must_use]
    pub fn new(tables: Option<Arc<Tablebases>>, nodes: u64) -> Prover {
        let mut searcher = Searcher::new(Options {
            hash_mb: HASH_MB,
            threads: 1,
            ..Options::default()
        });
        searcher.set_tablebases(tables);
        searcher.set_network(resources::default_network());
        Prover { searcher, nodes }
    }

    /// The node budget of one search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `pos` afresh within `limits` (the node budget added), `multipv` lines, and
    /// returns the lines of the last iteration that finished for each (best first) and the
    /// nodes searched.
    fn search(&mut self, pos: &Position, mut limits: Limits, multipv: usize) -> (Vec<Line>, u64) {
        if self.searcher.options().multipv != multipv {
            let options = Options {
                multipv,
                ..self.searcher.options().clone()
            };
            self.searcher.set_options(options);
        }
        self.searcher.clear();
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
        let mut lines: Vec<Option<Line>> = vec![None; multipv];
        let mut report = |r: Report<'_>| {
            if let Report::Iteration(info) = r {
                let i = info.multipv as usize - 1;
                if i < lines.len() && (info.bound == Bound::Exact || lines[i].is_none()) {
                    lines[i] = Some(Line {
                        score: info.score,
                        pv: info.pv.clone(),
                    });
                }
            }
        };
        let result = self
            .searcher
            .search(pos, &limits, &Arc::new(Control::default()), &mut report);
        let mut out: Vec<Line> = lines.into_iter().flatten().collect();
        // The result is the search's final word on the best move (an iteration may have been
        // cut short after its report).
        if let Some(best) = result.best {
            if out.first().and_then(Line::first) != Some(best) {
                out.insert(
                    0,
                    Line {
                        score: result.score,
                        pv: vec![best],
                    },
                );
                out.truncate(multipv);
            } else if let Some(first) = out.first_mut() {
                first.score = result.score;
            }
        }
        (out, result.nodes)
    }

    /// The best line of `pos`.
    pub fn best(&mut self, pos: &Position) -> Option<Line> {
        self.search(pos, Limits::default(), 1).0.into_iter().next()
    }

    /// The two best lines of `pos` (one when it has one legal move), best first.
    pub fn best_two(&mut self, pos: &Position) -> Vec<Line> {
        self.search(pos, Limits::default(), 2).0
    }

    /// The best line of `pos` among `moves` only.
    pub fn best_of(&mut self, pos: &Position, moves: &[Move]) -> Option<Line> {
        let limits = Limits {
            searchmoves: moves.to_vec(),
            ..Limits::default()
        };
        self.search(pos, limits, 1).0.into_iter().next()
    }

    /// A mate within `moves` of the side to move's moves in `pos` beginning with `first` (any
    /// move when `None`), proved by the search: the line, or `None` when none was found within
    /// the budget.
    pub fn mate(&mut self, pos: &Position, first: Option<Move>, moves: u32) -> Option<Line> {
        let limits = Limits {
            mate: Some(moves),
            searchmoves: first.into_iter().collect(),
            ..Limits::default()
        };
        self.search(pos, limits, 1)
            .0
            .into_iter()
            .next()
            .filter(|l| l.mates_within(moves) && first.is_none_or(|m| l.first() == Some(m)))
    }

    /// A mate within `moves` in `pos` by a move other than `except`, proved by the search.
    pub fn other_mate(&mut self, pos: &Position, except: Move, moves: u32) -> Option<Line> {
        let limits = Limits {
            mate: Some(moves),
            banmoves: vec![except],
            ..Limits::default()
        };
        self.search(pos, limits, 1)
            .0
            .into_iter()
            .next()
            .filter(|l| l.mates_within(moves))
    }

    /// The nodes a search of `pos` needs until its best move is one that `solves` and stays so
    /// to the end of the budget: the nodes at the end of the first iteration from which every
    /// iteration's best move solves; `None` when the last one's does not.
    pub fn effort(&mut self, pos: &Position, solves: &dyn Fn(&Line) -> bool) -> Option<u64> {
        if self.searcher.options().multipv != 1 {
            let options = Options {
                multipv: 1,
                ..self.searcher.options().clone()
            };
            self.searcher.set_options(options);
        }
        self.searcher.clear();
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut since: Option<u64> = None;
        let mut report = |r: Report<'_>| {
            if let Report::Iteration(info) = r {
                if info.multipv != 1 || info.bound != Bound::Exact {
                    return;
                }
                let line = Line {
                    score: info.score,
                    pv: info.pv.clone(),
                };
                if !solves(&line) {
                    since = None;
                } else if since.is_none() {
                    since = Some(info.nodes);
                }
            }
        };
        let result = self
            .searcher
            .search(pos, &limits, &Arc::new(Control::default()), &mut report);
        let last = Line {
            score: result.score,
            pv: result.best.into_iter().collect(),
        };
        if !solves(&last) {
            return None;
        }
        Some(since.unwrap_or(result.nodes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.legal_move_list()
            .iter()
            .copied()
            .find(|m| m.to_string() == text)
            .unwrap()
    }

    #[test]
    fn a_mate_is_proved_and_a_wrong_first_move_proves_none() {
        // 由中应外 (梦入神机): d8e8 e9f9 e8e9 f9e9 c9d7, a mate in 3.
        let pos = Position::from_fen("1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w - - 0 1").unwrap();
        let mut prover = Prover::new(None, 200_000);
        let proof = prover.mate(&pos, Some(mv(&pos, "d8e8")), 3).unwrap();
        assert!(proof.mates_within(3), "{proof:?}");
        assert_eq!(proof.first(), Some(mv(&pos, "d8e8")));
        assert!(prover.mate(&pos, Some(mv(&pos, "b9b8")), 3).is_none());
        assert!(prover.mate(&pos, None, 3).is_some());
    }
}
