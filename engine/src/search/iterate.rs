//! Iterative deepening at the root: aspiration windows, MultiPV, reporting and the decision when
//! to stop between iterations.
//!
//! Each iteration searches every root move one ply deeper than the last, starting with the
//! previous best. From depth 4 on, the window is a narrow band around the previous score and
//! widens (by half again each time) when the score falls outside it. With MultiPV, the lines are
//! searched one after another, each over the moves not already chosen for an earlier line.
//!
//! An iteration cut short by a stop still counts where it is safe: a root move whose search
//! completed and beat the previous best replaces it, while unsearched moves keep their place.

use super::root_move::sort_moves;
use super::score::{INFINITE, MATE_BOUND, MAX_PLY, Score, mate_in, to_tt};
use super::thread::Worker;
use super::tt::TtEntry;
use super::{Bound, Info, Report};
use chariot_rules::{Move, Position};

/// The deepest iteration ever started (leaves room on the stack for extensions).
const MAX_DEPTH: u32 = (MAX_PLY - 16) as u32;

type ReportFn<'r> = Option<&'r mut dyn FnMut(Report<'_>)>;

impl Worker<'_> {
    /// Iterative deepening until a limit or a stop. Only the main thread (with `report`) checks
    /// the time between iterations and reports.
    pub fn iterate(&mut self, pos: &mut Position, mut report: ReportFn<'_>) {
        let limits = self.shared.limits;
        let mut max_depth = MAX_DEPTH;
        if !limits.infinite {
            if let Some(d) = limits.depth {
                max_depth = max_depth.min(d);
            }
            if let Some(n) = limits.mate {
                max_depth = max_depth.min(4 * n.max(1) - 1);
            }
        }
        let multipv = self.shared.config.multipv.min(self.root_moves.len());
        let main = self.id == 0;
        self.enter_root(pos);
        let mut instability = 0.0f64;
        let mut last_best = Move::NONE;

        for depth in 1..=max_depth {
            // Helpers with odd numbers search one ply deeper, so that the threads spread out.
            let depth = if main {
                depth
            } else {
                (depth + (self.id as u32 & 1)).min(MAX_DEPTH)
            };
            self.root_depth = depth as i32;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.aspiration(pos, depth, pv_idx, &mut report);
                sort_moves(&mut self.root_moves[..=pv_idx]);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !main {
                continue;
            }

            let best = self.root_moves[0].clone();
            self.tt.store(
                pos.key(),
                TtEntry {
                    mv: best.mv,
                    score: to_tt(best.score, 0),
                    eval: 0,
                    depth: depth as i32,
                    bound: Bound::Exact,
                },
            );
            self.reported_best = Some(best.clone());
            if let Some(report) = report.as_mut() {
                for i in 0..multipv {
                    let info = self.info(i, Bound::Exact);
                    report(Report::Iteration(&info));
                }
            }

            instability *= 0.5;
            if best.mv != last_best && depth > 1 {
                instability += 1.0;
            }
            last_best = best.mv;
            if self.should_stop_after_iteration(best.score, instability) {
                break;
            }
        }
    }

    fn should_stop_after_iteration(&self, score: i32, instability: f64) -> bool {
        let limits = self.shared.limits;
        let control = self.shared.control;
        if limits.infinite || control.pondering.load(std::sync::atomic::Ordering::Relaxed) {
            return false;
        }
        if let Some(n) = limits.mate
            && score >= mate_in(2 * n as usize - 1)
        {
            return true;
        }
        if !self.time.is_timed() {
            return false;
        }
        if self.root_moves.len() == 1 {
            return true;
        }
        // A proven mate needs no deeper search once the depth covers it comfortably.
        if score.abs() >= MATE_BOUND
            && self.completed_depth as i32 > 2 * (super::score::MATE - score.abs()) + 4
        {
            return true;
        }
        // The next iteration costs about twice the time spent so far: stop once three quarters
        // of the budget are gone, stretched while the best move keeps changing.
        let scale = (0.7 + instability).min(2.5);
        self.time.soft_stop(0.75 * scale)
    }

    /// One line of one iteration, with an aspiration window around the previous score.
    fn aspiration(
        &mut self,
        pos: &mut Position,
        depth: u32,
        pv_idx: usize,
        report: &mut ReportFn<'_>,
    ) {
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.root_search(pos, alpha, beta, depth, pv_idx, report);
            sort_moves(&mut self.root_moves[pv_idx..]);
            if self.stopped {
                return;
            }
            let bound = if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
                Bound::Upper
            } else if v >= beta {
                beta = (v + delta).min(INFINITE);
                Bound::Lower
            } else {
                return;
            };
            if self.id == 0
                && self.shared.start.elapsed().as_millis() >= 3000
                && let Some(report) = report.as_mut()
            {
                let info = self.info(pv_idx, bound);
                report(Report::Iteration(&info));
            }
            delta += delta / 2;
            if delta > 600 {
                (alpha, beta) = (-INFINITE, INFINITE);
            }
        }
    }

    /// Searches the root moves from `pv_idx` on with the window (alpha, beta).
    fn root_search(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        pv_idx: usize,
        report: &mut ReportFn<'_>,
    ) -> i32 {
        self.count_node();
        let mut best = -INFINITE;
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INFINITE;
        }
        let depth = depth as i32;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.id == 0
                && self.shared.start.elapsed().as_millis() >= 1000
                && let Some(report) = report.as_mut()
            {
                report(Report::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: (i + 1) as u32,
                });
            }
            self.data.stack[0].current = m;
            self.data.stack[0].moved = super::history::moving_piece(pos, m);
            self.enter_move(pos, 0, m);
            pos.make_move(m);
            let mut v;
            if i == pv_idx {
                v = -self.search::<true>(pos, -beta, -alpha, depth - 1, 1, false);
            } else {
                v = -self.search::<false>(pos, -alpha - 1, -alpha, depth - 1, 1, true);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search::<true>(pos, -beta, -alpha, depth - 1, 1, false);
                }
            }
            pos.unmake_move();
            if self.stopped {
                return best;
            }
            if i == pv_idx || v > alpha {
                let seldepth = self.seldepth;
                let child_len = self.data.pv_len[1];
                let rm = &mut self.root_moves[i];
                rm.score = v;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend_from_slice(&self.data.pv[1][1..child_len.max(1)]);
            }
            if v > best {
                best = v;
                if v > alpha {
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        best
    }

    /// The report of line `i`.
    fn info(&self, i: usize, bound: Bound) -> Info {
        let rm = &self.root_moves[i];
        let elapsed = self.shared.start.elapsed();
        let nodes = self.total_nodes();
        let ms = elapsed.as_millis().max(1) as u64;
        Info {
            depth: self.root_depth as u32,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: i as u32 + 1,
            score: Score::from_internal(rm.shown_score()),
            bound,
            nodes,
            nps: nodes.saturating_mul(1000) / ms,
            time: elapsed,
            hashfull: self.tt.hashfull(),
            tbhits: self
                .shared
                .tbhits
                .load(std::sync::atomic::Ordering::Relaxed),
            pv: rm.pv.clone(),
        }
    }

    /// Nodes of all threads, with this thread's exact count.
    pub fn total_nodes(&self) -> u64 {
        let others: u64 = self
            .shared
            .nodes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != self.id)
            .map(|(_, n)| n.load(std::sync::atomic::Ordering::Relaxed))
            .sum();
        others + self.nodes
    }
}
