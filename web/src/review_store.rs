//! Finished reviews kept on disk, so that a review asked for again after the server restarted
//! (a reload of `#review/...`, a shared link, a past game's button) is answered at once rather
//! than searched again for minutes: `reviews.sqlite` in the user's data directory, a SQLite
//! file of its own (`docs/formats/reviews.md`; why not a table of the played games' database:
//! `docs/web-app.md`, "Decisions").
//!
//! A review is a function of its [`Key`] and of the program: the start, the moves, the nodes a
//! position, the endgame tables open (they value positions and cut the search), and the build,
//! whose search, network and judging make the rest (one engine, one thread, its hash table
//! carried from the start; no book, no randomness). So a stored review is served only to the
//! same key *and* the same program (`chariot --version`'s words, given by the binary). Only
//! finished reviews whose searches all ended on their node budget are stored (`crate::review`),
//! a review cancelled or cut by the time cap never. At most [`KEPT`] reviews are kept, the
//! least recently used dropped first.
//!
//! The store is a cache: a failure to read or write it is the caller's to log, and the review
//! is searched (or answered) as if there were no store.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use chariot_formats::egtb::Tablebases;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};

/// How many reviews the store keeps; the least recently stored or served goes first. A
/// review's row is about 12 KiB a hundred plies (its JSON compressed by zstd about sevenfold), so
/// the store stays under about 20 MiB.
pub const KEPT: usize = 1000;

/// The store's file name in the user's data directory.
pub const FILE_NAME: &str = "reviews.sqlite";

/// The schema version this program reads and writes (`PRAGMA user_version`).
pub const SCHEMA: i64 = 1;

/// The zstd level of a stored review (its JSON shrinks about sevenfold).
const LEVEL: i32 = 9;

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed (a file that is no database, a full disk, a read-only file).
    #[error("{}: {source}", path.display())]
    Sqlite {
        /// The store's file.
        path: PathBuf,
        /// The cause.
        source: rusqlite::Error,
    },
    /// The file is a SQLite database of another kind or of another version.
    #[error("{}: not a store of reviews of schema version {SCHEMA} (its version is {found})", path.display())]
    Schema {
        /// The store's file.
        path: PathBuf,
        /// The `user_version` found.
        found: i64,
    },
    /// A review could not be compressed.
    #[error("{}: cannot compress a review: {source}", path.display())]
    Compress {
        /// The store's file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A stored review cannot be read back (it is dropped).
    #[error("{}: the stored review of {fen} is damaged: {why}", path.display())]
    Damaged {
        /// The store's file.
        path: PathBuf,
        /// The reviewed game's start.
        fen: String,
        /// What is wrong with it.
        why: String,
    },
}

/// What a review depends on besides the program: a stored review is served only to a request
/// with the same key (and the same program).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The start position's FEN.
    pub fen: String,
    /// The moves in ICCS, separated by spaces.
    pub moves: String,
    /// The nodes searched in a position.
    pub nodes: u64,
    /// The endgame tables open ([`tables_key`]).
    pub tables: String,
}

/// A review read back from the store.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// The review, as the job's `result` held it when it was done.
    pub review: serde_json::Value,
    /// How long the review took when it was made, in seconds.
    pub seconds: f64,
}

/// Names the endgame tables open, for a [`Key`]: `none`, or their count and a digest of each
/// table's material, metric, format version, flags and file length (SHA-256, 16 hex digits),
/// so that adding, removing or replacing a table changes it.
#[must_use]
pub fn tables_key(tables: &Tablebases) -> String {
    if tables.is_empty() {
        return "none".to_owned();
    }
    let mut digest = Sha256::new();
    for sig in tables.signatures() {
        for metric in tables.metrics(sig) {
            if let Some(file) = tables.file_in(sig, metric) {
                let h = file.header();
                digest.update(format!(
                    "{sig} {metric:?} v{} f{} {}\n",
                    h.version,
                    h.flags,
                    file.file_len()
                ));
            }
        }
    }
    let hex: String = digest.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{} tables {hex}", tables.len())
}

/// The reviews kept on disk.
pub struct ReviewStore {
    path: PathBuf,
    program: String,
    kept: usize,
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for ReviewStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReviewStore")
            .field("path", &self.path)
            .field("program", &self.program)
            .finish_non_exhaustive()
    }
}

impl ReviewStore {
    /// `reviews.sqlite` in the user's data directory, beside the played games' `played.sqlite`.
    #[must_use]
    pub fn default_path() -> PathBuf {
        chariot_formats::data::user_data_dir().join(FILE_NAME)
    }

