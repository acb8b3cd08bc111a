//! The routes (`docs/web-api.md`) and the game handlers: games against the engine, analysis.
//!
//! Every error is a 4xx (or 503 when the server is full) with `{"error": "..."}` saying what is
//! wrong; nothing a client sends can stop the server. The engine thinks on a blocking thread,
//! never on the async workers, and each game is locked while it changes, so two requests on
//! one game are served one after the other.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chariot_engine::search::Options;
use chariot_rules::Color;
use chariot_rules::notation::Notation;
use serde::{Deserialize, Serialize};

use crate::clock::ClockSpec;
use crate::error::{ApiError, query};
use crate::game::{EngineMove, Game, GameError, Setup};
use crate::game_words::Lang;
use crate::movetext::{MoveText, describe, names};
use crate::sides::side_name;
use crate::state::AppState;
use chariot_rules::Ending;

/// The router of the API, under `/api`.
pub fn router(state: Arc<AppState>) -> Router {
    let max_body = state.limits.max_body;
    Router::new()
        .route("/api/play", post(new_game))
        .route("/api/play/{id}", get(show_game).delete(close_game))
        .route("/api/play/{id}/moves", post(play_move))
        .route("/api/play/{id}/draw", post(offer_draw))
        .route("/api/play/{id}/hint", post(hint))
        .route("/api/play/{id}/takeback", post(take_back))
        .route("/api/play/{id}/pgn", get(pgn))
        .route("/api/play/{id}/{action}", post(game_action))
        .route("/api/levels", get(levels))
        .route("/api/played", get(crate::past_games::list))
        .route("/api/played/{id}", get(crate::past_games::game))
        .route("/api/engines", get(crate::engine_routes::list))
        .route("/api/engines/{name}", get(crate::engine_routes::one))
        .route(
            "/api/engines/{name}/options",
            post(crate::engine_routes::set_options),
        )
        .route("/api/book", get(crate::explorer::book))
        .route("/api/tablebase", get(crate::explorer::tablebase))
        .route("/api/tablebases", get(crate::explorer::tablebases))
        .route(
            "/api/tablebases/{material}",
            get(crate::explorer::tablebase_page),
        )
        .route(
            "/api/games",
            get(crate::explorer::games)
                .post(crate::import::import)
                .layer(DefaultBodyLimit::max(crate::import::MAX_UPLOAD)),
        )
        .route(
            "/api/books",
            get(crate::books::list).post(crate::books::compile_book),
        )
        .route("/api/books/{name}", get(crate::books::download))
        .route("/api/jobs/{id}", get(job))
        .route("/api/games/{id}", get(crate::explorer::game))
        .route("/api/position", get(crate::position::position))
        .route("/api/opening", get(crate::position::opening))
        .route(
            "/api/read",
            post(crate::position::read).layer(DefaultBodyLimit::max(crate::position::MAX_FILE)),
        )
        .route("/api/analysis", get(analyse))
        .route("/api/review", post(crate::review::start))
        .route(
            "/api/review/{id}",
            get(crate::review::show).delete(crate::review::cancel),
        )
        .route("/api/puzzles", get(crate::puzzles::list))
        .route("/api/puzzles/{id}", get(crate::puzzles::one))
        .route("/api/puzzles/{id}/move", post(crate::puzzles::judge_move))
        .route("/api/puzzles/{id}/solution", post(crate::puzzles::solution))
        // ChessDB's path, as tools append it to the cloud book's address, and ours.
        .route(
            "/chessdb.php",
            get(crate::chessdb::query).post(crate::chessdb::query),
        )
        .route(
            "/api/chessdb",
            get(crate::chessdb::query).post(crate::chessdb::query),
        )
        .route("/", get(crate::assets::index))
        .route("/assets/{*path}", get(crate::assets::file))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// `GET /api/jobs/{id}`: an import, a compilation or a review, how far it is or how it ended.
async fn job(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<crate::jobs::JobView>, ApiError> {
    state.jobs.get(&id).map(|j| Json(j.view())).ok_or_else(|| {
        ApiError::not_found(format!("no job {id:?} (never started, or long forgotten)"))
            .with_code("no-job")
    })
}

/// A playing level as `GET /api/levels` shows it.
#[derive(Debug, Serialize)]
struct LevelView {
    level: u8,
    /// Nodes per move: the most the engine searches.
    nodes: u64,
    knowledge: &'static str,
    randomness: &'static str,
    blunders: &'static str,
    /// The measured Elo, on the scale of `anchor`.
    elo: i32,
    /// Its 95% interval.
    elo_lower: i32,
    elo_upper: i32,
    /// The games the measurement rests on.
    games: u32,
    /// The scale: the engine it is anchored on, at a node budget, and that engine's rating.
    anchor: AnchorView,
}

/// The anchor of the levels' Elo scale.
#[derive(Debug, Serialize)]
struct AnchorView {
    engine: &'static str,
    nodes: u64,
    elo: i32,
}

/// `GET /api/levels`: the playing levels, weakest first, each with its measured Elo.
async fn levels() -> Json<Vec<LevelView>> {
    use crate::play_levels::{ANCHOR, LEVELS, LevelSpec, Strength};
    Json(
        (1..=LEVELS)
            .filter_map(|n| {
                let (l, s) = (LevelSpec::of(n)?, Strength::of(n)?);
                Some(LevelView {
                    level: n,
                    nodes: l.nodes,
                    knowledge: l.knowledge.name(),
                    randomness: l.randomness.name(),
                    blunders: l.blunders.name(),
                    elo: s.elo,
                    elo_lower: s.lower,
                    elo_upper: s.upper,
                    games: s.games,
                    anchor: AnchorView {
                        engine: ANCHOR.engine,
                        nodes: ANCHOR.nodes,
                        elo: ANCHOR.elo,
                    },
                })
            })
            .collect(),
    )
}

/// `POST /api/play`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// `red` or `black`: the person's side.
    #[serde(default = "red")]
    side: String,
    /// 1 to [`crate::play_levels::LEVELS`] (4 when absent); Chariot's, not an external
    /// engine's.
    level: Option<u8>,
    /// An external engine to play against instead of Chariot (`GET /api/engines`).
    engine: Option<String>,
    /// What limits the external engine besides the clock.
    limits: Option<crate::engine_routes::LimitsRequest>,
    /// The start position; the usual one when absent.
    fen: Option<String>,
    /// Moves already played from it (any notation), before the person takes over.
    #[serde(default)]
    moves: Vec<String>,
    /// A clock for both sides, or none.
    clock: Option<ClockRequest>,
    /// A book compiled in the browser for the engine to play from, instead of the configured
    /// books (`GET /api/books` lists them).
    book: Option<String>,
    /// The game this one replaces (the page's game in progress): closed once the new game is
    /// made, never before, so that a new game refused (a mistake in its FEN, say) loses
    /// nothing. No matter when it is no longer there.
    replaces: Option<String>,
    /// The language of the game's PGN: `en` (default) or `zh`.
    lang: Option<String>,
    /// The person's name for the PGN (at most [`MAX_NAME`] characters; none or blank: "You").
    name: Option<String>,
}

/// The longest name a person may give (characters).
pub const MAX_NAME: usize = 40;

/// A person's name as given: trimmed, `None` when blank; a 400 (`bad-name`) when it is too long
/// or holds a control character.
fn person_name(name: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    if name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "name {name:?}: expected at most {MAX_NAME} characters, none of them a control character"
        ))
        .with_code("bad-name")
        .with("max", MAX_NAME));
    }
    Ok(Some(name.to_owned()))
}

