//! The UCCI/UCI client: one engine's side of a game.
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

use std::time::{Duration, Instant};

use chariot_rules::Move;
use chariot_rules::notation::SquareNaming;

use super::{EngineConfig, Protocol, ProtocolChoice, VariantChoice};
use chariot_matchkit::clock::Clock;
use chariot_matchkit::engine::{EngineScore, Failure, is_book_info, read_info, uci_go};
use chariot_matchkit::interrupt::{self, Interrupt};
use chariot_matchkit::process::{Process, RecvError};

/// How long a `ucci` probe waits for `ucciok` before `uci` is tried.
pub const PROBE: Duration = Duration::from_secs(2);

/// A position as the engine is to be told it: a FEN and the moves after it.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// The FEN.
    pub fen: &'a str,
    /// The moves played from it.
    pub moves: &'a [Move],
}

/// One request to think.
#[derive(Clone, Copy, Debug)]
pub struct Think<'a> {
    /// The position from the last capture on (what UCCI engines are sent).
    pub since_capture: Line<'a>,
    /// The position from the game's start (what UCI engines are sent).
    pub from_start: Line<'a>,
    /// Moves that would commit a forbidden repetition (sent with UCCI `banmoves`).
    pub banned: &'a [Move],
    /// The clock of the side to move.
    pub own: &'a Clock,
    /// The opponent's clock.
    pub opp: &'a Clock,
    /// Red is to move.
    pub red_to_move: bool,
    /// The opponent offered a draw with its last move (UCCI `go draw`).
    pub draw_offered: bool,
    /// Set when the run is interrupted: the wait then ends with [`Failure::Interrupted`].
    pub interrupt: &'a Interrupt,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move, `None` for `nobestmove` or a null move (`0000`, `(none)`).
    pub mv: Option<Move>,
    /// The move text as the engine wrote it.
    pub text: String,
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

/// A started engine, ready for `position` and `go`.
pub struct Engine {
    process: Process,
    config: EngineConfig,
    protocol: Protocol,
    /// The engine's `id name`.
    id_name: Option<String>,
    /// UCCI: times in milliseconds.
    millisec: bool,
    /// UCI: squares named with ranks 1-10 (Fairy-Stockfish).
    ranks1: bool,
}

/// What the handshake learned.
#[derive(Default)]
struct Hello {
    id_name: Option<String>,
    /// Option names as listed (UCCI: the word after `option`; UCI: after `option name`).
    options: Vec<String>,
    /// UCI only: the `UCI_Variant` option offers `xiangqi`.
    xiangqi_variant: bool,
}

