//! The position <-> index mapping of a table, shared by the generator and the prober.
//!
//! # Frame
//! A table is stored in its own frame: the stronger side (the first in the name) is Red. A
//! position whose Black side holds the stronger material is turned into that frame by swapping
//! the colours and flipping the board top to bottom (rank r -> 9 - r), which the rules of
//! Xiangqi do not notice. Symmetric material (`KRKR`) is never flipped.
//!
//! # Layout (key scheme 3, [`KEY_SCHEME`])
//! Every table has two halves of [`Indexer::size`] entries, Red (strong side) to move first.
//! Within a half the index is a mixed-radix number (`docs/formats/egtb.md` has every detail):
//!
//! 1. each side's defence (its general, advisors and elephants) is one number over the
//!    placements in which none of them share a square, and the two defences one *pair* digit
//!    over the pairs the left-right mirror keeps (the strong general on files d or e, and when
//!    it stands on the e-file, the weak general on files d or e too);
//! 2. chariots, horses and cannons, strong side first, each group over the 90 squares (like
//!    pieces one digit `C(90, k)`);
//! 3. soldiers over their 55 reachable squares.
//!
//! The pair digit is the least significant, the chariots, horses and cannons the most:
//! neighbouring entries then differ in the defenders, where values change least, and a piece's
//! digit means the same square whatever the defenders, so blocks compress well.
//!
//! Indices whose pieces share a square, whose generals face each other, or whose side not to
//! move is in check are unused (the generator marks them, the file stores a don't-care value).
//! When both generals stand on the e-file the weak side's advisors and elephants decide the
//! mirror; only when they are symmetric too do a position and its mirror image both have an
//! index ([`Indexer::covers_mirror`]).
//!
//! Earlier layouts are still read ([`Indexer::with_scheme`]). Key scheme 2 is key scheme 3 with
//! each chariot, horse and cannon group over the squares the generals, defenders and earlier
//! groups leave free (its *free ranks*, `C(free, k)`): fewer entries, but a digit then means a
//! different square as the defenders move, and its files compressed worse. Key scheme 1, the
//! first tables' layout: the 45 general pairs, then one digit per group of like pieces in name
//! order over its reachable squares, pieces sharing squares included.

mod defence;
mod groups;
mod scheme2;
mod scheme3;
mod translate;

use super::signature::{Material, NAME_ORDER, Signature};
use chariot_rules::{Color, Kind, Piece, Position, Setup, Square};
use groups::{BINOMIAL, Group, MAX_SIZE, mirror_sq, needs_mirror, reachable_squares};
use scheme2::{PairDigit, PairKey};
use scheme3::{Defences, KingMajor};
pub use translate::{Run, SchemeMap};

/// The most pieces (generals included) a table may hold.
pub const MAX_PIECES: usize = 32;

/// Why a position or signature could not be indexed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// The position's material is not the table's.
    #[error("the position has material {red}{black} (red, black), not that of table {table}")]
    WrongMaterial {
        /// Red's material.
        red: Material,
        /// Black's material.
        black: Material,
        /// The table's name.
        table: Signature,
    },
    /// A piece stands on a square it can never reach in a game.
    #[error("the {piece} on {square} stands where no table position has it")]
    Unreachable {
        /// The piece's FEN letter.
        piece: char,
        /// The square.
        square: Square,
    },
    /// The table would be too large to index.
    #[error("table {0} is too large to index")]
    TooLarge(Signature),
    /// A file names a key scheme this program does not know.
    #[error("unknown key scheme {0} (this program reads 1 to 4)")]
    UnknownScheme(u8),
}

/// The key scheme new tables are generated in (see the module notes); a writer may store a
/// table in [`ALT_KEY_SCHEME`] instead, which has the same entries in another order.
pub const KEY_SCHEME: u8 = 3;

/// The other order of key scheme 3's entries (key scheme 4: the pair digit least significant,
/// the pieces over their squares most), which compresses better for some tables.
pub const ALT_KEY_SCHEME: u8 = 4;

/// `true` for a key scheme this program reads.
#[must_use]
pub fn is_known_scheme(scheme: u8) -> bool {
    (1..=4).contains(&scheme)
}

/// The 45 canonical pairs of general squares (strong, weak) and the inverse map.
struct KingPairs {
    pairs: Vec<(u8, u8)>,
    /// [strong palace ordinal][weak palace ordinal] -> pair index, or -1.
    index: [[i8; 9]; 9],
    red: Vec<u8>,
    black: Vec<u8>,
}

fn king_pairs() -> KingPairs {
    let red = reachable_squares(Piece::new(Color::Red, Kind::General));
    let black = reachable_squares(Piece::new(Color::Black, Kind::General));
    let mut pairs = Vec::new();
    let mut index = [[-1i8; 9]; 9];
    for (i, &r) in red.iter().enumerate() {
        for (j, &b) in black.iter().enumerate() {
            if !needs_mirror(r, b) {
                index[i][j] = pairs.len() as i8;
                pairs.push((r, b));
            }
        }
    }
    KingPairs {
        pairs,
        index,
        red,
        black,
    }
}

