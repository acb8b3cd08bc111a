//! Static exchange evaluation: the material balance of the captures and recaptures on one square.
//!
//! Xiangqi exchanges differ from chess in two ways that matter here: a cannon needs exactly one
//! screen, so removing a piece from a line can create or destroy cannon attacks, and a horse can
//! be blocked at its leg. The exchange is therefore simulated on a copy of the board (with its
//! file and rank occupancy), finding the least valuable attacker of the square afresh after every
//! capture, rather than from one precomputed attacker set. Pins and the flying general are
//! ignored, as usual for SEE.
//!
//! The attacker search goes by value, cheapest kind first, and stops at the first kind present:
//! soldiers, then advisors and elephants, horses, cannons, chariots and the general. Among
//! attackers of equal value the one on the lowest square is taken.

use chariot_rules::attacks::lines_from;
use chariot_rules::square::file_rank;
use chariot_rules::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKER_SET, HORSE_ATTACKERS, KING_STEPS,
    PAWN_ATTACKER_SET, PAWN_ATTACKERS, REACH,
};
use chariot_rules::{Color, Kind, Move, Piece, Position, Square};

/// Exchange values by kind (K A B N R C P). The general's value is large so that capturing with
/// it onto a defended square is always a losing exchange.
pub(crate) const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

/// Exchange values by raw piece byte (0 for an empty point).
pub(crate) const BYTE_VALUE: [i32; 16] = {
    let mut t = [0; 16];
    let mut b = 1;
    while b < 16 {
        if b & 7 != 0 {
            t[b] = SEE_VALUE[(b & 7) - 1];
        }
        b += 1;
    }
    t
};

#[inline]
fn value(byte: u8) -> i32 {
    BYTE_VALUE[usize::from(byte & 15)]
}

/// The board of an exchange in progress.
struct Exchange<'a> {
    board: [u8; 90],
    files: [u16; 9],
    ranks: [u16; 10],
    /// The position before the exchange: its piece sets, which only lose pieces during the
    /// exchange (a capturer arrives on the target, which attacks nothing), tell at once which
    /// kinds cannot have an attacker.
    pos: &'a Position,
}

impl Exchange<'_> {
    fn new(pos: &Position) -> Exchange<'_> {
        Exchange {
            board: *pos.board(),
            files: std::array::from_fn(|f| pos.file_occupancy(f)),
            ranks: std::array::from_fn(|r| pos.rank_occupancy(r)),
            pos,
        }
    }

    /// Moves the piece on `from` onto `to` (capturing whatever is there).
    #[inline]
    fn capture(&mut self, from: usize, to: usize) {
        self.board[to] = self.board[from];
        self.board[from] = 0;
        let ((ff, fr), (tf, tr)) = (file_rank(from), file_rank(to));
        self.files[ff] &= !(1 << fr);
        self.ranks[fr] &= !(1 << ff);
        self.files[tf] |= 1 << tr;
        self.ranks[tr] |= 1 << tf;
    }

    /// The square and value of `side`'s least valuable piece attacking `to`, the lowest square
    /// among equals.
    fn least_valuable(&self, to: usize, side: Color) -> Option<(usize, i32)> {
        let b = &self.board;
        let c = side.index();
        let code = |kind: Kind| Piece::new(side, kind).to_u8();
        // Whether a piece of `kind` may stand on one of the squares of `set`.
        let near = |kind: Kind, set: u128| self.pos.pieces(Piece::new(side, kind)).0 & set != 0;
        let reach = |kind: Kind| REACH[c][kind.index()][to];
        let value = |kind: Kind| SEE_VALUE[kind.index()];

        if near(Kind::Soldier, PAWN_ATTACKER_SET[c][to]) {
            let pawn = code(Kind::Soldier);
            let found = PAWN_ATTACKERS[c][to]
                .iter()
                .map(|(p, _)| p)
                .filter(|&p| b[p] == pawn)
                .min();
            if let Some(s) = found {
                return Some((s, value(Kind::Soldier)));
            }
        }
        // Advisors, elephants and the general step symmetrically inside their regions: they
        // attack `to` (when it lies in the region) from the squares they could step to from it.
        let target = Square::from_index_unchecked(to);
        let in_palace = target.in_palace(side);
        let mut guards = None::<usize>;
        if in_palace && near(Kind::Advisor, reach(Kind::Advisor)) {
            let advisor = code(Kind::Advisor);
            for (a, _) in ADVISOR_STEPS[c][to].iter() {
                if b[a] == advisor {
                    guards = Some(guards.map_or(a, |g| g.min(a)));
                }
            }
        }
        if target.on_own_half(side) && near(Kind::Elephant, reach(Kind::Elephant)) {
            let elephant = code(Kind::Elephant);
            for (e, eye) in ELEPHANT_STEPS[c][to].iter() {
                if b[e] == elephant && b[eye] == 0 {
                    guards = Some(guards.map_or(e, |g| g.min(e)));
                }
            }
        }
        if let Some(s) = guards {
            return Some((s, value(Kind::Advisor)));
        }
        if near(Kind::Horse, HORSE_ATTACKER_SET[to]) {
            let horse = code(Kind::Horse);
            let found = HORSE_ATTACKERS[to]
                .iter()
                .filter(|&(h, leg)| b[h] == horse && b[leg] == 0)
                .map(|(h, _)| h)
                .min();
            if let Some(s) = found {
                return Some((s, value(Kind::Horse)));
            }
        }
        let lines = reach(Kind::Chariot);
        if near(Kind::Chariot, lines) || near(Kind::Cannon, lines) {
            let (rook, cannon) = (code(Kind::Chariot), code(Kind::Cannon));
            let (tf, tr) = file_rank(to);
            let file_occ = u32::from(self.files[tf]);
            let rank_occ = u32::from(self.ranks[tr]);
            let (mut rooks, mut cannons) = (None::<usize>, None::<usize>);
            for mut line in lines_from(to, file_occ, rank_occ) {
                if let Some(first) = line.next() {
                    if b[first] == rook {
                        rooks = Some(rooks.map_or(first, |r| r.min(first)));
                    }
                    // Whatever the first piece, it can screen a cannon behind it.
                    if let Some(second) = line.next().filter(|&s| b[s] == cannon) {
                        cannons = Some(cannons.map_or(second, |r| r.min(second)));
                    }
                }
            }
            if let Some(s) = cannons {
                return Some((s, value(Kind::Cannon)));
            }
            if let Some(s) = rooks {
                return Some((s, value(Kind::Chariot)));
            }
        }
        if in_palace && near(Kind::General, reach(Kind::General)) {
            let king = code(Kind::General);
            let found = KING_STEPS[c][to]
                .iter()
                .map(|(k, _)| k)
                .filter(|&k| b[k] == king)
                .min();
            if let Some(s) = found {
                return Some((s, value(Kind::General)));
            }
        }
        None
    }
}

