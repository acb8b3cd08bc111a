//! Squares of the 9 x 10 board, named a0..i9 as in UCCI and ICCS.
//!
//! Files a..i run from Red's left to Red's right; rank 0 is Red's back rank and rank 9 Black's.
//! A square's index is `file + 9 * rank` (a0 = 0, i0 = 8, a1 = 9, ..., i9 = 89).

use std::fmt;
use std::str::FromStr;

use super::piece::Color;

/// Number of files (a..i).
pub const FILES: u8 = 9;
/// Number of ranks (0..9).
pub const RANKS: u8 = 10;
/// Number of squares.
pub const SQUARES: usize = 90;

/// The file of each square index (a load is cheaper than a division by nine).
pub(crate) static FILE_OF: [u8; SQUARES] = {
    let mut t = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = (i % FILES as usize) as u8;
        i += 1;
    }
    t
};

/// The rank of each square index.
pub(crate) static RANK_OF: [u8; SQUARES] = {
    let mut t = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = (i / FILES as usize) as u8;
        i += 1;
    }
    t
};

/// The file and rank of the square with index `i` (below [`SQUARES`]).
#[inline(always)]
pub fn file_rank(i: usize) -> (usize, usize) {
    (usize::from(FILE_OF[i]), usize::from(RANK_OF[i]))
}

/// One of the 90 points of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = Red's back rank).
    ///
    /// # Panics
    /// In debug builds, if the file or rank is off the board.
    #[inline]
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < FILES && rank < RANKS);
        Square(file + FILES * rank)
    }

    /// The square at `file` and `rank` when both are on the board.
    #[inline]
    #[must_use]
    pub const fn try_new(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32 {
            Some(Square(file as u8 + FILES * rank as u8))
        } else {
            None
        }
    }

    /// The square with index `i` (0..90).
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`, unchecked in release builds.
    #[inline]
    #[must_use]
    pub const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < SQUARES);
        Square(i as u8)
    }

    /// The index 0..90.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 8 (i).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        FILE_OF[self.0 as usize]
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        RANK_OF[self.0 as usize]
    }

    /// The square reflected left to right (file f -> 8 - f).
    #[inline]
    #[must_use]
    pub const fn mirror(self) -> Square {
        Square::new(FILES - 1 - self.file(), self.rank())
    }

    /// The square seen from the other side (rank r -> 9 - r, file f -> 8 - f): a 180-degree turn.
    #[inline]
    #[must_use]
    pub const fn rotate(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// The square reflected top to bottom (rank r -> 9 - r), used to swap colours.
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Square {
        Square::new(self.file(), RANKS - 1 - self.rank())
    }

    /// `true` when the square is on `color`'s own half (Red: ranks 0-4, Black: 5-9).
    #[inline]
    #[must_use]
    pub const fn on_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// `true` when the square is inside `color`'s palace (files d-f, ranks 0-2 or 7-9).
    #[inline]
    #[must_use]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// The rank counted from `color`'s own back rank (0..9).
    #[inline]
    #[must_use]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Red => self.rank(),
            Color::Black => RANKS - 1 - self.rank(),
        }
    }

    /// All 90 squares, a0 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A square name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-i and a rank 0-9, e.g. e0")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() == 2 {
            let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
            let rank = b[1].wrapping_sub(b'0');
            if file < FILES && rank < RANKS {
                return Ok(Square::new(file, rank));
            }
        }
        Err(ParseSquareError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.mirror().mirror(), sq);
            assert_eq!(sq.flip().flip(), sq);
        }
        assert_eq!("e0".parse::<Square>().unwrap().index(), 4);
        assert_eq!("I9".parse::<Square>().unwrap().index(), 89);
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }
}
