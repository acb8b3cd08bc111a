//! The statistics that order the quiet moves, learnt by each thread and kept between the searches
//! of a game (cleared for a new one):
//! - the butterfly history: by colour and move (from and to), how often the move cut off;
//! - the continuation history: the same by the piece and target of a move and of an earlier move
//!   (one ply earlier: a reply; two plies earlier: a follow-up);
//! - the counter moves: the quiet move that last refuted each move of the opponent.
//!
//! The killer moves belong to a ply rather than to the game, and live in the search stack
//! (`thread.rs`). How the picker uses these scores is told in [`super::picker`].
//!
//! Every score stays within ±[`HISTORY_MAX`]: an update shrinks as the score nears the bound
//! ("gravity"), so recent results count more than old ones, and a quiet move's score (the sum of
//! the three, clamped to the same bound) fits the picker's 16-bit keys.

use super::boxed::boxed_array;
use chariot_rules::{Color, Move, Position};

/// History scores stay within this bound (the "gravity" update keeps them there).
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Quiet-move statistics of one thread, kept between searches of a game.
pub(crate) struct History {
    /// Butterfly history: `[colour][packed move]` (see [`History::index`]; a packed move is
    /// `from | to << 7`, so the entries of off-board squares are never used).
    butterfly: Box<[i16; 2 << 14]>,
    /// Counter moves: `[piece that moved][its target]` -> the quiet reply that refuted it.
    counter: Vec<Move>,
    /// Continuation history: `[earlier piece][its target][piece][target]`, how good a quiet move
    /// was as a reply (one ply later) or a follow-up (two plies later) to an earlier move. One
    /// table serves both distances, as in Stockfish.
    continuation: Vec<i16>,
}

/// Entries of one continuation-history sub-table: `[piece byte][target]`.
const CONT_SIZE: usize = 16 * 90;

/// Where the continuation history of one earlier move starts (see [`History::continuation`]);
/// [`NO_CONT`] for no earlier move (a null move or before the root).
pub(crate) type ContBase = u32;

/// The [`ContBase`] of no earlier move: a sub-table after the real ones that stays zero (it is
/// never updated), so that scoring reads it like any other, without a test.
pub(crate) const NO_CONT: ContBase = (CONT_SIZE * CONT_SIZE) as u32;

