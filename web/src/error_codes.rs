//! The codes and parameters of the error answers for the mistakes the rules and the game report:
//! a FEN that is no position, move text that is no legal move, a line of moves that does not
//! play, a game request that cannot be done now. A page says the mistake in its own language
//! from them (issue 47, fault 8: the Chinese page showed the server's English); the message
//! stays the error's English sentence. `docs/web-api.md` ("Errors") lists every code.

use chariot_rules::notation::MoveTextError;
use chariot_rules::{FenError, Position, PositionError};
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::game::{GameError, NotNow};
use crate::movetext::{LineError, LineFault};
use crate::sides::side_name;

/// Why a FEN is no position, as parameters: `{"reason": code, ...}` with the parts a sentence
/// needs (`side` is `red` or `black`, `square` ICCS).
#[must_use]
pub fn position_error(e: &PositionError) -> Value {
    match e {
        PositionError::Fen(f) => fen_error(f),
        PositionError::MissingGeneral(c) => json!({"reason": "no-general", "side": side_name(*c)}),
        PositionError::TooManyGenerals(c, n) => {
            json!({"reason": "generals", "side": side_name(*c), "count": n})
        }
        PositionError::GeneralOutsidePalace { color, square } => json!({
            "reason": "general-outside-palace", "side": side_name(*color), "square": square.to_string()
        }),
        PositionError::UnreachableSquare { piece_name, square } => {
            // `red elephant`: the rules name the piece by its colour and kind.
            let (side, piece) = piece_name.split_once(' ').unwrap_or(("", piece_name));
            json!({"reason": "unreachable-square", "side": side, "piece": piece, "square": square.to_string()})
        }
        PositionError::TooManyOfKind {
            color,
            letter,
            count,
            max,
        } => json!({
            "reason": "too-many-of-kind", "side": side_name(*color), "letter": letter.to_string(),
            "count": count, "max": max
        }),
        PositionError::TooManyPieces(c, n) => {
            json!({"reason": "too-many-pieces", "side": side_name(*c), "count": n})
        }
        PositionError::GeneralsFacing => json!({"reason": "generals-facing"}),
        PositionError::OppositeInCheck(c) => {
            json!({"reason": "opposite-in-check", "side": side_name(*c)})
        }
        PositionError::SharedSquare(sq) => {
            json!({"reason": "shared-square", "square": sq.to_string()})
        }
    }
}

/// Why a FEN could not be read, as parameters.
fn fen_error(e: &FenError) -> Value {
    match e {
        FenError::Empty => json!({"reason": "fen-empty"}),
        FenError::RankCount(n) => json!({"reason": "fen-ranks", "ranks": n}),
        FenError::RankWidth { rank, files, .. } => {
            json!({"reason": "fen-rank-width", "rank": rank, "files": files})
        }
        FenError::BadBoardChar { rank, ch } => {
            json!({"reason": "fen-char", "rank": rank, "char": ch.to_string()})
        }
        FenError::BadTurn(text) => json!({"reason": "fen-turn", "text": text}),
        FenError::BadCounter { field, text } => {
            json!({"reason": "fen-counter", "field": field, "text": text})
        }
        FenError::Trailing(text) => json!({"reason": "fen-trailing", "text": text}),
    }
}

/// Why move text is no legal move, as parameters: `{"move": text, "reason": code}` with the
/// reason `malformed` (not a move in any notation), `no-piece` (names no piece of the side to
/// move), `illegal`, `ambiguous` or `inexpressible`.
#[must_use]
pub fn move_error(e: &MoveTextError) -> Value {
    json!({"move": e.text(), "reason": move_reason(e)})
}

/// The reason code of [`move_error`].
fn move_reason(e: &MoveTextError) -> &'static str {
    match e {
        MoveTextError::Malformed { .. } => "malformed",
        MoveTextError::NoSuchPiece { .. } => "no-piece",
        MoveTextError::Illegal { .. } => "illegal",
        MoveTextError::Ambiguous { .. } => "ambiguous",
        MoveTextError::Inexpressible { .. } => "inexpressible",
    }
}

