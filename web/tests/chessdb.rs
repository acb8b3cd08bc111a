//! The ChessDB endpoint through the router: each action in ChessDB's text and JSON forms, the
//! book's numbers against the book, `ban=`, the tables' `egtb:` answers, the short search, the
//! repetition rules on a perpetual check, and ChessDB's words for bad input.
//!
//! The expected formats are those of chessdb.cn's Xiangqi API page
//! (`chessdb.cn/cloudbook_api_en.html`) and of its server (`noobpwnftw/chessdb`,
//! `web/chessdb.php`), as `docs/web-api.md` lists them.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use chariot_formats::book::BookSet;
use chariot_formats::egtb::{Tablebases, Value};
use chariot_rules::notation::parse_iccs;
use chariot_rules::{Move, Position};
use chariot_web::{AppState, Limits, router};
use http_body_util::BodyExt;
use tower::ServiceExt;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
/// Red's rook and general against the bare general: the tables' (KRK).
const KRK: &str = "3k5/9/9/9/9/9/9/9/4R4/4K4 w";
/// The rook on e8 checks, the horse on c7 guards it: Black is mated.
const MATE: &str = "4k4/4R4/2N6/9/9/9/9/9/5R3/3K5 b";
/// Not in check, but d8 and e9 are covered: Black is stalemated.
const STALEMATE: &str = "3k5/4R4/4R4/9/9/9/9/9/9/5K3 b";
/// A middle game neither the book nor the tables know.
const MIDDLE: &str = "2bak4/4a4/4b1n2/p3c3p/2p3p2/6P2/P1P5P/2N1B4/4A4/2BAK2R1 w";

fn tables() -> Tablebases {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    Tablebases::open(&[dir]).unwrap()
}

fn app_with(limits: Limits) -> Router {
    router(Arc::new(AppState::new(
        chariot_formats::book::builtin::book_set(),
        tables(),
        limits,
    )))
}

/// A small search budget keeps the tests quick.
fn app() -> Router {
    app_with(Limits {
        chessdb_nodes: 20_000,
        ..Limits::default()
    })
}

struct Answer {
    status: StatusCode,
    kind: String,
    body: String,
}

async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        kind,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

fn uri(action: &str, board: &str, rest: &str) -> String {
    format!(
        "/chessdb.php?action={action}&board={}{rest}",
        board.replace(' ', "%20")
    )
}

/// The text reply to `action` on `board` (plus `rest`, `&ban=...`), checked to be ChessDB's
/// text: status 200 and a NUL at the end, which is taken off.
async fn text(app: &Router, action: &str, board: &str, rest: &str) -> String {
    let request = Request::builder()
        .uri(uri(action, board, rest))
        .body(Body::empty())
        .unwrap();
    let a = send(app, request).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.kind, "text/plain; charset=utf-8");
    a.body
        .strip_suffix('\0')
        .unwrap_or_else(|| panic!("no NUL at the end of {:?}", a.body))
        .to_owned()
}

/// The JSON reply (`json=1`).
async fn json(app: &Router, action: &str, board: &str, rest: &str) -> serde_json::Value {
    let request = Request::builder()
        .uri(uri(action, board, &format!("{rest}&json=1")))
        .body(Body::empty())
        .unwrap();
    let a = send(app, request).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.kind, "application/json");
    serde_json::from_str(&a.body).unwrap()
}

/// A text reply's entries (`|`), each a map of its fields (`,`, `name:value`).
fn entries(reply: &str) -> Vec<HashMap<String, String>> {
    reply
        .split('|')
        .map(|e| {
            e.split(',')
                .map(|f| {
                    let (k, v) = f.split_once(':').unwrap_or_else(|| panic!("{f:?}"));
                    (k.to_owned(), v.to_owned())
                })
                .collect()
        })
        .collect()
}

/// A `querypv` reply's fields (`score`, `depth`, `pv`) and its line.
fn pv_fields(reply: &str) -> (HashMap<String, String>, Vec<String>) {
    let fields: HashMap<String, String> = reply
        .split(',')
        .map(|f| {
            let (k, v) = f.split_once(':').unwrap_or_else(|| panic!("{f:?}"));
            (k.to_owned(), v.to_owned())
        })
        .collect();
    let line = fields["pv"].split('|').map(str::to_owned).collect();
    (fields, line)
}

