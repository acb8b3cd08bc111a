//! A ChessDB-compatible endpoint (issue 48): `GET` or `POST /chessdb.php?action=ACTION&board=FEN`
//! (also at `/api/chessdb`), answering the Xiangqi cloud book's query actions from this server's
//! own knowledge, in ChessDB's reply formats ([`crate::chessdb_reply`]), so that a tool written
//! for chessdb.cn can be pointed at a local Chariot.
//!
//! | action | answered from |
//! |---|---|
//! | `queryall` | the tables when they cover the position, else the first book that knows it |
//! | `querybest` | the tables (`egtb:`), a book (`move:`), else a short search (`search:`) |
//! | `querypv` | the tables' line, a book's line of best moves, else a short search's line |
//! | `queryscore` | the tables' value, the best book move's score, else a short search's score |
//! | `queryrule` | the rules' repetition judge after `movelist` |
//!
//! The books are the configured ones (`--book`, or the built-in book), then those compiled in
//! the browser; the first that knows a position answers, as the engine's book set does. Scores
//! are on ChessDB's scale ([`crate::chessdb_scale`]); the short search is
//! [`crate::chessdb_search`]. Every reply is ChessDB's text, errors included (`invalid board`,
//! `invalid movelist`, `invalid parameters`), with status 200 as ChessDB answers them; only a
//! failure of the server (an unreadable table) is a 503 with `Error: ...`, as ChessDB's are.

use std::sync::Arc;

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use chariot_formats::book::BookMove;
use chariot_formats::egtb::{Metric, ProbeError, Value};
use chariot_rules::notation::parse_iccs;
use chariot_rules::{Color, Kind, Move, Piece, Position, repetition_start, repetition_verdict};

use crate::chessdb_reply::{Best, LineScore, MoveLine, NoteBody, Reply, Rule, Status};
use crate::chessdb_scale::{self as scale, book_score, good_count, rank, table_score};
use crate::chessdb_search::{SearchError, search};
use crate::state::AppState;

/// A request's fields, query string and form body together (the body's win, as PHP's
/// `$_REQUEST` has them), as pairs.
type Fields = Vec<(String, String)>;

/// The last value of a field (a field given twice counts once, the later value).
fn field<'a>(fields: &'a Fields, name: &str) -> Option<&'a str> {
    fields
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A yes/no field as PHP's boolean filter reads it: `1`, `true`, `on` and `yes` are yes.
fn is_true(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "on" | "yes"
    )
}

/// The most plies a book line (`querypv`) follows.
const BOOK_LINE: usize = 100;

/// The plies of the tables' line shown for a value the perpetual-check rule decides (which has
/// no distance), as the explorer shows it.
const RULE_LINE: usize = 40;

/// The most moves `queryrule` takes, and the fewest: ChessDB's limits.
const MOVELIST: std::ops::RangeInclusive<usize> = 3..=2046;

/// The most repetitions `queryrule` waits for (`reptimes`), ChessDB's limit.
const MAX_REPTIMES: u32 = 10;

/// A book's best move is suggested only when it scores at least this, as ChessDB does; a worse
/// one leaves `querybest` to the search.
const BOOK_FLOOR: i32 = -50;

/// `GET` or `POST /chessdb.php` and `/api/chessdb`.
pub(crate) async fn query(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Fields>, QueryRejection>,
    body: Result<Form<Fields>, FormRejection>,
) -> Response {
    let mut fields = q.map(|Query(f)| f).unwrap_or_default();
    // For a GET the form is the query string again, which changes nothing.
    fields.extend(body.map(|Form(f)| f).unwrap_or_default());
    let json = field(&fields, "json").is_some_and(is_true);
    let (status, text) = match answer(&state, &fields).await {
        Ok(reply) if json => (StatusCode::OK, reply.json()),
        Ok(reply) => (StatusCode::OK, reply.text()),
        Err(Failure(why)) if json => (
            StatusCode::SERVICE_UNAVAILABLE,
            serde_json::json!({ "status": why }).to_string(),
        ),
        Err(Failure(why)) => (StatusCode::SERVICE_UNAVAILABLE, format!("Error: {why}")),
    };
    let kind = if json {
        "application/json"
    } else {
        "text/plain; charset=utf-8"
    };
    (status, [(header::CONTENT_TYPE, kind)], text).into_response()
}

/// The server failed to answer (a table could not be read, the search could not run).
#[derive(Debug)]
struct Failure(String);

impl From<ProbeError> for Failure {
    fn from(e: ProbeError) -> Failure {
        Failure(format!("the tables: {e}"))
    }
}

