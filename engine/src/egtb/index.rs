//! The position <-> index mapping of a table, shared by the generator and the prober.
//!
//! # Frame
//! A table is stored in its own frame: the stronger side (the first in the name) is Red. A
//! position whose Black side holds the stronger material is turned into that frame by swapping
//! the colours and flipping the board top to bottom (rank r -> 9 - r), which the rules of
//! Xiangqi do not notice. Symmetric material (`KRKR`) is never flipped.
//!
//! # Layout (key scheme 2, [`KEY_SCHEME`])
//! Every table has two halves of [`Indexer::size`] entries, Red (strong side) to move first.
//! Within a half the index is a mixed-radix number (`docs/formats/egtb.md` has every detail):
//!
//! 1. each side's defence (its general, advisors and elephants) is one number over the
//!    placements in which none of them share a square, and the two defences one *pair* digit
//!    over the pairs the left-right mirror keeps (the strong general on files d or e, and when
//!    it stands on the e-file, the weak general on files d or e too);
//! 2. chariots, horses and cannons, strong side first, each group over the squares the
//!    generals, defenders and earlier groups leave free (like pieces one digit `C(free, k)`);
//! 3. soldiers over their 55 reachable squares (they may share a square: an unused index).
//!
//! The pair digit is the least significant, the free groups the most: neighbouring entries then
//! differ in the defenders, where values change least, so blocks compress well.
//!
//! Indices whose soldiers share a square, whose generals face each other, or whose side not to
//! move is in check are unused (the generator marks them, the file stores a don't-care value).
//! When both generals stand on the e-file the weak side's advisors and elephants decide the
//! mirror; only when they are symmetric too do a position and its mirror image both have an
//! index ([`Indexer::covers_mirror`]).
//!
//! Key scheme 1, the first tables' layout, is still read ([`Indexer::with_scheme`]): the 45
//! general pairs, then one digit per group of like pieces in name order over its reachable
//! squares, pieces sharing squares included.

use super::signature::{Material, NAME_ORDER, Signature};
use crate::rules::{Color, Kind, Piece, Position, Setup, Square};

/// The most pieces (generals included) a table may hold.
pub const MAX_PIECES: usize = 32;

/// The largest half a table may have (2^40 entries).
const MAX_SIZE: u64 = 1 << 40;

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
    #[error("unknown key scheme {0} (this program reads 1 and 2)")]
    UnknownScheme(u8),
}

/// The key scheme new tables are written in (see the module notes).
pub const KEY_SCHEME: u8 = 2;