fn mv(text: &str) -> Move {
    parse_iccs(text).unwrap()
}

/// Plays `line` (legal moves) from `fen`; the position reached.
fn after(fen: &str, line: &[String]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in line {
        let m = mv(m);
        assert!(pos.is_legal(m), "{m} in {}", pos.fen());
        pos.make_move(m);
    }
    pos
}

/// The book score of a move from its games, computed here from the definition in
/// `docs/web-api.md`: `330 ln(p / (1 - p))` with `p = (points + 50) / (games + 100)`.
fn expected_book_score(pos: &Position, m: Move) -> i64 {
    let book = BookSet::probe(&chariot_formats::book::builtin::book_set(), pos);
    let s = book.iter().find(|b| b.mv == m).unwrap().stats;
    let (wins, losses) = s.wins_losses(pos.turn());
    let points = f64::from(wins) + f64::from(s.games - wins - losses) / 2.0;
    let p = (points + 50.0) / (f64::from(s.games) + 100.0);
    (330.0 * (p / (1.0 - p)).ln()).round() as i64
}

#[tokio::test]
async fn queryall_lists_the_book_moves_with_chessdb_fields_best_first() {
    let app = app();
    let start = Position::from_fen(START).unwrap();
    let reply = text(&app, "queryall", START, "").await;
    let lines = entries(&reply);
    let book = chariot_formats::book::builtin::book_set().probe(&start);
    assert_eq!(lines.len(), book.len(), "{reply}");
    let mut previous = i64::MAX;
    for (i, l) in lines.iter().enumerate() {
        let keys: Vec<&str> = ["move", "score", "rank", "note", "winrate"]
            .into_iter()
            .filter(|k| l.contains_key(*k))
            .collect();
        assert_eq!(keys.len(), l.len(), "unexpected fields in {l:?}");
        let m = mv(&l["move"]);
        assert!(book.iter().any(|b| b.mv == m), "{m} is no book move");
        let score: i64 = l["score"].parse().unwrap();
        assert_eq!(score, expected_book_score(&start, m), "{m}");
        assert!(score <= previous, "not best first: {reply}");
        previous = score;
        // The win rate is ChessDB's logistic of the score, to two decimals.
        let winrate = 100.0 / (1.0 + (-(score as f64) / 330.0).exp());
        assert_eq!(l["winrate"], format!("{winrate:.2}"));
        // The mark follows the rank; the best move is rank 2 unless even it is poor.
        let rank: u8 = l["rank"].parse().unwrap();
        let mark = ["?", "*", "!"][usize::from(rank)];
        let note = &l["note"];
        assert!(note.starts_with(&format!("{mark} (")), "{note}");
        let counts = note[3..note.len() - 1].split('-').collect::<Vec<_>>();
        assert!(
            counts.len() == 2
                && counts
                    .iter()
                    .all(|c| c.len() >= 2 && c.parse::<u32>().is_ok())
        );
        // The first count is the book's moves after this one.
        let replies = chariot_formats::book::builtin::book_set()
            .probe(&after(START, &[l["move"].clone()]))
            .len();
        assert_eq!(counts[0].parse::<usize>().unwrap(), replies, "{l:?}");
        if i == 0 {
            assert!(score < -50 || rank == 2, "{l:?}");
        }
    }

    // The JSON form says the same.
    let j = json(&app, "queryall", START, "").await;
    assert_eq!(j["status"], "ok");
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), lines.len());
    for (m, l) in moves.iter().zip(&lines) {
        assert_eq!(m["uci"], l["move"].as_str());
        assert_eq!(m["score"].to_string(), l["score"]);
        assert_eq!(m["rank"].to_string(), l["rank"]);
        assert_eq!(m["note"], l["note"].as_str());
        // ChessDB writes the win rate as a string.
        assert_eq!(m["winrate"], l["winrate"].as_str());
        assert_eq!(
            m.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["note", "rank", "score", "uci", "winrate"]
        );
    }

    // With showall=1 the legal moves the book lacks follow, unknown.
    let all = entries(&text(&app, "queryall", START, "&showall=1").await);
    assert_eq!(all.len(), start.legal_move_list().len());
    for l in &all[lines.len()..] {
        assert_eq!(
            (l["score"].as_str(), l["rank"].as_str(), l["note"].as_str()),
            ("??", "0", "? (??-??)")
        );
    }
}