/// The squares of a table position in the table's frame, one per piece: slot 0 the strong
/// general, slot 1 the weak general, then the groups in index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Square indices (0..90) by slot.
    pub squares: [u8; MAX_PIECES],
    /// The number of slots in use.
    pub len: u8,
}

impl Placement {
    /// The used slots.
    #[inline]
    #[must_use]
    pub fn slots(&self) -> &[u8] {
        &self.squares[..self.len as usize]
    }

    /// `true` when two pieces share a square.
    #[must_use]
    pub fn has_overlap(&self) -> bool {
        let mut seen = 0u128;
        for &s in self.slots() {
            if seen >> s & 1 != 0 {
                return true;
            }
            seen |= 1 << s;
        }
        false
    }
}

/// Consecutive indices' placements, decoded a step at a time ([`Indexer::cursor`]).
#[derive(Clone, Debug)]
pub struct Cursor {
    idx: u64,
    placement: Placement,
    digits: Option<scheme3::Digits>,
}

impl Cursor {
    /// The index the cursor is at.
    #[must_use]
    pub fn index(&self) -> u64 {
        self.idx
    }

    /// Its placement, as [`Indexer::decode`] gives it.
    #[must_use]
    pub fn placement(&self) -> &Placement {
        &self.placement
    }
}

/// The index changes of moving one chariot, horse, cannon or soldier of a canonical placement
/// (see [`Indexer::piece_step`]): neither the generals nor the defenders move, so only the
/// piece's group digit changes, and the new index follows from the old one without encoding
/// the whole placement.
#[derive(Clone, Copy, Debug)]
pub struct PieceStep<'a> {
    group: &'a Group,
    /// The group's first slot.
    first: usize,
    /// The slot of the piece that moves.
    slot: usize,
    /// The index with the group's digit taken out.
    base: u64,
    /// The weight of the group's digit.
    weight: u64,
}

impl PieceStep<'_> {
    /// The index of the placement `p` (the one the step was made for) with the piece on `sq`
    /// instead, or `None` when its group cannot stand there. `sq` must be empty in `p`.
    #[inline]
    #[must_use]
    pub fn index_with(&self, p: &Placement, sq: u8) -> Option<u64> {
        let g = self.group;
        let digit = if g.count == 1 {
            let o = g.ordinal[sq as usize];
            if o == u8::MAX {
                return None;
            }
            u64::from(o)
        } else {
            let mut squares = [0u8; 5];
            squares[..g.count].copy_from_slice(&p.squares[self.first..self.first + g.count]);
            squares[self.slot - self.first] = sq;
            groups::group_digit(g, &squares[..g.count], |q| q)?
        };
        Some(self.base + digit * self.weight)
    }
}

/// The index changes of moving one advisor or elephant of a canonical placement (see
/// [`Indexer::defence_step`]): the generals stay, and so do the block, the mirror and every
/// digit but that side's defence.
#[derive(Clone, Copy, Debug)]
pub struct DefenceStep<'a> {
    layout: &'a KingMajor,
    groups: &'a [Group],
    /// 0 for the strong side, 1 for the weak.
    side: usize,
    /// The index with the side's defence digit taken out.
    base: u64,
    /// The weight of that digit.
    weight: u64,
}

impl DefenceStep<'_> {
    /// The index of `q`, the placement the step was made for with the one advisor or elephant
    /// moved, or `None` when that side's defence has no placement there.
    #[inline]
    #[must_use]
    pub fn index_of(&self, q: &Placement) -> Option<u64> {
        let digit = self
            .layout
            .defence_digit(self.groups, self.side, q.slots())?;
        Some(self.base + digit * self.weight)
    }
}

/// What the generals, advisors and elephants of a placement decide of its index (the mirror,
/// and the defence digits with their block or pair; see [`Indexer::defence_key`]), kept to
/// encode placements that differ from it only in chariots, horses, cannons and soldiers.
#[derive(Clone, Copy, Debug)]
pub struct DefenceKey(KeyOf);

#[derive(Clone, Copy, Debug)]
enum KeyOf {
    /// Key schemes 2 and 4.
    Pair(PairKey),
    /// Key scheme 3.
    KingMajor(Defences),
}

/// The index of one table: maps positions to entries and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    signature: Signature,
    groups: Vec<Group>,
    /// Slot -> piece, in the table's frame.
    slot_pieces: Vec<Piece>,
    kk_stride: u64,
    size: u64,
    red_kings: Vec<u8>,
    black_kings: Vec<u8>,
    kk_pairs: Vec<(u8, u8)>,
    kk_index: [[i8; 9]; 9],
    red_king_ord: [u8; 90],
    black_king_ord: [u8; 90],
    /// The layout beyond key scheme 1's.
    layout: Layout,
}

/// The layout of an index by key scheme.
#[derive(Clone, Debug)]
enum Layout {
    /// Key scheme 1: the general pairs, then every group over its reachable squares.
    Plain,
    /// Key schemes 2 and 4 (the scheme).
    PairDigit(PairDigit, u8),
    /// Key scheme 3.
    KingMajor(KingMajor),
}

