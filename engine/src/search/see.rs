//! Static exchange evaluation: the material balance of the captures and recaptures on one square.
//!
//! Xiangqi exchanges differ from chess in two ways that matter here: a cannon needs exactly one
//! screen, so removing a piece from a line can create or destroy cannon attacks, and a horse can
//! be blocked at its leg. The exchange is therefore simulated on a copy of the board, recomputing
//! the attackers of the square after every capture, rather than from one precomputed attacker set.
//! Pins and the flying general are ignored, as usual for SEE.

use crate::rules::movegen::attackers_on;
use crate::rules::{Color, Move, Piece, Position, Square};

/// Exchange values by kind (K A B N R C P). The general's value is large so that capturing with
/// it onto a defended square is always a losing exchange.
pub(crate) const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 400, 900, 450, 100];

#[inline]
fn value(byte: u8) -> i32 {
    Piece::from_u8(byte).map_or(0, |p| SEE_VALUE[p.kind().index()])
}

/// The material the side to move gains by `m` (a capture or not) when both sides then recapture
/// on the target square with their least valuable attacker for as long as it pays.
pub(crate) fn see(pos: &Position, m: Move) -> i32 {
    let mut board = pos.board;
    let (from, to) = (m.from(), m.to());
    let mut gain = [0i32; 34];
    let mut depth = 0;
    gain[0] = value(board[to.index()]);
    let mut on_square = value(board[from.index()]);
    board[to.index()] = board[from.index()];
    board[from.index()] = 0;
    let mut side = pos.turn().opponent();
    while depth + 1 < gain.len() {
        let Some((sq, v)) = least_valuable(&board, to, side) else {
            break;
        };
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        // Neither side can do better than stop here: the sequence is decided.
        if (-gain[depth - 1]).max(gain[depth]) < 0 {
            break;
        }
        on_square = v;
        board[to.index()] = board[sq.index()];
        board[sq.index()] = 0;
        side = side.opponent();
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

fn least_valuable(board: &[u8; 90], to: Square, side: Color) -> Option<(Square, i32)> {
    attackers_on(board, to, side)
        .map(|sq| (sq, value(board[sq.index()])))
        .min_by_key(|&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

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
