//! Writing games as Xiangqi PGN: the one PGN writer of the workspace (the league's games, the
//! book builder's export).
//!
//! Tags come in the PGN standard's order: `Game "Chinese Chess"` (what Xiangqi programs look
//! for), the roster `Event Site Date Round Red Black Result`, then `FEN` (only for a set-up
//! position) and `Format` (the movetext notation: `ICCS`, `WXF` or `Chinese`), then every other
//! tag in the order given. `Result`, `FEN` and `Format` always tell the truth about the game
//! written, whatever the caller's tags say. The movetext is wrapped at 79 columns; comments are
//! in braces (a `}` inside one becomes `)`), and the last word is the result. Text can be
//! written as UTF-8 or, for older Chinese programs, GBK ([`encode`]).

use std::fmt::Write as _;

use chariot_rules::notation::{Notation, format_move};
use chariot_rules::{Color, Move, Position};

use crate::record::GameResult;

/// A move with the comment written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The move (legal in the position before it).
    pub mv: Move,
    /// A comment, written `{...}` after the move.
    pub comment: Option<String>,
}

/// A game to write.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// Tags in the order they should appear after the roster (the roster's own tags are put in
    /// place; `Result`, `FEN` and `Format` are written from the game itself).
    pub tags: Vec<(String, String)>,
    /// The position the moves start from.
    pub start: Position,
    /// The moves.
    pub moves: Vec<WrittenMove>,
    /// The result, `None` for `*`.
    pub result: Option<GameResult>,
    /// A comment before the result (how the game ended).
    pub final_comment: Option<String>,
}

/// The seven-tag roster after `Game`, in order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];

/// Tags the writer fills in from the game.
const OWN: [&str; 4] = ["Game", "Result", "FEN", "Format"];

/// The game as PGN text in `notation`, ending with a blank line.
///
/// A move that is not legal where it stands (a caller's mistake) is written in ICCS, which
/// needs no position, rather than lost.
#[must_use]
pub fn write_game(game: &PgnGame, notation: Notation) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    };
    let given = |name: &str| {
        game.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let result = game.result.map_or("*", GameResult::pgn);
    tag("Game", "Chinese Chess");
    for name in ROSTER {
        if name == "Result" {
            tag(name, result);
        } else {
            tag(name, given(name).unwrap_or("?"));
        }
    }
    if game.start.fen() != Position::start().fen() {
        tag("FEN", &game.start.fen());
    }
    tag(
        "Format",
        match notation {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        },
    );
    for (name, value) in &game.tags {
        let placed = ROSTER
            .iter()
            .chain(&OWN)
            .any(|r| r.eq_ignore_ascii_case(name));
        if !placed {
            tag(name, value);
        }
    }
    out.push('\n');

    let mut text = String::new();
    let mut pos = game.start.clone();
    for (i, played) in game.moves.iter().enumerate() {
        if pos.turn() == Color::Red {
            let _ = write!(text, "{}. ", pos.fullmoves());
        } else if i == 0 {
            let _ = write!(text, "{}... ", pos.fullmoves());
        }
        let legal = pos.is_legal(played.mv);
        let mv = if legal {
            format_move(&pos, played.mv, notation).unwrap_or_else(|_| played.mv.to_string())
        } else {
            played.mv.to_string()
        };
        text.push_str(&mv);
        text.push(' ');
        if let Some(c) = &played.comment {
            let _ = write!(text, "{{{}}} ", c.replace('}', ")"));
        }
        if legal {
            pos.make_move(played.mv);
        }
    }
    if let Some(c) = &game.final_comment {
        let _ = write!(text, "{{{}}} ", c.replace('}', ")"));
    }
    text.push_str(result);
    out.push_str(&wrap(&text, 79));
    out.push_str("\n\n");
    out
}

/// `YYYY.MM.DD` (UTC) of a time, as PGN writes dates (calendar arithmetic by the `time` crate).
#[must_use]
pub fn pgn_date(t: std::time::SystemTime) -> String {
    let d = time::OffsetDateTime::from(t).date();
    format!("{:04}.{:02}.{:02}", d.year(), u8::from(d.month()), d.day())
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

/// The character set of a written file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8 (the default: every name can be written).
    #[default]
    Utf8,
    /// GBK, for Chinese programs that read nothing else.
    Gbk,
}

impl std::str::FromStr for Charset {
    type Err = String;

    fn from_str(s: &str) -> Result<Charset, String> {
        match s.to_ascii_lowercase().as_str() {
            "utf-8" | "utf8" => Ok(Charset::Utf8),
            "gbk" | "gb2312" | "cp936" => Ok(Charset::Gbk),
            _ => Err(format!(
                "unknown character set {s:?} (expected utf-8 or gbk)"
            )),
        }
    }
}

/// A character the chosen character set cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{c:?} (U+{code:04X}) has no GBK code, in {context:?}")]
pub struct Unmappable {
    /// The character.
    pub c: char,
    /// Its code point.
    pub code: u32,
    /// The text around it (up to ten characters either side).
    pub context: String,
}

