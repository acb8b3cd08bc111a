//! Live analysis of a position, streamed as server-sent events (`GET /api/analysis`).
//!
//! Each analysis has its own engine searching on a thread of its own, with MultiPV lines; every
//! finished iteration of every line is one `info` event, and the end one `done` event with the
//! best move. Analyses are bounded: at most [`Limits::max_analyses`](crate::state::Limits) at once
//! (503 beyond), each at most `max_analysis` long; a client that goes away stops its engine.
//!
//! An infinite analysis (`seconds=infinite`, the page's ∞) runs until its client closes the
//! stream: the page closes it when the player stops the analysis or the position changes, and a
//! page closed or reloaded closes its connection. The server sees a closed connection at once
//! (the stream's receiver is dropped; `run` looks every 20 ms). An infinite analysis still ends
//! after `max_infinite_analysis` (30 minutes by default), so that a client that holds its stream
//! open and never reads, or a connection that vanished without a word (which TCP notices only
//! after minutes), cannot keep an engine searching for ever.
//!
//! Analysis is background work: on Linux its threads run at a lower scheduling priority (nice
//! [`ANALYSIS_NICE`]), so that while every core searches, the queries of the explorer and the
//! engine's moves in games still answer in milliseconds.

use std::convert::Infallible;
use std::time::Duration;

use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use chariot_engine::api::{Engine, Event, GoRequest};
use chariot_engine::search::{Bound, Limits, Options, Report, Score};
use chariot_rules::Position;
use chariot_rules::notation::Notation;
use serde::Serialize;

use crate::error::ApiError;
use crate::movetext::names;
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;

/// One line of the analysis.
#[derive(Debug, Serialize)]
pub struct LineInfo {
    /// Which line, from 1.
    pub multipv: u32,
    /// Depth in plies.
    pub depth: u32,
    /// Centipawns for the side to move, when not a mate.
    pub cp: Option<i32>,
    /// Mate in this many plies (negative: mated), when the search sees one.
    pub mate: Option<i32>,
    /// `exact`, `lower` or `upper` (a line that failed high or low).
    pub bound: &'static str,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds so far.
    pub millis: u64,
    /// The line in ICCS.
    pub pv: Vec<String>,
    /// The line in WXF notation.
    pub pv_wxf: Vec<String>,
    /// The line in Chinese notation.
    pub pv_chinese: Vec<String>,
}

/// The end of the analysis.
#[derive(Debug, Serialize)]
pub struct Done {
    /// The best move in ICCS, `null` when there is none.
    pub best: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
}

/// What an analysis needs from the server.
pub struct Request {
    /// The position.
    pub position: Position,
    /// Lines wanted, 1 to 5.
    pub multipv: usize,
    /// How long to search.
    pub time: Duration,
    /// The engine (books and tables shared with the server, its hash size and threads set).
    pub engine: Engine,
}

/// How long an analysis asked for with `seconds` runs: 10 seconds when absent, `infinite` the
/// server's `ceiling` for infinite analyses (the stream's closure ends it before), else a
/// number of seconds above 0 and at most `longest` (the server's
/// [`Limits`](crate::state::Limits) `max_infinite_analysis` and `max_analysis`).
///
/// # Errors
/// A bad request naming the value and what is expected.
pub fn duration(
    seconds: Option<&str>,
    longest: Duration,
    ceiling: Duration,
) -> Result<Duration, ApiError> {
    let max = longest.as_secs_f64();
    let text = seconds.unwrap_or("10");
    if text == "infinite" {
        return Ok(ceiling);
    }
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= max => Ok(Duration::from_secs_f64(s)),
        _ => Err(ApiError::bad_request(format!(
            "seconds {text}: expected more than 0 and at most {max}, or infinite"
        ))),
    }
}