/// The reply to a request.
async fn answer(state: &Arc<AppState>, fields: &Fields) -> Result<Reply, Failure> {
    let board = field(fields, "board").map(str::trim).unwrap_or_default();
    let Some(action) = field(fields, "action").filter(|_| !board.is_empty()) else {
        return Ok(Reply::Status(Status::InvalidParameters));
    };
    let Ok(pos) = Position::from_fen(board) else {
        return Ok(Reply::Status(Status::InvalidBoard));
    };
    let ban = banned(&pos, field(fields, "ban").unwrap_or_default());
    let flag = |name| field(fields, name).is_some_and(is_true);
    match action {
        "queryall" => queryall(state, &pos, &ban, flag("showall")),
        "querybest" => querybest(state, pos, ban, flag("endgame")).await,
        "querypv" => querypv(state, pos, ban).await,
        "queryscore" => queryscore(state, pos, ban).await,
        "queryrule" => Ok(queryrule(
            &pos,
            field(fields, "movelist").unwrap_or_default(),
            field(fields, "reptimes"),
        )),
        _ => Ok(Reply::Status(Status::InvalidParameters)),
    }
}

/// The legal moves `ban` names (`move:h2e2|move:b2e2`; the `move:` is optional). Entries that
/// name no legal move ban nothing, as at ChessDB.
fn banned(pos: &Position, ban: &str) -> Vec<Move> {
    ban.split('|')
        .map(|e| e.trim().strip_prefix("move:").unwrap_or(e.trim()))
        .filter_map(|text| parse_iccs(text).ok())
        .filter(|&m| pos.is_legal(m))
        .collect()
}

/// `checkmate` or `stalemate` for a position without a legal move, else `None`.
fn no_move(pos: &Position) -> Option<Reply> {
    if pos.has_legal_move() {
        return None;
    }
    Some(Reply::Status(if pos.in_check() {
        Status::Checkmate
    } else {
        Status::Stalemate
    }))
}

/// A book move with ChessDB's numbers.
#[derive(Clone, Debug)]
struct BookLine {
    mv: Move,
    score: i32,
    /// Book moves after it.
    replies: usize,
    /// Of those, the good ones.
    good: usize,
}

/// What the server knows about a position's moves, banned moves left out.
enum Known {
    /// The tables cover it: every move not banned with its value (in `metric`), best first.
    Table {
        metric: Metric,
        moves: Vec<(Move, Value)>,
    },
    /// A book knows it: its moves not banned, best first (never empty).
    Book(Vec<BookLine>),
    /// Neither.
    Nothing,
}

/// The moves of the first book that knows `pos`: the configured books, then those compiled in
/// the browser.
fn book_moves(state: &AppState, pos: &Position) -> Vec<BookMove> {
    let configured = state.books.probe(pos);
    if !configured.is_empty() {
        return configured;
    }
    state
        .library
        .all()
        .iter()
        .map(|(_, set)| set.probe(pos))
        .find(|moves| !moves.is_empty())
        .unwrap_or_default()
}

