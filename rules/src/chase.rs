//! Chases: which enemy pieces a move newly threatens to win.
//!
//! Under the Asian (AXF) rules a side that forces a repetition by chasing the same piece on every
//! one of its moves loses, like one that checks on every move. This module decides, for one move,
//! which pieces it chases; [`super::judge`](mod@super::judge) combines the answers over a repetition cycle.
//!
//! # The definition used here
//!
//! After a move by X, X *threatens* an enemy piece `v` with its piece `a` when
//!
//! * `a` is a chariot, horse, cannon, elephant or advisor (the general and the soldiers may attack
//!   as often as they like: the rules allow them to);
//! * `v` is not the general (attacks on it are checks, judged separately) and not a soldier that
//!   has yet to cross the river;
//! * `a` could take `v` by a legal move were it X's turn: a pinned piece does not threaten
//!   (tested by making the capture and looking at X's general);
//! * and the capture would win something: `v` is worth more than `a` (a chariot attacked by a
//!   horse or cannon; a chariot, horse or cannon attacked by an elephant or advisor), or `v` is
//!   unprotected, that is, after `a` takes it the owner has no legal recapture on its square, and
//!   `v` is not of `a`'s kind able to take `a` at once (a mutual attack is an offer to exchange,
//!   not a chase; a pinned or lame twin can be chased).
//!
//! When X's move gives check, the owner's recaptures (and the twin's capture) are judged as if
//! the check were answered: they may leave the general attacked by the pieces already checking
//! it, but by no other. Otherwise every check would make every guarded piece look unguarded.
//!
//! The move *chases* `v` when some X piece threatens `v` after it and that same piece (followed
//! through the move if it is the one that moved) did not threaten `v` before. "Before" is judged
//! without X's own pins and checks, so getting out of check or unpinning an attacker does not
//! turn an old attack into a new chase. This covers the moving piece's own attacks, attacks it
//! discovers by opening a line, a horse leg or an elephant eye or by adding a cannon screen, and
//! threats it creates by taking away `v`'s protection (pinning or blocking the protector). The
//! tests are real move tests on the board, so pins by the facing generals need no special case.
//!
//! The work is done on a bare copy of the board (`Board`) so that it needs no allocation and can
//! walk backwards through a game's history; `docs/rules.md` lists what the rules say that this
//! definition does not capture.

use super::attacks::{attackers_on, king_attacked};
use super::bitboard::Bitboard;
use super::mv::Move;
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::square::{SQUARES, Square};
use super::tables::{ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_STEPS, KING_STEPS, PAWN_STEPS, RAYS};

/// A bare board: the 90 piece bytes and the two generals' squares.
///
/// Moves are played on it without any bookkeeping beyond that, so a copy is cheap (it lives on the
/// stack) and it can be stepped backwards through [`Position::history`].
#[derive(Clone)]
pub(crate) struct Board {
    squares: [u8; SQUARES],
    kings: [Square; 2],
}

impl Board {
    /// The board of a position.
    pub(crate) fn of(pos: &Position) -> Board {
        Board {
            squares: pos.board,
            kings: pos.kings,
        }
    }

    #[inline]
    fn piece(&self, sq: Square) -> Option<Piece> {
        Piece::from_u8(self.squares[sq.index()])
    }

    /// Moves the piece on `m.from()` to `m.to()` and returns the byte that stood there.
    #[inline]
    pub(crate) fn play(&mut self, m: Move) -> u8 {
        let (from, to) = (m.from().index(), m.to().index());
        let captured = self.squares[to];
        let moving = self.squares[from];
        self.squares[to] = moving;
        self.squares[from] = 0;
        if let Some(p) = Piece::from_u8(moving)
            && p.kind() == Kind::General
        {
            self.kings[p.color().index()] = m.to();
        }
        captured
    }

    /// Takes back [`Board::play`], given the byte it returned.
    #[inline]
    pub(crate) fn unplay(&mut self, m: Move, captured: u8) {
        let (from, to) = (m.from().index(), m.to().index());
        let moving = self.squares[to];
        self.squares[from] = moving;
        self.squares[to] = captured;
        if let Some(p) = Piece::from_u8(moving)
            && p.kind() == Kind::General
        {
            self.kings[p.color().index()] = m.from();
        }
    }

    /// `true` when `color`'s general is attacked (the facing generals included).
    #[inline]
    pub(crate) fn in_check(&self, color: Color) -> bool {
        king_attacked(&self.squares, self.kings[color.index()], color)
    }

    /// The enemy pieces that give check to `color`'s general (the facing general not included).
    fn checkers(&self, color: Color) -> Bitboard {
        attackers_on(&self.squares, self.kings[color.index()], color.opponent())
    }

