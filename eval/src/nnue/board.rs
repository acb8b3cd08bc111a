//! The board as the networks read it: the pieces of a position, those after a move, and what a
//! move changes (the piece moved and the one captured), which is all an update of the first
//! layer's sums needs.

use chariot_rules::{Move, Piece, Position, Square};

/// The pieces of `pos` with their squares.
pub fn placed(pos: &Position) -> impl Iterator<Item = (Piece, Square)> + '_ {
    pos.occupied()
        .into_iter()
        .filter_map(|s| pos.piece_at(s).map(|p| (p, s)))
}

/// The pieces of `pos` with their squares once `m` is played (the moved piece on its new square,
/// a captured one gone), without playing it.
pub fn placed_after(pos: &Position, m: Move) -> impl Iterator<Item = (Piece, Square)> + '_ {
    let mover = pos.piece_at(m.from());
    let mut occupied = pos.occupied();
    occupied.remove(m.from());
    if mover.is_some() {
        occupied.insert(m.to());
    }
    occupied.into_iter().filter_map(move |s| {
        if s == m.to() {
            mover.map(|p| (p, s))
        } else {
            pos.piece_at(s).map(|p| (p, s))
        }
    })
}

/// What a move changes on the board, for updating a perspective's sums: the piece moved from
/// one square to another, and the piece captured on the second, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The piece that moves.
    pub mover: Piece,
    /// Where it stood.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// The piece it captures there.
    pub captured: Option<Piece>,
}

impl Change {
    /// What `m` changes in `pos` (before it is played); `None` when no piece stands on its
    /// first square.
    #[must_use]
    pub fn of(pos: &Position, m: Move) -> Option<Change> {
        Some(Change {
            mover: pos.piece_at(m.from())?,
            from: m.from(),
            to: m.to(),
            captured: pos.piece_at(m.to()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::random::Rng;
    use chariot_rules::testing::{ROOTS, random_games};

    #[test]
    fn the_pieces_after_a_move_are_those_of_the_position_it_makes() {
        let mut rng = Rng::seeded(12);
        random_games(&ROOTS, 10, 60, &mut rng, |pos| {
            for m in pos.legal_move_list().iter() {
                let mut after = pos.clone();
                after.make_move(*m);
                let mut expected: Vec<_> = placed(&after).collect();
                let mut got: Vec<_> = placed_after(pos, *m).collect();
                expected.sort_by_key(|&(_, s)| s.index());
                got.sort_by_key(|&(_, s)| s.index());
                assert_eq!(got, expected);
            }
        });
    }
}
