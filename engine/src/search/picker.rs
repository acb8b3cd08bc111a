//! Move ordering: the staged move picker, which hands out the moves of a node in the order to
//! try them.
//!
//! Alpha-beta prunes best when the best move comes first. The order is:
//! 1. the transposition table's move (tried before any generation: it often refutes at once);
//! 2. captures that do not lose material by static exchange (SEE), most valuable victim first,
//!    least valuable attacker next (MVV/LVA);
//! 3. the two killer moves of this ply (quiet moves that refuted a sibling), then the counter
//!    move (the quiet move that last refuted the opponent's previous move);
//! 4. the other quiet moves by their history score (how often they caused cutoffs; the tables
//!    are in [`super::history`]);
//! 5. captures that lose material by SEE.
//!
//! Generation is staged: the table move is tried before anything is generated; then only the
//! captures are generated, and the quiet moves only once the good captures and the killers have
//! not refuted the node (about half of the nodes that generate at all never get there). Within a
//! stage, moves are picked by a lazy selection sort, so a cutoff after a few moves never pays for
//! sorting the rest. Each pick takes the first move of the highest score (the scan is written so
//! that the compiler can use vector instructions) and swaps it to the front of the unpicked part.
//! The losing captures wait in the buffer, before the quiet moves, until those are done.
//!
//! Everything that can be put off is put off, without changing the order in which moves come
//! out (a test compares the picker with the plain eager algorithm, stage by stage):
//! - legality: a move is tested (with the node's `Legality` context) only when it is about to be
//!   picked, or about to be swapped away from the front; an illegal one is removed keeping the
//!   order of the others, so the picks are those of a list of the legal moves alone. In check,
//!   where most pseudo-legal moves are illegal, each stage's list is filtered at once instead;
//! - static exchanges (below);
//! - the search's early pick of the next move (to prefetch its table entry) never makes the
//!   picker generate the quiet moves ([`MovePicker::next_if_generated`]).
//!
//! The static exchange of a capture is only worked out when the capture is about to be picked:
//! until then it is *pending*, scored as a winning capture plus one. Since a pending score is
//! never below the capture's true score, and a pending capture on top is resolved and the scan
//! repeated (without swapping), the moves come out in exactly the order of scoring every capture
//! up front, at the cost of an exchange evaluation only for captures actually reached.

use super::history::{ContBase, History, NO_CONT};
use super::see::{BYTE_VALUE, see_ge};
use chariot_rules::movegen::Legality;
use chariot_rules::{Move, MoveList, Position};

/// Move scores fit 16 bits, so that the search for the best one handles eight at a time.
/// Captures: winning and equal ones above losing ones; quiet moves by history (within
/// ±[`HISTORY_MAX`]); in both, the marker of a move already handed out (the table move, a
/// killer or the counter move) below everything.
/// Capture scores are a base plus twice the MVV/LVA value; the low bit marks a capture whose
/// exchange has not been evaluated yet (it sorts as a winning one until then).
///
/// [`HISTORY_MAX`]: super::history::HISTORY_MAX
type OrderKey = i16;
const SCORE_GOOD_CAPTURE: OrderKey = 16_388;
const SCORE_BAD_CAPTURE: OrderKey = -32_767;
/// The table move's entry in the list.
const TT_MARK: OrderKey = OrderKey::MIN;
/// MVV/LVA values are at most a chariot's worth times eight (the general is never captured).
const MAX_MVV_LVA: i32 = 8 * 900;

/// The exchange value of the piece on the target of `m` (0 if none).
#[inline]
pub(crate) fn victim_value(pos: &Position, m: Move) -> i32 {
    BYTE_VALUE[usize::from(pos.board()[m.to().index()])]
}

/// The exchange value of the piece that makes `m`.
#[inline]
pub(crate) fn attacker_value(pos: &Position, m: Move) -> i32 {
    BYTE_VALUE[usize::from(pos.board()[m.from().index()])]
}

