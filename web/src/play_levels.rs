//! The playing levels a person chooses from: each a real limit on the engine.
//!
//! A level fixes how much the engine may search (nodes per move), how much it knows (evaluation
//! terms) and how much it varies its play (evaluation noise and the book choice's temperature).
//! Nodes rather than time, so that a level is as strong on a slow machine as on a fast one and
//! its measured strength holds everywhere: each level's Elo against the next, measured with
//! `chariot-league` by `scripts/level-ladder.sh`, is in `docs/STRENGTH.md`.

use std::time::Duration;

use chariot_engine::search::{Limits, Options};
use chariot_eval::levels::Level as Amount;

/// The number of levels, 1 (weakest) to [`LEVELS`].
pub const LEVELS: u8 = 10;

/// How one level limits the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Nodes per move.
    pub nodes: u64,
    /// Evaluation knowledge.
    pub knowledge: Amount,
    /// Evaluation noise and book variety.
    pub randomness: Amount,
}

/// The levels, weakest first: every one a node budget, so a level is as strong on any machine.
/// Evaluation noise weakens the lower levels (below a few hundred nodes more nodes add nothing:
/// measured), then the budgets double from level to level with no noise. The steps were set
/// from measured matches (`docs/STRENGTH.md`).
const TABLE: [LevelSpec; LEVELS as usize] = [
    spec(300, Amount::Small, Amount::Large),
    spec(1_000, Amount::Medium, Amount::Medium),
    spec(2_000, Amount::Medium, Amount::Small),
    spec(4_000, Amount::Large, Amount::Small),
    spec(8_000, Amount::Large, Amount::Tiny),
    spec(16_000, Amount::Large, Amount::None),
    spec(32_000, Amount::Large, Amount::None),
    spec(64_000, Amount::Large, Amount::None),
    spec(128_000, Amount::Large, Amount::None),
    spec(300_000, Amount::Large, Amount::None),
];

const fn spec(nodes: u64, knowledge: Amount, randomness: Amount) -> LevelSpec {
    LevelSpec {
        nodes,
        knowledge,
        randomness,
    }
}

impl LevelSpec {
    /// The level `n` (1 to [`LEVELS`]), or `None` outside that range.
    #[must_use]
    pub fn of(n: u8) -> Option<LevelSpec> {
        TABLE.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The engine options of this level on top of `base` (hash size and threads stay the
    /// server's).
    #[must_use]
    pub fn options(&self, base: &Options) -> Options {
        Options {
            knowledge: self.knowledge,
            randomness: self.randomness,
            multipv: 1,
            ..base.clone()
        }
    }

    /// The search limits of one move, never longer than `cap`.
    #[must_use]
    pub fn limits(&self, cap: Duration) -> Limits {
        Limits {
            nodes: Some(self.nodes),
            movetime: Some(cap),
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger_and_stay_in_range() {
        assert!(LevelSpec::of(0).is_none() && LevelSpec::of(LEVELS + 1).is_none());
        let mut last_nodes = 0;
        for n in 1..=LEVELS {
            let l = LevelSpec::of(n).unwrap();
            let nodes = l.nodes;
            assert!(nodes > last_nodes, "level {n}");
            last_nodes = nodes;
        }
        let top = LevelSpec::of(LEVELS)
            .unwrap()
            .limits(Duration::from_secs(1));
        assert_eq!(
            (top.nodes, top.movetime),
            (Some(300_000), Some(Duration::from_secs(1)))
        );
        assert_eq!(
            LevelSpec::of(1)
                .unwrap()
                .options(&Options::default())
                .randomness,
            Amount::Large
        );
    }
}