/// A clock as a new game asks for it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    /// Each side's time, minutes (more than 0, at most 180).
    minutes: f64,
    /// Seconds added after each move (0 to 60).
    #[serde(default)]
    increment: f64,
}

impl ClockRequest {
    fn spec(&self) -> Result<ClockSpec, ApiError> {
        if !(self.minutes > 0.0 && self.minutes <= 180.0) {
            return Err(ApiError::bad_request(format!(
                "clock minutes {}: expected more than 0 and at most 180",
                self.minutes
            ))
            .with_code("bad-clock-minutes")
            .with("minutes", self.minutes)
            .with("max", 180));
        }
        if !(0.0..=60.0).contains(&self.increment) {
            return Err(ApiError::bad_request(format!(
                "clock increment {}: expected 0 to 60 seconds",
                self.increment
            ))
            .with_code("bad-clock-increment")
            .with("increment", self.increment)
            .with("max", 60));
        }
        Ok(ClockSpec {
            initial: Duration::from_secs_f64(self.minutes * 60.0),
            increment: Duration::from_secs_f64(self.increment),
        })
    }
}

fn red() -> String {
    "red".to_owned()
}

/// The level of a game against Chariot when none is asked for.
const DEFAULT_LEVEL: u8 = 4;

/// A game as the API shows it.
#[derive(Debug, Serialize)]
struct GameView {
    id: String,
    fen: String,
    start_fen: String,
    side: &'static str,
    /// Chariot's level; `null` in a game against an external engine.
    level: Option<u8>,
    /// The external engine played against, `null` for Chariot.
    opponent: Option<crate::engine_routes::OpponentView>,
    turn: &'static str,
    check: bool,
    moves: Vec<MoveText>,
    /// The moves the person may play now (ICCS), empty when it is not their turn.
    playable: Vec<String>,
    /// Legal moves the person may not play now: forbidden repetitions (ICCS).
    forbidden: Vec<String>,
    /// `null` while the game goes on.
    result: Option<Ending>,
    engine: Option<EngineMove>,
    /// `null` for a game without a clock.
    clock: Option<ClockView>,
    /// The opening of the game so far, `null` when it has none (a game from a set-up position).
    opening: Option<crate::openings::OpeningView>,
}

