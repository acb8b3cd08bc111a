//! The puzzles' API through the router: the list and its filters, one puzzle, a solver's moves
//! judged (the stored move and its reply, a mate that solves, a wrong move), the rest of the
//! solution, and every kind of bad request.

mod common;

use axum::Router;
use axum::http::StatusCode;
use chariot_web::Limits;
use serde_json::{Value, json};

fn app() -> Router {
    common::app_with(Limits::default())
}

/// [`common::call`] with a JSON value for the body.
async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    common::call(app, method, uri, body.map(|b| b.to_string()).as_deref()).await
}

async fn get(app: &Router, uri: &str) -> Value {
    let (status, value) = call(app, "GET", uri, None).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {value}");
    value
}

/// The ids of a list answer.
fn ids(list: &Value) -> Vec<String> {
    list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_list_is_filtered_by_theme_mate_difficulty_and_source() {
    let app = app();
    let all = get(&app, "/api/puzzles?limit=5000").await;
    let total = all["total"].as_u64().unwrap();
    assert!(total >= 900, "{total} puzzles");
    let rows = all["puzzles"].as_array().unwrap();
    assert_eq!(rows.len() as u64, total);
    let rank = |d: &str| {
        ["easy", "medium", "hard"]
            .iter()
            .position(|x| *x == d)
            .unwrap()
    };
    assert!(
        rows.windows(2)
            .all(|w| rank(w[0]["difficulty"].as_str().unwrap())
                <= rank(w[1]["difficulty"].as_str().unwrap())),
        "easiest first"
    );
    assert_eq!(
        get(&app, "/api/puzzles").await["puzzles"]
            .as_array()
            .unwrap()
            .len(),
        100
    );
    let page = get(&app, "/api/puzzles?offset=3&limit=4").await;
    assert_eq!(ids(&page), ids(&all)[3..7]);

    let every = |list: &Value, test: &dyn Fn(&Value) -> bool| {
        let rows = list["puzzles"].as_array().unwrap();
        !rows.is_empty() && rows.iter().all(test)
    };
    let has = |p: &Value, theme: &str| p["themes"].as_array().unwrap().iter().any(|t| t == theme);
    let mates = get(&app, "/api/puzzles?theme=mate&limit=5000").await;
    assert!(every(&mates, &|p| has(p, "mate")
        && p["mate_in"].as_u64().is_some()));
    let two = get(&app, "/api/puzzles?mate_in=2&limit=5000").await;
    assert!(every(&two, &|p| p["mate_in"] == 2));
    let long = get(&app, "/api/puzzles?mate_in=4%2B&limit=5000").await;
    assert!(every(&long, &|p| p["mate_in"].as_u64().unwrap() >= 4));
    let endgames = get(&app, "/api/puzzles?theme=endgame&limit=5000").await;
    assert!(every(&endgames, &|p| p["source"] == "tables"));
    let tactics = get(&app, "/api/puzzles?theme=tactic&limit=5000").await;
    assert!(every(&tactics, &|p| p["mate_in"].is_null()
        && p["source"] != "tables"));
    let hard = get(&app, "/api/puzzles?difficulty=hard&theme=mate&limit=5000").await;
    assert!(every(&hard, &|p| p["difficulty"] == "hard"
        && p["mate_in"].is_u64()));
    let classic = get(&app, "/api/puzzles?source=classic&limit=5000").await;
    assert!(every(&classic, &|p| p["source"] == "classic"
        && p["side"] == "red"));
    for source in ["classic", "ccpd-mates", "ccpd-tactics", "masters", "tables"] {
        let n = get(&app, &format!("/api/puzzles?source={source}&limit=1")).await["total"].as_u64();
        assert!(n.unwrap() > 0, "no puzzle from {source}");
    }
    // The themes and sources partition nothing away: every puzzle has a theme.
    assert!(every(&all, &|p| !p["themes"]
        .as_array()
        .unwrap()
        .is_empty()));
}

#[tokio::test]
async fn a_bad_filter_is_named() {
    let app = app();
    for (query, name) in [
        ("theme=opening", "theme"),
        ("mate_in=0", "mate_in"),
        ("mate_in=two", "mate_in"),
        ("difficulty=trivial", "difficulty"),
        ("source=book", "source"),
        ("limit=5001", "limit"),
        ("offset=-1", "offset"),
    ] {
        let (status, e) = call(&app, "GET", &format!("/api/puzzles?{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {e}");
        assert_eq!(e["code"], "bad-filter", "{query}: {e}");
        assert_eq!(e["params"]["name"], name, "{query}: {e}");
    }
    let (status, e) = call(&app, "GET", "/api/puzzles?colour=red", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(e["code"], "unknown-parameter");
    let (status, e) = call(&app, "GET", "/api/puzzles/00000000", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(e["code"], "no-puzzle");
}

/// The first puzzle of a filter, whole.
async fn first(app: &Router, query: &str) -> Value {
    let list = get(app, &format!("/api/puzzles?{query}&limit=1")).await;
    let id = ids(&list).remove(0);
    get(app, &format!("/api/puzzles/{id}")).await
}

fn solution(p: &Value) -> Vec<String> {
    p["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_mate_in_two_is_solved_move_by_move() {
    let app = app();
    let p = first(&app, "mate_in=2").await;
    let id = p["id"].as_str().unwrap();
    let line = solution(&p);
    assert_eq!(line.len(), 3);
    assert_eq!(p["goal"], "mate2");
    assert!(p["legal"].as_array().unwrap().iter().any(|m| m == &line[0]));
    assert_eq!(
        p["solution"][0]["fen"].as_str().unwrap().split(' ').nth(1),
        Some(if p["side"] == "red" { "b" } else { "w" })
    );
    let uri = format!("/api/puzzles/{id}/move");
    let (status, answer) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"moves": [], "move": line[0]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["verdict"], "correct");
    assert_eq!(answer["move"]["iccs"], line[0]);
    assert_eq!(answer["reply"]["iccs"], line[1]);
    assert_eq!(answer["on_line"], true);
    assert_eq!(answer["fen"], p["solution"][1]["fen"]);
    assert!(
        answer["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == &line[2])
    );
    let (_, answer) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"moves": &line[..2], "move": line[2]})),
    )
    .await;
    assert_eq!(answer["verdict"], "solved", "{answer}");
    assert!(answer["reply"].is_null());
    assert_eq!(answer["legal"], json!([]));
    // The rest of the solution from anywhere on the line.
    let (status, rest) = call(
        &app,
        "POST",
        &format!("/api/puzzles/{id}/solution"),
        Some(json!({"moves": &line[..2]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{rest}");
    assert_eq!(rest["line"][0]["iccs"], line[2]);
    assert_eq!(rest["line"].as_array().unwrap().len(), 1);
    // A move of the general where a mate in 2 is wanted is wrong, and the position stays.
    let general = p["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .find(|m| {
            let from = &m[..2];
            let king = if p["side"] == "red" { 'K' } else { 'k' };
            square_holds(p["fen"].as_str().unwrap(), from, king) && *m != line[0]
        });
    if let Some(m) = general {
        let (_, answer) = call(&app, "POST", &uri, Some(json!({"moves": [], "move": m}))).await;
        if answer["verdict"] == "wrong" {
            assert_eq!(answer["fen"], p["fen"]);
            assert!(answer["reply"].is_null());
        } else {
            // A general's move that mates in 2 too: accepted, as any mate as fast is.
            assert_eq!(answer["verdict"], "correct", "{answer}");
        }
    }
}

/// Whether `square` (ICCS) of the FEN's board holds `piece` (a FEN letter).
fn square_holds(fen: &str, square: &str, piece: char) -> bool {
    let ranks: Vec<String> = fen
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .map(|r| {
            r.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank = (square.as_bytes()[1] - b'0') as usize;
    ranks[9 - rank].chars().nth(file) == Some(piece)
}

#[tokio::test]
async fn a_table_puzzle_follows_the_tables_and_a_wrong_move_is_wrong() {
    let app = app();
    let p = first(&app, "theme=endgame").await;
    let id = p["id"].as_str().unwrap();
    let line = solution(&p);
    let uri = format!("/api/puzzles/{id}/move");
    let (_, answer) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"moves": [], "move": line[0]})),
    )
    .await;
    assert_eq!(
        answer["verdict"],
        if line.len() == 1 { "solved" } else { "correct" },
        "{answer}"
    );
    // Every other move of the first position: the only winning move was the stored one (or a
    // last move that mates).
    let others: Vec<String> = p["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .filter(|m| *m != line[0])
        .collect();
    for m in others.iter().take(4) {
        let (_, answer) = call(&app, "POST", &uri, Some(json!({"moves": [], "move": m}))).await;
        assert!(
            answer["verdict"] == "wrong" || line.len() == 1,
            "{m}: {answer}"
        );
    }
}

#[tokio::test]
async fn moves_that_cannot_be_judged_are_refused_with_a_code() {
    let app = app();
    let p = first(&app, "mate_in=3").await;
    let id = p["id"].as_str().unwrap();
    let line = solution(&p);
    let uri = format!("/api/puzzles/{id}/move");
    let cases = [
        (
            json!({"moves": &line[..1], "move": line[1]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not-solvers-turn",
        ),
        (
            json!({"moves": line, "move": line[0]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal-move",
        ),
        (
            json!({"moves": [], "move": "a0a9"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal-move",
        ),
        (
            json!({"moves": ["a0a9", "a9a0"], "move": line[0]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal-line",
        ),
        (
            json!({"moves": [], "move": line[0], "hint": true}),
            StatusCode::BAD_REQUEST,
            "bad-request",
        ),
    ];
    for (body, status, code) in cases {
        let (got, e) = call(&app, "POST", &uri, Some(body.clone())).await;
        assert_eq!(got, status, "{body}: {e}");
        assert_eq!(e["code"], code, "{body}: {e}");
    }
    let (got, e) = call(
        &app,
        "POST",
        &format!("/api/puzzles/{id}/solution"),
        Some(json!({"moves": [line[0].clone()]})),
    )
    .await;
    assert_eq!(got, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert_eq!(e["code"], "not-solvers-turn");
    // A tactic's line played out and answered: the solver has made its moves.
    let t = first(&app, "theme=tactic").await;
    let tline = solution(&t);
    let end = get(
        &app,
        &format!(
            "/api/position?fen={}&moves={}",
            t["fen"].as_str().unwrap().replace(' ', "%20"),
            tline.join("%20")
        ),
    )
    .await;
    let reply = end["legal"][0].as_str().unwrap().to_owned();
    let mut moves = tline.clone();
    moves.push(reply.clone());
    let next = get(
        &app,
        &format!(
            "/api/position?fen={}&moves={}",
            t["fen"].as_str().unwrap().replace(' ', "%20"),
            moves.join("%20")
        ),
    )
    .await;
    let uri = format!("/api/puzzles/{}/move", t["id"].as_str().unwrap());
    let (got, e) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"moves": moves, "move": next["legal"][0]})),
    )
    .await;
    assert_eq!(got, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["code"], "puzzle-over");
    let (got, e) = call(
        &app,
        "POST",
        "/api/puzzles/00000000/solution",
        Some(json!({"moves": []})),
    )
    .await;
    assert_eq!(got, StatusCode::NOT_FOUND, "{e}");
}
