//! A UCI client for international-chess engines: one engine's side of a `chess-board match`
//! game.
//!
//! `chariot-league` has a UCI client, but it is typed to Xiangqi moves; this one speaks the same
//! protocol over the same child process ([`chariot_matchkit::process::Process`]: a reader
//! thread per engine, every wait a channel wait with a deadline, never a read on a pipe) and
//! leaves the moves as text; the failures ([`Failure`]), the scores ([`EngineScore`]), the one
//! `info` parser ([`read_info`]: a bound score is not the score, and is skipped) and the `go`
//! line ([`uci_go`]) are the match kit's, shared with the league's client. Reading a move is
//! the referee's business: it parses the text with shakmaty's
//! [`UciMove`](shakmaty::uci::UciMove) and then checks it against the position (`to_move`), so
//! a malformed or illegal `bestmove` is judged there, with the position at hand.
//!
//! The conversation: `uci` → `id name ...`, `option ...`, `uciok`; `setoption name N value V`
//! for each `option.N=V`; `isready` → `readyok`. Each game: `ucinewgame`, `isready` →
//! `readyok`; each move: `position startpos|fen F moves m1 m2 ...`, `go wtime W btime B winc I
//! binc I [movestogo N]`, `info ... score cp|mate ...` lines (the last is kept for the PGN
//! comment), `bestmove M`. Dropping the engine writes `quit`, waits a moment and kills it.

use std::time::{Duration, Instant};

use chariot_matchkit::clock::{Clock, TimeControl};
use chariot_matchkit::engine::{EngineScore, Failure};
use chariot_matchkit::engine::{read_info, uci_go};
use chariot_matchkit::process::{Launch, Process, RecvError};

/// How to start and set up one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The name in the output and the PGN; the engine's `id name` when `None`.
    pub name: Option<String>,
    /// Program, arguments, working directory.
    pub launch: Launch,
    /// `setoption name N value V` after the handshake, in this order.
    pub options: Vec<(String, String)>,
    /// The time control.
    pub tc: TimeControl,
    /// Grace after the clock runs out before the loss on time.
    pub grace: Duration,
    /// Time allowed for `uciok` and for each `readyok`.
    pub handshake: Duration,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move as written after `bestmove` (not yet read nor checked).
    pub text: String,
    /// Time from `go` to the `bestmove` line.
    pub elapsed: Duration,
    /// The last score the engine reported.
    pub score: Option<EngineScore>,
    /// The last depth the engine reported.
    pub depth: Option<u32>,
}

/// The position to think about: a start and the moves after it, in UCI notation.
#[derive(Clone, Copy, Debug)]
pub struct PositionLine<'a> {
    /// The start position's FEN; `None` for the standard start (`position startpos`).
    pub fen: Option<&'a str>,
    /// The moves from it (`e2e4`, `e1g1`, `e7e8q`).
    pub moves: &'a [String],
}

/// A started engine, past its handshake.
pub struct UciEngine {
    process: Process,
    id_name: Option<String>,
    handshake: Duration,
}

impl UciEngine {
    /// Starts the engine, runs the handshake and sends its options.
    ///
    /// `trace` labels its traffic on standard error (`--debug`).
    ///
    /// # Errors
    ///
    /// [`Failure::Spawn`], [`Failure::Handshake`] or [`Failure::Disconnected`].
    pub fn start(config: &EngineConfig, trace: Option<String>) -> Result<UciEngine, Failure> {
        let process = Process::spawn(&config.launch, trace)
            .map_err(|e| Failure::Spawn(format!("{}: {e}", config.launch.command.display())))?;
        let mut engine = UciEngine {
            process,
            id_name: None,
            handshake: config.handshake,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + config.handshake;
        loop {
            let line = engine.recv(deadline, "no uciok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), _) => break,
                (Some("id"), Some("name")) => {
                    let name = line.trim_start()["id".len()..].trim_start()["name".len()..].trim();
                    if !name.is_empty() {
                        engine.id_name = Some(name.to_owned());
                    }
                }
                _ => {}
            }
        }
        for (name, value) in &config.options {
            let line = if value.is_empty() {
                format!("setoption name {name}")
            } else {
                format!("setoption name {name} value {value}")
            };
            engine.send(&line)?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// The engine's `id name`, if it gave one.
    #[must_use]
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Tells the engine a new game starts (`ucinewgame`) and waits for it to be ready.
    ///
    /// # Errors
    ///
    /// [`Failure::Handshake`] without `readyok` in time, [`Failure::Disconnected`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// `isready` → `readyok`.
    fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        let deadline = Instant::now() + self.handshake;
        loop {
            if self.recv(deadline, "no readyok")?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Sends the position and `go` with both clocks, and waits for `bestmove` until the mover's
    /// time left plus `grace` has passed since `go` was written. `own` is the mover's clock.
    ///
    /// # Errors
    ///
    /// [`Failure::Timeout`], [`Failure::Disconnected`], or [`Failure::Garbage`] for a
    /// `bestmove` without a move.
    pub fn think(
        &mut self,
        line: PositionLine<'_>,
        white_to_move: bool,
        own: &Clock,
        opp: &Clock,
        grace: Duration,
    ) -> Result<Reply, Failure> {
        // Whatever the engine wrote when nobody asked (a late `info`) is not an answer.
        self.process.drain();
        let mut position = match line.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_owned(),
        };
        if !line.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&line.moves.join(" "));
        }
        self.send(&position)?;
        let go = uci_go(own, opp, white_to_move);
        let grace_ms = u64::try_from(grace.as_millis()).unwrap_or(u64::MAX);
        self.send(&go)?;
        let sent = Instant::now();
        let deadline = sent + Duration::from_millis(own.budget_ms(grace_ms));
        let (mut score, mut depth) = (None, None);
        loop {
            let (text, at) = match self.process.recv_until(deadline) {
                Ok(got) => got,
                Err(RecvError::Timeout) => return Err(Failure::Timeout),
                Err(RecvError::Disconnected) => return Err(self.disconnected()),
            };
            let mut words = text.split_whitespace();
            match words.next() {
                Some("info") => read_info(&text, &mut score, &mut depth),
                Some("bestmove") => {
                    let Some(mv) = words.next() else {
                        return Err(Failure::Garbage(text));
                    };
                    return Ok(Reply {
                        text: mv.to_owned(),
                        elapsed: at.saturating_duration_since(sent),
                        score,
                        depth,
                    });
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        // A write error means the engine is gone; say how it ended.
        self.process.send(line).map_err(|_| self.disconnected())
    }

    fn recv(&mut self, deadline: Instant, missing: &str) -> Result<String, Failure> {
        match self.process.recv_until(deadline) {
            Ok((line, _)) => Ok(line),
            Err(RecvError::Timeout) => Err(Failure::Handshake(format!(
                "{missing} within {:.1} s",
                self.handshake.as_secs_f64()
            ))),
            Err(RecvError::Disconnected) => Err(self.disconnected()),
        }
    }

    fn disconnected(&mut self) -> Failure {
        Failure::Disconnected {
            status: self.process.exit_status_within(Duration::from_millis(500)),
            stderr: self.process.stderr_tail(),
        }
    }
}