impl Indexer {
    /// The indexer of a table in the current key scheme ([`KEY_SCHEME`]).
    ///
    /// # Errors
    /// [`IndexError::TooLarge`] when a half would exceed 2^40 entries or 32 pieces.
    pub fn new(signature: Signature) -> Result<Indexer, IndexError> {
        Indexer::with_scheme(signature, KEY_SCHEME)
    }

    /// The indexer of a table in key scheme `scheme` (1 to 4, see the module notes), for
    /// reading files written in another scheme.
    ///
    /// # Errors
    /// [`IndexError::TooLarge`] when a half would exceed 2^40 entries or 32 pieces,
    /// [`IndexError::UnknownScheme`] for a scheme other than 1 to 4.
    pub fn with_scheme(signature: Signature, scheme: u8) -> Result<Indexer, IndexError> {
        if !is_known_scheme(scheme) {
            return Err(IndexError::UnknownScheme(scheme));
        }
        let kp = king_pairs();
        let mut groups = Vec::new();
        let mut slot_pieces = vec![
            Piece::new(Color::Red, Kind::General),
            Piece::new(Color::Black, Kind::General),
        ];
        for color in Color::ALL {
            for kind in NAME_ORDER {
                let count = usize::from(signature.side(color).count(kind));
                if count == 0 {
                    continue;
                }
                let piece = Piece::new(color, kind);
                let squares = reachable_squares(piece);
                let mut ordinal = [u8::MAX; 90];
                for (i, &s) in squares.iter().enumerate() {
                    ordinal[s as usize] = i as u8;
                }
                let base = BINOMIAL[squares.len()][count];
                groups.push(Group {
                    piece,
                    count,
                    squares,
                    ordinal,
                    stride: 0,
                    base,
                });
                slot_pieces.extend(std::iter::repeat_n(piece, count));
            }
        }
        if slot_pieces.len() > MAX_PIECES {
            return Err(IndexError::TooLarge(signature));
        }
        let mut stride = 1u64;
        for g in groups.iter_mut().rev() {
            g.stride = stride;
            stride = stride
                .checked_mul(g.base)
                .filter(|&s| s <= MAX_SIZE)
                .ok_or(IndexError::TooLarge(signature))?;
        }
        let kk_stride = stride;
        let size = stride
            .checked_mul(kp.pairs.len() as u64)
            .filter(|&s| s <= MAX_SIZE)
            .ok_or(IndexError::TooLarge(signature))?;
        let mut red_king_ord = [u8::MAX; 90];
        let mut black_king_ord = [u8::MAX; 90];
        for (i, &s) in kp.red.iter().enumerate() {
            red_king_ord[s as usize] = i as u8;
        }
        for (i, &s) in kp.black.iter().enumerate() {
            black_king_ord[s as usize] = i as u8;
        }
        let too_large = IndexError::TooLarge(signature);
        let (layout, size) = match scheme {
            2 | 4 => {
                let l =
                    PairDigit::new(&groups, &kp.red, &kp.black, scheme == 2).ok_or(too_large)?;
                let size = l.size;
                (Layout::PairDigit(l, scheme), size)
            }
            3 => {
                let l = KingMajor::new(&groups, &kp.red, &kp.black).ok_or(too_large)?;
                let size = l.size;
                (Layout::KingMajor(l), size)
            }
            _ => (Layout::Plain, size),
        };
        Ok(Indexer {
            signature,
            groups,
            slot_pieces,
            kk_stride,
            size,
            red_kings: kp.red,
            black_kings: kp.black,
            kk_pairs: kp.pairs,
            kk_index: kp.index,
            red_king_ord,
            black_king_ord,
            layout,
        })
    }

    /// The key scheme of this indexer: 1 to 4.
    #[must_use]
    pub fn scheme(&self) -> u8 {
        match &self.layout {
            Layout::Plain => 1,
            Layout::PairDigit(_, scheme) => *scheme,
            Layout::KingMajor(_) => 3,
        }
    }

    /// The table's signature.
    #[must_use]
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// The number of entries in each half (one half per side to move).
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The piece in each slot of a [`Placement`], in the table's frame.
    #[must_use]
    pub fn slot_pieces(&self) -> &[Piece] {
        &self.slot_pieces
    }

