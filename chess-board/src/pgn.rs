//! The PGN writer: a finished game as standard PGN (export format, PGN standard section 8).
//!
//! The Seven Tag Roster in its order (Event, Site, Date, Round, White, Black, Result), then
//! `SetUp`/`FEN` for a game from another position, `TimeControl` (the whole game's seconds, as
//! the standard writes sudden death), `Termination` (the standard's values: `normal`,
//! `time forfeit`, `rules infraction`, `abandoned`), `PlyCount`. Rejected tries appear as
//! comments after the move that followed them, and the reason of the ending as a comment before
//! the result. Lines are wrapped before 80 characters.
//!
//! [`write_game`] is the writer underneath, from a tag list and annotated SAN moves; engine
//! matches ([`crate::matches`]) write their games through it too.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use shakmaty::{Chess, Color, Position};

use crate::game::GameRecord;

/// The tags that are not taken from the game itself.
#[derive(Clone, Debug)]
pub struct Tags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date` as `YYYY.MM.DD`.
    pub date: String,
    /// `Round` (`-` for a single game).
    pub round: String,
    /// `White`: the player's name.
    pub white: String,
    /// `Black`: the player's name.
    pub black: String,
    /// The time per side in seconds, for `TimeControl`.
    pub seconds: f64,
}

/// Today's date (UTC) as PGN writes it, `YYYY.MM.DD`.
#[must_use]
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    let (y, m, d) = civil_from_days(i64::try_from(days).unwrap_or(0));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (the usual era arithmetic:
/// 400-year eras of 146 097 days, years starting in March so the leap day comes last).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        u32::try_from(m).unwrap_or(1),
        u32::try_from(d).unwrap_or(1),
    )
}

/// Quotes a tag value: backslashes and quotes escaped.
fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Makes text safe inside a `{...}` comment (a `}` would end it).
fn comment(text: &str) -> String {
    text.replace('}', ")").replace(['\r', '\n'], " ")
}

/// Writes the game as PGN, ending with an empty line.
#[must_use]
pub fn write(game: &GameRecord, tags: &Tags) -> String {
    let mut list: Vec<(&str, String)> = vec![
        ("Event", tags.event.clone()),
        ("Site", tags.site.clone()),
        ("Date", tags.date.clone()),
        ("Round", tags.round.clone()),
        ("White", tags.white.clone()),
        ("Black", tags.black.clone()),
        ("Result", game.ending.result().to_owned()),
    ];
    if let Some(fen) = &game.fen {
        list.push(("SetUp", "1".to_owned()));
        list.push(("FEN", fen.trim().to_owned()));
    }
    list.push(("TimeControl", tags.seconds.to_string()));
    list.push(("Termination", game.ending.reason.termination().to_owned()));
    list.push(("PlyCount", game.moves.len().to_string()));
    let moves: Vec<Annotated> = game
        .moves
        .iter()
        .map(|m| Annotated {
            san: m.san.to_string(),
            comments: if m.rejected.is_empty() {
                Vec::new()
            } else {
                vec![rejected_comment(&m.rejected)]
            },
        })
        .collect();
    let mut last = Vec::new();
    if !game.final_rejected.is_empty() {
        last.push(rejected_comment(&game.final_rejected));
    }
    last.push(game.ending.detail.clone());
    write_game(&list, &game.start, &moves, &last, game.ending.result())
}

/// A move of the movetext: its SAN and the comments that follow it (without braces).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotated {
    /// The move in SAN, check marks included.
    pub san: String,
    /// Comments after it, each written as `{...}`.
    pub comments: Vec<String>,
}

/// Writes a game as PGN from its tags (in the order given; values are escaped), its start
/// position (for the move numbers), its moves, the comments before the result (the reason of
/// the ending) and the result token, ending with an empty line. Every PGN this crate writes
/// goes through here: the contest's games ([`write()`]) and engine matches
/// ([`crate::matches`]).
#[must_use]
pub fn write_game(
    tags: &[(&str, String)],
    start: &Chess,
    moves: &[Annotated],
    final_comments: &[String],
    result: &str,
) -> String {
    let mut out = String::new();
    for (key, value) in tags {
        let _ = writeln!(out, "[{key} \"{}\"]", quote(value));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let mut number = start.fullmoves().get();
    let mut turn = start.turn();
    for (i, m) in moves.iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        for c in &m.comments {
            tokens.push(format!("{{{}}}", comment(c)));
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    for c in final_comments {
        tokens.push(format!("{{{}}}", comment(c)));
    }
    tokens.push(result.to_owned());
    // Tokens are joined with spaces and wrapped before 80 characters; a comment is one token
    // (a long one may exceed the width rather than be broken).
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn rejected_comment(tries: &[String]) -> String {
    let list = tries
        .iter()
        .map(|t| format!("\"{}\"", comment(t)))
        .collect::<Vec<_>>()
        .join(", ");
    format!("rejected: {list}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_782), (2026, 11, 25));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn comments_and_tags_are_escaped() {
        assert_eq!(comment("a}b\nc"), "a)b c");
        assert_eq!(quote(r#"a"b\c"#), r#"a\"b\\c"#);
    }
}
