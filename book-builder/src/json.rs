//! One JSON object per game for `book-builder read --json` (JSON Lines), through serde.
//!
//! Each game carries its moves as written and, when every move resolves against the rules, the
//! same moves in ICCS (`iccs`); otherwise `iccs` is `null` and `rejected` says which ply and why.

use chariot_games::GameRecord;
use chariot_games::checked;
use serde::Serialize;

/// A game as `read --json` prints it.
#[derive(Debug, Serialize)]
pub struct GameJson<'a> {
    /// The file as given.
    pub file: &'a str,
    /// The game's number in its file.
    pub game: usize,
    /// The line it starts on (text files; `null` for XQF).
    pub line: Option<usize>,
    /// `Event`.
    pub event: Option<&'a str>,
    /// The date as written.
    pub date: Option<&'a str>,
    /// The date normalised (`YYYY-MM-DD`, `YYYY-MM`, `YYYY`), when it can be.
    pub date_normalized: Option<&'a str>,
    /// Red.
    pub red: Option<&'a str>,
    /// Black.
    pub black: Option<&'a str>,
    /// Red's rating.
    pub red_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `null` when unknown.
    pub result: Option<&'static str>,
    /// The start position as the file gives it.
    pub fen: Option<&'a str>,
    /// The `Format` tag.
    pub format: Option<&'a str>,
    /// The movetext marks the first move as Black's.
    pub black_moves_first: bool,
    /// Every tag in file order (a repeated name keeps its first value).
    pub tags: TagMap<'a>,
    /// The moves as written.
    pub moves: Vec<String>,
    /// The moves in ICCS when the game replays by the rules.
    pub iccs: Option<Vec<String>>,
    /// Why it does not replay (the importer rejects it for this).
    pub rejected: Option<String>,
}

/// Tags as a JSON object in file order.
#[derive(Debug)]
pub struct TagMap<'a>(Vec<(&'a str, &'a str)>);

impl Serialize for TagMap<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// The game as one line of JSON (no trailing newline).
#[must_use]
pub fn game(file: &str, g: &GameRecord) -> String {
    let mut tags: Vec<(&str, &str)> = Vec::new();
    for (name, value) in &g.tags {
        if !tags.iter().any(|(n, _)| n == name) {
            tags.push((name, value));
        }
    }
    let (iccs, rejected) = match checked::check(g) {
        Ok(checked) => (
            Some(checked.moves.iter().map(ToString::to_string).collect()),
            None,
        ),
        Err(r) => (None, Some(r.located(file))),
    };
    let json = GameJson {
        file,
        game: g.number,
        line: g.line,
        event: g.event.as_deref(),
        date: g.date.as_ref().map(|d| d.raw.as_str()),
        date_normalized: g.date.as_ref().and_then(|d| d.normalized.as_deref()),
        red: g.red.as_deref(),
        black: g.black.as_deref(),
        red_elo: g.red_elo,
        black_elo: g.black_elo,
        result: g.result.map(|r| r.pgn()),
        fen: g.fen.as_deref(),
        format: g.format.as_deref(),
        black_moves_first: g.black_moves_first,
        tags: TagMap(tags),
        moves: g.moves.iter().map(ToString::to_string).collect(),
        iccs,
        rejected,
    };
    serde_json::to_string(&json)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_games::{GameResult, MoveToken};

    #[test]
    fn escapes_nulls_and_iccs() {
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
             \"moves\":[\"炮二平五\"],\"iccs\":[\"h2e2\"],\"rejected\":null}"
        );
        let bad = GameRecord {
            moves: vec![
                MoveToken::Text("炮二平五".into()),
                MoveToken::Text("h2e2".into()),
            ],
            ..g
        };
        let v: serde_json::Value = serde_json::from_str(&game("f.pgn", &bad)).unwrap();
        assert!(v["iccs"].is_null());
        assert!(v["rejected"].as_str().unwrap().contains("ply 2"), "{v}");
    }
}