    /// `true` when the two generals stand on one file with nothing between them.
    fn generals_facing(&self) -> bool {
        let (r, b) = (self.kings[0].index(), self.kings[1].index());
        r % 9 == b % 9 && (r + 9..b).step_by(9).all(|i| self.squares[i] == 0)
    }

    /// `true` when the piece on `from` may capture on `to` without leaving its general attacked,
    /// except by the pieces in `excused` (those already giving check; see [`Board::threatens`]).
    /// A general that moves must be safe from every piece. The capture must be pseudo-legal.
    fn capture_is_safe(&mut self, from: Square, to: Square, excused: Bitboard) -> bool {
        let Some(p) = self.piece(from) else {
            return false;
        };
        let m = Move::new(from, to);
        let captured = self.play(m);
        let color = p.color();
        let safe = if p.kind() == Kind::General || excused.is_empty() {
            !self.in_check(color)
        } else {
            (self.checkers(color) & !excused).is_empty() && !self.generals_facing()
        };
        self.unplay(m, captured);
        safe
    }

    /// `true` when the piece on `from` could capture the enemy piece on `to` by its way of moving
    /// (ignoring whose turn it is and whether its own general would be exposed).
    fn attacks(&self, from: Square, to: Square) -> bool {
        let (Some(p), Some(q)) = (self.piece(from), self.piece(to)) else {
            return false;
        };
        if p.color() == q.color() {
            return false;
        }
        let b = &self.squares;
        let (f, t) = (from.index(), to.index());
        let c = p.color().index();
        match p.kind() {
            Kind::Chariot | Kind::Cannon => {
                let screens = usize::from(p.kind() == Kind::Cannon);
                RAYS[f].iter().any(|ray| {
                    let line = &ray.sq[..ray.len as usize];
                    line.iter().position(|&s| s as usize == t).is_some_and(|i| {
                        line[..i].iter().filter(|&&s| b[s as usize] != 0).count() == screens
                    })
                })
            }
            Kind::Horse => HORSE_STEPS[f].iter().any(|(s, leg)| s == t && b[leg] == 0),
            Kind::Elephant => ELEPHANT_STEPS[c][f]
                .iter()
                .any(|(s, eye)| s == t && b[eye] == 0),
            Kind::Advisor => ADVISOR_STEPS[c][f].iter().any(|(s, _)| s == t),
            Kind::General => KING_STEPS[c][f].iter().any(|(s, _)| s == t),
            Kind::Soldier => PAWN_STEPS[c][f].iter().any(|(s, _)| s == t),
        }
    }

