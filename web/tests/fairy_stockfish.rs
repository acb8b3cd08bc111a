//! Debian's Fairy-Stockfish as an external engine, in its UCI mode (told `UCI_Variant
//! xiangqi`, squares a1..i10) and its UCCI mode: a game and an analysis through the API.
//!
//! Ignored by `cargo test`: they need the `fairy-stockfish` package (`/usr/games/fairy-stockfish`,
//! or the program in `FAIRY_STOCKFISH`). `scripts/engine-tests.sh` (run by `.ci/run`) installs it
//! and runs them.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use chariot_rules::Position;
use chariot_rules::notation::parse_iccs;
use chariot_web::engines::{EngineSpec, Engines};
use chariot_web::{AppState, Limits, router};
use serde_json::{Value, json};
fn program() -> String {
    let path = std::env::var("FAIRY_STOCKFISH")
        .unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_owned());
    assert!(
        std::path::Path::new(&path).exists(),
        "no Fairy-Stockfish at {path}: apt-get install fairy-stockfish, or set FAIRY_STOCKFISH"
    );
    path
}

fn app() -> Router {
    let fsf = program();
    let words = |w: &[&str]| -> EngineSpec {
        EngineSpec::parse(&w.iter().map(|&s| s.to_owned()).collect::<Vec<_>>()).unwrap()
    };
    let engines = Engines::new(vec![
        words(&[&format!("fsf={fsf}"), "proto=uci"]),
        words(&[&format!("fsf-ucci={fsf}"), "proto=ucci"]),
    ])
    .unwrap();
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        chariot_formats::egtb::Tablebases::default(),
        Limits {
            max_think: Duration::from_secs(5),
            ..Limits::default()
        },
    )
    .with_engines(engines);
    router(Arc::new(state))
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, String) {
    common::call_text(app, method, uri, body.map(|b| b.to_string()).as_deref()).await
}

async fn json_call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> Value {
    let (status, text) = call(app, method, uri, body).await;
    assert!(status.is_success(), "{status}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Plays a game against `engine` as Black within `limits` for some moves, and analyses the
/// position reached with two lines.
async fn game_and_analysis(app: &Router, engine: &str, limits: Value) {
    let mut game = json_call(
        app,
        "POST",
        "/api/play",
        Some(json!({"side": "black", "engine": engine, "limits": limits})),
    )
    .await;
    // Developing moves, no shuffling: a repeated position is one Fairy-Stockfish may call
    // over (its repetition rules) and answer `bestmove (none)`.
    let wanted = ["h9g7", "b9c7", "g6g5", "c6c5", "a9a8", "i9i8"];
    for _ in 0..4 {
        assert!(game["result"].is_null(), "{game}");
        let id = game["id"].as_str().unwrap().to_owned();
        let playable: Vec<&str> = game["playable"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let mv = wanted
            .iter()
            .find(|m| playable.contains(m))
            .copied()
            .unwrap_or(playable[playable.len() / 2])
            .to_owned();
        game = json_call(
            app,
            "POST",
            &format!("/api/play/{id}/moves"),
            Some(json!({"move": mv})),
        )
        .await;
    }
    let moves: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves.len(), 9, "{game}");
    let mut pos = Position::start();
    for m in &moves {
        let mv = parse_iccs(m).unwrap();
        assert!(pos.is_legal(mv), "{m}");
        pos.make_move(mv);
    }
    assert!(game["engine"]["depth"].as_u64().unwrap() > 0, "{game}");

    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";
    let query = format!(
        "/api/analysis?fen={fen}&moves={}&multipv=2&seconds=0.5&engine={engine}",
        moves.join("%20")
    );
    let (status, text) = call(app, "GET", &query, None).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let mut lines = [false, false];
    let mut best = None;
    for block in text.split("\n\n") {
        let data = block.lines().find_map(|l| l.strip_prefix("data: "));
        let Some(data) = data.map(|d| serde_json::from_str::<Value>(d).unwrap()) else {
            continue;
        };
        if block.contains("event: info") {
            let k = data["multipv"].as_u64().unwrap();
            assert!(!data["pv"].as_array().unwrap().is_empty(), "{data}");
            lines[usize::try_from(k - 1).unwrap()] = true;
        } else if block.contains("event: done") {
            best = data["best"].as_str().map(str::to_owned);
        }
    }
    assert_eq!(lines, [true, true], "{text}");
    let best = parse_iccs(&best.unwrap_or_else(|| panic!("no best move: {text}"))).unwrap();
    assert!(pos.is_legal(best));
}

#[tokio::test]
#[ignore = "needs Debian's fairy-stockfish: scripts/engine-tests.sh"]
async fn fairy_stockfish_over_uci_plays_and_analyses() {
    let app = app();
    let e = json_call(&app, "GET", "/api/engines/fsf", None).await;
    assert_eq!(e["dialect"], "uci-xiangqi", "{e}");
    assert!(
        e["id_name"]
            .as_str()
            .unwrap()
            .starts_with("Fairy-Stockfish")
    );
    let e = json_call(
        &app,
        "POST",
        "/api/engines/fsf/options",
        Some(json!({"Skill Level": 10})),
    )
    .await;
    let skill = e["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Skill Level")
        .unwrap();
    assert_eq!(skill["value"], 10, "{skill}");
    game_and_analysis(&app, "fsf", json!({"movetime": 100})).await;
}

#[tokio::test]
#[ignore = "needs Debian's fairy-stockfish: scripts/engine-tests.sh"]
async fn fairy_stockfish_over_ucci_plays_and_analyses() {
    let app = app();
    let e = json_call(&app, "GET", "/api/engines/fsf-ucci", None).await;
    assert_eq!(e["dialect"], "ucci", "{e}");
    // Its UCCI mode reads `go time` in milliseconds while UCCI 3.0 says seconds: a depth is
    // what both read alike.
    game_and_analysis(&app, "fsf-ucci", json!({"depth": 5})).await;
}
