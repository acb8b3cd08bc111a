//! Attack and check tests: whether a general is attacked, on the board or on the board after a
//! move that has not been made; whether a move gives check; which pieces attack a point.
//!
//! A general is attacked when the first piece on one of its lines is an enemy chariot or the
//! other general (the flying general), when the second is an enemy cannon, or when an enemy horse
//! with a free leg, or an enemy soldier, stands where it can take it. So the tests look outward
//! from the general; the file and rank occupancy masks find the pieces on each line without
//! walking it. [`king_attacked`] is the plain version that walks the board: the fast tests are
//! checked against it in debug builds. Most moves cannot give check, and two masks of
//! [`KING_EXPOSURE`] rule them out without looking along the general's lines.
//!
//! Legality ([`super::movegen`]) uses the same test on a view of the board after the move.

use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::square::{SQUARES, Square, file_rank};
use super::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKER_SET, HORSE_ATTACKERS, KING_EXPOSURE, KING_STEPS,
    PAWN_ATTACKER_SET, PAWN_ATTACKERS, RAYS,
};

/// The byte that the board holds for a piece of `color` and `kind`.
#[inline(always)]
pub(crate) const fn code(color: Color, kind: Kind) -> u8 {
    Piece::new(color, kind).to_u8()
}

/// `true` when a general of `color` on `ksq` is attacked on `board` (flying general included).
///
/// The plain version, walking the board; the position uses the faster [`attacked`] and checks
/// it against this one in debug builds.
pub fn king_attacked(board: &[u8; SQUARES], ksq: Square, color: Color) -> bool {
    let them = color.opponent();
    let (rook, cannon, horse, pawn, king) = (
        code(them, Kind::Chariot),
        code(them, Kind::Cannon),
        code(them, Kind::Horse),
        code(them, Kind::Soldier),
        code(them, Kind::General),
    );
    let k = ksq.index();
    for (h, leg) in HORSE_ATTACKERS[k].iter() {
        if board[h] == horse && board[leg] == 0 {
            return true;
        }
    }
    for (p, _) in PAWN_ATTACKERS[them.index()][k].iter() {
        if board[p] == pawn {
            return true;
        }
    }
    for ray in &RAYS[k] {
        let squares = &ray.sq[..ray.len as usize];
        let mut it = squares
            .iter()
            .map(|&s| board[s as usize])
            .filter(|&p| p != 0);
        match it.next() {
            // The generals can only meet on a file, so a general first on any line is facing.
            Some(p) if p == rook || p == king => return true,
            Some(_) if it.next() == Some(cannon) => return true,
            _ => {}
        }
    }
    false
}

/// A board as the attack test reads it: the position's own, or the board after a move that has
/// not been made (which spares copying 90 bytes for every move tested).
trait View {
    fn at(&self, sq: usize) -> u8;
}

impl View for [u8; SQUARES] {
    #[inline(always)]
    fn at(&self, sq: usize) -> u8 {
        self[sq]
    }
}

/// The board after the piece `moving` went from `from` to `to`.
struct After<'a> {
    board: &'a [u8; SQUARES],
    from: usize,
    to: usize,
    moving: u8,
}

impl View for After<'_> {
    #[inline(always)]
    fn at(&self, sq: usize) -> u8 {
        if sq == self.to {
            self.moving
        } else if sq == self.from {
            0
        } else {
            self.board[sq]
        }
    }
}

/// The occupied points along one line from a point, nearest first, read from the occupancy
/// bits of the line (bit `i` = the `i`-th point of the file or rank).
#[derive(Clone, Copy)]
pub struct Occupants {
    bits: u32,
    /// Nearest is the lowest bit (up, right) or the highest (down, left).
    ascending: bool,
    base: usize,
    step: usize,
}

impl Iterator for Occupants {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.bits == 0 {
            return None;
        }
        let i = if self.ascending {
            self.bits.trailing_zeros()
        } else {
            31 - self.bits.leading_zeros()
        };
        self.bits &= !(1 << i);
        Some(self.base + self.step * i as usize)
    }
}

/// The occupants of the four lines from `sq`, in the order of [`RAYS`] (up, down, right,
/// left), given the occupancy of its file and of its rank.
#[inline(always)]
pub fn lines_from(sq: usize, file_occ: u32, rank_occ: u32) -> [Occupants; 4] {
    let (f, r) = file_rank(sq);
    let line = |bits: u32, ascending: bool, base: usize, step: usize| Occupants {
        bits,
        ascending,
        base,
        step,
    };
    [
        line(file_occ & !((2u32 << r) - 1), true, f, 9),
        line(file_occ & ((1u32 << r) - 1), false, f, 9),
        line(rank_occ & !((2u32 << f) - 1), true, 9 * r, 1),
        line(rank_occ & ((1u32 << f) - 1), false, 9 * r, 1),
    ]
}

