//! Game review through the router (no network): a hung chariot marked a blunder and the capture
//! not, the tables' exact value and the rules' end, the same game named twice reviewed once,
//! cancelling, the server's limits and every bad request.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use chariot_formats::egtb::Tablebases;
use chariot_web::{AppState, Limits, router};
use common::{app_with, call, finished_review as finished};
use serde_json::Value;

/// A server whose reviews search few nodes, so that the tests are quick.
fn app() -> Router {
    app_with(Limits {
        review_nodes: 20_000,
        max_think: Duration::from_millis(300),
        ..Limits::default()
    })
}

async fn review(app: &Router, body: &str) -> (StatusCode, Value) {
    call(app, "POST", "/api/review", Some(body)).await
}

/// Red brings a chariot to d5 (车六进四), where Black's horse on c7 takes it: the soldier that
/// stood on the horse's leg has moved.
const HUNG_CHARIOT: &str = r#"{"moves": ["a0a1", "b9c7", "a1d1", "c6c5", "d1d5", "c7d5"]}"#;

#[tokio::test]
async fn a_hung_chariot_is_a_blunder_and_taking_it_is_not() {
    let app = app();
    let (status, job) = review(&app, HUNG_CHARIOT).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    assert_eq!(
        (&job["kind"], &job["unit"], &job["total"]),
        (
            &Value::from("review"),
            &Value::from("positions"),
            &Value::from(7)
        )
    );
    let id = job["id"].as_str().unwrap().to_owned();
    let job = finished(&app, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["done"], 7);
    let r = &job["result"];
    assert_eq!(r["nodes"], 20_000);
    assert_eq!(r["positions"].as_array().unwrap().len(), 7);
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    let hang = &moves[4];
    assert_eq!(
        (&hang["ply"], &hang["side"], &hang["move"]["iccs"]),
        (&Value::from(5), &Value::from("red"), &Value::from("d1d5"))
    );
    assert_eq!(hang["judgement"], "blunder", "{hang}");
    assert_eq!(hang["glyph"], "??");
    assert_eq!(hang["move"]["chinese"], "车六进四");
    // The better move and its line, in three notations; the value after, from Red's side.
    let best = hang["best"].as_str().unwrap();
    assert_ne!(best, "d1d5");
    assert_eq!(hang["line"][0], best);
    assert_eq!(
        hang["line_chinese"].as_array().unwrap().len(),
        hang["line"].as_array().unwrap().len()
    );
    assert!(hang["after"]["cp"].as_i64().unwrap() < -500, "{hang}");
    assert!(hang["loss"].as_i64().unwrap() > 500 && hang["drop"].as_f64().unwrap() > 0.3);
    // Taking the chariot is the engine's move: a good move, not marked.
    let take = &moves[5];
    assert_eq!(take["judgement"], Value::Null, "{take}");
    assert_eq!(take["best"], "c7d5");
    assert_eq!(
        (&take["loss"], &take["accuracy"]),
        (&Value::from(0), &Value::from(100.0))
    );
    let summary = &r["summary"];
    assert_eq!(summary["red"]["blunders"], 1, "{summary}");
    assert_eq!(summary["black"]["blunders"], 0);
    assert_eq!(summary["red"]["moves"], 3);
    assert!(
        summary["red"]["accuracy"].as_f64().unwrap()
            < summary["black"]["accuracy"].as_f64().unwrap()
    );
    // A point of the graph for every position, Red's chances falling after the blunder.
    let chances: Vec<f64> = r["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["red_chances"].as_f64().unwrap())
        .collect();
    assert!(chances[5] < -0.5 && chances[4] > -0.3, "{chances:?}");
    // The same game asked again is the same review; the jobs list has it too.
    let (status, again) = review(&app, HUNG_CHARIOT).await;
    assert_eq!(
        (status, &again["id"]),
        (StatusCode::OK, &Value::from(id.clone()))
    );
    let (status, as_job) = call(&app, "GET", &format!("/api/jobs/{id}"), None).await;
    assert_eq!(
        (status, &as_job["kind"]),
        (StatusCode::OK, &Value::from("review"))
    );
}

#[tokio::test]
async fn the_tables_value_exactly_and_the_rules_end_the_game() {
    let app = app();
    let (status, job) = review(
        &app,
        r#"{"fen": "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "moves": ["车五平六"]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let job = finished(&app, job["id"].as_str().unwrap()).await;
    let r = &job["result"];
    let positions = r["positions"].as_array().unwrap();
    assert_eq!(positions[0]["score"], serde_json::json!({"mate": 1}));
    assert_eq!(positions[0]["source"], "tables");
    assert_eq!(positions[0]["red_chances"], 1.0);
    assert_eq!(positions[1]["score"], serde_json::json!({"win": "red"}));
    assert_eq!(positions[1]["source"], "end");
    assert_eq!(r["moves"][0]["judgement"], Value::Null);
    assert_eq!(r["moves"][0]["move"]["iccs"], "e1d1");
}

#[tokio::test]
async fn a_game_on_the_server_and_its_moves_are_one_review() {
    let app = app();
    let (status, game) = call(
        &app,
        "POST",
        "/api/play",
        Some(r#"{"side": "red", "level": 1, "moves": ["h2e2", "h9g7"]}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let body = format!(r#"{{"play": "{}"}}"#, game["id"].as_str().unwrap());
    let (status, job) = review(&app, &body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let (status, same) = review(&app, r#"{"moves": ["炮二平五", "马8进7"]}"#).await;
    assert_eq!((status, &same["id"]), (StatusCode::OK, &job["id"]));
    assert_eq!(
        finished(&app, job["id"].as_str().unwrap()).await["state"],
        "done"
    );
}

/// Asks for a review until the server has a place for it (503 meanwhile): the job.
async fn when_free(app: &Router, body: &str) -> Value {
    let started = Instant::now();
    loop {
        let (status, job) = review(app, body).await;
        if status == StatusCode::ACCEPTED {
            return job;
        }
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{job}");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no place was freed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_game_played_here_is_named_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let archive =
        chariot_web::played_games::Archive::open(&dir.path().join("played.sqlite")).unwrap();
    let pgn = "[Game \"Chinese Chess\"]\n[Event \"Chariot web game\"]\n[Site \"chariot serve\"]\n[Red \"You\"]\n[Black \"Chariot (level 1)\"]\n[Result \"1-0\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n\n1. 车五平六 1-0\n";
    assert!(archive.keep("a", pgn).unwrap());
    let tables = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        Tablebases::open(&[tables]).unwrap(),
        Limits::default(),
    )
    .with_archive(archive);
    let app = router(Arc::new(state));
    let (_, list) = call(&app, "GET", "/api/played", None).await;
    let id = &list["games"][0]["id"];
    let (status, job) = review(&app, &format!(r#"{{"played": {id}}}"#)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    // The game is in the result from the first answer on, for a page that named it by its id.
    assert_eq!(job["result"]["played"], serde_json::json!(["e1d1"]));
    assert_eq!(job["result"]["fen"], "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    let done = finished(&app, job["id"].as_str().unwrap()).await;
    assert_eq!(
        done["result"]["positions"][0]["score"],
        serde_json::json!({"mate": 1})
    );
}

#[tokio::test]
async fn a_review_is_cancelled_and_the_servers_limit_holds() {
    let app = app_with(Limits {
        max_reviews: 1,
        review_nodes: 50_000_000,
        ..Limits::default()
    });
    let (status, long) = review(&app, HUNG_CHARIOT).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{long}");
    let id = long["id"].as_str().unwrap();
    let other = r#"{"moves": ["h2e2"]}"#;
    let (status, busy) = review(&app, other).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{busy}");
    assert_eq!(
        (&busy["code"], &busy["params"]["max"]),
        (&Value::from("too-many-reviews"), &Value::from(1))
    );
    let (status, cancelled) = call(&app, "DELETE", &format!("/api/review/{id}"), None).await;
    assert_eq!(
        (status, &cancelled["state"]),
        (StatusCode::OK, &Value::from("cancelled"))
    );
    assert_eq!(finished(&app, id).await["state"], "cancelled");
    // Its place is free once its search has stopped (at once on an idle machine; the search
    // runs at the lowest priority, and a loaded machine may make it wait).
    let next = when_free(&app, other).await;
    call(
        &app,
        "DELETE",
        &format!("/api/review/{}", next["id"].as_str().unwrap()),
        None,
    )
    .await;
    // A cancelled review is not answered again: the same game is reviewed anew.
    let again = when_free(&app, HUNG_CHARIOT).await;
    assert_ne!(again["id"], long["id"]);
}

#[tokio::test]
async fn bad_requests_say_what_is_wrong() {
    let app = app_with(Limits {
        max_review_plies: 4,
        ..Limits::default()
    });
    let code = |(status, body): (StatusCode, Value)| {
        (status, body["code"].as_str().unwrap_or("").to_owned())
    };
    let cases: [(&str, StatusCode, &str); 10] = [
        ("{}", StatusCode::BAD_REQUEST, "bad-review-source"),
        (
            r#"{"moves": ["h2e2"], "played": 1}"#,
            StatusCode::BAD_REQUEST,
            "bad-review-source",
        ),
        (
            r#"{"moves": ["h2e2"], "colour": 1}"#,
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
        (
            r#"{"moves": []}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "nothing-to-review",
        ),
        (
            r#"{"moves": ["h2e2", "h2e2"]}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal-line",
        ),
        (
            r#"{"fen": "9/9 w", "moves": ["h2e2"]}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-fen",
        ),
        (
            r#"{"moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]}"#,
            StatusCode::BAD_REQUEST,
            "review-too-long",
        ),
        (r#"{"play": "nope"}"#, StatusCode::NOT_FOUND, "no-game"),
        (r#"{"played": 3}"#, StatusCode::NOT_FOUND, "no-played-game"),
        (r#"{"game": 3}"#, StatusCode::NOT_FOUND, "no-game-database"),
    ];
    for (body, status, expected) in cases {
        assert_eq!(
            code(review(&app, body).await),
            (status, expected.to_owned()),
            "{body}"
        );
    }
    let (status, long) = review(
        &app,
        r#"{"moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]}"#,
    )
    .await;
    assert_eq!(
        (status, &long["params"]),
        (
            StatusCode::BAD_REQUEST,
            &serde_json::json!({"plies": 5, "max": 4})
        )
    );
    for method in ["GET", "DELETE"] {
        assert_eq!(
            code(call(&app, method, "/api/review/nope", None).await),
            (StatusCode::NOT_FOUND, "no-review".to_owned())
        );
    }
}
