//! Finished reviews kept on disk (`chariot_web::review::store`), through the router: a review
//! made before a restart is answered done on the first request after it, and is the review a
//! new search makes; a review of another game, node budget, program or set of tables is not
//! answered from the store, nor a cancelled one kept; a damaged store or one that refuses
//! writes leaves reviews working.

mod common;

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use chariot_formats::egtb::Tablebases;
use chariot_web::review_store::{FILE_NAME, ReviewStore};
use chariot_web::{AppState, Limits, router};
use common::{call, finished_review, tables};
use serde_json::Value;

/// A short game: Red hangs a chariot and Black takes it (`tests/review.rs`).
const GAME: &str = r#"{"moves": ["a0a1", "b9c7", "a1d1", "c6c5", "d1d5", "c7d5"]}"#;

/// Few nodes a position, so that a review takes a fraction of a second.
fn limits(nodes: u64) -> Limits {
    Limits {
        review_nodes: nodes,
        ..Limits::default()
    }
}

/// A server (just started) with these tables and limits, keeping reviews in `path` for
/// `program` when given one.
fn server(path: Option<&Path>, program: &str, tables: Tablebases, limits: Limits) -> Router {
    let mut state = AppState::new(chariot_formats::book::builtin::book_set(), tables, limits);
    if let Some(path) = path {
        state = state.with_review_store(ReviewStore::open(path, program).unwrap());
    }
    router(Arc::new(state))
}

async fn review(app: &Router, body: &str) -> (StatusCode, Value) {
    call(app, "POST", "/api/review", Some(body)).await
}

/// Reviews `body` to its end on `app`, which must start a review (202): the finished job.
async fn reviewed(app: &Router, body: &str) -> Value {
    let (status, job) = review(app, body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let job = finished_review(app, job["id"].as_str().unwrap()).await;
    assert_eq!(job["state"], "done", "{job}");
    job
}

/// Asks `app` for the review of `body`, which it must start (202, running), and cancels it.
async fn started_anew(app: &Router, body: &str) {
    let (status, job) = review(app, body).await;
    assert_eq!(
        (status, &job["state"]),
        (StatusCode::ACCEPTED, &Value::from("running")),
        "{body}: {job}"
    );
    let id = job["id"].as_str().unwrap();
    call(app, "DELETE", &format!("/api/review/{id}"), None).await;
}

#[tokio::test]
async fn a_finished_review_is_answered_at_once_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let first = reviewed(
        &server(Some(&path), "chariot 1", tables(), limits(20_000)),
        GAME,
    )
    .await;
    // A new server on the same file: done on the first request, nothing searched.
    let app = server(Some(&path), "chariot 1", tables(), limits(20_000));
    let (status, job) = review(&app, GAME).await;
    assert_eq!(status, StatusCode::OK, "{job}");
    assert_eq!(
        (&job["state"], &job["done"], &job["total"], &job["kind"]),
        (
            &Value::from("done"),
            &Value::from(7),
            &Value::from(7),
            &Value::from("review")
        )
    );
    assert_eq!(job["result"], first["result"]);
    // The time the review took when it was made (read as it was stored, just before its end).
    let (then, now) = (first["seconds"].as_f64(), job["seconds"].as_f64());
    assert!(now > Some(0.0) && now <= then, "{then:?} {now:?}");
    let id = job["id"].as_str().unwrap();
    let (status, shown) = call(&app, "GET", &format!("/api/review/{id}"), None).await;
    assert_eq!(
        (status, &shown["result"]),
        (StatusCode::OK, &first["result"])
    );
    // The same game named otherwise (Chinese moves) is the same review.
    let (status, again) = review(
        &app,
        r#"{"moves": ["车九进一", "马2进3", "车九平六", "卒3进1", "车六进四", "马3进4"]}"#,
    )
    .await;
    assert_eq!((status, &again["id"]), (StatusCode::OK, &job["id"]));
    // And it is what a new review says: the review depends on nothing the key leaves out.
    let fresh = reviewed(&server(None, "", tables(), limits(20_000)), GAME).await;
    assert_eq!(fresh["result"], first["result"]);
}

#[tokio::test]
async fn another_key_or_program_is_reviewed_anew_and_a_cancelled_review_is_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    reviewed(
        &server(Some(&path), "chariot 1", tables(), limits(20_000)),
        GAME,
    )
    .await;
    let same = || server(Some(&path), "chariot 1", tables(), limits(20_000));
    // Other moves: the game less its last move, or with another one.
    started_anew(
        &same(),
        r#"{"moves": ["a0a1", "b9c7", "a1d1", "c6c5", "d1d5"]}"#,
    )
    .await;
    started_anew(
        &same(),
        r#"{"moves": ["a0a1", "b9c7", "a1d1", "c6c5", "d1d5", "h9g7"]}"#,
    )
    .await;
    // Another start with the same moves.
    started_anew(
        &same(),
        r#"{"fen": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 2", "moves": ["a0a1", "b9c7", "a1d1", "c6c5", "d1d5", "c7d5"]}"#,
    )
    .await;
    // Another node budget, another program, no tables.
    started_anew(
        &server(Some(&path), "chariot 1", tables(), limits(20_001)),
        GAME,
    )
    .await;
    started_anew(
        &server(Some(&path), "chariot 2", tables(), limits(20_000)),
        GAME,
    )
    .await;
    started_anew(
        &server(
            Some(&path),
            "chariot 1",
            Tablebases::default(),
            limits(20_000),
        ),
        GAME,
    )
    .await;
    // The first server's review is still there for its key.
    let (status, job) = review(&same(), GAME).await;
    assert_eq!(
        (status, &job["state"]),
        (StatusCode::OK, &Value::from("done"))
    );
    // A review cancelled before its end is not kept (a budget no position reaches in time).
    let slow = || server(Some(&path), "chariot 1", tables(), limits(50_000_000));
    let app = slow();
    let (status, job) = review(&app, GAME).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let id = job["id"].as_str().unwrap();
    call(&app, "DELETE", &format!("/api/review/{id}"), None).await;
    assert_eq!(finished_review(&app, id).await["state"], "cancelled");
    started_anew(&slow(), GAME).await;
}

#[tokio::test]
async fn a_damaged_store_or_one_that_refuses_writes_leaves_reviews_working() {
    let dir = tempfile::tempdir().unwrap();
    // A file that is no database is refused when the server starts (it warns and keeps none).
    let garbage = dir.path().join("garbage.sqlite");
    std::fs::write(&garbage, vec![0x5a_u8; 8192]).unwrap();
    assert!(ReviewStore::open(&garbage, "chariot 1").is_err());
    // A store damaged while the server runs: the review is made and answered all the same.
    let path = dir.path().join(FILE_NAME);
    let app = server(Some(&path), "chariot 1", tables(), limits(20_000));
    std::fs::write(&path, vec![0x5a_u8; 8192]).unwrap();
    reviewed(&app, GAME).await;
    // A store that refuses every write (as a read-only file does): reviewed, answered, not kept.
    let path = dir.path().join("refusing.sqlite");
    drop(ReviewStore::open(&path, "chariot 1").unwrap());
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse_insert BEFORE INSERT ON reviews BEGIN SELECT RAISE(FAIL, 'read-only'); END;
             CREATE TRIGGER refuse_update BEFORE UPDATE ON reviews BEGIN SELECT RAISE(FAIL, 'read-only'); END;",
        )
        .unwrap();
    let refusing = || server(Some(&path), "chariot 1", tables(), limits(20_000));
    reviewed(&refusing(), GAME).await;
    started_anew(&refusing(), GAME).await;
}
