//! Opening names over HTTP: `GET /api/opening`, the `opening` of a position and of a game, and
//! the `ECCO` and `Opening` tags of a game's PGN in its language.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use chariot_formats::egtb::Tablebases;
use chariot_web::{AppState, Limits, router};
use serde_json::{Value, json};

use common::call_text as call;

const START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";

/// The first fifteen plies of the masters' most played line of C45 (五九炮过河车对屏风马平炮兑车).
const C45: [&str; 15] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "h0h6", "h7i7", "h6g6", "i7i8",
    "b0c2", "d9e8", "b2a2",
];

fn app() -> Router {
    router(Arc::new(AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::default(),
        Limits {
            max_think: Duration::from_millis(200),
            ..Limits::default()
        },
    )))
}

async fn json(app: &Router, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
    let (status, text) = call(app, method, uri, body).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
    )
}

#[tokio::test]
async fn a_line_is_named_and_coded() {
    let app = app();
    let (status, v) = json(
        &app,
        "GET",
        &format!("/api/opening?fen={START}&moves={}", C45.join(",")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v,
        json!({
            "eco": "C45",
            "name_zh": "五九炮过河车对屏风马平炮兑车",
            "name_en": "Five-Nine Cannons, River-Crossing Chariot vs Screen Horses, Cannon Shift for Chariot Exchange",
        })
    );
    // Any notation, as the position takes it.
    let (_, v) = json(
        &app,
        "GET",
        &format!("/api/opening?fen={START}&moves=相三进五"),
        None,
    )
    .await;
    assert_eq!(v["name_zh"], "飞相局");
    assert_eq!(v["name_en"], "Elephant Opening");
    // No move, or a set-up position: no opening.
    let (status, v) = json(&app, "GET", &format!("/api/opening?fen={START}"), None).await;
    assert_eq!((status, v), (StatusCode::OK, Value::Null));
    let (_, v) = json(
        &app,
        "GET",
        "/api/opening?fen=3k5/9/9/9/9/9/9/9/4R4/4K4%20w&moves=e1d1",
        None,
    )
    .await;
    assert_eq!(v, Value::Null);
    // A first move that names no opening (the cannon takes the horse).
    let (_, v) = json(
        &app,
        "GET",
        &format!("/api/opening?fen={START}&moves=h2h9"),
        None,
    )
    .await;
    assert_eq!(v, Value::Null);
    // Mistakes are said as the position says them.
    let (status, v) = json(&app, "GET", "/api/opening?fen=xyz", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["code"], "invalid-fen");
    let (status, v) = json(
        &app,
        "GET",
        &format!("/api/opening?fen={START}&moves=a0a5"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["code"], "illegal-line");
}

#[tokio::test]
async fn the_position_carries_the_opening_of_its_line() {
    let app = app();
    let (_, v) = json(
        &app,
        "GET",
        &format!("/api/position?fen={START}&moves=h2e2,h9g7,h0g2,b9c7"),
        None,
    )
    .await;
    assert_eq!(v["opening"]["name_zh"], "中炮对屏风马", "{v}");
    assert_eq!(v["opening"]["name_en"], "Central Cannon vs Screen Horses");
    let (_, v) = json(&app, "GET", &format!("/api/position?fen={START}"), None).await;
    assert!(v["opening"].is_null(), "{v}");
}

#[tokio::test]
async fn a_game_shows_its_opening_and_its_pgn_has_the_tags_in_its_language() {
    let app = app();
    for (lang, name) in [
        ("zh", "五九炮过河车对屏风马平炮兑车"),
        (
            "en",
            "Five-Nine Cannons, River-Crossing Chariot vs Screen Horses, Cannon Shift for Chariot Exchange",
        ),
    ] {
        // The person plays Black after the masters' first fifteen plies.
        let body = json!({ "side": "black", "level": 1, "moves": C45, "lang": lang }).to_string();
        let (status, game) = json(&app, "POST", "/api/play", Some(&body)).await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        assert_eq!(game["opening"]["eco"], "C45", "{game}");
        assert_eq!(game["opening"]["name_zh"], "五九炮过河车对屏风马平炮兑车");
        let id = game["id"].as_str().unwrap();
        let (status, pgn) = call(&app, "GET", &format!("/api/play/{id}/pgn"), None).await;
        assert_eq!(status, StatusCode::OK);
        assert!(pgn.contains("[ECCO \"C45\"]"), "{pgn}");
        assert!(pgn.contains(&format!("[Opening \"{name}\"]")), "{pgn}");
    }
    // A game from the start names its opening from the first move on.
    let (_, game) = json(
        &app,
        "POST",
        "/api/play",
        Some(r#"{"side":"red","level":1}"#),
    )
    .await;
    assert!(game["opening"].is_null(), "{game}");
    let id = game["id"].as_str().unwrap();
    let (status, game) = json(
        &app,
        "POST",
        &format!("/api/play/{id}/moves"),
        Some(r#"{"move":"炮二平五"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let name = game["opening"]["name_zh"].as_str().unwrap();
    assert!(
        name.starts_with("中炮") || name.starts_with("顺炮") || name.starts_with("列炮"),
        "{name}"
    );
}