#[tokio::test]
async fn ban_takes_moves_out_of_every_answer() {
    let app = app();
    let lines = entries(&text(&app, "queryall", START, "").await);
    let (first, second) = (lines[0]["move"].clone(), lines[1]["move"].clone());

    assert_eq!(
        text(&app, "querybest", START, "").await,
        format!("move:{first}")
    );
    let j = json(&app, "querybest", START, "").await;
    assert_eq!(j, serde_json::json!({"status": "ok", "move": first}));

    // ChessDB's form, `move:` before each move; without it works too.
    for ban in [format!("&ban=move:{first}"), format!("&ban={first}")] {
        let banned = entries(&text(&app, "queryall", START, &ban).await);
        assert_eq!(banned.len(), lines.len() - 1);
        assert!(banned.iter().all(|l| l["move"] != first));
        assert_eq!(
            text(&app, "querybest", START, &ban).await,
            format!("move:{second}")
        );
    }
    let both = format!("&ban=move:{first}%7Cmove:{second}");
    let banned = entries(&text(&app, "queryall", START, &both).await);
    assert!(
        banned
            .iter()
            .all(|l| l["move"] != first && l["move"] != second)
    );
    assert_eq!(banned.len(), lines.len() - 2);
}

#[tokio::test]
async fn querypv_and_queryscore_follow_the_book() {
    let app = app();
    let lines = entries(&text(&app, "queryall", START, "").await);
    let best = &lines[0];

    let (pv, moves) = pv_fields(&text(&app, "querypv", START, "").await);
    assert_eq!(pv.len(), 3);
    assert_eq!(pv["score"], best["score"]);
    assert_eq!(pv["depth"], moves.len().to_string());
    assert_eq!(moves[0], best["move"]);
    assert!(moves.len() > 1, "the book knows more than one move deep");
    // Every move of the line is the book's best where it is played.
    for i in 1..moves.len() {
        let fen = after(START, &moves[..i]).fen();
        let here = entries(&text(&app, "queryall", &fen, "").await);
        assert_eq!(here[0]["move"], moves[i], "ply {i} of {moves:?}");
    }
    let j = json(&app, "querypv", START, "").await;
    assert_eq!(j["status"], "ok");
    assert_eq!(j["score"].to_string(), best["score"]);
    assert_eq!(j["depth"], moves.len());
    assert_eq!(j["pv"], serde_json::json!(moves));

    assert_eq!(
        text(&app, "queryscore", START, "").await,
        format!("eval:{}", best["score"])
    );
    let j = json(&app, "queryscore", START, "").await;
    assert_eq!(j["status"], "ok");
    assert_eq!(j["eval"].to_string(), best["score"]);
}

