//! Piece-square tables: a bonus for each kind of piece on each point, from Red's side.
//!
//! Each table is written as the board looks from Red's chair: the first row is the enemy's back
//! rank (rank 9), the last row Red's own (rank 0), files a..i left to right. Black uses the
//! tables flipped top to bottom. All tables are left-right symmetric. Points a piece can never
//! reach (advisors outside the palace, soldiers behind their start) hold 0.
//!
//! The numbers are Texel-tuned (`docs/tuning.md`): fitted, from hand-set tables with the same
//! ideas, to the results of about 28,000 master games, with a ridge penalty that keeps a cell near
//! its hand-set value unless the games insist, and within +-150. They record what went with
//! winning in those games, not why: a general that has left e0 in the midgame is usually one that
//! was driven out, so the general's table says as much about being attacked as about where the
//! general should go. Points on which fewer than 1,000 pieces stood in the training positions
//! (soldiers on the last rank, a horse or chariot in a palace centre) keep their hand-set values.
//!
//! What the numbers say, kind by kind (midgame unless said otherwise):
//! - soldier: before the river only the central soldier gains, the edge soldiers lose a little;
//!   across the river it gains much, most on files c..g and nearest the palace (up to 150 on d5
//!   and d8), little on the edges. In the endgame the soldier itself is worth more (137 against
//!   59) and its table is a little flatter.
//! - horse: poor at home (the two back ranks, down to -95); best across the river, on b6, d6, d5
//!   and the 卧槽 points c8 and g8; the endgame table is flatter.
//! - chariot: wants to leave the corner (a0 -85) and its own back ranks; best deep in the enemy
//!   camp; in the endgame it matters little where it stands.
//! - cannon: the enemy's back-rank corners (沉底炮, a9 +99) and the central file (当头炮: e4 to
//!   e6) are its posts; the points around and in the enemy palace are poor.
//! - general: every step off e0 costs in the midgame, a step sideways and up most (d1 -147);
//!   in the endgame only the top rank of the palace still costs.
//! - advisor: the palace centre e1 is best; elephant: the edges a2 and c4 are worst, e2 best.

use chariot_rules::{Color, Kind, Square};

/// A table from Red's view, rank 9 first.
pub type Table = [i32; 90];

