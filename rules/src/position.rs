//! A legal position: the board, piece sets, side to move, Zobrist key and the moves that led here.
//!
//! A [`Position`] is made from a [`Setup`] by [`Position::from_setup`], which checks it against the
//! rules and says exactly what is wrong. Moves are made and unmade in place; the key is updated
//! incrementally and the history of keys is kept for repetition judgement.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::{Color, Kind, Piece};
use super::setup::{FenError, Setup};
use super::square::{SQUARES, Square};
use super::zobrist;

/// Rule checks that [`Position::from_setup`] may skip on request (analysis and tablebase work).
///
/// The checks that move generation depends on (one general per side, in its palace; at most 16
/// pieces a side) are never waived.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Waivers {
    /// Allow advisors, elephants and soldiers on squares they can never reach in a game.
    pub placement: bool,
    /// Allow more pieces of a kind than a side starts with (e.g. three rooks).
    pub counts: bool,
    /// Allow the side not to move to be in check (including generals facing on an open file).
    pub opposite_check: bool,
}

impl Waivers {
    /// No waivers: the position must be one that can arise in a game.
    pub const NONE: Waivers = Waivers {
        placement: false,
        counts: false,
        opposite_check: false,
    };
    /// Every waiver.
    pub const ALL: Waivers = Waivers {
        placement: true,
        counts: true,
        opposite_check: true,
    };
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The FEN could not be read.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A side has no general.
    #[error("{0} has no general")]
    MissingGeneral(Color),
    /// A side has more than one general.
    #[error("{0} has {1} generals")]
    TooManyGenerals(Color, u32),
    /// A general stands outside its palace.
    #[error("the {color} general on {square} is outside its palace")]
    GeneralOutsidePalace {
        /// Its side.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor, elephant or soldier stands where it can never be in a game.
    #[error("the {piece_name} on {square} stands on a square it can never reach")]
    UnreachableSquare {
        /// The piece, as a word (e.g. "red elephant").
        piece_name: String,
        /// Where it stands.
        square: Square,
    },
    /// More pieces of one kind than a side starts with.
    #[error("{color} has {count} pieces '{letter}', at most {max} are possible")]
    TooManyOfKind {
        /// The side.
        color: Color,
        /// The FEN letter.
        letter: char,
        /// How many there are.
        count: u32,
        /// The limit.
        max: u32,
    },
    /// More than 16 pieces on one side.
    #[error("{0} has {1} pieces, at most 16 are possible")]
    TooManyPieces(Color, u32),
    /// The two generals face each other on an open file.
    #[error("the generals face each other on an open file")]
    GeneralsFacing,
    /// The side that just moved is in check: its general could be captured.
    #[error("{0} is not to move but is in check")]
    OppositeInCheck(Color),
    /// Two pieces were given the same square ([`Position::from_pieces`]).
    #[error("two pieces on {0}")]
    SharedSquare(Square),
}

/// What a move left behind, so that it can be unmade.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The move.
    pub mv: Move,
    /// The captured piece's byte, 0 if none.
    pub captured: u8,
    /// The key before the move.
    pub key: u64,
    /// The halfmove clock before the move.
    pub halfmoves: u32,
}

/// A position that can arise in a game (or one accepted with explicit [`Waivers`]).
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [u8; SQUARES],
    /// The squares of each piece, by raw piece byte ([`Piece::to_u8`]: 1..=7 Red, 9..=15
    /// Black; entries 0 and 8 stay empty), so that a board byte indexes it directly.
    pub(crate) pieces: [Bitboard; 16],
    pub(crate) occupied: [Bitboard; 2],
    pub(crate) kings: [Square; 2],
    /// Occupancy of each file: bit `r` of `files[f]` is set when the point at file `f`, rank
    /// `r` holds a piece. With [`Position::ranks`], it lets line pieces (chariots, cannons, the
    /// flying general) find their blockers by bit arithmetic instead of walking the board.
    pub(crate) files: [u16; 9],
    /// Occupancy of each rank: bit `f` of `ranks[r]` is set when file `f` on rank `r` is occupied.
    pub(crate) ranks: [u16; 10],
    pub(crate) turn: Color,
    key: u64,
    halfmoves: u32,
    fullmoves: u32,
    history: Vec<Undo>,
}