#[tokio::test]
async fn a_table_position_answers_from_the_tables() {
    let app = app();
    let tables = tables();
    let pos = Position::from_fen(KRK).unwrap();
    let Some(Value::Win(dtm)) = tables.probe(&pos).unwrap() else {
        panic!("KRK is a win");
    };
    let (best, _) = tables.best_move(&pos).unwrap().unwrap();

    assert_eq!(
        text(&app, "querybest", KRK, "").await,
        format!("egtb:{best}")
    );
    assert_eq!(
        json(&app, "querybest", KRK, "").await,
        serde_json::json!({"status": "ok", "egtb": best.to_string()})
    );

    let lines = entries(&text(&app, "queryall", KRK, "").await);
    assert_eq!(lines.len(), pos.legal_move_list().len());
    let top = &lines[0];
    assert_eq!(top["score"], (30_000 - dtm).to_string());
    assert_eq!(top["rank"], "2");
    assert_eq!(top["note"], format!("! (W-M-{dtm:04})"));
    // Table lines carry no win rate.
    assert!(lines.iter().all(|l| !l.contains_key("winrate")));
    let values = tables.move_values(&pos).unwrap().unwrap();
    for l in &lines {
        let (_, v) = values
            .iter()
            .find(|(m, _)| m.to_string() == l["move"])
            .unwrap();
        let (score, letter) = match v {
            Value::Win(d) => (30_000 - i64::from(*d), format!("W-M-{d:04}")),
            Value::Loss(d) => (i64::from(*d) - 30_000, format!("L-M-{d:04}")),
            Value::Draw => (0, "D-M-0000".to_owned()),
            _ => panic!("no rule values in KRK"),
        };
        assert_eq!(l["score"], score.to_string(), "{l:?}");
        assert!(l["note"].ends_with(&format!("({letter})")), "{l:?}");
    }

    assert_eq!(
        text(&app, "queryscore", KRK, "").await,
        format!("eval:{}", 30_000 - dtm)
    );
    let (pv, line) = pv_fields(&text(&app, "querypv", KRK, "").await);
    assert_eq!(pv["depth"], dtm.to_string());
    assert_eq!(line.len(), dtm as usize);
    assert_eq!(line[0], best.to_string());
    assert!(!after(KRK, &line).has_legal_move(), "the line ends in mate");

    // The side that is lost sees its losses.
    let lost = "3k5/9/9/9/9/9/9/9/4R4/4K4 b";
    let lines = entries(&text(&app, "queryall", lost, "").await);
    assert!(
        lines.iter().all(|l| l["note"].contains("(L-M-")),
        "{lines:?}"
    );
    assert!(lines[0]["score"].parse::<i32>().unwrap() < -29_000);
}

#[tokio::test]
async fn mated_and_stalemated_positions_say_so() {
    let app = app();
    for (board, word) in [(MATE, "checkmate"), (STALEMATE, "stalemate")] {
        for action in ["queryall", "querypv", "queryscore"] {
            assert_eq!(text(&app, action, board, "").await, word, "{action}");
            assert_eq!(
                json(&app, action, board, "").await,
                serde_json::json!({"status": word})
            );
        }
        assert_eq!(text(&app, "querybest", board, "").await, "nobestmove");
    }
}

#[tokio::test]
async fn a_position_nobody_knows_is_searched_within_the_budget() {
    let app = app();
    let pos = Position::from_fen(MIDDLE).unwrap();
    assert!(
        chariot_formats::book::builtin::book_set()
            .probe(&pos)
            .is_empty()
    );
    assert!(!tables().covers(&pos));

    assert_eq!(text(&app, "queryall", MIDDLE, "").await, "unknown");
    assert_eq!(
        json(&app, "queryall", MIDDLE, "").await,
        serde_json::json!({"status": "unknown"})
    );

    let best = text(&app, "querybest", MIDDLE, "").await;
    let m = best
        .strip_prefix("search:")
        .unwrap_or_else(|| panic!("{best}"));
    assert!(pos.is_legal(mv(m)), "{best}");
    // Banned, the move is not suggested again.
    let other = text(&app, "querybest", MIDDLE, &format!("&ban=move:{m}")).await;
    assert!(other.starts_with("search:") && other != best, "{other}");
    let j = json(&app, "querybest", MIDDLE, "").await;
    assert_eq!(j["status"], "ok");
    assert_eq!(j["search_moves"].as_array().unwrap().len(), 1);

    let (pv, line) = pv_fields(&text(&app, "querypv", MIDDLE, "").await);
    assert_eq!(pv["depth"], line.len().to_string());
    after(MIDDLE, &line);
    let score: i32 = pv["score"].parse().unwrap();
    assert!(score.abs() < 10_000, "{score}");
    let eval = text(&app, "queryscore", MIDDLE, "").await;
    assert!(
        eval.strip_prefix("eval:").unwrap().parse::<i32>().is_ok(),
        "{eval}"
    );
    let j = json(&app, "querypv", MIDDLE, "").await;
    assert_eq!(j["depth"], j["pv"].as_array().unwrap().len());

    // With no search allowed, ChessDB's word for a server at its limit.
    let busy = app_with(Limits {
        max_chessdb_searches: 0,
        ..Limits::default()
    });
    for action in ["querybest", "querypv", "queryscore"] {
        assert_eq!(text(&busy, action, MIDDLE, "").await, "rate limit exceeded");
    }
}

