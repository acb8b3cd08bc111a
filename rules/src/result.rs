//! A game's result: [`GameResult`], as PGN writes it (a win, a draw, or unfinished), and
//! [`DecidedResult`], a result known to be a win or a draw, which is what files of finished
//! games record (training data, tuning positions): Red's score, the positions file's text and
//! the training-data code.
//!
//! There is one enumeration of results; a decided result is a checked view of it, as a
//! [`crate::Position`] is a checked [`crate::Setup`]: [`GameResult::decided`] (or `TryFrom`, with
//! the typed error [`UnfinishedGame`]) makes one. A file of finished games then cannot be handed
//! an unfinished game, and its readers never ask what an unfinished game scores.

use std::fmt;

use crate::piece::Color;

/// A game's result as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameResult {
    /// Red won (`1-0`).
    RedWins,
    /// Black won (`0-1`).
    BlackWins,
    /// A draw (`1/2-1/2`).
    Draw,
    /// Unfinished or of unknown result (`*`).
    Unfinished,
}

impl GameResult {
    /// The win of `color`.
    #[must_use]
    pub fn win(color: Color) -> GameResult {
        if color.is_red() {
            GameResult::RedWins
        } else {
            GameResult::BlackWins
        }
    }

    /// The winner, if the game was won.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::Unfinished => None,
        }
    }

    /// The PGN spelling: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result as a decided one; `None` for [`GameResult::Unfinished`].
    #[must_use]
    pub fn decided(self) -> Option<DecidedResult> {
        DecidedResult::try_from(self).ok()
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// An unfinished game where a decided result is needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game is unfinished: it has no result to record")]
pub struct UnfinishedGame;

/// A decided result: Red won, Black won or a draw, never [`GameResult::Unfinished`].
///
/// What data files of finished games record: Red's score ([`DecidedResult::score`]), its text
/// in a positions file (`1`, `0.5`, `0`; `docs/formats/positions.md`) and its code in a
/// training-data record (0 Black won, 1 draw, 2 Red won; `docs/formats/training-data.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecidedResult {
    /// The winner; `None` for a draw.
    winner: Option<Color>,
}

impl DecidedResult {
    /// Red won.
    pub const RED_WINS: DecidedResult = DecidedResult {
        winner: Some(Color::Red),
    };
    /// A draw.
    pub const DRAW: DecidedResult = DecidedResult { winner: None };
    /// Black won.
    pub const BLACK_WINS: DecidedResult = DecidedResult {
        winner: Some(Color::Black),
    };
    /// The three, in the order of Red's score (and of their training-data codes).
    pub const ALL: [DecidedResult; 3] = [
        DecidedResult::BLACK_WINS,
        DecidedResult::DRAW,
        DecidedResult::RED_WINS,
    ];

    /// The win of `color`.
    #[must_use]
    pub const fn win(color: Color) -> DecidedResult {
        DecidedResult {
            winner: Some(color),
        }
    }

    /// The winner; `None` for a draw.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        self.winner
    }

    /// The result as PGN names it.
    #[must_use]
    pub const fn result(self) -> GameResult {
        match self.winner {
            Some(Color::Red) => GameResult::RedWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// Red's score: 1, 0.5 or 0.
    #[must_use]
    pub const fn score(self) -> f64 {
        match self.winner {
            Some(Color::Red) => 1.0,
            None => 0.5,
            Some(Color::Black) => 0.0,
        }
    }

    /// Red's score as the text of a positions file: `1`, `0.5` or `0`.
    #[must_use]
    pub const fn score_text(self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1",
            None => "0.5",
            Some(Color::Black) => "0",
        }
    }

    /// The result whose score text is `s`; `None` for any other text.
    #[must_use]
    pub fn from_score_text(s: &str) -> Option<DecidedResult> {
        DecidedResult::ALL.into_iter().find(|r| r.score_text() == s)
    }

    /// The training-data code: 0 Black won, 1 draw, 2 Red won (twice Red's score).
    #[must_use]
    pub const fn code(self) -> u8 {
        match self.winner {
            Some(Color::Black) => 0,
            None => 1,
            Some(Color::Red) => 2,
        }
    }

    /// The result of a training-data code; `None` for a code above 2.
    #[must_use]
    pub fn from_code(code: u8) -> Option<DecidedResult> {
        DecidedResult::ALL.get(usize::from(code)).copied()
    }
}

impl TryFrom<GameResult> for DecidedResult {
    type Error = UnfinishedGame;

    fn try_from(result: GameResult) -> Result<DecidedResult, UnfinishedGame> {
        match result {
            GameResult::RedWins => Ok(DecidedResult::RED_WINS),
            GameResult::BlackWins => Ok(DecidedResult::BLACK_WINS),
            GameResult::Draw => Ok(DecidedResult::DRAW),
            GameResult::Unfinished => Err(UnfinishedGame),
        }
    }
}

impl From<DecidedResult> for GameResult {
    fn from(result: DecidedResult) -> GameResult {
        result.result()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_codes_and_texts_agree() {
        for (code, r) in DecidedResult::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(r.code()), code);
            assert_eq!(r.score(), f64::from(r.code()) / 2.0);
            assert_eq!(DecidedResult::from_code(r.code()), Some(r));
            assert_eq!(DecidedResult::from_score_text(r.score_text()), Some(r));
            assert_eq!(r.result().decided(), Some(r));
            assert_eq!(r.winner(), r.result().winner());
        }
        assert_eq!(DecidedResult::from_code(3), None);
        assert_eq!(DecidedResult::from_score_text("1/2"), None);
        assert_eq!(DecidedResult::win(Color::Black), DecidedResult::BLACK_WINS);
        assert_eq!(
            (
                DecidedResult::RED_WINS.score_text(),
                DecidedResult::DRAW.score_text(),
                DecidedResult::BLACK_WINS.score_text()
            ),
            ("1", "0.5", "0")
        );
    }

    #[test]
    fn an_unfinished_game_is_not_decided() {
        assert_eq!(GameResult::Unfinished.decided(), None);
        let err = DecidedResult::try_from(GameResult::Unfinished).unwrap_err();
        assert_eq!(err, UnfinishedGame);
        assert_eq!(
            err.to_string(),
            "the game is unfinished: it has no result to record"
        );
        assert_eq!(GameResult::from(DecidedResult::DRAW).pgn(), "1/2-1/2");
    }
}
