//! Key schemes 2 and 4: each side's defence as one placement, the two as one pair digit (the
//! least significant), then the soldiers over their 55 squares, then the chariots, horses and
//! cannons (the most significant): in key scheme 2 (tables written on 2026-11-26, still read)
//! over the squares the generals, defenders and earlier groups leave free, in key scheme 4 over
//! the 90 squares. Free ranks make fewer entries, but a free rank means another square as the
//! defenders move, and such files compress worse.

use super::defence::{Defence, mirrors};
use super::groups::{BINOMIAL, Group, colex, group_digit, group_slots, grow, mirror_sq, uncolex};
use chariot_rules::{Color, Kind};

/// What the generals and defenders of a placement decide of its index in key schemes 2 and 4
/// (see [`PairDigit::defences`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct PairKey {
    /// The placement is stored as its mirror image.
    mirror: bool,
    /// The pair digit times its weight.
    base: u64,
    /// The squares the generals and defenders take (after the mirror).
    occupied: u128,
}

/// The layout of key schemes 2 and 4.
#[derive(Clone, Debug)]
pub(super) struct PairDigit {
    /// The defender placements of each side (strong, weak), in digit order.
    pub sides: [Defence; 2],
    /// Strong placements with the general on the d-file: they pair with every weak one.
    strong_d: u64,
    /// Weak placements with the general on the d- or e-file: those an e-file strong general
    /// pairs with (the mirror takes the others).
    weak_left: u64,
    /// The pair digit's weight.
    pair_stride: u64,
    /// The pair digit's base.
    pairs: u64,
    /// Chariot, horse and cannon groups (indices into the indexer's groups) in digit order,
    /// with their digit's weight and the number of squares still free for them.
    free_groups: Vec<(usize, u64, usize)>,
    /// The groups over their reachable squares (soldiers; without free ranks chariots, horses
    /// and cannons too, before them), with their digit's weight.
    square_groups: Vec<(usize, u64)>,
    /// The first slot of each group.
    pub group_slot: Vec<usize>,
    /// Entries per half.
    pub size: u64,
}

/// The square that is the `rank`-th free one (from 0) of a board whose occupied squares are
/// `occupied`.
#[inline]
fn nth_free(occupied: u128, rank: u8) -> u8 {
    let mut sq = u32::from(rank);
    let mut occ = occupied;
    while occ != 0 {
        let o = occ.trailing_zeros();
        if o > sq {
            break;
        }
        sq += 1;
        occ &= occ - 1;
    }
    sq as u8
}

/// The rank of free square `sq` among the free squares (`sq` must be free).
#[inline]
fn free_rank(occupied: u128, sq: u8) -> u8 {
    sq - (occupied & ((1u128 << sq) - 1)).count_ones() as u8
}

