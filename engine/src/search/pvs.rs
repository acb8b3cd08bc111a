//! The alpha-beta search of one thread: principal variation search with a transposition table,
//! null-move pruning, late move reductions, futility pruning and check extensions, ending in a
//! quiescence search over captures (and check evasions).
//!
//! Scores are from the side to move's view (negamax). `PV` nodes are those searched with an open
//! window (on the principal variation); every other node is searched with a null window and may
//! be pruned more aggressively. The pruning techniques are enabled by the `pruning` option level
//! (see `docs/search.md`).
//!
//! Xiangqi specifics: a side without a legal move has lost (there is no stalemate draw), 120
//! plies without a capture are a draw, and repeated positions are judged by
//! [`repetition_score`].

use std::sync::OnceLock;

use super::draw::{NATURAL_LIMIT, repetition_score};
use super::history::{ContBase, History, NO_CONT, is_quiet, moving_piece};
use super::picker::{MAX_QUIETS, MovePicker, attacker_value, victim_value};
use super::score::{INFINITE, MATE_BOUND, MAX_PLY, from_tt, is_mate, mate_in, mated_in, to_tt};
use super::score::{tb_rule_win_at, tb_win_in};
use super::see::{see, see_ge};
use super::thread::Worker;
use super::tt::{EVAL_NONE, TtEntry};
use super::{Bound, Level};
use chariot_formats::egtb::{Metric, Tablebases, Value as TbValue};
use chariot_rules::{Kind, Move, Piece, Position};

/// Late move reductions by depth and move number: about `ln(depth) * ln(moves) / 2`.
fn reduction(depth: i32, moves: usize) -> i32 {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.25 + (d as f64).ln() * (m as f64).ln() / 2.0) as u8;
            }
        }
        t
    });
    i32::from(t[(depth as usize).min(63)][moves.min(63)])
}

/// Whether the side to move at `ply` is in check. Below the root's children, the position
/// before the last move was reached by a legal move, so only the last move can have given check
/// ([`Position::in_check_after_move`]); the root's children are tested in full, in case the root
/// was set up with the side not to move in check (allowed for analysis).
#[inline]
fn side_in_check(pos: &Position, ply: usize) -> bool {
    if ply >= 2 {
        pos.in_check_after_move()
    } else {
        pos.in_check()
    }
}

/// [`side_in_check`] at a node's entry, unless the parent already found it out (`known`, taken
/// from the node's frame).
#[inline]
fn node_in_check(pos: &Position, ply: usize, known: Option<bool>) -> bool {
    debug_assert!(known.is_none_or(|c| c == pos.in_check()));
    known.unwrap_or_else(|| side_in_check(pos, ply))
}

/// `true` when passing is a safe guess for the side to move: it keeps a chariot or two horses
/// and cannons. With less (only defenders and soldiers, or one minor piece) zugzwang is common
/// in Xiangqi endgames and the null move would lie.
fn null_move_safe(pos: &Position) -> bool {
    let us = pos.turn();
    let n = |k: Kind| pos.pieces(Piece::new(us, k)).count();
    n(Kind::Chariot) >= 1 || n(Kind::Horse) + n(Kind::Cannon) >= 2
}

