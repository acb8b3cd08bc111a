//! The JSON API end to end through the router (no network): games, moves, the engine's replies,
//! take-backs, positions, and every kind of bad request.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chariot_formats::egtb::Tablebases;
use chariot_rules::Position;
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use common::{app_with, call};

fn app() -> Router {
    app_with(Limits {
        max_think: Duration::from_millis(300),
        ..Limits::default()
    })
}

/// `GET uri` as JSON.
async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri, None).await
}

/// A bodiless GET request.
fn bare(uri: impl AsRef<str>) -> Request<Body> {
    Request::builder()
        .uri(uri.as_ref())
        .body(Body::empty())
        .unwrap()
}

/// `POST /api/play/{id}/moves` with this body.
async fn play(app: &Router, id: impl std::fmt::Display, body: &str) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/play/{id}/moves"), Some(body)).await
}

/// `POST /api/play` with this body.
async fn new_game(app: &Router, body: &str) -> (StatusCode, Value) {
    call(app, "POST", "/api/play", Some(body)).await
}

#[tokio::test]
async fn a_game_is_played_taken_back_and_closed() {
    let app = app();
    let (status, game) = new_game(&app, r#"{"side":"red","level":2}"#).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(game["turn"], "red");
    assert_eq!(game["playable"].as_array().unwrap().len(), 44);
    // A move in Chinese notation; the engine answers with a legal move.
    let (status, game) = play(&app, &id, r#"{"move":"炮二平五"}"#).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    let moves = game["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{game}");
    assert_eq!(moves[0]["iccs"], "h2e2");
    assert_eq!(moves[0]["chinese"], "炮二平五");
    assert_eq!(moves[0]["wxf"], "C2.5");
    let reply = game["engine"]["move"].as_str().unwrap();
    let mut pos = Position::start();
    pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
    assert!(pos.is_legal(chariot_rules::notation::parse_iccs(reply).unwrap()));
    assert_eq!(game["turn"], "red");
    // Take back: both plies.
    let (status, game) = call(&app, "POST", &format!("/api/play/{id}/takeback"), None).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert!(game["moves"].as_array().unwrap().is_empty());
    let (status, _) = call(&app, "POST", &format!("/api/play/{id}/takeback"), None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    // Close it; it is gone.
    let (status, _) = call(&app, "DELETE", &format!("/api/play/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, e) = get(&app, &format!("/api/play/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(e["error"].as_str().unwrap().contains(&id));
}

#[tokio::test]
async fn the_engine_opens_for_a_person_playing_black_and_mates_end_the_game() {
    let app = app();
    let (status, game) = new_game(&app, r#"{"side":"black","level":1}"#).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 1);
    assert_eq!(game["turn"], "black");
    // From a set-up position the person mates at once.
    let body = json!({"side": "red", "fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"}).to_string();
    let (_, game) = new_game(&app, &body).await;
    let id = game["id"].as_str().unwrap();
    let (_, game) = play(&app, &id, r#"{"move":"e1e8"}"#).await;
    assert_eq!(game["result"]["result"], "1-0", "{game}");
    assert_eq!(game["result"]["winner"], "red", "{game}");
    assert_eq!(game["result"]["why"], "stalemate", "{game}");
    assert_eq!(
        game["result"]["reason"], "Black is stalemated (no legal move)",
        "{game}"
    );
    assert!(game["engine"].is_null());
    let (status, e) = play(&app, &id, r#"{"move":"d9d8"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(e["error"].as_str().unwrap().contains("over"), "{e}");
}

#[tokio::test]
async fn bad_requests_get_a_4xx_that_says_what_is_wrong() {
    let app = app();
    let cases: &[(&str, &str, Option<&str>, StatusCode, &str)] = &[
        (
            "POST",
            "/api/play",
            Some(r#"{"fen":"not a fen"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid FEN",
        ),
        (
            "POST",
            "/api/play",
            Some(r#"{"level":11}"#),
            StatusCode::BAD_REQUEST,
            "level 11",
        ),
        (
            "POST",
            "/api/play",
            Some(r#"{"side":"green"}"#),
            StatusCode::BAD_REQUEST,
            "green",
        ),
        (
            "POST",
            "/api/play",
            Some(r#"{"colour":"red"}"#),
            StatusCode::BAD_REQUEST,
            "colour",
        ),
        (
            "POST",
            "/api/play",
            Some("{"),
            StatusCode::BAD_REQUEST,
            "EOF",
        ),
        ("GET", "/api/play/nope", None, StatusCode::NOT_FOUND, "nope"),
        (
            "GET",
            "/api/position?fen=xyz",
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid FEN",
        ),
        ("GET", "/api/position", None, StatusCode::BAD_REQUEST, "fen"),
    ];
    for (method, uri, body, status, says) in cases {
        let (got, e) = call(&app, method, uri, *body).await;
        assert_eq!(got, *status, "{method} {uri} {body:?}: {e}");
        let message = e["error"].as_str().unwrap_or_default();
        assert!(
            message.contains(says),
            "{method} {uri}: {message:?} does not say {says:?}"
        );
    }
    // Moves: unreadable, illegal (the forbidden repetitions are tested in game.rs).
    let body = json!({"side": "red", "fen": "4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1", "level": 1})
        .to_string();
    let (_, game) = new_game(&app, &body).await;
    let id = game["id"].as_str().unwrap();
    let moves = format!("/api/play/{id}/moves");
    let (status, e) = call(&app, "POST", &moves, Some(r#"{"move":"h0h5x"}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let (status, e) = call(&app, "POST", &moves, Some(r#"{"move":"e0e2"}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("e0e2"), "{e}");
    // An oversized body.
    let big = format!(r#"{{"move":"{}"}}"#, "x".repeat(100_000));
    let (status, _) = call(&app, "POST", &moves, Some(&big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // The server still serves.
    let (status, _) = get(&app, &format!("/api/play/{id}")).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_levels_are_listed_weakest_first() {
    let (status, levels) = get(&app(), "/api/levels").await;
    assert_eq!(status, StatusCode::OK);
    let levels = levels.as_array().unwrap();
    assert_eq!(levels.len(), usize::from(chariot_web::play_levels::LEVELS));
    assert_eq!(levels[0]["level"], 1);
    assert_eq!(levels[0]["randomness"], "huge");
    let nodes: Vec<u64> = levels
        .iter()
        .map(|l| l["nodes"].as_u64().unwrap())
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
}

#[tokio::test]
async fn positions_show_legal_moves_book_and_tables() {
    let app = app();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";
    let (status, p) = get(&app, &format!("/api/position?fen={start}")).await;
    assert_eq!(status, StatusCode::OK, "{p}");
    assert_eq!(p["legal"].as_array().unwrap().len(), 44);
    assert!(p["book"].as_array().unwrap().len() > 3, "{p}");
    assert!(p["tablebase"].is_null());
    let krk = "3k5/9/9/9/9/9/9/9/4R4/4K4%20w%20-%20-%200%201";
    let (_, p) = get(&app, &format!("/api/position?fen={krk}")).await;
    assert_eq!(p["tablebase"]["wdl"], "win", "{p}");
    assert_eq!(p["tablebase"]["dtm"], 1, "{p}");
}

#[tokio::test]
async fn a_full_server_refuses_new_games_until_one_is_idle() {
    let app = app_with(Limits {
        max_games: 2,
        idle: Duration::from_millis(200),
        max_think: Duration::from_millis(100),
        ..Limits::default()
    });
    for _ in 0..2 {
        let (status, _) = new_game(&app, "{}").await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, e) = new_game(&app, "{}").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    assert!(e["error"].as_str().unwrap().contains("limit"));
    tokio::time::sleep(Duration::from_millis(250)).await;
    let (status, _) = new_game(&app, "{}").await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn a_new_game_replaces_the_old_only_once_it_is_made() {
    // One game at most: the replacement takes the old game's place on a full server.
    let app = app_with(Limits {
        max_games: 1,
        max_think: Duration::from_millis(100),
        ..Limits::default()
    });
    let (_, old) = new_game(&app, "{}").await;
    let old = old["id"].as_str().unwrap().to_owned();
    let (_, game) = play(&app, &old, r#"{"move":"h2e2"}"#).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 2, "{game}");
    // A mistake in the new game's FEN or history: refused, and the old game goes on.
    for (bad, refused) in [
        (
            json!({"fen": "rnbakabnr/9/9 w", "replaces": old}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"moves": ["h2h9x"], "replaces": old}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({"level": 11, "replaces": old}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, e) = new_game(&app, &bad.to_string()).await;
        assert_eq!(status, refused, "{bad}: {e}");
        let (status, game) = get(&app, &format!("/api/play/{old}")).await;
        assert_eq!(
            status,
            StatusCode::OK,
            "{bad}: the old game is gone: {game}"
        );
    }
    let (status, _) = play(&app, &old, r#"{"move":"b0c2"}"#).await;
    assert_eq!(status, StatusCode::OK);
    // A good one is made and the old one closed.
    let (status, game) = new_game(&app, &json!({"replaces": old}).to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let (status, _) = get(&app, &format!("/api/play/{old}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A game to replace that is no longer there (closed, or idle too long) is no matter.
    let current = game["id"].as_str().unwrap().to_owned();
    let (status, _) = call(&app, "DELETE", &format!("/api/play/{current}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, game) = new_game(&app, &json!({"replaces": current}).to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
}

/// The events of a finished server-sent event stream: (name, JSON data).
fn events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_owned());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data = Some(serde_json::from_str(d).unwrap_or_else(|e| panic!("{e}: {d}")));
                }
            }
            Some((name?, data?))
        })
        .collect()
}

#[tokio::test]
async fn analysis_streams_lines_and_ends_with_the_best_move() {
    let app = app();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";
    let request = bare(format!("/api/analysis?fen={start}&multipv=3&seconds=0.5"));
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let events = events(&String::from_utf8_lossy(&bytes));
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done", "{events:?}");
    let best = chariot_rules::notation::parse_iccs(done["best"].as_str().unwrap()).unwrap();
    assert!(Position::start().is_legal(best));
    for k in 1..=3 {
        assert!(
            events
                .iter()
                .any(|(n, d)| n == "info" && d["multipv"] == k && d["depth"].as_u64() > Some(2)),
            "no line {k}: {events:?}"
        );
    }
    // Bad requests.
    for (query, says, refused) in [
        (
            format!("fen={start}&multipv=9"),
            "multipv 9",
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("fen={start}&seconds=0"),
            "seconds 0",
            StatusCode::BAD_REQUEST,
        ),
        (
            "fen=nonsense".to_owned(),
            "invalid FEN",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        let (status, e) = get(&app, &format!("/api/analysis?{query}")).await;
        assert_eq!(status, refused, "{query}: {e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{e}");
    }
}

#[tokio::test]
async fn analyses_are_bounded_and_a_client_that_leaves_frees_its_place() {
    let app = app_with(Limits {
        max_analyses: 1,
        ..Limits::default()
    });
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w";
    let long = bare(format!("/api/analysis?fen={start}&seconds=30"));
    let running = app.clone().oneshot(long).await.unwrap();
    assert_eq!(running.status(), StatusCode::OK);
    let (status, e) = get(&app, &format!("/api/analysis?fen={start}&seconds=1")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    // The first client goes away: its engine stops and its place is free again well before
    // its 30 seconds.
    drop(running);
    let t = std::time::Instant::now();
    loop {
        let request = bare(format!("/api/analysis?fen={start}&seconds=0.2"));
        let status = app.clone().oneshot(request).await.unwrap().status();
        if status == StatusCode::OK {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the place was not freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn an_infinite_analysis_runs_until_its_client_leaves_or_the_servers_ceiling() {
    let app = app_with(Limits {
        max_analyses: 1,
        max_infinite_analysis: Duration::from_millis(1500),
        ..Limits::default()
    });
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w";
    // Past the longest bounded analysis would take too long for a test; the ceiling is the
    // server's own limit, lowered here: the stream ends by itself with its best move.
    let t = std::time::Instant::now();
    let (status, body) = text(&app, &format!("/api/analysis?fen={start}&seconds=infinite")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        t.elapsed() >= Duration::from_millis(1400),
        "{:?}",
        t.elapsed()
    );
    let events = events(&body);
    assert_eq!(events.last().unwrap().0, "done", "{events:?}");
    assert!(events.iter().any(|(n, _)| n == "info"), "{events:?}");
    // A client that goes away stops it long before the ceiling and frees its place.
    let app = app_with(Limits {
        max_analyses: 1,
        ..Limits::default()
    });
    let running = app
        .clone()
        .oneshot(bare(format!("/api/analysis?fen={start}&seconds=infinite")))
        .await
        .unwrap();
    assert_eq!(running.status(), StatusCode::OK);
    let (status, e) = get(&app, &format!("/api/analysis?fen={start}&seconds=1")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{e}");
    drop(running);
    let t = std::time::Instant::now();
    while app
        .clone()
        .oneshot(bare(format!("/api/analysis?fen={start}&seconds=0.2")))
        .await
        .unwrap()
        .status()
        != StatusCode::OK
    {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the place was not freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Neither a word other than `infinite` nor an endless number is a duration.
    for seconds in ["forever", "inf", "NaN", "61"] {
        let (status, e) = get(
            &app,
            &format!("/api/analysis?fen={start}&seconds={seconds}"),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{seconds}: {e}");
        assert!(e["error"].as_str().unwrap().contains("or infinite"), "{e}");
    }
}

/// The raw body of a request.
async fn text(app: &Router, uri: &str) -> (StatusCode, String) {
    let request = bare(uri);
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

#[tokio::test]
async fn hint_draw_offer_resignation_and_pgn() {
    let app = app();
    let (_, game) = new_game(&app, r#"{"level":1}"#).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (status, hint) = call(&app, "POST", &format!("/api/play/{id}/hint"), None).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let m = chariot_rules::notation::parse_iccs(hint["move"].as_str().unwrap()).unwrap();
    assert!(Position::start().is_legal(m));
    let (_, game) = play(&app, &id, r#"{"move":"C2.5"}"#).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    // The PGN: proper tags, Chinese moves, read back by the games crate to the same moves.
    let (status, pgn) = text(&app, &format!("/api/play/{id}/pgn?notation=chinese")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        pgn.contains("[Red \"You\"]") && pgn.contains("[Black \"Chariot (level 1)\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. 炮二平五 "), "{pgn}");
    let (_, records) = chariot_games::read_all(pgn.as_bytes());
    let replayed = chariot_games::checked::check(&records[0]).unwrap();
    let played: Vec<String> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        replayed
            .moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        played
    );
    let (status, e) = get(&app, &format!("/api/play/{id}/pgn?notation=fancy")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
    // Resigning ends the game; nothing can be taken back or played after it.
    let (_, game) = call(&app, "POST", &format!("/api/play/{id}/resign"), None).await;
    assert_eq!(game["result"]["result"], "0-1", "{game}");
    assert_eq!(game["result"]["reason"], "Red resigns");
    assert_eq!(game["result"]["why"], "resignation");
    let (status, _) = call(&app, "POST", &format!("/api/play/{id}/takeback"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, pgn) = text(&app, &format!("/api/play/{id}/pgn?notation=iccs")).await;
    assert!(pgn.contains("{Red resigns} 0-1"), "{pgn}");

    // A draw offer: refused by an engine a chariot up, accepted by one a chariot down.
    for (fen, accepted) in [
        ("3ak4/4a4/9/9/9/9/9/9/r8/4K4 w - - 0 1", false),
        ("R2ak4/4a4/9/9/9/9/9/9/9/4K4 w - - 0 1", true),
    ] {
        let body = json!({"fen": fen, "level": 3}).to_string();
        let (_, game) = new_game(&app, &body).await;
        let id = game["id"].as_str().unwrap();
        let (status, answer) = call(&app, "POST", &format!("/api/play/{id}/draw"), None).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["accepted"], accepted, "{fen}: {answer}");
        if accepted {
            assert_eq!(answer["game"]["result"]["reason"], "draw by agreement");
        } else {
            assert!(answer["game"]["result"].is_null());
        }
    }
}

#[tokio::test]
async fn a_game_goes_on_from_moves_and_a_clock_runs_out() {
    let app = app();
    // A game from the start with two moves already played: the person (Red) is to move.
    let (status, game) = new_game(
        &app,
        r#"{"side":"red","level":1,"moves":["炮二平五","h9g7"],"clock":{"minutes":0.001,"increment":0}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    assert_eq!(game["moves"][1]["chinese"], "马８进７");
    assert_eq!(game["moves"][1]["fen"], game["fen"]);
    assert_eq!(game["clock"]["initial_ms"], 60);
    assert_eq!(game["clock"]["running"], "red");
    // 60 ms later Red's time is gone: the game is lost on time and no move is taken.
    tokio::time::sleep(Duration::from_millis(120)).await;
    let id = game["id"].as_str().unwrap();
    let (status, game) = get(&app, &format!("/api/play/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["result"]["result"], "0-1", "{game}");
    assert_eq!(game["result"]["why"], "time");
    assert_eq!(game["result"]["winner"], "black");
    assert_eq!(game["clock"]["red_ms"], 0);
    assert!(game["clock"]["running"].is_null());
    let (status, _) = play(&app, id, r#"{"move":"h0g2"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Bad histories and clocks are refused with their reason.
    let (status, e) = new_game(&app, r#"{"moves":["h2e2","h2e2"]}"#).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(e["error"].as_str().unwrap().contains("move 2"), "{e}");
    let (status, e) = new_game(&app, r#"{"clock":{"minutes":0}}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        e["error"].as_str().unwrap().contains("clock minutes"),
        "{e}"
    );
}

#[tokio::test]
async fn a_position_reached_by_moves_knows_its_forbidden_repetitions() {
    let app = app();
    // Red's chariot checks along the 9th and 8th ranks; a fourth check would repeat.
    let fen = "4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1";
    let uri = format!(
        "/api/position?fen={}&moves=h0h9,e9e8,h9h8,e8e9",
        fen.replace(' ', "%20")
    );
    let (status, pos) = get(&app, &uri).await;
    assert_eq!(status, StatusCode::OK, "{pos}");
    assert_eq!(pos["line"].as_array().unwrap().len(), 4);
    assert_eq!(pos["forbidden"], json!(["h8h9"]));
    assert!(!pos["legal"].as_array().unwrap().contains(&json!("h8h9")));
    let (status, e) = get(
        &app,
        &format!("/api/position?fen={}&moves=e0e2", fen.replace(' ', "%20")),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .starts_with("move 1 (\"e0e2\")"),
        "{e}"
    );
}

/// `POST /api/read` with raw bytes.
async fn read(app: &Router, bytes: Vec<u8>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method("POST")
        .uri("/api/read")
        .header("content-type", "application/octet-stream")
        .body(Body::from(bytes))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn game_files_are_read_for_the_board() {
    let app = app();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/tests/data");
    // An XQF file (binary, GBK header strings).
    let xqf = std::fs::read(data.join("xqf/030-黄松轩先胜冯敬如.XQF")).unwrap();
    let (status, file) = read(&app, xqf).await;
    assert_eq!(status, StatusCode::OK, "{file}");
    assert_eq!(file["format"], "XQF");
    let game = &file["games"][0];
    assert!(game["moves"].as_array().unwrap().len() > 10, "{game}");
    assert!(game["error"].is_null());
    // PGN with an illegal move: the game stops there and says why.
    let pgn = "[Event \"x\"]\n\n1. h2e2 h9g7 2. h2e2 *\n";
    let (status, file) = read(&app, pgn.as_bytes().to_vec()).await;
    assert_eq!(status, StatusCode::OK, "{file}");
    assert_eq!(file["games"][0]["moves"].as_array().unwrap().len(), 2);
    assert!(
        file["games"][0]["error"]
            .as_str()
            .unwrap()
            .starts_with("move 3"),
        "{file}"
    );
    // Not a game file; too large a file.
    let (status, e) = read(&app, vec![0xff, 0x00, 0x13, 0x37]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    let request = Request::builder()
        .method("POST")
        .uri("/api/read")
        .body(Body::from(vec![b' '; 2 << 20]))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn the_pages_are_served_with_their_types_and_etags() {
    let app = app();
    let response = app.clone().oneshot(bare("/")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&body).contains("/assets/js/app.js"));
    for (path, kind) in [
        ("/assets/js/app.js", "javascript"),
        ("/assets/vendor/chessgroundx/chessground.js", "javascript"),
        ("/assets/pieces/rk.svg", "image/svg+xml"),
        ("/assets/style.css", "text/css"),
    ] {
        let response = app.clone().oneshot(bare(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let ct = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(ct.contains(kind), "{path}: {ct}");
        let etag = response.headers()["etag"].clone();
        let again = Request::builder()
            .uri(path)
            .header("if-none-match", etag)
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(again).await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{path}");
    }
    let response = app.clone().oneshot(bare("/assets/nope.js")).await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    // Every module the page imports is embedded.
    let paths = chariot_web::assets::paths();
    for module in [
        "js/app.js",
        "js/board.js",
        "js/play.js",
        "js/analyse.js",
        "js/i18n.js",
        "js/api.js",
        "js/moves.js",
        "board.svg",
    ] {
        assert!(paths.iter().any(|p| p == module), "{module}");
    }
}

#[tokio::test]
async fn finished_games_are_kept_in_the_game_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let tables = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::open(&[tables]).unwrap(),
        Limits::default(),
    )
    .with_archive(chariot_web::played_games::Archive::open(&path).unwrap());
    let app = router(Arc::new(state));
    // A game to mate from a set-up position, and one resigned at once (no move: not kept).
    let (_, game) = new_game(
        &app,
        r#"{"level":1,"fen":"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"}"#,
    )
    .await;
    let (status, game) = play(&app, game["id"].as_str().unwrap(), r#"{"move":"e1d1"}"#).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(game["result"]["why"], "checkmate", "{game}");
    let (_, other) = new_game(&app, r#"{"level":1}"#).await;
    let id = other["id"].as_str().unwrap();
    let (status, _) = call(&app, "POST", &format!("/api/play/{id}/resign"), Some("{}")).await;
    assert_eq!(status, StatusCode::OK);
    // Asking for the finished game again stores nothing new.
    let (status, _) = get(&app, &format!("/api/play/{}", game["id"].as_str().unwrap())).await;
    assert_eq!(status, StatusCode::OK);
    let db = chariot_gamedb::db::GameDb::open(&path).unwrap();
    let every = chariot_gamedb::filter::Filter {
        setups: true,
        ..Default::default()
    };
    let summary = db.summary(&every).unwrap();
    assert_eq!(
        (
            summary.games,
            summary.red_wins,
            summary.setups,
            summary.plies
        ),
        (1, 1, 1, 1)
    );
}

/// A game open in two tabs (issue 47, fault 9): a move or a take-back made on the game as it
/// stood before the other tab's move is refused with the code `moved-on`, and changes nothing.
#[tokio::test]
async fn a_request_made_on_a_game_that_moved_on_is_refused() {
    let app = app();
    let (_, game) = new_game(&app, r#"{"side":"red","level":1}"#).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (status, game) = play(&app, &id, r#"{"move":"h2e2","at":0}"#).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    // The other tab saw no move yet.
    let (status, e) = play(&app, &id, r#"{"move":"h0g2","at":0}"#).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "moved-on");
    assert!(e["error"].as_str().unwrap().contains("moved on"), "{e}");
    let takeback = format!("/api/play/{id}/takeback");
    let (status, e) = call(&app, "POST", &takeback, Some(r#"{"at":0}"#)).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::CONFLICT, Some("moved-on"))
    );
    let (_, game) = get(&app, &format!("/api/play/{id}")).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    // Made on the game as it stands, both go through; every error has a code.
    let (status, _) = play(&app, &id, r#"{"move":"h0g2","at":2}"#).await;
    assert_eq!(status, StatusCode::OK);
    let (status, game) = call(&app, "POST", &takeback, Some(r#"{"at":4}"#)).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["moves"].as_array().unwrap().len(), 2);
    let (status, e) = call(&app, "POST", &takeback, Some(r#"{"at":"x"}"#)).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-request"))
    );
}

/// Issue 47, fault 8: every error carries a code and the parameters a page needs to say it in
/// its own language; the built-in book is marked as such; a game's PGN is written in its
/// language.
#[tokio::test]
async fn errors_have_codes_and_parameters_and_pgn_speaks_the_games_language() {
    let app = app();
    let short_rank = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1";
    let (status, e) = new_game(&app, &json!({"fen": short_rank}).to_string()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(e["code"], "invalid-fen");
    assert_eq!(
        e["params"],
        json!({"reason": "fen-rank-width", "rank": 0, "files": 8})
    );
    let (_, e) = get(&app, "/api/position?fen=4k4/9/9/9/9/9/9/9/9/4K4%20w&moves=").await;
    assert_eq!(
        (e["code"].as_str(), e["params"]["reason"].as_str()),
        (Some("invalid-fen"), Some("generals-facing"))
    );
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w";
    let (_, e) = get(&app, &format!("/api/book?fen={start}&moves=h2e2,h2e2")).await;
    assert_eq!(e["code"], "illegal-line");
    assert_eq!(
        e["params"],
        json!({"n": 2, "move": "h2e2", "reason": "illegal"})
    );
    let (_, e) = new_game(&app, r#"{"clock":{"minutes":0}}"#).await;
    assert_eq!(
        (e["code"].as_str(), e["params"]["max"].as_u64()),
        (Some("bad-clock-minutes"), Some(180))
    );
    let (_, e) = new_game(&app, r#"{"lang":"fr"}"#).await;
    assert_eq!(e["code"], "bad-lang");
    let (_, game) = new_game(&app, r#"{"level":1,"lang":"zh"}"#).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let (status, e) = play(&app, &id, r#"{"move":"h2h8"}"#).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(e["code"], "illegal-move");
    assert_eq!(e["params"], json!({"move": "h2h8", "reason": "illegal"}));
    let (status, e) = call(&app, "POST", &format!("/api/play/{id}/takeback"), None).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("nothing-to-take-back")
        )
    );
    let (_, e) = get(&app, "/api/play/nosuchgame").await;
    assert_eq!(
        (e["code"].as_str(), e["params"]["id"].as_str()),
        (Some("no-game"), Some("nosuchgame"))
    );
    let (_, e) = get(&app, "/api/tablebase?fen=5k3/9/9/9/9/9/9/9/9/R3K3R%20w").await;
    assert_eq!(
        (e["code"].as_str(), e["params"]["material"].as_str()),
        (Some("no-table"), Some("KRRK"))
    );
    // The built-in book, in both lists.
    let (_, books) = get(&app, "/api/books").await;
    assert_eq!(books["books"][0]["builtin"], true);
    let (_, book) = get(&app, &format!("/api/book?fen={start}")).await;
    assert_eq!(book["books"][0]["builtin"], true);
    // The PGN: the game's language (Chinese), or the one asked for.
    call(&app, "POST", &format!("/api/play/{id}/resign"), None).await;
    let text = |lang: &'static str| {
        let app = app.clone();
        let id = id.clone();
        async move {
            let response = app
                .oneshot(bare(format!("/api/play/{id}/pgn?notation=chinese{lang}")))
                .await
                .unwrap();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            String::from_utf8(bytes.to_vec()).unwrap()
        }
    };
    let zh = text("").await;
    assert!(
        zh.contains("[Red \"棋手\"]") && zh.contains("{黑方胜：红方认输} 0-1"),
        "{zh}"
    );
    let en = text("&lang=en").await;
    assert!(
        en.contains("[Red \"You\"]") && en.contains("{Red resigns} 0-1"),
        "{en}"
    );
}

/// Issue 47: the person's name goes into the PGN, and the games played here are listed and
/// reopened (`GET /api/played`, `GET /api/played/{id}`).
#[tokio::test]
async fn the_games_played_here_are_listed_with_the_players_name() {
    // Without a place to keep them, the list says so.
    let (status, list) = get(&app(), "/api/played").await;
    assert_eq!(
        (status, list["kept"].as_bool()),
        (StatusCode::OK, Some(false))
    );
    let dir = tempfile::tempdir().unwrap();
    let tables = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::open(&[tables]).unwrap(),
        Limits::default(),
    )
    .with_archive(
        chariot_web::played_games::Archive::open(&dir.path().join("played.sqlite")).unwrap(),
    );
    let app = router(Arc::new(state));
    let (status, e) = new_game(&app, &json!({"name": "x".repeat(41)}).to_string()).await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-name"))
    );
    let (_, e) = new_game(&app, r#"{"name":"a\tb"}"#).await;
    assert_eq!(e["code"], "bad-name");
    let mate = r#"{"level":1,"name":"  许银川 ","fen":"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1","clock":{"minutes":3,"increment":7}}"#;
    let (_, game) = new_game(&app, mate).await;
    let (_, game) = play(&app, game["id"].as_str().unwrap(), r#"{"move":"e1d1"}"#).await;
    assert_eq!(game["result"]["why"], "checkmate");
    let (_, list) = get(&app, "/api/played").await;
    assert_eq!(
        (list["kept"].as_bool(), list["total"].as_u64()),
        (Some(true), Some(1))
    );
    let row = &list["games"][0];
    assert_eq!(
        (
            row["red"].as_str(),
            row["black"].as_str(),
            row["result"].as_str(),
            row["plies"].as_u64(),
            row["time_control"].as_str()
        ),
        (
            Some("许银川"),
            Some("Chariot (level 1)"),
            Some("1-0"),
            Some(1),
            Some("180+7")
        )
    );
    let id = row["id"].as_i64().unwrap();
    let (status, played) = get(&app, &format!("/api/played/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{played}");
    assert_eq!(played["fen"], "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    assert_eq!(played["moves"][0]["iccs"], "e1d1");
    let response = app
        .clone()
        .oneshot(bare(format!("/api/played/{id}.pgn")))
        .await
        .unwrap();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    assert!(String::from_utf8_lossy(&bytes).contains("[Red \"许银川\"]"));
    let (status, e) = get(&app, "/api/played/999").await;
    assert_eq!(
        (status, e["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("no-played-game"))
    );
    let (status, _) = get(&app, "/api/played?limit=0").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
