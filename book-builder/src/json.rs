//! One JSON object per game for `book-builder read --json` (JSON Lines).
//!
//! Hand-written because the output is small and fixed; strings are escaped per RFC 8259.

use std::fmt::Write;

use book_builder::GameRecord;
use book_builder::db::json_string;

/// Appends `s` as a JSON string literal.
fn string(out: &mut String, s: &str) {
    out.push_str(&json_string(s));
}

/// Appends `"key":` followed by a string or `null`.
fn opt_field(out: &mut String, key: &str, value: Option<&str>) {
    string(out, key);
    out.push(':');
    match value {
        Some(v) => string(out, v),
        None => out.push_str("null"),
    }
    out.push(',');
}

/// Appends `"key":` followed by a number or `null`.
fn opt_number(out: &mut String, key: &str, value: Option<u32>) {
    string(out, key);
    out.push(':');
    match value {
        Some(v) => {
            let _ = write!(out, "{v}");
        }
        None => out.push_str("null"),
    }
    out.push(',');
}

/// The game as one line of JSON (no trailing newline).
pub fn game(file: &str, g: &GameRecord) -> String {
    let mut out = String::with_capacity(256 + 12 * g.moves.len());
    out.push('{');
    opt_field(&mut out, "file", Some(file));
    let _ = write!(out, "\"game\":{},", g.number);
    opt_number(&mut out, "line", g.line.and_then(|l| u32::try_from(l).ok()));
    opt_field(&mut out, "event", g.event.as_deref());
    opt_field(&mut out, "date", g.date.as_ref().map(|d| d.raw.as_str()));
    opt_field(
        &mut out,
        "date_normalized",
        g.date.as_ref().and_then(|d| d.normalized.as_deref()),
    );
    opt_field(&mut out, "red", g.red.as_deref());
    opt_field(&mut out, "black", g.black.as_deref());
    opt_number(&mut out, "red_elo", g.red_elo);
    opt_number(&mut out, "black_elo", g.black_elo);
    opt_field(&mut out, "result", g.result.map(|r| r.pgn()));
    opt_field(&mut out, "fen", g.fen.as_deref());
    opt_field(&mut out, "format", g.format.as_deref());
    let _ = write!(out, "\"black_moves_first\":{},", g.black_moves_first);
    out.push_str("\"tags\":{");
    for (i, (name, value)) in g.tags.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(&mut out, name);
        out.push(':');
        string(&mut out, value);
    }
    out.push_str("},\"moves\":[");
    for (i, m) in g.moves.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(&mut out, &m.to_string());
    }
    out.push_str("]}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use book_builder::{GameResult, MoveToken};

    #[test]
    fn escapes_and_nulls() {
        let g = GameRecord {
            number: 2,
            line: Some(7),
            tags: vec![("Event".into(), "a\"b\\c\n\u{1}".into())],
            result: Some(GameResult::Draw),
            moves: vec![MoveToken::Text("炮二平五".into())],
            ..GameRecord::default()
        };
        let j = game("f.pgn", &g);
        assert_eq!(
            j,
            "{\"file\":\"f.pgn\",\"game\":2,\"line\":7,\"event\":null,\"date\":null,\"date_normalized\":null,\
             \"red\":null,\"black\":null,\"red_elo\":null,\"black_elo\":null,\"result\":\"1/2-1/2\",\"fen\":null,\
             \"format\":null,\"black_moves_first\":false,\"tags\":{\"Event\":\"a\\\"b\\\\c\\n\\u0001\"},\
             \"moves\":[\"炮二平五\"]}"
        );
    }
}
