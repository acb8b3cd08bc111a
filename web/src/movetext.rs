//! Moves as the pages show them: each in ICCS, WXF and Chinese notation, with the position
//! after it, and lines of moves given as text played out on a position.

use chariot_rules::notation::{MoveTextError, Notation, format_move, parse_move};
use chariot_rules::{GameState, JudgeConfig, Move, Position, judge};
use serde::Serialize;

/// One move in the three notations, and the FEN after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveText {
    /// ICCS (`h2e2`).
    pub iccs: String,
    /// WXF (`C2.5`).
    pub wxf: String,
    /// Chinese (`炮二平五`).
    pub chinese: String,
    /// The position after the move.
    pub fen: String,
}

/// `m` (legal in `pos`) in the notation, or in ICCS should it have no other name.
fn name(pos: &Position, m: Move, notation: Notation) -> String {
    format_move(pos, m, notation).unwrap_or_else(|_| m.to_string())
}

/// The moves of `line` from `start`, each in the three notations with the position after it.
#[must_use]
pub fn describe(start: &Position, line: &[Move]) -> Vec<MoveText> {
    let mut pos = start.clone();
    line.iter()
        .map(|&m| {
            let (wxf, chinese) = (
                name(&pos, m, Notation::Wxf),
                name(&pos, m, Notation::Chinese),
            );
            pos.make_move(m);
            MoveText {
                iccs: m.to_string(),
                wxf,
                chinese,
                fen: pos.fen(),
            }
        })
        .collect()
}

/// The moves of `line` from `start` in one notation; a move that is not legal where it stands
/// ends the list (an engine's line is legal, but a page may send anything).
#[must_use]
pub fn names(start: &Position, line: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        out.push(name(&pos, m, notation));
        pos.make_move(m);
    }
    out
}

/// Why a line of moves given as text stops: which move, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({text:?}): {fault}")]
pub struct LineError {
    /// The move's number in the line, from 1.
    pub number: usize,
    /// Its text.
    pub text: String,
    /// Why it does not play.
    pub fault: LineFault,
}

/// Why a move of a line does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineFault {
    /// The game was over by the rules before it.
    #[error("the game was already over")]
    GameOver,
    /// The text is no legal move in the position.
    #[error(transparent)]
    Move(#[from] MoveTextError),
}

/// Plays the moves of `texts` (ICCS, WXF or Chinese) from `start`, the history kept in the
/// position (so repetitions are judged). A move after the game is over by the rules, or one that
/// is not legal, is an error saying which and why.
///
/// # Errors
/// [`LineError`]: `move N ("TEXT"): why`.
pub fn play_out<S: AsRef<str>>(
    start: Position,
    texts: &[S],
) -> Result<(Position, Vec<Move>), LineError> {
    match play_prefix(start, texts) {
        (pos, moves, None) => Ok((pos, moves)),
        (_, _, Some(e)) => Err(e),
    }
}

/// Plays the moves of `texts` from `start` as far as they go: the position reached, the moves
/// played and, when one could not be played, why (as [`play_out`] says it).
pub fn play_prefix<S: AsRef<str>>(
    start: Position,
    texts: &[S],
) -> (Position, Vec<Move>, Option<LineError>) {
    let mut pos = start;
    let mut moves = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let text = text.as_ref();
        let bad = |fault: LineFault| {
            Some(LineError {
                number: i + 1,
                text: text.to_owned(),
                fault,
            })
        };
        if judge(&pos, &JudgeConfig::default()) != GameState::Ongoing {
            return (pos, moves, bad(LineFault::GameOver));
        }
        match parse_move(&pos, text) {
            Ok(m) => {
                pos.make_move(m);
                moves.push(m);
            }
            Err(e) => return (pos, moves, bad(LineFault::Move(e))),
        }
    }
    (pos, moves, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_named_in_three_notations_and_played_out() {
        let (pos, moves) = play_out(Position::start(), &["h2e2", "马8进7"]).unwrap();
        let texts = describe(&Position::start(), &moves);
        assert_eq!(texts[0].chinese, "炮二平五");
        assert_eq!(texts[0].wxf, "C2.5");
        assert_eq!(texts[1].iccs, "h9g7");
        assert_eq!(texts[1].fen, pos.fen());
        assert_eq!(
            names(&Position::start(), &moves, Notation::Chinese),
            ["炮二平五", "马８进７"]
        );
        let e = play_out(Position::start(), &["h2e2", "h2e2"]).unwrap_err();
        assert!(e.to_string().starts_with("move 2 (\"h2e2\")"), "{e}");
        assert!(matches!(e.fault, LineFault::Move(_)), "{e:?}");
    }
}
