//! The one UCCI/UCI engine client: one engine's side of a game, whatever the game. Moves are
//! text here (as the engine writes them); reading them is the game's business, with its
//! position at hand (the league's Xiangqi client, chess-board's UCI chess engines).
//!
//! # Handshake
//!
//! With `proto=auto` the runner writes `ucci` first, because UCCI engines may exit on any other
//! first command (the specification allows it) while UCI engines answer an unknown command with a
//! complaint and go on. If `ucciok` does not come within [`PROBE`] (or the engine complains
//! about an unknown command, or exits, in which case it is started again), the runner writes
//! `uci` and waits for `uciok`. A late `ucciok` is still taken as UCCI.
//!
//! After the handshake: UCCI engines that list `usemillisec` get `setoption usemillisec true`
//! (times are then sent in milliseconds, otherwise in whole seconds, as the specification's
//! league simulator does); UCI engines that list `UCI_Variant` with `xiangqi` get it set (see
//! [`VariantChoice`]). Then the configuration file's lines, then the
//! `option.NAME=VALUE` settings. UCI engines must answer `isready`; UCCI engines are not asked,
//! since the specification's league needs only `ucci`, `position`, `banmoves`, `go` and `quit`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::clock::{Clock, TimeControl};
use crate::engine::{DEFAULT_GRACE, DEFAULT_HANDSHAKE, EngineScore, Failure, is_book_info, uci_go};
use crate::handshake::{Hello, handshake};
use crate::info::{Info, read_info};
use crate::interrupt::{self, Interrupt};
use crate::options::EngineOption;
use crate::process::{Launch, Process, RecvError};

/// How long a `ucci` probe waits for `ucciok` before `uci` is tried.
pub const PROBE: Duration = Duration::from_secs(2);

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UCCI 3.0: `ucci`, `position fen ... moves ...`, `banmoves`, `go time ... opptime ...`.
    Ucci,
    /// UCI as Xiangqi engines speak it: `uci`, `go wtime ... btime ...`.
    Uci,
}

impl Protocol {
    /// The words of its handshake: what is sent and what answers it.
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
        })
    }
}

/// How the protocol is chosen (`proto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// Try UCCI first, then UCI (`proto=auto`, the default).
    #[default]
    Auto,
    /// This protocol only.
    Fixed(Protocol),
}

impl FromStr for ProtocolChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<ProtocolChoice, String> {
        match s {
            "auto" => Ok(ProtocolChoice::Auto),
            "ucci" => Ok(ProtocolChoice::Fixed(Protocol::Ucci)),
            "uci" => Ok(ProtocolChoice::Fixed(Protocol::Uci)),
            _ => Err(format!(
                "unknown protocol {s:?} (expected ucci, uci or auto)"
            )),
        }
    }
}

/// Whether a UCI engine is a multi-variant engine to be told the game's `UCI_Variant` (for
/// Xiangqi `xiangqi`; such an engine then names squares as Fairy-Stockfish does, ranks 1-10)
/// (`variant=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VariantChoice {
    /// Yes when the engine lists a `UCI_Variant` option offering the game's variant
    /// (`variant=auto`).
    #[default]
    Auto,
    /// Always: send `setoption name UCI_Variant value NAME` (`variant=xiangqi`, the league's
    /// spelling, or `variant=always`).
    Always,
    /// Never (`variant=none`).
    None,
}

impl FromStr for VariantChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<VariantChoice, String> {
        match s {
            "auto" => Ok(VariantChoice::Auto),
            "xiangqi" | "always" => Ok(VariantChoice::Always),
            "none" => Ok(VariantChoice::None),
            _ => Err(format!(
                "unknown variant {s:?} (expected xiangqi, none or auto)"
            )),
        }
    }
}