    /// The index of a placement in the table's frame (the mirror is applied here), or `None`
    /// when a piece stands on a square its group cannot reach.
    #[inline]
    #[must_use]
    pub fn encode(&self, p: &Placement) -> Option<u64> {
        match &self.layout {
            Layout::Plain => {}
            Layout::PairDigit(l, _) => return l.encode(&self.groups, p.slots()),
            Layout::KingMajor(l) => return l.encode(&self.groups, p.slots()),
        }
        let s = p.slots();
        let mirror = needs_mirror(s[0], s[1]);
        let m = |sq: u8| if mirror { mirror_sq(sq) } else { sq };
        let rk = self.red_king_ord[m(s[0]) as usize];
        let bk = self.black_king_ord[m(s[1]) as usize];
        if rk == u8::MAX || bk == u8::MAX {
            return None;
        }
        let kk = self.kk_index[rk as usize][bk as usize];
        debug_assert!(kk >= 0);
        let mut idx = kk as u64 * self.kk_stride;
        let mut slot = 2;
        for g in &self.groups {
            let digit = if g.count == 1 {
                let o = g.ordinal[m(s[slot]) as usize];
                if o == u8::MAX {
                    return None;
                }
                u64::from(o)
            } else {
                let mut ords = [0u8; 5];
                for (i, o) in ords[..g.count].iter_mut().enumerate() {
                    *o = g.ordinal[m(s[slot + i]) as usize];
                    if *o == u8::MAX {
                        return None;
                    }
                }
                ords[..g.count].sort_unstable();
                ords[..g.count]
                    .iter()
                    .enumerate()
                    .map(|(i, &o)| BINOMIAL[o as usize][i + 1])
                    .sum()
            };
            idx += digit * g.stride;
            slot += g.count;
        }
        Some(idx)
    }

    /// The part of `p`'s index its generals, advisors and elephants decide, or `None` when the
    /// key scheme is 1 or they have no index. With it, [`Indexer::encode_pieces`] encodes
    /// any placement with the same generals, advisors and elephants as `p` (the others moved)
    /// as [`Indexer::encode`] does, reading only the moved pieces' squares. Unlike
    /// [`Indexer::piece_step`], `p` need not be canonical nor its index known: the placements
    /// are encoded afresh (the mirror applied), with only the defenders' part shared.
    #[must_use]
    pub fn defence_key(&self, p: &Placement) -> Option<DefenceKey> {
        let key = match &self.layout {
            Layout::Plain => return None,
            Layout::PairDigit(l, _) => KeyOf::Pair(l.defences(&self.groups, p.slots())?),
            Layout::KingMajor(l) => KeyOf::KingMajor(l.defences(&self.groups, p.slots())?),
        };
        Some(DefenceKey(key))
    }

    /// [`Indexer::encode`] of `q`, whose generals, advisors and elephants stand where those of
    /// the placement `key` was made from do ([`Indexer::defence_key`]).
    #[inline]
    #[must_use]
    pub fn encode_pieces(&self, key: &DefenceKey, q: &Placement) -> Option<u64> {
        let idx = match (&self.layout, &key.0) {
            (Layout::PairDigit(l, _), KeyOf::Pair(k)) => {
                l.encode_pieces(&self.groups, k, q.slots())
            }
            (Layout::KingMajor(l), KeyOf::KingMajor(d)) => l
                .piece_digit(&self.groups, q.slots(), d.mirror)
                .map(|piece| d.index(piece)),
            // A key of another indexer's layout.
            _ => self.encode(q),
        };
        debug_assert_eq!(idx, self.encode(q), "q keeps the key's defenders");
        idx
    }