/// Starts the analysis and returns its event stream; `permit` is held until it ends.
pub fn stream(
    request: Request,
    permit: OwnedSemaphorePermit,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let (tx, rx) = mpsc::channel::<SseEvent>(64);
    let sender = tx.clone();
    let started = std::thread::Builder::new()
        .name("analysis".into())
        .spawn(move || {
            lower_priority();
            run(request, &sender, permit);
        });
    if started.is_err() {
        let _ = tx.try_send(json_event(
            "error",
            &serde_json::json!({"error": "the analysis thread could not start"}),
        ));
    }
    drop(tx);
    Sse::new(tokio_stream::StreamExt::map(ReceiverStream::new(rx), Ok))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(10)))
}

/// The nice value of analysis threads (0 is normal, 19 the lowest priority).
pub const ANALYSIS_NICE: i32 = 19;

/// Lowers the calling thread's scheduling priority to [`ANALYSIS_NICE`]; the engine's search
/// threads, started from it, inherit it. Linux keeps a nice value per thread; elsewhere it
/// is the whole process's, so this does nothing there.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // `None` is the calling thread on Linux. Failing to lower a priority only costs
        // responsiveness, so an error is ignored.
        let _ = rustix::process::setpriority_process(None, ANALYSIS_NICE);
    }
}

/// A server-sent event `name` with `value` as its JSON data.
pub(crate) fn json_event(name: &str, value: &impl Serialize) -> SseEvent {
    SseEvent::default()
        .event(name)
        .data(serde_json::to_string(value).unwrap_or_else(|_| "{}".to_owned()))
}

/// Runs one analysis to its end (or until the client goes away), sending its events.
fn run(mut request: Request, tx: &mpsc::Sender<SseEvent>, _permit: OwnedSemaphorePermit) {
    let options = Options {
        multipv: request.multipv,
        ..request.engine.options().clone()
    };
    request.engine.set_options(options);
    request.engine.set_position(request.position.clone());
    // A position reached by moves may have forbidden repetitions: the engine does not play them.
    request.engine.ban_moves(chariot_rules::forbidden_moves(
        &mut request.position.clone(),
    ));
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let lines = tx.clone();
    let root = request.position.clone();
    let listen = Box::new(move |e: Event<'_>| match e {
        Event::Search(Report::Iteration(info)) => {
            let (cp, mate) = match info.score {
                Score::Cp(cp) => (Some(cp), None),
                Score::Mate(p) => (None, Some(p)),
            };
            let line = LineInfo {
                multipv: info.multipv,
                depth: info.depth,
                cp,
                mate,
                bound: match info.bound {
                    Bound::Exact => "exact",
                    Bound::Lower => "lower",
                    Bound::Upper => "upper",
                },
                nodes: info.nodes,
                nps: info.nps,
                millis: u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX),
                pv: info.pv.iter().map(ToString::to_string).collect(),
                pv_wxf: names(&root, &info.pv, Notation::Wxf),
                pv_chinese: names(&root, &info.pv, Notation::Chinese),
            };
            // A full channel drops a line rather than holding up the search.
            let _ = lines.try_send(json_event("info", &line));
        }
        Event::Done(answer) => {
            let _ = done_tx.send(Done {
                best: answer.result.best.map(|m| m.to_string()),
                nodes: answer.result.nodes,
            });
        }
        _ => {}
    });
    // Analysis is not play: MultiPV or not, an infinite search stopped by the time below.
    let go = GoRequest {
        limits: Limits {
            infinite: true,
            ..Limits::default()
        },
        ..GoRequest::default()
    };
    if request.engine.go(go, listen).is_err() {
        let _ = tx.blocking_send(json_event(
            "error",
            &serde_json::json!({"error": "the engine could not start"}),
        ));
        return;
    }
    let deadline = std::time::Instant::now() + request.time;
    let done = loop {
        if tx.is_closed() || std::time::Instant::now() >= deadline {
            request.engine.stop();
        }
        match done_rx.recv_timeout(Duration::from_millis(20)) {
            Ok(d) => break Some(d),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break None,
        }
    };
    request.engine.join();
    if let Some(d) = done {
        let _ = tx.blocking_send(json_event("done", &d));
    }
}
