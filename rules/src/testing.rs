//! Test helpers: random games from given positions (drawn with the seeded [`Rng`]), so that
//! the tests of this crate and of every crate above it walk through many positions.

use super::{Position, START_FEN};

/// Positions that start the random games of [`random_games`] when a test has no roots of its
/// own: the start position, a middlegame with open lines and an endgame.
pub const ROOTS: [&str; 3] = [
    START_FEN,
    "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
];

pub use crate::random::Rng;

/// Plays `games` random games of at most `plies` plies, game `i` from `roots[i % roots.len()]`,
/// calling `visit` with every position reached before its move is chosen (the root included,
/// the final position too when the game ends early for want of a legal move). Returns the
/// number of positions visited.
pub fn random_games(
    roots: &[&str],
    games: usize,
    plies: usize,
    rng: &mut Rng,
    mut visit: impl FnMut(&Position),
) -> usize {
    let mut visited = 0;
    for game in 0..games {
        let root = roots[game % roots.len()];
        let mut pos = Position::from_fen(root).unwrap_or_else(|e| panic!("{root}: {e}"));
        for _ in 0..plies {
            visit(&pos);
            visited += 1;
            let legal = pos.legal_move_list();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[rng.below(legal.len())]);
        }
    }
    visited
}