    /// The enemy pieces that the piece on `from` could capture by its way of moving.
    fn targets(&self, from: Square) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let Some(p) = self.piece(from) else {
            return out;
        };
        let b = &self.squares;
        let own = p.to_u8() & 8;
        let enemy = |s: usize| b[s] != 0 && b[s] & 8 != own;
        let mut add = |s: usize| out.insert(Square::from_index_unchecked(s));
        let (f, c) = (from.index(), p.color().index());
        match p.kind() {
            Kind::Chariot | Kind::Cannon => {
                let screens = usize::from(p.kind() == Kind::Cannon);
                for ray in &RAYS[f] {
                    let mut seen = 0;
                    for &s in &ray.sq[..ray.len as usize] {
                        let s = s as usize;
                        if b[s] != 0 {
                            if seen == screens {
                                if enemy(s) {
                                    add(s);
                                }
                                break;
                            }
                            seen += 1;
                        }
                    }
                }
            }
            Kind::Horse => HORSE_STEPS[f]
                .iter()
                .filter(|&(s, leg)| b[leg] == 0 && enemy(s))
                .for_each(|(s, _)| add(s)),
            Kind::Elephant => {
                ELEPHANT_STEPS[c][f]
                    .iter()
                    .filter(|&(s, eye)| b[eye] == 0 && enemy(s))
                    .for_each(|(s, _)| add(s));
            }
            Kind::Advisor => ADVISOR_STEPS[c][f]
                .iter()
                .filter(|&(s, _)| enemy(s))
                .for_each(|(s, _)| add(s)),
            Kind::General => KING_STEPS[c][f]
                .iter()
                .filter(|&(s, _)| enemy(s))
                .for_each(|(s, _)| add(s)),
            Kind::Soldier => PAWN_STEPS[c][f]
                .iter()
                .filter(|&(s, _)| enemy(s))
                .for_each(|(s, _)| add(s)),
        }
        out
    }

    /// `true` when the owner of the piece on `sq` could recapture there after the piece on `a`
    /// took it (legal but for the checks in `excused`).
    fn protected_against(&mut self, a: Square, sq: Square, excused: Bitboard) -> bool {
        let Some(victim) = self.piece(sq) else {
            return false;
        };
        let owner = victim.color();
        let m = Move::new(a, sq);
        let captured = self.play(m);
        let protected = attackers_on(&self.squares, sq, owner)
            .into_iter()
            .any(|r| self.capture_is_safe(r, sq, excused));
        self.unplay(m, captured);
        protected
    }

    /// `true` when the piece on `a` threatens the piece on `v` (see the module documentation).
    /// The caller knows that `a` attacks `v`.
    ///
    /// With `legal`, the position is taken as it is after the attacker's move, the victim's side
    /// to move: the attacker's capture must be legal, and the victim's side may defend (recapture,
    /// or take the attacker with a twin) even while in check, as long as its move exposes its
    /// general to nothing but the pieces already checking it. The check is answered first, so it
    /// does not make every guarded piece a target. Without `legal` (the position before the move,
    /// the attacker's side to move), the attacker's own pins and checks are ignored: resolving a
    /// check or breaking a pin of one's own does not create a new threat.
    fn threatens(&mut self, a: Square, v: Square, legal: bool) -> bool {
        let (Some(attacker), Some(victim)) = (self.piece(a), self.piece(v)) else {
            return false;
        };
        if !can_chase(attacker.kind()) || !can_be_chased(victim, v) {
            return false;
        }
        if legal && !self.capture_is_safe(a, v, Bitboard::EMPTY) {
            return false;
        }
        if outranks(victim.kind(), attacker.kind()) {
            return true;
        }
        let excused = if legal {
            self.checkers(victim.color())
        } else {
            Bitboard::EMPTY
        };
        if victim.kind() == attacker.kind()
            && self.attacks(v, a)
            && self.capture_is_safe(v, a, excused)
        {
            return false;
        }
        !self.protected_against(a, v, excused)
    }

    /// The enemy pieces that the move `m` (by the side whose piece stands on `m.from()`) chases,
    /// as squares after the move. Nothing for a move without a piece to make it.
    pub(crate) fn chased(&self, m: Move) -> Bitboard {
        let Some(mover) = self.piece(m.from()).map(Piece::color) else {
            return Bitboard::EMPTY;
        };
        let mut pieces = Bitboard::EMPTY;
        for a in Square::all() {
            if self.piece(a).is_some_and(|p| p.color() == mover) {
                pieces.insert(a);
            }
        }
        self.chased_by(m, pieces)
    }

    /// [`Board::chased`] given the squares of the mover's pieces before the move (`m.from()`
    /// among them), so that the board need not be searched for them.
    pub(crate) fn chased_by(&self, m: Move, mut pieces: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut before = self.clone();
        let mut after = self.clone();
        after.play(m);
        pieces.remove(m.from());
        pieces.insert(m.to());
        for a in pieces {
            if !after.piece(a).is_some_and(|p| can_chase(p.kind())) {
                continue;
            }
            let earlier = if a == m.to() { m.from() } else { a };
            for v in after.targets(a) {
                if out.contains(v) || !after.threatens(a, v, true) {
                    continue;
                }
                // Only a new threat is a chase: the same piece may not have threatened `v` before.
                // (`v` belongs to the side that did not move, so it stood on the same square.)
                if before.attacks(earlier, v) && before.threatens(earlier, v, false) {
                    continue;
                }
                out.insert(v);
            }
        }
        out
    }
}

/// `true` for the kinds whose attacks can be chases: not the general, not the soldier.
#[inline]
fn can_chase(kind: Kind) -> bool {
    !matches!(kind, Kind::General | Kind::Soldier)
}

/// `true` when `piece` on `sq` can be chased: not a general, not a soldier on its own half.
#[inline]
fn can_be_chased(piece: Piece, sq: Square) -> bool {
    match piece.kind() {
        Kind::General => false,
        Kind::Soldier => !sq.on_own_half(piece.color()),
        _ => true,
    }
}

/// `true` when an attack by `attacker` on `victim` counts whether or not the victim is protected:
/// a chariot attacked by a horse or cannon; a chariot, horse or cannon by an elephant or advisor.
#[inline]
fn outranks(victim: Kind, attacker: Kind) -> bool {
    match attacker {
        Kind::Horse | Kind::Cannon => victim == Kind::Chariot,
        Kind::Elephant | Kind::Advisor => {
            matches!(victim, Kind::Chariot | Kind::Horse | Kind::Cannon)
        }
        _ => false,
    }
}

