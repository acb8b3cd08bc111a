//! The game database: checked games in SQLite, the book compiler's input.
//!
//! The schema (`docs/formats/game-db.md`) keeps what a book and its filters need: players,
//! events, dates, results, ratings, the start position and the moves as a BLOB of `u16`s
//! (`Move::to_u16`, little-endian), plus the other header fields as a JSON object. Each game
//! carries a content hash of its start position and moves, `UNIQUE`, so importing a game that
//! is already there changes nothing (the `UNIQUE` hash is looked up first); see [`GameDb::insert_batch`] for what
//! happens to the result when two copies disagree.
//!
//! Writes come in batches, each one transaction that also advances the counts of its
//! `imports` row: an interrupted import keeps every batch it committed and can simply be run
//! again. The database runs in WAL mode with `synchronous = NORMAL`: a crash loses at most the
//! batch in flight, never the file's consistency.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chariot_rules::{Move, Position};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use crate::filter::{Filter, JOINS};
use chariot_games::checked::{Game, Rejection};
use chariot_games::record::GameResult;

/// The schema version this code reads and writes (`PRAGMA user_version`). Version 1 had no
/// position index: opened for writing it gets one ([`crate::index`]); read-only it is read as
/// it is, without the explorer.
pub const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE players (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);
CREATE TABLE events (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);
CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL,
    bytes       INTEGER NOT NULL,
    tool        TEXT NOT NULL,
    started     TEXT NOT NULL DEFAULT (datetime('now')),
    finished    TEXT,
    games_read  INTEGER NOT NULL DEFAULT 0,
    imported    INTEGER NOT NULL DEFAULT 0,
    duplicates  INTEGER NOT NULL DEFAULT 0,
    rejected    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    hash        BLOB NOT NULL UNIQUE,
    import_id   INTEGER NOT NULL REFERENCES imports(id),
    game_number INTEGER NOT NULL,
    event_id    INTEGER REFERENCES events(id),
    red_id      INTEGER REFERENCES players(id),
    black_id    INTEGER REFERENCES players(id),
    red_elo     INTEGER,
    black_elo   INTEGER,
    date        TEXT,
    date_raw    TEXT,
    result      TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    conflict    INTEGER NOT NULL DEFAULT 0,
    start       TEXT,
    plies       INTEGER NOT NULL,
    moves       BLOB NOT NULL,
    tags        TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX games_date ON games(date);
CREATE INDEX games_red ON games(red_id);
CREATE INDEX games_black ON games(black_id);
CREATE INDEX games_event ON games(event_id);
CREATE TABLE rejections (
    id          INTEGER PRIMARY KEY,
    import_id   INTEGER NOT NULL REFERENCES imports(id),
    game_number INTEGER,
    line        INTEGER,
    ply         INTEGER,
    reason      TEXT NOT NULL,
    message     TEXT NOT NULL
);
";

/// Header fields stored in their own columns, left out of the `tags` JSON.
const COLUMN_TAGS: [&str; 8] = [
    "Event", "Date", "Red", "Black", "RedElo", "BlackElo", "Result", "FEN",
];

/// Why the game database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite failed (cannot open, disk full, locked, not a database...).
    #[error("{path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: rusqlite::Error,
    },
    /// A database to read does not exist.
    #[error("{path}: no such game database (book-builder import --db FILE creates one)")]
    Missing {
        /// The path given.
        path: PathBuf,
    },
    /// The file is a SQLite database of another schema or version.
    #[error("{path}: {reason}")]
    Schema {
        /// The database file.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// A stored game cannot be decoded (its moves BLOB has an odd length or a bad move).
    #[error("{path}: game {id}: {reason}")]
    Corrupt {
        /// The database file.
        path: PathBuf,
        /// The game's row id.
        id: i64,
        /// What is wrong.
        reason: String,
    },
}

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

/// Counts over a selection of games.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Games.
    pub games: u64,
    /// Won by Red.
    pub red_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Result unknown (including copies that disagreed).
    pub unknown: u64,
    /// Of those, games whose copies disagreed on the result.
    pub conflicts: u64,
    /// From a set-up position.
    pub setups: u64,
    /// Moves in all.
    pub plies: u64,
    /// Earliest normalised date.
    pub first_date: Option<String>,
    /// Latest normalised date.
    pub last_date: Option<String>,
}

