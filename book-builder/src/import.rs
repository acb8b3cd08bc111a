//! Importing game files into the database: read, check every move, store in batches.
//!
//! One file is read on its own thread and handed over in batches of games; each batch is
//! checked against the rules in parallel (resolving Chinese move text against positions is
//! where the time goes) and stored from this thread in one transaction ([`GameDb::insert_batch`]).
//! A game with an unreadable or illegal move is rejected whole, with its game number, ply and
//! reason, and the import goes on with the next game.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

use rayon::prelude::*;

use chariot_gamedb::db::{BatchOutcome, DbError, GameDb};
use chariot_games::checked::{self, RejectKind, Rejection};
use chariot_games::problem::Severity;
use chariot_games::read::{FileSummary, read_file};
use chariot_games::record::GameRecord;

/// Games per batch (and per transaction) unless told otherwise. Each transaction writes every
/// page of the position index it touched, and a batch's rows touch most of them, so larger
/// batches write less: 5,000 games cost a quarter of the kernel time of 1,000, and 10,000 some
/// 0.3 s less wall time than 5,000 on the master collection for 30 MB more memory
/// (docs/PERFORMANCE.md).
pub const DEFAULT_BATCH: usize = 10_000;

/// A batch of games read and checked, ready to store.
struct CheckedBatch {
    /// Games read (stored, duplicate or rejected).
    read: usize,
    /// The games that passed.
    games: Vec<checked::Game>,
    /// The games that did not.
    rejections: Vec<Rejection>,
}

/// What importing one file did.
#[derive(Clone, Debug, Default)]
pub struct FileImport {
    /// The reader's summary (format, encoding, problems).
    pub summary: FileSummary,
    /// Games read (including those the reader could not read).
    pub read: usize,
    /// New games stored, duplicates, conflicting results.
    pub outcome: BatchOutcome,
    /// The rejected games in file order.
    pub rejections: Vec<Rejection>,
    /// Wall time in seconds.
    pub seconds: f64,
}

impl FileImport {
    /// Whether the file as a whole could not be read.
    #[must_use]
    pub fn failed(&self) -> bool {
        self.summary.failed()
    }

    /// Why the file could not be read, if it could not.
    #[must_use]
    pub fn failure(&self) -> Option<String> {
        self.summary
            .problems
            .iter()
            .find(|p| p.severity == Severity::Error && p.game.is_none() && p.line.is_none())
            .map(|p| p.kind.to_string())
    }
}

/// Counts over several files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportTotals {
    /// Files imported.
    pub files: usize,
    /// Files that could not be read at all.
    pub unreadable_files: usize,
    /// Games read.
    pub read: usize,
    /// New games stored.
    pub imported: usize,
    /// Games already stored.
    pub duplicates: usize,
    /// Duplicates whose result contradicted the stored copy's.
    pub conflicts: usize,
    /// Rejected games by reason.
    pub rejected: BTreeMap<RejectKind, usize>,
}

impl ImportTotals {
    /// Adds one file's counts.
    pub fn add(&mut self, f: &FileImport) {
        self.files += 1;
        self.unreadable_files += usize::from(f.failed());
        self.read += f.read;
        self.imported += f.outcome.imported;
        self.duplicates += f.outcome.duplicates;
        self.conflicts += f.outcome.conflicts;
        for r in &f.rejections {
            *self.rejected.entry(r.kind).or_default() += 1;
        }
    }

    /// All rejected games.
    #[must_use]
    pub fn rejected_total(&self) -> usize {
        self.rejected.values().sum()
    }
}

/// Imports one file into `db` in batches of `batch` games, calling `progress` with the games
/// read so far after each batch. `name` is how the file is recorded and reported.
///
/// # Errors
/// [`DbError`] when the database fails; the batches stored before stay stored.
pub fn import_file(
    db: &mut GameDb,
    path: &Path,
    name: &str,
    batch: usize,
    progress: &mut dyn FnMut(usize),
) -> Result<FileImport, DbError> {
    let started = Instant::now();
    let batch = batch.max(1);
    let bytes = std::fs::metadata(path).map_or(0, |m| m.len());
    let import = db.begin_import(
        name,
        bytes,
        concat!("book-builder ", env!("CARGO_PKG_VERSION")),
    )?;
    let mut report = FileImport::default();

    let (tx, rx) = mpsc::sync_channel::<Vec<GameRecord>>(2);
    let summary = std::thread::scope(|scope| -> Result<FileSummary, DbError> {
        let reader = scope.spawn(move || {
            let mut buffer = Vec::with_capacity(batch);
            let mut open = true;
            let summary = read_file(path, &mut |g| {
                if !open {
                    return;
                }
                buffer.push(g);
                if buffer.len() == batch {
                    open = tx.send(std::mem::take(&mut buffer)).is_ok();
                }
            });
            if open && !buffer.is_empty() {
                let _ = tx.send(buffer);
            }
            summary
        });
        // Checking the next batch (on every core, through rayon) overlaps with storing this one
        // (SQLite's one writer): the two were the import's time, one after the other.
        let (checked_tx, checked_rx) = mpsc::sync_channel::<CheckedBatch>(1);
        let checker = scope.spawn(move || {
            for records in &rx {
                let checked: Vec<Result<checked::Game, Rejection>> =
                    records.par_iter().map(checked::check).collect();
                let mut batch = CheckedBatch {
                    read: records.len(),
                    games: Vec::with_capacity(checked.len()),
                    rejections: Vec::new(),
                };
                for c in checked {
                    match c {
                        Ok(g) => batch.games.push(g),
                        Err(r) => batch.rejections.push(r),
                    }
                }
                if checked_tx.send(batch).is_err() {
                    break;
                }
            }
        });
        let mut stored = Ok(());
        for batch in &checked_rx {
            match db.insert_batch(import, batch.read, &batch.games, &batch.rejections) {
                Ok(o) => {
                    report.outcome.imported += o.imported;
                    report.outcome.duplicates += o.duplicates;
                    report.outcome.conflicts += o.conflicts;
                }
                Err(e) => {
                    stored = Err(e);
                    break;
                }
            }
            report.read += batch.read;
            report.rejections.extend(batch.rejections);
            progress(report.read);
        }
        // Dropping the receiver stops the checker, and with it the reader, after an error.
        drop(checked_rx);
        checker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let summary = reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        stored.map(|()| summary)
    })?;

    // Games the reader could not read at all are rejected too, so that the counts add up.
    let unreadable: Vec<Rejection> = summary
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error && p.game.is_some())
        .map(|p| Rejection {
            game: p.game,
            line: p.line,
            ply: None,
            kind: RejectKind::Unreadable,
            message: p.kind.to_string(),
        })
        .collect();
    if !unreadable.is_empty() {
        db.insert_batch(import, unreadable.len(), &[], &unreadable)?;
        report.read += unreadable.len();
        report.rejections.extend(unreadable);
        report.rejections.sort_by_key(|r| r.game);
    }
    db.finish_import(import)?;
    report.summary = summary;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}
