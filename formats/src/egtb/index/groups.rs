//! Groups of like pieces and their digits: the reachable squares, the binomial (colex) numbering
//! of a group's squares, and the left-right mirror, shared by every key scheme.

use chariot_rules::{Kind, Piece, Square};

/// The largest half a table may have (2^40 entries).
pub(super) const MAX_SIZE: u64 = 1 << 40;

/// Binomial coefficients C(n, k) for n <= 90, k <= 5.
pub(super) const BINOMIAL: [[u64; 6]; 91] = {
    let mut t = [[0u64; 6]; 91];
    let mut n = 0;
    while n <= 90 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 5 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// One group of like pieces in the table's frame.
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub piece: Piece,
    pub count: usize,
    /// The squares the piece can reach, by ordinal.
    pub squares: Vec<u8>,
    /// Square index -> ordinal, or `u8::MAX` when unreachable.
    pub ordinal: [u8; 90],
    /// The digit's weight (key scheme 1).
    pub stride: u64,
    /// The digit's base, C(squares, count).
    pub base: u64,
}

impl Group {
    /// `true` for advisors and elephants, which key schemes 2 and 3 place with their general.
    pub fn is_defender(&self) -> bool {
        matches!(self.piece.kind(), Kind::Advisor | Kind::Elephant)
    }
}

/// The squares a piece of the table's frame may ever stand on.
pub(super) fn reachable_squares(piece: Piece) -> Vec<u8> {
    Square::all()
        .filter(|&sq| match piece.kind() {
            Kind::General => sq.in_palace(piece.color()),
            _ => chariot_rules::position::reachable(piece, sq),
        })
        .map(|sq| sq.index() as u8)
        .collect()
}

/// `true` when a position with the generals on these squares is stored as its mirror image.
#[inline]
pub(super) fn needs_mirror(red_king: u8, black_king: u8) -> bool {
    let (fr, fb) = (red_king % 9, black_king % 9);
    fr > 4 || (fr == 4 && fb > 4)
}

/// The square reflected left to right.
#[inline]
pub(super) fn mirror_sq(sq: u8) -> u8 {
    sq - sq % 9 + (8 - sq % 9)
}

/// The colex digit of `k` sorted ordinals.
#[inline]
pub(super) fn colex(ords: &[u8]) -> u64 {
    ords.iter()
        .enumerate()
        .map(|(i, &o)| BINOMIAL[o as usize][i + 1])
        .sum()
}

/// The colex digit of a group's pieces on `squares` (each mapped by `m`), or `None` when one
/// stands where the group cannot.
#[inline]
pub(super) fn group_digit(g: &Group, squares: &[u8], m: impl Fn(u8) -> u8 + Copy) -> Option<u64> {
    // One piece, the common case: its ordinal is the digit (C(o, 1) = o).
    if g.count == 1 {
        let o = g.ordinal[m(squares[0]) as usize];
        return (o != u8::MAX).then_some(u64::from(o));
    }
    let mut ords = [0u8; 5];
    for (o, &sq) in ords[..g.count].iter_mut().zip(squares) {
        *o = g.ordinal[m(sq) as usize];
        if *o == u8::MAX {
            return None;
        }
    }
    ords[..g.count].sort_unstable();
    Some(colex(&ords[..g.count]))
}

/// The `k` sorted ordinals of a colex digit, written into `out`.
#[inline]
pub(super) fn uncolex(mut digit: u64, out: &mut [u8]) {
    for i in (0..out.len()).rev() {
        // The largest ordinal `o` with C(o, i + 1) <= digit: the digit itself for one piece,
        // else a binary search (C(o, i + 1) grows with `o`; the answer lies in i..90).
        let o = if i == 0 {
            digit as usize
        } else {
            let (mut lo, mut hi) = (i, 90);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if BINOMIAL[mid][i + 1] <= digit {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            lo
        };
        digit -= BINOMIAL[o][i + 1];
        out[i] = o as u8;
    }
}

/// A group's squares from its colex digit, written into `out`.
#[inline]
pub(super) fn group_squares(g: &Group, digit: u64, out: &mut [u8]) {
    let mut ords = [0u8; 5];
    uncolex(digit, &mut ords[..g.count]);
    for (o, &ord) in out[..g.count].iter_mut().zip(&ords) {
        *o = g.squares[ord as usize];
    }
}

/// The slot of each group's first piece (slots 0 and 1 are the generals).
pub(super) fn group_slots(groups: &[Group]) -> Vec<usize> {
    let mut slot = 2;
    groups
        .iter()
        .map(|g| {
            let at = slot;
            slot += g.count;
            at
        })
        .collect()
}

/// `stride * base`, or `None` past [`MAX_SIZE`].
#[inline]
pub(super) fn grow(stride: u64, base: u64) -> Option<u64> {
    stride.checked_mul(base).filter(|&s| s <= MAX_SIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncolex_inverts_colex_for_every_digit() {
        for k in 1..=3usize {
            for digit in 0..BINOMIAL[90][k] {
                let mut ords = [0u8; 5];
                uncolex(digit, &mut ords[..k]);
                assert!(ords[..k].windows(2).all(|w| w[0] < w[1]), "{k}: {digit}");
                assert!(usize::from(ords[k - 1]) < 90);
                assert_eq!(colex(&ords[..k]), digit, "{k}: {ords:?}");
            }
        }
        // Larger groups at their edges.
        for k in 4..=5usize {
            for digit in [0, 1, 2, BINOMIAL[90][k] / 2, BINOMIAL[90][k] - 1] {
                let mut ords = [0u8; 5];
                uncolex(digit, &mut ords[..k]);
                assert_eq!(colex(&ords[..k]), digit, "{k}: {ords:?}");
            }
        }
    }
}
