//! Move generation and legality.
//!
//! Moves are generated pseudo-legally from the tables in [`super::tables`] and filtered for
//! legality. Most moves cannot expose their own general, so each node first works out the few
//! that might (see `Position::legality`): when the side is in check, when the general moves, when
//! a pinned piece, a cannon's screen or a horse-leg blocker leaves, or when a piece arrives
//! between the general and an unscreened enemy cannon. Only those are tested, by looking outward
//! from the general for rooks, cannons, horses, soldiers and the other general on a view of the
//! board after the move (the attack test of [`super::attacks`]). In check, only moves that can
//! resolve the check are tested at all.

use super::attacks::{code, has, lines_from, may_open_lines};
use super::bitboard::{Bitboard, bit};
use super::mv::{Move, MoveList};
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::square::{Square, file_rank};
use super::tables::{
    ACROSS_RIVER, ADVISOR_STEPS, CAPTURE_ZONE, ELEPHANT_STEPS, FILE_A, FILE_I, HORSE_ATTACKER_SET,
    HORSE_ATTACKERS, HORSE_STEPS, KING_STEPS, PAWN_ATTACKERS, PAWN_STEPS, RAY_SETS, RAYS, REACH,
};

impl Position {
    /// The chariots, cannons and general of `color`: the pieces that attack along lines.
    #[inline(always)]
    fn sliders(&self, color: Color) -> u128 {
        self.pieces[Piece::new(color, Kind::Chariot).slot()].0
            | self.pieces[Piece::new(color, Kind::Cannon).slot()].0
            | self.pieces[Piece::new(color, Kind::General).slot()].0
    }

