//! The web app behind `chariot serve`: a person plays against Chariot and analyses positions
//! in the browser, over a JSON API that scripts can use too (`docs/web-api.md`).
//!
//! [`game`] is one game between a person and the engine under the rules core's judgement, with
//! its [`clock`], its rule for [`draw`] offers and the [`game_words`] of its PGN; [`play_levels`] the playing levels, each a
//! real limit on the engine; [`analysis`] streams the engine's lines as server-sent events;
//! [`position`] answers position queries and reads uploaded game files; [`movetext`] names moves
//! in the three notations; [`openings`] names a line's opening (its ECCO code and name).
//! [`api`] holds the routes and the game handlers, [`state`] what they share and the server's
//! [`Limits`], [`error`] the error answers (with
//! [`error_codes`], the codes of the rules' mistakes), [`sides`] how sides are
//! named, and [`assets`] serves the pages embedded in the binary (`web/assets/`,
//! `docs/web-app.md`); [`played_games`] keeps finished games in a game database, which
//! [`past_games`] lists; [`explorer`]
//! answers the explorer's questions (books through [`book_moves`], tables, the games through a
//! position) from [`explorer_db`], the explorer's game database, into which [`import`] brings
//! uploaded game files; [`books`] compiles books from it into [`compiled_books`]; [`jobs`] runs
//! such long work and reports its progress. [`tables`] serves the tablebase pages: the tables
//! the server has and each material's numbers. [`chessdb`] answers ChessDB's cloud-book queries
//! (`/chessdb.php`) from the books, tables and a short search ([`chessdb_search`]), on ChessDB's
//! scale ([`chessdb_scale`]) and in its reply formats ([`chessdb_reply`]). [`engines`] offers
//! external UCCI and UCI engines (`chariot serve --engine`) as opponents and in analysis, with
//! their routes in [`engine_routes`]. [`review`] reviews whole games in the background: every
//! position valued, every move judged; [`review_store`] keeps the finished ones on disk.
//! [`puzzles`] offers the shipped puzzles (held by [`puzzle_shelf`]) and judges a solver's moves.

pub mod analysis;
pub mod api;
pub mod assets;
pub mod book_moves;
pub mod books;
pub mod chessdb;
pub mod chessdb_reply;
pub mod chessdb_scale;
pub mod chessdb_search;
pub mod clock;
pub mod compiled_books;
pub mod draw;
pub mod engine_routes;
pub mod engines;
pub mod error;
pub mod error_codes;
pub mod explorer;
pub mod explorer_db;
pub mod game;
pub mod game_words;
pub mod import;
pub mod jobs;
pub mod movetext;
pub mod openings;
pub mod past_games;
pub mod play_levels;
pub mod played_games;
pub mod position;
pub mod puzzle_shelf;
pub mod puzzles;
pub mod review;
pub mod review_store;
pub mod sides;
pub mod state;
pub mod tables;

use std::net::SocketAddr;
use std::sync::Arc;

pub use api::router;
pub use state::{AppState, Limits};

/// Serves the API on `addr` until `shutdown` completes.
///
/// # Errors
/// When the address cannot be bound or the server fails.
pub async fn serve(
    addr: SocketAddr,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    serve_on(listener, state, shutdown).await
}

/// Serves the API on a bound listener until `shutdown` completes.
///
/// # Errors
/// When the server fails.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}
