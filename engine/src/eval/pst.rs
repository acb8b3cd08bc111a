//! Piece-square tables: a bonus for each kind of piece on each point, from Red's side.
//!
//! Each table is written as the board looks from Red's chair: the first row is the enemy's back
//! rank (rank 9), the last row Red's own (rank 0), files a..i left to right. Black uses the
//! tables flipped top to bottom. All tables are left-right symmetric. Points a piece can never
//! reach (advisors outside the palace, soldiers behind their start) hold 0.
//!
//! What the numbers say, kind by kind:
//! - soldier: nothing before the river but a little for the central soldier; across the river it
//!   gains, the more the nearer to the enemy palace; on the last rank (老兵, only sideways) it is
//!   nearly worthless again. In the endgame an advanced soldier is worth more.
//! - horse: poor on its own back rank and on the edges, and worst in the centre of its own palace
//!   (窝心马); good in the centre and across the river; best on the 卧槽 points (c8, g8) and the
//!   points beside the enemy palace.
//! - chariot: wants to leave the corner; good on the rib files (d, f), the river bank and deep in
//!   the enemy camp.
//! - cannon: the central file on its own side (当头炮) and the enemy's back rank (沉底炮) are its
//!   classical posts; the enemy palace itself, where it needs screens it will not find, is poor.
//! - general: safest at home on e0; each step up costs in the midgame, less in the endgame.
//! - advisor and elephant: the central points (e1, e2) hold the palace together best.

use crate::rules::{Color, Kind, Square};

/// A table from Red's view, rank 9 first.
pub type Table = [i32; 90];

/// Soldier, midgame.
#[rustfmt::skip]
pub const PAWN_MG: Table = [
     0,  0,  0,  2,  4,  2,  0,  0,  0,
    10, 18, 30, 48, 56, 48, 30, 18, 10,
    10, 20, 32, 44, 50, 44, 32, 20, 10,
     8, 16, 26, 32, 36, 32, 26, 16,  8,
     4, 10, 14, 20, 22, 20, 14, 10,  4,
     0,  0,  4,  0, 10,  0,  4,  0,  0,
     0,  0, -2,  0,  4,  0, -2,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Soldier, endgame.
#[rustfmt::skip]
pub const PAWN_EG: Table = [
     0,  0,  4,  8, 10,  8,  4,  0,  0,
    20, 30, 45, 60, 70, 60, 45, 30, 20,
    20, 30, 45, 58, 64, 58, 45, 30, 20,
    18, 26, 36, 44, 48, 44, 36, 26, 18,
    12, 16, 24, 30, 32, 30, 24, 16, 12,
     0,  0,  6,  0, 10,  0,  6,  0,  0,
     0,  0,  0,  0,  4,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Horse, midgame.
#[rustfmt::skip]
pub const HORSE_MG: Table = [
     0, -4,  4, 10,  2, 10,  4, -4,  0,
     0, 10, 24, 14,  6, 14, 24, 10,  0,
     4, 12, 18, 22, 20, 22, 18, 12,  4,
     4, 14, 16, 22, 22, 22, 16, 14,  4,
     2, 10, 14, 18, 18, 18, 14, 10,  2,
     0,  6, 10, 12, 12, 12, 10,  6,  0,
    -2,  2,  6,  6,  8,  6,  6,  2, -2,
    -4,  0,  4,  2,  6,  2,  4,  0, -4,
    -6, -4,  0, -2, -8, -2,  0, -4, -6,
    -8, -8, -4, -6,-10, -6, -4, -8, -8,
];

/// Horse, endgame: centralisation matters more than the attacking posts.
#[rustfmt::skip]
pub const HORSE_EG: Table = [
    -6,  0,  4,  8,  6,  8,  4,  0, -6,
     0,  8, 16, 14, 12, 14, 16,  8,  0,
     2, 10, 16, 18, 18, 18, 16, 10,  2,
     2, 10, 14, 18, 20, 18, 14, 10,  2,
     0,  8, 12, 16, 16, 16, 12,  8,  0,
     0,  6, 10, 12, 12, 12, 10,  6,  0,
    -2,  2,  6,  8,  8,  8,  6,  2, -2,
    -4,  0,  4,  4,  4,  4,  4,  0, -4,
    -8, -4,  0,  0, -2,  0,  0, -4, -8,
   -10, -8, -4, -4, -6, -4, -4, -8,-10,
];

/// Chariot, midgame.
#[rustfmt::skip]
pub const ROOK_MG: Table = [
    12, 14, 12, 18, 16, 18, 12, 14, 12,
    14, 18, 16, 22, 24, 22, 16, 18, 14,
    10, 14, 12, 18, 18, 18, 12, 14, 10,
     8, 14, 12, 18, 18, 18, 12, 14,  8,
     8, 16, 14, 18, 18, 18, 14, 16,  8,
     6, 12, 10, 14, 14, 14, 10, 12,  6,
     2,  8,  6, 12, 10, 12,  6,  8,  2,
    -2,  6,  4, 10,  6, 10,  4,  6, -2,
     0,  4,  2,  8,  0,  8,  2,  4,  0,
    -6,  4,  0,  6,  0,  6,  0,  4, -6,
];

/// Chariot, endgame.
#[rustfmt::skip]
pub const ROOK_EG: Table = [
     8, 10, 10, 12, 12, 12, 10, 10,  8,
    10, 12, 12, 14, 14, 14, 12, 12, 10,
     8, 10, 10, 12, 12, 12, 10, 10,  8,
     6,  8,  8, 10, 10, 10,  8,  8,  6,
     6,  8,  8, 10, 10, 10,  8,  8,  6,
     4,  6,  6,  8,  8,  8,  6,  6,  4,
     2,  4,  4,  6,  6,  6,  4,  4,  2,
     0,  2,  2,  4,  4,  4,  2,  2,  0,
     0,  2,  2,  4,  2,  4,  2,  2,  0,
    -2,  0,  0,  2,  0,  2,  0,  0, -2,
];

/// Cannon, midgame.
#[rustfmt::skip]
pub const CANNON_MG: Table = [
     6,  4,  0, -4, -6, -4,  0,  4,  6,
     2,  2,  0, -4, -8, -4,  0,  2,  2,
     2,  2,  0, -2, -4, -2,  0,  2,  2,
     0,  2,  4,  2,  6,  2,  4,  2,  0,
     0,  0,  2,  2,  6,  2,  2,  0,  0,
    -2,  0,  4,  2,  6,  2,  4,  0, -2,
     0,  0,  0,  2,  6,  2,  0,  0,  0,
     2,  2,  0,  4, 10,  4,  0,  2,  2,
     0,  2,  2,  2,  4,  2,  2,  2,  0,
     0,  0,  2,  4,  2,  4,  2,  0,  0,
];

/// Cannon, endgame: it wants to stay back, near its own screens.
#[rustfmt::skip]
pub const CANNON_EG: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  2,  2,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  0,  2,  4,  2,  0,  0,  0,
     0,  0,  2,  2,  4,  2,  2,  0,  0,
     0,  2,  2,  4,  6,  4,  2,  2,  0,
     0,  2,  2,  4,  6,  4,  2,  2,  0,
     0,  0,  2,  4,  4,  4,  2,  0,  0,
];

/// General, midgame (only the palace is reachable).
#[rustfmt::skip]
pub const KING_MG: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,-24,-18,-24,  0,  0,  0,
     0,  0,  0,-10, -8,-10,  0,  0,  0,
     0,  0,  0, -2,  4, -2,  0,  0,  0,
];

