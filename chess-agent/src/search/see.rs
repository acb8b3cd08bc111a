//! Static exchange evaluation: the material balance of the capture sequence on one square, each
//! side recapturing with its least valuable attacker and free to stop.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role};

use crate::eval::value;

/// The expected material gain of `m` for the side making it (0 for quiet moves that are safe).
#[must_use]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (Some(from), to) = (m.from(), m.to()) else {
        return 0;
    };
    if m.is_castle() {
        return 0;
    }
    let board = pos.board();
    let mut occupied = board.occupied();
    let mut gains = [0i32; 34];
    gains[0] = m.capture().map_or(0, value);
    let mut on_square = m.promotion().unwrap_or(m.role());
    if let Some(p) = m.promotion() {
        gains[0] += value(p) - value(Role::Pawn);
    }
    occupied.discard(from);
    if m.is_en_passant() {
        let victim = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied.discard(victim);
    }
    let mut side = !pos.turn();
    let mut depth = 0;
    loop {
        let attackers = attackers_to(board, to, occupied) & occupied & board.by_color(side);
        let Some((sq, role)) = least_valuable(board, attackers) else {
            break;
        };
        depth += 1;
        gains[depth] = value(on_square) - gains[depth - 1];
        if role == Role::King
            && (attackers_to(board, to, occupied.without(sq)) & occupied & board.by_color(!side))
                .any()
        {
            // The king may not recapture into a defended square.
            depth -= 1;
            break;
        }
        if depth >= gains.len() - 1 {
            break;
        }
        on_square = role;
        occupied.discard(sq);
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

fn attackers_to(board: &Board, sq: shakmaty::Square, occupied: Bitboard) -> Bitboard {
    (attacks::rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(sq, occupied) & board.bishops_and_queens())
        | (attacks::knight_attacks(sq) & board.knights())
        | (attacks::king_attacks(sq) & board.kings())
        | (attacks::pawn_attacks(Color::White, sq) & board.pawns() & board.black())
        | (attacks::pawn_attacks(Color::Black, sq) & board.pawns() & board.white())
}

fn least_valuable(board: &Board, attackers: Bitboard) -> Option<(shakmaty::Square, Role)> {
    Role::ALL.iter().find_map(|&role| {
        (attackers & board.by_role(role))
            .first()
            .map(|sq| (sq, role))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn run(fen: &str, from: u8, to: u8) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.from().map(|s| s as u8) == Some(from) && m.to() as u8 == to)
            .unwrap();
        see(&pos, m)
    }

    #[test]
    fn exchanges() {
        // Rxe5 wins a free pawn.
        assert_eq!(
            run("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", 4, 36),
            100
        );
        // Qxd5 defended by a pawn loses the queen for a pawn... minus.
        assert!(run("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", 3, 35) < 0);
        // Nxe5 with the knight defended, pawn defended by a bishop: N for P then B for N.
        let v = run(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            19,
            36,
        );
        assert!(v < 0, "{v}");
    }
}