/// Soldier, midgame.
#[rustfmt::skip]
pub const PAWN_MG: Table = [
     0,  0,  3,  2,  4,  2,  3,  0,  0,
    15, 71,133,150, 56,150,133, 71, 15,
     7, 85,122,138, 91,138,122, 85,  7,
    54, 52, 97,133,117,133, 97, 52, 54,
    15, 61, 79,150,137,150, 79, 61, 15,
   -19,  0, 14,  0, 38,  0, 14,  0,-19,
   -35,  0,-25,  0, 53,  0,-25,  0,-35,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Soldier, endgame.
#[rustfmt::skip]
pub const PAWN_EG: Table = [
     0,  0, -1,  8, 10,  8, -1,  0,  0,
    20, 71, 81,123, 70,123, 81, 71, 20,
    26, 64, 84,119,130,119, 84, 64, 26,
    25, 66, 74,103,102,103, 74, 66, 25,
    34, 57, 64,112,100,112, 64, 57, 34,
   -16,  0,  9,  0, 48,  0,  9,  0,-16,
   -18,  0,-18,  0, 28,  0,-18,  0,-18,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
];

/// Horse, midgame.
#[rustfmt::skip]
pub const HORSE_MG: Table = [
    10, -6, 18, 23,  2, 23, 18, -6, 10,
    11, 40,132, 52,  6, 52,132, 40, 11,
    61, 39, 27, 81, 57, 81, 27, 39, 61,
   -13,148, 43,140,  7,140, 43,148,-13,
   -10, 17, 43,127,103,127, 43, 17,-10,
    28, -5, 99, 42, 46, 42, 99, -5, 28,
   -10,-41, 10, 13, 57, 13, 10,-41,-10,
   -52,-24,-27, 49,-23, 49,-27,-24,-52,
   -95,-50,-53,-39,-35,-39,-53,-50,-95,
   -13,-95,-56,-95,-10,-95,-56,-95,-13,
];

/// Horse, endgame.
#[rustfmt::skip]
pub const HORSE_EG: Table = [
    15, -7, 21, 23,  6, 23, 21, -7, 15,
     3, 52, 80, 42, 12, 42, 80, 52,  3,
    63, 39, 14, 52, 64, 52, 14, 39, 63,
   -11, 85, 12, 55, 34, 55, 12, 85,-11,
     9, 37, 21, 38, 19, 38, 21, 37,  9,
    19, 14, 25, 39, 28, 39, 25, 14, 19,
     6, -2, -1, 18, 26, 18, -1, -2,  6,
   -18,-13,-12, 28, -1, 28,-12,-13,-18,
   -63,-27, -3,-15,-63,-15, -3,-27,-63,
   -23,-17,-59,-13, -6,-13,-59,-17,-23,
];

/// Chariot, midgame.
#[rustfmt::skip]
pub const ROOK_MG: Table = [
    37, 65, 34, 45, 30, 45, 34, 65, 37,
    36, 57, 39, 67, 46, 67, 39, 57, 36,
    18, 35, 13, 44, 51, 44, 13, 35, 18,
    14, 40, 63, 34, 30, 34, 63, 40, 14,
     8, 18, 31, 24, 35, 24, 31, 18,  8,
    11, 14, 36, 22, 16, 22, 36, 14, 11,
    12, 25, -2, 20, 39, 20, -2, 25, 12,
   -51, -6,-10, 15,-19, 15,-10, -6,-51,
   -50,-27, -2,-19,  0,-19, -2,-27,-50,
   -85, -9,-46,  1,  0,  1,-46, -9,-85,
];

/// Chariot, endgame.
#[rustfmt::skip]
pub const ROOK_EG: Table = [
    25, 40, 34, 28, 24, 28, 34, 40, 25,
    21, 53, 35, 41, 33, 41, 35, 53, 21,
    25, 17, 29, 32, 31, 32, 29, 17, 25,
    31, 32, 30, 25, 39, 25, 30, 32, 31,
    17, 12, 20,  4, 26,  4, 20, 12, 17,
   -14, 36,  4, 15, 34, 15,  4, 36,-14,
    12,  3, 46, 28, 52, 28, 46,  3, 12,
   -27,-24, -8,-18, -4,-18, -8,-24,-27,
   -39,-19, -3,-21,  2,-21, -3,-19,-39,
   -35,-37,-42,-27,  0,-27,-42,-37,-35,
];

/// Cannon, midgame.
#[rustfmt::skip]
pub const CANNON_MG: Table = [
    99, 84,-47,-51, -6,-51,-47, 84, 99,
    -4, -2,-33,-25,-26,-25,-33, -2, -4,
    18,-21,-34,-55,-27,-55,-34,-21, 18,
    10,-25,-25,-27, 42,-27,-25,-25, 10,
    29,-15,-17,-20, 81,-20,-17,-15, 29,
    -2,-36,-28,-38, 30,-38,-28,-36, -2,
   -28,-43,  1, -7, 31, -7,  1,-43,-28,
   -19,-26, 17, 16, 11, 16, 17,-26,-19,
     3, -3, 51,  8, 50,  8, 51, -3,  3,
   -13,-22, -9, 17,  8, 17, -9,-22,-13,
];

/// Cannon, endgame.
#[rustfmt::skip]
pub const CANNON_EG: Table = [
    -2,  9,-10,-37,  0,-37,-10,  9, -2,
    12, 12,-17,-26,-11,-26,-17, 12, 12,
     0,-24,-41,-46,-31,-46,-41,-24,  0,
    -2,  3,  7,  0, 33,  0,  7,  3, -2,
   -15,  2,  1, -9,-11, -9,  1,  2,-15,
   -11, 10, -1,-22, 11,-22, -1, 10,-11,
     1,-12,  0,-13, 12,-13,  0,-12,  1,
    14, -3, -5,-12, 59,-12, -5, -3, 14,
    12, -9,-24, -1, 16, -1,-24, -9, 12,
   -12,-31,-25, -5, 14, -5,-25,-31,-12,
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
     0,  0,  0,-140,-77,-140,  0,  0,  0,
     0,  0,  0,-147,-60,-147,  0,  0,  0,
     0,  0,  0,-36, 16,-36,  0,  0,  0,
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
     0,  0,  0,-77,-46,-77,  0,  0,  0,
     0,  0,  0,  6, 12,  6,  0,  0,  0,
     0,  0,  0, 10,  0, 10,  0,  0,  0,
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
     0,  0,  0, -3,  0, -3,  0,  0,  0,
     0,  0,  0,  0, 24,  0,  0,  0,  0,
     0,  0,  0,-11,  0,-11,  0,  0,  0,
];

/// Elephant (midgame and endgame).
#[rustfmt::skip]
pub const ELEPHANT: Table = [
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,-28,  0,  0,  0,-28,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
   -31,  0,  0,  0, 21,  0,  0,  0,-31,
     0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0, -6,  0,  0,  0, -6,  0,  0,
];

/// The (midgame, endgame) tables of a kind.
#[must_use]
pub const fn tables(kind: Kind) -> (&'static Table, &'static Table) {
    match kind {
        Kind::General => (&KING_MG, &KING_EG),
        Kind::Advisor => (&ADVISOR, &ADVISOR),
        Kind::Elephant => (&ELEPHANT, &ELEPHANT),
        Kind::Horse => (&HORSE_MG, &HORSE_EG),
        Kind::Chariot => (&ROOK_MG, &ROOK_EG),
        Kind::Cannon => (&CANNON_MG, &CANNON_EG),
        Kind::Soldier => (&PAWN_MG, &PAWN_EG),
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