/// `true` when a general of `color` on `ksq` is attacked on `view`, given the occupancy of its
/// file and rank there. `horse_near` and `pawn_near` say whether an enemy horse or soldier may
/// stand where it could attack the general (a `true` only costs time: they serve to skip those
/// tests when none is near).
#[inline]
fn attacked<V: View>(
    view: &V,
    ksq: usize,
    color: Color,
    file_occ: u32,
    rank_occ: u32,
    horse_near: bool,
    pawn_near: bool,
) -> bool {
    let them = color.opponent();
    let (rook, cannon, horse, pawn, king) = (
        code(them, Kind::Chariot),
        code(them, Kind::Cannon),
        code(them, Kind::Horse),
        code(them, Kind::Soldier),
        code(them, Kind::General),
    );
    if horse_near {
        for (h, leg) in HORSE_ATTACKERS[ksq].iter() {
            if view.at(h) == horse && view.at(leg) == 0 {
                return true;
            }
        }
    }
    if pawn_near {
        for (p, _) in PAWN_ATTACKERS[them.index()][ksq].iter() {
            if view.at(p) == pawn {
                return true;
            }
        }
    }
    for mut line in lines_from(ksq, file_occ, rank_occ) {
        if let Some(first) = line.next() {
            // The generals can only meet on a file, so a general first on any line is facing.
            let p = view.at(first);
            if p == rook || p == king {
                return true;
            }
            if line.next().is_some_and(|second| view.at(second) == cannon) {
                return true;
            }
        }
    }
    false
}

/// `false` when the move `m` of the piece `moving` (raw byte) of `mover` surely does not give
/// check to the general on `ksq`: it neither leaves the general's file or rank or a horse's leg
/// next to it (which may open a line or a leg), nor arrives on its file or rank (a chariot, a
/// cannon's screen, the facing general), nor is a horse or soldier arriving where it attacks
/// the general (see [`KING_EXPOSURE`]). `true` when only the board after the move can tell.
#[inline(always)]
fn may_give_check(m: Move, moving: u8, mover: Color, ksq: Square) -> bool {
    let (to, k) = (m.to().index(), ksq.index());
    may_open_lines(m, ksq)
        || (moving == code(mover, Kind::Horse) && has(HORSE_ATTACKER_SET[k], to))
        || (moving == code(mover, Kind::Soldier) && has(PAWN_ATTACKER_SET[mover.index()][k], to))
}

/// `false` when the move `m` surely opens no line or horse's leg onto the general on `ksq` and
/// arrives on neither of its lines: it leaves none of the points of [`KING_EXPOSURE`]'s first
/// mask and arrives on none of its second.
#[inline(always)]
pub(crate) fn may_open_lines(m: Move, ksq: Square) -> bool {
    let [leaving, arriving] = KING_EXPOSURE[ksq.index()];
    has(leaving, m.from().index()) || has(arriving, m.to().index())
}

/// `true` when bit `i` of `set` is set (two 64-bit halves: cheaper than a 128-bit shift).
#[inline(always)]
pub(crate) fn has(set: u128, i: usize) -> bool {
    let word = if i < 64 {
        set as u64
    } else {
        (set >> 64) as u64
    };
    (word >> (i & 63)) & 1 != 0
}

impl Position {
    /// `true` when the general of `color` on `ksq` is attacked in this position.
    #[inline]
    pub fn is_attacked_king(&self, ksq: Square, color: Color) -> bool {
        let them = color.opponent();
        let k = ksq.index();
        let fast = attacked(
            &self.board,
            k,
            color,
            u32::from(self.files[usize::from(ksq.file())]),
            u32::from(self.ranks[usize::from(ksq.rank())]),
            self.pieces[Piece::new(them, Kind::Horse).slot()].0 & HORSE_ATTACKER_SET[k] != 0,
            self.pieces[Piece::new(them, Kind::Soldier).slot()].0
                & PAWN_ATTACKER_SET[them.index()][k]
                != 0,
        );
        debug_assert_eq!(fast, king_attacked(&self.board, ksq, color), "{self}");
        fast
    }

    /// `true` when, after the pseudo-legal move `m` (not made), the general of `color` standing
    /// on `ksq` then is attacked.
    #[inline]
    pub(crate) fn attacked_after(&self, m: Move, ksq: Square, color: Color) -> bool {
        let (from, to) = (m.from(), m.to());
        let moving = self.board[from.index()];
        let view = After {
            board: &self.board,
            from: from.index(),
            to: to.index(),
            moving,
        };
        let (kf, kr) = (ksq.file(), ksq.rank());
        let mut file_occ = u32::from(self.files[usize::from(kf)]);
        let mut rank_occ = u32::from(self.ranks[usize::from(kr)]);
        if from.file() == kf {
            file_occ &= !(1 << from.rank());
        }
        if from.rank() == kr {
            rank_occ &= !(1 << from.file());
        }
        if to.file() == kf {
            file_occ |= 1 << to.rank();
        }
        if to.rank() == kr {
            rank_occ |= 1 << to.file();
        }
        let them = color.opponent();
        let k = ksq.index();
        // Before the move, or the moved piece where it arrives (a superset of the sets after).
        let near = |kind: Kind, set: u128| {
            self.pieces[Piece::new(them, kind).slot()].0 & set != 0
                || (moving == code(them, kind) && has(set, to.index()))
        };
        let fast = attacked(
            &view,
            k,
            color,
            file_occ,
            rank_occ,
            near(Kind::Horse, HORSE_ATTACKER_SET[k]),
            near(Kind::Soldier, PAWN_ATTACKER_SET[them.index()][k]),
        );
        debug_assert_eq!(
            fast,
            {
                let mut board = self.board;
                board[to.index()] = moving;
                board[from.index()] = 0;
                king_attacked(&board, ksq, color)
            },
            "{m} in {self}"
        );
        fast
    }

