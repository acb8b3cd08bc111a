//! A finished game's result from Red's view: what training data and tuning positions record.

use std::fmt;

use super::Color;

/// A game's result from Red's view. The discriminants are the training-data file's codes
/// (`docs/formats/training-data.md`); the order is Red's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Black won (`0`).
    BlackWins = 0,
    /// A draw (`0.5`).
    Draw = 1,
    /// Red won (`1`).
    RedWins = 2,
}

impl Outcome {
    /// The win of `color`.
    #[must_use]
    pub fn win(color: Color) -> Outcome {
        if color.is_red() {
            Outcome::RedWins
        } else {
            Outcome::BlackWins
        }
    }

    /// Red's score: 1, 0.5 or 0.
    #[must_use]
    pub const fn score(self) -> f64 {
        match self {
            Outcome::BlackWins => 0.0,
            Outcome::Draw => 0.5,
            Outcome::RedWins => 1.0,
        }
    }

    /// Red's score as the text of a positions file: `1`, `0.5` or `0`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::BlackWins => "0",
            Outcome::Draw => "0.5",
            Outcome::RedWins => "1",
        }
    }

    /// The outcome of that text.
    #[must_use]
    pub fn from_score_text(s: &str) -> Option<Outcome> {
        match s {
            "1" => Some(Outcome::RedWins),
            "0.5" => Some(Outcome::Draw),
            "0" => Some(Outcome::BlackWins),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_codes_and_text_agree() {
        for o in [Outcome::BlackWins, Outcome::Draw, Outcome::RedWins] {
            assert_eq!(o.score(), f64::from(o as u8) / 2.0);
            assert_eq!(Outcome::from_score_text(o.as_str()), Some(o));
        }
        assert_eq!(Outcome::win(Color::Black), Outcome::BlackWins);
        assert!(Outcome::BlackWins < Outcome::Draw && Outcome::Draw < Outcome::RedWins);
        assert_eq!(Outcome::from_score_text("1/2"), None);
    }
}