const ADVISOR_SQUARES: [&str; 5] = ["d0", "f0", "e1", "d2", "f2"];
const ELEPHANT_SQUARES: [&str; 7] = ["c0", "g0", "a2", "e2", "i2", "c4", "g4"];

/// `true` when a piece of this colour and kind can ever stand on `sq` in a game.
#[must_use]
pub fn reachable(piece: Piece, sq: Square) -> bool {
    let color = piece.color();
    // Work in Red's frame: Black's squares are Red's flipped top to bottom.
    let own = if color.is_red() { sq } else { sq.flip() };
    let name = own.to_string();
    match piece.kind() {
        Kind::General => own.in_palace(Color::Red),
        Kind::Advisor => ADVISOR_SQUARES.contains(&name.as_str()),
        Kind::Elephant => ELEPHANT_SQUARES.contains(&name.as_str()),
        Kind::Soldier => match own.rank() {
            0..=2 => false,
            3 | 4 => own.file() % 2 == 0,
            _ => true,
        },
        Kind::Horse | Kind::Chariot | Kind::Cannon => true,
    }
}

impl Position {
    /// The start position.
    #[must_use]
    pub fn start() -> Position {
        Position::from_setup(&Setup::start(), Waivers::NONE)
            .unwrap_or_else(|_| unreachable!("the start position is legal"))
    }

    /// Reads and validates a FEN.
    ///
    /// # Errors
    /// [`PositionError::Fen`] when the text is malformed, otherwise the rule it breaks.
    pub fn from_fen(fen: &str) -> Result<Position, PositionError> {
        Position::from_setup(&fen.parse()?, Waivers::NONE)
    }

    /// Checks a setup against the rules, skipping the checks named in `waivers`.
    ///
    /// # Errors
    /// The first rule the setup breaks.
    pub fn from_setup(setup: &Setup, waivers: Waivers) -> Result<Position, PositionError> {
        let pieces = Square::all().filter_map(|sq| setup.board[sq.index()].map(|p| (p, sq)));
        let mut pos = Position::from_pieces(pieces, setup.turn, waivers)?;
        pos.halfmoves = setup.halfmoves;
        pos.fullmoves = setup.fullmoves.max(1);
        Ok(pos)
    }

    /// The position of `pieces` with `turn` to move (clocks at their start), checked like
    /// [`Position::from_setup`]: for callers that hold a few pieces rather than a board, such
    /// as the tablebase generator, which builds one position per table entry.
    ///
    /// # Errors
    /// [`PositionError::SharedSquare`] when two pieces are given one square, otherwise the
    /// first rule the position breaks.
    pub fn from_pieces(
        pieces: impl IntoIterator<Item = (Piece, Square)>,
        turn: Color,
        waivers: Waivers,
    ) -> Result<Position, PositionError> {
        let mut pos = Position {
            board: [0; SQUARES],
            pieces: [Bitboard::EMPTY; 16],
            occupied: [Bitboard::EMPTY; 2],
            kings: [Square::new(0, 0); 2],
            files: [0; 9],
            ranks: [0; 10],
            turn,
            key: zobrist::turn_key(turn),
            halfmoves: 0,
            fullmoves: 1,
            history: Vec::new(),
        };
        for (piece, sq) in pieces {
            if pos.board[sq.index()] != 0 {
                return Err(PositionError::SharedSquare(sq));
            }
            pos.put(piece, sq);
        }
        for color in Color::ALL {
            let total = pos.occupied[color.index()].count();
            if total > 16 {
                return Err(PositionError::TooManyPieces(color, total));
            }
            let kings = pos.pieces[Piece::new(color, Kind::General).slot()];
            match kings.count() {
                0 => return Err(PositionError::MissingGeneral(color)),
                1 => {}
                n => return Err(PositionError::TooManyGenerals(color, n)),
            }
            let ksq = kings.first().unwrap_or_else(|| unreachable!());
            if !ksq.in_palace(color) {
                return Err(PositionError::GeneralOutsidePalace { color, square: ksq });
            }
            pos.kings[color.index()] = ksq;
        }
        if !waivers.counts {
            for color in Color::ALL {
                for kind in Kind::ALL {
                    let piece = Piece::new(color, kind);
                    let count = pos.pieces[piece.slot()].count();
                    if count > kind.max_count() {
                        let max = kind.max_count();
                        return Err(PositionError::TooManyOfKind {
                            color,
                            letter: piece.fen_char(),
                            count,
                            max,
                        });
                    }
                }
            }
        }
        if !waivers.placement {
            for sq in Square::all() {
                if let Some(piece) = pos.piece_at(sq)
                    && !reachable(piece, sq)
                {
                    let piece_name = format!("{} {}", piece.color(), piece.kind().name());
                    return Err(PositionError::UnreachableSquare {
                        piece_name,
                        square: sq,
                    });
                }
            }
        }
        if !waivers.opposite_check {
            if pos.generals_facing() {
                return Err(PositionError::GeneralsFacing);
            }
            let them = pos.turn.opponent();
            if pos.is_attacked_king(pos.kings[them.index()], them) {
                return Err(PositionError::OppositeInCheck(them));
            }
        }
        Ok(pos)
    }

