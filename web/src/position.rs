//! Positions and game files for the pages: `GET /api/position` (a position, reached by moves
//! or not, with its legal moves, verdict, book moves, table value and opening), `GET
//! /api/opening` (the opening of a line) and `POST /api/read` (the
//! games of an uploaded PGN, DhtmlXQ or XQF file, to show on the board).

use crate::book_moves::{BookMoveView, engine_book_moves};
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use chariot_rules::{JudgeConfig, Position, forbidden_moves, judge};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, query};
use crate::error_codes::fen_position;
use crate::movetext::{MoveText, describe, play_out, play_prefix};
use crate::sides::side_name;
use crate::state::AppState;
use chariot_rules::Ending;

/// The largest game file `POST /api/read` takes (1 MiB).
pub const MAX_FILE: usize = 1 << 20;

/// The most games of one file `POST /api/read` returns.
pub const MAX_GAMES: usize = 200;

/// `GET /api/position?fen=...&moves=...`.
#[derive(Debug, Deserialize)]
pub(crate) struct PositionQuery {
    /// The start position.
    fen: String,
    /// Moves played from it, separated by spaces or commas (any notation).
    #[serde(default)]
    moves: String,
}

/// Splits a move list sent in a query string.
pub(crate) fn move_list(text: &str) -> Vec<&str> {
    text.split([' ', ',']).filter(|s| !s.is_empty()).collect()
}

/// The start position of `fen`, the position after `moves` (any notation) and the moves played,
/// or a 422 saying what is wrong. The moves are played, not described: only `/api/position`
/// answers with its line in three notations, and describes it itself.
pub(crate) fn reached(
    fen: &str,
    moves: &str,
) -> Result<(Position, Position, Vec<chariot_rules::Move>), ApiError> {
    let start = fen_position(fen)?;
    let (pos, played) = play_out(start.clone(), &move_list(moves)).map_err(ApiError::from)?;
    Ok((start, pos, played))
}

#[derive(Debug, Serialize)]
pub(crate) struct PositionView {
    fen: String,
    turn: &'static str,
    check: bool,
    /// The moves played from the FEN given, each in three notations with the FEN after it.
    line: Vec<MoveText>,
    /// Legal moves in ICCS that are not forbidden repetitions.
    legal: Vec<String>,
    /// Legal moves that repeat a position by a perpetual check or chase of the mover's.
    forbidden: Vec<String>,
    /// `null` while the position is not decided by the rules.
    result: Option<Ending>,
    book: Vec<BookMoveView>,
    /// The tables' value for the side to move when they cover the position.
    tablebase: Option<TableView>,
    /// The opening of the line from the FEN given, `null` when it has none.
    opening: Option<crate::openings::OpeningView>,
}

#[derive(Debug, Serialize)]
struct TableView {
    wdl: String,
    dtm: Option<u32>,
}

