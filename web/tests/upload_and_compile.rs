//! Building from the browser through the router: game files uploaded into the game database
//! (GBK, zstd, rejected games, imported twice), jobs, books compiled from a filter, listed,
//! downloaded and played from at once, and the bad-input cases.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chariot_formats::egtb::Tablebases;
use chariot_web::compiled_books::Library;
use chariot_web::explorer_db::GamesDb;
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Three games in Chinese notation; the third has an illegal second move.
const GAMES: &str = "[Event \"测试赛\"]
[Date \"2024.05.01\"]
[Red \"胡荣华\"]
[Black \"许银川\"]
[Result \"1-0\"]

1. 炮二平五 马8进7 2. 马二进三 车9平8 1-0

[Event \"测试赛\"]
[Date \"2024.05.02\"]
[Red \"许银川\"]
[Black \"胡荣华\"]
[Result \"0-1\"]

1. 相三进五 马8进7 0-1

[Event \"测试赛\"]
[Date \"2024.05.03\"]
[Red \"胡荣华\"]
[Black \"吕钦\"]
[Result \"1/2-1/2\"]

1. 炮二平五 车9进5 1/2-1/2
";

fn gbk(text: &str) -> Vec<u8> {
    let (bytes, _, lossy) = encoding_rs::GBK.encode(text);
    assert!(!lossy);
    bytes.into_owned()
}

fn app(dir: &std::path::Path) -> Router {
    let tables = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    let (library, warnings) = Library::open(&dir.join("books"));
    assert!(warnings.is_empty());
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::open(&[tables]).unwrap(),
        Limits::default(),
    )
    .with_games_db(Arc::new(GamesDb::open(&dir.join("g.sqlite")).unwrap()))
    .with_library(library);
    router(Arc::new(state))
}

async fn call(app: &Router, method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, bytes.to_vec())
}

async fn json_call(app: &Router, method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let (status, bytes) = call(app, method, uri, body).await;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    json_call(app, "GET", uri, Vec::new()).await
}

/// Polls a job until it ends; its last view.
async fn wait(app: &Router, job: &Value) -> Value {
    let id = job["id"].as_str().unwrap();
    for _ in 0..600 {
        let (status, view) = get(app, &format!("/api/jobs/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        if view["state"] != "running" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("job {id} did not end");
}

/// Uploads `bytes` as `name` and waits for the import; the job's result.
async fn upload(app: &Router, name: &str, bytes: Vec<u8>) -> Value {
    let (status, job) = json_call(app, "POST", &format!("/api/games?name={name}"), bytes).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    assert_eq!(job["kind"], "import");
    let done = wait(app, &job).await;
    assert_eq!(done["state"], "done", "{done}");
    done["result"].clone()
}

const START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";

/// 胡荣华, percent-encoded.
const HU: &str = "%E8%83%A1%E8%8D%A3%E5%8D%8E";

#[tokio::test(flavor = "multi_thread")]
async fn an_uploaded_gbk_file_is_imported_once_with_its_rejections() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    let report = upload(&app, "games.pgn", gbk(GAMES)).await;
    assert_eq!(report["format"], "PGN", "{report}");
    assert_eq!(report["encoding"], "GB18030");
    assert_eq!(
        (&report["read"], &report["imported"], &report["rejected"]),
        (&json!(3), &json!(2), &json!(1)),
        "{report}"
    );
    let rejection = &report["rejections"][0];
    assert_eq!(
        (&rejection["game"], &rejection["ply"]),
        (&json!(3), &json!(2))
    );
    assert_eq!(report["total_games"], 2);
    // The games are explored at once, names and all.
    let (status, found) = get(&app, &format!("/api/games?fen={START}&player={HU}")).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    assert_eq!(found["total"], 2, "{found}");
    let (_, as_red) = get(
        &app,
        &format!("/api/games?fen={START}&player={HU}&color=red"),
    )
    .await;
    assert_eq!(as_red["total"], 1);
    assert_eq!(as_red["games"][0]["black"], "许银川");
    // The same file again, zstd-compressed this time: nothing new.
    let packed = zstd::encode_all(&gbk(GAMES)[..], 3).unwrap();
    let again = upload(&app, "games.pgn.zst", packed).await;
    assert_eq!(again["zstd"], true);
    assert_eq!(
        (&again["imported"], &again["duplicates"], &again["rejected"]),
        (&json!(0), &json!(2), &json!(1)),
        "{again}"
    );
    // Data that is no game file is reported, not imported.
    let junk = upload(&app, "junk.pgn", vec![0xff, 0xfe, 0x00, 0x01, 0x02]).await;
    assert_eq!(junk["imported"], 0, "{junk}");
}

#[tokio::test(flavor = "multi_thread")]
async fn uploads_and_jobs_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    let (status, e) = json_call(&app, "POST", "/api/games?name=a.pgn", Vec::new()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("empty"), "{e}");
    let (status, e) = json_call(&app, "POST", "/api/games", b"x".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    assert!(e["error"].as_str().unwrap().contains("name"), "{e}");
    let (status, _) = json_call(&app, "POST", "/api/games?name=%20", b"x".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let big = vec![b' '; chariot_web::import::MAX_UPLOAD + 1];
    let (status, _) = call(&app, "POST", "/api/games?name=big.pgn", big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (status, e) = get(&app, "/api/jobs/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(e["error"].as_str().unwrap().contains("nothing"));
    // The explorer's other parameters are checked too.
    let (status, e) = get(&app, &format!("/api/games?fen={START}&colour=red")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("colour"), "{e}");
    let (status, e) = get(&app, &format!("/api/games?fen={START}&min_elo=high")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(e["error"].as_str().unwrap().contains("min_elo"), "{e}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_book_compiled_from_a_filter_is_listed_downloaded_and_played_from() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    upload(&app, "games.pgn", gbk(GAMES)).await;
    // 胡荣华's games as Red: one game (the other one is rejected).
    let request = json!({"name": "胡荣华 red", "player": "胡荣华", "color": "red"});
    let (status, job) = json_call(&app, "POST", "/api/books", request.to_string().into()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let done = wait(&app, &job).await;
    assert_eq!(done["state"], "done", "{done}");
    let made = &done["result"];
    assert_eq!(made["games"], 1, "{made}");
    assert_eq!(made["positions"], 4, "{made}");
    // Listed after the configured book.
    let (_, list) = get(&app, "/api/books").await;
    let books = list["books"].as_array().unwrap();
    assert_eq!(books[0]["kind"], "configured");
    let compiled = books.iter().find(|b| b["kind"] == "compiled").unwrap();
    assert_eq!(compiled["name"], "胡荣华 red");
    assert_eq!(compiled["games"], 1);
    // In the explorer's book pane.
    let (_, book) = get(&app, &format!("/api/book?fen={START}")).await;
    let mine = book["books"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["kind"] == "compiled")
        .unwrap();
    assert_eq!(mine["moves"][0]["move"], "h2e2", "{book}");
    assert_eq!(mine["moves"][0]["games"], 1);
    assert_eq!(mine["moves"][0]["red_wins"], 1);
    // Downloaded, it is a valid book with the same entries.
    let url = made["url"].as_str().unwrap().replace(' ', "%20");
    let (status, bytes) = call(&app, "GET", &url.replace("胡荣华", HU), Vec::new()).await;
    assert_eq!(status, StatusCode::OK);
    let file = chariot_formats::book::Book::from_bytes("d.xqb", bytes).unwrap();
    assert_eq!(file.len() as u64, made["entries"].as_u64().unwrap());
    // Played from: as Black, the person meets the book's only first move.
    let game = json!({"side": "black", "level": 5, "book": "胡荣华 red"});
    let (status, view) = json_call(&app, "POST", "/api/play", game.to_string().into()).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    assert_eq!(view["engine"]["source"], "book", "{view}");
    assert_eq!(view["engine"]["move"], "h2e2", "{view}");
    // Kept: a server started again finds it.
    let (library, _) = Library::open(&dir.path().join("books"));
    assert!(library.get("胡荣华 red").is_some());
    // Compiled again under the same name, it is replaced, not doubled.
    let again = json!({"name": "胡荣华 red", "player": "胡荣华"});
    let (_, job) = json_call(&app, "POST", "/api/books", again.to_string().into()).await;
    assert_eq!(wait(&app, &job).await["result"]["games"], 2);
    let (_, list) = get(&app, "/api/books").await;
    let compiled: Vec<_> = list["books"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["kind"] == "compiled")
        .collect();
    assert_eq!(compiled.len(), 1);
    assert_eq!(compiled[0]["games"], 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn compilations_and_games_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    for (body, wanted) in [
        (json!({"name": "a/b"}), "name"),
        (json!({"name": ""}), "name"),
        (json!({"name": "x", "max_ply": 0}), "max_ply"),
        (json!({"name": "x", "min_games": 0}), "min_games"),
        (json!({"name": "x", "color": "green"}), "color"),
        (json!({"name": "x", "since": "yesterday"}), "since"),
        (json!({"name": "x", "plyers": "y"}), "plyers"),
    ] {
        let (status, e) = json_call(&app, "POST", "/api/books", body.to_string().into()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert!(e["error"].as_str().unwrap().contains(wanted), "{body}: {e}");
    }
    let (status, _) = json_call(&app, "POST", "/api/books", b"{".to_vec()).await;
    assert!(status.is_client_error());
    let (status, e) = get(&app, "/api/books/none").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(e["error"].as_str().unwrap().contains("none"));
    let game = json!({"side": "black", "book": "none"});
    let (status, e) = json_call(&app, "POST", "/api/play", game.to_string().into()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"].as_str().unwrap().contains("none"), "{e}");
}
