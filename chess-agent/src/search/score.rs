//! Search scores: centipawns, with mate scores counted in plies from the root.

/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 120;

/// Whether `score` announces a mate for either side.
#[must_use]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score relative to the root into one relative to the node at `ply`, to store in the
/// transposition table (a mate is stored as its distance from the node).
#[must_use]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[must_use]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// A score as UCI writes it: `cp N` or `mate N` (N in moves, negative when being mated).
#[must_use]
pub fn uci(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores() {
        assert_eq!(uci(MATE - 1), "mate 1");
        assert_eq!(uci(MATE - 3), "mate 2");
        assert_eq!(uci(-(MATE - 2)), "mate -1");
        assert_eq!(uci(35), "cp 35");
        assert_eq!(from_tt(to_tt(MATE - 5, 3), 3), MATE - 5);
    }
}
