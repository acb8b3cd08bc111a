//! How a finished game or a decided position is shown: the result, the winner and why.

use chariot_rules::Color;
use serde::Serialize;

use crate::game::Outcome;

/// How a game ended.
#[derive(Debug, Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    result: &'static str,
    /// `red`, `black`, or `null` for a draw.
    winner: Option<&'static str>,
    /// Why, as a code: `checkmate`, `stalemate`, `perpetual-check`, `perpetual-chase`,
    /// `repetition`, `move-limit`, `resignation`, `agreement`, `time`.
    why: &'static str,
    /// Why, in English words.
    reason: String,
}

impl From<Outcome> for ResultView {
    fn from(o: Outcome) -> ResultView {
        ResultView {
            result: o.result,
            winner: o.winner.map(side_name),
            why: o.why,
            reason: o.reason,
        }
    }
}

/// `red` or `black`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}