    /// `true` when the side to move is in check.
    #[inline]
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.is_attacked_king(self.kings[self.turn.index()], self.turn)
    }

    /// [`Position::in_check`] for a position whose side to move was not in check before the
    /// last move (true whenever the position before it was itself reached by a legal move):
    /// then only that move can have given check, by attacking the general from its target or
    /// by opening a line or a horse's leg onto it, and most moves are ruled out by two masks
    /// (see [`KING_EXPOSURE`]) without looking along the general's lines.
    #[inline]
    pub fn in_check_after_move(&self) -> bool {
        let Some(last) = self.history().last() else {
            return self.in_check();
        };
        let m = last.mv;
        let us = self.turn;
        let them = us.opponent();
        let may_check = !m.is_none()
            && may_give_check(m, self.board[m.to().index()], them, self.kings[us.index()]);
        if !may_check {
            debug_assert!(!self.in_check(), "{m} in {}", self.fen());
            return false;
        }
        self.in_check()
    }

    /// `true` when the (legal) move `m` gives check.
    #[must_use]
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn;
        let them = us.opponent();
        let ksq = self.kings[them.index()];
        // Most moves need no look at the board after the move.
        if !may_give_check(m, self.board[m.from().index()], us, ksq) {
            debug_assert!(!self.attacked_after(m, ksq, them), "{m} in {}", self.fen());
            return false;
        }
        self.attacked_after(m, ksq, them)
    }

    /// The pieces of `by` that attack `sq` (could capture a piece there, ignoring pins).
    /// The flying general is not counted: it only matters for the general itself.
    #[must_use]
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        attackers_on(&self.board, sq, by)
    }
}

/// The pieces of `by` on `board` that attack `sq`.
pub fn attackers_on(board: &[u8; SQUARES], sq: Square, by: Color) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let s = sq.index();
    let is = |i: usize, kind: Kind| board[i] == code(by, kind);
    for ray in &RAYS[s] {
        let mut it = ray.sq[..ray.len as usize]
            .iter()
            .map(|&x| x as usize)
            .filter(|&x| board[x] != 0);
        if let Some(first) = it.next() {
            if is(first, Kind::Chariot) {
                out.insert(Square::from_index_unchecked(first));
            }
            if let Some(second) = it.next()
                && is(second, Kind::Cannon)
            {
                out.insert(Square::from_index_unchecked(second));
            }
        }
    }
    for (h, leg) in HORSE_ATTACKERS[s].iter() {
        if is(h, Kind::Horse) && board[leg] == 0 {
            out.insert(Square::from_index_unchecked(h));
        }
    }
    for (p, _) in PAWN_ATTACKERS[by.index()][s].iter() {
        if is(p, Kind::Soldier) {
            out.insert(Square::from_index_unchecked(p));
        }
    }
    // General, advisor and elephant steps are symmetric inside their regions, so the squares they
    // attack `sq` from are the squares they could step to from `sq`.
    if sq.in_palace(by) {
        for (k, _) in KING_STEPS[by.index()][s].iter() {
            if is(k, Kind::General) {
                out.insert(Square::from_index_unchecked(k));
            }
        }
        for (a, _) in ADVISOR_STEPS[by.index()][s].iter() {
            if is(a, Kind::Advisor) {
                out.insert(Square::from_index_unchecked(a));
            }
        }
    }
    if sq.on_own_half(by) {
        for (e, eye) in ELEPHANT_STEPS[by.index()][s].iter() {
            if is(e, Kind::Elephant) && board[eye] == 0 {
                out.insert(Square::from_index_unchecked(e));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{ROOTS, Rng, random_games};

    #[test]
    fn attackers_are_found() {
        let pos = Position::start();
        // Black's cannon on b7 attacks the horse on b0 over the screen on b2; nothing attacks e3.
        let b0: Square = "b0".parse().unwrap();
        assert_eq!(pos.attackers(b0, Color::Black).count(), 1);
        assert_eq!(
            pos.attackers("e3".parse().unwrap(), Color::Black).count(),
            0
        );
    }

    #[test]
    fn check_after_a_move_agrees_with_the_full_test() {
        let mut rng = Rng::seeded(0x000c_4ec0_fa11);
        let mut checks = 0;
        random_games(&ROOTS, 30, 150, &mut rng, |pos| {
            let full = pos.in_check();
            assert_eq!(pos.in_check_after_move(), full, "{pos}");
            checks += usize::from(full);
            if !full {
                let mut passed = pos.clone();
                passed.make_null();
                assert!(!passed.in_check_after_move(), "{pos}");
            }
        });
        assert!(checks > 50, "{checks}");
    }
}
