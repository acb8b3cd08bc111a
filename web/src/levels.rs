//! The playing levels a person chooses from: each a real limit on the engine.
//!
//! A level fixes how much the engine may search (nodes, or a time for the strongest), how much
//! it knows (evaluation terms) and how much it varies its play (evaluation noise and the book
//! choice's temperature). The table is a first setting; issue 15 asks for each level's strength
//! to be measured with `chariot-league` against the next (`docs/STRENGTH.md`), and the limits
//! will move with those measurements.

use std::time::Duration;

use chariot::levels::Level as Amount;
use chariot::search::{Limits, Options};

/// The number of levels, 1 (weakest) to [`LEVELS`].
pub const LEVELS: u8 = 8;

/// How one level limits the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Nodes per move, or `None` to search for `time`.
    pub nodes: Option<u64>,
    /// Time per move when `nodes` is `None`.
    pub time: Duration,
    /// Evaluation knowledge.
    pub knowledge: Amount,
    /// Evaluation noise and book variety.
    pub randomness: Amount,
}

/// The levels, weakest first.
const TABLE: [LevelSpec; LEVELS as usize] = [
    spec(Some(150), Amount::Small, Amount::Huge),
    spec(Some(1_000), Amount::Medium, Amount::Large),
    spec(Some(5_000), Amount::Large, Amount::Medium),
    spec(Some(20_000), Amount::Large, Amount::Small),
    spec(Some(80_000), Amount::Large, Amount::Tiny),
    spec(Some(300_000), Amount::Large, Amount::None),
    LevelSpec {
        nodes: None,
        time: Duration::from_millis(1_000),
        knowledge: Amount::Large,
        randomness: Amount::None,
    },
    LevelSpec {
        nodes: None,
        time: Duration::from_millis(3_000),
        knowledge: Amount::Large,
        randomness: Amount::None,
    },
];

const fn spec(nodes: Option<u64>, knowledge: Amount, randomness: Amount) -> LevelSpec {
    LevelSpec {
        nodes,
        time: Duration::ZERO,
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
        match self.nodes {
            Some(n) => Limits {
                nodes: Some(n),
                movetime: Some(cap),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(self.time.min(cap)),
                ..Limits::default()
            },
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
        for n in 1..=6 {
            let l = LevelSpec::of(n).unwrap();
            let nodes = l.nodes.unwrap();
            assert!(nodes > last_nodes, "level {n}");
            last_nodes = nodes;
        }
        let l8 = LevelSpec::of(8).unwrap();
        assert_eq!(
            l8.limits(Duration::from_secs(1)).movetime,
            Some(Duration::from_secs(1))
        );
        assert_eq!(
            LevelSpec::of(1)
                .unwrap()
                .options(&Options::default())
                .randomness,
            Amount::Huge
        );
    }
}
