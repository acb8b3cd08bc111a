//! External engines through the API (`chariot serve --engine`): Chariot itself as an external
//! UCI engine, the test engine speaking Pikafish's exact words (checked both ways: what it is
//! sent is logged), and the test engine misbehaving (an illegal move, a forbidden repetition,
//! no move, a crash, a hang, a program that is not there).
//!
//! The `chariot` and `chariot-test-engine` binaries belong to other packages of the workspace,
//! so they are not in this package's `CARGO_BIN_EXE_*`: they are looked for next to this test's
//! own target directory (where `cargo test --workspace` puts them) and built with the same
//! cargo when missing, as the league's tests find `chariot`.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chariot_rules::Position;
use chariot_rules::notation::parse_iccs;
use chariot_web::engines::{EngineSpec, Engines};
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// The binary `bin` of package `package` in this build profile, built when missing.
fn binary(package: &str, bin: &str) -> PathBuf {
    // target/<profile>/deps/<this test> -> target/<profile>
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|d| d.parent()).unwrap().to_owned();
    let path = profile_dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "-p", package, "--bin", bin]);
        match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("release") => {
                cargo.arg("--release");
            }
            // `cargo test` builds in the test profile, whose directory is `debug`.
            _ => {
                cargo.args(["--profile", "test"]);
            }
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "cargo build -p {package} failed");
    }
    assert!(path.exists(), "no {bin} at {}", path.display());
    path
}

fn test_engine() -> String {
    binary("chariot-league", "chariot-test-engine")
        .display()
        .to_string()
}

/// `NAME=CMD ...` as `chariot serve --engine` reads it.
fn spec(words: &[&str]) -> EngineSpec {
    let words: Vec<String> = words.iter().map(|&w| w.to_owned()).collect();
    EngineSpec::parse(&words).unwrap()
}

/// The API with these engines, the built-in book, no tables.
fn app(specs: Vec<EngineSpec>) -> Router {
    let state = AppState::new(
        chariot_formats::book::builtin::book_set(),
        chariot_formats::egtb::Tablebases::default(),
        Limits {
            max_think: Duration::from_secs(5),
            ..Limits::default()
        },
    )
    .with_engines(Engines::new(specs).unwrap());
    router(Arc::new(state))
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    common::call(app, method, uri, body.map(|b| b.to_string()).as_deref()).await
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri, None).await
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(body)).await
}

