//! The playing levels a person chooses from: each a real limit on the engine, labelled with its
//! measured strength.
//!
//! A level fixes how much the engine may search (nodes per move), how much it knows (evaluation
//! terms), how much it varies its play (evaluation noise and the book choice's temperature) and,
//! at the bottom of the ladder, how often it overlooks a capture (the engine's `blunders`
//! option: a beginner does not see that a piece hangs). Nodes rather than time, so that a level
//! is as strong on a slow machine as on a fast one and its measured strength holds everywhere.
//!
//! Each level's Elo is measured by `scripts/level-ladder.sh`: the levels and the anchor,
//! [`ANCHOR`], play one another with `chariot-league`, and `chariot-league --ratings` fits all
//! the games jointly; `docs/STRENGTH.md` has the table and how to reproduce it.

use std::time::Duration;

use chariot_engine::search::{Limits, Options};
use chariot_eval::levels::Level as Amount;

/// The number of levels, 1 (weakest) to [`LEVELS`].
pub const LEVELS: u8 = 10;

/// The most nodes a hint searches: well above the strongest level's budget (a hint should be
/// better than the opponent's move), and within a second on a slow machine.
pub const HINT_NODES: u64 = 300_000;

/// How one level limits the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Nodes per move: the search never spends more.
    pub nodes: u64,
    /// Evaluation knowledge.
    pub knowledge: Amount,
    /// Evaluation noise and book variety.
    pub randomness: Amount,
    /// Captures overlooked in the search.
    pub blunders: Amount,
}

/// A level's measured strength: its Elo on the scale that puts [`ANCHOR`] at its rating, with
/// the 95% interval of the joint fit (against the pool's average) and the games it rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The rating.
    pub elo: i32,
    /// The lower end of the 95% interval.
    pub lower: i32,
    /// The upper end of the 95% interval.
    pub upper: i32,
    /// The games the level played in the measurement.
    pub games: u32,
}

/// The engine the levels' Elo scale is anchored on, at a fixed node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The engine as its package names it.
    pub engine: &'static str,
    /// Its nodes per move.
    pub nodes: u64,
    /// Its rating on the scale, by definition.
    pub elo: i32,
}

/// The anchor of the scale: Debian's Fairy-Stockfish at a fixed node budget.
pub const ANCHOR: Anchor = Anchor {
    engine: "Fairy-Stockfish 11.1 (Debian)",
    nodes: 1_000,
    elo: 1_500,
};

/// The levels, weakest first. The bottom five overlook captures (a third of them at level 1,
/// half as many at each level above) and add noise to searches of a few hundred nodes, as a
/// beginner hangs pieces and misses mates; knowledge, then nodes take over above them (with
/// the network, about 1.75 times the nodes is worth 200 Elo here). Each was set from measured
/// matches to 160 to 270 Elo above the one below (`docs/STRENGTH.md`).
const TABLE: [LevelSpec; LEVELS as usize] = [
    spec(100, Amount::Small, Amount::Huge, Amount::Huge),
    spec(150, Amount::Small, Amount::Huge, Amount::Large),
    spec(250, Amount::Small, Amount::Huge, Amount::Medium),
    spec(600, Amount::Medium, Amount::Medium, Amount::Small),
    spec(1_000, Amount::Medium, Amount::Small, Amount::Tiny),
    spec(1_500, Amount::Medium, Amount::Small, Amount::None),
    spec(2_000, Amount::Large, Amount::None, Amount::None),
    spec(4_000, Amount::Large, Amount::None, Amount::None),
    spec(7_000, Amount::Large, Amount::None, Amount::None),
    spec(12_000, Amount::Large, Amount::None, Amount::None),
];

/// The levels' measured strength, weakest first: 2,580 games of `scripts/level-ladder.sh`
/// (`data/levels`), fitted jointly; the script prints these lines.
const STRENGTH: [Strength; LEVELS as usize] = [
    measured(455, 368, 542, 260),
    measured(727, 656, 797, 460),
    measured(944, 885, 1003, 520),
    measured(1202, 1154, 1250, 520),
    measured(1363, 1320, 1406, 520),
    measured(1561, 1522, 1600, 620),
    measured(1737, 1693, 1781, 620),
    measured(2002, 1949, 2056, 620),
    measured(2237, 2173, 2301, 460),
    measured(2453, 2376, 2529, 260),
];

const fn spec(nodes: u64, knowledge: Amount, randomness: Amount, blunders: Amount) -> LevelSpec {
    LevelSpec {
        nodes,
        knowledge,
        randomness,
        blunders,
    }
}

const fn measured(elo: i32, lower: i32, upper: i32, games: u32) -> Strength {
    Strength {
        elo,
        lower,
        upper,
        games,
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
            blunders: self.blunders,
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

impl Strength {
    /// The measured strength of level `n` (1 to [`LEVELS`]), or `None` outside that range.
    #[must_use]
    pub fn of(n: u8) -> Option<Strength> {
        STRENGTH.get(usize::from(n).checked_sub(1)?).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger_and_stay_in_range() {
        assert!(LevelSpec::of(0).is_none() && LevelSpec::of(LEVELS + 1).is_none());
        assert!(Strength::of(0).is_none() && Strength::of(LEVELS + 1).is_none());
        let (mut last_nodes, mut last_upper) = (0, i32::MIN);
        for n in 1..=LEVELS {
            let l = LevelSpec::of(n).unwrap();
            assert!(l.nodes > last_nodes, "level {n}");
            last_nodes = l.nodes;
            // Each level is measured stronger than the one below, their intervals apart.
            let s = Strength::of(n).unwrap();
            assert!(
                s.lower <= s.elo && s.elo <= s.upper && s.games > 0,
                "level {n}"
            );
            assert!(
                s.lower > last_upper,
                "level {n}'s interval meets the one below"
            );
            last_upper = s.upper;
        }
        let top = LevelSpec::of(LEVELS)
            .unwrap()
            .limits(Duration::from_secs(1));
        assert_eq!(top.movetime, Some(Duration::from_secs(1)));
        let weakest = LevelSpec::of(1).unwrap().options(&Options::default());
        assert_eq!(weakest.blunders, Amount::Huge);
    }
}
