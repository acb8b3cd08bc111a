//! The network's inputs: one feature per piece, seen from each side's perspective.
//!
//! From a perspective, a piece is "own" or "enemy" and stands on a square counted from that
//! side's own back rank: for Black the board is reflected top to bottom, so that both sides see
//! their own general in the lower palace. Feature index: `relation × 630 + kind × 90 + square`
//! (relation 0 own, 1 enemy; kind in `Kind::ALL` order; square index `file + 9 × rank`), 1,260
//! in all. A position has at most 32 active features per perspective.

use chariot_rules::{Color, Piece, Square};

/// Inputs per perspective.
pub const INPUTS: usize = 2 * 7 * 90;

/// The feature of `piece` on `sq` seen from `perspective`.
#[inline]
#[must_use]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relation = usize::from(piece.color() != perspective);
    let sq = if perspective.is_red() { sq } else { sq.flip() };
    relation * 630 + piece.kind().index() * 90 + sq.index()
}

/// The active features of the pieces `placed` (piece, square) from both perspectives:
/// `(red's, black's)`.
pub fn active(placed: impl Iterator<Item = (Piece, Square)>) -> (Vec<usize>, Vec<usize>) {
    let mut red = Vec::with_capacity(32);
    let mut black = Vec::with_capacity(32);
    for (piece, sq) in placed {
        red.push(index(Color::Red, piece, sq));
        black.push(index(Color::Black, piece, sq));
    }
    (red, black)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::{Kind, Position};

    #[test]
    fn the_start_position_looks_the_same_from_both_sides() {
        let pos = Position::start();
        let placed = Square::all().filter_map(|s| pos.piece_at(s).map(|p| (p, s)));
        let (mut red, mut black) = active(placed);
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(
            red, black,
            "the start position is symmetric between the colours"
        );
        assert_eq!(red.len(), 32);
        assert!(red.iter().all(|&f| f < INPUTS));
    }

    #[test]
    fn own_general_is_in_the_lower_palace_for_both() {
        let red_general = Piece::new(Color::Red, Kind::ALL[0]);
        let black_general = Piece::new(Color::Black, Kind::ALL[0]);
        let e0 = Square::new(4, 0);
        let e9 = Square::new(4, 9);
        assert_eq!(
            index(Color::Red, red_general, e0),
            index(Color::Black, black_general, e9)
        );
        assert_eq!(
            index(Color::Red, black_general, e9),
            index(Color::Black, red_general, e0)
        );
    }
}