    /// Generates the pseudo-legal moves (legal but for exposing one's own general), appending to `list`.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        self.generate::<ALL>(list);
    }

    /// Generates the legal moves, appending to `list`.
    pub fn legal_moves(&self, list: &mut MoveList) {
        let start = list.len();
        self.generate::<ALL>(list);
        self.retain_legal(list, start);
    }

    /// Generates the legal captures (for quiescence search), appending to `list`.
    pub fn legal_captures(&self, list: &mut MoveList) {
        let start = list.len();
        self.generate::<CAPTURES>(list);
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
        self.generate::<ALL>(&mut list);
        let ctx = self.legality();
        list.iter().any(|&m| self.is_legal_with(m, &ctx))
    }

    /// `true` when `m` is a legal move here. Accepts any move value, however strange.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        !m.is_none() && self.is_pseudo_legal(m) && self.is_legal_pseudo(m)
    }

    /// `true` when the pseudo-legal move `m` does not leave the own general attacked, tested on
    /// the board after it. For one move this is cheaper than working out the
    /// [`Position::legality`] context, which pays off only over several.
    #[inline]
    pub fn is_legal_pseudo(&self, m: Move) -> bool {
        let ksq = self.kings[self.turn.index()];
        let k = if m.from() == ksq { m.to() } else { ksq };
        !self.exposed_after(m, k)
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
        let target = self.board[to.index()];
        if target != 0 && target & 8 == (self.turn as u8) << 3 {
            // An own piece on the target.
            return false;
        }
        // The piece's own rule, tested directly (the search asks this of killer and table
        // moves at most nodes; generating the piece's moves to look for `m` costs more).
        let us = self.turn.index();
        let (f, t) = (from.index(), to.index());
        match piece.kind() {
            Kind::Chariot | Kind::Cannon => {
                let between = if from.file() == to.file() {
                    let (lo, hi) = min_max(from.rank(), to.rank());
                    u32::from(self.files[usize::from(from.file())]) & between_bits(lo, hi)
                } else if from.rank() == to.rank() {
                    let (lo, hi) = min_max(from.file(), to.file());
                    u32::from(self.ranks[usize::from(from.rank())]) & between_bits(lo, hi)
                } else {
                    return false;
                };
                let screens = between.count_ones();
                if piece.kind() == Kind::Chariot || target == 0 {
                    screens == 0
                } else {
                    screens == 1
                }
            }
            Kind::Horse => HORSE_STEPS[f]
                .iter()
                .any(|(s, leg)| s == t && self.board[leg] == 0),
            Kind::Elephant => ELEPHANT_STEPS[us][f]
                .iter()
                .any(|(s, eye)| s == t && self.board[eye] == 0),
            Kind::Advisor => ADVISOR_STEPS[us][f].iter().any(|(s, _)| s == t),
            Kind::General => KING_STEPS[us][f].iter().any(|(s, _)| s == t),
            Kind::Soldier => PAWN_STEPS[us][f].iter().any(|(s, _)| s == t),
        }
    }

    /// `true` when `m` captures a piece.
    #[inline]
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != 0
    }

    /// What a move must avoid to keep the own general safe: the pieces whose departure may
    /// expose it (pinned by a rook or the other general, a screen of a cannon behind two
    /// screens, a horse's leg) and the squares where an arriving piece becomes a cannon's screen.
    ///
    /// With it, [`Position::is_legal_with`] tests one pseudo-legal move at a time, so that a
    /// search can generate pseudo-legal moves and test only those it gets to.
    pub fn legality(&self) -> Legality {
        self.legality_in_check(self.in_check())
    }

    /// [`Position::legality`] when it is known whether the side to move is in check.
    pub fn legality_in_check(&self, in_check: bool) -> Legality {
        debug_assert_eq!(in_check, self.in_check());
        let us = self.turn;
        let ksq = self.kings[us.index()];
        if in_check {
            return self.evasions(ksq);
        }
        let them = us.opponent();
        let b = &self.board;
        let own = (us as u8) << 3;
        let (rook, cannon, horse, king) = (
            code(them, Kind::Chariot),
            code(them, Kind::Cannon),
            code(them, Kind::Horse),
            code(them, Kind::General),
        );
        let (mut blockers, mut screens) = (0u128, 0u128);
        let k = ksq.index();
        let file_occ = u32::from(self.files[usize::from(ksq.file())]);
        let rank_occ = u32::from(self.ranks[usize::from(ksq.rank())]);
        // Only a line with an enemy chariot, cannon or general on it can pin or need a screen.
        let sliders = self.sliders(them);
        for (dir, line) in lines_from(k, file_occ, rank_occ).into_iter().enumerate() {
            if RAY_SETS[k][dir] & sliders == 0 {
                continue;
            }
            let mut found = [0usize; 3];
            let mut n = 0;
            for s in line.take(3) {
                found[n] = s;
                n += 1;
            }
            if n == 0 {
                continue;
            }
            let piece = |i: usize| if i < n { b[found[i]] } else { 0 };
            let mine = |i: usize| i < n && b[found[i]] & 8 == own;
            if piece(0) == cannon {
                // Nothing between the general and an enemy cannon: an arriving piece is a screen.
                let ray = &RAYS[k][dir];
                for &s in ray.sq[..ray.len as usize]
                    .iter()
                    .take_while(|&&s| usize::from(s) != found[0])
                {
                    screens |= bit(usize::from(s));
                }
            }
            if mine(0) && (piece(1) == rook || piece(1) == king) {
                blockers |= bit(found[0]);
            }
            if piece(2) == cannon {
                // Two screens: taking either of ours away leaves the cannon one screen.
                for (i, &s) in found.iter().enumerate().take(2) {
                    if mine(i) {
                        blockers |= bit(s);
                    }
                }
            }
        }
        let horses = self.pieces[Piece::new(them, Kind::Horse).slot()].0;
        if horses & HORSE_ATTACKER_SET[k] != 0 {
            for (h, leg) in HORSE_ATTACKERS[k].iter() {
                if b[h] == horse && b[leg] != 0 && b[leg] & 8 == own {
                    blockers |= bit(leg);
                }
            }
        }
        Legality {
            ksq,
            in_check: false,
            blockers,
            screens,
        }
    }

    /// The [`Legality`] of a position where the side to move is in check: what a move other
    /// than the general's must do to have a chance of resolving every check. It must arrive on
    /// a checker (taking it), between a checking chariot, cannon or general and ours (blocking,
    /// or giving a cannon a second screen), or on a checking horse's leg; or it must take a
    /// cannon's only screen away. A move that does none of these leaves some check standing,
    /// so only the others need the full test. Out of line: it serves the nodes in check only.
    #[inline(never)]
    fn evasions(&self, ksq: Square) -> Legality {
        let us = self.turn;
        let them = us.opponent();
        let b = &self.board;
        let k = ksq.index();
        let (rook, cannon, horse, pawn, king) = (
            code(them, Kind::Chariot),
            code(them, Kind::Cannon),
            code(them, Kind::Horse),
            code(them, Kind::Soldier),
            code(them, Kind::General),
        );
        let (mut from_set, mut to_set) = (0u128, 0u128);
        // The squares from the general up to and including `checker` along `dir`.
        let line_to = |dir: usize, checker: usize| {
            let ray = &RAYS[k][dir];
            let mut set = 0u128;
            for &s in &ray.sq[..ray.len as usize] {
                set |= bit(usize::from(s));
                if usize::from(s) == checker {
                    break;
                }
            }
            set
        };
        let file_occ = u32::from(self.files[usize::from(ksq.file())]);
        let rank_occ = u32::from(self.ranks[usize::from(ksq.rank())]);
        for (dir, mut line) in lines_from(k, file_occ, rank_occ).into_iter().enumerate() {
            let Some(first) = line.next() else {
                continue;
            };
            if b[first] == rook || b[first] == king {
                to_set |= line_to(dir, first);
            }
            if let Some(second) = line.next().filter(|&s| b[s] == cannon) {
                // Taking the screen or moving it away resolves this check too.
                to_set |= line_to(dir, second);
                from_set |= bit(first);
            }
        }
        for (h, leg) in HORSE_ATTACKERS[k].iter() {
            if b[h] == horse && b[leg] == 0 {
                to_set |= bit(h) | bit(leg);
            }
        }
        for (p, _) in PAWN_ATTACKERS[them.index()][k].iter() {
            if b[p] == pawn {
                to_set |= bit(p);
            }
        }
        Legality {
            ksq,
            in_check: true,
            blockers: from_set,
            screens: to_set,
        }
    }

    /// `true` when the pseudo-legal move `m` (generated in this position) does not leave the own
    /// general attacked, given the position's [`Position::legality`].
    #[inline]
    pub fn is_legal_with(&self, m: Move, ctx: &Legality) -> bool {
        let (from, to) = (m.from(), m.to());
        if from == ctx.ksq {
            return !self.exposed_after(m, to);
        }
        if ctx.in_check {
            if has(ctx.blockers, from.index()) || has(ctx.screens, to.index()) {
                return !self.exposed_after(m, ctx.ksq);
            }
            debug_assert!(
                self.exposed_after(m, ctx.ksq),
                "evasion filter dropped the legal {m} in {}",
                self.fen()
            );
            return false;
        }
        if ctx.surely_legal(m) {
            debug_assert!(
                !self.exposed_after(m, ctx.ksq),
                "fast legality test missed {m} in {}",
                self.fen()
            );
            return true;
        }
        !self.exposed_after(m, ctx.ksq)
    }

    /// `true` when the pseudo-legal move `m` surely does not expose the own general, the side
    /// to move not being in check: it is not the general's, leaves none of the points from
    /// which a line or a horse's leg onto the general may open, and arrives on neither of the
    /// general's lines (where it might screen an enemy cannon); see [`KING_EXPOSURE`]. Two mask
    /// tests, without the node's [`Legality`] context, which is more precise but dearer to
    /// work out; `false` says nothing.
    ///
    /// [`KING_EXPOSURE`]: super::tables::KING_EXPOSURE
    #[inline(always)]
    pub fn surely_keeps_general_safe(&self, m: Move) -> bool {
        let ksq = self.kings[self.turn.index()];
        let safe = m.from() != ksq && !may_open_lines(m, ksq);
        debug_assert!(
            !safe || self.in_check() || !self.exposed_after(m, ksq),
            "{m} exposes the general in {self}"
        );
        safe
    }

    #[inline]
    fn exposed_after(&self, m: Move, ksq: Square) -> bool {
        self.attacked_after(m, ksq, self.turn)
    }

    fn retain_legal(&self, list: &mut MoveList, start: usize) {
        let ctx = self.legality();
        let mut i = 0;
        list.retain(|m| {
            i += 1;
            i <= start || self.is_legal_with(m, &ctx)
        });
    }

    /// Keeps the legal moves of a list of pseudo-legal ones, in order.
    /// Removes the illegal moves from `list[start..]` (pseudo-legal moves), keeping the order.
    pub fn retain_legal_with(&self, list: &mut MoveList, start: usize, ctx: &Legality) {
        list.retain_from(start, |m| self.is_legal_with(m, ctx));
    }

    /// Generates the pseudo-legal captures, appending to `list`.
    // Kept out of line: inlined into the move picker it costs more than the call.
    #[inline(never)]
    pub fn pseudo_legal_captures(&self, list: &mut MoveList) {
        self.generate::<CAPTURES>(list);
    }

    /// Generates the pseudo-legal moves that capture nothing, appending to `list` (with
    /// [`Position::pseudo_legal_captures`], the search's staged generation: the quiet moves are
    /// only generated at nodes that no capture refutes).
    #[inline(never)]
    pub fn pseudo_legal_quiets(&self, list: &mut MoveList) {
        self.generate::<QUIETS>(list);
    }

    fn generate<const MODE: u8>(&self, list: &mut MoveList) {
        let us = self.turn;
        let enemies = self.occupied[us.opponent().index()].0;
        for kind in Kind::ALL {
            let piece = Piece::new(us, kind);
            let set = self.pieces[piece.slot()];
            if MODE == CAPTURES {
                // Captures only: most kinds have none, which one test of the whole kind finds.
                let zone = match kind {
                    Kind::Soldier => pawn_targets(us, set.0),
                    _ => CAPTURE_ZONE[us.index()][kind.index()],
                };
                if enemies & zone == 0 {
                    continue;
                }
            }
            let reach = &REACH[us.index()][kind.index()];
            for from in set {
                // Captures only: a piece with no enemy within its reach has none (a chariot or
                // cannon nearly always has one on its lines: not worth the test).
                if MODE == CAPTURES
                    && !matches!(kind, Kind::Chariot | Kind::Cannon)
                    && enemies & reach[from.index()] == 0
                {
                    continue;
                }
                self.piece_moves::<MODE>(piece, from, list);
            }
        }
    }

    #[inline(always)]
    fn piece_moves<const MODE: u8>(&self, piece: Piece, from: Square, list: &mut MoveList) {
        let b = &self.board;
        let us = piece.color();
        let own = (us as u8) << 3;
        // A target is open when it is empty (unless captures only) or holds an enemy piece
        // (unless quiet moves only).
        let open = |p: u8| match MODE {
            CAPTURES => p != 0 && p & 8 != own,
            QUIETS => p == 0,
            _ => p == 0 || p & 8 != own,
        };
        let f = from.index();
        let push = |list: &mut MoveList, to: usize| {
            list.push(Move::new(from, Square::from_index_unchecked(to)))
        };
        match piece.kind() {
            // Chariots and cannons: the occupied points of each line come from the position's
            // file and rank occupancy (the nearest one or two), the empty points before the
            // first occupant from the ray. Same order as walking the rays point by point.
            Kind::Chariot | Kind::Cannon => {
                let (ff, fr) = file_rank(f);
                let file_occ = u32::from(self.files[ff]);
                let rank_occ = u32::from(self.ranks[fr]);
                let rook = piece.kind() == Kind::Chariot;
                for (ray, mut occupants) in RAYS[f].iter().zip(lines_from(f, file_occ, rank_occ)) {
                    let first = occupants.next();
                    if MODE != CAPTURES {
                        let step = if ray.len > 0 {
                            (usize::from(ray.sq[0])).abs_diff(f)
                        } else {
                            1
                        };
                        let empty =
                            first.map_or(usize::from(ray.len), |t| t.abs_diff(f) / step - 1);
                        for &s in &ray.sq[..empty] {
                            push(list, usize::from(s));
                        }
                    }
                    if MODE != QUIETS {
                        let target = if rook {
                            first
                        } else {
                            first.and(occupants.next())
                        };
                        if let Some(t) = target
                            && b[t] & 8 != own
                        {
                            push(list, t);
                        }
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
            Kind::General => {
                for (to, _) in KING_STEPS[us.index()][f].iter() {
                    if open(b[to]) {
                        push(list, to);
                    }
                }
            }
            Kind::Soldier => {
                for (to, _) in PAWN_STEPS[us.index()][f].iter() {
                    if open(b[to]) {
                        push(list, to);
                    }
                }
            }
        }
    }
}

/// Every point that the soldiers `pawns` of `color` could step to: forward, and sideways once
/// across the river.
#[inline(always)]
fn pawn_targets(color: Color, pawns: u128) -> u128 {
    let forward = match color {
        Color::Red => pawns << 9,
        Color::Black => pawns >> 9,
    };
    let crossed = pawns & ACROSS_RIVER[color.index()];
    let sideways = ((crossed & !FILE_I) << 1) | ((crossed & !FILE_A) >> 1);
    (forward | sideways) & Bitboard::FULL.0
}

/// The smaller and the larger of two coordinates.
#[inline(always)]
fn min_max(a: u8, b: u8) -> (u8, u8) {
    if a < b { (a, b) } else { (b, a) }
}

/// The bits strictly between `lo` and `hi` (`lo < hi`) of a line's occupancy.
#[inline(always)]
fn between_bits(lo: u8, hi: u8) -> u32 {
    ((1u32 << hi) - 1) & !((2u32 << lo) - 1)
}

/// Generation modes of [`Position::generate`]: every pseudo-legal move, captures only, quiet
/// moves only.
const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

/// What [`Position::legality`] found: which moves may expose the own general, or when in check,
/// which moves may resolve the check.
#[derive(Clone, Copy, Debug)]
pub struct Legality {
    ksq: Square,
    /// The side to move is in check.
    in_check: bool,
    /// Not in check: squares whose piece may expose the general by leaving. In check: the
    /// cannon screens whose departure may resolve a check.
    blockers: u128,
    /// Not in check: squares where an arriving piece may become a cannon's screen. In check:
    /// squares where an arriving piece may resolve a check.
    screens: u128,
}

impl Legality {
    /// `true` when the pseudo-legal move `m`, not in check, is legal by the context alone: not
    /// the general's, leaving no blocking point, arriving on no screen point. `false` when the
    /// move needs [`Position::is_legal_with`].
    #[inline(always)]
    pub fn surely_legal(&self, m: Move) -> bool {
        !self.in_check
            && m.from() != self.ksq
            && !has(self.blockers, m.from().index())
            && !has(self.screens, m.to().index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{ROOTS, Rng, random_games};

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

    /// The soldiers' targets worked out for a whole set at once are those of each soldier.
    #[test]
    fn pawn_targets_are_the_soldiers_reach() {
        for color in Color::ALL {
            let mut all = 0;
            for (sq, &reach) in REACH[color.index()][Kind::Soldier.index()]
                .iter()
                .enumerate()
            {
                assert_eq!(pawn_targets(color, 1 << sq), reach, "{color:?} {sq}");
                all |= 1 << sq;
            }
            assert_eq!(
                pawn_targets(color, all),
                CAPTURE_ZONE[color.index()][Kind::Soldier.index()]
            );
        }
    }

    /// The staged generation's two halves are exactly the pseudo-legal moves, split by capture.
    #[test]
    fn captures_and_quiets_split_the_pseudo_legal_moves() {
        let mut rng = Rng::seeded(0x2545_f491_4f6c_dd1d);
        let positions = random_games(&ROOTS, 3, 200, &mut rng, |pos| {
            let (mut all, mut captures, mut quiets) =
                (MoveList::new(), MoveList::new(), MoveList::new());
            pos.pseudo_legal_moves(&mut all);
            pos.pseudo_legal_captures(&mut captures);
            pos.pseudo_legal_quiets(&mut quiets);
            assert!(captures.iter().all(|&m| pos.is_capture(m)), "{pos}");
            assert!(quiets.iter().all(|&m| !pos.is_capture(m)), "{pos}");
            let mut split: Vec<Move> = captures.iter().chain(quiets.iter()).copied().collect();
            let mut all = all.to_vec();
            split.sort();
            all.sort();
            assert_eq!(split, all, "{pos}");
        });
        assert!(positions > 300, "{positions}");
    }

    /// `is_pseudo_legal` accepts exactly the generated pseudo-legal moves, among all 8,100
    /// from-to pairs of every position of random games.
    #[test]
    fn pseudo_legality_test_agrees_with_generation() {
        let mut rng = Rng::seeded(0x0dd_ba11_cafe_f00d);
        let positions = random_games(&ROOTS, 6, 120, &mut rng, |pos| {
            let mut list = MoveList::new();
            pos.pseudo_legal_moves(&mut list);
            for from in Square::all() {
                for to in Square::all() {
                    let m = Move::new(from, to);
                    assert_eq!(pos.is_pseudo_legal(m), list.contains(m), "{m} in {pos}");
                }
            }
        });
        assert!(positions > 400, "{positions}");
    }
}
