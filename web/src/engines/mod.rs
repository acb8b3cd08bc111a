//! External engines (`chariot serve --engine NAME=CMD`): any UCCI or UCI Xiangqi engine in the
//! web app, as the opponent of a game ([`play`]) and beside Chariot in analysis ([`analysis`]).
//!
//! Each engine is driven by the match kit's one engine client (`chariot_matchkit::client`),
//! which detects its dialect when it starts (UCCI; UCI with ICCS's ranks 0-9, as Pikafish
//! speaks it; UCI told `UCI_Variant xiangqi`, ranks 1-10, as Fairy-Stockfish) unless `proto=`
//! and `variant=` set it ([`spec`]). An engine is started on demand, the first time it is
//! listed or used. A started process is leased to one move of a game or one analysis at a time
//! ([`Lease`]) and kept for the next use, [`MAX_IDLE`] of them at most; a process that crashed,
//! hung or sent nonsense is dropped and the next use starts another. A failure to start is an
//! error naming the engine and what happened, for the request that wanted it; the server goes
//! on serving.
//!
//! Options: what the engine declared in its handshake (kinds, defaults, bounds, choices) is
//! what the API lists and what a value is checked against (`chariot_matchkit::options`). The
//! values set (`option.NAME=VALUE` on the command line, then `POST
//! /api/engines/{name}/options`) are sent to a process before it is leased, only those it does
//! not have yet; a button pressed is pressed once on every process. A few options belong to the
//! server, which sets them for each use ([`MANAGED`]). Every engine position and move goes
//! through [`lines`], which writes and reads squares as the engine names them and checks what
//! it plays against the rules core. The routes are `crate::engine_routes`'s.

pub mod analysis;
pub mod lines;
pub mod play;
pub mod spec;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use chariot_matchkit::client::{self, Protocol};
use chariot_matchkit::engine::Failure;
use chariot_matchkit::options::{EngineOption, OptionKind, OptionValueError};

pub use spec::EngineSpec;

/// The game's `UCI_Variant` value, for multi-variant UCI engines.
pub const UCI_VARIANT: &str = "xiangqi";

/// Started processes of one engine kept for the next use.
pub const MAX_IDLE: usize = 2;

/// The options the server sets itself, and why: the API neither lists them nor sets them.
pub const MANAGED: [(&str, &str); 6] = [
    ("UCI_Variant", "the server tells the engine the game"),
    ("Protocol", "the server speaks the dialect it chose"),
    (
        "usemillisec",
        "the server sends times in the engine's units",
    ),
    ("MultiPV", "an analysis asks for its lines, a game for one"),
    ("UCI_AnalyseMode", "on in analysis, off in games"),
    ("Ponder", "the server does not ponder"),
];

/// Why an external engine cannot do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The server has no engine of that name.
    #[error("no engine {0:?} (GET /api/engines lists the server's engines)")]
    Unknown(String),
    /// The engine could not be started, failed its handshake, or cannot take its command
    /// line's options.
    #[error("engine {name} {failure}")]
    Start {
        /// The engine.
        name: String,
        /// What happened.
        failure: String,
    },
    /// The engine failed while it was being set up for a use.
    #[error("engine {name} {failure}")]
    Failed {
        /// The engine.
        name: String,
        /// What happened.
        failure: String,
    },
    /// The engine declared no option of that name.
    #[error("engine {name} has no option {option:?} (GET /api/engines/{name} lists its options)")]
    NoSuchOption {
        /// The engine.
        name: String,
        /// The option asked for.
        option: String,
    },
    /// The option is one the server sets.
    #[error("engine {name}: {option} is set by the server ({why})")]
    Managed {
        /// The engine.
        name: String,
        /// The option.
        option: String,
        /// Why the server sets it.
        why: &'static str,
    },
    /// The value is not one the option takes.
    #[error("engine {name}: {error}")]
    BadValue {
        /// The engine.
        name: String,
        /// What the option takes.
        error: OptionValueError,
    },
}

/// What the server learned of an engine when it started.
#[derive(Clone, Debug)]
pub struct Known {
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// It was told `UCI_Variant xiangqi` and names ranks 1-10.
    pub ranks1: bool,
    /// Its `id name`.
    pub id_name: Option<String>,
    /// Its `id author`.
    pub author: Option<String>,
    /// The options it declared.
    pub options: Vec<EngineOption>,
}

