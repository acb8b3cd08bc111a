//! A set of squares as a 128-bit mask (bit `i` = square with index `i`).

use std::ops::{BitAnd, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::{SQUARES, Square};

/// A set of squares. Only the low 90 bits are ever set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

/// The one-square sets (a load is cheaper than a 128-bit shift by a variable amount).
pub(crate) static SQUARE_SETS: [Bitboard; SQUARES] = {
    let mut t = [Bitboard(0); SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = Bitboard(1u128 << i);
        i += 1;
    }
    t
};

/// The set of the square with index `i` (below 90) as a bare mask.
#[inline(always)]
pub(crate) fn bit(i: usize) -> u128 {
    SQUARE_SETS[i].0
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << SQUARES) - 1);

    /// The set holding one square.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        SQUARE_SETS[sq.index()]
    }

    /// `true` when the set holds `sq`.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// `true` when the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares in the set.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Adds a square.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= SQUARE_SETS[sq.index()].0;
    }

    /// Removes a square.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !SQUARE_SETS[sq.index()].0;
    }

    /// The lowest square of the set, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The set reflected left to right.
    #[must_use]
    pub fn mirror(self) -> Bitboard {
        self.into_iter().map(Square::mirror).collect()
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares {
            lo: self.0 as u64,
            hi: (self.0 >> 64) as u64,
        }
    }
}

/// The squares of a [`Bitboard`], lowest first.
///
/// The set is walked as its two 64-bit halves: each step is a scan and a clear of the lowest bit
/// in one register, where the 128-bit value would take two of each.
#[derive(Clone, Debug)]
pub struct Squares {
    lo: u64,
    hi: u64,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let i = if self.lo != 0 {
            let i = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            i
        } else if self.hi != 0 {
            let i = 64 + self.hi.trailing_zeros();
            self.hi &= self.hi - 1;
            i
        } else {
            return None;
        };
        Some(Square::from_index_unchecked(i as usize))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.lo.count_ones() + self.hi.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.insert(sq);
        }
        bb
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}