/// Binomial coefficients C(n, k) for n <= 90, k <= 5.
const BINOMIAL: [[u64; 6]; 91] = {
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
struct Group {
    piece: Piece,
    count: usize,
    /// The squares the piece can reach, by ordinal.
    squares: Vec<u8>,
    /// Square index -> ordinal, or `u8::MAX` when unreachable.
    ordinal: [u8; 90],
    /// The digit's weight.
    stride: u64,
    /// The digit's base, C(squares, count).
    base: u64,
}

/// The squares a piece of the table's frame may ever stand on.
fn reachable_squares(piece: Piece) -> Vec<u8> {
    Square::all()
        .filter(|&sq| match piece.kind() {
            Kind::General => sq.in_palace(piece.color()),
            _ => crate::rules::position::reachable(piece, sq),
        })
        .map(|sq| sq.index() as u8)
        .collect()
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

/// `true` when a position with the generals on these squares is stored as its mirror image.
#[inline]
fn needs_mirror(red_king: u8, black_king: u8) -> bool {
    let (fr, fb) = (red_king % 9, black_king % 9);
    fr > 4 || (fr == 4 && fb > 4)
}

#[inline]
fn mirror_sq(sq: u8) -> u8 {
    sq - sq % 9 + (8 - sq % 9)
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
    /// Key scheme 2's layout; `None` for key scheme 1.
    compact: Option<Compact>,
}

impl Indexer {
    /// The indexer of a table in the current key scheme ([`KEY_SCHEME`]).
    ///
    /// # Errors
    /// [`IndexError::TooLarge`] when a half would exceed 2^40 entries or 32 pieces.
    pub fn new(signature: Signature) -> Result<Indexer, IndexError> {
        Indexer::with_scheme(signature, KEY_SCHEME)
    }

    /// The indexer of a table in key scheme `scheme` (1 or 2, see the module notes), for
    /// reading files written in an earlier scheme.
    ///
    /// # Errors
    /// [`IndexError::TooLarge`] when a half would exceed 2^40 entries or 32 pieces,
    /// [`IndexError::UnknownScheme`] for a scheme other than 1 and 2.
    pub fn with_scheme(signature: Signature, scheme: u8) -> Result<Indexer, IndexError> {
        if !(1..=KEY_SCHEME).contains(&scheme) {
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
        let compact = if scheme == 2 {
            Some(Compact::new(signature, &groups, &kp.red, &kp.black)?)
        } else {
            None
        };
        let size = compact.as_ref().map_or(size, |c| c.size);
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
            compact,
        })
    }

    /// The key scheme of this indexer: 1 or 2.
    #[must_use]
    pub fn scheme(&self) -> u8 {
        if self.compact.is_some() { 2 } else { 1 }
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
        if let Some(c) = &self.compact {
            return c.encode(&self.groups, p);
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
        if let Some(c) = &self.compact {
            c.decode(&self.groups, idx, &mut p);
            return p;
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
        match &self.compact {
            Some(c) => c.mirrors(&self.groups, s) != Some(true),
            None => !needs_mirror(s[0], s[1]),
        }
    }

    /// `true` when the index of the canonical placement `p` also stands for its left-right
    /// mirror image, which then has no index of its own: always, unless both generals stand on
    /// the e-file and (key scheme 2) the weak side's advisors and elephants are their own mirror
    /// image too, or (key scheme 1) in any case.
    #[must_use]
    pub fn covers_mirror(&self, p: &Placement) -> bool {
        let s = p.slots();
        if !Self::is_symmetric_kings(s[0], s[1]) {
            return true;
        }
        let Some(c) = &self.compact else {
            return false;
        };
        // The weak defence decides (see `Compact::encode`): an image of its own only when it
        // is symmetric.
        !c.sides[1].groups.iter().all(|&gi| {
            let at = c.group_slot[gi];
            let squares = &s[at..at + self.groups[gi].count];
            squares.iter().all(|&sq| squares.contains(&mirror_sq(sq)))
        })
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

/// Key scheme 2: each side's defenders (general, advisors, elephants) as one digit over their
/// placements without shared squares, the two sides' digits as one pair digit over the pairs the
/// mirror keeps, then the chariots, horses and cannons over the squares still free, and the
/// soldiers over their 55 squares.
#[derive(Clone, Debug)]
struct Compact {
    /// The defender placements of each side (strong, weak), in digit order.
    sides: [Defence; 2],
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
    /// Soldier groups with their digit's weight.
    soldier_groups: Vec<(usize, u64)>,
    /// The first slot of each group.
    group_slot: Vec<usize>,
    size: u64,
}

/// One side's defender placements.
#[derive(Clone, Debug)]
struct Defence {
    /// Groups (indices into the indexer's groups) of the side's advisors and elephants.
    groups: Vec<usize>,
    /// Per placement: the general's square, then the defenders' squares by group.
    placements: Vec<[u8; 5]>,
    /// `(general ordinal, advisor digit, elephant digit)` flattened -> placement, or `u16::MAX`.
    ordinal: Vec<u16>,
    /// Digit bases of the advisor and elephant groups (1 when absent).
    bases: [u64; 2],
    /// Square -> the general's palace ordinal, or `u8::MAX`.
    king_ord: [u8; 90],
    /// Per placement: its class (the first key of the digit order, see [`Defence::new`]).
    class: Vec<u8>,
}

/// The colex digit of `k` sorted ordinals.
#[inline]
fn colex(ords: &[u8]) -> u64 {
    ords.iter()
        .enumerate()
        .map(|(i, &o)| BINOMIAL[o as usize][i + 1])
        .sum()
}

/// The colex digit of a group's pieces on `squares` (each mapped by `m`), or `None` when one
/// stands where the group cannot.
#[inline]
fn group_digit(g: &Group, squares: &[u8], m: impl Fn(u8) -> u8 + Copy) -> Option<u64> {
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
fn uncolex(mut digit: u64, out: &mut [u8]) {
    for i in (0..out.len()).rev() {
        let mut o = i;
        while BINOMIAL[o + 1][i + 1] <= digit {
            o += 1;
        }
        digit -= BINOMIAL[o][i + 1];
        out[i] = o as u8;
    }
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

impl Defence {
    /// The placements of one side: `kings` its general's squares, `strong` whether the mirror
    /// keeps only the d- and e-files for it.
    fn new(groups: &[Group], color: Color, kings: &[u8], strong: bool) -> Defence {
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
        Defence {
            groups: side,
            placements: found.iter().map(|f| f.2).collect(),
            ordinal,
            bases,
            king_ord,
            class: found.iter().map(|f| f.0).collect(),
        }
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

impl Compact {
    fn new(
        signature: Signature,
        groups: &[Group],
        red_kings: &[u8],
        black_kings: &[u8],
    ) -> Result<Compact, IndexError> {
        let too_large = || IndexError::TooLarge(signature);
        let strong = Defence::new(groups, Color::Red, red_kings, true);
        let weak = Defence::new(groups, Color::Black, black_kings, false);
        let strong_d = strong.placements.iter().filter(|p| p[0] % 9 == 3).count() as u64;
        let strong_e = strong.placements.len() as u64 - strong_d;
        let weak_all = weak.placements.len() as u64;
        let weak_left = weak.class.iter().filter(|&&c| c <= 1).count() as u64;
        let pairs = strong_d * weak_all + strong_e * weak_left;
        let mut group_slot = Vec::with_capacity(groups.len());
        let mut slot = 2;
        for g in groups {
            group_slot.push(slot);
            slot += g.count;
        }
        // Pieces placed before the free groups: both generals and every defender.
        let mut placed = 2 + groups
            .iter()
            .filter(|g| matches!(g.piece.kind(), Kind::Advisor | Kind::Elephant))
            .map(|g| g.count)
            .sum::<usize>();
        let mut free_groups = Vec::new();
        let mut soldier_groups = Vec::new();
        for (gi, g) in groups.iter().enumerate() {
            match g.piece.kind() {
                Kind::Chariot | Kind::Horse | Kind::Cannon => {
                    free_groups.push((gi, 0, 90 - placed));
                    placed += g.count;
                }
                Kind::Soldier => soldier_groups.push((gi, 0)),
                _ => {}
            }
        }
        // Weights: the pair least significant (neighbouring entries differ in the weak side's
        // elephants, advisors, general, then the strong side's: values change least there,
        // which is what keeps blocks compressible), then the soldiers, then the free groups.
        let mut stride = 1u64;
        let grow = |stride: &mut u64, base: u64| -> Result<u64, IndexError> {
            let w = *stride;
            *stride = stride
                .checked_mul(base)
                .filter(|&s| s <= MAX_SIZE)
                .ok_or_else(too_large)?;
            Ok(w)
        };
        let pair_stride = grow(&mut stride, pairs)?;
        for (gi, w) in soldier_groups.iter_mut().rev() {
            *w = grow(&mut stride, groups[*gi].base)?;
        }
        for (gi, w, free) in free_groups.iter_mut().rev() {
            *w = grow(&mut stride, BINOMIAL[*free][groups[*gi].count])?;
        }
        Ok(Compact {
            sides: [strong, weak],
            strong_d,
            weak_left,
            pair_stride,
            pairs,
            free_groups,
            soldier_groups,
            group_slot,
            size: stride,
        })
    }

    /// The ordinal of one side's defender placement, its squares mapped by `m` (the mirror or
    /// not).
    fn defence(
        &self,
        groups: &[Group],
        side: usize,
        m: impl Fn(u8) -> u8 + Copy,
        s: &[u8],
    ) -> Option<u64> {
        let d = &self.sides[side];
        let king_ord = d.king_ord[m(s[side]) as usize];
        if king_ord == u8::MAX {
            return None;
        }
        let mut digit = [0u64; 2];
        for &gi in &d.groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            digit[usize::from(g.piece.kind() == Kind::Elephant)] =
                group_digit(g, &s[at..at + g.count], m)?;
        }
        let flat = (u64::from(king_ord) * d.bases[0] + digit[0]) * d.bases[1] + digit[1];
        let o = d.ordinal[flat as usize];
        (o != u16::MAX).then_some(u64::from(o))
    }

    /// Whether [`Compact::encode`] stores `s` as its mirror image: by the generals, and with
    /// both on the e-file by the weak defence's class. `None` for a weak defence that has no
    /// placement.
    fn mirrors(&self, groups: &[Group], s: &[u8]) -> Option<bool> {
        if needs_mirror(s[0], s[1]) {
            return Some(true);
        }
        if s[0] % 9 != 4 || s[1] % 9 != 4 {
            return Some(false);
        }
        let weak = self.defence(groups, 1, |sq| sq, s)?;
        Some(self.sides[1].class[weak as usize] == 2)
    }

    fn encode(&self, groups: &[Group], p: &Placement) -> Option<u64> {
        let s = p.slots();
        let mirror = self.mirrors(groups, s)?;
        let m = |sq: u8| if mirror { mirror_sq(sq) } else { sq };
        let strong = self.defence(groups, 0, m, s)?;
        let weak = self.defence(groups, 1, m, s)?;
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
        let mut idx = pair * self.pair_stride;
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
        for &(gi, weight) in &self.soldier_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            idx += group_digit(g, &s[at..at + g.count], m)? * weight;
        }
        Some(idx)
    }

    fn decode(&self, groups: &[Group], idx: u64, p: &mut Placement) {
        let pair = idx / self.pair_stride % self.pairs;
        let weak_all = self.sides[1].placements.len() as u64;
        let (strong, weak) = if pair < self.strong_d * weak_all {
            (pair / weak_all, pair % weak_all)
        } else {
            let r = pair - self.strong_d * weak_all;
            (self.strong_d + r / self.weak_left, r % self.weak_left)
        };
        let mut occupied = 0u128;
        for (side, ord) in [(0, strong), (1, weak)] {
            let d = &self.sides[side];
            let sq = &d.placements[ord as usize];
            p.squares[side] = sq[0];
            occupied |= 1 << sq[0];
            let mut n = 1;
            for &gi in &d.groups {
                let at = self.group_slot[gi];
                for i in 0..groups[gi].count {
                    p.squares[at + i] = sq[n];
                    occupied |= 1 << sq[n];
                    n += 1;
                }
            }
        }
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
                p.squares[at + j] = sq;
                mine |= 1 << sq;
            }
            occupied |= mine;
        }
        for &(gi, weight) in &self.soldier_groups {
            let g = &groups[gi];
            let at = self.group_slot[gi];
            let mut ords = [0u8; 5];
            uncolex(idx / weight % g.base, &mut ords[..g.count]);
            for (j, &o) in ords[..g.count].iter().enumerate() {
                p.squares[at + j] = g.squares[o as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Waivers;

    fn indexer(s: &str) -> Indexer {
        Indexer::new(s.parse().unwrap()).unwrap()
    }

    fn scheme1(s: &str) -> Indexer {
        Indexer::with_scheme(s.parse().unwrap(), 1).unwrap()
    }

    #[test]
    fn scheme_1_sizes_count_reachable_squares_once_per_like_group() {
        assert_eq!(scheme1("KRK").size(), 45 * 90);
        assert_eq!(scheme1("KPK").size(), 45 * 55);
        assert_eq!(scheme1("KRKAABB").size(), 45 * 90 * 10 * 21);
        assert_eq!(scheme1("KAK").size(), 45 * 5);
        assert_eq!(scheme1("KRRKA").size(), 45 * 4005 * 5);
        assert!(Indexer::with_scheme("KRK".parse().unwrap(), 3).is_err());
    }

    #[test]
    fn scheme_2_sizes_leave_out_shared_squares_of_defenders_and_pieces() {
        // Strong general and advisor: 13 placements with the general on the d-file pair with
        // all 9 weak generals, 14 on the e-file with the 6 on the d- or e-file.
        assert_eq!(indexer("KAK").size(), 13 * 9 + 14 * 6);
        assert_eq!(indexer("KRK").size(), 45 * 88);
        assert_eq!(indexer("KPK").size(), 45 * 55);
        // Weak general and advisor: 40 placements; 13 with the general on the d-file, 14 on
        // the e-file of which 2 are their own mirror image (advisor on e8) and the other 12
        // pair up: 13 + 2 + 6 = 21 go with an e-file strong general.
        assert_eq!(indexer("KRRKA").size(), (3 * 40 + 3 * 21) * (87 * 86 / 2));
        // A side's general, two advisors, two elephants: 9 * 10 * 21 = 1,890 digits, 1,410 of
        // them without a shared square (the general on an advisor's square in 5 * 4 * 21 of
        // them, on the elephants' middle square in 10 * 6); 462 with the general on the d-file,
        // 486 on the e-file, of which 18 are their own mirror image.
        let weak = 9 * 10 * 21 - 5 * 4 * 21 - 10 * 6;
        let weak_left = 462 + 18 + (486 - 18) / 2;
        assert_eq!((weak, weak_left), (1_410, 714));
        assert_eq!(indexer("KRKAABB").size(), (3 * weak + 3 * weak_left) * 84);
        assert_eq!(scheme1("KRKAABB").size(), 850_500);
        // xiangqitb's index has 578,340 entries per side to move here.
        assert_eq!(indexer("KRKAABB").size(), 535_248);
    }

    #[test]
    fn decode_then_encode_is_identity() {
        for name in [
            "KRK", "KRKAABB", "KPPKA", "KNCKB", "KAABBKAB", "KRNKRAB", "KRRKCC",
        ] {
            for ix in [indexer(name), scheme1(name)] {
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
    /// scheme: both schemes hold the same positions.
    #[test]
    fn both_schemes_hold_the_same_legal_positions() {
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
            let (two, one) = (count(&indexer(name)), count(&scheme1(name)));
            assert!(!two.is_empty());
            assert_eq!(two, one, "{name}");
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
