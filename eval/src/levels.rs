//! The levels and style of the UCCI strength options, shared by the evaluation (`knowledge`,
//! `randomness`, `style`) and the search (`pruning`, `idle`): they sit below both, so that
//! neither imports the other for them.

/// A strength level of the UCCI options `pruning`, `knowledge` and `randomness`.
///
/// UCCI names the levels `none`, `tiny`, `small`, `medium`, `large` and `huge` (not every option
/// lists all six); their effect on each option is described in `docs/search.md`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Off.
    None,
    /// The least (for `pruning` and `knowledge` the same as [`Level::Small`]).
    Tiny,
    /// A little.
    Small,
    /// Moderate.
    Medium,
    /// Full (the default for `pruning` and `knowledge`).
    #[default]
    Large,
    /// The most (for `pruning` and `knowledge` the same as [`Level::Large`]).
    Huge,
}

impl Level {
    /// The level's UCCI name: `none`, `tiny`, `small`, `medium`, `large` or `huge`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Tiny => "tiny",
            Level::Small => "small",
            Level::Medium => "medium",
            Level::Large => "large",
            Level::Huge => "huge",
        }
    }
}

/// The playing style (UCCI option `style`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// Avoids risk: accepts draws readily and weighs its own general's safety more.
    Solid,
    /// Balanced.
    #[default]
    Normal,
    /// Avoids draws and weighs attacking the enemy general more than guarding its own.
    Risky,
}
