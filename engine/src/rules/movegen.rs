//! Move generation, attack tests and legality.
//!
//! Moves are generated pseudo-legally from the tables in [`super::tables`] and filtered for
//! legality. Most moves cannot expose their own general, so each node first works out the few
//! that might (see `Position::legality`): when the side is in check, when the general moves, when
//! a pinned piece, a cannon's screen or a horse-leg blocker leaves, or when a piece arrives
//! between the general and an unscreened enemy cannon. Only those are tested, by copying the
//! 90-byte board, applying the move and looking outward from the general for rooks, cannons,
//! horses, soldiers and the other general.

use super::bitboard::Bitboard;
use super::mv::{Move, MoveList};
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::square::{SQUARES, Square};
use super::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKERS, HORSE_STEPS, KING_STEPS, PAWN_ATTACKERS,
    PAWN_STEPS, RAYS,
};

#[inline(always)]
const fn code(color: Color, kind: Kind) -> u8 {
    Piece::new(color, kind).to_u8()
}

/// `true` when a general of `color` on `ksq` is attacked on `board` (flying general included).
#[inline]
pub(crate) fn king_attacked(board: &[u8; SQUARES], ksq: Square, color: Color) -> bool {
    let them = color.opponent();
    let (rook, cannon, horse, pawn, king) = (
        code(them, Kind::Rook),
        code(them, Kind::Cannon),
        code(them, Kind::Horse),
        code(them, Kind::Pawn),
        code(them, Kind::King),
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

impl Position {
    /// `true` when the general of `color` on `ksq` is attacked in this position.
    #[inline]
    pub(crate) fn is_attacked_king(&self, ksq: Square, color: Color) -> bool {
        king_attacked(&self.board, ksq, color)
    }

    /// `true` when the side to move is in check.
    #[inline]
    #[must_use]
    pub fn in_check(&self) -> bool {
        king_attacked(&self.board, self.kings[self.turn.index()], self.turn)
    }

    /// Generates the pseudo-legal moves (legal but for exposing one's own general), appending to `list`.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        self.generate::<false>(list);
    }

    /// Generates the legal moves, appending to `list`.
    pub fn legal_moves(&self, list: &mut MoveList) {
        let start = list.len();
        self.generate::<false>(list);
        self.retain_legal(list, start);
    }

    /// Generates the legal captures (for quiescence search), appending to `list`.
    pub fn legal_captures(&self, list: &mut MoveList) {
        let start = list.len();
        self.generate::<true>(list);
        self.retain_legal(list, start);
    }

    /// The legal moves as a new list.
    #[must_use]
    pub fn legal_move_list(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list
    }

    /// The number of legal moves (what perft counts at its last ply).
    #[must_use]
    pub fn count_legal_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// `true` when the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate::<false>(&mut list);
        let ctx = self.legality();
        list.iter().any(|&m| self.is_legal_with(m, &ctx))
    }

    /// `true` when `m` is a legal move here. Accepts any move value, however strange.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        if m.is_none() || !self.is_pseudo_legal(m) {
            return false;
        }
        self.is_legal_with(m, &self.legality())
    }

    /// `true` when `m` moves a piece of the side to move the way that piece moves, ignoring
    /// whether it exposes the own general.
    #[must_use]
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color() != self.turn || from == to {
            return false;
        }
        if self.piece_at(to).is_some_and(|p| p.color() == self.turn) {
            return false;
        }
        let mut list = MoveList::new();
        self.piece_moves::<false>(piece, from, &mut list);
        list.contains(m)
    }

    /// `true` when the (legal) move `m` gives check.
    #[must_use]
    pub fn gives_check(&self, m: Move) -> bool {
        let mut board = self.board;
        board[m.to().index()] = board[m.from().index()];
        board[m.from().index()] = 0;
        let them = self.turn.opponent();
        king_attacked(&board, self.kings[them.index()], them)
    }

    /// `true` when `m` captures a piece.
    #[inline]
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != 0
    }

    /// The pieces of `by` that attack `sq` (could capture a piece there, ignoring pins).
    /// The flying general is not counted: it only matters for the general itself.
    #[must_use]
    pub fn attackers(&self, sq: Square, by: Color) -> Bitboard {
        attackers_on(&self.board, sq, by)
    }

    /// What a move must avoid to keep the own general safe: the pieces whose departure may
    /// expose it (pinned by a rook or the other general, a screen of a cannon behind two
    /// screens, a horse's leg) and the squares where an arriving piece becomes a cannon's screen.
    fn legality(&self) -> Legality {
        let us = self.turn;
        let ksq = self.kings[us.index()];
        if self.is_attacked_king(ksq, us) {
            return Legality {
                ksq,
                blockers: u128::MAX,
                screens: u128::MAX,
            };
        }
        let them = us.opponent();
        let b = &self.board;
        let own = (us as u8) << 3;
        let (rook, cannon, horse, king) = (
            code(them, Kind::Rook),
            code(them, Kind::Cannon),
            code(them, Kind::Horse),
            code(them, Kind::King),
        );
        let (mut blockers, mut screens) = (0u128, 0u128);
        for ray in &RAYS[ksq.index()] {
            let squares = &ray.sq[..ray.len as usize];
            let mut found = [0usize; 3];
            let mut n = 0;
            let mut empty = 0u128;
            for &s in squares {
                let s = s as usize;
                if b[s] == 0 {
                    if n == 0 {
                        empty |= 1 << s;
                    }
                    continue;
                }
                found[n] = s;
                n += 1;
                if n == 3 {
                    break;
                }
            }
            if n == 0 {
                continue;
            }
            let piece = |i: usize| if i < n { b[found[i]] } else { 0 };
            let mine = |i: usize| i < n && b[found[i]] & 8 == own;
            if piece(0) == cannon {
                // Nothing between the general and an enemy cannon: an arriving piece is a screen.
                screens |= empty;
            }
            if mine(0) && (piece(1) == rook || piece(1) == king) {
                blockers |= 1 << found[0];
            }
            if piece(2) == cannon {
                // Two screens: taking either of ours away leaves the cannon one screen.
                for (i, &s) in found.iter().enumerate().take(2) {
                    if mine(i) {
                        blockers |= 1 << s;
                    }
                }
            }
        }
        for (h, leg) in HORSE_ATTACKERS[ksq.index()].iter() {
            if b[h] == horse && b[leg] != 0 && b[leg] & 8 == own {
                blockers |= 1 << leg;
            }
        }
        Legality {
            ksq,
            blockers,
            screens,
        }
    }

    #[inline]
    fn is_legal_with(&self, m: Move, ctx: &Legality) -> bool {
        let (from, to) = (m.from(), m.to());
        if from == ctx.ksq {
            return !self.exposed_after(m, to);
        }
        if (ctx.blockers >> from.index()) & 1 == 0 && (ctx.screens >> to.index()) & 1 == 0 {
            debug_assert!(
                !self.exposed_after(m, ctx.ksq),
                "fast legality test missed {m} in {}",
                self.fen()
            );
            return true;
        }
        !self.exposed_after(m, ctx.ksq)
    }

    #[inline]
    fn exposed_after(&self, m: Move, ksq: Square) -> bool {
        let mut board = self.board;
        board[m.to().index()] = board[m.from().index()];
        board[m.from().index()] = 0;
        king_attacked(&board, ksq, self.turn)
    }

    fn retain_legal(&self, list: &mut MoveList, start: usize) {
        let ctx = self.legality();
        let mut i = 0;
        list.retain(|m| {
            i += 1;
            i <= start || self.is_legal_with(m, &ctx)
        });
    }

    fn generate<const CAPTURES: bool>(&self, list: &mut MoveList) {
        let us = self.turn;
        for kind in Kind::ALL {
            let piece = Piece::new(us, kind);
            for from in self.pieces[piece.index()] {
                self.piece_moves::<CAPTURES>(piece, from, list);
            }
        }
    }

    #[inline(always)]
    fn piece_moves<const CAPTURES: bool>(&self, piece: Piece, from: Square, list: &mut MoveList) {
        let b = &self.board;
        let us = piece.color();
        let own = (us as u8) << 3;
        // A target is open when it is empty (quiet moves only) or holds an enemy piece.
        let open = |p: u8| {
            if CAPTURES {
                p != 0 && p & 8 != own
            } else {
                p == 0 || p & 8 != own
            }
        };
        let f = from.index();
        let push = |list: &mut MoveList, to: usize| {
            list.push(Move::new(from, Square::from_index_unchecked(to)))
        };
        match piece.kind() {
            Kind::Rook => {
                for ray in &RAYS[f] {
                    for &s in &ray.sq[..ray.len as usize] {
                        let p = b[s as usize];
                        if p == 0 {
                            if !CAPTURES {
                                push(list, s as usize);
                            }
                        } else {
                            if p & 8 != own {
                                push(list, s as usize);
                            }
                            break;
                        }
                    }
                }
            }
            Kind::Cannon => {
                for ray in &RAYS[f] {
                    let squares = &ray.sq[..ray.len as usize];
                    let mut i = 0;
                    while i < squares.len() && b[squares[i] as usize] == 0 {
                        if !CAPTURES {
                            push(list, squares[i] as usize);
                        }
                        i += 1;
                    }
                    i += 1; // jump the screen
                    while i < squares.len() {
                        let p = b[squares[i] as usize];
                        if p != 0 {
                            if p & 8 != own {
                                push(list, squares[i] as usize);
                            }
                            break;
                        }
                        i += 1;
                    }
                }
            }
            Kind::Horse => {
                for (to, leg) in HORSE_STEPS[f].iter() {
                    if b[leg] == 0 && open(b[to]) {
                        push(list, to);
                    }
                }
            }
            Kind::Elephant => {
                for (to, eye) in ELEPHANT_STEPS[us.index()][f].iter() {
                    if b[eye] == 0 && open(b[to]) {
                        push(list, to);
                    }
                }
            }
            Kind::Advisor => {
                for (to, _) in ADVISOR_STEPS[us.index()][f].iter() {
                    if open(b[to]) {
                        push(list, to);
                    }
                }
            }
            Kind::King => {
                for (to, _) in KING_STEPS[us.index()][f].iter() {
                    if open(b[to]) {
                        push(list, to);
                    }
                }
            }
            Kind::Pawn => {
                for (to, _) in PAWN_STEPS[us.index()][f].iter() {
                    if open(b[to]) {
                        push(list, to);
                    }
                }
            }
        }
    }
}