/// Why a line of moves stops, as parameters: the move's number `n`, its text and the reason
/// (`game-over`: the game was over before it, or [`move_error`]'s).
#[must_use]
pub fn line_error(e: &LineError) -> Value {
    let reason = match &e.fault {
        LineFault::GameOver => "game-over",
        LineFault::Move(m) => move_reason(m),
    };
    json!({"n": e.number, "move": e.text, "reason": reason})
}

/// The position of a FEN, or a 422 saying what is wrong with it (`invalid-fen`).
pub(crate) fn fen_position(fen: &str) -> Result<Position, ApiError> {
    Position::from_fen(fen).map_err(|e| {
        ApiError::unprocessable(format!("invalid FEN {fen:?}: {e}"))
            .with_code("invalid-fen")
            .with_all(position_error(&e))
    })
}

impl From<LineError> for ApiError {
    /// A 422, `illegal-line`.
    fn from(e: LineError) -> ApiError {
        ApiError::unprocessable(e.to_string())
            .with_code("illegal-line")
            .with_all(line_error(&e))
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let message = e.to_string();
        match e {
            GameError::BadFen { error, .. } => ApiError::unprocessable(message)
                .with_code("invalid-fen")
                .with_all(position_error(&error)),
            // A level is a number of the API, outside its range like any other parameter.
            GameError::BadLevel(level) => ApiError::bad_request(message)
                .with_code("bad-level")
                .with("level", level)
                .with("max", crate::play_levels::LEVELS),
            GameError::BadMove(m) => ApiError::unprocessable(message)
                .with_code("illegal-move")
                .with_all(move_error(&m)),
            GameError::Forbidden(m) => ApiError::unprocessable(message)
                .with_code("forbidden-move")
                .with("move", m),
            GameError::NotYourTurn(why) => ApiError::conflict(message).with_code(match why {
                NotNow::GameOver => "game-over",
                NotNow::EnginesTurn => "not-your-turn",
                NotNow::TimeRanOut => "time-ran-out",
                NotNow::NoHintNow => "no-hint-now",
                NotNow::EndedOffBoard => "ended-off-board",
            }),
            GameError::NothingToTakeBack => {
                ApiError::unprocessable(message).with_code("nothing-to-take-back")
            }
            GameError::BadHistory(line) => ApiError::unprocessable(message)
                .with_code("bad-history")
                .with_all(line_error(&line)),
            GameError::MovedOn { at, now } => ApiError::conflict(message)
                .with_code("moved-on")
                .with("at", at)
                .with("now", now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_move;

    #[test]
    fn fen_mistakes_name_their_reason_and_parts() {
        let reason = |fen: &str| position_error(&Position::from_fen(fen).unwrap_err());
        assert_eq!(
            reason("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1"),
            json!({"reason": "fen-rank-width", "rank": 0, "files": 8})
        );
        assert_eq!(
            reason("3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
            json!({"reason": "generals-facing"})
        );
        assert_eq!(
            reason("3k5/9/9/9/9/9/9/9/9/B2K5 w - - 0 1"),
            json!({"reason": "unreachable-square", "side": "red", "piece": "elephant", "square": "a0"})
        );
        assert_eq!(
            reason("3k5/9/9/9/9/9/9/9/9/5K3 x - - 0 1"),
            json!({"reason": "fen-turn", "text": "x"})
        );
    }

    #[test]
    fn move_mistakes_name_the_move_and_why() {
        let start = Position::start();
        let reason = |text: &str| move_error(&parse_move(&start, text).unwrap_err());
        assert_eq!(reason("h2h8"), json!({"move": "h2h8", "reason": "illegal"}));
        assert_eq!(reason("马五进三")["reason"], "no-piece");
        assert_eq!(reason("xyz")["reason"], "malformed");
    }
}