#[cfg(test)]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| p.kind().index() as i32);
    victim_value(pos, m) * 8 - attacker
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    /// The killers and the counter move, by index into [`MovePicker::refutations`].
    Refutations(u8),
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Hands out the moves of one node, best first (see the module documentation).
pub(crate) struct MovePicker {
    stage: Stage,
    tt_move: Move,
    /// The two killers and the counter move, in the order they are tried.
    refutations: [Move; 3],
    /// The continuation histories of the two previous moves.
    conts: [ContBase; 2],
    /// Quiescence: captures only (unless in check, when all evasions are generated).
    captures_only: bool,
    /// The side to move is in check.
    in_check: bool,
    skip_quiets: bool,
    /// Set during [`MovePicker::next_if_generated`]: stop before generating the quiet moves.
    generated_only: bool,
    /// The next move of the current stage's part of the buffer.
    next: usize,
    /// The end of the current stage's moves still to hand out.
    end: usize,
    /// Where the captures that lose material start in the buffer, once the good ones are out.
    bad_start: usize,
    /// The end of the captures in the buffer (the quiet moves are generated after them).
    captures_end: usize,
    /// How to test the generated (pseudo-legal) moves for legality when they come up; worked
    /// out when first needed (a quiescence node without captures never needs it). In check,
    /// where most pseudo-legal moves are illegal, each stage's moves are all tested at
    /// generation instead.
    legality: Option<Legality>,
}

/// The move list and scores of one node; kept per ply in the thread's data and reused, so that
/// no node pays for initialising them.
pub(crate) struct MoveBuffer {
    pub moves: MoveList,
    /// The scores of `moves`, followed by a block of [`TT_MARK`] after the part being picked
    /// (see [`first_max`]).
    pub scores: [OrderKey; SCORES],
    /// The quiet moves the search tried at this node without a cutoff, in order (their history
    /// is lowered when a later quiet move cuts off); kept here rather than in a local array, so
    /// that no node pays for initialising it.
    pub quiets: [Move; MAX_QUIETS],
}

/// How many tried quiet moves a node remembers for the history update.
pub(crate) const MAX_QUIETS: usize = 64;

impl MoveBuffer {
    pub fn new() -> MoveBuffer {
        MoveBuffer {
            moves: MoveList::new(),
            scores: [0; SCORES],
            quiets: [Move::NONE; MAX_QUIETS],
        }
    }
}

