//! Move and attack tables, computed at compile time.
//!
//! Every piece but the rook and the cannon has a short fixed list of steps from each square, and
//! the horse and the elephant each have a blocking square (the horse's leg, the elephant's eye)
//! per step. The tables hold those lists so that move generation and attack tests are plain
//! look-ups; region rules (palace, own half) are folded in here once.

use super::square::{FILES, RANKS, SQUARES};

/// Up to `N` target squares (as indices) with an optional blocking square each.
#[derive(Clone, Copy, Debug)]
pub struct Steps<const N: usize> {
    /// Number of valid entries.
    pub len: u8,
    /// Target squares.
    pub to: [u8; N],
    /// Blocking square of each target (the horse's leg or the elephant's eye); unused otherwise.
    pub block: [u8; N],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps {
        len: 0,
        to: [0; N],
        block: [0; N],
    };

    const fn push(mut self, to: usize, block: usize) -> Self {
        self.to[self.len as usize] = to as u8;
        self.block[self.len as usize] = block as u8;
        self.len += 1;
        self
    }

    /// The entries as `(target, block)` index pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len as usize).map(|i| (self.to[i] as usize, self.block[i] as usize))
    }
}

const fn sq(file: i32, rank: i32) -> usize {
    (file + FILES as i32 * rank) as usize
}

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < FILES as i32 && rank >= 0 && rank < RANKS as i32
}

const fn in_palace(color: usize, file: i32, rank: i32) -> bool {
    file >= 3
        && file <= 5
        && if color == 0 {
            rank >= 0 && rank <= 2
        } else {
            rank >= 7 && rank <= 9
        }
}

const fn own_half(color: usize, rank: i32) -> bool {
    if color == 0 {
        rank >= 0 && rank <= 4
    } else {
        rank >= 5 && rank <= 9
    }
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const HORSE: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// Direction indices of [`RAYS`].
pub const UP: usize = 0;
/// Towards rank 0.
pub const DOWN: usize = 1;
/// Towards file i.
pub const RIGHT: usize = 2;
/// Towards file a.
pub const LEFT: usize = 3;

/// The squares along each of the four orthogonal lines from a square, nearest first.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    /// Number of squares before the edge.
    pub len: u8,
    /// The squares, nearest first.
    pub sq: [u8; 9],
}