/// The server-sent events of an analysis: (event, data) pairs.
async fn analyse(app: &Router, query: &str) -> Vec<(String, Value)> {
    let request = Request::builder()
        .uri(format!("/api/analysis?{query}"))
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(status, StatusCode::OK, "{text}");
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

const START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w%20-%20-%200%201";

/// Plays the person's moves (the first playable move each time, or `choose`'s) until the game
/// ends or `plies` moves are made; every engine move is checked against the rules here too.
async fn play_on(
    app: &Router,
    mut game: Value,
    plies: usize,
    choose: impl Fn(&Value) -> String,
) -> Value {
    for _ in 0..plies {
        if !game["result"].is_null() {
            break;
        }
        let id = game["id"].as_str().unwrap().to_owned();
        let mv = choose(&game);
        let (status, next) = post(app, &format!("/api/play/{id}/moves"), json!({"move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        game = next;
    }
    // Every move of the game is legal from its start.
    let mut pos = Position::from_fen(game["start_fen"].as_str().unwrap()).unwrap();
    for m in game["moves"].as_array().unwrap() {
        let mv = parse_iccs(m["iccs"].as_str().unwrap()).unwrap();
        assert!(pos.is_legal(mv), "{m} in {}", pos.fen());
        pos.make_move(mv);
    }
    game
}

fn first_playable(game: &Value) -> String {
    game["playable"][0].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn chariot_as_an_external_uci_engine_plays_and_analyses() {
    let chariot = binary("chariot", "chariot").display().to_string();
    let app = app(vec![
        spec(&[&format!("chariot={chariot}"), "proto=uci"]),
        spec(&[&format!("chariot0={chariot}"), "proto=uci", "variant=none"]),
    ]);
    let (status, list) = get(&app, "/api/engines").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    let e = &list["engines"][0];
    assert_eq!(e["state"], "ready", "{e}");
    // Chariot offers `UCI_Variant xiangqi` (Fairy-Stockfish's squares), and is told it unless
    // `variant=none` says otherwise.
    assert_eq!(e["dialect"], "uci-xiangqi");
    assert_eq!(list["engines"][1]["dialect"], "uci");
    assert!(e["id_name"].as_str().unwrap().starts_with("Chariot"), "{e}");
    let hash = e["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Hash")
        .unwrap();
    assert_eq!(hash["kind"], "spin", "{hash}");
    assert!(
        hash["default"].is_number() && hash["max"].is_number(),
        "{hash}"
    );
    // No option the server sets is listed.
    assert!(
        !e["options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["name"] == "MultiPV"),
        "{e}"
    );

    // A game as Black: the engine opens, then answers every move, at depth 3.
    let (status, game) = post(
        &app,
        "/api/play",
        json!({"side": "black", "engine": "chariot", "limits": {"depth": 3}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    assert_eq!(game["opponent"]["engine"], "chariot");
    assert!(game["level"].is_null());
    assert_eq!(game["moves"].as_array().unwrap().len(), 1, "{game}");
    let game = play_on(&app, game, 6, first_playable).await;
    assert!(game["moves"].as_array().unwrap().len() >= 12 || !game["result"].is_null());
    assert_eq!(game["engine"]["source"], "search", "{game}");
    let id = game["id"].as_str().unwrap();
    let request = Request::builder()
        .uri(format!("/api/play/{id}/pgn?notation=iccs"))
        .body(Body::empty())
        .unwrap();
    let pgn = app.clone().oneshot(request).await.unwrap();
    let pgn = pgn.into_body().collect().await.unwrap().to_bytes();
    assert!(
        String::from_utf8_lossy(&pgn).contains("[Red \"Chariot"),
        "the engine's id name is Red's"
    );

    // Analysis: two lines, each legal from the position, then the best move.
    let events = analyse(
        &app,
        &format!("fen={START}&moves=h2e2&multipv=2&seconds=0.5&engine=chariot"),
    )
    .await;
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done", "{events:?}");
    let mut after = Position::start();
    after.make_move(parse_iccs("h2e2").unwrap());
    assert!(after.is_legal(parse_iccs(done["best"].as_str().unwrap()).unwrap()));
    for k in [1, 2] {
        let line = events
            .iter()
            .rev()
            .find(|(n, d)| n == "info" && d["multipv"] == k)
            .unwrap_or_else(|| panic!("no line {k}: {events:?}"));
        let pv = line.1["pv"].as_array().unwrap();
        assert!(!pv.is_empty());
        assert_eq!(pv.len(), line.1["pv_chinese"].as_array().unwrap().len());
        assert!(line.1["cp"].is_number() || line.1["mate"].is_number());
    }
}

#[tokio::test]
async fn pikafish_words_are_understood_and_its_options_checked() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent.log");
    let engine = test_engine();
    let log_setting = format!("arg=CHARIOT_TEST_ENGINE_LOG={}", log.display());
    let app = app(vec![spec(&[
        "pika=/usr/bin/env",
        &log_setting,
        &format!("arg={engine}"),
        "arg=pikafish",
        "option.Hash=64",
    ])]);
    let (status, e) = get(&app, "/api/engines/pika").await;
    assert_eq!(status, StatusCode::OK, "{e}");
    // Detected after its complaint about `ucci`: UCI, ranks 0-9.
    assert_eq!(e["dialect"], "uci", "{e}");
    assert_eq!(e["id_name"], "Pikafish dev-20260101-nogit");
    assert_eq!(e["id_author"], "the Pikafish developers (see AUTHORS file)");
    let names: Vec<&str> = e["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Debug Log File",
            "NumaPolicy",
            "Threads",
            "Hash",
            "Clear Hash",
            "Move Overhead",
            "nodestime",
            "UCI_ShowWDL",
            "EvalFile"
        ]
    );
    let option = |e: &Value, name: &str| {
        e["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(
        option(&e, "Hash"),
        json!({"name": "Hash", "kind": "spin", "default": 16, "value": 64, "min": 1,
               "max": 33_554_432, "choices": null})
    );
    assert_eq!(option(&e, "Debug Log File")["default"], "");
    assert_eq!(option(&e, "UCI_ShowWDL")["value"], false);

    // Options: checked against the declarations, all or nothing.
    let set = |body: Value| post(&app, "/api/engines/pika/options", body);
    let (status, err) = set(json!({"Move Overhead": 30, "Hash": 0})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        err["error"],
        "engine pika: Hash takes a whole number from 1 to 33554432, not \"0\""
    );
    let (status, err) = set(json!({"Nope": 1})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("no option \"Nope\""),
        "{err}"
    );
    let (status, err) = set(json!({"multipv": 2})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        err["error"].as_str().unwrap().contains("set by the server"),
        "{err}"
    );
    let (status, err) = set(json!({"UCI_ShowWDL": "yes"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    let (status, err) = set(json!({"EvalFile": "x.nnue\nquit"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    let (status, err) = set(json!({"Threads": [1]})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let (status, e) =
        set(json!({"move overhead": 30, "UCI_ShowWDL": true, "Clear Hash": null})).await;
    assert_eq!(status, StatusCode::OK, "{e}");
    assert_eq!(option(&e, "Move Overhead")["value"], 30);
    assert_eq!(option(&e, "UCI_ShowWDL")["value"], true);
    let (status, _) = set(json!({"Hash": 1})).await.clone();
    assert_eq!(status, StatusCode::OK);
    let (status, err) = post(&app, "/api/engines/nope/options", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");

    // A game with a clock: the engine is sent the clocks in UCI's words.
    let (status, game) = post(
        &app,
        "/api/play",
        json!({"side": "red", "engine": "pika", "clock": {"minutes": 1, "increment": 2}}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let game = play_on(&app, game, 3, first_playable).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 6, "{game}");
    assert!(game["engine"]["score"].is_string(), "{game}");
    assert!(game["engine"]["nodes"].as_u64().unwrap() > 0, "{game}");

    // Analysis: its MultiPV lines, and for a mated side its `info depth 0 score mate 0` and
    // `bestmove (none)`.
    let events = analyse(
        &app,
        &format!("fen={START}&multipv=3&seconds=0.3&engine=pika"),
    )
    .await;
    let lines: Vec<&Value> = events
        .iter()
        .filter(|(n, d)| n == "info" && d["depth"] == 3)
        .map(|(_, d)| d)
        .collect();
    assert_eq!(lines.len(), 3, "{events:?}");
    assert_eq!(lines[0]["nodes"], 3000);
    assert_eq!(lines[0]["millis"], 6);
    assert_eq!(events.last().unwrap().0, "done");
    let mated = "3k5/9/9/9/9/9/9/9/3R5/4K4%20b%20-%20-%200%201";
    let events = analyse(&app, &format!("fen={mated}&seconds=0.2&engine=pika")).await;
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0].1["mate"], 0, "{events:?}");
    assert_eq!(events[0].1["depth"], 0);
    assert_eq!(
        events[1],
        ("done".to_owned(), json!({"best": null, "nodes": 0}))
    );

    // A draw offered at the start: it judges by its own score (it sees a horse won for the
    // person, so it is clearly lost and accepts).
    let (_, offered) = post(&app, "/api/play", json!({"side": "red", "engine": "pika"})).await;
    let id = offered["id"].as_str().unwrap();
    let (status, answer) = post(&app, &format!("/api/play/{id}/draw"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["accepted"], true, "{answer}");
    assert_eq!(answer["game"]["result"]["why"], "agreement");

    // What it was sent, in Pikafish's words.
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(lines[..2], ["ucci", "uci"], "{sent}");
    for expected in [
        "setoption name Hash value 64",
        "setoption name Move Overhead value 30",
        "setoption name UCI_ShowWDL value true",
        "setoption name Clear Hash",
        "setoption name Hash value 1",
        "setoption name MultiPV value 3",
        "position startpos",
        "go infinite",
        "stop",
        "position fen 3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1",
        "go movetime 2000",
    ] {
        assert!(lines.contains(&expected), "{expected:?} not sent: {sent}");
    }
    // The clocks: Red's time first, both increments, milliseconds.
    let go = lines
        .iter()
        .find(|l| l.starts_with("go wtime"))
        .unwrap_or_else(|| panic!("no clock sent: {sent}"));
    let words: Vec<&str> = go.split_whitespace().collect();
    assert_eq!(words.len(), 9, "{go}");
    assert_eq!(words[5..], ["winc", "2000", "binc", "2000"], "{go}");
    // The game from its start, in ICCS's squares.
    let first = game["moves"][0]["iccs"].as_str().unwrap();
    assert!(
        lines.contains(&format!("position startpos moves {first}").as_str()),
        "{sent}"
    );
}

/// A game against the test engine in `mode` (with `extra` settings), the person as `side`,
/// set up as `setup` says (`fen`, `moves`), played until it ends.
async fn misbehaving(mode: &str, extra: &[&str], setup: Value, side: &str) -> Value {
    let engine = test_engine();
    let mut words = vec![format!("bad={engine}"), format!("arg={mode}")];
    words.extend(extra.iter().map(|&w| w.to_owned()));
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let app = app(vec![spec(&words)]);
    let mut body = json!({"side": side, "engine": "bad", "limits": {"movetime": 100}});
    for (k, v) in setup.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, game) = post(&app, "/api/play", body).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    // The person plays back and forth: the first move, then the one undoing it.
    play_on(&app, game, 8, |g| {
        let moves = g["moves"].as_array().unwrap();
        let playable: Vec<&str> = g["playable"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let back = moves.len().checked_sub(2).map(|i| {
            let m = moves[i]["iccs"].as_str().unwrap();
            format!("{}{}", &m[2..], &m[..2])
        });
        back.filter(|b| playable.contains(&b.as_str()))
            .unwrap_or_else(|| playable[0].to_owned())
    })
    .await
}

#[tokio::test]
async fn an_illegal_move_no_move_a_crash_or_a_flag_ends_the_game() {
    let game = misbehaving("illegal", &[], json!({}), "black").await;
    let result = &game["result"];
    assert_eq!(result["why"], "illegal-move", "{game}");
    assert_eq!(result["winner"], "black");
    assert_eq!(result["reason"], "Red plays an illegal move e0a0");
    assert!(game["moves"].as_array().unwrap().is_empty());

    let game = misbehaving("nomove", &[], json!({}), "red").await;
    assert_eq!(game["result"]["why"], "no-move", "{game}");
    assert_eq!(game["result"]["winner"], "red");

    let game = misbehaving("crash", &[], json!({}), "red").await;
    assert_eq!(game["result"]["why"], "engine-failure", "{game}");
    assert!(
        game["result"]["reason"]
            .as_str()
            .unwrap()
            .contains("crashed or exited (exit code 3)"),
        "{game}"
    );

    // It never answers, even `stop`: it loses on time, after the time per move, the margin and
    // the grace.
    let started = std::time::Instant::now();
    let game = misbehaving("hang", &["timemargin=200"], json!({}), "red").await;
    assert_eq!(game["result"]["why"], "time", "{game}");
    assert_eq!(game["result"]["reason"], "Black loses on time");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn a_forbidden_repetition_is_played_and_loses() {
    // Red's engine has checked with its chariot along the 9th and 8th ranks, and its third
    // check repeats the position; in UCI it is told nothing (no `banmoves`), plays it and loses.
    let game = misbehaving(
        "perpetual-deaf",
        &["proto=uci"],
        json!({"fen": "4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1",
               "moves": ["h0h9", "e9e8", "h9h8", "e8e9"]}),
        "black",
    )
    .await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 5, "{game}");
    assert_eq!(game["moves"][4]["iccs"], "h8h9", "{game}");
    assert_eq!(game["result"]["why"], "perpetual-check", "{game}");
    assert_eq!(game["result"]["winner"], "black");
}

#[tokio::test]
async fn a_crashed_engine_is_started_again_and_failures_are_named() {
    let engine = test_engine();
    let app = app(vec![
        spec(&[&format!("crash={engine}"), "arg=crash"]),
        spec(&["gone=/nonexistent/engine"]),
        spec(&[&format!("mute={engine}"), "arg=mute", "handshake=0.3"]),
    ]);
    // Two games, each with a fresh process: the first crashed.
    for _ in 0..2 {
        let (status, game) = post(
            &app,
            "/api/play",
            json!({"side": "black", "engine": "crash"}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        assert_eq!(game["result"]["why"], "engine-failure", "{game}");
    }
    let (status, list) = get(&app, "/api/engines").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["engines"][0]["state"], "ready");
    let gone = &list["engines"][1];
    assert_eq!(gone["state"], "failed");
    assert!(
        gone["error"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/engine"),
        "{gone}"
    );
    assert!(
        list["engines"][2]["error"]
            .as_str()
            .unwrap()
            .contains("failed the handshake"),
        "{list}"
    );
    // Asking for a game or an analysis with it is an error naming it; the server goes on.
    let (status, err) = post(&app, "/api/play", json!({"engine": "gone"})).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{err}");
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .starts_with("engine gone could not be started")
    );
    let (status, err) = get(&app, &format!("/api/analysis?fen={START}&engine=mute")).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{err}");
    let (status, err) = post(&app, "/api/play", json!({"engine": "nope"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    let (status, err) = get(&app, &format!("/api/analysis?fen={START}&engine=nope")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{err}");
    let (status, err) = get(&app, "/api/engines/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
    for (body, says) in [
        (json!({"engine": "crash", "level": 3}), "level is Chariot's"),
        (json!({"limits": {"depth": 3}}), "give engine too"),
        (
            json!({"engine": "crash", "limits": {"depth": 0}}),
            "limits.depth 0",
        ),
        (
            json!({"engine": "crash", "limits": {"movetime": 60000}}),
            "limits.movetime",
        ),
        (
            json!({"engine": "crash", "limits": {"nodes": 0}}),
            "limits.nodes",
        ),
        (
            json!({"engine": "crash", "limits": {"ply": 3}}),
            "unknown field",
        ),
    ] {
        let (status, err) = post(&app, "/api/play", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
        assert!(
            err["error"].as_str().unwrap().contains(says),
            "{body}: {err}"
        );
    }
    let (status, _) = get(&app, "/api/levels").await;
    assert_eq!(status, StatusCode::OK);
}