    /// Opens the store at `path` (creating it when it does not exist) for reviews made by
    /// `program`, the words that name this build (`chariot --version`: version and commit).
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the file cannot be opened or is no SQLite database,
    /// [`StoreError::Schema`] when it is a database of another kind.
    pub fn open(path: &Path, program: impl Into<String>) -> Result<ReviewStore, StoreError> {
        let sqlite = |source| StoreError::Sqlite {
            path: path.to_owned(),
            source,
        };
        let mut conn = Connection::open(path).map_err(sqlite)?;
        // Another server on the same file may be writing: wait for it a little.
        conn.busy_timeout(std::time::Duration::from_secs(2))
            .map_err(sqlite)?;
        let tx = conn.transaction().map_err(sqlite)?;
        let found: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(sqlite)?;
        let tables: i64 = tx
            .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))
            .map_err(sqlite)?;
        match (found, tables) {
            (SCHEMA, _) => {}
            (0, 0) => {
                tx.execute_batch(
                    "CREATE TABLE reviews (
                        id INTEGER PRIMARY KEY,
                        fen TEXT NOT NULL,
                        moves TEXT NOT NULL,
                        nodes INTEGER NOT NULL,
                        program TEXT NOT NULL,
                        tables TEXT NOT NULL,
                        seconds REAL NOT NULL,
                        used INTEGER NOT NULL,
                        review BLOB NOT NULL,
                        UNIQUE (fen, moves, nodes, program, tables)
                    );
                    CREATE INDEX reviews_used ON reviews (used);
                    PRAGMA user_version = 1;",
                )
                .map_err(sqlite)?;
            }
            _ => {
                return Err(StoreError::Schema {
                    path: path.to_owned(),
                    found,
                });
            }
        }
        tx.commit().map_err(sqlite)?;
        Ok(ReviewStore {
            path: path.to_owned(),
            program: program.into(),
            kept: KEPT,
            conn: Mutex::new(conn),
        })
    }

    /// The program whose reviews this store serves.
    #[must_use]
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn sqlite(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    /// The review stored under `key` by this program, if any; it becomes the most recently
    /// used.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the store cannot be read; [`StoreError::Damaged`] when the
    /// review found cannot be read back or is not the review of `key` (it is dropped then).
    pub fn get(&self, key: &Key) -> Result<Option<Stored>, StoreError> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let row: Option<(i64, f64, Vec<u8>)> = conn
            .query_row(
                "SELECT id, seconds, review FROM reviews
                 WHERE fen = ?1 AND moves = ?2 AND nodes = ?3 AND program = ?4 AND tables = ?5",
                params![key.fen, key.moves, key.nodes, self.program, key.tables],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| self.sqlite(e))?;
        let Some((id, seconds, bytes)) = row else {
            return Ok(None);
        };
        match decode(&bytes, key) {
            Ok(review) => {
                // Only the order of dropping depends on it: a store that cannot be written
                // (read-only) still serves.
                let _ = conn.execute(
                    "UPDATE reviews SET used = (SELECT max(used) + 1 FROM reviews) WHERE id = ?1",
                    [id],
                );
                Ok(Some(Stored { review, seconds }))
            }
            Err(why) => {
                // Made again when the review is done; meanwhile it is no answer.
                let _ = conn.execute("DELETE FROM reviews WHERE id = ?1", [id]);
                Err(StoreError::Damaged {
                    path: self.path.clone(),
                    fen: key.fen.clone(),
                    why,
                })
            }
        }
    }

    /// Stores the finished `review` of `key` that took `seconds`, replacing one of the same key,
    /// and drops the least recently used beyond [`KEPT`]: one transaction, so that a failure
    /// leaves the store as it was.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] when the store cannot be written, [`StoreError::Compress`] when
    /// the review cannot be compressed.
    pub fn put(
        &self,
        key: &Key,
        review: &serde_json::Value,
        seconds: f64,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_vec(review).unwrap_or_default();
        let bytes =
            zstd::encode_all(json.as_slice(), LEVEL).map_err(|source| StoreError::Compress {
                path: self.path.clone(),
                source,
            })?;
        let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        let write = |conn: &mut Connection| -> rusqlite::Result<()> {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO reviews (fen, moves, nodes, program, tables, seconds, used, review)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                         (SELECT coalesce(max(used), 0) + 1 FROM reviews), ?7)
                 ON CONFLICT (fen, moves, nodes, program, tables) DO UPDATE SET
                     seconds = excluded.seconds, used = excluded.used, review = excluded.review",
                params![
                    key.fen,
                    key.moves,
                    key.nodes,
                    self.program,
                    key.tables,
                    seconds,
                    bytes
                ],
            )?;
            tx.execute(
                "DELETE FROM reviews WHERE id NOT IN
                     (SELECT id FROM reviews ORDER BY used DESC LIMIT ?1)",
                [i64::try_from(self.kept).unwrap_or(i64::MAX)],
            )?;
            tx.commit()
        };
        write(&mut conn).map_err(|e| self.sqlite(e))
    }
}