/// `text` in `charset`.
///
/// # Errors
/// [`Unmappable`] for the first character GBK cannot hold (names in rare characters, emoji):
/// nothing is replaced silently.
pub fn encode(text: &str, charset: Charset) -> Result<Vec<u8>, Unmappable> {
    match charset {
        Charset::Utf8 => Ok(text.as_bytes().to_vec()),
        Charset::Gbk => {
            let (bytes, _, had_errors) = encoding_rs::GBK.encode(text);
            if !had_errors {
                return Ok(bytes.into_owned());
            }
            let mut buf = [0u8; 4];
            let chars: Vec<char> = text.chars().collect();
            for (i, &c) in chars.iter().enumerate() {
                let (_, _, bad) = encoding_rs::GBK.encode(c.encode_utf8(&mut buf));
                if bad {
                    let context: String = chars[i.saturating_sub(10)..(i + 10).min(chars.len())]
                        .iter()
                        .collect();
                    return Err(Unmappable {
                        c,
                        code: c as u32,
                        context,
                    });
                }
            }
            Ok(bytes.into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read_all;
    use chariot_rules::notation::parse_iccs;

    fn game(moves: &[&str], fen: Option<&str>) -> PgnGame {
        let start = fen.map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
        PgnGame {
            tags: vec![
                ("Red".into(), "许银川".into()),
                ("Black".into(), "吕钦 \"x\"".into()),
                ("ECCO".into(), "C50".into()),
                ("Result".into(), "0-1".into()),
            ],
            start,
            moves: moves
                .iter()
                .map(|m| WrittenMove {
                    mv: parse_iccs(m).unwrap(),
                    comment: (*m == "h9g7").then(|| "a {brace}".to_owned()),
                })
                .collect(),
            result: Some(GameResult::Draw),
            final_comment: Some("agreed".into()),
        }
    }

    #[test]
    fn tags_in_roster_order_with_the_truth_about_the_game() {
        let text = write_game(&game(&["h2e2", "h9g7"], None), Notation::Chinese);
        let tags: Vec<&str> = text.lines().take_while(|l| l.starts_with('[')).collect();
        assert_eq!(
            tags,
            [
                "[Game \"Chinese Chess\"]",
                "[Event \"?\"]",
                "[Site \"?\"]",
                "[Date \"?\"]",
                "[Round \"?\"]",
                "[Red \"许银川\"]",
                "[Black \"吕钦 \\\"x\\\"\"]",
                "[Result \"1/2-1/2\"]",
                "[Format \"Chinese\"]",
                "[ECCO \"C50\"]",
            ]
        );
        assert!(
            text.ends_with("1. 炮二平五 马８进７ {a {brace)} {agreed} 1/2-1/2\n\n"),
            "{text}"
        );
    }

    #[test]
    fn what_is_written_reads_back_in_every_notation_and_charset() {
        let fen = "3k5/9/9/9/9/9/9/9/4C4/4K4 b - - 0 1";
        for (moves, fen) in [
            (&["h2e2", "h9g7", "h0g2"][..], None),
            (&["d9e9", "e1e5"][..], Some(fen)),
        ] {
            for notation in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                for charset in [Charset::Utf8, Charset::Gbk] {
                    let g = game(moves, fen);
                    let bytes = encode(&write_game(&g, notation), charset).unwrap();
                    let (_, read) = read_all(&bytes);
                    assert_eq!(read.len(), 1, "{notation:?} {charset:?}");
                    let checked = crate::checked::check(&read[0]).unwrap();
                    assert_eq!(
                        checked.moves,
                        g.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
                    );
                    assert_eq!(read[0].red.as_deref(), Some("许银川"));
                    assert_eq!(read[0].result, Some(GameResult::Draw));
                    assert_eq!(read[0].tag("ECCO"), Some("C50"));
                }
            }
        }
    }

    #[test]
    fn dates() {
        use std::time::{Duration, UNIX_EPOCH};
        assert_eq!(pgn_date(UNIX_EPOCH), "1970.01.01");
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000.02.29"
        );
        assert_eq!(
            pgn_date(UNIX_EPOCH + Duration::from_secs(1_735_689_599)),
            "2024.12.31"
        );
    }

    #[test]
    fn wraps_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), "aa bb\ncc");
        assert_eq!(wrap("aaaaaaa b", 3), "aaaaaaa\nb");
    }

    #[test]
    fn gbk_names_the_character_it_cannot_write() {
        let e = encode("[Red \"A🙂B\"]", Charset::Gbk).unwrap_err();
        assert_eq!(e.c, '🙂');
        assert!(e.to_string().contains("U+1F642"), "{e}");
        assert_eq!(encode("炮二平五", Charset::Gbk).unwrap().len(), 8);
        assert_eq!("GBK".parse::<Charset>(), Ok(Charset::Gbk));
        assert!("latin1".parse::<Charset>().is_err());
    }
}
