//! Scores: the public [`Score`] and [`Bound`], and the search's internal integer scale.
//!
//! Inside the search a score is a plain `i32` in centipawns from the side to move's view. Mates
//! are encoded as `MATE - plies` (the side to move mates) or `-MATE + plies` (it is mated), where
//! `plies` counts from the root, so that shorter mates score higher. The transposition table
//! stores mate scores relative to the node instead ([`to_tt`], [`from_tt`]), because the same
//! position can be reached at different distances from the root.

use std::fmt;

/// The deepest ply the search ever reaches (the stack size of every per-ply table).
pub const MAX_PLY: usize = 128;

/// A mate at the root: the largest score short of infinity.
pub const MATE: i32 = 32_000;
/// Scores at or beyond this magnitude are mates (`MATE - MAX_PLY`).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score: the initial window bounds.
pub const INFINITE: i32 = MATE + 1;
/// Mated at `ply` plies from the root.
#[inline]
#[must_use]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Giving mate at `ply` plies from the root.
#[inline]
#[must_use]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// `true` when `v` encodes a mate (for either side).
#[inline]
#[must_use]
pub const fn is_mate(v: i32) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// The score of a position an endgame table says is won, less the plies from the root to mate
/// (at most [`TB_SPAN`]): below every mate the search proves itself, above every evaluation, and
/// quicker table wins score higher.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// How far below [`TB_WIN`] table scores reach.
pub const TB_SPAN: i32 = 1000;
/// Scores at least this large (in absolute value) are table wins or mates: they depend on the
/// ply and are stored in the table relative to the node.
pub const TB_BOUND: i32 = TB_WIN - TB_SPAN;

/// The part of [`TB_SPAN`] at its bottom that holds wins by the perpetual-check rule.
pub const TB_RULE_SPAN: i32 = 200;

/// The score of a table win `plies` plies from the root to mate (a loss is its negation).
/// Distances beyond `TB_SPAN - TB_RULE_SPAN` all score alike, above every rule win.
#[inline]
#[must_use]
pub const fn tb_win_in(plies: u32) -> i32 {
    let cap = TB_SPAN - TB_RULE_SPAN;
    let p = if plies as i64 > cap as i64 {
        cap
    } else {
        plies as i32
    };
    TB_WIN - p
}

/// The score of a position `ply` plies from the root that a table says is won by the
/// perpetual-check rule (the opponent can avoid mate only by checking forever): a win, but no
/// mate, so below every table win by mate; a quicker way there scores higher. A loss by the
/// rule is its negation.
#[inline]
#[must_use]
pub const fn tb_rule_win_at(ply: usize) -> i32 {
    let p = if ply as i64 >= TB_RULE_SPAN as i64 {
        TB_RULE_SPAN - 1
    } else {
        ply as i32
    };
    TB_WIN - (TB_SPAN - TB_RULE_SPAN) - 1 - p
}

/// Converts a root-relative score to the node-relative form stored in the table.
#[inline]
#[must_use]
pub const fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= TB_BOUND {
        v + ply as i32
    } else if v <= -TB_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Converts a stored node-relative score back to root-relative at `ply`.
#[inline]
#[must_use]
pub const fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= TB_BOUND {
        v - ply as i32
    } else if v <= -TB_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// A search result's value, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (a chariot is worth about 900, a soldier before the river 60 to 90).
    Cp(i32),
    /// Plies to mate: positive when the side to move mates, negative when it is mated.
    /// `Mate(0)` means the side to move is mated already (it has no legal move).
    Mate(i32),
}

impl Score {
    /// The public form of an internal (root-relative) score.
    #[must_use]
    pub const fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate(MATE - v)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v))
        } else {
            Score::Cp(v)
        }
    }

    /// The internal integer form (the inverse of [`Score::from_internal`]).
    #[must_use]
    pub const fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(p) if p > 0 => MATE - p,
            Score::Mate(p) => -MATE - p,
        }
    }

    /// Moves (not plies) to mate as UCI and UCCI print them: `Mate(3)` plies is mate in 2 moves.
    /// `None` for centipawn scores.
    #[must_use]
    pub const fn mate_moves(self) -> Option<i32> {
        match self {
            Score::Cp(_) => None,
            Score::Mate(p) if p > 0 => Some((p + 1) / 2),
            Score::Mate(p) => Some(p / 2),
        }
    }
}

impl fmt::Display for Score {
    /// `cp 35` or `mate 3` / `mate -2` (in moves), as in UCI `info score`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self, self.mate_moves()) {
            (Score::Cp(cp), _) => write!(f, "cp {cp}"),
            (Score::Mate(_), Some(m)) => write!(f, "mate {m}"),
            (Score::Mate(p), None) => write!(f, "mate {p}"),
        }
    }
}

/// Whether a score is exact or only a bound (the search failed high or low).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// The true value.
    #[default]
    Exact,
    /// The true value is at least this (fail high; UCI `lowerbound`).
    Lower,
    /// The true value is at most this (fail low; UCI `upperbound`).
    Upper,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_round_trip() {
        for v in [
            0,
            35,
            -120,
            mate_in(1),
            mate_in(7),
            mated_in(0),
            mated_in(4),
        ] {
            assert_eq!(Score::from_internal(v).to_internal(), v);
        }
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(3));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-2));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::Mate(3).mate_moves(), Some(2));
        assert_eq!(Score::Mate(-2).mate_moves(), Some(-1));
        assert_eq!(Score::Mate(3).to_string(), "mate 2");
    }

    #[test]
    fn rule_wins_score_below_table_mates_and_above_evaluations() {
        assert!(tb_rule_win_at(0) < tb_win_in(100_000));
        assert!(tb_rule_win_at(3) < tb_rule_win_at(2));
        assert!(tb_rule_win_at(100_000) >= TB_BOUND);
        assert!(!is_mate(tb_rule_win_at(0)));
        assert_eq!(from_tt(to_tt(tb_rule_win_at(9), 5), 5), tb_rule_win_at(9));
    }

    #[test]
    fn tt_conversion_round_trips() {
        for v in [12, mate_in(9), mated_in(6)] {
            assert_eq!(from_tt(to_tt(v, 5), 5), v);
        }
        // A mate 3 plies below a node at ply 4 is stored as mate in 3 from that node.
        assert_eq!(to_tt(mate_in(7), 4), mate_in(3));
    }
}
