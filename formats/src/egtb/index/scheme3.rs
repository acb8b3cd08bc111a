//! Key scheme 3, the layout new tables are written in: the general pair most significant, then
//! the chariots, horses, cannons and soldiers over their reachable squares, then each side's
//! advisors and elephants as one placement without a square shared with its general, the weak
//! side's least significant. The order is key scheme 1's (so neighbouring entries differ in the
//! defenders and a piece's digit always means the same square, which keeps blocks compressible);
//! the entries are key scheme 2's placements, so no index is spent on a general standing on its
//! own advisor's square, and with both generals on the e-file the weak defence decides the
//! mirror.

use super::defence::{Defence, mirrors};
use super::groups::{
    Group, group_digit, group_slots, group_squares, grow, mirror_sq, needs_mirror,
};
use chariot_rules::{Color, Kind};

/// The entries of one general pair.
#[derive(Clone, Copy, Debug)]
struct KingBlock {
    /// The palace ordinals of the strong and the weak general.
    kings: (u8, u8),
    /// The index of the block's first entry.
    start: u64,
    /// The strong side's placements with its general there.
    strong: u64,
    /// The weak side's placements with its general there (with both generals on the e-file,
    /// only those of class 0 or 1: the mirror takes the others).
    weak: u64,
}

/// What the generals and defenders of a placement decide of its key scheme 3 index.
#[derive(Clone, Copy, Debug)]
pub(super) struct Defences {
    /// The placement is stored as its mirror image.
    pub mirror: bool,
    start: u64,
    strong: u64,
    weak: u64,
    ds: u64,
    dw: u64,
}

impl Defences {
    /// The index with piece digit `piece`.
    #[inline]
    pub fn index(&self, piece: u64) -> u64 {
        self.start + (piece * self.strong + self.ds) * self.weak + self.dw
    }
}

/// The layout of key scheme 3.
#[derive(Clone, Debug)]
pub(super) struct KingMajor {
    /// The defender placements of each side (strong, weak).
    pub sides: [Defence; 2],
    /// The first slot of each group.
    pub group_slot: Vec<usize>,
    /// The general pairs the mirror keeps, in index order.
    blocks: Vec<KingBlock>,
    /// [strong ordinal][weak ordinal] -> block, or `u8::MAX`.
    block_of: [[u8; 9]; 9],
    /// Chariot, horse, cannon and soldier groups with their weight within the piece digit.
    piece_groups: Vec<(usize, u64)>,
    /// The piece digit's base.
    pieces: u64,
    /// Entries per half.
    pub size: u64,
}

/// Where [`KingMajor::decode_at`] and [`KingMajor::step`] are: the block and its three digits.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Digits {
    block: usize,
    piece: u64,
    ds: u64,
    dw: u64,
}

