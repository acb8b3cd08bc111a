//! Moves: a from-square and a to-square.

use std::fmt;

use super::square::Square;

/// A move from one square to another, packed into 16 bits (`from | to << 7`).
///
/// A `Move` says nothing about legality; it is checked against a position when it is parsed
/// (see [`crate::notation`]) or generated.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    /// The "no move" value (a0a0), never a legal move.
    pub const NONE: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 7)
    }

    /// The square the piece leaves.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7f) as usize)
    }

    /// The square the piece arrives on.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as usize)
    }

    /// The packed 16 bits.
    #[inline]
    #[must_use]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// The move with the given packed bits, when both squares are on the board.
    #[must_use]
    pub const fn from_u16(bits: u16) -> Option<Move> {
        if (bits & 0x7f) < 90 && (bits >> 7) < 90 && bits >> 14 == 0 {
            Some(Move(bits))
        } else {
            None
        }
    }

    /// `true` for [`Move::NONE`].
    #[inline]
    #[must_use]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The move reflected left to right.
    #[inline]
    #[must_use]
    pub const fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates, lowercase and without a dash: `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A list of moves on the stack, large enough for any position (at most 16 pieces a side).
pub struct MoveList {
    len: usize,
    moves: [Move; MoveList::CAPACITY],
}

impl MoveList {
    /// The most moves a list holds. No position with 16 pieces a side has more legal moves.
    pub const CAPACITY: usize = 320;

    /// An empty list.
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::NONE; MoveList::CAPACITY],
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MoveList::CAPACITY);
        // The bound is a hard invariant (no position has more pseudo-legal moves), kept cheap.
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// Keeps only the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, keep: impl FnMut(Move) -> bool) {
        self.retain_from(0, keep);
    }

    /// Keeps the first `start` moves and, of the rest, only those for which `keep` is true, in
    /// order.
    #[inline]
    pub fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let start = start.min(self.len);
        let mut j = start;
        for i in start..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// The number of moves.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when there are no moves.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `true` when the list holds `m`.
    #[must_use]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
