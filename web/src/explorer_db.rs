//! The explorer's game database: the one `chariot serve --games DB` names, or else the default
//! one, built on first start from the game collections Chariot ships into the user's data
//! directory (`chariot_formats::data::user_data_dir()`, `games.sqlite`). Until the build is done, the
//! explorer answers 503 saying how far it is; the build writes a temporary file and renames it,
//! so a build cut short leaves no half database behind.
//!
//! Game files uploaded in the browser are imported into it (so the default database is the
//! user's data, not a cache: it lives where nothing cleans it up). Imports run one at a time on
//! a connection of their own, batch by batch in transactions as `book-builder import` does,
//! while the explorer goes on answering from its reading connection.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use chariot_gamedb::db::{DbError, FullGame, GameDb};

use crate::error::ApiError;

/// How much of the database the explorer keeps in memory, MiB: the default database of the
/// shipped collections (about 50 MiB) whole.
const READ_CACHE_MB: u32 = 256;

/// Where the database stands.
enum Slot {
    /// Being built: games read so far, of about this many.
    Building {
        read: usize,
        files: usize,
        done: usize,
    },
    /// Open.
    Ready(Box<GameDb>),
    /// The build failed.
    Failed(String),
}

/// The explorer's game database.
pub struct GamesDb {
    path: PathBuf,
    slot: Mutex<Slot>,
    /// Held by the import under way.
    importing: Mutex<()>,
}

impl GamesDb {
    /// Opens (or creates) the database at `path`.
    ///
    /// # Errors
    /// When it cannot be opened or is not a game database.
    pub fn open(path: &Path) -> Result<GamesDb, DbError> {
        Ok(GamesDb {
            path: path.to_owned(),
            slot: Mutex::new(Slot::Ready(Box::new(GamesDb::reader(path)?))),
            importing: Mutex::new(()),
        })
    }

    /// The database at `path` opened for the explorer's queries (kept in memory).
    fn reader(path: &Path) -> Result<GameDb, DbError> {
        let db = GameDb::create_or_open(path)?;
        db.keep_in_memory(READ_CACHE_MB)?;
        Ok(db)
    }

    /// The default database's file.
    #[must_use]
    pub fn default_path() -> PathBuf {
        chariot_formats::data::user_data_dir().join("games.sqlite")
    }

    /// The default database: opened when its file exists, else built from the shipped
    /// collections on a thread of its own (the database answers 503 meanwhile). `None` when
    /// there are no shipped collections to build it from.
    #[must_use]
    pub fn default_or_build() -> Option<std::sync::Arc<GamesDb>> {
        let path = GamesDb::default_path();
        if path.is_file()
            && let Ok(db) = GamesDb::open(&path)
        {
            return Some(std::sync::Arc::new(db));
        }
        let dir = chariot_formats::data::games_dir()?;
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".pgn.zst"))
            .collect();
        files.sort();
        if files.is_empty() {
            return None;
        }
        let db = std::sync::Arc::new(GamesDb {
            path: path.clone(),
            slot: Mutex::new(Slot::Building {
                read: 0,
                files: files.len(),
                done: 0,
            }),
            importing: Mutex::new(()),
        });
        let building = std::sync::Arc::clone(&db);
        std::thread::spawn(move || {
            let outcome = building.build(&path, &files);
            let mut slot = building.lock();
            *slot = match outcome {
                Ok(ready) => Slot::Ready(Box::new(ready)),
                Err(e) => {
                    eprintln!("chariot serve: the default game database: {e}");
                    Slot::Failed(e)
                }
            };
        });
        Some(db)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Imports `files` into a temporary file beside `path`, then renames it into place.
    fn build(&self, path: &Path, files: &[PathBuf]) -> Result<GameDb, String> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let partial = path.with_extension("sqlite.partial");
        let _ = std::fs::remove_file(&partial);
        {
            let mut db = GameDb::create_or_open(&partial).map_err(|e| e.to_string())?;
            for (i, file) in files.iter().enumerate() {
                let name = file.file_name().map_or_else(
                    || file.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                let before = match &*self.lock() {
                    Slot::Building { read, .. } => *read,
                    _ => 0,
                };
                book_builder::import::import_file(&mut db, file, &name, 2_000, &mut |read| {
                    if let Slot::Building { read: r, done, .. } = &mut *self.lock() {
                        *r = before + read;
                        *done = i;
                    }
                })
                .map_err(|e| e.to_string())?;
            }
        }
        // SQLite's WAL files go with the database: checkpointed on close above.
        std::fs::rename(&partial, path).map_err(|e| format!("{}: {e}", path.display()))?;
        GamesDb::reader(path).map_err(|e| e.to_string())
    }

    /// The database's file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Imports the game file at `file` (any format and encoding the games crate reads, zstd
    /// or not), recorded as `name`, after any import under way; `progress` gets the games read
    /// so far. Games already stored count as duplicates, so importing a file again adds
    /// nothing.
    ///
    /// # Errors
    /// A 503 while the database is being built, the database's error as a 500.
    pub fn import(
        &self,
        file: &Path,
        name: &str,
        progress: &mut dyn FnMut(usize),
    ) -> Result<book_builder::import::FileImport, ApiError> {
        self.with(|_| Ok(()))?;
        let _one_at_a_time = self.importing.lock().unwrap_or_else(|e| e.into_inner());
        let failed = |e: DbError| ApiError::internal(e.to_string());
        let mut writer = GameDb::create_or_open(&self.path).map_err(failed)?;
        book_builder::import::import_file(&mut writer, file, name, 1_000, progress).map_err(failed)
    }

    /// Runs `work` on the open database; a 503 while it is being built, a 500 when its build
    /// failed, the database's error as a 500.
    ///
    /// # Errors
    /// As said.
    pub fn with<T>(&self, work: impl FnOnce(&GameDb) -> Result<T, DbError>) -> Result<T, ApiError> {
        match &*self.lock() {
            Slot::Ready(db) => work(db).map_err(|e| ApiError::internal(e.to_string())),
            Slot::Building { read, files, done } => Err(ApiError::busy(format!(
                "the game database is being built from the shipped collections (file {} of {files}, {read} games read); try again shortly",
                done + 1
            ))
            .with_code("database-building")
            .with("file", done + 1)
            .with("files", *files)
            .with("read", *read)),
            Slot::Failed(e) => Err(ApiError::internal(format!(
                "the game database could not be built: {e}"
            ))),
        }
    }
}

/// A stored game as PGN with Chinese moves.
#[must_use]
pub fn pgn(g: &FullGame) -> String {
    g.pgn(chariot_rules::notation::Notation::Chinese)
}