/// The book's moves of `pos` not in `ban`, scored, best first in ChessDB's order: score, then
/// fewer good replies, then more replies, then the move's text.
fn book_lines(state: &AppState, pos: &Position, ban: &[Move]) -> Vec<BookLine> {
    let mover = pos.turn();
    let mut lines: Vec<BookLine> = book_moves(state, pos)
        .into_iter()
        .filter(|b| !ban.contains(&b.mv) && pos.is_legal(b.mv))
        .map(|b| {
            let mut after = pos.clone();
            after.make_move(b.mv);
            let replies: Vec<i32> = book_moves(state, &after)
                .iter()
                .map(|r| book_score(&r.stats, mover.opponent()))
                .collect();
            BookLine {
                mv: b.mv,
                score: book_score(&b.stats, mover),
                replies: replies.len(),
                good: good_count(&replies),
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(a.good.cmp(&b.good))
            .then(b.replies.cmp(&a.replies))
            .then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
    });
    lines
}

/// What the tables, else the books, know about `pos`. A table missing for a capture leaves the
/// position to the books; any other table error is a failure.
fn known(state: &AppState, pos: &Position, ban: &[Move]) -> Result<Known, Failure> {
    match state.tables.move_values_with_metric(pos) {
        Ok(Some((metric, values))) => {
            let mut moves: Vec<(Move, Value)> = values
                .into_iter()
                .filter(|(m, _)| !ban.contains(m))
                .collect();
            // Best first; equals keep the move generator's order.
            moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            return Ok(Known::Table { metric, moves });
        }
        Ok(None) | Err(ProbeError::MissingTable(_)) => {}
        Err(e) => return Err(e.into()),
    }
    let lines = book_lines(state, pos, ban);
    Ok(if lines.is_empty() {
        Known::Nothing
    } else {
        Known::Book(lines)
    })
}

/// The legal moves not in `ban`, as lines nothing is known about (`showall=1`).
fn unknown_lines(pos: &Position, ban: &[Move], known: &[Move]) -> Vec<MoveLine> {
    pos.legal_move_list()
        .iter()
        .filter(|m| !ban.contains(m) && !known.contains(m))
        .map(|&mv| MoveLine {
            mv,
            score: LineScore::Unknown,
            rank: 0,
            note: NoteBody::Unknown,
            winrate: None,
        })
        .collect()
}

/// `queryall`: every known move with its score, rank, note and (book moves) win rate.
fn queryall(
    state: &AppState,
    pos: &Position,
    ban: &[Move],
    showall: bool,
) -> Result<Reply, Failure> {
    if let Some(end) = no_move(pos) {
        return Ok(end);
    }
    let lines = match known(state, pos, ban)? {
        Known::Table { metric, moves } => {
            let Some(&(_, best)) = moves.first() else {
                return Ok(Reply::Status(Status::Unknown));
            };
            moves
                .iter()
                .map(|&(mv, v)| MoveLine {
                    mv,
                    score: LineScore::Known(table_score(v)),
                    rank: scale::table_rank(v, best),
                    note: scale::table_note(v, metric),
                    winrate: None,
                })
                .collect()
        }
        Known::Book(lines) => {
            let best = lines[0].score;
            let mut out: Vec<MoveLine> = lines
                .iter()
                .map(|l| MoveLine {
                    mv: l.mv,
                    score: LineScore::Known(l.score),
                    rank: rank(l.score, best),
                    note: NoteBody::Book {
                        replies: l.replies,
                        good: l.good,
                    },
                    winrate: scale::winrate(l.score),
                })
                .collect();
            if showall {
                let listed: Vec<Move> = lines.iter().map(|l| l.mv).collect();
                out.extend(unknown_lines(pos, ban, &listed));
            }
            out
        }
        Known::Nothing if showall => unknown_lines(pos, ban, &[]),
        Known::Nothing => Vec::new(),
    };
    Ok(if lines.is_empty() {
        Reply::Status(Status::Unknown)
    } else {
        Reply::Moves(lines)
    })
}

/// `true` when the side to move has no piece that can cross the river: a draw in the tables is
/// then the end of it, and `querybest` names a move rather than candidates to search.
fn no_attackers(pos: &Position) -> bool {
    let us = pos.turn();
    [Kind::Horse, Kind::Chariot, Kind::Cannon, Kind::Soldier]
        .iter()
        .all(|&k| pos.pieces(Piece::new(us, k)).is_empty())
}

/// The reply of a search that could not run: the server's limit, or its failure.
fn search_failed(e: SearchError) -> Result<Reply, Failure> {
    match e {
        SearchError::Busy(_) => Ok(Reply::Status(Status::RateLimitExceeded)),
        SearchError::Failed(why) => Err(Failure(why)),
    }
}

/// `querybest`: the tables' move, the book's best, else the search's move. With `endgame`
/// only the tables answer.
async fn querybest(
    state: &Arc<AppState>,
    pos: Position,
    ban: Vec<Move>,
    endgame: bool,
) -> Result<Reply, Failure> {
    if !pos.has_legal_move() {
        return Ok(Reply::Status(Status::NoBestMove));
    }
    match known(state, &pos, &ban)? {
        Known::Table { moves, .. } => {
            let Some(&(_, best)) = moves.first() else {
                return Ok(Reply::Status(Status::NoBestMove));
            };
            if best == Value::Draw && !no_attackers(&pos) {
                // A draw with pieces left to play for: ChessDB hands the drawing moves over
                // to be searched.
                let drawing = moves
                    .iter()
                    .filter(|(_, v)| *v == Value::Draw)
                    .map(|&(m, _)| m)
                    .collect();
                return Ok(Reply::Best(Best::Search(drawing)));
            }
            // The tables' choice among the best: it follows the plan of a rule win.
            let chosen = state.tables.choose(&pos, &moves)?.map(|(m, _)| m);
            return Ok(Reply::Best(
                chosen.map_or(Best::Table(moves[0].0), Best::Table),
            ));
        }
        _ if endgame => return Ok(Reply::Status(Status::NoBestMove)),
        Known::Book(lines) if lines[0].score >= BOOK_FLOOR => {
            return Ok(Reply::Best(Best::Book(lines[0].mv)));
        }
        Known::Book(_) | Known::Nothing => {}
    }
    match search(state, pos, ban).await {
        Ok(s) => Ok(match s.best {
            Some(m) => Reply::Best(Best::Search(vec![m])),
            None => Reply::Status(Status::NoBestMove),
        }),
        Err(e) => search_failed(e),
    }
}

/// The book's line from `pos` after `first`: its best move in each position, until the book
/// has none, a position repeats or [`BOOK_LINE`] plies.
fn book_line(state: &AppState, pos: &Position, first: Move) -> Vec<Move> {
    let mut p = pos.clone();
    let mut seen = vec![p.key()];
    let mut line = vec![first];
    p.make_move(first);
    while line.len() < BOOK_LINE && !seen.contains(&p.key()) {
        seen.push(p.key());
        let Some(best) = book_lines(state, &p, &[]).first().map(|l| l.mv) else {
            break;
        };
        line.push(best);
        p.make_move(best);
    }
    line
}

/// `querypv`: the score and line of the tables, the book, else the search.
async fn querypv(state: &Arc<AppState>, pos: Position, ban: Vec<Move>) -> Result<Reply, Failure> {
    if let Some(end) = no_move(&pos) {
        return Ok(end);
    }
    match known(state, &pos, &ban)? {
        Known::Table { moves, .. } => {
            let Some((first, value)) = state.tables.choose(&pos, &moves)? else {
                return Ok(Reply::Status(Status::Unknown));
            };
            let mut pv = vec![first];
            // A draw's line goes on for ever: ChessDB gives its first move.
            if value != Value::Draw {
                let rest = value
                    .dtm()
                    .map_or(RULE_LINE, |d| d as usize)
                    .saturating_sub(1);
                let mut after = pos.clone();
                after.make_move(first);
                pv.extend(state.tables.line(&after, rest)?);
            }
            Ok(Reply::Pv {
                score: table_score(value),
                pv,
            })
        }
        Known::Book(lines) => Ok(Reply::Pv {
            score: lines[0].score,
            pv: book_line(state, &pos, lines[0].mv),
        }),
        Known::Nothing => match search(state, pos, ban).await {
            Ok(s) if s.best.is_some() => Ok(Reply::Pv {
                score: scale::search_score(s.score),
                pv: s.pv,
            }),
            Ok(_) => Ok(Reply::Status(Status::Unknown)),
            Err(e) => search_failed(e),
        },
    }
}

/// `queryscore`: the best move's score from the tables, the book, else the search.
async fn queryscore(
    state: &Arc<AppState>,
    pos: Position,
    ban: Vec<Move>,
) -> Result<Reply, Failure> {
    if let Some(end) = no_move(&pos) {
        return Ok(end);
    }
    match known(state, &pos, &ban)? {
        Known::Table { moves, .. } => Ok(moves
            .first()
            .map_or(Reply::Status(Status::Unknown), |&(_, v)| {
                Reply::Eval(table_score(v))
            })),
        Known::Book(lines) => Ok(Reply::Eval(lines[0].score)),
        Known::Nothing => match search(state, pos, ban).await {
            Ok(s) if s.best.is_some() => Ok(Reply::Eval(scale::search_score(s.score))),
            Ok(_) => Ok(Reply::Status(Status::Unknown)),
            Err(e) => search_failed(e),
        },
    }
}

/// `queryrule`: plays `movelist` (`c3c4|g6g5|...`) from `pos` and judges every legal move of the
/// position reached by the repetition rules, the position having repeated `reptimes` times (1
/// to 10, 1 when absent or out of range): `ban` when the move repeats it by a perpetual check
/// or chase of the mover's, `draw` when the repetition is a draw, `none` otherwise (no
/// repetition, or one the opponent is to blame for).
fn queryrule(pos: &Position, movelist: &str, reptimes: Option<&str>) -> Reply {
    let times = reptimes
        .and_then(|t| t.trim().parse::<u32>().ok())
        .filter(|t| (1..=MAX_REPTIMES).contains(t))
        .unwrap_or(1);
    let texts: Vec<&str> = movelist.split('|').map(str::trim).collect();
    if !MOVELIST.contains(&texts.len()) {
        return Reply::Status(Status::InvalidMovelist);
    }
    let mut p = pos.clone();
    for text in texts {
        match parse_iccs(text) {
            Ok(m) if p.is_legal(m) => p.make_move(m),
            _ => return Reply::Status(Status::InvalidMovelist),
        }
    }
    if let Some(end) = no_move(&p) {
        return end;
    }
    let mover: Color = p.turn();
    let rules = p
        .legal_move_list()
        .iter()
        .map(|&m| {
            p.make_move(m);
            // The position after the move has occurred `times` times before.
            let verdict = repetition_start(&p, times + 1).and_then(|s| repetition_verdict(&p, s));
            p.unmake_move();
            let rule = match verdict {
                None => Rule::None,
                Some(v) if v.loser() == Some(mover) => Rule::Ban,
                Some(v) if v.loser().is_none() => Rule::Draw,
                Some(_) => Rule::None,
            };
            (m, rule)
        })
        .collect();
    Reply::Rules(rules)
}
