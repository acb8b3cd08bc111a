//! The explorer's API through the router: books, tables, the games through a position, one
//! game as JSON and PGN, and the bad-input cases.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chariot_formats::egtb::Tablebases;
use chariot_gamedb::db::GameDb;
use chariot_games::checked::check;
use chariot_games::read::read_all;
use chariot_web::explorer_db::GamesDb;
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const GAMES: &str = r#"[Event "Cup"]
[Date "2001.01.01"]
[Red "Lü Qin"]
[Black "Xu Yinchuan"]
[Result "1-0"]

1. h2e2 h9g7 2. h0g2 i9h9 1-0

[Event "League"]
[Date "2003.05.06"]
[Red "Xu Yinchuan"]
[Black "Lü Qin"]
[Result "1/2-1/2"]

1. h2e2 b9c7 2. h0g2 1/2-1/2
"#;

fn app(dir: &std::path::Path) -> Router {
    let path = dir.join("g.sqlite");
    {
        let mut db = GameDb::create_or_open(&path).unwrap();
        let (_, records) = read_all(GAMES.as_bytes());
        let games: Vec<_> = records.iter().map(|r| check(r).unwrap()).collect();
        let import = db.begin_import("t.pgn", 1, "test").unwrap();
        db.insert_batch(import, games.len(), &games, &[]).unwrap();
        db.finish_import(import).unwrap();
    }
    let tables = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::open(&[tables]).unwrap(),
        Limits::default(),
    )
    .with_games_db(Arc::new(GamesDb::open(&path).unwrap()));
    router(Arc::new(state))
}

async fn get(app: &Router, uri: &str) -> (StatusCode, String) {
    let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

async fn json(app: &Router, uri: &str) -> (StatusCode, Value) {
    let (status, text) = get(app, uri).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

const START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";

#[tokio::test]
async fn book_moves_carry_the_probe_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    let (status, book) = json(&app, &format!("/api/book?fen={START}")).await;
    assert_eq!(status, StatusCode::OK, "{book}");
    let moves = book["moves"].as_array().unwrap();
    assert!(moves.len() > 5);
    let first = &moves[0];
    assert_eq!(first["move"], "h2e2");
    assert_eq!(first["chinese"], "炮二平五");
    // The same numbers as book-builder probe --json on the same book.
    let pos = chariot_rules::Position::start();
    let probe =
        book_builder::inspect::probe_moves(&chariot_formats::book::builtin::book().unwrap(), &pos);
    assert_eq!(first["games"], u64::from(probe[0].games));
    assert_eq!(first["red_wins"], u64::from(probe[0].red_wins));
    assert!((first["probability"].as_f64().unwrap() - probe[0].probability).abs() < 1e-12);
    assert_eq!(book["books"][0]["name"], "built-in book");
    let (status, e) = json(&app, "/api/book?fen=nonsense").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("nonsense"), "{e}");
}

#[tokio::test]
async fn tables_give_every_move_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    // Rook and king against king: a win for Red.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4%20w%20-%20-%200%201";
    let (status, tb) = json(&app, &format!("/api/tablebase?fen={fen}")).await;
    assert_eq!(status, StatusCode::OK, "{tb}");
    assert_eq!(tb["wdl"], "win");
    assert_eq!(tb["dtm"], 1);
    // Mate (e1d1) or stalemate (e1e8), which loses too.
    let best = tb["best"].as_str().unwrap();
    assert!(["e1d1", "e1e8"].contains(&best), "{tb}");
    assert_eq!(tb["line"][0]["iccs"], best);
    let moves = tb["moves"].as_array().unwrap();
    assert_eq!(moves[0]["wdl"], "win");
    assert_eq!(moves[0]["dtm"], 1);
    assert!(
        moves
            .iter()
            .any(|m| m["wdl"] == "draw" || m["dtm"].as_u64() > Some(1))
    );
    // Not covered: 404 with a JSON error; a bad FEN: 422, as at every endpoint.
    let (status, e) = json(&app, &format!("/api/tablebase?fen={START}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{e}");
    assert!(e["error"].as_str().unwrap().contains("no table"), "{e}");
    let (status, _) = json(&app, "/api/tablebase?fen=9/9/9").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn the_games_through_a_position_with_filters_and_one_game() {
    let dir = tempfile::tempdir().unwrap();
    let app = app(dir.path());
    let (status, found) = json(&app, &format!("/api/games?fen={START}&moves=h2e2")).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    assert_eq!(found["total"], 2);
    assert_eq!(found["moves"][0]["games"], 1);
    let next: Vec<&str> = found["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["chinese"].as_str().unwrap())
        .collect();
    assert!(
        next.contains(&"马８进７") && next.contains(&"马２进３"),
        "{next:?}"
    );
    assert_eq!(found["games"][0]["date"], "2003-05-06");
    // Lü Qin as Red: one game.
    let (_, red) = json(
        &app,
        &format!("/api/games?fen={START}&player=L%C3%BC%20Qin&color=red"),
    )
    .await;
    assert_eq!(red["total"], 1, "{red}");
    assert_eq!(red["games"][0]["red"], "Lü Qin");
    let (_, none) = json(&app, &format!("/api/games?fen={START}&until=2000")).await;
    assert_eq!(none["total"], 0);
    // One game, as JSON and as PGN.
    let id = found["games"][0]["id"].as_i64().unwrap();
    let (status, game) = json(&app, &format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 3);
    assert_eq!(game["red"], "Xu Yinchuan");
    let (status, pgn) = get(&app, &format!("/api/games/{id}.pgn")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        pgn.contains("[Red \"Xu Yinchuan\"]") && pgn.contains("炮二平五"),
        "{pgn}"
    );
    // Bad input: each names its parameter.
    for (uri, word) in [
        (format!("/api/games?fen={START}&color=green"), "color"),
        (format!("/api/games?fen={START}&since=2001-13"), "since"),
        (format!("/api/games?fen={START}&result=maybe"), "result"),
        (format!("/api/games?fen={START}&order=random"), "order"),
        (format!("/api/games?fen={START}&limit=0"), "limit"),
        (format!("/api/games?fen={START}&bogus=1"), "bogus"),
        ("/api/games/abc".to_owned(), "abc"),
    ] {
        let (status, e) = json(&app, &uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {e}");
        assert!(e["error"].as_str().unwrap().contains(word), "{uri}: {e}");
    }
    // Xiangqi content the rules reject: 422, as at every endpoint.
    for (uri, word) in [
        ("/api/games?fen=xyz".to_owned(), "xyz"),
        (format!("/api/games?fen={START}&moves=h2h9x"), "h2h9x"),
        (format!("/api/book?fen={START}&moves=h2h9x"), "h2h9x"),
    ] {
        let (status, e) = json(&app, &uri).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{uri}: {e}");
        assert!(e["error"].as_str().unwrap().contains(word), "{uri}: {e}");
    }
    let (status, _) = json(&app, "/api/games/999999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
