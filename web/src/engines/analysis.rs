//! Analysis with an external engine, streamed as Chariot's own (`GET /api/analysis?engine=NAME`,
//! `crate::analysis`): the same `info` events (MultiPV lines with depth, score, bound, nodes,
//! speed, time and the line in three notations) and the same `done` event, so that a page
//! shows several engines' lines side by side by reading one stream per engine.
//!
//! The engine is sent the position with its history, `MultiPV` (the lines asked for, at most
//! what it declares; one when it declares none) and `UCI_AnalyseMode` when it has them, and `go
//! infinite` (UCCI `go depth infinite`); then `stop` when the time is up or the reader has gone,
//! and the answer is waited for within the engine's grace. Its lines are read through the rules
//! core: a line is cut at its first move that is not legal, mates are counted in plies. An
//! engine that fails is dropped (the next use starts it again) and the stream ends with an
//! `error` event naming what happened.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use chariot_matchkit::info::Bound;
use chariot_matchkit::options::OptionKind;
use chariot_matchkit::search::Limits;
use chariot_rules::notation::Notation;
use chariot_rules::{Move, Position};
use tokio::sync::{OwnedSemaphorePermit, mpsc, oneshot};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;

use super::lines::{EngineLines, read_pv, score_parts};
use super::{External, ExternalError, Lease};
use crate::analysis::{Done, LineInfo, json_event};
use crate::movetext::names;

/// One analysis with an external engine.
pub struct Request {
    /// The position the moves start from.
    pub start: Position,
    /// The moves played from it.
    pub moves: Vec<Move>,
    /// The position they reach: the one analysed.
    pub position: Position,
    /// How long to search.
    pub time: Duration,
}

/// Leases a process of `engine` set for `multipv` lines (blocking: it may start the engine).
///
/// # Errors
/// [`ExternalError::Start`], [`ExternalError::Failed`].
pub fn lease(engine: &Arc<External>, multipv: usize) -> Result<Lease, ExternalError> {
    let known = engine.known()?;
    let lines = known
        .options
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case("MultiPV"))
        .map_or(1, |o| match o.kind {
            OptionKind::Spin { max, .. } => {
                let most = max.and_then(|m| usize::try_from(m).ok()).unwrap_or(multipv);
                multipv.min(most.max(1))
            }
            _ => 1,
        });
    let uses = [
        ("MultiPV", lines.to_string()),
        ("UCI_AnalyseMode", "true".to_owned()),
    ];
    engine.lease(&uses)
}

/// Starts the analysis on a thread of its own and returns its event stream; `permit` is held
/// until it ends. Called from a request (it needs the async runtime).
pub fn stream(
    request: Request,
    lease: Lease,
    permit: OwnedSemaphorePermit,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let (tx, rx) = mpsc::channel::<SseEvent>(64);
    let stop = Arc::new(AtomicBool::new(false));
    let (ended, ended_rx) = oneshot::channel::<()>();
    // A reader that goes away stops the engine; the watch ends with the analysis.
    let watch = tx.clone();
    let flag = Arc::clone(&stop);
    tokio::spawn(async move {
        tokio::select! {
            () = watch.closed() => flag.store(true, Ordering::Relaxed),
            _ = ended_rx => {}
        }
    });
    let sender = tx.clone();
    let started = std::thread::Builder::new()
        .name("engine-analysis".into())
        .spawn(move || {
            run(request, lease, &sender, &stop, permit);
            let _ = ended.send(());
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

/// Runs one analysis to its end, sending its events.
fn run(
    request: Request,
    mut lease: Lease,
    tx: &mpsc::Sender<SseEvent>,
    stop: &AtomicBool,
    _permit: OwnedSemaphorePermit,
) {
    let root = &request.position;
    let lines = EngineLines::new(lease.known(), &request.start, &request.moves);
    let naming = lines.naming();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let search = lines.search(None, limits, Some(request.time), None, Some(stop));
    let mut nodes = 0;
    let reply = lease.run(|engine| {
        engine.search(&search, &mut |info| {
            let Some(score) = info.score else {
                return;
            };
            let pv = read_pv(root, &info.pv, naming);
            let (cp, mate) = score_parts(score);
            nodes = info.nodes.unwrap_or(nodes);
            let line = LineInfo {
                multipv: info.multipv.unwrap_or(1),
                depth: info.depth.unwrap_or(0),
                cp,
                mate,
                bound: match info.bound {
                    None => "exact",
                    Some(Bound::Lower) => "lower",
                    Some(Bound::Upper) => "upper",
                },
                nodes: info.nodes.unwrap_or(0),
                nps: info.nps.unwrap_or(0),
                millis: info
                    .time
                    .map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
                pv: pv.iter().map(ToString::to_string).collect(),
                pv_wxf: names(root, &pv, Notation::Wxf),
                pv_chinese: names(root, &pv, Notation::Chinese),
            };
            // A full channel drops a line rather than holding up the engine's output.
            let _ = tx.try_send(json_event("info", &line));
        })
    });
    let event = match reply {
        Ok(reply) => {
            let best = reply
                .mv
                .as_deref()
                .and_then(|text| naming.parse(text))
                .filter(|&m| root.is_legal(m));
            json_event(
                "done",
                &Done {
                    best: best.map(|m| m.to_string()),
                    nodes,
                },
            )
        }
        Err(failure) => json_event(
            "error",
            &serde_json::json!({"error": format!("engine {} {failure}", lease.name())}),
        ),
    };
    let _ = tx.blocking_send(event);
}
