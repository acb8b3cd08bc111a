//! Mobility tables: chariot and cannon mobility along one line, looked up by the line's
//! occupancy, and the horse's jumps grouped by leg.
//!
//! A rank has 9 points and a file 10, so every occupancy of a line is a 9- or 10-bit number,
//! which the position keeps for each rank and file. The tables give, for a piece at each point
//! of a line and each occupancy, how many points a chariot there attacks (empty points up to and
//! including the first piece in each direction) and how many a cannon does (the empty points
//! before its screen plus the piece behind the screen). The whole count is two look-ups, with no
//! branch per point.

use chariot_rules::Position;
use chariot_rules::square::file_rank;

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
    pub(super) fn counts(&self, pos: &Position, sq: usize) -> (i32, i32) {
        let (f, r) = file_rank(sq);
        let a = self.rank[f][usize::from(pos.rank_occupancy(r)) & 511];
        let b = self.file[r][usize::from(pos.file_occupancy(f)) & 1023];
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

/// A horse's jumps from one point, grouped by the leg they need free: up to four legs with up
/// to two targets each. A blocked leg costs every jump through it at once.
///
/// The unused entries point at the horse's own point, which its own piece occupies: an unused
/// leg counts as blocked with no targets, an unused target as taken by an own piece. So
/// [`horse_mobility`] can go through all four legs and both targets of each without a branch.
#[derive(Clone, Copy)]
pub(super) struct HorseLegs {
    /// Number of legs in use (they come first).
    pub len: u8,
    /// Per leg: the leg's square, the number of targets (1 or 2) and the targets.
    pub legs: [(u8, u8, [u8; 2]); 4],
}

/// The mobility of a horse of the side with colour bit `own` (`8 * colour`) on `sq`: the
/// targets of its free legs that are empty or hold an enemy piece; and how many of its jumps
/// blocked legs stop.
#[inline(always)]
pub(super) fn horse_mobility(board: &[u8; 90], sq: usize, own: u8) -> (i32, i32) {
    let (mut mobility, mut blocked) = (0, 0);
    // Empty or an enemy piece: not one of the own piece codes `own + 1 ..= own + 7`.
    let open = |p: u8| i32::from(p.wrapping_sub(own + 1) >= 7);
    for &(leg, n, [a, b]) in &HORSE_LEGS[sq].legs {
        if board[usize::from(leg)] == 0 {
            mobility += open(board[usize::from(a)]) + open(board[usize::from(b)]);
        } else {
            blocked += i32::from(n);
        }
    }
    (mobility, blocked)
}

const fn horse_legs() -> [HorseLegs; 90] {
    let empty = HorseLegs {
        len: 0,
        legs: [(0, 0, [0; 2]); 4],
    };
    let mut table = [empty; 90];
    let mut sq = 0;
    while sq < 90 {
        table[sq].legs = [(sq as u8, 0, [sq as u8; 2]); 4];
        sq += 1;
    }
    // (leg offset, two target offsets) in (file, rank) steps.
    type Shape = ((i32, i32), [(i32, i32); 2]);
    let shapes: [Shape; 4] = [
        ((1, 0), [(2, 1), (2, -1)]),
        ((-1, 0), [(-2, 1), (-2, -1)]),
        ((0, 1), [(1, 2), (-1, 2)]),
        ((0, -1), [(1, -2), (-1, -2)]),
    ];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut s = 0;
        while s < 4 {
            let ((lf, lr), targets) = shapes[s];
            let mut entry = (((f + lf) + 9 * (r + lr)) as u8, 0u8, [sq as u8; 2]);
            let mut t = 0;
            while t < 2 {
                let (tf, tr) = (f + targets[t].0, r + targets[t].1);
                if tf >= 0 && tf < 9 && tr >= 0 && tr < 10 {
                    entry.2[entry.1 as usize] = (tf + 9 * tr) as u8;
                    entry.1 += 1;
                }
                t += 1;
            }
            if entry.1 > 0 {
                let n = table[sq].len as usize;
                table[sq].legs[n] = entry;
                table[sq].len += 1;
            }
            s += 1;
        }
        sq += 1;
    }
    table
}

/// `HORSE_LEGS[sq]`: the jumps of a horse on `sq`, by leg.
pub(super) static HORSE_LEGS: [HorseLegs; 90] = horse_legs();
