//! The games played on this server as the page lists them (`GET /api/played`, newest first)
//! and reopens them (`GET /api/played/{id}`), from the [`Archive`](crate::played_games::Archive)
//! that keeps them.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use chariot_gamedb::db::FullGame;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, query};
use crate::state::AppState;

/// `GET /api/played?offset=N&limit=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayedQuery {
    #[serde(default)]
    offset: usize,
    #[serde(default = "twenty")]
    limit: usize,
}

fn twenty() -> usize {
    20
}

/// A played game in the list.
#[derive(Debug, Serialize)]
struct PlayedRow {
    id: i64,
    red: Option<String>,
    black: Option<String>,
    event: Option<String>,
    date: Option<String>,
    result: Option<&'static str>,
    plies: usize,
    /// The time control (`TimeControl`, seconds + increment), when the game had a clock.
    time_control: Option<String>,
}

/// The list of played games.
#[derive(Debug, Serialize)]
pub(crate) struct PlayedList {
    /// Whether this server keeps played games at all.
    kept: bool,
    /// Played games kept.
    total: usize,
    offset: usize,
    limit: usize,
    /// Newest first.
    games: Vec<PlayedRow>,
}

/// The most games one page of the list holds.
pub const MAX_PLAYED_PAGE: usize = 100;

/// `GET /api/played`: the games played on this server, newest first.
pub(crate) async fn list(
    State(state): State<Arc<AppState>>,
    q: Result<Query<PlayedQuery>, QueryRejection>,
) -> Result<Json<PlayedList>, ApiError> {
    let q = query(q)?;
    if !(1..=MAX_PLAYED_PAGE).contains(&q.limit) {
        return Err(ApiError::bad_request(format!(
            "limit: {}: expected 1 to {MAX_PLAYED_PAGE}",
            q.limit
        )));
    }
    let Some(archive) = state.archive.clone() else {
        return Ok(Json(PlayedList {
            kept: false,
            total: 0,
            offset: q.offset,
            limit: q.limit,
            games: Vec::new(),
        }));
    };
    let games = tokio::task::spawn_blocking(move || archive.played())
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let total = games.len();
    let tag = |g: &FullGame, name: &str| {
        g.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    Ok(Json(PlayedList {
        kept: true,
        total,
        offset: q.offset,
        limit: q.limit,
        games: games
            .into_iter()
            .skip(q.offset)
            .take(q.limit)
            .map(|g| PlayedRow {
                time_control: tag(&g, "TimeControl"),
                id: g.id,
                result: g.result.map(chariot_games::GameResult::pgn),
                plies: g.moves.len(),
                red: g.red,
                black: g.black,
                event: g.event,
                date: g.date,
            })
            .collect(),
    }))
}

/// `GET /api/played/{id}` and `GET /api/played/{id}.pgn`: a game played here, as `GET
/// /api/games/{id}` gives a stored game.
pub(crate) async fn game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (number, pgn) = crate::explorer::stored_game_id(&id)?;
    let no_game = || {
        ApiError::not_found(format!("no game {number} played here"))
            .with_code("no-played-game")
            .with("id", number)
    };
    let archive = state.archive.clone().ok_or_else(no_game)?;
    let found = tokio::task::spawn_blocking(move || archive.game(number))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let g = found.ok_or_else(no_game)?;
    Ok(crate::explorer::stored_game_answer(
        g,
        pgn,
        &format!("played-{number}.pgn"),
    ))
}
