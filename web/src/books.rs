//! Compiling books in the browser: `POST /api/books` compiles the games a filter selects (one
//! player's games as Red, say) with `book-builder compile`'s code, as a job, into the
//! [`Library`](crate::compiled_books::Library); `GET /api/books` lists every book the server has (the
//! configured ones and the compiled ones); `GET /api/books/{name}` downloads a compiled book's
//! file.
//!
//! A compiled book is used at once: the explorer's book pane shows it beside the configured
//! books, and a new game may be played against an engine that plays from it (`"book": NAME`
//! in `POST /api/play`).

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use book_builder::compile::{CompileOptions, compile};
use chariot_formats::book::Book;
use serde::{Deserialize, Serialize};

use crate::compiled_books::{EXTENSION, configured_name};
use crate::error::ApiError;
use crate::explorer::FilterParams;
use crate::jobs::JobView;
use crate::state::AppState;

/// A book's name: 1 to 60 letters (any script), digits, spaces, `-`, `_` or `.`, not starting
/// with a dot; it is the file's name too.
fn valid_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let ok = !name.is_empty()
        && name.chars().count() <= 60
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'));
    if ok {
        Ok(name.to_owned())
    } else {
        Err(ApiError::bad_request(format!(
            "name: {name:?}: expected 1 to 60 letters, digits, spaces, '-', '_' or '.' (not first)"
        ))
        .with_code("bad-book-name")
        .with("name", name))
    }
}

/// `POST /api/books`: what to compile.
#[derive(Debug, Deserialize)]
pub(crate) struct CompileRequest {
    /// The book's name.
    name: String,
    /// Which games: the explorer's filter parameters.
    #[serde(flatten)]
    filter: FilterParams,
    /// Moves at this ply or later are not counted (1 to 200; default 40).
    #[serde(default = "forty")]
    max_ply: u32,
    /// A move needs this many games (default 1).
    #[serde(default = "one")]
    min_games: u32,
    /// Merge positions with their mirror images (default true).
    #[serde(default = "yes")]
    mirror: bool,
    /// Anything else (a 400).
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, serde_json::Value>,
}

fn forty() -> u32 {
    40
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// What a compilation made: the job's `result`.
#[derive(Debug, Serialize)]
struct CompiledView {
    name: String,
    /// Where to download it.
    url: String,
    bytes: u64,
    /// Games counted.
    games: u64,
    /// Games that did not replay.
    broken: u64,
    positions: usize,
    entries: usize,
    /// The filter, as the book's metadata records it.
    filter: Vec<String>,
}

/// `POST /api/books`: starts compiling; `202 Accepted` with the job.
pub(crate) async fn compile_book(
    State(state): State<Arc<AppState>>,
    body: Result<Json<CompileRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let Json(req) = body?;
    crate::explorer::no_unknown(&req.rest)?;
    let name = valid_name(&req.name)?;
    let filter = req.filter.filter()?;
    if !(1..=200).contains(&req.max_ply) {
        return Err(ApiError::bad_request(format!(
            "max_ply: {}: expected 1 to 200",
            req.max_ply
        )));
    }
    if req.min_games == 0 {
        return Err(ApiError::bad_request("min_games: 0: expected at least 1"));
    }
    let Some(dir) = state.library.dir().map(std::path::Path::to_owned) else {
        return Err(
            ApiError::not_found("this server keeps no compiled books").with_code("no-library")
        );
    };
    let db = crate::explorer::games_db(&state)?;
    db.with(|_| Ok(()))?;
    let options = CompileOptions {
        max_ply: req.max_ply,
        min_games: req.min_games,
        min_score: 0.0,
        mirror: req.mirror,
        filter,
        metadata: vec![
            format!("name: {name}"),
            format!("compiled-by: chariot serve {}", env!("CARGO_PKG_VERSION")),
        ],
    };
    let job = state
        .jobs
        .add(state.new_id(), "book", name.clone(), "games")
        .ok_or_else(crate::error::too_many_jobs)?;
    let view = job.view();
    let worker = Arc::clone(&job);
    let shared = Arc::clone(&state);
    std::thread::Builder::new()
        .name("compile".into())
        .spawn(move || {
            let path = dir.join(format!("{name}.{EXTENSION}"));
            let made = std::fs::create_dir_all(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))
                .and_then(|()| {
                    db.with(|d| Ok(compile(d, &options, &path)))
                        .map_err(|e| e.message().to_owned())?
                        .map_err(|e| e.to_string())
                })
                .and_then(|report| {
                    let book = Book::open(&path).map_err(|e| e.to_string())?;
                    Ok((report, book))
                });
            match made {
                Ok((report, book)) => {
                    let view = CompiledView {
                        url: format!("/api/books/{name}"),
                        bytes: book.file_size() as u64,
                        games: report.games,
                        broken: report.broken,
                        positions: report.positions,
                        entries: report.entries,
                        filter: options.filter.describe(),
                        name: name.clone(),
                    };
                    worker.progress(report.games, Some(report.games));
                    shared.library.put(name, book);
                    worker.finish(serde_json::to_value(view).unwrap_or_default());
                }
                Err(e) => worker.fail(e),
            }
        })
        .map_err(|e| ApiError::internal(format!("cannot start the compilation: {e}")))?;
    Ok((StatusCode::ACCEPTED, Json(view)))
}