impl MovePicker {
    /// The picker of a full-width node, whose side to move is `in_check` or not.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move, in_check: bool) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            refutations: [killers[0], killers[1], counter],
            conts: [NO_CONT; 2],
            captures_only: false,
            in_check,
            skip_quiets: false,
            generated_only: false,
            next: 0,
            end: 0,
            bad_start: 0,
            captures_end: 0,
            legality: None,
        }
    }

    /// Orders quiet moves also by the continuation histories of the two previous moves.
    pub fn with_continuations(mut self, conts: [ContBase; 2]) -> MovePicker {
        self.conts = conts;
        self
    }

    /// The picker of a quiescence node: captures only, or every evasion when in check.
    pub fn quiescence(tt_move: Move, in_check: bool) -> MovePicker {
        let mut p = MovePicker::new(tt_move, [Move::NONE; 2], Move::NONE, in_check);
        p.captures_only = !in_check;
        p
    }

    /// The moves of the current stage not handed out yet, in no particular order (empty
    /// outside the stages that pick from the buffer).
    pub fn remaining<'b>(&self, buf: &'b MoveBuffer) -> &'b [Move] {
        match self.stage {
            Stage::GoodCaptures | Stage::Quiets | Stage::BadCaptures => {
                &buf.moves[self.next..self.end]
            }
            _ => &[],
        }
    }

    /// From now on, hand out no more quiet moves (late move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when all have been handed out.
    pub fn next(
        &mut self,
        pos: &Position,
        history: &History,
        buf: &mut MoveBuffer,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    let m = self.tt_move;
                    if !m.is_none()
                        && (!self.captures_only || pos.is_capture(m))
                        && pos.is_pseudo_legal(m)
                        && ((!self.in_check && pos.surely_keeps_general_safe(m))
                            || pos.is_legal_pseudo(m))
                    {
                        return Some(m);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenerateCaptures => {
                    self.stage = Stage::GoodCaptures;
                    buf.moves.clear();
                    pos.pseudo_legal_captures(&mut buf.moves);
                    if self.in_check {
                        let ctx = self.legality(pos);
                        pos.retain_legal_with(&mut buf.moves, 0, &ctx);
                    }
                    self.score_captures(pos, buf);
                }
                Stage::GoodCaptures => {
                    if let Some(m) = self.pick_good_capture(pos, buf) {
                        return Some(m);
                    }
                    // What is left of the captures lose material by exchange: they wait in
                    // place until the quiet moves are done.
                    self.bad_start = self.next;
                    self.captures_end = self.end;
                    self.stage = if self.captures_only {
                        Stage::Done
                    } else {
                        Stage::Refutations(0)
                    };
                }
                Stage::Refutations(i) => {
                    let i = usize::from(i);
                    if i >= self.refutations.len() || self.skip_quiets {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    self.stage = Stage::Refutations(i as u8 + 1);
                    let m = self.refutations[i];
                    if !m.is_none()
                        && m != self.tt_move
                        && !self.refutations[..i].contains(&m)
                        && !pos.is_capture(m)
                        && pos.is_pseudo_legal(m)
                        && self.is_legal_move(pos, m)
                    {
                        return Some(m);
                    }
                    // Not playable here: not handed out, so not to be skipped among the quiets.
                    self.refutations[i] = Move::NONE;
                }
                Stage::GenerateQuiets => {
                    if self.generated_only {
                        return None;
                    }
                    if self.skip_quiets {
                        self.start_bad_captures();
                        continue;
                    }
                    self.stage = Stage::Quiets;
                    self.generate_quiets(pos, history, buf);
                }
                Stage::Quiets => {
                    if !self.skip_quiets
                        && let Some(m) = self.pick_quiet(pos, buf)
                    {
                        return Some(m);
                    }
                    self.start_bad_captures();
                }
                Stage::BadCaptures => return self.pick_bad_capture(pos, buf),
                Stage::Done => return None,
            }
        }
    }

    /// Scores the captures of `buf.moves` by MVV/LVA, leaving the exchange pending where the
    /// capturer is worth more than its victim.
    /// [`MovePicker::next`], unless that needs the quiet moves generated first: then `None`,
    /// and the picker is left as it was (a later [`MovePicker::next`] generates them). For
    /// picking a move early, before it is known whether it will be needed.
    pub fn next_if_generated(
        &mut self,
        pos: &Position,
        history: &History,
        buf: &mut MoveBuffer,
    ) -> Option<Move> {
        self.generated_only = true;
        let m = self.next(pos, history, buf);
        self.generated_only = false;
        m
    }

    fn score_captures(&mut self, pos: &Position, buf: &mut MoveBuffer) {
        let board = pos.board();
        for (i, &m) in buf.moves.iter().enumerate() {
            let (from, to) = (m.from().index(), m.to().index());
            buf.scores[i] = if m == self.tt_move {
                TT_MARK
            } else {
                let (victim, attacker) = (board[to], board[from]);
                let (vv, av) = (
                    BYTE_VALUE[usize::from(victim)],
                    BYTE_VALUE[usize::from(attacker)],
                );
                // MVV/LVA: the victim's value, then the cheaper attacker kind.
                let mvv_lva = (vv * 8 - i32::from(attacker & 7) + 1).min(MAX_MVV_LVA);
                let v = 2 * mvv_lva as OrderKey;
                // Capturing something worth at least the capturer never loses material.
                if self.captures_only || av <= vv {
                    SCORE_GOOD_CAPTURE + v
                } else {
                    // Pending: the exchange is evaluated if the capture comes to the top.
                    SCORE_GOOD_CAPTURE + v + 1
                }
            };
        }
        let n = buf.moves.len();
        buf.scores[n..n + BLOCK].fill(TT_MARK);
        self.next = 0;
        self.end = n;
    }

    /// Generates the quiet moves after the captures in the buffer (only the legal ones when in
    /// check) and scores them. Kept out of line: once per node at most, it would otherwise make
    /// every call of [`MovePicker::next`] dearer.
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Position, history: &History, buf: &mut MoveBuffer) {
        history.prefetch_continuations(pos.turn(), &self.conts);
        let start = buf.moves.len();
        pos.pseudo_legal_quiets(&mut buf.moves);
        if self.in_check {
            let ctx = self.legality(pos);
            pos.retain_legal_with(&mut buf.moves, start, &ctx);
        }
        self.score_quiets(pos, history, buf, start);
    }

    /// Scores the quiet moves `buf.moves[start..]` by history; the table move, killers and
    /// counter move, already handed out, are marked to be skipped.
    fn score_quiets(
        &mut self,
        pos: &Position,
        history: &History,
        buf: &mut MoveBuffer,
        start: usize,
    ) {
        let us = pos.turn();
        let board = pos.board();
        let [k1, k2, c] = self.refutations;
        for i in start..buf.moves.len() {
            let m = buf.moves[i];
            buf.scores[i] = if m == self.tt_move || m == k1 || m == k2 || m == c {
                TT_MARK
            } else {
                history.quiet_score(us, board[m.from().index()], m, &self.conts) as OrderKey
            };
        }
        let n = buf.moves.len();
        buf.scores[n..n + BLOCK].fill(TT_MARK);
        self.next = start;
        self.end = n;
    }

    /// The node's legality context, worked out on first use.
    #[inline]
    fn legality(&mut self, pos: &Position) -> Legality {
        *self
            .legality
            .get_or_insert_with(|| pos.legality_in_check(self.in_check))
    }

    /// `true` when the move at `i` in the buffer is legal (in check, the lists hold only legal
    /// moves).
    #[inline(always)]
    fn is_legal(&mut self, pos: &Position, buf: &MoveBuffer, i: usize) -> bool {
        self.in_check || self.is_legal_move(pos, buf.moves[i])
    }

    /// `true` when the pseudo-legal move `m` is legal.
    #[inline(always)]
    fn is_legal_move(&mut self, pos: &Position, m: Move) -> bool {
        let cleared = match self.legality {
            Some(ctx) => ctx.surely_legal(m),
            // Until a move needs the context, two masks clear most moves without it.
            None => !self.in_check && pos.surely_keeps_general_safe(m),
        };
        cleared || self.is_legal_slow(pos, m)
    }

    /// [`MovePicker::is_legal`] for a move that the context, if known yet, does not clear
    /// at once.
    #[inline(never)]
    fn is_legal_slow(&mut self, pos: &Position, m: Move) -> bool {
        pos.is_legal_with(m, &self.legality(pos))
    }

    /// Takes the (illegal) move at `i` out of the current stage's part of the buffer, keeping
    /// the order of the others, so that the rest are picked exactly as from a list of the
    /// legal moves alone.
    fn remove(&mut self, buf: &mut MoveBuffer, i: usize) {
        let end = self.end;
        buf.moves.as_mut_slice().copy_within(i + 1..end, i);
        buf.scores.copy_within(i + 1..end, i);
        self.end -= 1;
        buf.scores[self.end] = TT_MARK;
    }

    /// The captures that win or keep material, best first; `None` when only losing ones (and
    /// the table move's marker) are left.
    fn pick_good_capture(&mut self, pos: &Position, buf: &mut MoveBuffer) -> Option<Move> {
        loop {
            if self.next >= self.end {
                return None;
            }
            let best = first_max(&buf.scores, self.next, self.end);
            let top = buf.scores[best];
            if top < SCORE_GOOD_CAPTURE {
                return None;
            }
            if !self.is_legal(pos, buf, best) {
                self.remove(buf, best);
                continue;
            }
            if top & 1 != 0 {
                // A pending capture: settle it, then look again (it may no longer be on top).
                let m = buf.moves[best];
                let base = if see_ge(pos, m, 0) {
                    SCORE_GOOD_CAPTURE
                } else {
                    SCORE_BAD_CAPTURE
                };
                buf.scores[best] = base + (top - 1 - SCORE_GOOD_CAPTURE);
                continue;
            }
            if let Some(m) = self.take(pos, buf, best) {
                return Some(m);
            }
        }
    }

    /// The quiet moves by history.
    fn pick_quiet(&mut self, pos: &Position, buf: &mut MoveBuffer) -> Option<Move> {
        loop {
            if self.next >= self.end {
                return None;
            }
            let best = first_max(&buf.scores, self.next, self.end);
            if buf.scores[best] == TT_MARK {
                // Only moves already handed out are left.
                return None;
            }
            if !self.is_legal(pos, buf, best) {
                self.remove(buf, best);
                continue;
            }
            if let Some(m) = self.take(pos, buf, best) {
                return Some(m);
            }
        }
    }

    /// Hands out the move at `best` by swapping it to the front of the current part; `None`
    /// when the front move, which would be swapped back, proves illegal first (it is removed).
    #[inline]
    fn take(&mut self, pos: &Position, buf: &mut MoveBuffer, best: usize) -> Option<Move> {
        if best != self.next && !self.is_legal(pos, buf, self.next) {
            // The front move would be swapped to where the best one was: it must be one
            // that the list of legal moves holds, or the order of the rest changes.
            self.remove(buf, self.next);
            return None;
        }
        let slice = buf.moves.as_mut_slice();
        slice.swap(self.next, best);
        buf.scores.swap(self.next, best);
        let m = slice[self.next];
        self.next += 1;
        Some(m)
    }

    /// Goes back to the captures left after [`Stage::GoodCaptures`] (the losing ones, and the
    /// table move's marker), which wait in the buffer before the quiet moves.
    fn start_bad_captures(&mut self) {
        self.stage = Stage::BadCaptures;
        self.next = self.bad_start;
        self.end = self.captures_end;
    }

    /// The captures that lose material, best first. The padding after them is gone (the quiet
    /// moves' scores follow), and they are few: a plain scan finds the first highest.
    fn pick_bad_capture(&mut self, pos: &Position, buf: &mut MoveBuffer) -> Option<Move> {
        loop {
            if self.next >= self.end {
                self.stage = Stage::Done;
                return None;
            }
            let mut best = self.next;
            for i in self.next + 1..self.end {
                if buf.scores[i] > buf.scores[best] {
                    best = i;
                }
            }
            if buf.scores[best] == TT_MARK {
                self.stage = Stage::Done;
                return None;
            }
            if !self.is_legal(pos, buf, best) {
                self.remove(buf, best);
                continue;
            }
            if let Some(m) = self.take(pos, buf, best) {
                return Some(m);
            }
        }
    }
}