const fn build_rays() -> [[Ray; 4]; SQUARES] {
    let mut t = [[Ray { len: 0, sq: [0; 9] }; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) {
                let ray = &mut t[s][d];
                ray.sq[ray.len as usize] = sq(x, y) as u8;
                ray.len += 1;
                x += df;
                y += dr;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// `RAYS[sq][dir]`: the squares along a line, for rooks, cannons and the flying general.
pub static RAYS: [[Ray; 4]; SQUARES] = build_rays();

/// `RAY_SETS[sq][dir]`: the squares of [`RAYS`]`[sq][dir]` as a bit set, to see at once whether
/// any piece of a kind stands on a line.
pub static RAY_SETS: [[u128; 4]; SQUARES] = {
    let rays = build_rays();
    let mut t = [[0u128; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let mut i = 0;
            while i < rays[s][d].len as usize {
                t[s][d] |= 1 << rays[s][d].sq[i];
                i += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

const fn build_king() -> [[Steps<4>; SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (x, y) = (f + ORTHO[d].0, r + ORTHO[d].1);
                if in_palace(c, x, y) {
                    t[c][s] = t[c][s].push(sq(x, y), 0);
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn build_advisor() -> [[Steps<4>; SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (x, y) = (f + DIAG[d].0, r + DIAG[d].1);
                if in_palace(c, x, y) {
                    t[c][s] = t[c][s].push(sq(x, y), 0);
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn build_elephant() -> [[Steps<4>; SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let (x, y) = (f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
                if on_board(x, y) && own_half(c, y) {
                    t[c][s] = t[c][s].push(sq(x, y), sq(f + DIAG[d].0, r + DIAG[d].1));
                }
                d += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn build_horse() -> [Steps<8>; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = HORSE[d];
            let (x, y) = (f + df, r + dr);
            if on_board(x, y) {
                // The leg is the orthogonal neighbour in the direction of the long step.
                let leg = if df == 2 || df == -2 {
                    sq(f + df / 2, r)
                } else {
                    sq(f, r + dr / 2)
                };
                t[s] = t[s].push(sq(x, y), leg);
            }
            d += 1;
        }
        s += 1;
    }
    t
}

const fn build_horse_attackers(steps: &[Steps<8>; SQUARES]) -> [Steps<8>; SQUARES] {
    let mut t = [Steps::EMPTY; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut i = 0;
        while i < steps[from].len as usize {
            let to = steps[from].to[i] as usize;
            t[to] = t[to].push(from, steps[from].block[i] as usize);
            i += 1;
        }
        from += 1;
    }
    t
}

const fn build_pawn() -> [[Steps<3>; SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if on_board(f, r + fwd) {
                t[c][s] = t[c][s].push(sq(f, r + fwd), 0);
            }
            if !own_half(c, r) {
                if on_board(f - 1, r) {
                    t[c][s] = t[c][s].push(sq(f - 1, r), 0);
                }
                if on_board(f + 1, r) {
                    t[c][s] = t[c][s].push(sq(f + 1, r), 0);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn build_pawn_attackers(steps: &[[Steps<3>; SQUARES]; 2]) -> [[Steps<3>; SQUARES]; 2] {
    let mut t = [[Steps::EMPTY; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < SQUARES {
            let mut i = 0;
            while i < steps[c][from].len as usize {
                let to = steps[c][from].to[i] as usize;
                t[c][to] = t[c][to].push(from, 0);
                i += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

/// `KING_STEPS[color][sq]`: one orthogonal step inside the general's own palace.
pub static KING_STEPS: [[Steps<4>; SQUARES]; 2] = build_king();
/// `ADVISOR_STEPS[color][sq]`: one diagonal step inside the advisor's own palace.
pub static ADVISOR_STEPS: [[Steps<4>; SQUARES]; 2] = build_advisor();
/// `ELEPHANT_STEPS[color][sq]`: two diagonal steps on its own half, with the eye as block.
pub static ELEPHANT_STEPS: [[Steps<4>; SQUARES]; 2] = build_elephant();
/// `HORSE_STEPS[sq]`: the horse's eight jumps with the leg as block.
pub static HORSE_STEPS: [Steps<8>; SQUARES] = build_horse();
/// `HORSE_ATTACKERS[sq]`: squares a horse attacks `sq` from, with the leg it needs free.
pub static HORSE_ATTACKERS: [Steps<8>; SQUARES] = build_horse_attackers(&build_horse());
/// `PAWN_STEPS[color][sq]`: forward, and sideways once across the river.
pub static PAWN_STEPS: [[Steps<3>; SQUARES]; 2] = build_pawn();
/// `PAWN_ATTACKERS[color][sq]`: squares from which a soldier of `color` attacks `sq`.
pub static PAWN_ATTACKERS: [[Steps<3>; SQUARES]; 2] = build_pawn_attackers(&build_pawn());

const fn sets_of<const N: usize>(steps: &[Steps<N>; SQUARES]) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < steps[s].len as usize {
            t[s] |= 1 << steps[s].to[i];
            i += 1;
        }
        s += 1;
    }
    t
}

/// `HORSE_ATTACKER_SET[sq]`: the squares of [`HORSE_ATTACKERS`]`[sq]` as a bit set (bit `i` =
/// square index `i`), to rule out horse attacks with one test.
pub static HORSE_ATTACKER_SET: [u128; SQUARES] = sets_of(&build_horse_attackers(&build_horse()));
/// `PAWN_ATTACKER_SET[color][sq]`: the squares of [`PAWN_ATTACKERS`]`[color][sq]` as a bit set.
pub static PAWN_ATTACKER_SET: [[u128; SQUARES]; 2] = {
    let attackers = build_pawn_attackers(&build_pawn());
    [sets_of(&attackers[0]), sets_of(&attackers[1])]
};

/// `REACH[color][kind][sq]`: every square a piece of that colour and kind on `sq` could ever
/// capture on in one move, ignoring blocks (for a chariot or cannon: its file and rank). A
/// piece with no enemy piece in its reach has no capture, which spares generating its moves.
pub static REACH: [[[u128; SQUARES]; 7]; 2] = {
    let king = build_king();
    let advisor = build_advisor();
    let elephant = build_elephant();
    let horse = sets_of(&build_horse());
    let pawn = build_pawn();
    let mut lines = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = (s % 9, s / 9);
        let mut t = 0;
        while t < SQUARES {
            if t != s && (t % 9 == f || t / 9 == r) {
                lines[s] |= 1 << t;
            }
            t += 1;
        }
        s += 1;
    }
    let mut out = [[[0u128; SQUARES]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        // Kinds in the order K A B N R C P.
        out[c] = [
            sets_of(&king[c]),
            sets_of(&advisor[c]),
            sets_of(&elephant[c]),
            horse,
            lines,
            lines,
            sets_of(&pawn[c]),
        ];
        c += 1;
    }
    out
};

/// `CAPTURE_ZONE[color][kind]`: every square some piece of that colour and kind could capture
/// on from anywhere (the union of [`REACH`]); for the general, the advisors and the elephants a
/// small region of their own half. Without an enemy piece there, the kind has no capture.
pub static CAPTURE_ZONE: [[u128; 7]; 2] = {
    let mut out = [[0u128; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut s = 0;
            while s < SQUARES {
                out[c][k] |= REACH[c][k][s];
                s += 1;
            }
            k += 1;
        }
        c += 1;
    }
    out
};

/// The points of each side's half beyond the river, where its soldiers also move sideways.
pub static ACROSS_RIVER: [u128; 2] = {
    let mut out = [0u128; 2];
    let mut s = 0;
    while s < SQUARES {
        if s / 9 >= 5 {
            out[0] |= 1 << s;
        } else {
            out[1] |= 1 << s;
        }
        s += 1;
    }
    out
};

/// The points of file a and of file i.
pub const FILE_A: u128 = file_set(0);
/// See [`FILE_A`].
pub const FILE_I: u128 = file_set(8);

const fn file_set(f: usize) -> u128 {
    let mut set = 0u128;
    let mut r = 0;
    while r < 10 {
        set |= 1 << (f + 9 * r);
        r += 1;
    }
    set
}

/// `KING_EXPOSURE[sq]`, for a general on `sq`: the points a piece may leave and so open a line
/// or a horse's leg onto it (its file and rank, where a chariot, cannon or the other general may
/// stand behind, and the four points diagonally next to it, the legs of horses that attack it),
/// then the points where an arriving piece may attack it along a line or become a cannon's
/// screen (its file and rank). A move that leaves none of the first and arrives on none of the
/// second opens no line onto the general.
pub static KING_EXPOSURE: [[u128; 2]; SQUARES] = {
    let mut t = [[0u128; 2]; SQUARES];
    let mut k = 0;
    while k < SQUARES {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let line = f == kf || r == kr;
            if line || ((f - kf).abs() == 1 && (r - kr).abs() == 1) {
                t[k][0] |= 1 << s;
            }
            if line {
                t[k][1] |= 1 << s;
            }
            s += 1;
        }
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_match_the_rules() {
        // Start squares: Red horse b0 has a1? no: b0 -> a2, c2, d1.
        let b0 = sq(1, 0);
        assert_eq!(HORSE_STEPS[b0].len, 3);
        // A horse in the middle of the board has eight jumps.
        assert_eq!(HORSE_STEPS[sq(4, 4)].len, 8);
        // The red general on e1 (palace centre) has four steps, the advisor on e1 four.
        assert_eq!(KING_STEPS[0][sq(4, 1)].len, 4);
        assert_eq!(ADVISOR_STEPS[0][sq(4, 1)].len, 4);
        assert_eq!(ADVISOR_STEPS[0][sq(3, 0)].len, 1);
        // Elephants never cross: c4 for red reaches a2 and e2 only; black's on c5 reaches a7, e7.
        assert_eq!(ELEPHANT_STEPS[0][sq(2, 4)].len, 2);
        assert_eq!(ELEPHANT_STEPS[1][sq(2, 5)].len, 2);
        // Soldiers: one step before the river, three after (two on the edge).
        assert_eq!(PAWN_STEPS[0][sq(0, 3)].len, 1);
        assert_eq!(PAWN_STEPS[0][sq(4, 5)].len, 3);
        assert_eq!(PAWN_STEPS[0][sq(0, 9)].len, 1);
        assert_eq!(PAWN_STEPS[1][sq(4, 4)].len, 3);
        let total: usize = (0..SQUARES).map(|s| HORSE_ATTACKERS[s].len as usize).sum();
        let fwd: usize = (0..SQUARES).map(|s| HORSE_STEPS[s].len as usize).sum();
        assert_eq!(total, fwd);
    }
}
