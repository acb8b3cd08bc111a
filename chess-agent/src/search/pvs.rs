//! The principal variation search below the root, and the quiescence search.
//!
//! Fail-soft PVS with: check extension, mate distance pruning, transposition table cutoffs at
//! non-PV nodes, reverse futility pruning and null move pruning (not in check, not at PV nodes,
//! not without pieces, to keep zugzwang away), frontier futility pruning of quiet moves, late
//! move reductions by a log-log table, killer and history updates on cutoffs, repetition and
//! 50-move draws. Quiescence searches captures and queen promotions, all evasions in check,
//! skipping captures that lose material by SEE or cannot raise alpha even with a margin (delta
//! pruning).

use std::sync::OnceLock;

use shakmaty::{Chess, Move, Position, Role};

use super::Searcher;
use super::ordering::{mvv_lva, pick};
use super::score::{INFINITY, MATE, MAX_PLY, from_tt, is_mate, to_tt};
use super::see::see;
use super::tt::Bound;
use crate::book;
use crate::eval::{evaluate, value};
use crate::packed_move;

/// Late move reduction in plies for `depth` and the move's index.
fn reduction(depth: i32, index: usize) -> i32 {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        t
    });
    table[(depth as usize).min(63)][index.min(63)]
}

/// Whether the side to move has a piece other than pawns and king (null move is safe-ish).
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    (ours & !board.pawns() & !board.kings()).any()
}

impl Searcher {
    /// Whether the current node's position repeats one since the last irreversible move.
    fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let reach = (halfmoves as usize).min(n);
        // Positions with the same side to move are 2, 4, ... plies back.
        (2..=reach)
            .step_by(2)
            .any(|back| self.keys[n - back] == key)
    }

    /// Searches `pos` (reached at `ply`) to `depth` plies within (alpha, beta).
    pub(super) fn search(
        &mut self,
        pos: &Chess,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        let in_check = pos.is_check();
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if self.poll() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let key = book::key(pos);
        if self.is_repetition(key, pos.halfmoves()) || pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let entry = self.tt.probe(key);
        let tt_packed = entry.map_or(0, |e| e.packed);
        if let Some(e) = entry {
            if !pv_node && i32::from(e.depth) >= depth {
                let s = from_tt(i32::from(e.score), ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate(pos), |e| i32::from(e.eval))
        };

        if !pv_node && !in_check {
            if depth <= 6 && static_eval - 85 * depth >= beta && !is_mate(beta) {
                return static_eval;
            }
            if null_ok && depth >= 3 && static_eval >= beta && has_pieces(pos) {
                if let Ok(null) = pos.clone().swap_turn() {
                    let r = 3 + depth / 6;
                    self.keys.push(key);
                    let s = -self.search(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.keys.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if is_mate(s) { beta } else { s };
                    }
                }
            }
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if pos.halfmoves() >= 100 {
            return 0;
        }
        let mut scores = [0i32; 256];
        self.heuristics
            .score(pos, &moves, tt_packed, ply, &mut scores);

        let old_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut quiets = [None::<Move>; 64];
        let mut quiet_count = 0;
        let mut searched = 0usize;
        for i in 0..moves.len() {
            pick(&mut moves, &mut scores, i);
            let m = moves[i];
            let quiet = !m.is_capture() && !m.is_promotion();
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.is_check();
            if !pv_node
                && !in_check
                && quiet
                && !gives_check
                && searched > 0
                && depth <= 3
                && !is_mate(alpha)
                && static_eval + 100 + 120 * depth <= alpha
            {
                continue;
            }
            self.keys.push(key);
            let new_depth = depth - 1;
            let score = if searched == 0 {
                -self.search(&child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && quiet && !in_check && !gives_check {
                    r = reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if self.heuristics.is_killer(ply, m) {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            self.heuristics.cutoff(
                                pos.turn(),
                                ply,
                                depth,
                                m,
                                &quiets[..quiet_count],
                            );
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets.len() {
                quiets[quiet_count] = Some(m);
                quiet_count += 1;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval = if in_check { 0 } else { static_eval };
        self.tt.store(
            key,
            best_move.map_or(0, packed_move::pack),
            to_tt(best, ply),
            eval,
            depth,
            bound,
        );
        best
    }

    /// Searches captures (all moves in check) until the position is quiet.
    pub(super) fn qsearch(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.poll() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        let mut best = -INFINITY;
        let mut stand = -INFINITY;
        if !in_check {
            stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if !in_check {
            moves.retain(|m| {
                (m.is_capture() || m.promotion() == Some(Role::Queen))
                    && (m.is_promotion() || stand + m.capture().map_or(0, value) + 200 > alpha)
            });
        }
        let mut scores = [0i32; 256];
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = mvv_lva(*m);
        }
        for i in 0..moves.len() {
            pick(&mut moves, &mut scores, i);
            let m = moves[i];
            if !in_check && see(pos, m) < 0 {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
