//! Storing games: the records of import runs and the batches of checked games and rejections,
//! each batch one transaction that also advances its import's counts, so that an interrupted
//! import keeps every batch it committed and can simply be run again. A game already stored
//! (by content hash) is counted as a duplicate and only its result is merged.

use std::collections::HashMap;

use chariot_games::checked::{Game, Rejection};
use chariot_games::record::GameResult;
use chariot_rules::Position;
use rusqlite::{OptionalExtension, params};

use super::{DbError, GameDb};

/// Header fields stored in their own columns, left out of the `tags` JSON.
const COLUMN_TAGS: [&str; 8] = [
    "Event", "Date", "Red", "Black", "RedElo", "BlackElo", "Result", "FEN",
];

/// The page cache an importing connection keeps, in MiB (at least; a larger one stays).
pub const IMPORT_CACHE_MIB: i64 = 128;

/// What one batch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchOutcome {
    /// New games stored.
    pub imported: usize,
    /// Games that were already there (same start position and moves).
    pub duplicates: usize,
    /// Of the duplicates, those whose result contradicts the stored copy's (the stored
    /// result becomes unknown).
    pub conflicts: usize,
    /// Rejections an earlier import of the same file already recorded (not stored again).
    pub known_rejections: usize,
}

impl GameDb {
    /// Records the start of an import of `file` (`bytes` long) by `tool` (the program and its
    /// version, `book-builder 0.1.0`) and returns its id.
    ///
    /// From here on the connection keeps up to [`IMPORT_CACHE_MIB`] of the file in memory:
    /// the position index takes about sixty rows a game, spread over the whole table by their
    /// keys, and with SQLite's default 2 MiB cache each batch read and wrote most of the table
    /// again (half the import's time was the kernel's).
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn begin_import(&mut self, file: &str, bytes: u64, tool: &str) -> Result<i64, DbError> {
        let r = self
            .conn
            .query_row("PRAGMA cache_size", [], |row| row.get::<_, i64>(0));
        let cache = self.sql(r)?;
        // A negative cache size is KiB, a positive one pages (of 4 KiB by default).
        let kib = if cache < 0 { -cache } else { cache * 4 };
        if kib < IMPORT_CACHE_MIB << 10 {
            let r = self
                .conn
                .execute_batch(&format!("PRAGMA cache_size = -{};", IMPORT_CACHE_MIB << 10));
            self.sql(r)?;
        }
        let r = self.conn.execute(
            "INSERT INTO imports (path, bytes, tool) VALUES (?1, ?2, ?3)",
            params![file, bytes as i64, tool],
        );
        self.sql(r)?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Marks an import as finished.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn finish_import(&mut self, import: i64) -> Result<(), DbError> {
        let r = self.conn.execute(
            "UPDATE imports SET finished = datetime('now') WHERE id = ?1",
            [import],
        );
        self.sql(r).map(drop)
    }

    fn name_id(
        tx: &rusqlite::Transaction<'_>,
        cache: &mut HashMap<String, i64>,
        table: &str,
        name: Option<&str>,
    ) -> rusqlite::Result<Option<i64>> {
        let Some(name) = name else { return Ok(None) };
        if let Some(&id) = cache.get(name) {
            return Ok(Some(id));
        }
        tx.prepare_cached(&format!("INSERT OR IGNORE INTO {table} (name) VALUES (?1)"))?
            .execute([name])?;
        let id = tx
            .prepare_cached(&format!("SELECT id FROM {table} WHERE name = ?1"))?
            .query_row([name], |row| row.get(0))?;
        cache.insert(name.to_owned(), id);
        Ok(Some(id))
    }

    /// Stores a batch of checked games and the rejections of the same stretch of the file in
    /// one transaction, and adds `read` (games read) and the outcome to the import's counts.
    ///
    /// A game whose start position and moves are already stored is a duplicate and is not
    /// stored again. Its result is merged into the stored copy's: an unknown result is filled
    /// in, and two different known results make the stored result unknown (flagged
    /// `conflict`), since one of the two records is wrong and nothing says which. The outcome
    /// does not depend on the order the copies come in.
    ///
    /// # Errors
    /// [`DbError::Sqlite`]; the batch is then rolled back whole.
    pub fn insert_batch(
        &mut self,
        import: i64,
        read: usize,
        games: &[Game],
        rejections: &[Rejection],
    ) -> Result<BatchOutcome, DbError> {
        let path = self.path.clone();
        // The batch's rows refer only to rows it stored before them or found stored (a game's
        // index rows to the game, a game to its players and event), so SQLite's checks of those
        // references are skipped while it is written: they looked up the game of each of the
        // 1.67 M index rows of the master collection, a sixth of the import's time. The pragma
        // cannot change inside a transaction; it is set around it and always put back.
        if let Err(source) = self.conn.execute_batch("PRAGMA foreign_keys = OFF") {
            return Err(DbError::Sqlite { path, source });
        }
        let written = self.write_batch(import, read, games, rejections);
        let restored = self.conn.execute_batch("PRAGMA foreign_keys = ON");
        let outcome = written?;
        restored.map_err(|source| DbError::Sqlite { path, source })?;
        Ok(outcome)
    }

    /// [`GameDb::insert_batch`]'s transaction.
    fn write_batch(
        &mut self,
        import: i64,
        read: usize,
        games: &[Game],
        rejections: &[Rejection],
    ) -> Result<BatchOutcome, DbError> {
        let path = self.path.clone();
        let (players, events) = (&mut self.players, &mut self.events);
        let mut outcome = BatchOutcome::default();
        let r = (|| -> rusqlite::Result<()> {
            let tx = self.conn.transaction()?;
            // A failed transaction may have cached ids of rows it rolled back.
            let (players_before, events_before) = (players.len(), events.len());
            let result = (|| {
                let mut index_rows = Vec::new();
                for g in games {
                    let hash = g.content_hash();
                    let stored: Option<(i64, Option<String>, bool)> = tx
                        .prepare_cached("SELECT id, result, conflict FROM games WHERE hash = ?1")?
                        .query_row([&hash[..]], |row| {
                            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                        })
                        .optional()?;
                    if let Some((id, stored, conflict)) = stored {
                        outcome.duplicates += 1;
                        match (g.result, stored) {
                            (_, _) if conflict => {}
                            (None, _) => {}
                            (Some(new), None) => {
                                tx.prepare_cached("UPDATE games SET result = ?1 WHERE id = ?2")?
                                    .execute(params![new.pgn(), id])?;
                            }
                            (Some(new), Some(s)) if s != new.pgn() => {
                                outcome.conflicts += 1;
                                tx.prepare_cached(
                                    "UPDATE games SET result = NULL, conflict = 1 WHERE id = ?1",
                                )?
                                .execute([id])?;
                            }
                            (Some(_), Some(_)) => {}
                        }
                        continue;
                    }
                    // Names are stored with the first game that has them, so a duplicate's
                    // spellings leave no players or events without games.
                    let event = Self::name_id(&tx, events, "events", g.event.as_deref())?;
                    let red = Self::name_id(&tx, players, "players", g.red.as_deref())?;
                    let black = Self::name_id(&tx, players, "players", g.black.as_deref())?;
                    tx.prepare_cached(
                        "INSERT INTO games (hash, import_id, game_number, event_id, red_id, \
                         black_id, red_elo, black_elo, date, date_raw, result, start, plies, \
                         moves, tags) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                    )?
                    .execute(params![
                        &hash[..],
                        import,
                        g.number as i64,
                        event,
                        red,
                        black,
                        g.red_elo,
                        g.black_elo,
                        g.date,
                        g.date_raw,
                        g.result.map(GameResult::pgn),
                        g.start,
                        g.moves.len() as i64,
                        g.move_bytes(),
                        tags_json(&g.tags),
                    ])?;
                    let id = tx.last_insert_rowid();
                    let start = match g.start.as_deref() {
                        None => Position::start(),
                        Some(fen) => Position::from_fen(fen)
                            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
                    };
                    crate::index::game_rows(&mut index_rows, id, &start, &g.moves);
                    outcome.imported += 1;
                }
                crate::index::insert_rows(&tx, &mut index_rows)?;
                // A rejection already recorded by an earlier import of the same file (same path
                // and size) is not recorded again: importing a file twice changes nothing.
                for r in rejections {
                    let known: bool = tx
                        .prepare_cached(
                            "SELECT EXISTS (SELECT 1 FROM rejections r JOIN imports i ON r.import_id = i.id \
                             JOIN imports me ON me.id = ?1 \
                             WHERE i.path = me.path AND i.bytes = me.bytes AND i.id <> me.id \
                             AND r.game_number IS ?2 AND r.line IS ?3 AND r.ply IS ?4 \
                             AND r.reason = ?5 AND r.message = ?6)",
                        )?
                        .query_row(
                            params![
                                import,
                                r.game.map(|g| g as i64),
                                r.line.map(|l| l as i64),
                                r.ply.map(|p| p as i64),
                                r.kind.name(),
                                r.message,
                            ],
                            |row| row.get(0),
                        )?;
                    if known {
                        outcome.known_rejections += 1;
                        continue;
                    }
                    tx.prepare_cached(
                        "INSERT INTO rejections (import_id, game_number, line, ply, reason, message) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    )?
                    .execute(params![
                        import,
                        r.game.map(|g| g as i64),
                        r.line.map(|l| l as i64),
                        r.ply.map(|p| p as i64),
                        r.kind.name(),
                        r.message,
                    ])?;
                }
                tx.prepare_cached(
                    "UPDATE imports SET games_read = games_read + ?1, imported = imported + ?2, \
                     duplicates = duplicates + ?3, rejected = rejected + ?4 WHERE id = ?5",
                )?
                .execute(params![
                    read as i64,
                    outcome.imported as i64,
                    outcome.duplicates as i64,
                    rejections.len() as i64,
                    import
                ])?;
                Ok(())
            })();
            match result {
                Ok(()) => tx.commit(),
                Err(e) => {
                    if players.len() != players_before || events.len() != events_before {
                        players.clear();
                        events.clear();
                    }
                    Err(e)
                }
            }
        })();
        r.map_err(|source| DbError::Sqlite { path, source })?;
        Ok(outcome)
    }
}

/// Tags in file order, as a JSON object (a map serialised in the order given).
struct TagMap<'a>(Vec<(&'a str, &'a str)>);

impl serde::Serialize for TagMap<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// The tags that have no column of their own, as a JSON object in file order: empty values and
/// repeats of a name left out.
fn tags_json(tags: &[(String, String)]) -> String {
    let mut kept: Vec<(&str, &str)> = Vec::new();
    for (name, value) in tags {
        if value.is_empty()
            || COLUMN_TAGS.iter().any(|c| c.eq_ignore_ascii_case(name))
            || kept.iter().any(|(n, _)| n == name)
        {
            continue;
        }
        kept.push((name, value));
    }
    serde_json::to_string(&TagMap(kept)).unwrap_or_else(|_| "{}".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_become_json() {
        let tags = vec![
            ("Event".to_owned(), "x".to_owned()),
            ("ECCO".to_owned(), "C50".to_owned()),
            ("Site".to_owned(), "a \"b\"\n".to_owned()),
            ("ECCO".to_owned(), "C51".to_owned()),
            ("Round".to_owned(), String::new()),
        ];
        assert_eq!(tags_json(&tags), r#"{"ECCO":"C50","Site":"a \"b\"\n"}"#);
    }

    /// The batch is written without SQLite's reference checks: every reference it wrote must
    /// still hold (the check run afterwards finds none broken), duplicates and a second import
    /// of the same file included, and the checks are on again for other writes.
    #[test]
    fn a_batch_leaves_every_reference_whole() {
        use chariot_games::checked::check;
        use chariot_games::read::read_all;
        const PGN: &str = "[Event \"A\"]\n[Red \"Lü Qin\"]\n[Black \"Xu Yinchuan\"]\n[Result \"1-0\"]\n\n\
            1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n[Event \"B\"]\n[Red \"Xu Yinchuan\"]\n[Black \"Lü Qin\"]\n\
            [Result \"0-1\"]\n\n1. h2e2 b9c7 0-1\n\n[Event \"A\"]\n[Red \"Lü Qin\"]\n\
            [Black \"Xu Yinchuan\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 1/2-1/2\n";
        let dir = tempfile::tempdir().unwrap();
        let mut db = GameDb::create_or_open(dir.path().join("g.sqlite")).unwrap();
        let (_, records) = read_all(PGN.as_bytes());
        let games: Vec<_> = records.iter().map(|r| check(r).unwrap()).collect();
        for _ in 0..2 {
            let import = db.begin_import("t.pgn", PGN.len() as u64, "test").unwrap();
            db.insert_batch(import, games.len(), &games, &[]).unwrap();
            db.finish_import(import).unwrap();
        }
        let broken: Vec<String> = db
            .conn
            .prepare("PRAGMA foreign_key_check")
            .unwrap()
            .query_map([], |row| row.get::<_, String>(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(broken, Vec::<String>::new());
        let positions: i64 = db
            .conn
            .query_row("SELECT count(*) FROM positions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(positions, 5 + 3, "two distinct games, 5 and 3 positions");
        let on: i64 = db
            .conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(on, 1);
        let orphan = db.conn.execute(
            "INSERT INTO positions (key, game_id, ply, next) VALUES (1, 999, 0, NULL)",
            [],
        );
        assert!(
            orphan.is_err(),
            "a row for no game is refused outside an import"
        );
    }
}
