//! Reading stored games back whole, with their names, date, result and tags in file order: one
//! game by id, or every game of a filter one at a time (export, the web app's game pages), and
//! each as Xiangqi PGN.

use chariot_games::record::GameResult;
use chariot_rules::{Move, Position};

use super::{DbError, GameDb, decode_moves};
use crate::filter::{Filter, JOINS};

/// A stored game with everything the database keeps of it (for export).
#[derive(Clone, Debug)]
pub struct FullGame {
    /// Its row id.
    pub id: i64,
    /// The event.
    pub event: Option<String>,
    /// The date as the file wrote it.
    pub date: Option<String>,
    /// Red.
    pub red: Option<String>,
    /// Black.
    pub black: Option<String>,
    /// Red's rating.
    pub red_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
    /// The result, `None` when unknown (or the copies disagreed).
    pub result: Option<GameResult>,
    /// The start position.
    pub start: Position,
    /// The moves, each legal in the position before it.
    pub moves: Vec<Move>,
    /// The other tags, in file order.
    pub tags: Vec<(String, String)>,
}

impl FullGame {
    /// The value of the tag `name` (any case), trimmed; `None` when the game has no such tag
    /// or its value is empty or `?`.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
            .filter(|v| !v.is_empty() && *v != "?")
    }

    /// The game as Xiangqi PGN with its moves in `notation` (names, date and tags as imported).
    #[must_use]
    pub fn pgn(&self, notation: chariot_rules::notation::Notation) -> String {
        use chariot_games::write::{PgnGame, WrittenMove, write_game};
        let mut tags = Vec::new();
        let mut put = |name: &str, value: Option<String>| {
            if let Some(v) = value {
                tags.push((name.to_owned(), v));
            }
        };
        put("Event", self.event.clone());
        put("Date", self.date.clone());
        put("Red", self.red.clone());
        put("Black", self.black.clone());
        put("RedElo", self.red_elo.map(|e| e.to_string()));
        put("BlackElo", self.black_elo.map(|e| e.to_string()));
        tags.extend(self.tags.iter().cloned());
        let game = PgnGame {
            tags,
            start: self.start.clone(),
            moves: self
                .moves
                .iter()
                .map(|&mv| WrittenMove { mv, comment: None })
                .collect(),
            result: self.result,
            final_comment: None,
        };
        write_game(&game, notation)
    }
}

/// A JSON object of strings read into a list in file order (serde_json's map would sort it).
struct OrderedTags(Vec<(String, String)>);

impl<'de> serde::Deserialize<'de> for OrderedTags {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = OrderedTags;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OrderedTags, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, String>()? {
                    out.push(entry);
                }
                Ok(OrderedTags(out))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

impl GameDb {
    /// Every game `filter` selects, whole, with its names, date and tags, in the order they were
    /// stored; `on_game` returns `false` to stop early (a closed pipe). The games are read one
    /// at a time, so a large database costs no more memory than one game.
    ///
    /// # Errors
    /// [`DbError::Sqlite`], or [`DbError::Corrupt`] for a moves BLOB, start position or tags
    /// column that does not decode.
    pub fn for_each_game(
        &self,
        filter: &Filter,
        on_game: &mut dyn FnMut(FullGame) -> bool,
    ) -> Result<(), DbError> {
        let (clause, args) = filter.sql();
        self.each_game(&clause, args, on_game)
    }

    /// The game with row id `id`, whole, or `None` when there is none.
    ///
    /// # Errors
    /// As [`GameDb::for_each_game`].
    pub fn game(&self, id: i64) -> Result<Option<FullGame>, DbError> {
        let mut found = None;
        self.each_game(
            "g.id = ?",
            vec![rusqlite::types::Value::Integer(id)],
            &mut |g| {
                found = Some(g);
                false
            },
        )?;
        Ok(found)
    }

    /// Every game the `WHERE` clause (over `games g` and the filter's joins) selects, whole.
    fn each_game(
        &self,
        clause: &str,
        args: Vec<rusqlite::types::Value>,
        on_game: &mut dyn FnMut(FullGame) -> bool,
    ) -> Result<(), DbError> {
        let sql = format!(
            "SELECT g.id, ev.name, g.date_raw, pr.name, pb.name, g.red_elo, g.black_elo, \
             g.result, g.start, g.moves, g.tags FROM games g {JOINS} WHERE {clause} ORDER BY g.id"
        );
        let mut bad: Option<(i64, &str)> = None;
        let r = (|| -> rusqlite::Result<()> {
            let mut stmt = self.conn.prepare(&sql)?;
            let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                let Some(moves) = decode_moves(row.get_ref(9)?.as_blob()?) else {
                    bad = Some((id, "the moves BLOB is not a list of moves"));
                    return Ok(());
                };
                let start: Option<String> = row.get(8)?;
                let start = match start {
                    None => Position::start(),
                    Some(s) => match Position::from_fen(&format!("{s} - - 0 1")) {
                        Ok(p) => p,
                        Err(_) => {
                            bad = Some((id, "the start position is not a FEN board"));
                            return Ok(());
                        }
                    },
                };
                let tags: String = row.get(10)?;
                let Ok(OrderedTags(tags)) = serde_json::from_str(&tags) else {
                    bad = Some((id, "the tags column is not a JSON object of strings"));
                    return Ok(());
                };
                let result: Option<String> = row.get(7)?;
                let game = FullGame {
                    id,
                    event: row.get(1)?,
                    date: row.get(2)?,
                    red: row.get(3)?,
                    black: row.get(4)?,
                    red_elo: row.get(5)?,
                    black_elo: row.get(6)?,
                    result: result.as_deref().and_then(chariot_games::parse_result),
                    start,
                    moves,
                    tags,
                };
                if !on_game(game) {
                    break;
                }
            }
            Ok(())
        })();
        self.sql(r)?;
        if let Some((id, reason)) = bad {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                id,
                reason: reason.into(),
            });
        }
        Ok(())
    }
}