#[tokio::test]
async fn queryrule_bans_the_perpetual_checkers_repetition() {
    let app = app();
    // The red rook checks from h9 and h8 while the black general steps between d9 and d8: after
    // the four moves, h8h9 would repeat the position by Red's perpetual check.
    let board = "3k5/7R1/9/9/9/9/9/9/9/5K3 w";
    let movelist = "&movelist=h8h9%7Cd9d8%7Ch9h8%7Cd8d9";
    let reply = text(&app, "queryrule", board, movelist).await;
    let lines = entries(&reply);
    let pos = after(board, &["h8h9", "d9d8", "h9h8", "d8d9"].map(String::from));
    assert_eq!(lines.len(), pos.legal_move_list().len());
    for l in &lines {
        assert_eq!(l.len(), 2);
        let expected = if l["move"] == "h8h9" { "ban" } else { "none" };
        assert_eq!(l["rule"], expected, "{reply}");
    }
    let j = json(&app, "queryrule", board, movelist).await;
    assert_eq!(j["status"], "ok");
    assert!(
        j["moves"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"uci": "h8h9", "rule": "ban"}))
    );
    // Waiting for the second repetition, the first is no offence yet.
    let twice = text(&app, "queryrule", board, &format!("{movelist}&reptimes=2")).await;
    assert!(
        entries(&twice).iter().all(|l| l["rule"] == "none"),
        "{twice}"
    );

    // Generals stepping to and fro: nobody checks or chases, the repetition is a draw.
    let bare = "3k5/9/9/9/9/9/9/9/9/4K4 b";
    let reply = text(&app, "queryrule", bare, "&movelist=d9d8%7Ce0e1%7Cd8d9").await;
    let lines = entries(&reply);
    for l in &lines {
        let expected = if l["move"] == "e1e0" { "draw" } else { "none" };
        assert_eq!(l["rule"], expected, "{reply}");
    }

    // Too short, or a move that is not legal: ChessDB's words.
    for bad in ["&movelist=h8h9%7Cd9d8", "&movelist=h8h9%7Cd9d8%7Ch9g8", ""] {
        assert_eq!(
            text(&app, "queryrule", board, bad).await,
            "invalid movelist"
        );
    }
    assert_eq!(
        json(&app, "queryrule", board, "&movelist=h8h9").await,
        serde_json::json!({"status": "invalid movelist"})
    );
    // A move list that ends in mate: the rook comes to e8, guarded by the horse.
    let board = "4k4/R8/2N6/9/9/9/8p/9/5R3/3K5 w";
    let reply = text(&app, "queryrule", board, "&movelist=f1f2%7Ci3i2%7Ca8e8").await;
    assert_eq!(reply, "checkmate");
}

#[tokio::test]
async fn bad_requests_get_chessdb_words_not_errors() {
    let app = app();
    for action in [
        "queryall",
        "querybest",
        "querypv",
        "queryscore",
        "queryrule",
    ] {
        assert_eq!(text(&app, action, "nonsense", "").await, "invalid board");
        assert_eq!(
            json(&app, action, "9/9/9 w", "").await,
            serde_json::json!({"status": "invalid board"})
        );
    }
    // No board, no action, or an action this server does not answer: ChessDB's reply to
    // requests it cannot place, without the NUL.
    for uri in [
        "/chessdb.php?action=queryall",
        "/chessdb.php",
        &uri("queue", START, ""),
    ] {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let a = send(&app, request).await;
        assert_eq!(
            (a.status, a.body.as_str()),
            (StatusCode::OK, "invalid parameters"),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn post_and_the_api_path_answer_alike() {
    let app = app();
    let get = text(&app, "queryall", START, "&ban=move:h2e2").await;
    let form = format!(
        "action=queryall&board={}&ban=move%3Ah2e2",
        START.replace(' ', "+")
    );
    let request = Request::builder()
        .method("POST")
        .uri("/chessdb.php")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let a = send(&app, request).await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.body, format!("{get}\0"));

    let request = Request::builder()
        .uri(uri("queryall", START, "&ban=move:h2e2").replace("/chessdb.php", "/api/chessdb"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&app, request).await.body, format!("{get}\0"));
}