/// The pieces that the legal move `m` chases, as squares after the move (see the module
/// documentation for what counts). Empty when `m` is not legal in `pos`.
#[must_use]
pub fn chased(pos: &Position, m: Move) -> Bitboard {
    if !pos.is_legal(m) {
        return Bitboard::EMPTY;
    }
    Board::of(pos).chased_by(m, pos.occupied_by(pos.turn()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn chased_names(fen: &str, m: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let m = Move::new(sq(&m[..2]), sq(&m[2..]));
        assert!(pos.is_legal(m), "{m} is not legal in {fen}");
        chased(&pos, m).into_iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn rook_attacking_an_unprotected_cannon_chases_it() {
        // The red rook moves from a0 to a7 and attacks the black cannon on e7, which nothing guards.
        assert_eq!(
            chased_names("4k4/9/4c4/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a7"),
            ["e7"]
        );
    }

    #[test]
    fn attacking_a_protected_piece_is_not_a_chase() {
        // The black horse on d7 is guarded by the advisor on e8.
        assert!(chased_names("3k5/4a4/3n5/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a7").is_empty());
        // With the black general on e9 the advisor may not leave e8 (the generals would face
        // each other), so the same attack is a chase.
        assert_eq!(
            chased_names("4k4/4a4/3n5/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a7"),
            ["d7"]
        );
    }

    #[test]
    fn horse_attacking_a_protected_rook_chases_it() {
        // The black rook on e7 is guarded by its general on e8, yet a horse's attack counts.
        assert_eq!(
            chased_names("9/4k4/4r4/9/9/1N7/9/9/9/3K5 w - - 0 1", "b4c6"),
            ["e7"]
        );
    }

    #[test]
    fn soldiers_attack_freely_and_unpromoted_soldiers_are_not_chased() {
        // A red soldier steps beside an unprotected black horse: soldiers may attack as they like.
        assert!(chased_names("3k5/9/9/9/3n5/2P6/9/9/9/4K4 w - - 0 1", "c4c5").is_empty());
        // A rook attacking a black soldier that has not crossed the river is no chase ...
        assert!(chased_names("3k5/9/9/p8/9/9/9/9/9/4K3R w - - 0 1", "i0i6").is_empty());
        // ... but once across (on rank 4, Red's half) the soldier can be chased.
        assert_eq!(
            chased_names("3k5/9/9/9/9/p8/9/9/9/4K3R w - - 0 1", "i0i4"),
            ["a4"]
        );
    }

    #[test]
    fn mutual_attack_of_twins_is_an_offer_unless_the_twin_is_pinned() {
        // The red rook a0-a7 attacks the black rook on e7, which can take back at once.
        assert!(chased_names("3k5/9/4r4/9/9/9/9/9/9/R4K3 w - - 0 1", "a0a7").is_empty());
        // Here the black rook is pinned against its general by the red rook on e0: it cannot
        // take back, so the attack is a chase.
        assert_eq!(
            chased_names("4k4/9/4r4/9/9/9/9/9/9/R3RK3 w - - 0 1", "a0a7"),
            ["e7"]
        );
    }

    #[test]
    fn a_pinned_attacker_does_not_threaten() {
        // The red horse f0-e2 blocks the black rook's check on the e-file; from e2 it attacks the
        // unprotected black cannon on d4 but cannot take it without exposing its general.
        assert!(chased_names("3k5/4r4/9/9/9/3c5/9/9/9/4KN3 w - - 0 1", "f0e2").is_empty());
    }

    #[test]
    fn discovered_attack_is_a_chase() {
        // The red horse leaves the a-file and uncovers the rook on a0 against the cannon on a9.
        assert_eq!(
            chased_names("c2k5/9/9/9/9/9/N8/9/9/R3K4 w - - 0 1", "a3b5"),
            ["a9"]
        );
    }

    #[test]
    fn blocking_the_protection_is_a_chase() {
        // The red rook on a7 attacks the cannon on c7, guarded by the rook on c9. The red horse
        // steps in between (b6-c8): the old attack now wins the cannon.
        assert_eq!(
            chased_names("2rk5/9/R1c6/1N7/9/9/9/9/9/4K4 w - - 0 1", "b6c8"),
            ["c7"]
        );
    }

    #[test]
    fn getting_out_of_check_does_not_renew_old_attacks() {
        // Black's rook on c7 attacks the unprotected cannon on c9, but Black is in check from the
        // cannon on e3 (screen e5). Blocking with b6-e6 makes the capture legal again; that is not
        // a new threat.
        assert!(chased_names("2C6/9/2r1k4/1c7/4N4/9/4C4/9/3K5/9 b - - 0 1", "b6e6").is_empty());
    }

    #[test]
    fn a_checking_move_does_not_unguard_pieces() {
        // The red rook a0-a9 checks the general on e9. The red horse on c4 has all along attacked
        // the black horse on d6, which the rook on h6 guards; the check does not stop Black from
        // recapturing once it is answered, so there is no chase.
        assert!(chased_names("4k4/9/9/3n3r1/9/2N6/9/9/9/R2K5 w - - 0 1", "a0a9").is_empty());
    }

    #[test]
    fn an_old_attack_is_not_a_new_chase() {
        // The rook on a7 already attacks the cannon on e7; moving the general creates nothing new.
        assert!(chased_names("4k4/9/R3c4/9/9/9/9/9/9/3K5 w - - 0 1", "d0d1").is_empty());
    }
}