/// A book as `GET /api/books` lists it.
#[derive(Debug, Serialize)]
struct BookListed {
    name: String,
    /// `configured` (`--book`, or the built-in book) or `compiled`.
    kind: &'static str,
    /// `true` for the book built into the binary.
    builtin: bool,
    bytes: u64,
    entries: u64,
    /// Games its statistics come from.
    games: u64,
    /// Its metadata lines (filters, sources, tool).
    metadata: Vec<String>,
    /// Where to download it (compiled books).
    url: Option<String>,
}

fn listed(name: String, kind: &'static str, book: &Book) -> BookListed {
    BookListed {
        url: (kind == "compiled").then(|| format!("/api/books/{name}")),
        name,
        kind,
        builtin: crate::compiled_books::is_builtin(book),
        bytes: book.file_size() as u64,
        entries: book.len() as u64,
        games: book.info().games,
        metadata: book
            .info()
            .metadata
            .lines()
            .map(str::to_owned)
            .filter(|l| !l.is_empty())
            .collect(),
    }
}

/// `GET /api/books`.
pub(crate) async fn list(State(state): State<Arc<AppState>>) -> Json<serde_json::Value> {
    let mut books: Vec<BookListed> = state
        .books
        .books()
        .iter()
        .map(|b| listed(configured_name(b), "configured", b))
        .collect();
    for (name, set) in state.library.all() {
        if let Some(b) = set.books().first() {
            books.push(listed(name, "compiled", b));
        }
    }
    Json(serde_json::json!({ "books": books }))
}

/// `GET /api/books/{name}`: a compiled book's file.
pub(crate) async fn download(
    State(state): State<Arc<AppState>>,
    UrlPath(name): UrlPath<String>,
) -> Result<Response, ApiError> {
    let set = state.library.get(&name).ok_or_else(|| {
        ApiError::not_found(format!("no compiled book {name:?}"))
            .with_code("no-book")
            .with("name", name.as_str())
    })?;
    let path = set
        .books()
        .first()
        .map(|b| b.path().to_owned())
        .unwrap_or_default();
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|e| ApiError::internal(format!("{}: {e}", path.display())))?;
    // The file name in the header: ASCII as given, the UTF-8 name by RFC 5987.
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    Ok((
        [
            (header::CONTENT_TYPE, "application/octet-stream".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"{ascii}.{EXTENSION}\"; filename*=UTF-8''{encoded}.{EXTENSION}"
                ),
            ),
        ],
        bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_names() {
        assert_eq!(valid_name(" 胡榮華 red ").unwrap(), "胡榮華 red");
        assert!(valid_name("a/b").is_err());
        assert!(valid_name("..").is_err());
        assert!(valid_name("").is_err());
        assert!(valid_name(&"x".repeat(61)).is_err());
    }
}
