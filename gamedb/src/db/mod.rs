//! The game database: checked games in SQLite, the book compiler's input.
//!
//! [`GameDb`] is one type over five files: opening a database and its schema in `schema.rs`,
//! storing games in `import.rs`, counting and selecting them in `query.rs`, reading them back
//! whole (export, PGN) in `export.rs`; the handle, its errors and the moves codec here.
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

mod export;
mod import;
mod query;
mod schema;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::Connection;

pub use export::FullGame;
pub use import::{BatchOutcome, IMPORT_CACHE_MIB};
pub use query::{ImportRow, OpeningCount, OpeningCounts, StoredGame, Summary};
pub use schema::SCHEMA_VERSION;

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

/// An open game database.
pub struct GameDb {
    conn: Connection,
    path: PathBuf,
    players: HashMap<String, i64>,
    events: HashMap<String, i64>,
}

impl GameDb {
    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sql<T>(&self, r: rusqlite::Result<T>) -> Result<T, DbError> {
        r.map_err(|source| DbError::Sqlite {
            path: self.path.clone(),
            source,
        })
    }

    fn schema_error(&self, reason: &str) -> DbError {
        DbError::Schema {
            path: self.path.clone(),
            reason: reason.to_owned(),
        }
    }
}

pub use crate::moves::decode_moves;