/// A game's clock.
#[derive(Debug, Serialize)]
struct ClockView {
    red_ms: u64,
    black_ms: u64,
    /// The side whose time runs, `null` when the clock is stopped.
    running: Option<&'static str>,
    initial_ms: u64,
    increment_ms: u64,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn view(id: &str, g: &Game) -> GameView {
    let pos = g.position();
    let turn = pos.turn();
    let (playable, forbidden) = if turn == g.human() {
        let playable = g.playable();
        let forbidden = if g.is_on() {
            pos.legal_move_list()
                .iter()
                .filter(|m| !playable.contains(m))
                .map(ToString::to_string)
                .collect()
        } else {
            Vec::new()
        };
        (
            playable.iter().map(ToString::to_string).collect(),
            forbidden,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    GameView {
        id: id.to_owned(),
        fen: pos.fen(),
        start_fen: g.start().fen(),
        side: side_name(g.human()),
        level: g.opponent().is_none().then(|| g.level()),
        opponent: g.opponent().map(crate::engine_routes::opponent_view),
        turn: side_name(turn),
        check: pos.in_check(),
        moves: describe(g.start(), g.moves()),
        playable,
        forbidden,
        result: g.outcome(),
        engine: g.last_engine().cloned(),
        clock: g.clock().map(|c| ClockView {
            red_ms: millis(c.left(Color::Red, turn)),
            black_ms: millis(c.left(Color::Black, turn)),
            running: c.running().then(|| side_name(turn)),
            initial_ms: millis(c.spec().initial),
            increment_ms: millis(c.spec().increment),
        }),
        opening: crate::openings::view(g.start(), g.moves()),
    }
}

/// Runs `work` on the game on a blocking thread (the engine may think).
async fn on_game<T: Send + 'static>(
    state: Arc<AppState>,
    id: String,
    work: impl FnOnce(&mut Game, Duration, &str) -> Result<T, GameError> + Send + 'static,
) -> Result<T, ApiError> {
    let game = state.game(&id)?;
    let cap = state.limits.max_think;
    let archive = state.archive.clone();
    let done = tokio::task::spawn_blocking(move || {
        let mut g = game.lock().unwrap_or_else(|e| e.into_inner());
        g.settle();
        let done = work(&mut g, cap, &id);
        if let Some(archive) = archive
            && g.needs_archiving()
        {
            let date = chariot_games::write::pgn_date(std::time::SystemTime::now());
            match archive.keep(&id, &g.pgn(Notation::Chinese, &date, g.lang())) {
                Ok(_) => g.mark_archived(),
                Err(e) => eprintln!("chariot serve: game {id} not kept in the database: {e}"),
            }
        }
        done
    })
    .await
    .map_err(|e| ApiError::internal(format!("the game failed: {e}")))?;
    Ok(done?)
}

/// Runs `work` on the game on a blocking thread, then shows it.
async fn with_game(
    state: Arc<AppState>,
    id: String,
    work: impl FnOnce(&mut Game, Duration) -> Result<(), GameError> + Send + 'static,
) -> Result<Json<GameView>, ApiError> {
    on_game(state, id, |g, cap, id| {
        work(g, cap)?;
        Ok(view(id, g))
    })
    .await
    .map(Json)
}

async fn new_game(
    State(state): State<Arc<AppState>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let Json(req) = body?;
    let human = match req.side.as_str() {
        "red" => Color::Red,
        "black" => Color::Black,
        other => {
            return Err(
                ApiError::bad_request(format!("side {other:?}: expected red or black"))
                    .with_code("bad-side")
                    .with("side", other),
            );
        }
    };
    let opponent =
        crate::engine_routes::opponent(&state, req.engine, req.limits, req.level).await?;
    let setup = Setup {
        fen: req.fen,
        moves: req.moves,
        human,
        level: req.level.unwrap_or(DEFAULT_LEVEL),
        clock: req.clock.as_ref().map(ClockRequest::spec).transpose()?,
        lang: req
            .lang
            .as_deref()
            .map(lang)
            .transpose()?
            .unwrap_or_default(),
        name: person_name(req.name.as_deref())?,
    };
    let books = match req.book.as_deref().map(str::trim) {
        None | Some("") => Arc::clone(&state.books),
        Some(name) => state.library.get(name).ok_or_else(|| {
            ApiError::unprocessable(format!(
                "book {name:?}: no compiled book of that name (GET /api/books)"
            ))
            .with_code("no-book")
            .with("name", name)
        })?,
    };
    let mut game = Game::new(
        &setup,
        books,
        Arc::clone(&state.tables),
        &state.engine_options(),
    )?;
    if let Some(opponent) = opponent {
        game = game.against(opponent);
    }
    let id = state.insert(game, req.replaces.as_deref())?;
    // The engine opens when the person plays Black.
    let view = with_game(state, id, |g, cap| {
        g.engine_reply(cap);
        Ok(())
    })
    .await?;
    Ok((StatusCode::CREATED, view))
}

async fn show_game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    with_game(state, id, |_, _| Ok(())).await
}

async fn close_game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let mut games = state.games.lock().unwrap_or_else(|e| e.into_inner());
    match games.remove(&id) {
        Some(_) => Ok(StatusCode::NO_CONTENT),
        None => Err(ApiError::not_found(format!("no game {id:?}"))
            .with_code("no-game")
            .with("id", id)),
    }
}

