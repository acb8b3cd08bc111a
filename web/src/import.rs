//! Game files uploaded from the browser into the explorer's game database
//! (`POST /api/games?name=FILE`, the file as the body).
//!
//! The file may be PGN (ICCS, WXF or Chinese moves), DhtmlXQ or XQF, in any encoding the games
//! crate detects (UTF-8, GBK, Big5), zstd-compressed or not, up to [`MAX_UPLOAD`] bytes. The
//! import runs as a job (`crate::jobs`) with `book-builder import`'s code: every game checked
//! against the rules, stored batch by batch in transactions, games already stored counted as
//! duplicates (importing a file twice adds nothing), rejected games reported with their number,
//! line, ply and reason.

use std::io::Write;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use book_builder::import::FileImport;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, query};
use crate::jobs::JobView;
use crate::state::AppState;

/// The largest file accepted: 64 MiB (the shipped collections are 2 to 9 MiB compressed).
pub const MAX_UPLOAD: usize = 64 << 20;

/// The rejected games a report lists at most (it counts them all).
pub const MAX_LISTED: usize = 200;

/// The upload's query string.
#[derive(Debug, Deserialize)]
pub(crate) struct ImportQuery {
    /// The file's name (its extension helps tell the format).
    name: String,
}

/// One rejected game.
#[derive(Debug, Serialize)]
struct RejectionView {
    /// Its number in the file, from 1.
    game: Option<usize>,
    /// The line it starts on (text files).
    line: Option<usize>,
    /// The offending ply, from 1.
    ply: Option<usize>,
    /// The category (`illegal move`, ...).
    kind: String,
    /// What is wrong.
    message: String,
}

/// What an import did: the job's `result`.
#[derive(Debug, Serialize)]
pub struct ImportReport {
    /// The file's name.
    file: String,
    /// `PGN`, `DhtmlXQ` or `XQF`, when recognised.
    format: Option<&'static str>,
    /// The text encoding detected.
    encoding: Option<&'static str>,
    /// The upload was zstd-compressed.
    zstd: bool,
    /// Games read.
    read: usize,
    /// New games stored.
    imported: usize,
    /// Games already in the database.
    duplicates: usize,
    /// Duplicates whose result contradicted the stored copy's.
    conflicts: usize,
    /// Games rejected.
    rejected: usize,
    /// The first [`MAX_LISTED`] rejected games.
    rejections: Vec<RejectionView>,
    /// Why the file could not be read at all, if it could not.
    unreadable: Option<String>,
    /// Games in the database now.
    total_games: Option<u64>,
}

impl ImportReport {
    fn of(name: &str, r: &FileImport, total_games: Option<u64>) -> ImportReport {
        ImportReport {
            file: name.to_owned(),
            format: r.summary.format.map(chariot_games::read::FileFormat::name),
            encoding: r
                .summary
                .encoding
                .map(chariot_games::encoding::TextEncoding::name),
            zstd: r.summary.zstd,
            read: r.read,
            imported: r.outcome.imported,
            duplicates: r.outcome.duplicates,
            conflicts: r.outcome.conflicts,
            rejected: r.rejections.len(),
            rejections: r
                .rejections
                .iter()
                .take(MAX_LISTED)
                .map(|j| RejectionView {
                    game: j.game,
                    line: j.line,
                    ply: j.ply,
                    kind: j.kind.to_string(),
                    message: j.message.clone(),
                })
                .collect(),
            unreadable: r.failure(),
            total_games,
        }
    }
}

/// The file name as recorded: its last path component, trimmed, at most 200 characters.
fn file_name(name: &str) -> Result<String, ApiError> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("").trim();
    if base.is_empty() {
        return Err(ApiError::bad_request("name: the file's name is empty"));
    }
    if base.chars().count() > 200 || base.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "name: {base:?}: expected a file name of at most 200 printable characters"
        )));
    }
    Ok(base.to_owned())
}

/// `POST /api/games?name=FILE`: starts importing the body; `202 Accepted` with the job.
pub(crate) async fn import(
    State(state): State<Arc<AppState>>,
    q: Result<Query<ImportQuery>, QueryRejection>,
    body: Bytes,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let name = file_name(&query(q)?.name)?;
    if body.is_empty() {
        return Err(
            ApiError::bad_request(format!("{name}: the file is empty")).with_code("empty-file")
        );
    }
    let db = crate::explorer::games_db(&state)?;
    // A 503 now rather than a failed job while the default database is being built.
    db.with(|_| Ok(()))?;
    // The reader works on files (it memory-maps them and tells zstd by its magic); the name's
    // extension is kept as a hint.
    let suffix = name
        .rsplit_once('.')
        .map(|(_, ext)| format!(".{ext}"))
        .unwrap_or_default();
    let file = tempfile::Builder::new()
        .prefix("chariot-upload-")
        .suffix(&suffix)
        .tempfile()
        .and_then(|mut f| f.write_all(&body).map(|()| f))
        .map_err(|e| ApiError::internal(format!("cannot keep the upload: {e}")))?;
    drop(body);
    let job = state
        .jobs
        .add(state.new_id(), "import", name.clone(), "games")
        .ok_or_else(crate::error::too_many_jobs)?;
    let view = job.view();
    let worker = Arc::clone(&job);
    std::thread::Builder::new()
        .name("import".into())
        .spawn(move || {
            let outcome = db.import(file.path(), &name, &mut |read| {
                worker.progress(read as u64, None);
            });
            drop(file);
            match outcome {
                Ok(r) => {
                    let every = chariot_gamedb::filter::Filter {
                        setups: true,
                        ..chariot_gamedb::filter::Filter::default()
                    };
                    let total = db.with(|d| d.summary(&every)).ok().map(|s| s.games);
                    let report = ImportReport::of(&name, &r, total);
                    worker.finish(serde_json::to_value(report).unwrap_or_default());
                }
                Err(e) => worker.fail(e.message().to_owned()),
            }
        })
        .map_err(|e| {
            job.fail(format!("cannot start the import: {e}"));
            ApiError::internal(format!("cannot start the import: {e}"))
        })?;
    Ok((StatusCode::ACCEPTED, Json(view)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_lose_their_directories() {
        assert_eq!(file_name("C:\\games\\a.pgn").unwrap(), "a.pgn");
        assert_eq!(file_name("/tmp/x/b.xqf").unwrap(), "b.xqf");
        assert!(file_name(" ").is_err());
        assert!(file_name("a/").is_err());
        assert!(file_name("a\nb.pgn").is_err());
    }
}