impl PairDigit {
    /// The layout of a table with these groups, with chariots, horses and cannons over their
    /// free ranks (key scheme 2) or over the 90 squares (key scheme 4); `None` when a half would
    /// be too large.
    pub fn new(
        groups: &[Group],
        red_kings: &[u8],
        black_kings: &[u8],
        free_ranks: bool,
    ) -> Option<PairDigit> {
        let strong = Defence::new(groups, Color::Red, red_kings, true);
        let weak = Defence::new(groups, Color::Black, black_kings, false);
        let strong_d = strong.placements.iter().filter(|p| p[0] % 9 == 3).count() as u64;
        let strong_e = strong.placements.len() as u64 - strong_d;
        let weak_all = weak.placements.len() as u64;
        let weak_left = weak.class.iter().filter(|&&c| c <= 1).count() as u64;
        let pairs = strong_d * weak_all + strong_e * weak_left;
        let group_slot = group_slots(groups);
        // Pieces placed before the free groups: both generals and every defender.
        let mut placed = 2 + groups
            .iter()
            .filter(|g| g.is_defender())
            .map(|g| g.count)
            .sum::<usize>();
        let mut free_groups = Vec::new();
        let mut square_groups = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            match g.piece.kind() {
                Kind::Chariot | Kind::Horse | Kind::Cannon if free_ranks => {
                    free_groups.push((gi, 0, 90 - placed));
                    placed += g.count;
                }
                Kind::Chariot | Kind::Horse | Kind::Cannon => square_groups.push((gi, 0)),
                _ => {}
            }
        }
        for (gi, g) in groups.iter().enumerate() {
            if g.piece.kind() == Kind::Soldier {
                square_groups.push((gi, 0));
            }
        }
        // Weights: the pair least significant, then the soldiers, then the free groups.
        let mut stride = 1u64;
        let pair_stride = stride;
        stride = grow(stride, pairs)?;
        for (gi, w) in square_groups.iter_mut().rev() {
            *w = stride;
            stride = grow(stride, groups[*gi].base)?;
        }
        for (gi, w, free) in free_groups.iter_mut().rev() {
            *w = stride;
            stride = grow(stride, BINOMIAL[*free][groups[*gi].count])?;
        }
        Some(PairDigit {
            sides: [strong, weak],
            strong_d,
            weak_left,
            pair_stride,
            pairs,
            free_groups,
            square_groups,
            group_slot,
            size: stride,
        })
    }

    /// The index of slots `s` (the mirror applied here), or `None` when a piece stands where it
    /// cannot.
    #[inline]
    pub fn encode(&self, groups: &[Group], s: &[u8]) -> Option<u64> {
        let key = self.defences(groups, s)?;
        self.encode_pieces(groups, &key, s)
    }

    /// What the generals and defenders of slots `s` decide of their index: the mirror, the
    /// pair digit and the squares they take; `None` when they have no index.
    #[inline]
    pub fn defences(&self, groups: &[Group], s: &[u8]) -> Option<PairKey> {
        let mirror = mirrors(&self.sides[1], groups, &self.group_slot, s)?;
        let m = |sq: u8| if mirror { mirror_sq(sq) } else { sq };
        let strong = self.sides[0].ordinal_of(groups, &self.group_slot, 0, m, s)?;
        let weak = self.sides[1].ordinal_of(groups, &self.group_slot, 1, m, s)?;
        let pair = if strong < self.strong_d {
            strong * self.sides[1].placements.len() as u64 + weak
        } else {
            if weak >= self.weak_left {
                return None;
            }
            self.strong_d * self.sides[1].placements.len() as u64
                + (strong - self.strong_d) * self.weak_left
                + weak
        };
        let mut occupied = 0u128;
        for (side, d) in self.sides.iter().enumerate() {
            occupied |= 1 << m(s[side]);
            for &gi in &d.groups {
                let at = self.group_slot[gi];
                for &sq in &s[at..at + groups[gi].count] {
                    occupied |= 1 << m(sq);
                }
            }
        }
        Some(PairKey {
            mirror,
            base: pair * self.pair_stride,
            occupied,
        })
    }

    /// The index of slots `s` whose generals and defenders are those `key` was made from
    /// ([`PairDigit::defences`]), or `None` when a piece stands where it cannot.
    #[inline]
    pub fn encode_pieces(&self, groups: &[Group], key: &PairKey, s: &[u8]) -> Option<u64> {
        let m = |sq: u8| if key.mirror { mirror_sq(sq) } else { sq };
        let mut idx = key.base;
        let mut occupied = key.occupied;
        for &(gi, weight, _) in &self.free_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            let mut ranks = [0u8; 5];
            let mut mine = 0u128;
            for (i, r) in ranks[..g.count].iter_mut().enumerate() {
                let sq = m(s[at + i]);
                if occupied >> sq & 1 != 0 || mine >> sq & 1 != 0 {
                    return None;
                }
                mine |= 1 << sq;
                *r = free_rank(occupied, sq);
            }
            ranks[..g.count].sort_unstable();
            idx += colex(&ranks[..g.count]) * weight;
            occupied |= mine;
        }
        for &(gi, weight) in &self.square_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            idx += group_digit(g, &s[at..at + g.count], m)? * weight;
        }
        Some(idx)
    }

    /// Writes pair digit `pair`'s generals and defenders into their slots of `out`; returns the
    /// squares they take.
    #[inline]
    pub fn place_pair(&self, groups: &[Group], pair: u64, out: &mut [u8]) -> u128 {
        let weak_all = self.sides[1].placements.len() as u64;
        let (strong, weak) = if pair < self.strong_d * weak_all {
            (pair / weak_all, pair % weak_all)
        } else {
            let r = pair - self.strong_d * weak_all;
            (self.strong_d + r / self.weak_left, r % self.weak_left)
        };
        self.sides[0].place(groups, &self.group_slot, 0, strong, out)
            | self.sides[1].place(groups, &self.group_slot, 1, weak, out)
    }

    /// The number of pair digits, when the pair digit is the least significant and every
    /// other group is over its reachable squares (key scheme 4): then index `i` is the pair
    /// `i % pairs` with the pieces of [`PairDigit::pieces`] of `i`. `None` in key scheme 2.
    #[must_use]
    pub fn pairs_lowest(&self) -> Option<u64> {
        (self.pair_stride == 1 && self.free_groups.is_empty()).then_some(self.pairs)
    }

    /// Writes the chariots, horses, cannons and soldiers of index `idx` into their slots of
    /// `out` (key scheme 4: [`PairDigit::pairs_lowest`]); returns the squares they take and
    /// whether two of them share one.
    #[inline]
    pub fn pieces(&self, groups: &[Group], idx: u64, out: &mut [u8]) -> (u128, bool) {
        let (mut occupied, mut overlap) = (0u128, false);
        for &(gi, weight) in &self.square_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            super::groups::group_squares(g, idx / weight % g.base, &mut out[at..]);
            for &sq in &out[at..at + g.count] {
                overlap |= occupied >> sq & 1 != 0;
                occupied |= 1 << sq;
            }
        }
        (occupied, overlap)
    }

    /// The slots of index `idx`, written into `out`.
    pub fn decode(&self, groups: &[Group], idx: u64, out: &mut [u8]) {
        let mut occupied = self.place_pair(groups, idx / self.pair_stride % self.pairs, out);
        // The free groups, each over the squares left by the earlier ones.
        for &(gi, weight, free) in &self.free_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            let mut ranks = [0u8; 5];
            uncolex(
                idx / weight % BINOMIAL[free][g.count],
                &mut ranks[..g.count],
            );
            let mut mine = 0u128;
            for (j, &r) in ranks[..g.count].iter().enumerate() {
                let sq = nth_free(occupied, r);
                out[at + j] = sq;
                mine |= 1 << sq;
            }
            occupied |= mine;
        }
        for &(gi, weight) in &self.square_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            super::groups::group_squares(g, idx / weight % g.base, &mut out[at..]);
        }
    }
}
