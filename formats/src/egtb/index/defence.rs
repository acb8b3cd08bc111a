//! One side's defence (its general, advisors and elephants) as one number: the placements in
//! which none of them share a square, in the digit order of key schemes 2 and 3, and the left-right
//! mirror decision they make when both generals stand on the e-file.

use super::groups::{Group, group_digit, mirror_sq, needs_mirror, uncolex};
use chariot_rules::{Color, Kind, Piece};

/// One side's defender placements.
#[derive(Clone, Debug)]
pub(super) struct Defence {
    /// Groups (indices into the indexer's groups) of the side's advisors and elephants.
    pub groups: Vec<usize>,
    /// Per placement: the general's square, then the defenders' squares by group.
    pub placements: Vec<[u8; 5]>,
    /// `(general ordinal, advisor digit, elephant digit)` flattened -> placement, or `u16::MAX`.
    ordinal: Vec<u16>,
    /// Digit bases of the advisor and elephant groups (1 when absent).
    bases: [u64; 2],
    /// Square -> the general's palace ordinal, or `u8::MAX`.
    pub king_ord: [u8; 90],
    /// Per placement: its class (the first key of the digit order, see [`Defence::new`]).
    pub class: Vec<u8>,
    /// Per general ordinal: its placements (their ordinals) in digit order.
    pub by_king: Vec<Vec<u16>>,
    /// Per placement: its rank among the placements of its general's square.
    pub local: Vec<u16>,
    /// Per general ordinal: how many of its placements have class 0 or 1 (they come first).
    pub left: Vec<u64>,
}

impl Defence {
    /// The placements of one side: `kings` its general's squares, `strong` whether the mirror
    /// keeps only the d- and e-files for it.
    pub fn new(groups: &[Group], color: Color, kings: &[u8], strong: bool) -> Defence {
        let side: Vec<usize> = [Kind::Advisor, Kind::Elephant]
            .iter()
            .filter_map(|&k| groups.iter().position(|g| g.piece == Piece::new(color, k)))
            .collect();
        let base = |kind: Kind| {
            groups
                .iter()
                .find(|g| g.piece == Piece::new(color, kind))
                .map_or(1, |g| g.base)
        };
        let bases = [base(Kind::Advisor), base(Kind::Elephant)];
        // Digit order: by class, then by general ordinal, advisor digit, elephant digit. The
        // strong side's class is its general's file (d 0, e 1). The weak side's: general on the
        // d-file 0; on the e-file 1, or 2 when the placement's mirror image comes before it in
        // the digit order (with both generals on the e-file the mirror then takes the position
        // to the image); on the f-file 3.
        let mut king_ord = [u8::MAX; 90];
        for (i, &k) in kings.iter().enumerate() {
            king_ord[k as usize] = i as u8;
        }
        let flat_of = |sq: &[u8; 5]| -> usize {
            let mut digit = [0u64; 2];
            let mut n = 1;
            for &gi in &side {
                let g = &groups[gi];
                digit[usize::from(g.piece.kind() == Kind::Elephant)] =
                    group_digit(g, &sq[n..n + g.count], |x| x).unwrap_or(0);
                n += g.count;
            }
            ((u64::from(king_ord[sq[0] as usize]) * bases[0] + digit[0]) * bases[1] + digit[1])
                as usize
        };
        let class = |sq: &[u8; 5]| -> u8 {
            let file = sq[0] % 9;
            if strong {
                return file - 3;
            }
            match file {
                3 => 0,
                4 => {
                    let mut image = *sq;
                    for s in image.iter_mut().filter(|s| **s != u8::MAX) {
                        *s = mirror_sq(*s);
                    }
                    if flat_of(&image) < flat_of(sq) { 2 } else { 1 }
                }
                _ => 3,
            }
        };
        let mut found: Vec<(u8, usize, [u8; 5])> = Vec::new();
        for (ko, &king) in kings.iter().enumerate() {
            if strong && king % 9 > 4 {
                continue;
            }
            for a in 0..bases[0] {
                for b in 0..bases[1] {
                    let mut sq = [u8::MAX; 5];
                    sq[0] = king;
                    let mut n = 1;
                    let mut seen = 1u128 << king;
                    let mut clash = false;
                    for (&gi, digit) in side.iter().zip(Self::digits(groups, &side, a, b)) {
                        let g = &groups[gi];
                        let mut ords = [0u8; 5];
                        uncolex(digit, &mut ords[..g.count]);
                        for &o in &ords[..g.count] {
                            let s = g.squares[o as usize];
                            clash |= seen >> s & 1 != 0;
                            seen |= 1 << s;
                            sq[n] = s;
                            n += 1;
                        }
                    }
                    if !clash {
                        let flat = (ko as u64 * bases[0] + a) * bases[1] + b;
                        found.push((class(&sq), flat as usize, sq));
                    }
                }
            }
        }
        found.sort_by_key(|f| (f.0, f.1));
        let mut ordinal = vec![u16::MAX; kings.len() * (bases[0] * bases[1]) as usize];
        for (i, f) in found.iter().enumerate() {
            ordinal[f.1] = i as u16;
        }
        // Per general square: its placements in digit order, those of class 0 or 1 first.
        let mut by_king = vec![Vec::new(); kings.len()];
        let mut local = Vec::with_capacity(found.len());
        let mut left = vec![0u64; kings.len()];
        for (i, f) in found.iter().enumerate() {
            let k = usize::from(king_ord[f.2[0] as usize]);
            local.push(by_king[k].len() as u16);
            by_king[k].push(i as u16);
            if f.0 <= 1 {
                left[k] += 1;
            }
        }
        Defence {
            groups: side,
            placements: found.iter().map(|f| f.2).collect(),
            ordinal,
            bases,
            king_ord,
            class: found.iter().map(|f| f.0).collect(),
            by_king,
            local,
            left,
        }
    }