impl Known {
    fn of(engine: &client::Engine) -> Known {
        Known {
            protocol: engine.protocol(),
            ranks1: engine.variant_set(),
            id_name: engine.id_name().map(str::to_owned),
            author: engine.author().map(str::to_owned),
            options: engine.options().to_vec(),
        }
    }

    /// The dialect as the API names it: `ucci`, `uci` (ranks 0-9) or `uci-xiangqi` (told
    /// `UCI_Variant xiangqi`, ranks 1-10).
    #[must_use]
    pub fn dialect(&self) -> &'static str {
        match (self.protocol, self.ranks1) {
            (Protocol::Ucci, _) => "ucci",
            (Protocol::Uci, false) => "uci",
            (Protocol::Uci, true) => "uci-xiangqi",
        }
    }

    /// The declared option `name` (any case).
    fn option(&self, name: &str) -> Option<&EngineOption> {
        self.options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// Why the server sets option `name` itself, when it does.
#[must_use]
pub fn managed(name: &str) -> Option<&'static str> {
    MANAGED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, why)| why)
}

/// The server's external engines.
#[derive(Default)]
pub struct Engines {
    list: Vec<Arc<External>>,
}

impl Engines {
    /// The engines of `specs`, none started yet.
    ///
    /// # Errors
    /// A name given twice.
    pub fn new(specs: Vec<EngineSpec>) -> Result<Engines, String> {
        let mut list: Vec<Arc<External>> = Vec::new();
        for spec in specs {
            if list.iter().any(|e| e.spec.name == spec.name) {
                return Err(format!("engine name {:?} is given twice", spec.name));
            }
            list.push(Arc::new(External {
                spec,
                state: Mutex::default(),
            }));
        }
        Ok(Engines { list })
    }

    /// Every engine, in the order given.
    #[must_use]
    pub fn all(&self) -> &[Arc<External>] {
        &self.list
    }

    /// The engine `name`.
    ///
    /// # Errors
    /// [`ExternalError::Unknown`].
    pub fn get(&self, name: &str) -> Result<Arc<External>, ExternalError> {
        self.list
            .iter()
            .find(|e| e.spec.name == name)
            .cloned()
            .ok_or_else(|| ExternalError::Unknown(name.to_owned()))
    }
}

/// One external engine: how to start it, what it declared, the values of its options and its
/// idle processes.
pub struct External {
    spec: EngineSpec,
    state: Mutex<State>,
}

/// What an engine's uses share.
#[derive(Default)]
struct State {
    /// Learned at its last good start.
    known: Option<Known>,
    /// Why its last start failed, and when, while it has not started since.
    failure: Option<(String, Instant)>,
    /// The values set, by the declared names, in the order first set.
    values: Vec<(String, String)>,
    /// How often each button was pressed, by lowercase name.
    presses: HashMap<String, u64>,
    /// The command line's options have been checked against the declarations and taken.
    configured: bool,
    /// Started processes waiting for a use.
    idle: Vec<Running>,
}

/// A started process and the option values it has.
struct Running {
    client: client::Engine,
    /// Each option's value in this process (its declared default until it is sent another), by
    /// lowercase name.
    values: HashMap<String, String>,
    /// The presses of each button this process has had, by lowercase name.
    presses: HashMap<String, u64>,
}

/// What [`External::snapshot`] returns: where the engine stands.
pub struct Snapshot {
    /// What it declared, once it has started.
    pub known: Option<Known>,
    /// Why it could not be started, when its last start failed.
    pub failure: Option<String>,
    /// The values set, by declared name.
    pub values: Vec<(String, String)>,
}

impl External {
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// How it is started.
    #[must_use]
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where it stands now (nothing is started).
    #[must_use]
    pub fn snapshot(&self) -> Snapshot {
        let st = self.lock();
        Snapshot {
            known: st.known.clone(),
            failure: st.failure.as_ref().map(|(f, _)| f.clone()),
            values: st.values.clone(),
        }
    }