/// Everything the runner needs to start and drive one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The name in tables and PGN; the engine's `id name` when `None`.
    pub name: Option<String>,
    /// Program, arguments, working directory.
    pub launch: Launch,
    /// Protocol to speak.
    pub protocol: ProtocolChoice,
    /// UCI variant handling.
    pub variant: VariantChoice,
    /// Lines of the configuration file (`conf=`), sent as they are after the handshake.
    pub conf_lines: Vec<String>,
    /// Options (`option.NAME=VALUE`), sent after the configuration file in the protocol's form.
    pub options: Vec<(String, String)>,
    /// The time control.
    pub tc: TimeControl,
    /// A node limit per move (`nodes=`): the engine is sent `go nodes N` instead of its clock.
    /// The clock of `tc` still runs and still flags an engine that does not answer in time,
    /// so it should be generous. Node-limited games are cheap and nearly reproducible, which
    /// suits testing changes that do not affect speed.
    pub nodes: Option<u64>,
    /// Grace after the clock runs out before the loss on time (`timemargin=`, milliseconds).
    pub grace: Duration,
    /// Time allowed for the handshake (`handshake=`, seconds).
    pub handshake: Duration,
}

impl EngineConfig {
    /// A configuration for `command` with the defaults: detected protocol, no options.
    #[must_use]
    pub fn new(command: impl Into<PathBuf>, tc: TimeControl) -> EngineConfig {
        EngineConfig {
            name: None,
            launch: Launch {
                command: command.into(),
                ..Launch::default()
            },
            protocol: ProtocolChoice::Auto,
            variant: VariantChoice::Auto,
            conf_lines: Vec::new(),
            options: Vec::new(),
            tc,
            nodes: None,
            grace: DEFAULT_GRACE,
            handshake: DEFAULT_HANDSHAKE,
        }
    }
}

/// A position as the engine is to be told it: a FEN (`None`: the game's start, `position
/// startpos`) and the moves after it. The client sends moves as text in the engine's notation
/// (`M = String`); a game's side may hold its own move type and map it ([`Think::map`]).
#[derive(Debug)]
pub struct Line<'a, M = String> {
    /// The FEN; `None` for the start position.
    pub fen: Option<&'a str>,
    /// The moves played from it.
    pub moves: &'a [M],
}

/// One request to think.
#[derive(Debug)]
pub struct Think<'a, M = String> {
    /// The position from the last capture on (what UCCI engines are sent).
    pub since_capture: Line<'a, M>,
    /// The position from the game's start (what UCI engines are sent).
    pub from_start: Line<'a, M>,
    /// Moves that would commit a forbidden repetition (sent with UCCI `banmoves`).
    pub banned: &'a [M],
    /// The clock of the side to move.
    pub own: &'a Clock,
    /// The opponent's clock.
    pub opp: &'a Clock,
    /// The first player (Red in Xiangqi, White in chess) is to move: its clock is UCI's
    /// `wtime`.
    pub first_to_move: bool,
    /// The opponent offered a draw with its last move (UCCI `go draw`).
    pub draw_offered: bool,
    /// Set when the run is interrupted: the wait then ends with [`Failure::Interrupted`].
    pub interrupt: &'a Interrupt,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply<M = String> {
    /// The move: as the engine wrote it (not yet read nor checked) from the client, read by a
    /// game's side ([`Reply::try_map`]); `None` for `nobestmove`, a null move (`0000`,
    /// `(none)`, `none`) or `bestmove resign`.
    pub mv: Option<M>,
    /// The word after `bestmove` as the engine wrote it (`nobestmove` for that answer).
    pub text: String,
    /// The whole answer line, for messages.
    pub line: String,
    /// `draw` after the move: an offer, or the acceptance of one.
    pub draw: bool,
    /// `resign` after the move.
    pub resign: bool,
    /// Time from `go` to the answer.
    pub elapsed: Duration,
    /// The last score the engine reported.
    pub score: Option<EngineScore>,
    /// The last depth the engine reported.
    pub depth: Option<u32>,
    /// The engine said the move came from its opening book (`info string book move ...` in
    /// UCI, `info message book move ...` in UCCI, as Chariot and ElephantEye say it).
    pub book: bool,
}