    /// For the canonical placement `p` stored at `idx` (as [`Indexer::decode`] gives), the
    /// step that computes the indices of `p` with the piece in `slot` moved elsewhere, or `None`
    /// when that needs a full [`Indexer::encode`]: the piece is a general, advisor or elephant,
    /// or the key scheme is not 3. The moved placements are canonical too (the mirror depends
    /// on the generals and the weak side's defence only).
    #[must_use]
    pub fn piece_step(&self, idx: u64, p: &Placement, slot: usize) -> Option<PieceStep<'_>> {
        let Layout::KingMajor(l) = &self.layout else {
            return None;
        };
        let gi = l.group_slot.iter().rposition(|&first| first <= slot)?;
        let g = &self.groups[gi];
        let first = l.group_slot[gi];
        if slot >= first + g.count {
            return None;
        }
        let weight = l.piece_weight(&self.groups, gi, p.slots())?;
        let digit = groups::group_digit(g, &p.squares[first..first + g.count], |q| q)?;
        debug_assert_eq!(
            self.encode(p),
            Some(idx),
            "p is canonical and stored at idx"
        );
        Some(PieceStep {
            group: g,
            first,
            slot,
            base: idx - digit * weight,
            weight,
        })
    }

    /// For the canonical placement `p` stored at `idx`, the step that computes the indices of
    /// `p` with the advisor or elephant in `slot` moved elsewhere, or `None` when that needs a
    /// full [`Indexer::encode`]: the piece is not an advisor or elephant, the key scheme is not
    /// 3, or the move might change the mirror (a weak-side defender with both generals on the
    /// e-file). The moved placements are canonical too.
    #[must_use]
    pub fn defence_step(&self, idx: u64, p: &Placement, slot: usize) -> Option<DefenceStep<'_>> {
        let Layout::KingMajor(l) = &self.layout else {
            return None;
        };
        let piece = *self.slot_pieces.get(slot)?;
        if !matches!(piece.kind(), Kind::Advisor | Kind::Elephant) {
            return None;
        }
        let side = piece.color().index();
        let (weight, digit) = l.defence_weight(&self.groups, side, p.slots())?;
        debug_assert_eq!(
            self.encode(p),
            Some(idx),
            "p is canonical and stored at idx"
        );
        Some(DefenceStep {
            layout: l,
            groups: &self.groups,
            side,
            base: idx - digit * weight,
            weight,
        })
    }

    /// The placement of an index (`idx < size`), in the table's frame. Pieces may share a square
    /// (see [`Placement::has_overlap`]); the position may be illegal.
    ///
    /// # Panics
    /// In debug builds, when `idx >= size`.
    #[must_use]
    pub fn decode(&self, idx: u64) -> Placement {
        debug_assert!(idx < self.size);
        let mut p = Placement {
            squares: [0; MAX_PIECES],
            len: self.slot_pieces.len() as u8,
        };
        match &self.layout {
            Layout::Plain => {}
            Layout::PairDigit(l, _) => {
                l.decode(&self.groups, idx, &mut p.squares);
                return p;
            }
            Layout::KingMajor(l) => {
                l.decode(&self.groups, idx, &mut p.squares);
                return p;
            }
        }
        let (r, b) = self.kk_pairs[(idx / self.kk_stride) as usize];
        p.squares[0] = r;
        p.squares[1] = b;
        let mut rem = idx - (idx / self.kk_stride) * self.kk_stride;
        let mut slot = 2;
        for g in &self.groups {
            let mut digit = rem / g.stride;
            rem -= digit * g.stride;
            if g.count == 1 {
                p.squares[slot] = g.squares[digit as usize];
                slot += 1;
                continue;
            }
            // Colex unranking: the largest ordinal first.
            for i in (0..g.count).rev() {
                let mut o = i;
                while BINOMIAL[o + 1][i + 1] <= digit {
                    o += 1;
                }
                digit -= BINOMIAL[o][i + 1];
                p.squares[slot + i] = g.squares[o];
            }
            slot += g.count;
        }
        p
    }

    /// A cursor at index `idx` (below the size), holding [`Indexer::decode`]'s placement, for
    /// visiting consecutive indices with [`Indexer::advance`].
    #[must_use]
    pub fn cursor(&self, idx: u64) -> Cursor {
        let mut placement = Placement {
            squares: [0; MAX_PIECES],
            len: self.slot_pieces.len() as u8,
        };
        let digits = match &self.layout {
            Layout::KingMajor(l) => Some(l.decode_at(&self.groups, idx, &mut placement.squares)),
            _ => {
                placement = self.decode(idx);
                None
            }
        };
        Cursor {
            idx,
            placement,
            digits,
        }
    }

    /// Moves `c` to the next index, which must be below the size: in key scheme 3 only the
    /// digits that change are decoded again (mostly the weak side's defence), in the others the
    /// whole index.
    pub fn advance(&self, c: &mut Cursor) {
        c.idx += 1;
        match (&self.layout, &mut c.digits) {
            (Layout::KingMajor(l), Some(d)) => l.step(&self.groups, d, &mut c.placement.squares),
            _ => c.placement = self.decode(c.idx),
        }
    }

    /// The placement of a position in the table's frame, with the side to move in that frame.
    ///
    /// # Errors
    /// [`IndexError::WrongMaterial`] when the position does not belong to this table,
    /// [`IndexError::Unreachable`] when a piece stands where the table has no entry for it.
    pub fn placement(&self, pos: &Position) -> Result<(Color, Placement), IndexError> {
        let red = Material::of(pos, Color::Red);
        let black = Material::of(pos, Color::Black);
        let flip = if red == self.signature.strong && black == self.signature.weak {
            false
        } else if red == self.signature.weak && black == self.signature.strong {
            true
        } else {
            return Err(IndexError::WrongMaterial {
                red,
                black,
                table: self.signature,
            });
        };
        let real = |c: Color| if flip { c.opponent() } else { c };
        let frame = |sq: Square| if flip { sq.flip() } else { sq };
        let mut p = Placement {
            squares: [0; MAX_PIECES],
            len: self.slot_pieces.len() as u8,
        };
        p.squares[0] = frame(pos.king(real(Color::Red))).index() as u8;
        p.squares[1] = frame(pos.king(real(Color::Black))).index() as u8;
        let mut slot = 2;
        for g in &self.groups {
            let real_piece = Piece::new(real(g.piece.color()), g.piece.kind());
            for sq in pos.pieces(real_piece) {
                let s = frame(sq);
                if g.ordinal[s.index()] == u8::MAX {
                    return Err(IndexError::Unreachable {
                        piece: real_piece.fen_char(),
                        square: sq,
                    });
                }
                p.squares[slot] = s.index() as u8;
                slot += 1;
            }
        }
        Ok((real(pos.turn()), p))
    }

    /// The side to move in the table's frame (half 0 = Red = strong side) and the index.
    ///
    /// # Errors
    /// As [`Indexer::placement`].
    pub fn index_of(&self, pos: &Position) -> Result<(Color, u64), IndexError> {
        let (turn, p) = self.placement(pos)?;
        // Every square was checked against its group, and generals are always in their palace.
        let idx = self.encode(&p).ok_or(IndexError::Unreachable {
            piece: 'K',
            square: pos.king(Color::Red),
        })?;
        Ok((turn, idx))
    }

    /// The board of a placement in the table's frame, with `turn` to move.
    #[must_use]
    pub fn setup(&self, p: &Placement, turn: Color) -> Setup {
        let mut setup = Setup::empty();
        for (&sq, &piece) in p.slots().iter().zip(&self.slot_pieces) {
            setup.board[sq as usize] = Some(piece);
        }
        setup.turn = turn;
        setup
    }

    /// The position of a placement in the table's frame, with `turn` to move, checked against
    /// the rules except for `waivers` (as [`Position::from_setup`] of [`Indexer::setup`], without
    /// building a board first: the generator builds one position per entry).
    ///
    /// # Errors
    /// The rule the position breaks; [`chariot_rules::PositionError::SharedSquare`] when two pieces
    /// share a square.
    ///
    /// # Panics
    /// When a slot holds no square index (90 or more).
    pub fn position(
        &self,
        p: &Placement,
        turn: Color,
        waivers: chariot_rules::Waivers,
    ) -> Result<Position, chariot_rules::PositionError> {
        let pieces = p
            .slots()
            .iter()
            .zip(&self.slot_pieces)
            .map(|(&sq, &piece)| {
                (
                    piece,
                    Square::from_index(usize::from(sq)).unwrap_or_else(|| unreachable!("a square")),
                )
            });
        Position::from_pieces(pieces, turn, waivers)
    }

    /// The general squares of the strong (Red) side in the table's frame.
    #[must_use]
    pub fn red_king_squares(&self) -> &[u8] {
        &self.red_kings
    }

    /// The general squares of the weak (Black) side in the table's frame.
    #[must_use]
    pub fn black_king_squares(&self) -> &[u8] {
        &self.black_kings
    }

    /// `true` when [`Indexer::encode`] keeps `p` as it is rather than taking its mirror image
    /// (so a decoded placement is canonical, and a placement that is not canonical is stored as
    /// its image).
    #[must_use]
    pub fn is_canonical(&self, p: &Placement) -> bool {
        let s = p.slots();
        match self.weak_defence() {
            Some((weak, slots)) => defence::mirrors(weak, &self.groups, slots, s) != Some(true),
            None => !needs_mirror(s[0], s[1]),
        }
    }

    /// `true` when the index of the canonical placement `p` also stands for its left-right
    /// mirror image, which then has no index of its own: always, unless both generals stand on
    /// the e-file and (key schemes 2 and 3) the weak side's advisors and elephants are their own
    /// mirror image too, or (key scheme 1) in any case.
    #[must_use]
    pub fn covers_mirror(&self, p: &Placement) -> bool {
        let s = p.slots();
        if !Self::is_symmetric_kings(s[0], s[1]) {
            return true;
        }
        let Some((weak, slots)) = self.weak_defence() else {
            return false;
        };
        // The weak defence decides (see `defence::mirrors`): an image of its own only when it
        // is symmetric.
        !weak.is_symmetric(&self.groups, slots, s)
    }

    /// Key schemes 2 and 3: the weak side's defence, which decides the mirror with both
    /// generals on the e-file, and the groups' first slots.
    fn weak_defence(&self) -> Option<(&defence::Defence, &[usize])> {
        match &self.layout {
            Layout::Plain => None,
            Layout::PairDigit(l, _) => Some((&l.sides[1], &l.group_slot)),
            Layout::KingMajor(l) => Some((&l.sides[1], &l.group_slot)),
        }
    }

    /// `true` when the mirror maps this pair of general squares to itself (both on the e-file).
    #[inline]
    #[must_use]
    pub fn is_symmetric_kings(red_king: u8, black_king: u8) -> bool {
        red_king % 9 == 4 && black_king % 9 == 4
    }
}