/// Room for the scores of a full move list and one block of padding (see [`first_max`]).
const SCORES: usize = MoveList::CAPACITY + BLOCK;
const BLOCK: usize = 16;

/// The index of the first highest score in `scores[from..to]`, where `scores[to..to + BLOCK]`
/// holds [`TT_MARK`]. Two passes (the maximum, then its first occurrence) over whole blocks of
/// sixteen rather than one pass with a running index, because blocks vectorize (a 16-bit maximum
/// is one instruction even on the baseline x86-64): the padding lets the last block run past
/// `to` without a scalar tail, and it never wins (a real score at or before it is at least as
/// high).
#[inline]
#[cfg(target_arch = "x86_64")]
fn first_max(scores: &[OrderKey; SCORES], from: usize, to: usize) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi16, _mm_loadu_si128, _mm_max_epi16, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi16, _mm_shuffle_epi32, _mm_slli_epi32, _mm_srli_epi32,
    };
    let blocks = (to - from).div_ceil(BLOCK);
    let span = &scores[from..from + blocks * BLOCK];
    // SAFETY: SSE2 is part of x86-64; every load reads eight scores inside `span` (whole
    // blocks of sixteen), unaligned loads allowed.
    unsafe {
        let load = |i: usize| _mm_loadu_si128(span.as_ptr().add(i).cast::<__m128i>());
        let (mut lo, mut hi) = (_mm_set1_epi16(OrderKey::MIN), _mm_set1_epi16(OrderKey::MIN));
        for k in 0..blocks {
            lo = _mm_max_epi16(lo, load(k * BLOCK));
            hi = _mm_max_epi16(hi, load(k * BLOCK + 8));
        }
        // The maximum of the eight lanes, in every lane: halves, pairs, then neighbours.
        let mut m = _mm_max_epi16(lo, hi);
        m = _mm_max_epi16(m, _mm_shuffle_epi32::<0x4e>(m));
        m = _mm_max_epi16(m, _mm_shuffle_epi32::<0xb1>(m));
        m = _mm_max_epi16(
            m,
            _mm_or_si128(_mm_srli_epi32::<16>(m), _mm_slli_epi32::<16>(m)),
        );
        for k in 0..blocks {
            // Two mask bits per score that equals the maximum.
            let a = _mm_movemask_epi8(_mm_cmpeq_epi16(load(k * BLOCK), m)) as u32;
            let b = _mm_movemask_epi8(_mm_cmpeq_epi16(load(k * BLOCK + 8), m)) as u32;
            let mask = a | b << 16;
            if mask != 0 {
                return from + k * BLOCK + mask.trailing_zeros() as usize / 2;
            }
        }
    }
    from
}