struct Legality {
    ksq: Square,
    /// Squares whose piece may expose the general by leaving (all squares when in check).
    blockers: u128,
    /// Squares where an arriving piece may become a cannon's screen (all squares when in check).
    screens: u128,
}

/// The pieces of `by` on `board` that attack `sq`.
pub(crate) fn attackers_on(board: &[u8; SQUARES], sq: Square, by: Color) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let s = sq.index();
    let is = |i: usize, kind: Kind| board[i] == code(by, kind);
    for ray in &RAYS[s] {
        let mut it = ray.sq[..ray.len as usize]
            .iter()
            .map(|&x| x as usize)
            .filter(|&x| board[x] != 0);
        if let Some(first) = it.next() {
            if is(first, Kind::Rook) {
                out.insert(Square::from_index_unchecked(first));
            }
            if let Some(second) = it.next() {
                if is(second, Kind::Cannon) {
                    out.insert(Square::from_index_unchecked(second));
                }
            }
        }
    }
    for (h, leg) in HORSE_ATTACKERS[s].iter() {
        if is(h, Kind::Horse) && board[leg] == 0 {
            out.insert(Square::from_index_unchecked(h));
        }
    }
    for (p, _) in PAWN_ATTACKERS[by.index()][s].iter() {
        if is(p, Kind::Pawn) {
            out.insert(Square::from_index_unchecked(p));
        }
    }
    // General, advisor and elephant steps are symmetric inside their regions, so the squares they
    // attack `sq` from are the squares they could step to from `sq`.
    if sq.in_palace(by) {
        for (k, _) in KING_STEPS[by.index()][s].iter() {
            if is(k, Kind::King) {
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

    fn moves(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let mut v: Vec<String> = pos
            .legal_move_list()
            .iter()
            .map(ToString::to_string)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn start_position_has_44_moves() {
        assert_eq!(Position::start().count_legal_moves(), 44);
    }

    #[test]
    fn flying_general_restricts_moves() {
        // Red general e0, black general d9: stepping to d0 would face d9 on an open file.
        let m = moves("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(m, vec!["e0e1", "e0f0"]);
    }

    #[test]
    fn horse_leg_and_elephant_eye_block() {
        // A red rook on b1 blocks the leg of the horse on b0 for its jumps to a2 and c2.
        let m = moves("3k5/9/9/9/9/9/9/9/1R7/1N2K4 w - - 0 1");
        assert!(!m.contains(&"b0a2".to_owned()) && !m.contains(&"b0c2".to_owned()));
        assert!(m.contains(&"b0d1".to_owned()));
    }

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
}