/// The square reflected left to right, on square indices.
#[inline]
#[must_use]
pub fn mirror_square(sq: u8) -> u8 {
    mirror_sq(sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Waivers;

    fn indexer(s: &str) -> Indexer {
        Indexer::new(s.parse().unwrap()).unwrap()
    }

    /// The position built from a placement's pieces is the one built from its board (`verify`
    /// and the generator build them the first way), or both are refused for the same reason.
    #[test]
    fn a_position_from_the_placement_is_the_one_from_its_board() {
        let waivers = Waivers {
            placement: true,
            counts: true,
            opposite_check: false,
        };
        for name in ["KNPKAABB", "KRKAB", "KCABKR", "KPPKA"] {
            let ix = indexer(name);
            let step = (ix.size() / 5_000) | 1;
            for idx in (0..ix.size()).step_by(step as usize) {
                let p = ix.decode(idx);
                if p.has_overlap() {
                    continue;
                }
                for turn in Color::ALL {
                    let direct = ix.position(&p, turn, waivers);
                    let board = Position::from_setup(&ix.setup(&p, turn), waivers);
                    match (direct, board) {
                        (Ok(a), Ok(b)) => {
                            assert_eq!((a.fen(), a.key()), (b.fen(), b.key()), "{name} {idx}");
                        }
                        (a, b) => assert_eq!(a.err(), b.err(), "{name} {idx}"),
                    }
                }
            }
        }
    }

    /// A cursor stepping through consecutive indices holds what a full decode gives, across
    /// every digit's carry and every general pair's block, in every key scheme.
    #[test]
    fn a_cursor_steps_as_decode_does() {
        for name in ["KNPKAABB", "KRKAB", "KPPKA", "KCABKR", "KAABBKAB"] {
            for scheme in 1..=4 {
                let ix = Indexer::with_scheme(name.parse().unwrap(), scheme).unwrap();
                // Whole tables where small, else runs spread over the table.
                let runs: Vec<(u64, u64)> = if ix.size() <= 300_000 {
                    vec![(0, ix.size())]
                } else {
                    (0..8).map(|k| (k * ix.size() / 8, 40_000)).collect()
                };
                for (start, len) in runs {
                    let mut c = ix.cursor(start);
                    for idx in start..(start + len).min(ix.size()) {
                        if idx > start {
                            ix.advance(&mut c);
                        }
                        assert_eq!(c.index(), idx);
                        assert_eq!(
                            *c.placement(),
                            ix.decode(idx),
                            "{name} scheme {scheme} {idx}"
                        );
                    }
                }
            }
        }
    }

    fn scheme1(s: &str) -> Indexer {
        Indexer::with_scheme(s.parse().unwrap(), 1).unwrap()
    }

    fn scheme4(s: &str) -> Indexer {
        Indexer::with_scheme(s.parse().unwrap(), 4).unwrap()
    }

    fn scheme2(s: &str) -> Indexer {
        Indexer::with_scheme(s.parse().unwrap(), 2).unwrap()
    }

    #[test]
    fn scheme_1_sizes_count_reachable_squares_once_per_like_group() {
        assert_eq!(scheme1("KRK").size(), 45 * 90);
        assert_eq!(scheme1("KPK").size(), 45 * 55);
        assert_eq!(scheme1("KRKAABB").size(), 45 * 90 * 10 * 21);
        assert_eq!(scheme1("KAK").size(), 45 * 5);
        assert_eq!(scheme1("KRRKA").size(), 45 * 4005 * 5);
        assert!(Indexer::with_scheme("KRK".parse().unwrap(), 5).is_err());
        assert!(Indexer::with_scheme("KRK".parse().unwrap(), 0).is_err());
    }

    #[test]
    fn scheme_2_and_3_sizes_leave_out_shared_squares_of_defenders() {
        // Strong general and advisor: 13 placements with the general on the d-file pair with
        // all 9 weak generals, 14 on the e-file with the 6 on the d- or e-file.
        assert_eq!(scheme2("KAK").size(), 13 * 9 + 14 * 6);
        assert_eq!(scheme2("KRK").size(), 45 * 88);
        assert_eq!(scheme2("KPK").size(), 45 * 55);
        // Weak general and advisor: 40 placements; 13 with the general on the d-file, 14 on
        // the e-file of which 2 are their own mirror image (advisor on e8) and the other 12
        // pair up: 13 + 2 + 6 = 21 go with an e-file strong general.
        assert_eq!(scheme2("KRRKA").size(), (3 * 40 + 3 * 21) * (87 * 86 / 2));
        // A side's general, two advisors, two elephants: 9 * 10 * 21 = 1,890 digits, 1,410 of
        // them without a shared square (the general on an advisor's square in 5 * 4 * 21 of
        // them, on the elephants' middle square in 10 * 6); 462 with the general on the d-file,
        // 486 on the e-file, of which 18 are their own mirror image.
        let weak = 9 * 10 * 21 - 5 * 4 * 21 - 10 * 6;
        let weak_left = 462 + 18 + (486 - 18) / 2;
        assert_eq!((weak, weak_left), (1_410, 714));
        assert_eq!(scheme2("KRKAABB").size(), (3 * weak + 3 * weak_left) * 84);
        assert_eq!(scheme1("KRKAABB").size(), 850_500);
        assert_eq!(scheme2("KRKAABB").size(), 535_248);
        // Key scheme 3: the same pairs, chariots, horses and cannons over all 90 squares.
        assert_eq!(indexer("KAK").size(), 13 * 9 + 14 * 6);
        assert_eq!(indexer("KRK").size(), 45 * 90);
        assert_eq!(indexer("KPK").size(), 45 * 55);
        assert_eq!(indexer("KRRKA").size(), (3 * 40 + 3 * 21) * (90 * 89 / 2));
        assert_eq!(indexer("KRKAABB").size(), (3 * weak + 3 * weak_left) * 90);
        // xiangqitb's index has 578,340 entries per side to move here.
        assert_eq!(indexer("KRKAABB").size(), 573_480);
        assert_eq!(
            [
                scheme1("KRK").scheme(),
                scheme2("KRK").scheme(),
                indexer("KRK").scheme()
            ],
            [1, 2, 3]
        );
    }

    #[test]
    fn decode_then_encode_is_identity() {
        for name in [
            "KRK", "KRKAABB", "KPPKA", "KNCKB", "KAABBKAB", "KRNKRAB", "KRRKCC",
        ] {
            for ix in [indexer(name), scheme4(name), scheme2(name), scheme1(name)] {
                let step = (ix.size() / 5000).max(1);
                let mut i = 0;
                while i < ix.size() {
                    let p = ix.decode(i);
                    assert_eq!(ix.encode(&p), Some(i), "{name} index {i}");
                    i += step;
                }
            }
        }
    }

    /// Every legal position of small tables has exactly one index per mirror class in each
    /// scheme: all schemes hold the same positions.
    #[test]
    fn all_schemes_hold_the_same_legal_positions() {
        for name in ["KRKA", "KNKAB", "KPKB", "KCAKA"] {
            let count = |ix: &Indexer| {
                let mut legal = std::collections::HashSet::new();
                for i in 0..ix.size() {
                    let p = ix.decode(i);
                    if p.has_overlap() {
                        continue;
                    }
                    let setup = ix.setup(&p, Color::Red);
                    if let Ok(pos) = Position::from_setup(&setup, Waivers::NONE) {
                        assert_eq!(ix.index_of(&pos).unwrap(), (Color::Red, i), "{name}");
                        legal.insert(pos.key().min(pos.mirror().key()));
                    }
                }
                legal
            };
            let one = count(&scheme1(name));
            assert!(!one.is_empty());
            assert_eq!(count(&scheme2(name)), one, "{name}");
            assert_eq!(count(&indexer(name)), one, "{name}");
            assert_eq!(count(&scheme4(name)), one, "{name}");
            assert_eq!(scheme4(name).size(), indexer(name).size(), "{name}");
        }
    }

    #[test]
    fn positions_and_mirrors_and_colour_flips_share_an_index() {
        let ix = indexer("KRKAB");
        let fen = "3a1k3/9/4b4/9/9/9/9/9/9/3K2R2 w - - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        let a = ix.index_of(&pos).unwrap();
        assert_eq!(ix.index_of(&pos.mirror()).unwrap(), a);
        // The same position with colours swapped and the board turned: Black is strong.
        let mut setup = Setup::empty();
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                setup.board[sq.flip().index()] = Some(Piece::new(p.color().opponent(), p.kind()));
            }
        }
        setup.turn = Color::Black;
        let flipped = Position::from_setup(&setup, Waivers::NONE).unwrap();
        assert_eq!(ix.index_of(&flipped).unwrap(), a);
        let (turn, idx) = a;
        let back = ix.setup(&ix.decode(idx), turn);
        let back = Position::from_setup(&back, Waivers::NONE).unwrap();
        assert_eq!(ix.index_of(&back).unwrap(), a);
    }

    /// A placement's defence key encodes every placement with its chariots, horses, cannons or
    /// soldiers moved as a full encode does: canonical placements and their mirror images,
    /// every square (reachable, or not), pieces on top of others too.
    #[test]
    fn a_defence_key_encodes_moved_pieces_as_encode_does() {
        for (name, ix) in [
            "KRKAABB", "KRAKRB", "KNPKAABB", "KCABKPA", "KRRKCC", "KPPKA",
        ]
        .into_iter()
        .flat_map(|n| [(n, indexer(n)), (n, scheme2(n)), (n, scheme4(n))])
        {
            let pieces: Vec<usize> = (0..ix.slot_pieces().len())
                .filter(|&s| {
                    !matches!(
                        ix.slot_pieces()[s].kind(),
                        Kind::General | Kind::Advisor | Kind::Elephant
                    )
                })
                .collect();
            let step = (ix.size() / 300) | 1;
            let mut compared = 0;
            for idx in (0..ix.size()).step_by(step as usize) {
                let canonical = ix.decode(idx);
                let mut mirrored = canonical;
                for sq in &mut mirrored.squares[..usize::from(mirrored.len)] {
                    *sq = mirror_square(*sq);
                }
                for p in [canonical, mirrored] {
                    let Some(key) = ix.defence_key(&p) else {
                        continue;
                    };
                    for &slot in &pieces {
                        for sq in 0..90 {
                            let mut q = p;
                            q.squares[slot] = sq;
                            assert_eq!(
                                ix.encode_pieces(&key, &q),
                                ix.encode(&q),
                                "{name} {idx} slot {slot} to {sq}"
                            );
                            compared += 1;
                        }
                    }
                }
            }
            assert!(compared > 10_000, "{name}: {compared}");
        }
        // Key scheme 1 has no defence key.
        assert!(
            scheme1("KRKAABB")
                .defence_key(&scheme1("KRKAABB").decode(0))
                .is_none()
        );
    }

    #[test]
    fn wrong_material_is_an_error() {
        let ix = indexer("KRK");
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1C3 w").unwrap();
        assert!(matches!(
            ix.index_of(&pos),
            Err(IndexError::WrongMaterial { .. })
        ));
    }
}
