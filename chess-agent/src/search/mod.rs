//! The search: iterative deepening over a principal variation search, with aspiration windows
//! from depth 4, a transposition table, quiescence, null move, LMR and killer/history ordering
//! (see `pvs.rs` for the node rules).
//!
//! A [`Searcher`] owns its transposition table and heuristics and searches on whatever thread
//! calls [`Searcher::think`]; [`crate::engine`] runs it on its own thread. It stops at the
//! first of: the external stop flag, the hard time limit, the node limit, the depth limit, or,
//! between iterations, the soft time limit. Depth 1 is always completed first, so a move is
//! always returned when one exists.

pub mod bench;
pub mod ordering;
mod pvs;
pub mod score;
pub mod see;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use self::ordering::Heuristics;
use self::score::{INFINITY, MATE, MAX_PLY, is_mate};
use self::tt::{Bound, Table};
use crate::book;
use crate::eval::evaluate;
use crate::packed_move;

/// What bounds one search.
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// The deepest iteration to run.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Start no new iteration after about half of this.
    pub soft: Option<Duration>,
    /// Stop searching at once after this.
    pub hard: Option<Duration>,
}

/// One completed iteration, for `info` lines.
#[derive(Debug, Clone)]
pub struct Report {
    /// The iteration's depth.
    pub depth: i32,
    /// The deepest ply reached.
    pub seldepth: usize,
    /// The score for the side to move, centipawns or mate (see [`score`]).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Transposition table use in permille.
    pub hashfull: usize,
}

/// The result of a search.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The move to play, `None` when the side to move has no legal move.
    pub best: Option<Move>,
    /// The last completed iteration, if any.
    pub last: Option<Report>,
}

/// A searcher with its tables.
#[derive(Debug)]
pub struct Searcher {
    tt: Table,
    heuristics: Heuristics,
    /// Keys of the positions before the current node: game history then search path.
    keys: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    completed: i32,
    start: Instant,
    limits: Limits,
    stop: Arc<AtomicBool>,
    root_moves: Vec<Move>,
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mb),
            heuristics: Heuristics::default(),
            keys: Vec::with_capacity(1024),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            completed: 0,
            start: Instant::now(),
            limits: Limits::default(),
            stop: Arc::new(AtomicBool::new(false)),
            root_moves: Vec::new(),
        }
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics = Heuristics::default();
    }

    /// Searches `pos`, whose earlier positions have the keys `history` (oldest first), never
    /// choosing a move of `excluded` unless every legal move is excluded. `report` is called
    /// after each completed iteration.
    pub fn think(
        &mut self,
        pos: &Chess,
        history: &[u64],
        limits: Limits,
        excluded: &[Move],
        stop: Arc<AtomicBool>,
        report: &mut dyn FnMut(&Report),
    ) -> Outcome {
        self.start = Instant::now();
        self.limits = limits;
        self.stop = stop;
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.completed = 0;
        self.tt.new_search();
        self.heuristics.new_search();
        self.keys.clear();
        self.keys.extend_from_slice(history);

        let legal = pos.legal_moves();
        let mut root: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !excluded.contains(m))
            .collect();
        if root.is_empty() {
            root = legal.to_vec();
        }
        if root.is_empty() {
            return Outcome {
                best: None,
                last: None,
            };
        }
        // Initial order: the ordering heuristics' view of the root.
        let mut scores = [0i32; 256];
        let moves: shakmaty::MoveList = root.iter().copied().collect();
        let tt_packed = self.tt.probe(book::key(pos)).map_or(0, |e| e.packed);
        self.heuristics
            .score(pos, &moves, tt_packed, 0, &mut scores);
        let mut scored: Vec<(Move, i32)> = moves.iter().copied().zip(scores).collect();
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        self.root_moves = scored.into_iter().map(|(m, _)| m).collect();

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 10)
            .clamp(1, MAX_PLY as i32 - 10);
        let mut best = self.root_moves[0];
        let mut last: Option<Report> = None;
        let mut previous = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut delta = 20;
            let (mut alpha, mut beta) = if depth >= 4 && !is_mate(previous) {
                (previous - delta, previous + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            let score = loop {
                let s = self.root(pos, depth, alpha, beta);
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITY);
                } else if s >= beta {
                    beta = (s + delta).min(INFINITY);
                } else {
                    break s;
                }
                delta *= 2;
                if delta > 1000 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            };
            if self.stopped {
                break;
            }
            self.completed = depth;
            previous = score;
            best = self.root_moves[0];
            let info = Report {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: self.principal_variation(pos, depth as usize),
                hashfull: self.tt.hashfull(),
            };
            report(&info);
            last = Some(info);
            if self.root_moves.len() == 1 && (limits.soft.is_some() || limits.hard.is_some()) {
                break;
            }
            if let Some(soft) = limits.soft {
                if self.start.elapsed() * 2 > soft {
                    break;
                }
            }
            // A mate found with a full-width margin: deeper iterations cannot change it.
            if is_mate(score) && depth > 2 * (MATE - score.abs()) + 4 {
                break;
            }
        }
        Outcome {
            best: Some(best),
            last,
        }
    }

    /// Searches the root moves, keeping the best first.
    fn root(&mut self, pos: &Chess, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let key = book::key(pos);
        let mut best = -INFINITY;
        for i in 0..self.root_moves.len() {
            let m = self.root_moves[i];
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.keys.push(key);
            let score = if i == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let s = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && s < beta {
                    -self.search(&child, depth - 1, -beta, -alpha, 1, true)
                } else {
                    s
                }
            };
            self.keys.pop();
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.root_moves[..=i].rotate_right(1);
                }
            }
            if score >= beta {
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let eval = if pos.is_check() { 0 } else { evaluate(pos) };
        self.tt.store(
            key,
            packed_move::pack(self.root_moves[0]),
            best,
            eval,
            depth,
            bound,
        );
        best
    }

    /// The best line from the transposition table, starting with the best root move.
    fn principal_variation(&self, pos: &Chess, max: usize) -> Vec<Move> {
        let mut pv = vec![self.root_moves[0]];
        let mut p = pos.clone();
        p.play_unchecked(self.root_moves[0]);
        let mut seen = vec![book::key(pos)];
        while pv.len() < max.max(1) {
            let key = book::key(&p);
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let Some(e) = self.tt.probe(key) else { break };
            let Some(m) = packed_move::unpack(e.packed, &p.legal_moves()) else {
                break;
            };
            pv.push(m);
            p.play_unchecked(m);
        }
        pv
    }

    /// Checks the limits every 1024 nodes; true once the search must stop.
    fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 && self.completed >= 1 {
            let out_of_time = self.limits.hard.is_some_and(|h| self.start.elapsed() >= h);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Nodes searched by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests;
