//! The explorer's API (issue 16): the books' moves of a position (`GET /api/book`), the tables'
//! value of it and of every move (`GET /api/tablebase`), and the games of the game database that
//! went through it (`GET /api/games`, `GET /api/games/{id}`, `GET /api/games/{id}.pgn`).
//!
//! Positions are a FEN and optional moves from it, as for `GET /api/position`. A malformed FEN or
//! parameter is a 400 naming it.

use crate::book_moves::{BookMoveView, book_moves};
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use chariot_formats::egtb::Value;
use chariot_gamedb::filter::{DateBound, Filter, ResultFilter};
use chariot_gamedb::index::Order;
use chariot_rules::notation::Notation;
use chariot_rules::{Color, Position};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, query};
use crate::explorer_db::GamesDb;
use crate::movetext::{describe, names};
use crate::position::reached;
use crate::state::AppState;
use chariot_gamedb::db::FullGame;

/// A position given in a query string.
#[derive(Debug, Deserialize)]
pub(crate) struct At {
    fen: String,
    #[serde(default)]
    moves: String,
}

/// The position of a query, or a 400 naming what is wrong.
fn position_of(at: &At) -> Result<Position, ApiError> {
    reached(&at.fen, &at.moves).map(|(_, pos, _)| pos)
}

/// One book's answer.
#[derive(Debug, Serialize)]
struct BookView {
    /// The book's file name (`built-in book` for the one in the binary), or a compiled book's
    /// name.
    name: String,
    /// `configured` (`--book`, or the built-in book) or `compiled` (in the browser).
    kind: &'static str,
    /// `true` for the book built into the binary (`built-in book`).
    builtin: bool,
    moves: Vec<BookMoveView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct BookAnswer {
    fen: String,
    /// The first configured book that knows the position (the one the engine plays from).
    moves: Vec<BookMoveView>,
    /// Every configured book, in order, each with its moves (none when it does not know the
    /// position).
    books: Vec<BookView>,
}

/// `GET /api/book?fen=FEN&moves=...`.
pub(crate) async fn book(
    State(state): State<Arc<AppState>>,
    q: Result<Query<At>, QueryRejection>,
) -> Result<Json<BookAnswer>, ApiError> {
    let pos = position_of(&query(q)?)?;
    let mut books: Vec<BookView> = state
        .books
        .books()
        .iter()
        .map(|b| BookView {
            name: crate::compiled_books::configured_name(b),
            kind: "configured",
            builtin: crate::compiled_books::is_builtin(b),
            moves: book_moves(b, &pos),
        })
        .collect();
    // The books compiled in the browser come after the configured ones.
    for (name, set) in state.library.all() {
        for b in set.books() {
            books.push(BookView {
                name: name.clone(),
                kind: "compiled",
                builtin: false,
                moves: book_moves(b, &pos),
            });
        }
    }
    let moves = books
        .iter()
        .filter(|b| b.kind == "configured")
        .find(|b| !b.moves.is_empty())
        .map(|b| b.moves.clone())
        .unwrap_or_default();
    Ok(Json(BookAnswer {
        fen: pos.fen(),
        moves,
        books,
    }))
}

/// One move's table value, for the side to move before it.
#[derive(Debug, Serialize)]
struct TableMove {
    #[serde(rename = "move")]
    mv: String,
    wxf: String,
    chinese: String,
    wdl: String,
    dtm: Option<u32>,
    by_rule: bool,
}

#[derive(Debug, Serialize)]
pub(crate) struct TableAnswer {
    fen: String,
    /// For the side to move: `win`, `draw` or `loss`.
    wdl: String,
    /// Plies to mate (odd: the side to move mates; even: it is mated), `null` for a draw or a
    /// value decided by the perpetual check/chase rules.
    dtm: Option<u32>,
    /// `true` when the perpetual check/chase rules decide the value.
    by_rule: bool,
    /// The best move, `null` when there is none (mated, stalemated).
    best: Option<String>,
    /// The best line for a decided position (to mate, or until a repetition for a rule value),
    /// each move in three notations with the FEN after it; empty for a draw.
    line: Vec<crate::movetext::MoveText>,
    /// Every legal move, best first; each value is for the side to move here, its distance
    /// counted from here (the move included).
    moves: Vec<TableMove>,
}

/// Plies of the line shown for a value decided by the rule (which has no distance).
const RULE_LINE: usize = 40;

/// `GET /api/tablebase?fen=FEN&moves=...`.
pub(crate) async fn tablebase(
    State(state): State<Arc<AppState>>,
    q: Result<Query<At>, QueryRejection>,
) -> Result<Json<TableAnswer>, ApiError> {
    let pos = position_of(&query(q)?)?;
    let tables = &state.tables;
    let failed =
        |e: chariot_formats::egtb::ProbeError| ApiError::internal(format!("the tables: {e}"));
    let Some(value) = tables.probe(&pos).map_err(failed)? else {
        let material = chariot_formats::egtb::Signature::of(&pos).0;
        return Err(ApiError::not_found(format!(
            "no table covers {} (material {material})",
            pos.fen(),
        ))
        .with_code("no-table")
        .with("material", material.to_string()));
    };
    let mut moves = tables
        .move_values(&pos)
        .map_err(failed)?
        .unwrap_or_default();
    moves.sort_by_key(|&(_, v)| v.best_first());
    let best = tables.best_move(&pos).map_err(failed)?.map(|(m, _)| m);
    let line = if value == Value::Draw {
        Vec::new()
    } else {
        let plies = value.dtm().map_or(RULE_LINE, |d| d as usize);
        tables.line(&pos, plies).map_err(failed)?
    };
    Ok(Json(TableAnswer {
        fen: pos.fen(),
        wdl: value.wdl().to_string(),
        dtm: value.dtm(),
        by_rule: value.by_rule(),
        best: best.map(|m| m.to_string()),
        line: describe(&pos, &line),
        moves: moves
            .into_iter()
            .map(|(m, v)| TableMove {
                mv: m.to_string(),
                wxf: names(&pos, &[m], Notation::Wxf).concat(),
                chinese: names(&pos, &[m], Notation::Chinese).concat(),
                wdl: v.wdl().to_string(),
                dtm: v.dtm(),
                by_rule: v.by_rule(),
            })
            .collect(),
    }))
}

/// The explorer's filters of games, as `GET /api/games` and `POST /api/books` take them (every
/// value a string, so that they can be flattened into a query string's parameters).
#[derive(Clone, Debug, Default, Deserialize)]
pub(crate) struct FilterParams {
    /// A player's name, or part of it.
    player: Option<String>,
    /// With `player`: `red` or `black`.
    color: Option<String>,
    /// An event's name, or part of it.
    event: Option<String>,
    /// Games on or after this date (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`).
    since: Option<String>,
    /// Games on or before this date.
    until: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` (or `red`, `black`, `draw`).
    result: Option<String>,
    /// Both players rated at least this.
    min_elo: Option<String>,
}

/// A 400 naming the first parameter of `rest` (those no field took), if any.
pub(crate) fn no_unknown<V>(rest: &std::collections::BTreeMap<String, V>) -> Result<(), ApiError> {
    match rest.keys().next() {
        Some(name) => Err(ApiError::bad_request(format!("unknown parameter {name:?}"))
            .with_code("unknown-parameter")
            .with("name", name.as_str())),
        None => Ok(()),
    }
}

/// `GET /api/tablebases`: every table the server has.
pub(crate) async fn tablebases(
    State(state): State<Arc<AppState>>,
) -> Result<Json<crate::tables::TableList>, ApiError> {
    crate::tables::list(&state.tables).map(Json)
}

/// `GET /api/tablebases/{material}`: a material's page (`crate::tables`).
pub(crate) async fn tablebase_page(
    State(state): State<Arc<AppState>>,
    Path(material): Path<String>,
) -> Result<Json<crate::tables::Page>, ApiError> {
    let page = crate::tables::page(&state.tables, &state.table_pages, &material).await?;
    Ok(Json(crate::tables::Page::clone(&page)))
}

/// `GET /api/games?fen=...` and its filters.
#[derive(Debug, Deserialize)]
pub(crate) struct GamesQuery {
    fen: String,
    #[serde(default)]
    moves: String,
    #[serde(flatten)]
    filter: FilterParams,
    /// `newest` (default) or `rating`.
    order: Option<String>,
    #[serde(default)]
    offset: u64,
    #[serde(default = "twenty")]
    limit: u64,
    /// Anything else (a 400).
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, String>,
}

fn twenty() -> u64 {
    20
}

/// The most games one page lists.
pub const MAX_PAGE: u64 = 100;

impl FilterParams {
    /// The filter asked for, or a 400 naming the parameter that is wrong.
    pub(crate) fn filter(&self) -> Result<Filter, ApiError> {
        let bad = |name: &str, e: &dyn std::fmt::Display| {
            ApiError::bad_request(format!("{name}: {e}"))
                .with_code("bad-filter")
                .with("name", name)
        };
        let date = |name: &str, v: &Option<String>| -> Result<Option<DateBound>, ApiError> {
            v.as_deref()
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<DateBound>().map_err(|e| bad(name, &e)))
                .transpose()
        };
        let text = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| vec![s.to_owned()])
                .unwrap_or_default()
        };
        let player_color = match self.color.as_deref() {
            None | Some("") => None,
            Some("red") => Some(Color::Red),
            Some("black") => Some(Color::Black),
            Some(other) => return Err(bad("color", &format!("{other:?}: expected red or black"))),
        };
        let results = match self.result.as_deref() {
            None | Some("") => Vec::new(),
            Some(r) => vec![r.parse::<ResultFilter>().map_err(|e| bad("result", &e))?],
        };
        Ok(Filter {
            from: date("since", &self.since)?,
            to: date("until", &self.until)?,
            min_elo: match self.min_elo.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(e) => Some(
                    e.parse::<u32>()
                        .map_err(|_| bad("min_elo", &format!("{e:?}: expected a whole number")))?,
                ),
            },
            events: text(&self.event),
            players: text(&self.player),
            player_color,
            results,
            setups: true,
        })
    }
}

/// The moves of the games through a position.
#[derive(Debug, Serialize)]
struct GamesMove {
    /// ICCS, `null` for the games that ended here.
    #[serde(rename = "move")]
    mv: Option<String>,
    wxf: Option<String>,
    chinese: Option<String>,
    games: u64,
    red_wins: u64,
    draws: u64,
    black_wins: u64,
    /// The players' mean rating over the games with both ratings.
    mean_elo: Option<u32>,
}

#[derive(Debug, Serialize)]
pub(crate) struct GamesAnswer {
    fen: String,
    /// Games through the position that the filter selects.
    total: u64,
    moves: Vec<GamesMove>,
    /// One page of them.
    games: Vec<GameRowView>,
    offset: u64,
    limit: u64,
}

#[derive(Debug, Serialize)]
struct GameRowView {
    id: i64,
    red: Option<String>,
    black: Option<String>,
    event: Option<String>,
    date: Option<String>,
    result: Option<&'static str>,
    plies: u32,
    red_elo: Option<u32>,
    black_elo: Option<u32>,
    /// Its opening (from its first moves), `null` when it has none.
    opening: Option<crate::openings::OpeningView>,
}

/// The explorer's database, or a 503 (being built) or 404 (none).
pub(crate) fn games_db(state: &AppState) -> Result<Arc<GamesDb>, ApiError> {
    state.games_db.as_ref().map(Arc::clone).ok_or_else(|| {
        ApiError::not_found("this server has no game database").with_code("no-game-database")
    })
}

/// `GET /api/games?fen=FEN&...`.
pub(crate) async fn games(
    State(state): State<Arc<AppState>>,
    q: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<GamesAnswer>, ApiError> {
    let q = query(q)?;
    let pos = position_of(&At {
        fen: q.fen.clone(),
        moves: q.moves.clone(),
    })?;
    no_unknown(&q.rest)?;
    let filter = q.filter.filter()?;
    let order = match q.order.as_deref() {
        None | Some("" | "newest") => Order::Newest,
        Some("rating") => Order::Rating,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "order: {other:?}: expected newest or rating"
            )));
        }
    };
    if !(1..=MAX_PAGE).contains(&q.limit) {
        return Err(ApiError::bad_request(format!(
            "limit: {}: expected 1 to {MAX_PAGE}",
            q.limit
        )));
    }
    let db = games_db(&state)?;
    let (offset, limit) = (q.offset, q.limit);
    let probe = pos.clone();
    let explored = tokio::task::spawn_blocking(move || {
        db.with(|d| d.explore(&probe, &filter, order, offset, limit))
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))??;
    let moves = explored
        .moves
        .iter()
        .map(|m| GamesMove {
            mv: m.mv.map(|mv| mv.to_string()),
            wxf: m.mv.map(|mv| names(&pos, &[mv], Notation::Wxf).concat()),
            chinese: m
                .mv
                .map(|mv| names(&pos, &[mv], Notation::Chinese).concat()),
            games: m.games,
            red_wins: m.red_wins,
            draws: m.draws,
            black_wins: m.black_wins,
            mean_elo: m.mean_elo,
        })
        .collect();
    Ok(Json(GamesAnswer {
        fen: pos.fen(),
        total: explored.total,
        moves,
        games: explored
            .games
            .into_iter()
            .map(|g| GameRowView {
                id: g.id,
                red: g.red,
                black: g.black,
                event: g.event,
                date: g.date,
                result: g.result,
                plies: g.plies,
                red_elo: g.red_elo,
                black_elo: g.black_elo,
                opening: crate::openings::view(&chariot_rules::Position::start(), &g.opening),
            })
            .collect(),
        offset,
        limit,
    }))
}

/// A stored game, whole.
#[derive(Debug, Serialize)]
struct StoredGameView {
    id: i64,
    red: Option<String>,
    black: Option<String>,
    event: Option<String>,
    date: Option<String>,
    result: Option<&'static str>,
    red_elo: Option<u32>,
    black_elo: Option<u32>,
    /// The other header fields, in file order.
    tags: Vec<(String, String)>,
    /// The start position.
    fen: String,
    moves: Vec<crate::movetext::MoveText>,
}

/// A stored game's id in an address, `NUMBER` or `NUMBER.pgn`: the number, and whether the PGN
/// is asked for; a 400 for anything else.
pub(crate) fn stored_game_id(id: &str) -> Result<(i64, bool), ApiError> {
    let (number, pgn) = match id.strip_suffix(".pgn") {
        Some(n) => (n, true),
        None => (id, false),
    };
    number.parse::<i64>().map(|n| (n, pgn)).map_err(|_| {
        ApiError::bad_request(format!("game id {id:?}: expected a number (or NUMBER.pgn)"))
    })
}

/// A stored game as `GET /api/games/{id}` answers: JSON, or with `pgn` its Xiangqi PGN
/// (Chinese moves) as an attachment named `file`.
pub(crate) fn stored_game_answer(g: FullGame, pgn: bool, file: &str) -> Response {
    if pgn {
        let text = crate::explorer_db::pgn(&g);
        return (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8".to_owned(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{file}\""),
                ),
            ],
            text,
        )
            .into_response();
    }
    Json(StoredGameView {
        id: g.id,
        result: g.result.map(chariot_games::GameResult::pgn),
        fen: g.start.fen(),
        moves: describe(&g.start, &g.moves),
        red: g.red,
        black: g.black,
        event: g.event,
        date: g.date,
        red_elo: g.red_elo,
        black_elo: g.black_elo,
        tags: g.tags,
    })
    .into_response()
}

/// `GET /api/games/{id}` (JSON) and `GET /api/games/{id}.pgn` (Xiangqi PGN, Chinese moves).
pub(crate) async fn game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (number, pgn) = stored_game_id(&id)?;
    let db = games_db(&state)?;
    let found = tokio::task::spawn_blocking(move || db.with(|d| d.game(number)))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))??;
    let Some(g) = found else {
        return Err(
            ApiError::not_found(format!("no game {number} in the game database"))
                .with_code("no-stored-game")
                .with("id", number),
        );
    };
    Ok(stored_game_answer(g, pgn, &format!("game-{number}.pgn")))
}