/// The review in a stored row, checked to be a whole review of `key`'s game.
fn decode(bytes: &[u8], key: &Key) -> Result<serde_json::Value, String> {
    let json = zstd::decode_all(bytes).map_err(|e| format!("cannot decompress it ({e})"))?;
    let review: serde_json::Value =
        serde_json::from_slice(&json).map_err(|e| format!("it is no JSON ({e})"))?;
    let played: Vec<&str> = review["played"]
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    let positions = review["positions"].as_array().map_or(0, Vec::len);
    if review["fen"] != key.fen.as_str() || played.join(" ") != key.moves {
        return Err("it is the review of another game".to_owned());
    }
    if positions != played.len() + 1 {
        return Err(format!(
            "it values {positions} positions of a game of {} plies",
            played.len()
        ));
    }
    Ok(review)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(moves: &str) -> Key {
        Key {
            fen: "F".to_owned(),
            moves: moves.to_owned(),
            nodes: 100,
            tables: "none".to_owned(),
        }
    }

    fn review(moves: &str) -> serde_json::Value {
        let played: Vec<&str> = moves.split(' ').collect();
        let positions: Vec<serde_json::Value> = (0..=played.len())
            .map(|ply| serde_json::json!({"ply": ply}))
            .collect();
        serde_json::json!({"fen": "F", "played": played, "positions": positions})
    }

    #[test]
    fn a_review_is_kept_for_its_key_and_program_and_the_least_used_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let mut store = ReviewStore::open(&path, "p1").unwrap();
        store.kept = 2;
        store.put(&key("a"), &review("a"), 1.5).unwrap();
        store.put(&key("b"), &review("b"), 2.0).unwrap();
        let got = store.get(&key("a")).unwrap().unwrap();
        assert_eq!((got.review, got.seconds), (review("a"), 1.5));
        // Another node budget, other tables, another program: not this review.
        let mut other = key("a");
        other.nodes = 200;
        assert_eq!(store.get(&other).unwrap(), None);
        other = key("a");
        other.tables = "1 tables 00".to_owned();
        assert_eq!(store.get(&other).unwrap(), None);
        drop(store);
        let mut store = ReviewStore::open(&path, "p2").unwrap();
        assert_eq!(store.get(&key("a")).unwrap(), None);
        store = ReviewStore::open(&path, "p1").unwrap();
        store.kept = 2;
        // "a" was used after "b" was stored: "b" is dropped for "c".
        store.put(&key("c"), &review("c"), 1.0).unwrap();
        assert!(store.get(&key("b")).unwrap().is_none());
        assert!(store.get(&key("a")).unwrap().is_some());
        assert!(store.get(&key("c")).unwrap().is_some());
    }

    #[test]
    fn a_damaged_review_is_dropped_and_a_foreign_file_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let store = ReviewStore::open(&path, "p").unwrap();
        // A review of a game cut short is no whole review.
        let mut short = review("a b");
        short["positions"].as_array_mut().unwrap().pop();
        store.put(&key("a b"), &short, 1.0).unwrap();
        assert!(matches!(
            store.get(&key("a b")),
            Err(StoreError::Damaged { .. })
        ));
        assert_eq!(store.get(&key("a b")).unwrap(), None);
        let conn = Connection::open(&path).unwrap();
        store.put(&key("a"), &review("a"), 1.0).unwrap();
        conn.execute("UPDATE reviews SET review = x'00ff'", [])
            .unwrap();
        let err = store.get(&key("a")).unwrap_err();
        assert!(err.to_string().contains("cannot decompress"), "{err}");
        // A game database is not taken for a store.
        let other = dir.path().join("games.sqlite");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE games (id INTEGER PRIMARY KEY);")
            .unwrap();
        assert!(matches!(
            ReviewStore::open(&other, "p"),
            Err(StoreError::Schema { found: 0, .. })
        ));
        let garbage = dir.path().join("garbage.sqlite");
        std::fs::write(&garbage, vec![7u8; 4096]).unwrap();
        let err = ReviewStore::open(&garbage, "p").unwrap_err();
        assert!(matches!(err, StoreError::Sqlite { .. }), "{err}");
    }
}
