//! The playing levels through the API: each is listed with its measured Elo, and its engine
//! never searches more nodes than the level says.

mod common;

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use chariot_web::Limits;
use serde_json::{Value, json};

fn app() -> Router {
    common::app_with(Limits {
        max_think: Duration::from_millis(500),
        ..Limits::default()
    })
}

/// [`common::call`] with a JSON value for the body.
async fn call(app: &Router, method: &str, uri: &str, body: Option<&Value>) -> (StatusCode, Value) {
    common::call(app, method, uri, body.map(Value::to_string).as_deref()).await
}

/// Middle-game positions no book knows (from the bench), the engine to move in each.
const POSITIONS: [&str; 4] = [
    "2bak4/4a4/4b1n2/2CC4p/3P5/4P1p1P/2p2cc2/4B1N2/4A4/2BAK4 b - - 6 24",
    "2baka1r1/9/2ncb1nc1/p3p1p1p/2p6/5NP2/PrP1P3P/C1N1B1C2/9/1RBAKA1R1 b - - 17 9",
    "1rb1ka3/4a3r/1C2b4/p1p1n3p/3N5/6p2/P1P3ncP/N4R3/4A4/1RB1KAB2 b - - 9 17",
    "2bak1r2/n3a3c/4b1n2/p1p2c2p/4C1p2/PN7/2C1N1P1P/9/4A2R1/2BAK1B2 w - - 1 23",
];

/// The nodes the engine searched for its first move of a game at `level` from `fen`.
async fn nodes_of_first_move(app: &Router, level: u64, fen: &str) -> u64 {
    // The person takes the side not to move, so the engine moves at once.
    let side = if fen.contains(" w ") { "black" } else { "red" };
    let body = json!({"side": side, "level": level, "fen": fen});
    let (status, game) = call(app, "POST", "/api/play", Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    assert_eq!(game["engine"]["source"], "search", "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    call(app, "DELETE", &format!("/api/play/{id}"), None).await;
    game["engine"]["nodes"].as_u64().unwrap()
}

#[tokio::test]
async fn every_level_is_listed_with_its_measured_elo_on_one_scale() {
    let (status, levels) = call(&app(), "GET", "/api/levels", None).await;
    assert_eq!(status, StatusCode::OK);
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), usize::from(chariot_web::play_levels::LEVELS));
    let anchor = &levels[0]["anchor"];
    assert!(
        anchor["engine"]
            .as_str()
            .unwrap()
            .contains("Fairy-Stockfish"),
        "{anchor}"
    );
    let mut last_upper = i64::MIN;
    for (i, l) in levels.iter().enumerate() {
        assert_eq!(l["level"], i + 1);
        assert_eq!(&l["anchor"], anchor, "one scale for every level");
        let (elo, lower, upper) = (
            l["elo"].as_i64().unwrap(),
            l["elo_lower"].as_i64().unwrap(),
            l["elo_upper"].as_i64().unwrap(),
        );
        assert!(
            lower <= elo && elo <= upper && l["games"].as_u64().unwrap() > 0,
            "{l}"
        );
        // Neighbouring levels' intervals do not overlap.
        assert!(lower > last_upper, "{l}");
        last_upper = upper;
    }
    // The weakest overlooks captures, as a beginner does.
    assert_eq!(levels[0]["blunders"], "huge");
}

#[tokio::test]
async fn no_level_searches_more_nodes_than_it_says() {
    let app = app();
    let (_, levels) = call(&app, "GET", "/api/levels", None).await;
    let label = |level: usize| levels[level - 1]["nodes"].as_u64().unwrap();
    // The weakest level in every position (its budget is the smallest, and was once exceeded
    // threefold), every level in one.
    for fen in POSITIONS {
        let nodes = nodes_of_first_move(&app, 1, fen).await;
        assert!(
            0 < nodes && nodes <= label(1),
            "level 1 searched {nodes} nodes (labelled {}) in {fen}",
            label(1)
        );
    }
    for level in 2..=levels.as_array().unwrap().len() {
        let nodes = nodes_of_first_move(&app, level as u64, POSITIONS[2]).await;
        assert!(
            nodes <= label(level),
            "level {level} searched {nodes} nodes (labelled {})",
            label(level)
        );
    }
}
