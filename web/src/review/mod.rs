//! Game review (issue 47; lichess's "computer analysis" is the model): every position of a game
//! valued in the background, every move judged by the winning chances it cost, an evaluation
//! for the page's graph, and the engine's better move and line where a move was marked.
//!
//! `POST /api/review` starts a review of a game given as a start position and moves, or named:
//! a game played here (`played`), a stored game of the game database (`game`), a game on the
//! server (`play`). It runs as a job (`crate::jobs`, kind `review`): `GET /api/review/{id}` (or
//! `GET /api/jobs/{id}`) shows it, the review so far in its `result` while it runs, and
//! `DELETE /api/review/{id}` cancels it. The same game asked for again gets the review it has
//! (done or under way): a review searches a fixed number of nodes a position on one thread, so
//! it would say the same again. Finished reviews are kept on disk too
//! ([`crate::review_store`]): after a restart a review the store has is answered at once, as a
//! job that is done.
//!
//! Bounds: at most [`Limits::max_reviews`](crate::state::Limits) reviews at once (503 beyond),
//! games of at most `max_review_plies` plies (400 beyond), `review_nodes` nodes a position,
//! searched at the lowered priority of analyses so that games and queries answer first.
//!
//! [`judge`] holds the judging (pure functions), [`evaluate`] the value of one position, and
//! [`run`] the job's loop.

pub mod evaluate;
pub mod judge;
pub mod run;

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chariot_rules::{Move, Position};
use serde::Deserialize;

use crate::error::ApiError;
use crate::error_codes::fen_position;
use crate::jobs::{Job, JobView, Stage};
use crate::movetext::play_out;
use crate::review_store::{self as store, Key, ReviewStore};
use crate::state::AppState;

/// The job kind of a review.
pub const KIND: &str = "review";

/// `POST /api/review`: one of the four ways to name a game.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewRequest {
    /// The start position (the usual one when absent), with `moves`.
    fen: Option<String>,
    /// The moves from it (ICCS, WXF or Chinese).
    moves: Option<Vec<String>>,
    /// A game played here (`GET /api/played/{id}`).
    played: Option<i64>,
    /// A stored game of the game database (`GET /api/games/{id}`).
    game: Option<i64>,
    /// A game on the server (`GET /api/play/{id}`), as it stands.
    play: Option<String>,
}

/// The game a request names, or the error answer saying why there is none.
async fn requested_game(state: &Arc<AppState>, req: ReviewRequest) -> Result<run::Game, ApiError> {
    let given = usize::from(req.fen.is_some() || req.moves.is_some())
        + usize::from(req.played.is_some())
        + usize::from(req.game.is_some())
        + usize::from(req.play.is_some());
    if given != 1 {
        return Err(ApiError::bad_request(
            "name one game: \"moves\" (with \"fen\" when not from the usual start), \"played\", \"game\" or \"play\"",
        )
        .with_code("bad-review-source"));
    }
    let max = state.limits.max_review_plies;
    let too_long = |plies: usize| {
        ApiError::bad_request(format!(
            "the game has {plies} plies; a review takes at most {max}"
        ))
        .with_code("review-too-long")
        .with("plies", plies)
        .with("max", max)
    };
    let (start, moves) = if let Some(id) = req.played {
        let no_game = || {
            ApiError::not_found(format!("no game {id} played here"))
                .with_code("no-played-game")
                .with("id", id)
        };
        let archive = state.archive.clone().ok_or_else(no_game)?;
        let found = tokio::task::spawn_blocking(move || archive.game(id))
            .await
            .map_err(|e| ApiError::internal(e.to_string()))?
            .map_err(|e| ApiError::internal(e.to_string()))?
            .ok_or_else(no_game)?;
        (found.start, found.moves)
    } else if let Some(id) = req.game {
        let db = crate::explorer::games_db(state)?;
        let found = tokio::task::spawn_blocking(move || db.with(|d| d.game(id)))
            .await
            .map_err(|e| ApiError::internal(e.to_string()))??
            .ok_or_else(|| {
                ApiError::not_found(format!("no game {id} in the game database"))
                    .with_code("no-stored-game")
                    .with("id", id)
            })?;
        (found.start, found.moves)
    } else if let Some(id) = req.play {
        let game = state.game(&id)?;
        // The game is locked while its engine thinks: wait for it off the async workers.
        tokio::task::spawn_blocking(move || {
            let g = game.lock().unwrap_or_else(|e| e.into_inner());
            (g.start().clone(), g.moves().to_vec())
        })
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
    } else {
        let texts = req.moves.unwrap_or_default();
        if texts.len() > max {
            return Err(too_long(texts.len()));
        }
        let start = match req.fen.as_deref() {
            Some(fen) => fen_position(fen)?,
            None => Position::start(),
        };
        let (_, moves) = play_out(start.clone(), &texts)?;
        (start, moves)
    };
    if moves.len() > max {
        return Err(too_long(moves.len()));
    }
    if moves.is_empty() {
        return Err(
            ApiError::unprocessable("the game has no move: nothing to review")
                .with_code("nothing-to-review"),
        );
    }
    Ok(run::Game { start, moves })
}