/// `POST /api/play/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    /// The move in ICCS, WXF or Chinese.
    #[serde(rename = "move")]
    mv: String,
    /// The number of moves of the game the move was made after, when the requester says: a
    /// game that has another number (it moved on in another tab) refuses the move (409).
    at: Option<usize>,
}

async fn play_move(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<PlayMove>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Json(req) = body?;
    with_game(state, id, move |g, cap| {
        g.expect_moves(req.at)?;
        g.play_human(&req.mv)?;
        g.engine_reply(cap);
        Ok(())
    })
    .await
}

/// `POST /api/play/{id}/takeback`: no body, `{}`, or `{"at": N}` (as for a move).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeBack {
    at: Option<usize>,
}

async fn take_back(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: TakeBack = if body.iter().all(u8::is_ascii_whitespace) {
        TakeBack::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| ApiError::bad_request(e.to_string()))?
    };
    with_game(state, id, move |g, _| {
        g.expect_moves(req.at)?;
        g.take_back()
    })
    .await
}

/// `POST /api/play/{id}/resign`.
async fn game_action(
    State(state): State<Arc<AppState>>,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<GameView>, ApiError> {
    match action.as_str() {
        "resign" => with_game(state, id, |g, _| g.resign()).await,
        other => Err(ApiError::not_found(format!(
            "no action {other:?} on a game (moves, takeback, resign, draw, hint)"
        ))),
    }
}

/// `GET /api/analysis?fen=...&multipv=N&seconds=S[&engine=NAME]`.
#[derive(Debug, Deserialize)]
struct AnalysisQuery {
    /// An external engine to analyse with instead of Chariot.
    engine: Option<String>,
    fen: String,
    /// Moves played from the FEN (spaces or commas), so that repetitions are known.
    #[serde(default)]
    moves: String,
    #[serde(default = "one")]
    multipv: usize,
    /// Seconds (10 when absent), or `infinite`: until the client closes the stream.
    seconds: Option<String>,
}

fn one() -> usize {
    1
}

async fn analyse(
    State(state): State<Arc<AppState>>,
    q: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let (start, position, played) = crate::position::reached(&q.fen, &q.moves)?;
    if !(1..=5).contains(&q.multipv) {
        return Err(ApiError::bad_request(format!(
            "multipv {}: expected 1 to 5",
            q.multipv
        )));
    }
    let time = crate::analysis::duration(
        q.seconds.as_deref(),
        state.limits.max_analysis,
        state.limits.max_infinite_analysis,
    )?;
    let permit = Arc::clone(&state.analyses)
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::busy(format!(
                "{} analyses are running, the server's limit; try again later",
                state.limits.max_analyses
            ))
            .with_code("too-many-analyses")
            .with("max", state.limits.max_analyses)
        })?;
    if let Some(name) = q.engine {
        let request = crate::engines::analysis::Request {
            start,
            moves: played,
            position,
            time,
        };
        return crate::engine_routes::analyse(&state, &name, request, q.multipv, permit).await;
    }
    let options = Options {
        hash_mb: 16,
        threads: 1,
        ..Options::default()
    };
    let request = crate::analysis::Request {
        position,
        multipv: q.multipv,
        time,
        engine: chariot_engine::api::Engine::sharing(
            Arc::clone(&state.books),
            Arc::clone(&state.tables),
            options,
        ),
    };
    Ok(crate::analysis::stream(request, permit).into_response())
}

