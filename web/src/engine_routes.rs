//! The engines' routes (`docs/web-api.md`, "External engines"): `GET /api/engines`, `GET
//! /api/engines/{name}` and `POST /api/engines/{name}/options`; and what the play and analysis
//! routes ask of them (`engine` and `limits` in `POST /api/play`, `engine` in `GET
//! /api/analysis`). Engines are started on a
//! blocking thread (listing them starts those never started, all at once), never on the async
//! workers.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use chariot_matchkit::options::{EngineOption, OptionKind};
use serde::Serialize;
use serde_json::Value;

use crate::engines::analysis;
use crate::engines::play::{Opponent, PlayLimits};
use crate::engines::{External, ExternalError, Known, managed};
use crate::error::ApiError;
use crate::state::AppState;

/// An engine as the API shows it.
#[derive(Debug, Serialize)]
pub struct EngineView {
    /// Its name on the server.
    name: String,
    /// The program it is started as.
    command: String,
    /// `ready` once it has started, `failed` when its last start failed.
    state: &'static str,
    /// Why its last start failed.
    error: Option<String>,
    /// `ucci` or `uci`, once it has started.
    protocol: Option<String>,
    /// `ucci`, `uci` (ranks 0-9) or `uci-xiangqi` (told `UCI_Variant xiangqi`, ranks 1-10).
    dialect: Option<&'static str>,
    /// Its `id name`.
    id_name: Option<String>,
    /// Its `id author`.
    id_author: Option<String>,
    /// Its options but those the server sets.
    options: Vec<OptionView>,
}

/// An option as the API shows it.
#[derive(Debug, Serialize)]
struct OptionView {
    name: String,
    /// `check`, `spin`, `combo`, `string` or `button`.
    kind: &'static str,
    /// The declared default: a boolean for a check, a number for a spin, text otherwise,
    /// `null` for a button.
    default: Value,
    /// The value set, in the same form.
    value: Value,
    /// A spin's bounds, when declared.
    min: Option<i64>,
    max: Option<i64>,
    /// A combo's choices.
    choices: Option<Vec<String>>,
}

impl From<ExternalError> for ApiError {
    /// An engine that cannot be started or fails is a 502; a name or value the engine does not
    /// take a 422 (a name in a path is a 404: [`named`]).
    fn from(e: ExternalError) -> ApiError {
        match e {
            ExternalError::Start { .. } | ExternalError::Failed { .. } => {
                ApiError::engine_failure(e.to_string())
            }
            _ => ApiError::unprocessable(e.to_string()),
        }
    }
}

/// `text` as a JSON value of the option's kind.
fn typed(option: &EngineOption, text: &str) -> Value {
    match option.kind {
        OptionKind::Check { .. } => Value::Bool(text == "true"),
        OptionKind::Spin { .. } => text.parse::<i64>().map_or(Value::Null, Value::from),
        OptionKind::Combo { .. } | OptionKind::String { .. } => Value::from(text),
        OptionKind::Button => Value::Null,
    }
}

/// How long a listing shows an engine's failed start before it tries again (a use of the
/// engine always tries).
pub const RETRY_AFTER: Duration = Duration::from_secs(30);

/// Where `engine` stands, starting it first when it never started (unless its last start
/// failed within [`RETRY_AFTER`]); blocks.
fn describe(engine: &Arc<External>) -> EngineView {
    if !engine.failed_within(RETRY_AFTER) {
        // A failure is in the snapshot.
        let _ = engine.known();
    }
    let snapshot = engine.snapshot();
    let known = snapshot.known.as_ref();
    let options = known.map_or_else(Vec::new, |k| {
        k.options
            .iter()
            .filter(|o| managed(&o.name).is_none())
            .map(|o| {
                let default = o.default_value();
                let value = snapshot
                    .values
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(&o.name))
                    .map_or(default.as_str(), |(_, v)| v.as_str());
                OptionView {
                    name: o.name.clone(),
                    kind: o.kind_name(),
                    default: typed(o, &default),
                    value: typed(o, value),
                    min: match o.kind {
                        OptionKind::Spin { min, .. } => min,
                        _ => None,
                    },
                    max: match o.kind {
                        OptionKind::Spin { max, .. } => max,
                        _ => None,
                    },
                    choices: match &o.kind {
                        OptionKind::Combo { choices, .. } => Some(choices.clone()),
                        _ => None,
                    },
                }
            })
            .collect()
    });
    EngineView {
        name: engine.name().to_owned(),
        command: engine.spec().config.launch.command.display().to_string(),
        state: if snapshot.failure.is_some() || known.is_none() {
            "failed"
        } else {
            "ready"
        },
        error: snapshot.failure.clone(),
        protocol: known.map(|k| k.protocol.to_string()),
        dialect: known.map(Known::dialect),
        id_name: known.and_then(|k| k.id_name.clone()),
        id_author: known.and_then(|k| k.author.clone()),
        options,
    }
}

/// Runs `work` on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the engine's work failed: {e}")))?
}

/// The engines' list.
#[derive(Debug, Serialize)]
pub struct EngineList {
    engines: Vec<EngineView>,
}