/// The material the side to move gains by `m` (a capture or not) when both sides then recapture
/// on the target square with their least valuable attacker for as long as it pays.
///
/// The exchange is followed only until its sign is decided (the classic swap-list cut-off), so
/// the sign is always that of the whole exchange but the value may differ from it (a losing
/// one can come out less negative); [`see_ge`] follows the exchange to the end.
// Out of line: only the shallow futility test asks for it, and inlined there it makes the
// search function larger for every node.
#[inline(never)]
pub(crate) fn see(pos: &Position, m: Move) -> i32 {
    let (from, to) = (m.from().index(), m.to().index());
    let mut board = Exchange::new(pos);
    let mut gain = [0i32; 34];
    let mut depth = 0;
    gain[0] = value(board.board[to]);
    let mut on_square = value(board.board[from]);
    board.capture(from, to);
    let mut side = pos.turn().opponent();
    while depth + 1 < gain.len() {
        let Some((sq, v)) = board.least_valuable(to, side) else {
            break;
        };
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        // Neither side can do better than stop here: the sequence is decided.
        if (-gain[depth - 1]).max(gain[depth]) < 0 {
            break;
        }
        on_square = v;
        board.capture(sq, to);
        side = side.opponent();
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

/// `true` when the exchange started by `m`, with both sides free to stop recapturing, gains at
/// least `threshold`. Each side's capture is only followed as long as the result could still
/// change (the method of Stockfish's `see_ge`). For `threshold` 0 it agrees with [`see`], which
/// stops once the sign is decided; for others it follows the exchange to the end. The general,
/// valued far above everything, recaptures only onto a square the other side no longer attacks,
/// as in [`see`].
pub(crate) fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from().index(), m.to().index());
    // What the side to move is ahead of the threshold if nothing recaptures.
    let mut swap = value(pos.board()[to]) - threshold;
    if swap < 0 {
        return false;
    }
    // Less what it loses if its capturer is taken at once.
    swap = value(pos.board()[from]) - swap;
    if swap <= 0 {
        return true;
    }
    let mut board = Exchange::new(pos);
    board.capture(from, to);
    let mut side = pos.turn().opponent();
    // Whether the side to move reaches the threshold if the exchange stops here.
    let mut result = true;
    while let Some((sq, v)) = board.least_valuable(to, side) {
        // `side` recaptures: the result turns unless the next recapture turns it back.
        result = !result;
        swap = v - swap;
        if swap < i32::from(result) {
            break;
        }
        board.capture(sq, to);
        side = side.opponent();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::attacks::attackers_on;
    use chariot_rules::testing::{Rng, random_games};

    /// The values of the pieces taken in the exchange started by `m`, in order, when each side
    /// keeps recapturing with its least valuable attacker (the lowest square among equals): the
    /// victim, the capturer, then each recapturer. The plain way: the full attacker set
    /// recomputed on a board copy after every capture.
    fn exchange_values(pos: &Position, m: Move) -> Vec<i32> {
        let mut board = *pos.board();
        let (from, to) = (m.from(), m.to());
        let mut values = vec![value(board[to.index()]), value(board[from.index()])];
        board[to.index()] = board[from.index()];
        board[from.index()] = 0;
        let mut side = pos.turn().opponent();
        while let Some((sq, v)) = attackers_on(&board, to, side)
            .into_iter()
            .map(|sq| (sq, value(board[sq.index()])))
            .min_by_key(|&(_, v)| v)
        {
            values.push(v);
            board[to.index()] = board[sq.index()];
            board[sq.index()] = 0;
            side = side.opponent();
        }
        values
    }

    /// The plain swap list over [`exchange_values`], with [`see`]'s cut-off once the sign is
    /// decided.
    fn plain_see(pos: &Position, m: Move) -> i32 {
        let values = exchange_values(pos, m);
        let mut gain = vec![values[0]];
        // The d-th recapture takes values[d]; it exists when a (d+1)-th piece follows.
        for d in 1..values.len() - 1 {
            gain.push(values[d] - gain[d - 1]);
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap_or_default();
            let prev = gain.len() - 1;
            gain[prev] = -(-gain[prev]).max(last);
        }
        gain[0]
    }

    /// The exchange followed to the end, each side free to stop capturing.
    fn full_see(pos: &Position, m: Move) -> i32 {
        let values = exchange_values(pos, m);
        // The side to move at each recapture takes the better of stopping (0) and capturing.
        let mut best = 0;
        for &v in values[1..values.len() - 1].iter().rev() {
            best = (v - best).max(0);
        }
        values[0] - best
    }

    /// Calls `check` with every pseudo-legal move of every position of random games (seeded
    /// with `seed`, `plies` long) from the bench positions; returns how many moves it saw.
    fn each_move(seed: u64, plies: usize, mut check: impl FnMut(&Position, Move)) -> usize {
        let mut rng = Rng::seeded(seed);
        let roots = crate::search::bench::POSITIONS;
        let mut seen = 0;
        random_games(&roots, roots.len(), plies, &mut rng, |pos| {
            let mut moves = chariot_rules::MoveList::new();
            pos.pseudo_legal_moves(&mut moves);
            for &m in moves.iter() {
                check(pos, m);
                seen += 1;
            }
        });
        seen
    }

    /// The fast exchange evaluation equals the plain one for every pseudo-legal move of the
    /// positions of random games from the bench positions.
    #[test]
    fn see_equals_the_plain_exchange() {
        let checked = each_move(0x0bad_5eed_1234_5678, 80, |pos, m| {
            assert_eq!(see(pos, m), plain_see(pos, m), "{m} in {pos}");
        });
        assert!(checked > 20_000, "{checked}");
    }

    /// `see_ge` answers `see(m) >= 0` exactly (the search asks it that), and `full_see(m) >= t`
    /// for every threshold, over the pseudo-legal moves of random games. (`see` stops an
    /// exchange as soon as its sign is decided, so its value can differ from the full one.)
    #[test]
    fn see_ge_agrees_with_the_exchange() {
        let moves = each_move(0x5ee6_e0de_cafe_1234, 60, |pos, m| {
            assert_eq!(see_ge(pos, m, 0), see(pos, m) >= 0, "{m} in {pos}");
            let v = full_see(pos, m);
            for t in [
                -900,
                -480,
                -360,
                -240,
                -120,
                -1,
                0,
                1,
                100,
                200,
                450,
                v - 1,
                v,
                v + 1,
            ] {
                assert_eq!(
                    see_ge(pos, m, t),
                    v >= t,
                    "{m} in {pos}: {v}, threshold {t}"
                );
            }
        });
        assert!(moves * 14 > 100_000, "{moves}");
    }

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos
            .legal_move_list()
            .iter()
            .copied()
            .find(|m| m.to_string() == mv)
            .unwrap();
        see(&pos, m)
    }

    #[test]
    fn undefended_piece_is_won() {
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/9/4RK3 w - - 0 1", "e0e5"), 400);
    }

    #[test]
    fn defended_piece_costs_the_rook() {
        // The horse on e5 is guarded by the chariot on a5.
        assert_eq!(
            see_of("3k5/9/9/9/r3n4/9/9/9/9/4RK3 w - - 0 1", "e0e5"),
            400 - 900
        );
    }

    #[test]
    fn cannon_recaptures_over_a_screen() {
        // The chariot takes the soldier on e4; the cannon on e8 takes back over the horse on e6.
        assert_eq!(
            see_of("3k5/4c4/9/4n4/9/4p4/9/9/9/4RK3 w - - 0 1", "e0e4"),
            100 - 900
        );
        // Without the screen the cannon cannot recapture.
        assert_eq!(
            see_of("3k5/4c4/9/9/9/4p4/9/9/9/4RK3 w - - 0 1", "e0e4"),
            100
        );
    }

    #[test]
    fn backing_cannon_deters_the_recapture() {
        // Rxe5 from i5: the black chariot on e8 could take back, but Red's cannon on e0 would
        // then take it over the soldier on e3, so Black declines and Red keeps the horse.
        assert_eq!(
            see_of("3k5/4r4/9/9/4n3R/9/4P4/9/9/4CK3 w - - 0 1", "i5e5"),
            400
        );
        // Without the screen the cannon is blind and the exchange costs the chariot.
        assert_eq!(
            see_of("3k5/4r4/9/9/4n3R/9/9/9/9/4CK3 w - - 0 1", "i5e5"),
            400 - 900
        );
    }
}