/// What identifies a game for the reviews: its start and its moves.
fn game_key(start: &Position, moves: &[Move]) -> String {
    let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
    format!("{}|{}", start.fen(), moves.join(" "))
}

/// The review a server has of the game `key`, running or done.
fn known(state: &AppState, key: &str) -> Option<Arc<Job>> {
    let mut by_game = state.reviewed.lock().unwrap_or_else(|e| e.into_inner());
    // Forget the games whose jobs are forgotten.
    by_game.retain(|_, id| state.jobs.get(id).is_some());
    let job = state.jobs.get(by_game.get(key)?)?;
    matches!(job.view().state, Stage::Running | Stage::Done).then_some(job)
}

/// What the review of `game` is stored under: the game, the node budget and the tables.
fn store_key(state: &AppState, game: &run::Game) -> Key {
    let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
    Key {
        fen: game.start.fen(),
        moves: moves.join(" "),
        nodes: state.limits.review_nodes,
        tables: store::tables_key(&state.tables),
    }
}

/// The review of `game` the store has, filed as a job that is done (under `key` in the
/// server's reviews); `None` when the store has none or cannot be read (said on stderr).
async fn from_store(state: &Arc<AppState>, game: &run::Game, key: &str) -> Option<Arc<Job>> {
    let store = Arc::clone(state.review_store.as_ref()?);
    let stored_key = store_key(state, game);
    let found = tokio::task::spawn_blocking(move || store.get(&stored_key))
        .await
        .ok()?;
    let stored = match found {
        Ok(stored) => stored?,
        Err(e) => {
            eprintln!("chariot serve: a stored review is not used: {e}");
            return None;
        }
    };
    let total = game.moves.len() as u64 + 1;
    let job = state.jobs.add_done(JobView {
        id: state.new_id(),
        kind: KIND,
        subject: subject(game),
        state: Stage::Done,
        done: total,
        total: Some(total),
        unit: "positions",
        seconds: stored.seconds,
        result: Some(stored.review),
        error: None,
    });
    state
        .reviewed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key.to_owned(), job.view().id);
    Some(job)
}

/// A review job's subject: the game's plies and start.
fn subject(game: &run::Game) -> String {
    format!("{} plies from {}", game.moves.len(), game.start.fen())
}

/// Keeps the whole `review` of `job` in `store` under `key`, unless a search of it was cut by
/// the clock (`untimed` false: another run could differ); a failure is said on stderr, and the
/// review is answered all the same.
fn keep(store: &ReviewStore, key: &Key, job: &Job, review: &serde_json::Value, untimed: bool) {
    let view = job.view();
    if !untimed {
        eprintln!(
            "chariot serve: the review of {} is not kept: a search was cut by the time cap (a busy machine), so another review could differ",
            view.subject
        );
        return;
    }
    if let Err(e) = store.put(key, review, view.seconds) {
        eprintln!(
            "chariot serve: the review of {} is not kept: {e}",
            view.subject
        );
    }
}