/// `GET /api/engines`: every external engine, in the order given to the server.
pub async fn list(State(state): State<Arc<AppState>>) -> Result<Json<EngineList>, ApiError> {
    let engines: Vec<Arc<External>> = state.engines.all().to_vec();
    blocking(move || {
        let views = std::thread::scope(|s| {
            let started: Vec<_> = engines.iter().map(|e| s.spawn(|| describe(e))).collect();
            started
                .into_iter()
                .map(|h| {
                    h.join()
                        .map_err(|_| ApiError::internal("an engine's start failed"))
                })
                .collect::<Result<Vec<_>, _>>()
        })?;
        Ok(EngineList { engines: views })
    })
    .await
    .map(Json)
}

/// The engine named in a path (404 when there is none).
fn named(state: &AppState, name: &str) -> Result<Arc<External>, ApiError> {
    state.engines.get(name).map_err(|e| match e {
        ExternalError::Unknown(_) => ApiError::not_found(e.to_string()),
        other => other.into(),
    })
}

/// `GET /api/engines/{name}`: one engine.
pub async fn one(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Result<Json<EngineView>, ApiError> {
    let engine = named(&state, &name)?;
    blocking(move || Ok(describe(&engine))).await.map(Json)
}

/// `POST /api/engines/{name}/options`: `{"NAME": VALUE, ...}` (a boolean, a number, text, or
/// `null` to press a button), all checked against the engine's declarations before any is
/// taken; answers the engine.
pub async fn set_options(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    body: Result<Json<serde_json::Map<String, Value>>, JsonRejection>,
) -> Result<Json<EngineView>, ApiError> {
    let Json(body) = body?;
    let engine = named(&state, &name)?;
    let mut pairs = Vec::with_capacity(body.len());
    for (option, value) in body {
        let text = match value {
            Value::Null => String::new(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => s,
            Value::Array(_) | Value::Object(_) => {
                return Err(ApiError::bad_request(format!(
                    "option {option:?}: a value is a boolean, a number, text or null (a button)"
                )));
            }
        };
        pairs.push((option, text));
    }
    blocking(move || {
        engine.set_options(&pairs)?;
        Ok(describe(&engine))
    })
    .await
    .map(Json)
}

/// An external engine's limits as a new game asks for them (`POST /api/play`).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsRequest {
    /// Milliseconds per move, 1 to the server's longest think.
    movetime: Option<u64>,
    /// Depth per move, 1 to [`MAX_DEPTH`].
    depth: Option<u32>,
    /// Nodes per move, at least 1.
    nodes: Option<u64>,
}

/// The deepest depth a game may ask an engine for.
pub const MAX_DEPTH: u32 = 99;

/// The external opponent a new game asks for, started (or found started) on a blocking thread:
/// `None` for Chariot.
///
/// # Errors
/// 400 for limits without an engine, a level with one, or limits out of range; 422 for an
/// engine the server does not have; 502 for one that cannot be started.
pub async fn opponent(
    state: &AppState,
    engine: Option<String>,
    limits: Option<LimitsRequest>,
    level: Option<u8>,
) -> Result<Option<Opponent>, ApiError> {
    let Some(name) = engine else {
        if limits.is_some() {
            return Err(ApiError::bad_request(
                "limits are an external engine's: give engine too (GET /api/engines)",
            ));
        }
        return Ok(None);
    };
    if level.is_some() {
        return Err(ApiError::bad_request(
            "level is Chariot's: an external engine plays within limits (movetime, depth, nodes)",
        ));
    }
    let limits = limits.unwrap_or_default();
    let most = u64::try_from(state.limits.max_think.as_millis()).unwrap_or(u64::MAX);
    if let Some(ms) = limits.movetime
        && !(1..=most).contains(&ms)
    {
        return Err(ApiError::bad_request(format!(
            "limits.movetime {ms}: expected 1 to {most} milliseconds"
        )));
    }
    if let Some(d) = limits.depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        return Err(ApiError::bad_request(format!(
            "limits.depth {d}: expected 1 to {MAX_DEPTH}"
        )));
    }
    if limits.nodes == Some(0) {
        return Err(ApiError::bad_request("limits.nodes 0: expected at least 1"));
    }
    let engine = state.engines.get(&name)?;
    let started = Arc::clone(&engine);
    blocking(move || started.known().map_err(ApiError::from)).await?;
    Ok(Some(Opponent::new(
        engine,
        PlayLimits {
            movetime: limits.movetime,
            depth: limits.depth,
            nodes: limits.nodes,
        },
    )))
}

/// A game's external opponent as the game's view shows it.
#[derive(Debug, Serialize)]
pub struct OpponentView {
    /// The engine's name on the server.
    engine: String,
    /// Its `id name`.
    id_name: Option<String>,
    /// Its limits besides the clock.
    limits: PlayLimits,
}

/// How a game shows its opponent.
#[must_use]
pub fn opponent_view(o: &Opponent) -> OpponentView {
    OpponentView {
        engine: o.name().to_owned(),
        id_name: o.id_name(),
        limits: o.limits(),
    }
}

/// `GET /api/analysis?engine=NAME&...`: the analysis stream of external engine `name`, with
/// `multipv` lines (at most what it offers).
///
/// # Errors
/// 422 for an engine the server does not have, 502 for one that cannot be started.
pub async fn analyse(
    state: &AppState,
    name: &str,
    request: analysis::Request,
    multipv: usize,
    permit: tokio::sync::OwnedSemaphorePermit,
) -> Result<Response, ApiError> {
    let engine = state.engines.get(name)?;
    let lease = blocking(move || Ok(analysis::lease(&engine, multipv)?)).await?;
    Ok(analysis::stream(request, lease, permit).into_response())
}