    /// `true` when its last start failed less than `within` ago (a listing does not try again
    /// so soon: an engine that never answers would hold every listing up for its handshake).
    #[must_use]
    pub fn failed_within(&self, within: Duration) -> bool {
        self.lock()
            .failure
            .as_ref()
            .is_some_and(|(_, at)| at.elapsed() < within)
    }

    /// What it declared, starting it first when it never started. Blocks.
    ///
    /// # Errors
    /// [`ExternalError::Start`], [`ExternalError::Failed`].
    pub fn known(self: &Arc<Self>) -> Result<Known, ExternalError> {
        if let Some(known) = self.lock().known.clone() {
            return Ok(known);
        }
        let lease = self.lease(&[])?;
        Ok(lease.known.clone())
    }

    /// Sets options: each checked against the declaration (all or none are taken), kept for
    /// every later use; a button is pressed. Starts the engine first when it never started.
    /// Blocks.
    ///
    /// # Errors
    /// [`ExternalError::NoSuchOption`], [`ExternalError::Managed`],
    /// [`ExternalError::BadValue`], and those of [`External::known`].
    pub fn set_options(self: &Arc<Self>, pairs: &[(String, String)]) -> Result<(), ExternalError> {
        let known = self.known()?;
        let mut checked = Vec::with_capacity(pairs.len());
        for (name, value) in pairs {
            checked.push(self.check_option(&known, name, value)?);
        }
        let mut st = self.lock();
        for (option, value) in checked {
            if option.kind == OptionKind::Button {
                *st.presses.entry(option.name.to_lowercase()).or_default() += 1;
            } else {
                set_value(&mut st.values, &option.name, value);
            }
        }
        Ok(())
    }

    /// The declared option `name` and `value` as it takes it.
    fn check_option<'k>(
        &self,
        known: &'k Known,
        name: &str,
        value: &str,
    ) -> Result<(&'k EngineOption, String), ExternalError> {
        let option = known
            .option(name)
            .ok_or_else(|| ExternalError::NoSuchOption {
                name: self.spec.name.clone(),
                option: name.to_owned(),
            })?;
        if let Some(why) = managed(&option.name) {
            return Err(ExternalError::Managed {
                name: self.spec.name.clone(),
                option: option.name.clone(),
                why,
            });
        }
        let value = option
            .check(value)
            .map_err(|error| ExternalError::BadValue {
                name: self.spec.name.clone(),
                error,
            })?;
        Ok((option, value))
    }

    /// A process for one use, with the options set and `uses` (the server's own: `MultiPV`,
    /// `UCI_AnalyseMode`) on top, those the engine declared. An idle process is taken when there
    /// is one that still runs, else one is started. Blocks.
    ///
    /// # Errors
    /// [`ExternalError::Start`], or [`ExternalError::Failed`] when setting the options fails.
    pub fn lease(self: &Arc<Self>, uses: &[(&str, String)]) -> Result<Lease, ExternalError> {
        let idle = {
            let mut st = self.lock();
            loop {
                match st.idle.pop() {
                    Some(mut r) => {
                        if !r.client.exited() {
                            break Some(r);
                        }
                    }
                    None => break None,
                }
            }
        };
        let mut running = match idle {
            Some(r) => r,
            None => self.start()?,
        };
        let known = Known::of(&running.client);
        let (desired, presses) = {
            let st = self.lock();
            (desired(&known, &st.values, uses), st.presses.clone())
        };
        sync(&mut running, &known, &desired, &presses).map_err(|f| ExternalError::Failed {
            name: self.spec.name.clone(),
            failure: f.to_string(),
        })?;
        Ok(Lease {
            external: Arc::clone(self),
            running: Some(running),
            known,
        })
    }

    /// Starts a process; the first good start checks the command line's options against what
    /// the engine declares and takes them.
    fn start(&self) -> Result<Running, ExternalError> {
        let mut config = self.spec.config.clone();
        // Sent by `sync`, as every value set later is.
        config.options.clear();
        let failed = |failure: String| {
            self.lock().failure = Some((failure.clone(), Instant::now()));
            ExternalError::Start {
                name: self.spec.name.clone(),
                failure,
            }
        };
        let client = client::Engine::start(&config, Some(UCI_VARIANT), None)
            .map_err(|f| failed(f.to_string()))?;
        let known = Known::of(&client);
        let mut st = self.lock();
        if !st.configured {
            let mut values = Vec::new();
            for (name, value) in &self.spec.config.options {
                match self.check_option(&known, name, value) {
                    Ok((option, value)) => set_value(&mut values, &option.name, value),
                    Err(e) => {
                        drop(st);
                        let why = match e {
                            ExternalError::NoSuchOption { .. } => {
                                "it declares no such option".to_owned()
                            }
                            ExternalError::Managed { why, .. } => {
                                format!("the server sets it ({why})")
                            }
                            ExternalError::BadValue { error, .. } => error.to_string(),
                            other => other.to_string(),
                        };
                        return Err(failed(format!("cannot take option.{name}={value}: {why}")));
                    }
                }
            }
            st.values = values;
            st.configured = true;
        }
        let running = Running {
            values: known
                .options
                .iter()
                .map(|o| (o.name.to_lowercase(), o.default_value()))
                .collect(),
            // A new process has had no reason to clear what it never had.
            presses: st.presses.clone(),
            client,
        };
        st.known = Some(known);
        st.failure = None;
        Ok(running)
    }
}

