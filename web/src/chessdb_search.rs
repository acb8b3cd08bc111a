//! The short search behind `querybest`, `querypv` and `queryscore` when neither the tables nor
//! a book know a position: one engine on one thread, a fixed node budget
//! ([`Limits::chessdb_nodes`](crate::state::Limits)), at most
//! [`Limits::max_chessdb_searches`](crate::state::Limits) at once (ChessDB's
//! `rate limit exceeded` beyond), at the lowered priority of analyses so that games and the
//! explorer's queries answer first. The engine never blocks an async worker: it runs on a
//! thread of its own and the handler awaits its answer.

use std::sync::Arc;

use chariot_engine::api::{Engine, Event, GoRequest};
use chariot_engine::search::{Limits, Report, Score};
use chariot_rules::{Move, Position};
use tokio::sync::oneshot;

use crate::state::AppState;

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The best move, `None` when every legal move is banned.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: Score,
    /// The principal variation, from the best move (just the move when no iteration finished).
    pub pv: Vec<Move>,
}

/// Why there is no search result.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// As many searches run as the server allows.
    #[error("{0} searches are running, the server's limit")]
    Busy(usize),
    /// The search's thread could not start or ended without an answer.
    #[error("the search failed: {0}")]
    Failed(String),
}

/// Searches `pos` (with `banned` moves left out) within the server's budget.
///
/// # Errors
/// [`SearchError::Busy`] when the server's searches are all taken, [`SearchError::Failed`]
/// when the engine could not run.
pub async fn search(
    state: &Arc<AppState>,
    pos: Position,
    banned: Vec<Move>,
) -> Result<Searched, SearchError> {
    let permit = Arc::clone(&state.chessdb_searches)
        .try_acquire_owned()
        .map_err(|_| SearchError::Busy(state.limits.max_chessdb_searches))?;
    let (books, tables, options) = (
        Arc::clone(&state.books),
        Arc::clone(&state.tables),
        state.engine_options(),
    );
    let limits = Limits {
        nodes: Some(state.limits.chessdb_nodes),
        // A slow machine still answers in time.
        movetime: Some(state.limits.max_think),
        ..Limits::default()
    };
    let (tx, rx) = oneshot::channel();
    std::thread::Builder::new()
        .name("chessdb".into())
        .spawn(move || {
            crate::analysis::lower_priority();
            // Made here, not on the async worker: the engine allocates its hash table.
            let mut engine = Engine::sharing(books, tables, options);
            // The books and tables were asked already: this is the search's answer.
            engine.set_use_book(false);
            engine.set_use_egtb(false);
            engine.set_position(pos);
            engine.ban_moves(banned);
            let _ = tx.send(run(engine, limits));
            drop(permit);
        })
        .map_err(|e| SearchError::Failed(format!("no thread: {e}")))?;
    rx.await
        .map_err(|_| SearchError::Failed("the search thread ended without an answer".into()))?
}

/// Runs the search to its end on this thread.
fn run(mut engine: Engine, limits: Limits) -> Result<Searched, SearchError> {
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let mut pv: Vec<Move> = Vec::new();
    let listen = Box::new(move |e: Event<'_>| match e {
        Event::Search(Report::Iteration(info)) if info.multipv == 1 => {
            pv.clone_from(&info.pv);
        }
        Event::Done(answer) => {
            let _ = done_tx.send((answer.result.best, answer.result.score, pv.clone()));
        }
        _ => {}
    });
    let go = GoRequest {
        limits,
        ..GoRequest::default()
    };
    engine
        .go(go, listen)
        .map_err(|e| SearchError::Failed(e.to_string()))?;
    let done = done_rx.recv();
    engine.join();
    let (best, score, mut pv) =
        done.map_err(|_| SearchError::Failed("the engine gave no answer".into()))?;
    // The line must start with the move played (an iteration cut short may report another).
    if let Some(best) = best
        && pv.first() != Some(&best)
    {
        pv = vec![best];
    }
    if best.is_none() {
        pv.clear();
    }
    Ok(Searched { best, score, pv })
}
