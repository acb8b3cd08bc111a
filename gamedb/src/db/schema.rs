//! Opening a game database: creating it with its schema, or checking the schema of one that
//! exists (and giving a version 1 database its position index when it is opened for writing);
//! read-only opening for the commands that only read.

use std::collections::HashMap;
use std::path::Path;

use chariot_rules::Position;
use rusqlite::{Connection, OpenFlags};

use super::{DbError, GameDb, decode_moves};

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
        let mut db = GameDb::over(conn, path)?;
        db.check_schema(false)?;
        Ok(db)
    }

    /// A database over an open connection (its name caches empty), with the SQL functions
    /// its queries use (`fold`, [`crate::fold`]).
    fn over(conn: Connection, path: &Path) -> Result<GameDb, DbError> {
        crate::fold::register(&conn).map_err(|source| DbError::Sqlite {
            path: path.to_owned(),
            source,
        })?;
        Ok(GameDb {
            conn,
            path: path.to_owned(),
            players: HashMap::new(),
            events: HashMap::new(),
        })
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
        let mut db = GameDb::over(conn, path)?;
        db.prepare()?;
        Ok(db)
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
            let mut index_rows = Vec::new();
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
                    crate::index::game_rows(&mut index_rows, id, &start, &moves);
                }
            }
            crate::index::insert_rows(&tx, &mut index_rows)?;
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
}

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