/// A stored game as the compiler reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The start position's board and side to move, `None` for the usual start.
    pub start: Option<String>,
    /// The moves (possibly only the first ones, see [`GameDb::games`]).
    pub moves: Vec<Move>,
    /// The result, `None` when unknown.
    pub result: Option<GameResult>,
    /// Red's rating.
    pub red_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
}

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

/// How the games reaching a position are named ([`GameDb::openings_at`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct OpeningCounts {
    /// Games reaching the position.
    pub games: u64,
    /// Of those, games with neither an `ECCO` nor an `Opening` tag.
    pub untagged: u64,
    /// The names, most games first.
    pub openings: Vec<OpeningCount>,
}

/// One opening name and code with its number of games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OpeningCount {
    /// The ECCO code (`C50`), when the games carry one.
    pub ecco: Option<String>,
    /// The `Opening` tag (with `, Variation` when there is one).
    pub name: Option<String>,
    /// Games.
    pub games: u64,
}

/// One recorded import run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ImportRow {
    /// The file as given on the command line.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// When the import started (UTC).
    pub started: String,
    /// When it finished, `None` when it was interrupted.
    pub finished: Option<String>,
    /// Games read.
    pub games_read: u64,
    /// New games stored.
    pub imported: u64,
    /// Games already stored.
    pub duplicates: u64,
    /// Games refused.
    pub rejected: u64,
}

/// An open game database.
pub struct GameDb {
    conn: Connection,
    path: PathBuf,
    players: HashMap<String, i64>,
    events: HashMap<String, i64>,
}

impl GameDb {
    /// Opens the database at `path`, creating it (and its schema) when it does not exist.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] when it cannot be opened, [`DbError::Schema`] when it holds
    /// something else.
    pub fn create_or_open(path: impl AsRef<Path>) -> Result<GameDb, DbError> {
        GameDb::open_with(path.as_ref(), true)
    }

    /// Opens an existing database read-only, for commands that only read (`summary`,
    /// `compile`, `positions`): a database on read-only media, or one the user may not write,
    /// can still be read, and nothing about the file changes.
    ///
    /// # Errors
    /// As [`GameDb::create_or_open`], and [`DbError::Missing`] when the file does not exist.
    pub fn open(path: impl AsRef<Path>) -> Result<GameDb, DbError> {
        let path = path.as_ref();
        not_a_directory(path)?;
        if !path.exists() {
            return Err(DbError::Missing {
                path: path.to_owned(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .and_then(|c| {
                // A WAL database in a directory we may not write cannot make its shared-memory
                // file; opened as immutable it is read as the file stands.
                match c.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0)) {
                    Ok(_) => Ok(c),
                    Err(_) => Connection::open_with_flags(
                        format!("file:{}?immutable=1", path.display()),
                        flags | OpenFlags::SQLITE_OPEN_URI,
                    ),
                }
            })
            .map_err(|source| DbError::Sqlite {
                path: path.to_owned(),
                source,
            })?;
        let mut db = GameDb::over(conn, path);
        db.check_schema(false)?;
        Ok(db)
    }

    /// A database over an open connection (its name caches empty).
    fn over(conn: Connection, path: &Path) -> GameDb {
        GameDb {
            conn,
            path: path.to_owned(),
            players: HashMap::new(),
            events: HashMap::new(),
        }
    }

    fn open_with(path: &Path, create: bool) -> Result<GameDb, DbError> {
        not_a_directory(path)?;
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
        }
        let conn = Connection::open_with_flags(path, flags).map_err(|source| DbError::Sqlite {
            path: path.to_owned(),
            source,
        })?;
        let mut db = GameDb::over(conn, path);
        db.prepare()?;
        Ok(db)
    }

    fn sql<T>(&self, r: rusqlite::Result<T>) -> Result<T, DbError> {
        r.map_err(|source| DbError::Sqlite {
            path: self.path.clone(),
            source,
        })
    }

    /// Sets the pragmas and creates or checks the schema.
    fn prepare(&mut self) -> Result<(), DbError> {
        let r = self.conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
        );
        self.sql(r)?;
        self.check_schema(true)
    }