// Copies of references only, whatever the move type (a derive would ask `M: Copy`).
impl<M> Clone for Line<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M> Copy for Line<'_, M> {}
impl<M> Clone for Think<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M> Copy for Think<'_, M> {}

impl<'a, M> Think<'a, M> {
    /// The request with its moves written by `write` (a game's moves as the engine's text),
    /// into `store`, which must outlive the request: three lists, the two lines' and the banned.
    pub fn map<'b>(
        &self,
        write: impl Fn(&M) -> String,
        store: &'b mut [Vec<String>; 3],
    ) -> Think<'b, String>
    where
        'a: 'b,
    {
        store[0] = self.since_capture.moves.iter().map(&write).collect();
        store[1] = self.from_start.moves.iter().map(&write).collect();
        store[2] = self.banned.iter().map(&write).collect();
        let [since, start, banned] = store;
        Think {
            since_capture: Line {
                fen: self.since_capture.fen,
                moves: since,
            },
            from_start: Line {
                fen: self.from_start.fen,
                moves: start,
            },
            banned,
            own: self.own,
            opp: self.opp,
            first_to_move: self.first_to_move,
            draw_offered: self.draw_offered,
            interrupt: self.interrupt,
        }
    }
}

impl Reply {
    /// The reply with its move read by `read` (the engine's text as a game's move); a text
    /// `read` cannot read is [`Failure::Garbage`], unless the engine resigned with it.
    ///
    /// # Errors
    /// [`Failure::Garbage`] naming the answer line.
    pub fn try_map<M>(self, read: impl Fn(&str) -> Option<M>) -> Result<Reply<M>, Failure> {
        let mv = match &self.mv {
            None => None,
            Some(text) => match read(text) {
                Some(m) => Some(m),
                None if self.resign => None,
                None => return Err(Failure::Garbage(self.line)),
            },
        };
        Ok(Reply {
            mv,
            text: self.text,
            line: self.line,
            draw: self.draw,
            resign: self.resign,
            elapsed: self.elapsed,
            score: self.score,
            depth: self.depth,
            book: self.book,
        })
    }
}

/// A started engine, ready for `position` and `go`.
pub struct Engine {
    process: Process,
    config: EngineConfig,
    protocol: Protocol,
    /// The engine's `id name`.
    id_name: Option<String>,
    /// The engine's `id author`.
    author: Option<String>,
    /// The options the engine declared.
    declared: Vec<EngineOption>,
    /// UCCI: times in milliseconds.
    millisec: bool,
    /// UCI: the engine was told the game's `UCI_Variant` (a multi-variant engine then names
    /// squares as it does for that variant: ranks 1-10 in Xiangqi, as Fairy-Stockfish).
    variant_set: bool,
}

impl Engine {
    /// Starts an engine, runs the handshake and sends its settings.
    ///
    /// `variant` is the game's `UCI_Variant` value (`xiangqi`), given to a UCI engine as
    /// `config.variant` says; `None` for a game that needs none (chess). `trace` labels the
    /// engine's traffic on standard error (`--debug`).
    ///
    /// # Errors
    /// [`Failure::Spawn`], [`Failure::Handshake`] or [`Failure::Disconnected`].
    pub fn start(
        config: &EngineConfig,
        variant: Option<&str>,
        trace: Option<String>,
    ) -> Result<Engine, Failure> {
        let spawn = || {
            Process::spawn(&config.launch, trace.clone())
                .map_err(|e| Failure::Spawn(format!("{}: {e}", config.launch.command.display())))
        };
        let mut process = spawn()?;
        let deadline = Instant::now() + config.handshake;
        let (protocol, hello) = match config.protocol {
            ProtocolChoice::Fixed(p) => {
                let hello = handshake(&mut process, p.words(), deadline, false)?;
                (p, hello)
            }
            ProtocolChoice::Auto => {
                let probe = (Instant::now() + PROBE).min(deadline);
                match handshake(&mut process, Protocol::Ucci.words(), probe, true) {
                    Ok(hello) => (Protocol::Ucci, hello),
                    Err(Failure::Disconnected { .. }) => {
                        // It left on `ucci`: start it again and speak UCI.
                        drop(process);
                        process = spawn()?;
                        (
                            Protocol::Uci,
                            handshake(&mut process, Protocol::Uci.words(), deadline, false)?,
                        )
                    }
                    Err(_) => {
                        let hello =
                            handshake(&mut process, Protocol::Uci.words(), deadline, false)?;
                        let p = if hello.options.iter().any(|o| o == "\0ucci") {
                            Protocol::Ucci
                        } else {
                            Protocol::Uci
                        };
                        (p, hello)
                    }
                }
            }
        };
        let mut engine = Engine {
            process,
            config: config.clone(),
            protocol,
            id_name: hello.id_name.clone(),
            author: hello.author.clone(),
            declared: hello.declared.clone(),
            millisec: false,
            variant_set: false,
        };
        engine.configure(&hello, variant)?;
        Ok(engine)
    }