/// The engine's answer to a draw offer, with the game.
#[derive(Debug, Serialize)]
struct DrawAnswer {
    accepted: bool,
    game: GameView,
}

async fn offer_draw(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<DrawAnswer>, ApiError> {
    on_game(state, id, |g, cap, id| {
        let accepted = g.offer_draw(cap)?;
        Ok(DrawAnswer {
            accepted,
            game: view(id, g),
        })
    })
    .await
    .map(Json)
}

/// A suggested move.
#[derive(Debug, Serialize)]
struct Hint {
    /// In ICCS, `null` when there is none.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// In WXF notation.
    wxf: Option<String>,
    /// In Chinese notation.
    chinese: Option<String>,
}

async fn hint(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Hint>, ApiError> {
    let hint = on_game(state, id, |g, cap, _| {
        let mv = g.hint(cap)?;
        let name = |notation| mv.map(|m| names(g.position(), &[m], notation).concat());
        Ok(Hint {
            mv: mv.map(|m| m.to_string()),
            wxf: name(Notation::Wxf),
            chinese: name(Notation::Chinese),
        })
    })
    .await?;
    Ok(Json(hint))
}

/// `GET /api/play/{id}/pgn?notation=chinese&lang=zh`.
#[derive(Debug, Deserialize)]
struct PgnQuery {
    #[serde(default = "chinese")]
    notation: String,
    /// The language of the words (`en` or `zh`); by default the game's.
    lang: Option<String>,
}

/// A language of the API, or a 400 (`bad-lang`).
fn lang(text: &str) -> Result<Lang, ApiError> {
    Lang::parse(text).ok_or_else(|| {
        ApiError::bad_request(format!("lang {text:?}: expected en or zh"))
            .with_code("bad-lang")
            .with("lang", text)
    })
}

fn chinese() -> String {
    "chinese".to_owned()
}

async fn pgn(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    q: Result<Query<PgnQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let notation = match q.notation.as_str() {
        "chinese" => Notation::Chinese,
        "wxf" => Notation::Wxf,
        "iccs" => Notation::Iccs,
        other => {
            return Err(ApiError::bad_request(format!(
                "notation {other:?}: expected chinese, wxf or iccs"
            )));
        }
    };
    let asked = q.lang.as_deref().map(lang).transpose()?;
    let game = state.game(&id)?;
    let date = chariot_games::write::pgn_date(std::time::SystemTime::now());
    let text = {
        let g = game.lock().unwrap_or_else(|e| e.into_inner());
        g.pgn(notation, &date, asked.unwrap_or(g.lang()))
    };
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"chariot-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}