/// The portable [`first_max`].
#[inline]
#[cfg(not(target_arch = "x86_64"))]
fn first_max(scores: &[OrderKey; SCORES], from: usize, to: usize) -> usize {
    let blocks = (to - from).div_ceil(BLOCK);
    let span = &scores[from..from + blocks * BLOCK];
    let mut best = [OrderKey::MIN; BLOCK];
    for b in span.chunks_exact(BLOCK) {
        for j in 0..BLOCK {
            best[j] = best[j].max(b[j]);
        }
    }
    let max = best.iter().fold(OrderKey::MIN, |a, &b| a.max(b));
    for (k, b) in span.chunks_exact(BLOCK).enumerate() {
        if b.iter().fold(OrderKey::MIN, |a, &x| a.max(x)) == max {
            return from + k * BLOCK + b.iter().position(|&x| x == max).unwrap_or(0);
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::see::see;
    use chariot_rules::testing::Rng;

    /// `first_max` finds the first highest score in ranges of every length and start, with
    /// many ties and the padding after the range.
    #[test]
    fn first_max_finds_the_first_highest_score() {
        let mut rng = Rng::seeded(0x5eed_f00d_1234_abcd);
        for _ in 0..20_000 {
            let from = rng.below(40);
            let to = from + 1 + rng.below(MoveList::CAPACITY - from);
            let mut scores = [0 as OrderKey; SCORES];
            let spread = [3, 50, 65_536][rng.below(3)];
            for s in &mut scores[from..to] {
                *s = (rng.below(spread) as i64 - spread as i64 / 2).clamp(-32_768, 32_767)
                    as OrderKey;
            }
            scores[to..to + BLOCK].fill(TT_MARK);
            let max = *scores[from..to].iter().max().unwrap();
            let expected = from + scores[from..to].iter().position(|&x| x == max).unwrap();
            assert_eq!(first_max(&scores, from, to), expected, "{from}..{to}");
        }
    }

    #[test]
    fn picker_yields_every_legal_move_once_tt_first() {
        let pos =
            Position::from_fen("2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33")
                .unwrap();
        let legal = pos.legal_move_list();
        let tt = legal[7];
        let history = History::new();
        let mut buf = MoveBuffer::new();
        let mut picker = MovePicker::new(tt, [legal[3], Move::NONE], Move::NONE, pos.in_check());
        let mut seen = Vec::new();
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            seen.push(m);
        }
        assert_eq!(seen[0], tt);
        assert_eq!(seen.len(), legal.len());
        let mut a = seen.clone();
        a.sort();
        let mut b = legal.to_vec();
        b.sort();
        assert_eq!(a, b);
        // Captures that win material come before quiet moves.
        let first_quiet = seen
            .iter()
            .skip(1)
            .position(|&m| !pos.is_capture(m))
            .unwrap();
        assert!(
            seen.iter()
                .skip(1 + first_quiet)
                .all(|&m| !pos.is_capture(m) || see(&pos, m) < 0)
        );
    }

    #[test]
    fn an_illegal_tt_move_is_ignored() {
        let pos = Position::start();
        let history = History::new();
        let mut buf = MoveBuffer::new();
        let bogus = Move::new("a0".parse().unwrap(), "a9".parse().unwrap());
        let mut picker = MovePicker::new(bogus, [Move::NONE; 2], Move::NONE, false);
        let mut n = 0;
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            assert_ne!(m, bogus);
            n += 1;
        }
        assert_eq!(n, 44);
    }

    // Capture scores of the reference, far from any history score.
    const REF_GOOD_CAPTURE: i32 = 30_000_000;
    const REF_BAD_CAPTURE: i32 = -30_000_000;

    /// The plain algorithm the picker must reproduce exactly, stage by stage: the table move;
    /// the legal captures (in generation order) with every exchange evaluated up front,
    /// selection-sorted with swaps, the winning and equal ones; the killers and counter move
    /// that are legal quiet moves; the legal quiet moves (in generation order, the moves
    /// already handed out kept in as markers) selection-sorted with swaps by history; then the
    /// losing captures, continuing the captures' selection sort. Once `skip_after` moves are out
    /// and the last was quiet, no more quiet moves.
    fn reference_order(
        pos: &Position,
        history: &History,
        tt: Move,
        killers: [Move; 2],
        counter: Move,
        skip_after: usize,
    ) -> Vec<Move> {
        let ctx = pos.legality();
        let legal_of = |generate: fn(&Position, &mut MoveList)| -> Vec<Move> {
            let mut list = MoveList::new();
            generate(pos, &mut list);
            list.iter()
                .copied()
                .filter(|&m| pos.is_legal_with(m, &ctx))
                .collect()
        };
        let mut captures = legal_of(Position::pseudo_legal_captures);
        let mut quiets = legal_of(Position::pseudo_legal_quiets);
        let mut capture_scores: Vec<i32> = captures
            .iter()
            .map(|&m| {
                let v = mvv_lva(pos, m);
                if m == tt {
                    i32::MIN
                } else if see(pos, m) >= 0 {
                    REF_GOOD_CAPTURE + v
                } else {
                    REF_BAD_CAPTURE + v
                }
            })
            .collect();
        // One step of a selection sort with swaps: the first highest of `next..` to `next`.
        fn select(moves: &mut [Move], scores: &mut [i32], next: usize) {
            let mut best = next;
            for i in next + 1..moves.len() {
                if scores[i] > scores[best] {
                    best = i;
                }
            }
            moves.swap(next, best);
            scores.swap(next, best);
        }

        let mut out = Vec::new();
        let mut skip = false;
        let emit = |m: Move, out: &mut Vec<Move>, skip: &mut bool| {
            out.push(m);
            if out.len() == skip_after && !pos.is_capture(m) {
                *skip = true;
            }
        };
        if !tt.is_none() && pos.is_legal(tt) {
            emit(tt, &mut out, &mut skip);
        }
        let mut next = 0;
        while next < captures.len() {
            select(&mut captures, &mut capture_scores, next);
            if capture_scores[next] < REF_GOOD_CAPTURE {
                break;
            }
            emit(captures[next], &mut out, &mut skip);
            next += 1;
        }
        let mut handed = vec![tt];
        for m in [killers[0], killers[1], counter] {
            if !skip && !handed.contains(&m) && quiets.contains(&m) {
                emit(m, &mut out, &mut skip);
                handed.push(m);
            }
        }
        let mut quiet_scores: Vec<i32> = quiets
            .iter()
            .map(|&m| {
                if handed.contains(&m) {
                    i32::MIN
                } else {
                    history.score(pos.turn(), m)
                }
            })
            .collect();
        for i in 0..quiets.len() {
            if skip {
                break;
            }
            select(&mut quiets, &mut quiet_scores, i);
            if quiet_scores[i] == i32::MIN {
                break;
            }
            emit(quiets[i], &mut out, &mut skip);
        }
        while next < captures.len() {
            select(&mut captures, &mut capture_scores, next);
            if capture_scores[next] == i32::MIN {
                break;
            }
            emit(captures[next], &mut out, &mut skip);
            next += 1;
        }
        out
    }

    /// Random games; at each position random history scores (with many ties), killers, a table
    /// move, and late move pruning switched on after a random quiet move.
    #[test]
    fn picker_order_equals_the_plain_selection_sort() {
        let mut rng = Rng::seeded(0x1234_5678_9abc_def1);
        let mut rand = move || rng.next_u64();
        let (mut compared, mut with_illegal) = (0, 0);
        for game in 0..64 {
            let fen = crate::search::bench::POSITIONS[game % crate::search::bench::POSITIONS.len()];
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..100 {
                let legal = pos.legal_move_list();
                if legal.is_empty() {
                    break;
                }
                let mut pseudo = MoveList::new();
                pos.pseudo_legal_moves(&mut pseudo);
                if pseudo.len() > legal.len() {
                    with_illegal += 1;
                }
                let mut history = History::new();
                for &m in legal.iter() {
                    if rand() % 3 == 0 {
                        history.update(pos.turn(), m, (rand() % 4) as i32 * 1000 - 1500);
                    }
                }
                let pick = |r: u64| legal[r as usize % legal.len()];
                let tt = if rand() % 2 == 0 {
                    pick(rand())
                } else {
                    Move::NONE
                };
                let killers = [pick(rand()), pick(rand())];
                let counter = pick(rand());
                let skip_after = (rand() % 12) as usize;
                let expected = reference_order(&pos, &history, tt, killers, counter, skip_after);
                let mut picker = MovePicker::new(tt, killers, counter, pos.in_check());
                let mut buf = MoveBuffer::new();
                let mut got = Vec::new();
                while let Some(m) = picker.next(&pos, &history, &mut buf) {
                    got.push(m);
                    if got.len() == skip_after && !pos.is_capture(m) {
                        picker.skip_quiets();
                    }
                }
                assert_eq!(got, expected, "{pos}");
                compared += 1;
                pos.make_move(pick(rand()));
            }
        }
        assert!(compared > 3000, "{compared}");
        // The lazy legality test must have had illegal moves to skip.
        assert!(with_illegal > 300, "{with_illegal}");
    }
}
