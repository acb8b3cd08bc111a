//! Games as Xiangqi PGN.
//!
//! The tags are those Xiangqi programs read (`[Game "Chinese Chess"]`, `Red`, `Black`, `FEN`,
//! `Format`) plus the usual ones of engine matches: `Opening`, `TimeControl` (the PGN form,
//! `SECONDS+INCREMENT` or `MOVES/SECONDS`, Red's then Black's when they differ), `Termination`
//! (the PGN standard's word) and `PlyCount`. The movetext is in ICCS by default, or WXF or
//! Chinese; opening moves carry `{book}`, engine moves `{SCORE/DEPTH TIME}` from the engine's
//! side, and the last comment says how the game ended.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use chariot::notation::{Notation, format_move};
use chariot::rules::{Color, Position};

use crate::game::GameRecord;

/// What goes into a PGN header besides the game itself.
#[derive(Clone, Debug)]
pub struct PgnContext<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Site`.
    pub site: &'a str,
    /// `Round`.
    pub round: &'a str,
    /// The movetext notation.
    pub notation: Notation,
}

/// The game as PGN text, ending with a blank line.
#[must_use]
pub fn write(game: &GameRecord, ctx: &PgnContext<'_>) -> String {
    let mut out = String::new();
    let start = Position::from_fen(&game.start_fen).unwrap_or_else(|_| Position::start());
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    };
    tag("Game", "Chinese Chess");
    tag("Event", ctx.event);
    tag("Site", ctx.site);
    tag("Date", &date(game.started));
    tag("Round", ctx.round);
    tag("Red", &game.red);
    tag("Black", &game.black);
    tag("Result", game.ending.outcome.pgn());
    if start.fen() != Position::start().fen() {
        tag("FEN", &start.fen());
    }
    tag(
        "Format",
        match ctx.notation {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        },
    );
    if let Some(name) = &game.opening_name {
        tag("Opening", name);
    }
    let tc = if game.red_tc == game.black_tc {
        game.red_tc.pgn()
    } else {
        format!("{}:{}", game.red_tc.pgn(), game.black_tc.pgn())
    };
    tag("TimeControl", &tc);
    tag("Termination", game.ending.pgn_termination());
    tag("PlyCount", &game.moves.len().to_string());
    out.push('\n');

    let mut text = String::new();
    let mut pos = start;
    for (i, played) in game.moves.iter().enumerate() {
        if pos.turn() == Color::Red {
            let _ = write!(text, "{}. ", pos.fullmoves());
        } else if i == 0 {
            let _ = write!(text, "{}... ", pos.fullmoves());
        }
        let mv =
            format_move(&pos, played.mv, ctx.notation).unwrap_or_else(|_| played.mv.to_string());
        text.push_str(&mv);
        text.push(' ');
        if i < game.opening_plies {
            if i + 1 == game.opening_plies {
                text.push_str("{book} ");
            }
        } else if played.book {
            // The engine's own book: no score, depth or time to tell.
            text.push_str("{book} ");
        } else if let Some(elapsed) = played.elapsed {
            let mut c = String::new();
            if let Some(s) = played.score {
                let _ = write!(c, "{s}");
                if let Some(d) = played.depth {
                    let _ = write!(c, "/{d}");
                }
                c.push(' ');
            }
            let _ = write!(c, "{:.3}s", elapsed.as_secs_f64());
            let _ = write!(text, "{{{c}}} ");
        }
        pos.make_move(played.mv);
    }
    let ending = game.ending.to_string().replace(['{', '}'], "");
    let _ = write!(text, "{{{ending}}} {}", game.ending.outcome.pgn());
    out.push_str(&wrap(&text, 79));
    out.push_str("\n\n");
    out
}

/// Breaks text into lines of at most `width` characters at spaces (words longer than the width
/// stay whole).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let w = word.chars().count();
        if len > 0 && len + 1 + w > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += w;
    }
    out
}

/// `YYYY.MM.DD` (UTC) of a time.
#[must_use]
pub fn date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(date(UNIX_EPOCH), "1970.01.01");
        assert_eq!(
            date(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000.02.29"
        );
        assert_eq!(
            date(UNIX_EPOCH + Duration::from_secs(1_735_689_599)),
            "2024.12.31"
        );
    }

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc");
        assert_eq!(wrap("aaaaaaa b", 3), "aaaaaaa\nb");
    }
}
