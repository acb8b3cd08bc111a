//! Chariot and cannon mobility along one line, looked up by the line's occupancy.
//!
//! A rank has 9 points and a file 10, so every occupancy of a line is a 9- or 10-bit number,
//! which the position keeps for each rank and file. The tables give, for a piece at each point
//! of a line and each occupancy, how many points a chariot there attacks (empty points up to and
//! including the first piece in each direction) and how many a cannon does (the empty points
//! before its screen plus the piece behind the screen). The whole count is two look-ups, with no
//! branch per point.

use crate::rules::{Position, Square};

/// (chariot count, cannon count) per point of a line and occupancy.
pub(super) struct LineTables {
    /// `rank[file][occupancy of the rank]`.
    rank: [[(u8, u8); 512]; 9],
    /// `file[rank][occupancy of the file]`.
    file: [[(u8, u8); 1024]; 10],
}

/// The tables, computed at compile time.
pub(super) static LINES: LineTables = LineTables::new();

impl LineTables {
    const fn new() -> LineTables {
        let mut rank = [[(0, 0); 512]; 9];
        let mut file = [[(0, 0); 1024]; 10];
        let mut p = 0;
        while p < 10 {
            let mut occ = 0;
            while occ < 1024 {
                if p < 9 && occ < 512 {
                    rank[p][occ] = line_counts(p, occ, 9);
                }
                file[p][occ] = line_counts(p, occ, 10);
                occ += 1;
            }
            p += 1;
        }
        LineTables { rank, file }
    }

    /// The chariot and cannon mobility of a piece on `sq` in `pos`, both lines together.
    #[inline]
    pub(super) fn counts(&self, pos: &Position, sq: Square) -> (i32, i32) {
        let (f, r) = (usize::from(sq.file()), usize::from(sq.rank()));
        let a = self.rank[f][usize::from(pos.ranks[r]) & 511];
        let b = self.file[r][usize::from(pos.files[f]) & 1023];
        (
            i32::from(a.0) + i32::from(b.0),
            i32::from(a.1) + i32::from(b.1),
        )
    }
}

/// Chariot and cannon attack counts for a piece at `pos` on a line of `len` points with
/// occupancy bits `occ` (its own bit is ignored).
const fn line_counts(pos: usize, occ: usize, len: usize) -> (u8, u8) {
    let (mut rook, mut cannon) = (0u8, 0u8);
    let mut d = 0;
    while d < 2 {
        let dir: i32 = if d == 0 { -1 } else { 1 };
        let mut i = pos as i32 + dir;
        let mut screen = false;
        while i >= 0 && i < len as i32 {
            let occupied = (occ >> i) & 1 != 0;
            if !screen {
                rook += 1;
                if occupied {
                    screen = true;
                } else {
                    cannon += 1;
                }
            } else if occupied {
                cannon += 1;
                break;
            }
            i += dir;
        }
        d += 1;
    }
    (rook, cannon)
}