    /// Checks the schema version; with `create`, an empty file gets the schema.
    fn check_schema(&mut self, create: bool) -> Result<(), DbError> {
        let r = self
            .conn
            .query_row("PRAGMA user_version", [], |row| row.get::<_, i64>(0));
        let version = self.sql(r)?;
        match version {
            1 | SCHEMA_VERSION => {
                let r = self.conn.query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'",
                    [],
                    |row| row.get::<_, i64>(0),
                );
                if self.sql(r)? != 1 {
                    return Err(self.schema_error(&format!(
                        "has schema version {version} but no games table"
                    )));
                }
                if version == 1 && create {
                    self.add_index()?;
                }
                Ok(())
            }
            0 if !create => Err(self.schema_error("is not a Chariot game database (no schema)")),
            0 => {
                let r = self.conn.query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                    [],
                    |row| row.get::<_, i64>(0),
                );
                if self.sql(r)? != 0 {
                    return Err(self.schema_error(
                        "is a SQLite database with other tables, not a Chariot game database",
                    ));
                }
                let r = self.conn.transaction().and_then(|tx| {
                    tx.execute_batch(SCHEMA)?;
                    tx.execute_batch(crate::index::SCHEMA)?;
                    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
                    tx.commit()
                });
                self.sql(r)
            }
            other => Err(self.schema_error(&format!(
                "game database schema version {other}; this program reads versions 1 and {SCHEMA_VERSION}"
            ))),
        }
    }

    /// Schema 1 to 2: builds the position index of every stored game, in one transaction.
    fn add_index(&mut self) -> Result<(), DbError> {
        let mut bad = None;
        let r = self.conn.transaction().and_then(|tx| {
            tx.execute_batch(crate::index::SCHEMA)?;
            {
                let mut stmt = tx.prepare("SELECT id, start, moves FROM games ORDER BY id")?;
                let mut rows = stmt.query([])?;
                while let Some(row) = rows.next()? {
                    let id: i64 = row.get(0)?;
                    let start: Option<String> = row.get(1)?;
                    let start = match start.as_deref().map(Position::from_fen) {
                        None => Position::start(),
                        Some(Ok(p)) => p,
                        Some(Err(_)) => {
                            bad = Some(id);
                            continue;
                        }
                    };
                    let Some(moves) = decode_moves(row.get_ref(2)?.as_blob()?) else {
                        bad = Some(id);
                        continue;
                    };
                    crate::index::index_game(&tx, id, &start, &moves)?;
                }
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
            tx.commit()
        });
        self.sql(r)?;
        match bad {
            Some(id) => Err(DbError::Corrupt {
                path: self.path.clone(),
                id,
                reason: "its start position or moves do not decode (left out of the index)".into(),
            }),
            None => Ok(()),
        }
    }

    fn schema_error(&self, reason: &str) -> DbError {
        DbError::Schema {
            path: self.path.clone(),
            reason: reason.to_owned(),
        }
    }

    /// Lets SQLite keep up to `mb` MiB of the file in memory (its page cache) and read it
    /// through a memory map: for a long-lived reader such as the web explorer, whose queries
    /// then join games without going to the disk.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn keep_in_memory(&self, mb: u32) -> Result<(), DbError> {
        let bytes = u64::from(mb) << 20;
        let r = self.conn.execute_batch(&format!(
            "PRAGMA cache_size = -{}; PRAGMA mmap_size = {bytes};",
            u64::from(mb) << 10
        ));
        self.sql(r)
    }

    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records the start of an import of `file` (`bytes` long) by `tool` (the program and its
    /// version, `book-builder 0.1.0`) and returns its id.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn begin_import(&mut self, file: &str, bytes: u64, tool: &str) -> Result<i64, DbError> {
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
        let (players, events) = (&mut self.players, &mut self.events);
        let mut outcome = BatchOutcome::default();
        let r = (|| -> rusqlite::Result<()> {
            let tx = self.conn.transaction()?;
            // A failed transaction may have cached ids of rows it rolled back.
            let (players_before, events_before) = (players.len(), events.len());
            let result = (|| {
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
                    crate::index::index_game(&tx, id, &start, &g.moves)?;
                    outcome.imported += 1;
                }
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

    /// The games through `pos` that `filter` selects (found by the position index, so only
    /// within each game's first [`crate::index::INDEX_PLIES`] plies): the moves played there
    /// with their results, and the page of games from `offset` (at most `limit`) in `order`.
    ///
    /// # Errors
    /// [`DbError::Sqlite`]; [`DbError::Schema`] for a schema-1 database opened read-only (it
    /// has no index until opened for writing).
    pub fn explore(
        &self,
        pos: &Position,
        filter: &Filter,
        order: crate::index::Order,
        offset: u64,
        limit: u64,
    ) -> Result<crate::index::Explored, DbError> {
        if !self.sql(crate::index::present(&self.conn))? {
            return Err(self.schema_error(
                "has no position index (schema 1): open it for writing once (book-builder import) to build it",
            ));
        }
        let r = crate::index::explore(&self.conn, pos.key(), filter, order, offset, limit);
        self.sql(r)
    }

    /// Counts the games `filter` selects.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn summary(&self, filter: &Filter) -> Result<Summary, DbError> {
        let (clause, args) = filter.sql();
        let sql = format!(
            "SELECT count(*), \
               coalesce(sum(g.result = '1-0'), 0), coalesce(sum(g.result = '1/2-1/2'), 0), \
               coalesce(sum(g.result = '0-1'), 0), coalesce(sum(g.result IS NULL), 0), \
               coalesce(sum(g.conflict), 0), coalesce(sum(g.start IS NOT NULL), 0), \
               coalesce(sum(g.plies), 0), min(g.date), max(g.date) \
             FROM games g {JOINS} WHERE {clause}"
        );
        let r = self
            .conn
            .query_row(&sql, rusqlite::params_from_iter(args), |row| {
                Ok(Summary {
                    games: row.get::<_, i64>(0)? as u64,
                    red_wins: row.get::<_, i64>(1)? as u64,
                    draws: row.get::<_, i64>(2)? as u64,
                    black_wins: row.get::<_, i64>(3)? as u64,
                    unknown: row.get::<_, i64>(4)? as u64,
                    conflicts: row.get::<_, i64>(5)? as u64,
                    setups: row.get::<_, i64>(6)? as u64,
                    plies: row.get::<_, i64>(7)? as u64,
                    first_date: row.get(8)?,
                    last_date: row.get(9)?,
                })
            });
        self.sql(r)
    }

    /// The games `filter` selects, with at most their first `max_plies` moves.
    ///
    /// # Errors
    /// [`DbError::Sqlite`], or [`DbError::Corrupt`] for a moves BLOB that does not decode.
    pub fn games(&self, filter: &Filter, max_plies: u32) -> Result<Vec<StoredGame>, DbError> {
        let (clause, mut args) = filter.sql();
        let sql = format!(
            "SELECT g.id, g.start, substr(g.moves, 1, ?), g.result, g.red_elo, g.black_elo \
             FROM games g {JOINS} WHERE {clause} ORDER BY g.id"
        );
        args.insert(0, rusqlite::types::Value::Integer(2 * i64::from(max_plies)));
        let mut out = Vec::new();
        let mut bad = None;
        let r = (|| -> rusqlite::Result<()> {
            let mut stmt = self.conn.prepare(&sql)?;
            let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                let bytes = row.get_ref(2)?.as_blob()?;
                let Some(moves) = decode_moves(bytes) else {
                    bad = Some(id);
                    return Ok(());
                };
                let result: Option<String> = row.get(3)?;
                out.push(StoredGame {
                    start: row.get(1)?,
                    moves,
                    result: result.as_deref().and_then(chariot_games::parse_result),
                    red_elo: row.get(4)?,
                    black_elo: row.get(5)?,
                });
            }
            Ok(())
        })();
        self.sql(r)?;
        if let Some(id) = bad {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                id,
                reason: "the moves BLOB is not a list of moves".into(),
            });
        }
        Ok(out)
    }

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

    /// The openings of the games that reach `pos` (or its left-right mirror) within their first
    /// `max_plies` plies, by their `ECCO` code and `Opening`/`Variation` name, most games first.
    /// Games that carry neither tag are counted in `untagged`.
    ///
    /// # Errors
    /// As [`GameDb::for_each_game`].
    pub fn openings_at(&self, pos: &Position, max_plies: usize) -> Result<OpeningCounts, DbError> {
        let keys = [pos.key(), pos.mirror_key()];
        let mut counts: HashMap<(Option<String>, Option<String>), u64> = HashMap::new();
        let mut out = OpeningCounts::default();
        let all = Filter {
            setups: true,
            ..Filter::default()
        };
        self.for_each_game(&all, &mut |g| {
            let mut p = g.start.clone();
            let mut reached = keys.contains(&p.key());
            for &m in g.moves.iter().take(max_plies) {
                if reached {
                    break;
                }
                p.make_move(m);
                reached = keys.contains(&p.key());
            }
            if reached {
                out.games += 1;
                let tag = |name: &str| {
                    g.tags
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v.trim().to_owned())
                        .filter(|v| !v.is_empty() && v != "?")
                };
                let name = match (tag("Opening"), tag("Variation")) {
                    (Some(o), Some(v)) => Some(format!("{o}, {v}")),
                    (o, _) => o,
                };
                let ecco = tag("ECCO");
                if ecco.is_none() && name.is_none() {
                    out.untagged += 1;
                } else {
                    *counts.entry((ecco, name)).or_default() += 1;
                }
            }
            true
        })?;
        let mut list: Vec<OpeningCount> = counts
            .into_iter()
            .map(|((ecco, name), games)| OpeningCount { ecco, name, games })
            .collect();
        list.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.ecco.cmp(&b.ecco))
                .then_with(|| a.name.cmp(&b.name))
        });
        out.openings = list;
        Ok(out)
    }

    /// The recorded imports, oldest first.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn imports(&self) -> Result<Vec<ImportRow>, DbError> {
        let r = (|| -> rusqlite::Result<Vec<ImportRow>> {
            let mut stmt = self.conn.prepare(
                "SELECT path, bytes, started, finished, games_read, imported, duplicates, rejected \
                 FROM imports ORDER BY id",
            )?;
            let rows = stmt.query_map([], |row| {
                Ok(ImportRow {
                    path: row.get(0)?,
                    bytes: row.get::<_, i64>(1)? as u64,
                    started: row.get(2)?,
                    finished: row.get(3)?,
                    games_read: row.get::<_, i64>(4)? as u64,
                    imported: row.get::<_, i64>(5)? as u64,
                    duplicates: row.get::<_, i64>(6)? as u64,
                    rejected: row.get::<_, i64>(7)? as u64,
                })
            })?;
            rows.collect()
        })();
        self.sql(r)
    }

    /// The number of rejections stored (each rejected game once, however often its file was
    /// imported).
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn rejection_count(&self) -> Result<u64, DbError> {
        let r = self
            .conn
            .query_row("SELECT count(*) FROM rejections", [], |row| {
                row.get::<_, i64>(0)
            });
        self.sql(r).map(|n| n as u64)
    }

    /// The number of players and of events stored.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn name_counts(&self) -> Result<(u64, u64), DbError> {
        let r = self.conn.query_row(
            "SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM events)",
            [],
            |row| Ok((row.get::<_, i64>(0)? as u64, row.get::<_, i64>(1)? as u64)),
        );
        self.sql(r)
    }
}

/// The joins every filtered query uses (player and event names).
/// A directory given as a database is said to be one (SQLite would say "unable to open").
fn not_a_directory(path: &Path) -> Result<(), DbError> {
    if path.is_dir() {
        return Err(DbError::Schema {
            path: path.to_owned(),
            reason: "is a directory, not a game database".to_owned(),
        });
    }
    Ok(())
}

/// Decodes a moves BLOB; `None` when its length is odd or a value is not a move.
#[must_use]
pub fn decode_moves(bytes: &[u8]) -> Option<Vec<Move>> {
    if bytes.len() % 2 != 0 {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|c| Move::from_u16(u16::from_le_bytes([c[0], c[1]])))
        .collect()
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

    #[test]
    fn moves_decode() {
        let m = chariot_rules::notation::parse_iccs("h2e2").unwrap();
        let bytes = m.to_u16().to_le_bytes();
        assert_eq!(decode_moves(&bytes), Some(vec![m]));
        assert_eq!(decode_moves(&bytes[..1]), None);
        assert_eq!(decode_moves(&[0xff, 0xff]), None);
    }
}