    /// The position as an unvalidated setup.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            setup.board[sq.index()] = self.piece_at(sq);
        }
        setup.turn = self.turn;
        setup.halfmoves = self.halfmoves;
        setup.fullmoves = self.fullmoves;
        setup
    }

    /// The canonical FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        self.to_setup().fen()
    }

    #[inline]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = piece.to_u8();
        self.pieces[piece.slot()].insert(sq);
        self.occupied[piece.color().index()].insert(sq);
        self.files[usize::from(sq.file())] |= 1 << sq.rank();
        self.ranks[usize::from(sq.rank())] |= 1 << sq.file();
        self.key ^= zobrist::piece_key(piece, sq);
    }

    /// The piece on `sq`.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_u8(self.board[sq.index()])
    }

    /// The side to move.
    #[inline]
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist key (scheme in `docs/formats/zobrist.md`).
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key after the pseudo-legal move `m`, without making it (to prefetch a hash table
    /// entry early).
    #[inline]
    #[must_use]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let moving = self.board[from.index()];
        if moving == 0 {
            return self.key;
        }
        // An empty target's key is zero.
        self.key
            ^ zobrist::byte_key(moving, from)
            ^ zobrist::byte_key(moving, to)
            ^ zobrist::byte_key(self.board[to.index()], to)
            ^ zobrist::side_key()
    }

    /// The key computed from scratch; always equal to [`Position::key`].
    #[must_use]
    pub fn compute_key(&self) -> u64 {
        Square::all()
            .filter_map(|sq| self.piece_at(sq).map(|p| zobrist::piece_key(p, sq)))
            .fold(zobrist::turn_key(self.turn), |k, x| k ^ x)
    }

    /// Plies since the last capture (or since the position was set up).
    #[inline]
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number (starts at 1, increases after each Black move).
    #[inline]
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The square of `color`'s general.
    #[inline]
    #[must_use]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The board as raw piece bytes ([`Piece::to_u8`]: 1..=7 Red, 9..=15 Black, 0 for an empty
    /// point), indexed by [`Square::index`]: for the evaluation's and search's table lookups.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &[u8; SQUARES] {
        &self.board
    }

    /// Occupancy of file `file` (0..9): bit `r` is set when rank `r` of that file holds a piece.
    #[inline]
    #[must_use]
    pub fn file_occupancy(&self, file: usize) -> u16 {
        self.files[file]
    }

    /// Occupancy of rank `rank` (0..10): bit `f` is set when file `f` of that rank holds a piece.
    #[inline]
    #[must_use]
    pub fn rank_occupancy(&self, rank: usize) -> u16 {
        self.ranks[rank]
    }

    /// The squares of `piece`.
    #[inline]
    #[must_use]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece.slot()]
    }

    /// The squares occupied by `color`.
    #[inline]
    #[must_use]
    pub fn occupied_by(&self, color: Color) -> Bitboard {
        self.occupied[color.index()]
    }

    /// All occupied squares.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    /// The moves made since the position was set up, with what each left behind, oldest first.
    #[inline]
    #[must_use]
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// Forgets the move history (the position becomes the new root).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// `true` when the two generals stand on one file with nothing between them.
    #[must_use]
    pub fn generals_facing(&self) -> bool {
        let (r, b) = (self.kings[0], self.kings[1]);
        r.file() == b.file()
            && (r.index() + 9..b.index())
                .step_by(9)
                .all(|i| self.board[i] == 0)
    }

    /// Makes a move, which must be legal (or at least pseudo-legal for unchecked analysis).
    ///
    /// Updates the key incrementally and records what is needed by [`Position::unmake_move`].
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let moving = self.board[from.index()];
        let captured = self.board[to.index()];
        debug_assert!(moving != 0, "no piece on {from} for {m} in {}", self.fen());
        self.history.push(Undo {
            mv: m,
            captured,
            key: self.key,
            halfmoves: self.halfmoves,
        });
        // The pieces by their raw board bytes (see `Position::pieces`).
        let us = self.turn.index();
        let (fb, tb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        if captured != 0 {
            self.pieces[usize::from(captured & 15)] ^= tb;
            self.occupied[us ^ 1] ^= tb;
            self.key ^= zobrist::byte_key(captured, to);
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        self.board[to.index()] = moving;
        self.board[from.index()] = 0;
        self.pieces[usize::from(moving & 15)] ^= fb | tb;
        self.occupied[us] ^= fb | tb;
        let (ff, fr, tf, tr) = (from.file(), from.rank(), to.file(), to.rank());
        self.files[usize::from(ff)] ^= 1 << fr;
        self.ranks[usize::from(fr)] ^= 1 << ff;
        self.files[usize::from(tf)] |= 1 << tr;
        self.ranks[usize::from(tr)] |= 1 << tf;
        self.key ^=
            zobrist::byte_key(moving, from) ^ zobrist::byte_key(moving, to) ^ zobrist::side_key();
        if moving & 7 == Piece::new(Color::Red, Kind::General).to_u8() {
            self.kings[us] = to;
        }
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = self.turn.opponent();
    }

    /// Takes back the last move made by [`Position::make_move`]; nothing happens if there is none.
    #[inline]
    pub fn unmake_move(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        self.turn = self.turn.opponent();
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        let (from, to) = (undo.mv.from(), undo.mv.to());
        let moving = self.board[to.index()];
        let us = self.turn.index();
        let (fb, tb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        self.board[from.index()] = moving;
        self.board[to.index()] = undo.captured;
        self.pieces[usize::from(moving & 15)] ^= fb | tb;
        self.occupied[us] ^= fb | tb;
        let (ff, fr, tf, tr) = (from.file(), from.rank(), to.file(), to.rank());
        self.files[usize::from(ff)] |= 1 << fr;
        self.ranks[usize::from(fr)] |= 1 << ff;
        if undo.captured != 0 {
            self.pieces[usize::from(undo.captured & 15)] ^= tb;
            self.occupied[us ^ 1] ^= tb;
        } else {
            self.files[usize::from(tf)] ^= 1 << tr;
            self.ranks[usize::from(tr)] ^= 1 << tf;
        }
        if moving & 7 == Piece::new(Color::Red, Kind::General).to_u8() {
            self.kings[us] = from;
        }
        self.key = undo.key;
        self.halfmoves = undo.halfmoves;
    }

    /// Passes the move to the other side (for null-move search). Undo with [`Position::unmake_null`].
    pub fn make_null(&mut self) {
        self.history.push(Undo {
            mv: Move::NONE,
            captured: 0,
            key: self.key,
            halfmoves: self.halfmoves,
        });
        self.key ^= zobrist::side_key();
        self.turn = self.turn.opponent();
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self) {
        if let Some(undo) = self.history.pop() {
            self.key = undo.key;
            self.halfmoves = undo.halfmoves;
            self.turn = self.turn.opponent();
        }
    }

    /// The position reflected left to right (the history is not carried over).
    #[must_use]
    pub fn mirror(&self) -> Position {
        let setup = self.to_setup().mirror();
        Position::from_setup(&setup, Waivers::ALL)
            .unwrap_or_else(|_| unreachable!("a mirrored position keeps its legality"))
    }

    /// The key of the left-right mirror of this position, without building it.
    #[must_use]
    pub fn mirror_key(&self) -> u64 {
        self.occupied()
            .into_iter()
            .filter_map(|sq| {
                self.piece_at(sq)
                    .map(|p| zobrist::piece_key(p, sq.mirror()))
            })
            .fold(zobrist::turn_key(self.turn), |k, x| k ^ x)
    }

    /// The total number of pieces on the board.
    #[must_use]
    pub fn piece_count(&self) -> u32 {
        self.occupied().count()
    }
}

impl PartialEq for Position {
    /// Positions are equal when board, side to move and counters are (history is ignored).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(fen: &str) -> Result<Position, PositionError> {
        Position::from_fen(fen)
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// The occupancy masks of every file and rank agree with the board.
    fn assert_masks(pos: &Position) {
        for sq in Square::all() {
            let occupied = pos.board[sq.index()] != 0;
            let (f, r) = (usize::from(sq.file()), usize::from(sq.rank()));
            assert_eq!(
                pos.files[f] >> r & 1 != 0,
                occupied,
                "file mask at {sq} in {pos}"
            );
            assert_eq!(
                pos.ranks[r] >> f & 1 != 0,
                occupied,
                "rank mask at {sq} in {pos}"
            );
        }
    }

    #[test]
    fn occupancy_masks_and_keys_follow_make_and_unmake() {
        let mut rng = Rng::seeded(0x853c_49e6_748f_ea9b);
        for _ in 0..30 {
            let mut pos = Position::start();
            assert_masks(&pos);
            for _ in 0..200 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
                assert_masks(&pos);
            }
            while !pos.history().is_empty() {
                let key = pos.key();
                let m = pos.history().last().unwrap().mv;
                pos.unmake_move();
                assert_eq!(pos.key_after(m), key);
                assert_masks(&pos);
            }
        }
    }

    #[test]
    fn a_position_from_its_pieces_equals_the_one_from_its_board() {
        let mut rng = Rng::seeded(41);
        let roots = crate::testing::ROOTS;
        crate::testing::random_games(&roots, 6, 80, &mut rng, |pos| {
            let setup = pos.to_setup();
            let pieces: Vec<(Piece, Square)> = Square::all()
                .filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq)))
                .collect();
            let mut from_board = Position::from_setup(&setup, Waivers::NONE).unwrap();
            from_board.halfmoves = 0;
            from_board.fullmoves = 1;
            // The pieces in any order give the same position.
            let mut reversed = pieces.clone();
            reversed.reverse();
            for list in [pieces, reversed] {
                let p = Position::from_pieces(list, pos.turn(), Waivers::NONE).unwrap();
                assert_eq!(p.to_setup(), from_board.to_setup());
                assert_eq!(p.key(), from_board.key());
                assert_masks(&p);
            }
        });
        let red_king = Piece::new(Color::Red, Kind::General);
        let black_king = Piece::new(Color::Black, Kind::General);
        let e0: Square = "e0".parse().unwrap();
        let e9: Square = "e9".parse().unwrap();
        let rook = Piece::new(Color::Red, Kind::Chariot);
        assert_eq!(
            Position::from_pieces(
                [(red_king, e0), (black_king, e9), (rook, e9)],
                Color::Red,
                Waivers::NONE
            )
            .unwrap_err(),
            PositionError::SharedSquare(e9)
        );
        // The same checks as a board: facing generals.
        assert_eq!(
            Position::from_pieces(
                [(red_king, e0), (black_king, e9)],
                Color::Red,
                Waivers::NONE
            )
            .unwrap_err(),
            PositionError::GeneralsFacing
        );
    }
}