impl KingMajor {
    /// The layout of a table with these groups; `None` when a half would be too large.
    pub fn new(groups: &[Group], red_kings: &[u8], black_kings: &[u8]) -> Option<KingMajor> {
        let strong = Defence::new(groups, Color::Red, red_kings, true);
        let weak = Defence::new(groups, Color::Black, black_kings, false);
        let group_slot = group_slots(groups);
        let mut piece_groups: Vec<(usize, u64)> = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| !g.is_defender() && g.piece.kind() != Kind::General)
            .map(|(gi, _)| (gi, 0))
            .collect();
        let mut pieces = 1u64;
        for (gi, w) in piece_groups.iter_mut().rev() {
            *w = pieces;
            pieces = grow(pieces, groups[*gi].base)?;
        }
        let mut blocks = Vec::new();
        let mut block_of = [[u8::MAX; 9]; 9];
        let mut start = 0u64;
        for (i, &r) in red_kings.iter().enumerate() {
            for (j, &b) in black_kings.iter().enumerate() {
                if needs_mirror(r, b) {
                    continue;
                }
                let s = strong.by_king[i].len() as u64;
                let w = if r % 9 == 4 && b % 9 == 4 {
                    weak.left[j]
                } else {
                    weak.by_king[j].len() as u64
                };
                block_of[i][j] = blocks.len() as u8;
                blocks.push(KingBlock {
                    kings: (i as u8, j as u8),
                    start,
                    strong: s,
                    weak: w,
                });
                start = start.checked_add(grow(grow(pieces, s)?, w)?)?;
                grow(start, 1)?;
            }
        }
        Some(KingMajor {
            sides: [strong, weak],
            group_slot,
            blocks,
            block_of,
            piece_groups,
            pieces,
            size: start,
        })
    }

    /// The index of slots `s` (the mirror applied here), or `None` when a piece stands where it
    /// cannot.
    #[inline]
    pub fn encode(&self, groups: &[Group], s: &[u8]) -> Option<u64> {
        let d = self.defences(groups, s)?;
        Some(d.index(self.piece_digit(groups, s, d.mirror)?))
    }

    /// The part of the index of slots `s` that the generals and defenders decide (the mirror
    /// too), or `None` when they have no index.
    #[inline]
    pub fn defences(&self, groups: &[Group], s: &[u8]) -> Option<Defences> {
        let [strong, weak] = &self.sides;
        let mirror = mirrors(weak, groups, &self.group_slot, s)?;
        let m = |sq: u8| if mirror { mirror_sq(sq) } else { sq };
        let ks = strong.king_ord[m(s[0]) as usize];
        let kw = weak.king_ord[m(s[1]) as usize];
        if ks == u8::MAX || kw == u8::MAX {
            return None;
        }
        let bi = self.block_of[ks as usize][kw as usize];
        if bi == u8::MAX {
            return None;
        }
        let b = self.blocks[usize::from(bi)];
        let ds = strong.ordinal_of(groups, &self.group_slot, 0, m, s)?;
        let dw = weak.ordinal_of(groups, &self.group_slot, 1, m, s)?;
        let ds = u64::from(strong.local[ds as usize]);
        let dw = u64::from(weak.local[dw as usize]);
        if dw >= b.weak {
            return None;
        }
        Some(Defences {
            mirror,
            start: b.start,
            strong: b.strong,
            weak: b.weak,
            ds,
            dw,
        })
    }

    /// The piece digit of slots `s` (chariots, horses, cannons and soldiers), mirrored or not,
    /// or `None` when a piece stands where its group cannot.
    #[inline]
    pub fn piece_digit(&self, groups: &[Group], s: &[u8], mirror: bool) -> Option<u64> {
        let m = |sq: u8| if mirror { mirror_sq(sq) } else { sq };
        let mut piece = 0;
        for &(gi, weight) in &self.piece_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            piece += group_digit(g, &s[at..at + g.count], m)? * weight;
        }
        Some(piece)
    }

    /// How the index of the canonical slots `s` changes when the piece of group `gi` (a
    /// chariot, horse, cannon or soldier group) moves: the weight of the group's digit and the
    /// group's place in the piece digit; `None` for a defender or general group or slots with
    /// no block. Such a move keeps the generals and defences, so the block, the defence digits
    /// and the mirror stay: only the group's digit changes.
    #[inline]
    pub fn piece_weight(&self, groups: &[Group], gi: usize, s: &[u8]) -> Option<u64> {
        let &(_, weight) = self.piece_groups.iter().find(|&&(g, _)| g == gi)?;
        let b = self.block_at(s)?;
        debug_assert!(!groups[gi].is_defender());
        Some(weight * b.strong * b.weak)
    }

    /// How the index of the canonical slots `s` changes when an advisor or elephant of `side`
    /// (0 the strong side, 1 the weak) moves: the weight of that side's defence digit and the
    /// digit now. Such a move keeps both generals, so the block stays, and the other side's
    /// digit and the pieces' too; the mirror stays unless the weak side's defence decides it
    /// (both generals on the e-file), and then, or for slots with no block, this is `None`.
    #[inline]
    pub fn defence_weight(&self, groups: &[Group], side: usize, s: &[u8]) -> Option<(u64, u64)> {
        if side == 1 && s[0] % 9 == 4 && s[1] % 9 == 4 {
            return None;
        }
        let b = self.block_at(s)?;
        let digit = self.defence_digit(groups, side, s)?;
        Some((if side == 0 { b.weak } else { 1 }, digit))
    }

    /// The block of the generals of slots `s` as they stand (no mirror), if the mirror keeps it.
    #[inline]
    fn block_at(&self, s: &[u8]) -> Option<&KingBlock> {
        let [strong, weak] = &self.sides;
        let ks = strong.king_ord[s[0] as usize];
        let kw = weak.king_ord[s[1] as usize];
        if ks == u8::MAX || kw == u8::MAX {
            return None;
        }
        self.blocks
            .get(usize::from(self.block_of[ks as usize][kw as usize]))
    }

    /// The defence digit of `side` (0 strong, 1 weak) of slots `s`, stored as they are (no
    /// mirror), or `None` when its placement has none.
    #[inline]
    pub fn defence_digit(&self, groups: &[Group], side: usize, s: &[u8]) -> Option<u64> {
        let d = &self.sides[side];
        let o = d.ordinal_of(groups, &self.group_slot, side, |q| q, s)?;
        Some(u64::from(d.local[o as usize]))
    }

    /// The slots of index `idx` (below the size), written into `out`.
    #[inline]
    pub fn decode(&self, groups: &[Group], idx: u64, out: &mut [u8]) {
        self.decode_at(groups, idx, out);
    }

    /// [`KingMajor::decode`], returning where the index is for [`KingMajor::step`].
    #[inline]
    pub fn decode_at(&self, groups: &[Group], idx: u64, out: &mut [u8]) -> Digits {
        let block = self.blocks.partition_point(|b| b.start <= idx) - 1;
        let b = self.blocks[block];
        let rem = idx - b.start;
        let d = Digits {
            block,
            dw: rem % b.weak,
            ds: rem / b.weak % b.strong,
            piece: rem / b.weak / b.strong,
        };
        self.place_weak(groups, &d, out);
        self.place_strong(groups, &d, out);
        self.place_pieces(groups, &d, out);
        d
    }

    /// Moves `d` and the slots in `out` (those of index `idx`) to index `idx + 1`, which must be
    /// below the size: an odometer over the digits, so that only the slots of the digits that
    /// change are written (mostly the weak defence alone).
    #[inline]
    pub fn step(&self, groups: &[Group], d: &mut Digits, out: &mut [u8]) {
        let b = self.blocks[d.block];
        // How far the carry goes: 0 the weak defence only, 1 the strong one too, 2 the pieces
        // (or the next general pair's block) as well.
        let carry = if d.dw + 1 < b.weak {
            d.dw += 1;
            0
        } else if d.ds + 1 < b.strong {
            (d.dw, d.ds) = (0, d.ds + 1);
            1
        } else if d.piece + 1 < self.pieces {
            (d.dw, d.ds, d.piece) = (0, 0, d.piece + 1);
            2
        } else {
            *d = Digits {
                block: d.block + 1,
                ..Digits::default()
            };
            2
        };
        self.place_weak(groups, d, out);
        if carry >= 1 {
            self.place_strong(groups, d, out);
        }
        if carry >= 2 {
            self.place_pieces(groups, d, out);
        }
    }

    fn place_weak(&self, groups: &[Group], d: &Digits, out: &mut [u8]) {
        self.place_side(groups, 1, d.dw, d, out);
    }

    fn place_strong(&self, groups: &[Group], d: &Digits, out: &mut [u8]) {
        self.place_side(groups, 0, d.ds, d, out);
    }

    /// Places side `side`'s (0 strong, 1 weak; its general's slot too) defence of local digit
    /// `digit` in `d`'s block.
    fn place_side(&self, groups: &[Group], side: usize, digit: u64, d: &Digits, out: &mut [u8]) {
        let kings = self.blocks[d.block].kings;
        let king = usize::from(if side == 0 { kings.0 } else { kings.1 });
        let ordinal = self.sides[side].by_king[king][digit as usize];
        self.sides[side].place(groups, &self.group_slot, side, u64::from(ordinal), out);
    }

    fn place_pieces(&self, groups: &[Group], d: &Digits, out: &mut [u8]) {
        for &(gi, weight) in &self.piece_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            group_squares(g, d.piece / weight % g.base, &mut out[at..]);
        }
    }
}