impl Engine {
    /// Starts an engine, runs the handshake and sends its settings.
    ///
    /// `trace` labels the engine's traffic on standard error (`--debug`).
    ///
    /// # Errors
    /// [`Failure::Spawn`], [`Failure::Handshake`] or [`Failure::Disconnected`].
    pub fn start(config: &EngineConfig, trace: Option<String>) -> Result<Engine, Failure> {
        let spawn = || {
            Process::spawn(&config.launch, trace.clone())
                .map_err(|e| Failure::Spawn(format!("{}: {e}", config.launch.command.display())))
        };
        let mut process = spawn()?;
        let deadline = Instant::now() + config.handshake;
        let (protocol, hello) = match config.protocol {
            ProtocolChoice::Fixed(p) => {
                let hello = handshake(&mut process, p, deadline, false)?;
                (p, hello)
            }
            ProtocolChoice::Auto => {
                let probe = (Instant::now() + PROBE).min(deadline);
                match handshake(&mut process, Protocol::Ucci, probe, true) {
                    Ok(hello) => (Protocol::Ucci, hello),
                    Err(Failure::Disconnected { .. }) => {
                        // It left on `ucci`: start it again and speak UCI.
                        drop(process);
                        process = spawn()?;
                        (
                            Protocol::Uci,
                            handshake(&mut process, Protocol::Uci, deadline, false)?,
                        )
                    }
                    Err(_) => {
                        let hello = handshake(&mut process, Protocol::Uci, deadline, false)?;
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
            millisec: false,
            ranks1: false,
        };
        engine.configure(&hello)?;
        Ok(engine)
    }

    /// Sends the settings after the handshake and, for UCI, waits for `readyok`.
    fn configure(&mut self, hello: &Hello) -> Result<(), Failure> {
        let listed = |name: &str| hello.options.iter().any(|o| o.eq_ignore_ascii_case(name));
        match self.protocol {
            Protocol::Ucci => {
                if listed("usemillisec") {
                    self.send("setoption usemillisec true")?;
                    self.millisec = true;
                }
            }
            Protocol::Uci => {
                let variant = match self.config.variant {
                    VariantChoice::Auto => hello.xiangqi_variant,
                    VariantChoice::Xiangqi => true,
                    VariantChoice::None => false,
                };
                if variant {
                    self.send("setoption name UCI_Variant value xiangqi")?;
                    self.ranks1 = true;
                }
            }
        }
        for line in self.config.conf_lines.clone() {
            self.send(&line)?;
        }
        for (name, value) in self.config.options.clone() {
            let line = match (self.protocol, value.is_empty()) {
                (Protocol::Ucci, true) => format!("setoption {name}"),
                (Protocol::Ucci, false) => format!("setoption {name} {value}"),
                (Protocol::Uci, true) => format!("setoption name {name}"),
                (Protocol::Uci, false) => format!("setoption name {name} value {value}"),
            };
            self.send(&line)?;
        }
        if self.protocol == Protocol::Uci {
            self.send("isready")?;
            let deadline = Instant::now() + self.config.handshake;
            self.wait_for("readyok", deadline)?;
        }
        Ok(())
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

    /// How this engine names squares.
    fn naming(&self) -> SquareNaming {
        if self.ranks1 {
            SquareNaming::OneBased
        } else {
            SquareNaming::ZeroBased
        }
    }

    /// `true` when squares are named with ranks 1-10 (a UCI multi-variant engine).
    #[must_use]
    pub fn ranks1(&self) -> bool {
        self.ranks1
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

    /// A move as this engine writes squares.
    #[must_use]
    pub fn move_text(&self, m: Move) -> String {
        self.naming().format(m)
    }

    /// The `position` command for a line.
    fn position_command(&self, line: Line<'_>) -> String {
        let mut cmd = format!("position fen {}", line.fen);
        if !line.moves.is_empty() {
            cmd.push_str(" moves");
            for &m in line.moves {
                cmd.push(' ');
                cmd.push_str(&self.move_text(m));
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
        self.process.drain();
        let position = match self.protocol {
            Protocol::Ucci => self.position_command(req.since_capture),
            Protocol::Uci => self.position_command(req.from_start),
        };
        self.send(&position)?;
        if self.protocol == Protocol::Ucci && !req.banned.is_empty() {
            let list: Vec<String> = req.banned.iter().map(|&m| self.move_text(m)).collect();
            self.send(&format!("banmoves {}", list.join(" ")))?;
        }
        let go = self.go_command(req);
        let grace = u64::try_from(self.config.grace.as_millis()).unwrap_or(u64::MAX);
        let started = Instant::now();
        self.send(&go)?;
        let stop_at = started + Duration::from_millis(req.own.shown_ms());
        let flag_at = started + Duration::from_millis(req.own.budget_ms(grace));
        let mut stopped = false;
        let (mut score, mut depth) = (None, None);
        let mut book = false;
        loop {
            // Looked at before every line too: an engine that writes `info` without a pause
            // must not hold the stop up.
            if req.interrupt.is_set() {
                return Err(Failure::Interrupted);
            }
            let wait_until = if stopped {
                flag_at
            } else {
                stop_at.min(flag_at)
            };
            match self
                .process
                .recv_until(wait_until.min(Instant::now() + interrupt::POLL))
            {
                Ok((line, at)) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("info") => {
                            read_info(&line, &mut score, &mut depth);
                            book |= is_book_info(&line);
                        }
                        Some("bestmove") => {
                            let elapsed = at.saturating_duration_since(started);
                            let mut reply = self.read_bestmove(&line, elapsed, score, depth)?;
                            reply.book = book;
                            return Ok(reply);
                        }
                        Some("nobestmove") => {
                            return Ok(Reply {
                                mv: None,
                                text: "nobestmove".to_owned(),
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
                // Only a poll: the deadline is still ahead.
                Err(RecvError::Timeout) if Instant::now() < wait_until => {}
                Err(RecvError::Timeout) if !stopped && Instant::now() < flag_at => {
                    self.send("stop")?;
                    stopped = true;
                }
                Err(RecvError::Timeout) => return Err(Failure::Timeout),
                Err(RecvError::Disconnected) => return Err(self.disconnected()),
            }
        }
    }

    /// Reads `bestmove MOVE [ponder MOVE] [draw|resign]`.
    fn read_bestmove(
        &self,
        line: &str,
        elapsed: Duration,
        score: Option<EngineScore>,
        depth: Option<u32>,
    ) -> Result<Reply, Failure> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let text = words.get(1).copied().unwrap_or("");
        let draw = words.iter().skip(2).any(|&w| w == "draw");
        let resign = words.iter().skip(1).any(|&w| w == "resign");
        let mv = if matches!(text, "0000" | "(none)" | "none" | "resign" | "") {
            None
        } else {
            match parse_engine_move(text, self.ranks1) {
                Some(m) => Some(m),
                None if resign => None,
                None => return Err(Failure::Garbage(line.to_owned())),
            }
        };
        if text.is_empty() && !resign {
            return Err(Failure::Garbage(line.to_owned()));
        }
        Ok(Reply {
            mv,
            text: text.to_owned(),
            draw,
            resign,
            elapsed,
            score,
            depth,
            book: false,
        })
    }
}

/// Sends `ucci` or `uci` and reads `id` and `option` lines until `ucciok`/`uciok`.
///
/// In `probe` mode a line that complains about an unknown command ends the wait early.
/// Outside probe mode (the UCI attempt after a UCCI probe) a late `ucciok` is accepted; it is
/// reported with the marker option `"\0ucci"`.
fn handshake(
    process: &mut Process,
    protocol: Protocol,
    deadline: Instant,
    probe: bool,
) -> Result<Hello, Failure> {
    let (hello_cmd, ok) = match protocol {
        Protocol::Ucci => ("ucci", "ucciok"),
        Protocol::Uci => ("uci", "uciok"),
    };
    let gone = |process: &mut Process| Failure::Disconnected {
        status: process.exit_status(),
        stderr: process.stderr_tail(),
    };
    if process.send(hello_cmd).is_err() {
        return Err(gone(process));
    }
    let mut hello = Hello::default();
    loop {
        match process.recv_until(deadline) {
            Ok((line, _)) => {
                let line = line.trim();
                let mut words = line.split_whitespace();
                match words.next() {
                    Some(w) if w == ok => return Ok(hello),
                    Some("ucciok") if !probe => {
                        hello.options.push("\0ucci".to_owned());
                        return Ok(hello);
                    }
                    Some("id") if words.next() == Some("name") => {
                        let name = words.collect::<Vec<_>>().join(" ");
                        if !name.is_empty() {
                            hello.id_name = Some(name);
                        }
                    }
                    Some("option") => read_option(line, &mut hello),
                    _ if probe && line.to_ascii_lowercase().contains("unknown") => {
                        return Err(Failure::Handshake(format!("{hello_cmd}: {line}")));
                    }
                    _ => {}
                }
            }
            Err(RecvError::Timeout) => {
                return Err(Failure::Handshake(format!("no {ok} in time")));
            }
            Err(RecvError::Disconnected) => return Err(gone(process)),
        }
    }
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
        Protocol::Uci => uci_go(own, opp, req.red_to_move),
    }
}

/// Records an `option` line: UCCI `option NAME type ...`, UCI `option name NAME type ...`.
fn read_option(line: &str, hello: &mut Hello) {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) == Some(&"name") {
        let end = words
            .iter()
            .position(|&w| w == "type")
            .unwrap_or(words.len());
        let name = words[2..end.max(2)].join(" ");
        if name.eq_ignore_ascii_case("UCI_Variant")
            && words
                .windows(2)
                .any(|w| w[0] == "var" && w[1].eq_ignore_ascii_case("xiangqi"))
        {
            hello.xiangqi_variant = true;
        }
        hello.options.push(name);
    } else if let Some(name) = words.get(1) {
        hello.options.push((*name).to_owned());
    }
}

/// Reads a move as an engine writes it: ICCS `h2e2` (also `H2-E2`), or with `ranks1` the
/// Fairy-Stockfish form with ranks 1-10 (`h3e3`, `b10c8`).
#[must_use]
pub fn parse_engine_move(text: &str, ranks1: bool) -> Option<Move> {
    let naming = if ranks1 {
        SquareNaming::OneBased
    } else {
        SquareNaming::ZeroBased
    };
    naming.parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_square_namings() {
        let m = parse_engine_move("h2e2", false).unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(parse_engine_move("h3e3", true), Some(m));
        assert_eq!(
            parse_engine_move("b10c8", true).map(|m| m.to_string()),
            Some("b9c7".to_owned())
        );
        for bad in ["", "h2", "h0e0", "j1a1", "a11a1", "a01a2", "a1a1", "b10c8x"] {
            assert_eq!(parse_engine_move(bad, true), None, "{bad}");
        }
        assert_eq!(parse_engine_move("x9z9", false), None);
    }

    #[test]
    fn reads_uci_options() {
        let mut hello = Hello::default();
        read_option(
            "option name UCI_Variant type combo default chess var chess var xiangqi",
            &mut hello,
        );
        read_option("option name Move Overhead type spin default 10", &mut hello);
        read_option("option usemillisec type check default true", &mut hello);
        assert!(hello.xiangqi_variant);
        assert_eq!(
            hello.options,
            ["UCI_Variant", "Move Overhead", "usemillisec"]
        );
    }
}