    /// Sends the settings after the handshake and, for UCI, waits for `readyok`.
    fn configure(&mut self, hello: &Hello, variant: Option<&str>) -> Result<(), Failure> {
        let listed = |name: &str| hello.options.iter().any(|o| o.eq_ignore_ascii_case(name));
        match self.protocol {
            Protocol::Ucci => {
                if listed("usemillisec") {
                    self.send("setoption usemillisec true")?;
                    self.millisec = true;
                }
            }
            Protocol::Uci => {
                if let Some(name) = variant {
                    let set = match self.config.variant {
                        VariantChoice::Auto => {
                            hello.variants.iter().any(|v| v.eq_ignore_ascii_case(name))
                        }
                        VariantChoice::Always => true,
                        VariantChoice::None => false,
                    };
                    if set {
                        self.send(&format!("setoption name UCI_Variant value {name}"))?;
                        self.variant_set = true;
                    }
                }
            }
        }
        for line in self.config.conf_lines.clone() {
            self.send(&line)?;
        }
        for (name, value) in self.config.options.clone() {
            self.send(&setoption_line(self.protocol, &name, &value))?;
        }
        self.ready()
    }

    /// Sets an option now, in the protocol's form (`setoption name NAME value VALUE` in UCI,
    /// `setoption NAME VALUE` in UCCI; without a value for an empty one, which presses a
    /// button). The value is sent as given: check it first ([`EngineOption::check`]; a line
    /// break in it would end the line). Call [`Engine::ready`] after a batch of them.
    ///
    /// # Errors
    /// [`Failure::Disconnected`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Failure> {
        self.send(&setoption_line(self.protocol, name, value))
    }

    /// Waits until a UCI engine has done what it was sent (`isready`, `readyok`); nothing for
    /// UCCI, whose league needs no `isready` and whose engines may lack it.
    ///
    /// # Errors
    /// [`Failure::Handshake`] without `readyok` in the handshake's time,
    /// [`Failure::Disconnected`].
    pub fn ready(&mut self) -> Result<(), Failure> {
        if self.protocol == Protocol::Uci {
            self.send("isready")?;
            let deadline = Instant::now() + self.config.handshake;
            self.wait_for("readyok", deadline)?;
        }
        Ok(())
    }

    /// The engine's `id author`, if it gave one.
    #[must_use]
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine declared in its handshake (those whose `option` line could be
    /// read), in its order.
    #[must_use]
    pub fn options(&self) -> &[EngineOption] {
        &self.declared
    }

    /// `true` once the engine has exited or closed its output (it crashed, or left): a client
    /// that keeps engines between games starts another.
    pub fn exited(&mut self) -> bool {
        self.process.drain();
        self.process.is_closed() || self.process.exit_status().is_some()
    }

    /// The protocol in use.
    #[must_use]
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The engine's `id name`, if it gave one.
    #[must_use]
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Whether the engine was told the game's `UCI_Variant` (a multi-variant engine then names
    /// squares as it does for that variant: Fairy-Stockfish's Xiangqi ranks are 1-10).
    #[must_use]
    pub fn variant_set(&self) -> bool {
        self.variant_set
    }

    /// `true` when UCCI times are sent in milliseconds.
    #[must_use]
    pub fn millisec(&self) -> bool {
        self.millisec
    }

    /// The engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Writes a line; a broken pipe is a disconnection.
    fn send(&mut self, line: &str) -> Result<(), Failure> {
        match self.process.send(line) {
            Ok(()) => Ok(()),
            Err(_) => Err(self.disconnected()),
        }
    }

    /// The failure for an engine that has gone, with its exit status if it can be had soon.
    fn disconnected(&mut self) -> Failure {
        let mut status = self.process.exit_status();
        let until = Instant::now() + Duration::from_millis(100);
        while status.is_none() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
            status = self.process.exit_status();
        }
        Failure::Disconnected {
            status,
            stderr: self.process.stderr_tail(),
        }
    }

    /// Reads lines until one equals `word` (after trimming).
    fn wait_for(&mut self, word: &str, deadline: Instant) -> Result<(), Failure> {
        loop {
            match self.process.recv_until(deadline) {
                Ok((line, _)) if line.trim() == word => return Ok(()),
                Ok(_) => {}
                Err(RecvError::Timeout) => {
                    return Err(Failure::Handshake(format!("no {word} in time")));
                }
                Err(RecvError::Disconnected) => return Err(self.disconnected()),
            }
        }
    }

    /// Tells the engine a new game starts (UCCI `setoption newgame`, UCI `ucinewgame` and
    /// `isready`).
    ///
    /// # Errors
    /// [`Failure::Disconnected`], or [`Failure::Handshake`] when a UCI engine does not answer
    /// `isready` in time.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.process.drain();
        match self.protocol {
            Protocol::Ucci => self.send("setoption newgame"),
            Protocol::Uci => {
                self.send("ucinewgame")?;
                self.send("isready")?;
                let deadline = Instant::now() + self.config.handshake;
                self.wait_for("readyok", deadline)
            }
        }
    }

    /// The `position` command for a line.
    fn position_command(line: &Line<'_>) -> String {
        let mut cmd = match line.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_owned(),
        };
        if !line.moves.is_empty() {
            cmd.push_str(" moves");
            for m in line.moves {
                cmd.push(' ');
                cmd.push_str(m);
            }
        }
        cmd
    }

    /// The `go` command with the clocks in this engine's protocol and units.
    fn go_command(&self, req: &Think<'_>) -> String {
        match self.config.nodes {
            Some(n) if self.protocol == Protocol::Ucci && req.draw_offered => {
                format!("go draw nodes {n}")
            }
            Some(n) => format!("go nodes {n}"),
            None => go_command(self.protocol, self.millisec, req),
        }
    }

    /// Sends the position (and banned moves) and `go`, and waits for the answer: `stop` when
    /// the clock runs out, [`Failure::Timeout`] when the grace runs out too. The wait looks at
    /// the request's interrupt flag every [`interrupt::POLL`].
    ///
    /// # Errors
    /// [`Failure::Timeout`], [`Failure::Disconnected`], [`Failure::Garbage`],
    /// [`Failure::Interrupted`].
    pub fn think(&mut self, req: &Think<'_>) -> Result<Reply, Failure> {
        let go = self.go_command(req);
        let grace = u64::try_from(self.config.grace.as_millis()).unwrap_or(u64::MAX);
        self.run_go(
            &Go {
                since_capture: &req.since_capture,
                from_start: &req.from_start,
                banned: req.banned,
                line: &go,
                stop_after: Some(Duration::from_millis(req.own.shown_ms())),
                give_up_after: Some(Duration::from_millis(req.own.budget_ms(grace))),
                stop: None,
                interrupt: Some(req.interrupt),
            },
            &mut |_| {},
        )
    }

    /// Sends the position (and, to a UCCI engine, the banned moves) and the `go` line, then
    /// reads the engine's lines until its answer, handing each `info` line to `on_info`.
    ///
    /// `stop` is sent once `stop_after` has passed since `go`, or as soon as the caller's
    /// `stop` flag is set; [`Failure::Timeout`] comes once `give_up_after` has passed (or,
    /// after a `stop` with no such limit, once the grace has). The interrupt flag, when there
    /// is one, ends the wait with [`Failure::Interrupted`]. Both flags are looked at before
    /// every line and every [`interrupt::POLL`].
    pub(crate) fn run_go(
        &mut self,
        go: &Go<'_>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Reply, Failure> {
        self.process.drain();
        let position = match self.protocol {
            Protocol::Ucci => Engine::position_command(go.since_capture),
            Protocol::Uci => Engine::position_command(go.from_start),
        };
        self.send(&position)?;
        if self.protocol == Protocol::Ucci && !go.banned.is_empty() {
            self.send(&format!("banmoves {}", go.banned.join(" ")))?;
        }
        let started = Instant::now();
        self.send(go.line)?;
        let stop_at = go.stop_after.map(|d| started + d);
        let mut flag_at = go.give_up_after.map(|d| started + d);
        let mut stopped = false;
        let (mut score, mut depth) = (None, None);
        let mut book = false;
        loop {
            // Looked at before every line too: an engine that writes `info` without a pause
            // must not hold the stop up.
            if go.interrupt.is_some_and(Interrupt::is_set) {
                return Err(Failure::Interrupted);
            }
            if !stopped && go.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.send("stop")?;
                stopped = true;
                let by = Instant::now() + self.config.grace;
                flag_at = Some(flag_at.map_or(by, |f| f.min(by)));
            }
            let wait_until = match (stopped, stop_at, flag_at) {
                (false, Some(s), Some(f)) => Some(s.min(f)),
                (false, Some(s), None) => Some(s),
                (_, _, f) => f,
            };
            let poll = Instant::now() + interrupt::POLL;
            match self
                .process
                .recv_until(wait_until.map_or(poll, |w| w.min(poll)))
            {
                Ok((line, at)) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("info") => {
                            read_info(&line, &mut score, &mut depth);
                            book |= is_book_info(&line);
                            if let Some(info) = Info::parse(&line) {
                                on_info(&info);
                            }
                        }
                        Some("bestmove") => {
                            let elapsed = at.saturating_duration_since(started);
                            let mut reply = Engine::read_bestmove(&line, elapsed, score, depth)?;
                            reply.book = book;
                            return Ok(reply);
                        }
                        Some("nobestmove") => {
                            return Ok(Reply {
                                mv: None,
                                text: "nobestmove".to_owned(),
                                line: line.clone(),
                                draw: false,
                                resign: false,
                                elapsed: at.saturating_duration_since(started),
                                score,
                                depth,
                                book: false,
                            });
                        }
                        _ => {}
                    }
                }
                Err(RecvError::Timeout) => {
                    let now = Instant::now();
                    // Only a poll: the deadline is still ahead.
                    if wait_until.is_none_or(|w| now < w) {
                        continue;
                    }
                    if stopped || flag_at.is_some_and(|f| now >= f) {
                        return Err(Failure::Timeout);
                    }
                    self.send("stop")?;
                    stopped = true;
                    if flag_at.is_none() {
                        flag_at = Some(now + self.config.grace);
                    }
                }
                Err(RecvError::Disconnected) => return Err(self.disconnected()),
            }
        }
    }

    /// Reads `bestmove MOVE [ponder MOVE] [draw|resign]`.
    ///
    /// # Errors
    /// [`Failure::Garbage`] for a `bestmove` with neither a move nor `resign`.
    fn read_bestmove(
        line: &str,
        elapsed: Duration,
        score: Option<EngineScore>,
        depth: Option<u32>,
    ) -> Result<Reply, Failure> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let text = words.get(1).copied().unwrap_or("");
        let draw = words.iter().skip(2).any(|&w| w == "draw");
        let resign = words.iter().skip(1).any(|&w| w == "resign");
        if text.is_empty() && !resign {
            return Err(Failure::Garbage(line.to_owned()));
        }
        let null = matches!(text, "0000" | "(none)" | "none" | "resign" | "");
        Ok(Reply {
            mv: (!null).then(|| text.to_owned()),
            text: text.to_owned(),
            line: line.to_owned(),
            draw,
            resign,
            elapsed,
            score,
            depth,
            book: false,
        })
    }
}