impl Worker<'_> {
    /// The search of a node below the root at `ply` with remaining `depth`.
    pub fn search<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(pos, alpha, beta, ply);
        }
        let known_check = self.data.stack[ply].check.take();
        self.data.pv_len[ply] = ply;
        self.count_node();
        if self.stopped {
            return 0;
        }
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }

        // Draws by the move limit and by repetition.
        if pos.halfmoves() >= NATURAL_LIMIT {
            return self.draw_score(pos);
        }
        if let Some(v) = repetition_score(pos, self.draw_score(pos), ply) {
            return v;
        }
        if ply >= MAX_PLY - 4 {
            return self.evaluate(pos, ply);
        }
        // A position an endgame table covers is scored by it: quicker wins and slower losses
        // score better (the distance counts from the root).
        if let Some((tables, pieces)) = self.shared.tables
            && pos.piece_count() <= pieces
            && let Some(v) = self.probe_tables(tables, pos, ply)
        {
            return v;
        }

        // Mate distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let in_check = node_in_check(pos, ply, known_check);
        let key = pos.key();
        let tte = self.tt.probe(key);
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if !PV
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                }
            {
                return v;
            }
        }

        if !tt_move.is_none() {
            // The table move is searched first, after the evaluation and the pruning tests
            // below: its child's entry has time to arrive.
            self.tt.prefetch(pos.key_after(tt_move));
        }

        let config = self.shared.config;
        let eval = if in_check {
            -INFINITE
        } else if let Some(e) = tte
            && e.eval != EVAL_NONE
        {
            e.eval
        } else {
            self.evaluate(pos, ply)
        };
        self.data.stack[ply].static_eval = eval;
        self.data.stack[ply + 2].killers = [Move::NONE; 2];
        let improving = !in_check && ply >= 2 && eval > self.data.stack[ply - 2].static_eval;

        if !PV && !in_check {
            // Reverse futility: far above beta at low depth, the opponent will not catch up.
            if config.futility()
                && depth <= 6
                && beta.abs() < MATE_BOUND
                && eval - 90 * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }

            // Null move: if passing still fails high, a real move will too.
            if config.null_move()
                && depth >= 2
                && eval >= beta
                && ply >= self.nmp_min_ply
                && !self.data.stack[ply - 1].current.is_none()
                && beta.abs() < MATE_BOUND
                && null_move_safe(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.data.stack[ply].current = Move::NONE;
                self.data.stack[ply].moved = 0;
                self.enter_null(ply);
                pos.make_null();
                self.tt.prefetch(pos.key());
                let v = -self.search::<false>(pos, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if is_mate(v) { beta } else { v };
                    if self.nmp_min_ply > 0 || depth < 10 {
                        return v;
                    }
                    // At high depth, verify with a reduced search without null moves near here.
                    self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                    let w = self.search::<false>(pos, beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Without a table move, a deep node is likely new: search it a ply shallower
        // (internal iterative reduction).
        let mut depth = depth;
        if config.reductions() && tt_move.is_none() && depth >= 4 && (PV || cut_node) {
            depth -= 1;
        }
        // Check extension (bounded, so that long checking sequences cannot run away).
        if in_check && (ply as i32) < 2 * self.root_depth + 8 {
            depth += 1;
        }

        let prev = self.data.stack[ply - 1];
        let counter = self.data.history.counter(prev.moved, prev.current);
        let conts = [
            History::cont_base(prev.moved, prev.current),
            if ply >= 2 {
                let p2 = self.data.stack[ply - 2];
                History::cont_base(p2.moved, p2.current)
            } else {
                NO_CONT
            },
        ];
        let mut picker = MovePicker::new(tt_move, self.data.stack[ply].killers, counter, in_check)
            .with_continuations(conts);
        let us = pos.turn();
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut move_count = 0usize;
        // The quiet moves tried (without a cutoff) go to `self.data.buffers[ply].quiets`.
        let mut quiet_count = 0;
        let original_alpha = alpha;

        // The move after the one being searched, picked early (see below).
        let mut early: Option<Move> = None;
        loop {
            let m = match early.take() {
                Some(m) => m,
                None => {
                    let Some(m) = picker.next(pos, &self.data.history, &mut self.data.buffers[ply])
                    else {
                        break;
                    };
                    // Start loading the child's table entry now; the pruning tests below
                    // overlap it.
                    self.tt.prefetch(pos.key_after(m));
                    m
                }
            };
            move_count += 1;
            let quiet = is_quiet(pos, m);
            // The `blunders` option: a capture not seen (never an evasion, so that a mate is
            // never seen where there is none).
            if !quiet && !in_check && self.overlooks(pos, m) {
                continue;
            }
            let killer =
                m == self.data.stack[ply].killers[0] || m == self.data.stack[ply].killers[1];

            // Shallow-depth pruning of moves that are unlikely to matter.
            if best > -MATE_BOUND && !in_check && move_count > 1 && depth <= 6 && config.futility()
            {
                if quiet {
                    // Checking moves are never pruned; whether a move gives check is only
                    // worked out when it would be.
                    let late = config.move_count_pruning()
                        && depth <= 6
                        && move_count
                            > (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                    let futile =
                        config.futility() && !PV && depth <= 5 && eval + 120 + 90 * depth <= alpha;
                    if (late || futile) && !pos.gives_check(m) {
                        if late {
                            picker.skip_quiets();
                        }
                        continue;
                    }
                } else if config.futility()
                    && !PV
                    && depth <= 4
                    // The exchange never loses more than the capturer's value less the
                    // victim's: most captures pass without working it out.
                    && victim_value(pos, m) - attacker_value(pos, m) < -120 * depth
                    && see(pos, m) < -120 * depth
                {
                    continue;
                }
            }

            if move_count >= 2 {
                // Past the first move a cutoff is unlikely: pick the next move now and start
                // loading its child's table entry, which then arrives during this move's search.
                // The picker's order does not depend on what the search of this move finds.
                // Not if that means generating the quiet moves: this move may yet cut off.
                early =
                    picker.next_if_generated(pos, &self.data.history, &mut self.data.buffers[ply]);
                if let Some(n) = early {
                    self.tt.prefetch(pos.key_after(n));
                }
            }
            self.data.stack[ply].current = m;
            self.data.stack[ply].moved = moving_piece(pos, m);
            self.enter_move(pos, ply, m);
            pos.make_move(m);
            let new_depth = depth - 1;
            let mut v;
            if move_count == 1 {
                v = -self.search::<PV>(pos, -beta, -alpha, new_depth, ply + 1, !PV && !cut_node);
            } else {
                let mut r = 0;
                if config.reductions() && depth >= 3 && move_count > 1 + usize::from(PV) && quiet {
                    r = reduction(depth, move_count);
                    if config.pruning >= Level::Huge {
                        r += 1;
                    }
                    if !PV {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if improving {
                        r -= 1;
                    }
                    if killer {
                        r -= 1;
                    }
                    r -= self
                        .data
                        .history
                        .quiet_score(us, self.data.stack[ply].moved, m, &conts)
                        / 6000;
                    let gives_check = side_in_check(pos, ply + 1);
                    // The child need not work it out again.
                    self.data.stack[ply + 1].check = Some(gives_check);
                    if gives_check {
                        // The move gives check (the opponent is in check now).
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search::<false>(pos, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.search::<false>(
                        pos,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                }
                if PV && v > alpha && v < beta && !self.stopped {
                    v = -self.search::<true>(pos, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            pos.unmake_move();
            if self.stopped {
                return 0;
            }

            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
            if quiet && m != best_move && quiet_count < MAX_QUIETS {
                self.data.buffers[ply].quiets[quiet_count] = m;
                quiet_count += 1;
            }
        }

        if move_count == 0 {
            // No legal move: checkmated or stalemated, and in Xiangqi both lose.
            return mated_in(ply);
        }
        if best == -INFINITE {
            // Every move was a capture the `blunders` option overlooked: the side sees nothing
            // to play and stands on the evaluation.
            best = eval;
        }

        if best >= beta && is_quiet(pos, best_move) {
            self.reward_quiet(pos, ply, depth, best_move, quiet_count, &conts);
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if PV && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        self.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: to_tt(best, ply),
                eval: stored_eval,
                depth,
                bound,
            },
        );
        best
    }

    /// Quiescence search: only captures (all evasions when in check), so that the evaluation
    /// is taken in quiet positions.
    pub fn qsearch<const PV: bool>(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let known_check = self.data.stack[ply].check.take();
        self.data.pv_len[ply] = ply;
        self.count_node();
        if self.stopped {
            return 0;
        }
        if PV && ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply >= MAX_PLY - 4 {
            return self.evaluate(pos, ply);
        }

        let in_check = node_in_check(pos, ply, known_check);
        let key = pos.key();
        let tte = self.tt.probe(key);
        if let Some(e) = tte {
            let v = from_tt(e.score, ply);
            if !PV
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                }
            {
                return v;
            }
        }
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        if !tt_move.is_none() {
            self.tt.prefetch(pos.key_after(tt_move));
        }

        let mut best;
        let eval;
        let stored_eval;
        if in_check {
            best = -INFINITE;
            eval = 0;
            stored_eval = 0;
        } else {
            // Far outside the window, a bound of the evaluation does (the quick part of it
            // plus or minus a margin): a bound at or above beta stands pat, one at or below
            // alpha still lets the captures be tried and delta-pruned against it.
            let exact;
            (eval, exact) = match tte {
                Some(e) if e.eval != EVAL_NONE => (e.eval, true),
                _ => self.evaluate_lazy(pos, ply, alpha, beta),
            };
            stored_eval = if exact { eval } else { EVAL_NONE };
            best = eval;
            if best >= beta {
                if tte.is_none() {
                    self.tt.store(
                        key,
                        TtEntry {
                            mv: Move::NONE,
                            score: to_tt(best, ply),
                            eval: stored_eval,
                            depth: -1,
                            bound: Bound::Lower,
                        },
                    );
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        let mut picker = MovePicker::quiescence(tt_move, in_check);
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        while let Some(m) = picker.next(pos, &self.data.history, &mut self.data.buffers[ply]) {
            self.tt.prefetch(pos.key_after(m));
            if move_count == 0 {
                // Captures are few: start loading all their children's entries at once, so
                // that the loads overlap one another.
                for &next in picker.remaining(&self.data.buffers[ply]) {
                    self.tt.prefetch(pos.key_after(next));
                }
            }
            move_count += 1;
            if !in_check {
                // The `blunders` option: a capture not seen.
                if self.overlooks(pos, m) {
                    continue;
                }
                // Delta pruning: even winning this piece and a bit more cannot reach alpha.
                if eval + victim_value(pos, m) + 200 <= alpha {
                    continue;
                }
                // Only a capture by a piece worth more than its victim can lose material.
                if attacker_value(pos, m) > victim_value(pos, m) && !see_ge(pos, m, 0) {
                    continue;
                }
            }
            self.data.stack[ply].current = m;
            self.data.stack[ply].moved = moving_piece(pos, m);
            self.enter_move(pos, ply, m);
            pos.make_move(m);
            let v = -self.qsearch::<PV>(pos, -beta, -alpha, ply + 1);
            pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && move_count == 0 {
            return mated_in(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        let depth = if in_check { 0 } else { -1 };
        self.tt.store(
            key,
            TtEntry {
                mv: best_move,
                score: to_tt(best, ply),
                eval: stored_eval,
                depth,
                bound,
            },
        );
        best
    }

    /// The endgame tables' score of a position they cover: quicker wins and slower losses score
    /// better (the distance counts from the root). `None` when no table covers it. Out of line,
    /// like the other rare steps of a node, to keep the search function's code small.
    #[inline(never)]
    fn probe_tables(&self, tables: &Tablebases, pos: &Position, ply: usize) -> Option<i32> {
        if !tables.covers(pos) {
            return None;
        }
        let (value, metric) = tables.probe_with_metric(pos).ok()??;
        self.shared
            .tbhits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // DTM tables hold exact distances to mate: report them as mates when they fit in the
        // mate range, as table wins below it when they do not. A DTC table's distance is no
        // mate distance: a table win. Rule wins score below every table mate.
        let dtm = metric == Metric::Dtm;
        let plies = ply + value.dtm().unwrap_or(0) as usize;
        Some(match value {
            TbValue::Win(_) if dtm && plies < MAX_PLY => mate_in(plies),
            TbValue::Loss(_) if dtm && plies < MAX_PLY => mated_in(plies),
            TbValue::Win(_) => tb_win_in(plies as u32),
            TbValue::Loss(_) => -tb_win_in(plies as u32),
            // Won or lost by the perpetual-check rule: decided, but not by mate.
            TbValue::RuleWin(_) => tb_rule_win_at(ply),
            TbValue::RuleLoss(_) => -tb_rule_win_at(ply),
            TbValue::Draw => self.draw_score(pos),
        })
    }

    /// A quiet move cut off at `ply`: it gains in the histories and becomes the counter move
    /// and first killer; the quiet moves tried before it (in the ply's buffer) lose.
    #[inline(never)]
    fn reward_quiet(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        best_move: Move,
        quiet_count: usize,
        conts: &[ContBase; 2],
    ) {
        let us = pos.turn();
        let prev = self.data.stack[ply - 1];
        let bonus = (depth * depth).min(400) * 8;
        let history = &mut self.data.history;
        history.update_quiet(us, moving_piece(pos, best_move), best_move, conts, bonus);
        for &q in &self.data.buffers[ply].quiets[..quiet_count] {
            history.update_quiet(us, moving_piece(pos, q), q, conts, -bonus);
        }
        history.set_counter(prev.moved, prev.current, best_move);
        let killers = &mut self.data.stack[ply].killers;
        if killers[0] != best_move {
            killers[1] = killers[0];
            killers[0] = best_move;
        }
    }

    /// Makes `m` followed by the child's line the principal variation of `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.data.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.data.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[ply] = m;
        row[ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.data.pv_len[ply] = child_len;
    }
}