/// `POST /api/review`: starts reviewing a game (`202` with the job), or answers the review the
/// server has of it, running or done, or kept on disk (`200`).
pub(crate) async fn start(
    State(state): State<Arc<AppState>>,
    body: Result<Json<ReviewRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let Json(req) = body?;
    let game = requested_game(&state, req).await?;
    let key = game_key(&game.start, &game.moves);
    if let Some(job) = known(&state, &key) {
        return Ok((StatusCode::OK, Json(job.view())));
    }
    if let Some(job) = from_store(&state, &game, &key).await {
        return Ok((StatusCode::OK, Json(job.view())));
    }
    // The same game may have been asked for meanwhile.
    if let Some(job) = known(&state, &key) {
        return Ok((StatusCode::OK, Json(job.view())));
    }
    let permit = Arc::clone(&state.reviews)
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::busy(format!(
                "{} reviews are running, the server's limit; try again when one has ended",
                state.limits.max_reviews
            ))
            .with_code("too-many-reviews")
            .with("max", state.limits.max_reviews)
        })?;
    let job = state
        .jobs
        .add(state.new_id(), KIND, subject(&game), "positions")
        .ok_or_else(crate::error::too_many_jobs)?;
    // The game is in the result from the start: a page that named it (`played`) shows it.
    let nodes = state.limits.review_nodes;
    job.report(
        0,
        Some(game.moves.len() as u64 + 1),
        serde_json::to_value(run::Review::new(&game, nodes)).unwrap_or_default(),
    );
    let view = job.view();
    state
        .reviewed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, view.id.clone());
    let worker = Arc::clone(&job);
    let (books, tables) = (Arc::clone(&state.books), Arc::clone(&state.tables));
    let cap = state.limits.max_think;
    let keeping = state
        .review_store
        .clone()
        .map(|s| (s, store_key(&state, &game)));
    std::thread::Builder::new()
        .name("review".into())
        .spawn(move || {
            crate::analysis::lower_priority();
            // Made here, not on the async worker: the engine allocates its hash table.
            let mut evaluator = evaluate::Evaluator::new(books, tables, nodes, cap);
            let review = run::run(&worker, &game, &mut evaluator, nodes);
            let untimed = evaluator.untimed();
            drop(evaluator);
            drop(permit);
            if let Some(review) = review.filter(|_| !worker.is_cancelled()) {
                // Stored before the job says done: a review shown done survives a restart.
                if let Some((store, key)) = &keeping {
                    keep(store, key, &worker, &review, untimed);
                }
                worker.finish(review);
            }
        })
        .map_err(|e| {
            job.fail(format!("cannot start the review: {e}"));
            ApiError::internal(format!("cannot start the review: {e}"))
        })?;
    Ok((StatusCode::ACCEPTED, Json(view)))
}

/// The review job `id`, or a 404 (`no-review`).
fn review_job(state: &AppState, id: &str) -> Result<Arc<Job>, ApiError> {
    state
        .jobs
        .get(id)
        .filter(|j| j.view().kind == KIND)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no review {id:?} (never started, or long forgotten)"
            ))
            .with_code("no-review")
            .with("id", id)
        })
}

/// `GET /api/review/{id}`: how far the review is, and what it found so far.
pub(crate) async fn show(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    Ok(Json(review_job(&state, &id)?.view()))
}

/// `DELETE /api/review/{id}`: stops a running review (it is `cancelled`, with what it had
/// found); a review that has ended is left as it is. Answers the review.
pub(crate) async fn cancel(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<JobView>, ApiError> {
    let job = review_job(&state, &id)?;
    job.cancel();
    Ok(Json(job.view()))
}