/// `GET /api/position`.
pub(crate) async fn position(
    State(state): State<Arc<AppState>>,
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<PositionView>, ApiError> {
    let q = query(q)?;
    let (start, pos, played) = reached(&q.fen, &q.moves)?;
    let line = describe(&start, &played);
    let result = Ending::from_state(judge(&pos, &JudgeConfig::default()));
    let tablebase = match state.tables.probe(&pos) {
        Ok(Some(v)) => Some(TableView {
            wdl: v.wdl().to_string(),
            dtm: v.dtm(),
        }),
        _ => None,
    };
    let (legal, forbidden) = if result.is_none() {
        let banned = forbidden_moves(&mut pos.clone());
        let all = pos.legal_move_list();
        let text = |forbidden: bool| {
            all.iter()
                .filter(|m| banned.contains(m) == forbidden)
                .map(ToString::to_string)
                .collect()
        };
        (text(false), text(true))
    } else {
        (Vec::new(), Vec::new())
    };
    let book = engine_book_moves(&state.books, &pos);
    let opening = crate::openings::view(&start, &played);
    Ok(Json(PositionView {
        fen: pos.fen(),
        turn: side_name(pos.turn()),
        check: pos.in_check(),
        line,
        legal,
        forbidden,
        result,
        book,
        tablebase,
        opening,
    }))
}

/// `GET /api/opening?fen=FEN&moves=...`: the opening of the line, `null` when it has none
/// (the query and its mistakes are the position's).
pub(crate) async fn opening(
    q: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<Option<crate::openings::OpeningView>>, ApiError> {
    let q = query(q)?;
    let (start, _, played) = reached(&q.fen, &q.moves)?;
    Ok(Json(crate::openings::view(&start, &played)))
}

/// `POST /api/read`: the games of one file.
#[derive(Debug, Serialize)]
pub(crate) struct FileView {
    /// `PGN`, `DhtmlXQ` or `XQF`; `null` when the data was not recognised.
    format: Option<&'static str>,
    /// Games in the file (read or not).
    total: usize,
    /// The first [`MAX_GAMES`] games.
    games: Vec<GameFileView>,
    /// Problems reading the file, as `line N: what` or `game N: what`.
    problems: Vec<String>,
}

#[derive(Debug, Serialize)]
struct GameFileView {
    /// The game's number in the file, from 1.
    number: usize,
    /// The header fields, in file order.
    tags: Vec<(String, String)>,
    /// The start position.
    fen: String,
    /// The moves, each in three notations with the FEN after it; the game stops at a move that
    /// is not legal (`error` says which).
    moves: Vec<MoveText>,
    /// The result, as PGN writes it, `null` when unknown.
    result: Option<&'static str>,
    /// Why the game stops early, `null` when every move was read.
    error: Option<String>,
    /// The same as parameters for a page's own words: `{"reason": ...}` for a start position
    /// that is none (as an `invalid-fen` error's), else the move that does not play (as an
    /// `illegal-line` error's: `n`, `move`, `reason`); `null` with `error`.
    stop: Option<serde_json::Value>,
}

/// `POST /api/read`: the body is the file's bytes.
pub(crate) async fn read(body: Bytes) -> Result<Json<FileView>, ApiError> {
    if body.is_empty() {
        return Err(ApiError::bad_request("the file is empty").with_code("empty-file"));
    }
    let (summary, records) = chariot_games::read::read_all(&body);
    if summary.failed() || summary.format.is_none() {
        let why = summary
            .problems
            .first()
            .map_or_else(|| "not a game file".to_owned(), ToString::to_string);
        return Err(ApiError::unprocessable(format!(
            "cannot read the file as PGN, DhtmlXQ or XQF: {why}"
        ))
        .with_code("unreadable-file"));
    }
    let games = records
        .iter()
        .take(MAX_GAMES)
        .map(|record| {
            let start = record
                .fen
                .as_deref()
                .map_or_else(|| Ok(Position::start()), Position::from_fen);
            let result = record.result.map(chariot_games::GameResult::pgn);
            match start {
                Err(e) => GameFileView {
                    number: record.number,
                    tags: record.tags.clone(),
                    fen: Position::start().fen(),
                    moves: Vec::new(),
                    result,
                    error: Some(format!("invalid FEN: {e}")),
                    stop: Some(crate::error_codes::position_error(&e)),
                },
                Ok(start) => {
                    let texts: Vec<String> = record.moves.iter().map(ToString::to_string).collect();
                    // The readers keep moves as written; the game stops at one that does not play.
                    let (_, played, error) = play_prefix(start.clone(), &texts);
                    GameFileView {
                        number: record.number,
                        tags: record.tags.clone(),
                        fen: start.fen(),
                        moves: describe(&start, &played),
                        result,
                        stop: error.as_ref().map(crate::error_codes::line_error),
                        error: error.map(|e| e.to_string()),
                    }
                }
            }
        })
        .collect();
    Ok(Json(FileView {
        format: summary.format.map(chariot_games::read::FileFormat::name),
        total: records.len(),
        games,
        problems: summary.problems.iter().map(ToString::to_string).collect(),
    }))
}