/// One `go` as [`Engine::run_go`] sends it and waits for its answer.
pub(crate) struct Go<'a> {
    /// The position from the last capture (sent to UCCI engines).
    pub since_capture: &'a Line<'a>,
    /// The position from the game's start (sent to UCI engines).
    pub from_start: &'a Line<'a>,
    /// Moves a UCCI engine is told not to play (`banmoves`).
    pub banned: &'a [String],
    /// The `go` line.
    pub line: &'a str,
    /// When to send `stop`, from `go`.
    pub stop_after: Option<Duration>,
    /// When to give up the wait, from `go`.
    pub give_up_after: Option<Duration>,
    /// The caller's request to stop now.
    pub stop: Option<&'a AtomicBool>,
    /// The run's interrupt: abandon the wait.
    pub interrupt: Option<&'a Interrupt>,
}

/// The `go` command for `protocol`: UCCI `go [draw] time T increment I|movestogo M opptime T
/// oppincrement I|oppmovestogo M` (milliseconds with `millisec`, whole seconds without), UCI
/// `go wtime T btime T winc I binc I [movestogo M]`.
#[must_use]
pub fn go_command(protocol: Protocol, millisec: bool, req: &Think<'_>) -> String {
    let (own, opp) = (req.own, req.opp);
    match protocol {
        Protocol::Ucci => {
            // Whole seconds for engines without usemillisec, as the specification says
            // the simulator does ("only roughly").
            let t = |ms: u64| if millisec { ms } else { ms / 1000 };
            let mut cmd = String::from("go");
            if req.draw_offered {
                cmd.push_str(" draw");
            }
            cmd.push_str(&format!(" time {}", t(own.shown_ms())));
            match own.moves_to_go() {
                Some(n) => cmd.push_str(&format!(" movestogo {n}")),
                None => cmd.push_str(&format!(" increment {}", t(own.increment_ms()))),
            }
            cmd.push_str(&format!(" opptime {}", t(opp.shown_ms())));
            match opp.moves_to_go() {
                Some(n) => cmd.push_str(&format!(" oppmovestogo {n}")),
                None => cmd.push_str(&format!(" oppincrement {}", t(opp.increment_ms()))),
            }
            cmd
        }
        Protocol::Uci => uci_go(own, opp, req.first_to_move),
    }
}

/// The `setoption` line of `protocol` for `name` and `value` (without a value when it is
/// empty).
fn setoption_line(protocol: Protocol, name: &str, value: &str) -> String {
    match (protocol, value.is_empty()) {
        (Protocol::Ucci, true) => format!("setoption {name}"),
        (Protocol::Ucci, false) => format!("setoption {name} {value}"),
        (Protocol::Uci, true) => format!("setoption name {name}"),
        (Protocol::Uci, false) => format!("setoption name {name} value {value}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_map_their_moves_and_garbage_is_a_failure() {
        let reply = |text: &str, resign: bool| Reply {
            mv: Some(text.to_owned()),
            text: text.to_owned(),
            line: format!("bestmove {text}"),
            draw: false,
            resign,
            elapsed: Duration::ZERO,
            score: None,
            depth: None,
            book: false,
        };
        let read = |t: &str| t.parse::<u32>().ok();
        assert_eq!(reply("42", false).try_map(read).unwrap().mv, Some(42));
        assert_eq!(reply("x", true).try_map(read).unwrap().mv, None);
        assert_eq!(
            reply("x", false).try_map(read).unwrap_err(),
            Failure::Garbage("bestmove x".to_owned())
        );
    }
}
