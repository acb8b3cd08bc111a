//! The web server behind `chariot serve`: a person plays against Chariot and analyses positions
//! in the browser, over a JSON API that scripts can use too (`docs/web-api.md`).
//!
//! [`game`] is one game between a person and the engine under the rules core's judgement;
//! [`analysis`] streams the engine's lines on a position as server-sent events;
//! [`levels`] the playing levels, each a real limit on the engine; [`api`] the HTTP routes
//! (axum on tokio), with every game's engine thinking on a blocking thread and the server's
//! limits ([`api::Limits`]) bounding games, thinking time and request sizes.

pub mod analysis;
pub mod api;
pub mod assets;
pub mod clock;
pub mod game;
pub mod levels;
pub mod line;
pub mod position;

use std::net::SocketAddr;
use std::sync::Arc;

pub use api::{AppState, Limits, router};

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