/// Sets `name` to `value` in `values`, in place when it is there.
fn set_value(values: &mut Vec<(String, String)>, name: &str, value: String) {
    match values
        .iter_mut()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        Some(slot) => slot.1 = value,
        None => values.push((name.to_owned(), value)),
    }
}

/// The values a use wants, by declared name: the server's options at their defaults, then the
/// values set, then the use's own, each only when the engine declares it.
fn desired(
    known: &Known,
    values: &[(String, String)],
    uses: &[(&str, String)],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, _) in MANAGED {
        if let Some(o) = known.option(name)
            && o.kind != OptionKind::Button
            && !matches!(name, "UCI_Variant" | "Protocol" | "usemillisec")
        {
            set_value(&mut out, &o.name, o.default_value());
        }
    }
    for (name, value) in values {
        set_value(&mut out, name, value.clone());
    }
    for (name, value) in uses {
        if let Some(o) = known.option(name) {
            set_value(&mut out, &o.name, value.clone());
        }
    }
    out
}

/// Sends a process the values it does not have and the presses it missed, then waits until it
/// is ready.
fn sync(
    running: &mut Running,
    known: &Known,
    desired: &[(String, String)],
    presses: &HashMap<String, u64>,
) -> Result<(), Failure> {
    let mut sent = false;
    for (name, value) in desired {
        let key = name.to_lowercase();
        if running.values.get(&key) != Some(value) {
            running.client.set_option(name, value)?;
            running.values.insert(key, value.clone());
            sent = true;
        }
    }
    for (key, &count) in presses {
        if running.presses.get(key).copied().unwrap_or(0) < count {
            if let Some(o) = known.option(key) {
                running.client.set_option(&o.name, "")?;
                sent = true;
            }
            running.presses.insert(key.clone(), count);
        }
    }
    if sent {
        running.client.ready()?;
    }
    Ok(())
}

/// A process leased for one use: given back to the engine's idle processes when dropped,
/// unless it failed ([`Lease::run`]) or there are enough idle already.
pub struct Lease {
    external: Arc<External>,
    running: Option<Running>,
    known: Known,
}

impl Lease {
    /// What the engine declared, and its dialect.
    #[must_use]
    pub fn known(&self) -> &Known {
        &self.known
    }

    /// The engine's name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.external.name()
    }

    /// Runs `work` on the process; a failure drops the process (it is killed), so the next use
    /// starts another.
    ///
    /// # Errors
    /// The failure of `work`.
    pub fn run<T>(
        &mut self,
        work: impl FnOnce(&mut client::Engine) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let Some(running) = self.running.as_mut() else {
            return Err(Failure::Disconnected {
                status: None,
                stderr: "the process was dropped after a failure".to_owned(),
            });
        };
        let done = work(&mut running.client);
        if done.is_err() {
            self.running = None;
        }
        done
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            let mut st = self.external.lock();
            if st.idle.len() < MAX_IDLE {
                st.idle.push(running);
            }
        }
    }
}