/// General, endgame.
#[rustfmt::skip]
pub const KING_EG: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, -8, -6, -8,  0,  0,  0,
     0,  0,  0, -4,  0, -4,  0,  0,  0,
     0,  0,  0, -2,  2, -2,  0,  0,  0,
];

/// Advisor (midgame and endgame).
#[rustfmt::skip]
pub const ADVISOR: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0, -2,  0, -2,  0,  0,  0,
     0,  0,  0,  0,  4,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Elephant (midgame and endgame).
#[rustfmt::skip]
pub const ELEPHANT: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, -2,  0,  0,  0, -2,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
    -4,  0,  0,  0,  4,  0,  0,  0, -4,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// The (midgame, endgame) tables of a kind.
#[must_use]
pub const fn tables(kind: Kind) -> (&'static Table, &'static Table) {
    match kind {
        Kind::King => (&KING_MG, &KING_EG),
        Kind::Advisor => (&ADVISOR, &ADVISOR),
        Kind::Elephant => (&ELEPHANT, &ELEPHANT),
        Kind::Horse => (&HORSE_MG, &HORSE_EG),
        Kind::Rook => (&ROOK_MG, &ROOK_EG),
        Kind::Cannon => (&CANNON_MG, &CANNON_EG),
        Kind::Pawn => (&PAWN_MG, &PAWN_EG),
    }
}

/// The index into a table for a piece of `color` on `sq`.
#[inline]
#[must_use]
pub const fn index(color: Color, sq: Square) -> usize {
    let rank = sq.relative_rank(color) as usize;
    (9 - rank) * 9 + sq.file() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric() {
        for kind in Kind::ALL {
            let (mg, eg) = tables(kind);
            for t in [mg, eg] {
                for r in 0..10 {
                    for f in 0..9 {
                        assert_eq!(t[r * 9 + f], t[r * 9 + 8 - f], "{kind:?} row {r} file {f}");
                    }
                }
            }
        }
    }

    #[test]
    fn index_flips_for_black() {
        let e0: Square = "e0".parse().unwrap();
        let e9: Square = "e9".parse().unwrap();
        assert_eq!(index(Color::Red, e0), index(Color::Black, e9));
        assert_eq!(index(Color::Red, e0), 9 * 9 + 4);
    }
}
