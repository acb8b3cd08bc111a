//! What the HTTP tests share: the router over the built-in book and the repository's endgame
//! tables, and requests sent through it as a client sends them (no network).

// Each test file uses some of these.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chariot_formats::egtb::Tablebases;
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The endgame tables of `data/egtb`.
pub fn tables() -> Tablebases {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    Tablebases::open(&[dir]).unwrap()
}

/// The API with the built-in book, the repository's tables and `limits`.
pub fn app_with(limits: Limits) -> Router {
    router(Arc::new(AppState::new(
        chariot_formats::book::builtin::book_set(),
        tables(),
        limits,
    )))
}

/// Sends `method uri` with a JSON `body` (none for `None`) and answers the status and the body.
pub async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_owned())))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

/// [`send`], the answer as text.
pub async fn call_text(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, String) {
    let (status, bytes) = send(app, method, uri, body).await;
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// [`send`], the answer as JSON (`null` for an empty body; a body that is not JSON fails the
/// test, showing it).
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let (status, bytes) = send(app, method, uri, body).await;
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&bytes)))
    };
    (status, value)
}

/// Polls the review `id` until it is no longer running: its job.
pub async fn finished_review(app: &Router, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, job) = call(app, "GET", &format!("/api/review/{id}"), None).await;
        assert_eq!(status, StatusCode::OK, "{job}");
        if job["state"] != "running" {
            return job;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the review is still running: {job}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