impl History {
    pub fn new() -> History {
        History {
            butterfly: boxed_array(|_| 0),
            counter: vec![Move::NONE; 16 * 90],
            continuation: vec![0; CONT_SIZE * CONT_SIZE + CONT_SIZE],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.counter.fill(Move::NONE);
        self.continuation.fill(0);
    }

    /// The continuation sub-table of an earlier move `prev` of the piece `piece` (raw byte).
    #[inline]
    pub fn cont_base(piece: u8, prev: Move) -> ContBase {
        if prev.is_none() {
            NO_CONT
        } else {
            ((usize::from(piece) * 90 + prev.to().index()) * CONT_SIZE) as u32
        }
    }

    /// Starts loading the continuation-history entries of the side to move's pieces after the
    /// earlier moves of `conts` (about 20 cache lines each), so that scoring the quiet moves,
    /// which reads them in no useful order, finds them on the way.
    #[inline]
    pub fn prefetch_continuations(&self, color: Color, conts: &[ContBase; 2]) {
        #[cfg(target_arch = "x86_64")]
        for &base in conts.iter().filter(|&&b| b != NO_CONT) {
            // The side's piece bytes are `8 * colour + 1 ..= 8 * colour + 7`.
            let start = base as usize + (8 * color.index() + 1) * 90;
            let part = &self.continuation[start..start + 7 * 90];
            for line in (0..part.len()).step_by(32) {
                let p = std::ptr::from_ref(&part[line]).cast::<i8>();
                // SAFETY: a prefetch never faults; the address is inside the table anyway.
                unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (color, conts);
    }

    /// The continuation score of moving `piece` (raw byte) with `m` after the earlier move of
    /// `base`.
    #[inline]
    fn cont_score(&self, base: ContBase, piece: u8, m: Move) -> i32 {
        i32::from(self.continuation[base as usize + usize::from(piece) * 90 + m.to().index()])
    }

    /// The ordering score of a quiet move: butterfly history plus both continuation scores,
    /// within ±[`HISTORY_MAX`].
    #[inline]
    pub fn quiet_score(&self, color: Color, piece: u8, m: Move, conts: &[ContBase; 2]) -> i32 {
        (self.score(color, m)
            + self.cont_score(conts[0], piece, m)
            + self.cont_score(conts[1], piece, m))
        .clamp(-HISTORY_MAX, HISTORY_MAX)
    }

    /// Rewards or punishes a quiet move in the butterfly and both continuation histories.
    #[inline]
    pub fn update_quiet(
        &mut self,
        color: Color,
        piece: u8,
        m: Move,
        conts: &[ContBase; 2],
        bonus: i32,
    ) {
        self.update(color, m, bonus);
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        for &base in conts.iter().filter(|&&b| b != NO_CONT) {
            let slot =
                &mut self.continuation[base as usize + usize::from(piece) * 90 + m.to().index()];
            let h = i32::from(*slot);
            *slot = (h + b - h * b.abs() / HISTORY_MAX) as i16;
        }
    }

    #[inline]
    fn index(color: Color, m: Move) -> usize {
        // The packed move (14 bits for a real one) behind the colour: no multiplication, and
        // the mask keeps every index inside the table, so it needs no bounds test.
        (color.index() << 14 | usize::from(m.to_u16())) & ((2 << 14) - 1)
    }

    /// The history score of a quiet move by `color`.
    #[inline]
    pub fn score(&self, color: Color, m: Move) -> i32 {
        i32::from(self.butterfly[History::index(color, m)])
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move. The update shrinks as the score nears the
    /// bound, so recent results count more than old ones.
    #[inline]
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let slot = &mut self.butterfly[History::index(color, m)];
        let h = i32::from(*slot);
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *slot = (h + b - h * b.abs() / HISTORY_MAX) as i16;
    }

    /// The counter move to the opponent's `prev` (by `piece`, a raw piece byte).
    #[inline]
    pub fn counter(&self, piece: u8, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            self.counter[usize::from(piece) * 90 + prev.to().index()]
        }
    }

    /// Records `m` as the counter to the opponent's `prev`.
    #[inline]
    pub fn set_counter(&mut self, piece: u8, prev: Move, m: Move) {
        if !prev.is_none() {
            self.counter[usize::from(piece) * 90 + prev.to().index()] = m;
        }
    }
}

/// `true` when `m` is a quiet move (no capture).
#[inline]
pub(crate) fn is_quiet(pos: &Position, m: Move) -> bool {
    !pos.is_capture(m)
}

/// The raw byte of the piece that `m` moves (before it is made).
#[inline]
pub(crate) fn moving_piece(pos: &Position, m: Move) -> u8 {
    pos.board()[m.from().index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_earlier_move_reads_zero_and_is_never_written() {
        let mut h = History::new();
        let mv = |a: &str, b: &str| Move::new(a.parse().unwrap(), b.parse().unwrap());
        let m = mv("h2", "e2");
        let earlier = History::cont_base(5, mv("h9", "g7"));
        assert_ne!(earlier, NO_CONT);
        assert_eq!(History::cont_base(5, Move::NONE), NO_CONT);
        for _ in 0..10 {
            h.update_quiet(Color::Red, 6, m, &[NO_CONT, NO_CONT], 5000);
            h.update_quiet(Color::Red, 6, m, &[earlier, NO_CONT], 3000);
        }
        assert!(h.continuation[NO_CONT as usize..].iter().all(|&v| v == 0));
        let butterfly = h.score(Color::Red, m);
        assert!(butterfly > 0);
        assert_eq!(h.quiet_score(Color::Red, 6, m, &[NO_CONT; 2]), butterfly);
        let with_earlier = h.quiet_score(Color::Red, 6, m, &[earlier, NO_CONT]);
        assert!(with_earlier > butterfly, "{with_earlier} {butterfly}");
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = History::new();
        let m = Move::new("h2".parse().unwrap(), "e2".parse().unwrap());
        for _ in 0..1000 {
            h.update(Color::Red, m, 5000);
        }
        assert!(h.score(Color::Red, m) <= HISTORY_MAX);
        assert!(h.score(Color::Red, m) > HISTORY_MAX / 2);
        assert_eq!(h.score(Color::Black, m), 0);
    }
}