    /// The ordinal (in digit order) of the side's placement in slots `s`, its general in slot
    /// `general`, every square mapped by `m` (the mirror or not); `None` when a piece stands
    /// where it cannot or the general shares a square with a defender.
    #[inline]
    pub fn ordinal_of(
        &self,
        groups: &[Group],
        group_slot: &[usize],
        general: usize,
        m: impl Fn(u8) -> u8 + Copy,
        s: &[u8],
    ) -> Option<u64> {
        let king_ord = self.king_ord[m(s[general]) as usize];
        if king_ord == u8::MAX {
            return None;
        }
        let mut digit = [0u64; 2];
        for &gi in &self.groups {
            let g = &groups[gi];
            let at = group_slot[gi];
            digit[usize::from(g.piece.kind() == Kind::Elephant)] =
                group_digit(g, &s[at..at + g.count], m)?;
        }
        let flat = (u64::from(king_ord) * self.bases[0] + digit[0]) * self.bases[1] + digit[1];
        let o = self.ordinal[flat as usize];
        (o != u16::MAX).then_some(u64::from(o))
    }

    /// Writes placement `ordinal`'s general into slot `general` and its defenders into their
    /// groups' slots; returns the squares it takes.
    #[inline]
    pub fn place(
        &self,
        groups: &[Group],
        group_slot: &[usize],
        general: usize,
        ordinal: u64,
        out: &mut [u8],
    ) -> u128 {
        let sq = &self.placements[ordinal as usize];
        out[general] = sq[0];
        let mut occupied = 1u128 << sq[0];
        let mut n = 1;
        for &gi in &self.groups {
            let at = group_slot[gi];
            for i in 0..groups[gi].count {
                out[at + i] = sq[n];
                occupied |= 1 << sq[n];
                n += 1;
            }
        }
        occupied
    }

    /// Whether the side's advisors and elephants in slots `s` are their own mirror image.
    pub fn is_symmetric(&self, groups: &[Group], group_slot: &[usize], s: &[u8]) -> bool {
        self.groups.iter().all(|&gi| {
            let at = group_slot[gi];
            let squares = &s[at..at + groups[gi].count];
            squares.iter().all(|&sq| squares.contains(&mirror_sq(sq)))
        })
    }

    /// The digits of the side's groups for the flattened advisor and elephant digits.
    fn digits(groups: &[Group], side: &[usize], a: u64, b: u64) -> Vec<u64> {
        side.iter()
            .map(|&gi| {
                if groups[gi].piece.kind() == Kind::Advisor {
                    a
                } else {
                    b
                }
            })
            .collect()
    }
}

/// Whether the layouts of key schemes 2 and 3 store slots `s` as their mirror image: by the
/// generals, and with both on the e-file by the weak defence's class. `None` for a weak defence
/// that has no placement.
pub(super) fn mirrors(
    weak: &Defence,
    groups: &[Group],
    group_slot: &[usize],
    s: &[u8],
) -> Option<bool> {
    if needs_mirror(s[0], s[1]) {
        return Some(true);
    }
    if s[0] % 9 != 4 || s[1] % 9 != 4 {
        return Some(false);
    }
    let o = weak.ordinal_of(groups, group_slot, 1, |sq| sq, s)?;
    Some(weak.class[o as usize] == 2)
}
