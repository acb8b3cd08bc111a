//! The engine's built-in book: which collections it is built from, with which parameters, and
//! the one command that rebuilds it (`book-builder build-default`, see `data/README.md`).
//!
//! The parameters live here, not in a script, so that the book the engine embeds can always be
//! remade byte for byte from the files in `data/games/`: the build has no clock, no random
//! choice and no dependence on the order of the games.

use std::path::{Path, PathBuf};

use crate::compile::{CompileOptions, CompileReport, compile};
use crate::import::{DEFAULT_BATCH, FileImport, import_file};
use chariot_gamedb::db::GameDb;
use chariot_gamedb::filter::Filter;

/// A game collection the default book is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// The file name in `data/games/`.
    pub file: &'static str,
    /// Who made it and under which licence (stored in the book's metadata).
    pub attribution: &'static str,
}

/// The collections, in import order.
pub const SOURCES: [Source; 3] = [
    Source {
        file: "ccpd-masters.big5.pgn.zst",
        attribution: "Chinese Chess Practical Dataset by Yvonne761 \
                      (github.com/Yvonne761/Chinese-Chess-Practical-Dataset), CC BY 4.0",
    },
    Source {
        file: "Hu_Ronghua_1391_UCI_games.pgn.zst",
        attribution: "wukong-xiangqi by Maksim Korzh (github.com/maksimKorzh/wukong-xiangqi), MIT",
    },
    Source {
        file: "Liu_Dahua_1125_UCI_games.pgn.zst",
        attribution: "wukong-xiangqi by Maksim Korzh (github.com/maksimKorzh/wukong-xiangqi), MIT",
    },
];

/// The compile parameters of the default book.
#[must_use]
pub fn options() -> CompileOptions {
    let mut metadata = vec!["book: Chariot's built-in book".to_owned()];
    for s in SOURCES {
        metadata.push(format!("source: {} ({})", s.file, s.attribution));
    }
    CompileOptions {
        max_ply: 30,
        min_games: 3,
        min_score: 0.0,
        mirror: true,
        filter: Filter::default(),
        metadata,
    }
}

/// Why the default book could not be built.
#[derive(Debug, thiserror::Error)]
pub enum DefaultBookError {
    /// A collection is missing.
    #[error("{0}: missing (the default book is built from the collections in data/games/)")]
    Missing(PathBuf),
    /// A collection could not be read.
    #[error("{path}: cannot be read: {reason}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The temporary database failed.
    #[error(transparent)]
    Db(#[from] chariot_gamedb::db::DbError),
    /// Compiling or writing the book failed.
    #[error(transparent)]
    Compile(#[from] crate::compile::CompileError),
    /// No temporary directory for the database.
    #[error("cannot make a temporary directory for the game database: {0}")]
    Scratch(std::io::Error),
}

/// What building the default book did.
#[derive(Debug)]
pub struct DefaultBuild {
    /// Per collection: its path and what importing it did.
    pub imports: Vec<(PathBuf, FileImport)>,
    /// The compile.
    pub compile: CompileReport,
    /// Where the book was written.
    pub book: PathBuf,
}

/// Builds the default book from `data/games/` into `data/book.xqb`, through a game database at
/// `db` (created, or added to when it exists; a temporary one when `None`, removed afterwards).
///
/// # Errors
/// [`DefaultBookError`] naming the missing or unreadable file, or the database or book error.
pub fn build(
    data: &Path,
    db: Option<&Path>,
    progress: &mut dyn FnMut(&str, usize),
) -> Result<DefaultBuild, DefaultBookError> {
    // Without --db the database lives in a temporary directory, removed (with SQLite's -wal
    // and -shm files) when `scratch` is dropped.
    let scratch = tempfile::tempdir().map_err(DefaultBookError::Scratch)?;
    let db_path = db.map_or_else(|| scratch.path().join("games.db"), Path::to_owned);
    let (gdb, imports) = import_collections(data, &SOURCES, &db_path, progress)?;
    let book = data.join("book.xqb");
    let compile = compile(&gdb, &options(), &book)?;
    Ok(DefaultBuild {
        imports,
        compile,
        book,
    })
}

/// Imports the collections `sources` of `data/games/` into the database at `db_path` (created,
/// or added to): the database and what importing each file did.
///
/// # Errors
/// [`DefaultBookError`] naming a missing or unreadable file (before anything is imported when
/// one is missing), or the database's error.
pub fn import_collections(
    data: &Path,
    sources: &[Source],
    db_path: &Path,
    progress: &mut dyn FnMut(&str, usize),
) -> Result<(GameDb, Vec<(PathBuf, FileImport)>), DefaultBookError> {
    let games = data.join("games");
    for s in sources {
        let p = games.join(s.file);
        if !p.is_file() {
            return Err(DefaultBookError::Missing(p));
        }
    }
    let mut gdb = GameDb::create_or_open(db_path)?;
    let mut imports = Vec::new();
    for s in sources {
        let p = games.join(s.file);
        let report = import_file(&mut gdb, &p, s.file, DEFAULT_BATCH, &mut |n| {
            progress(s.file, n);
        })?;
        if let Some(reason) = report.failure() {
            return Err(DefaultBookError::Unreadable { path: p, reason });
        }
        imports.push((p, report));
    }
    Ok((gdb, imports))
}
