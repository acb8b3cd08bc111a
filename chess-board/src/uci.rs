//! UCI chess engines for `chess-board match`: one engine's side of a game, over the match kit's
//! one UCCI/UCI client (`chariot_matchkit::client`, which the league's Xiangqi client also
//! uses): the process with a reader thread and deadline waits, the handshake, `setoption`,
//! `ucinewgame`/`isready`, `position`, `go` with both clocks, `stop` when the mover's time is
//! up, the one `info` parser (a bound score is not the score, and is skipped) and the failures.
//!
//! Moves stay text. Reading a move is the referee's business: it parses the text with
//! shakmaty's [`UciMove`](shakmaty::uci::UciMove) and then checks it against the position
//! (`to_move`), so a malformed or illegal `bestmove` is judged there, with the position at hand.
//! A `bestmove` without a move (`0000`, `(none)`) is [`Failure::Garbage`] here: the referee asks
//! only in positions that have legal moves.

use std::time::Duration;

use chariot_matchkit::client::{self, Protocol, ProtocolChoice, VariantChoice};
use chariot_matchkit::clock::{Clock, TimeControl};
use chariot_matchkit::engine::{EngineScore, Failure};
use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::process::Launch;
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
    client: client::Engine,
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
        let kit = client::EngineConfig {
            name: config.name.clone(),
            launch: config.launch.clone(),
            protocol: ProtocolChoice::Fixed(Protocol::Uci),
            variant: VariantChoice::None,
            conf_lines: Vec::new(),
            options: config.options.clone(),
            tc: config.tc,
            nodes: None,
            grace: config.grace,
            handshake: config.handshake,
        };
        client::Engine::start(&kit, None, trace).map(|client| UciEngine { client })
    }

    /// The engine's `id name`, if it gave one.
    #[must_use]
    pub fn id_name(&self) -> Option<&str> {
        self.client.id_name()
    }

    /// Tells the engine a new game starts (`ucinewgame`) and waits for it to be ready.
    ///
    /// # Errors
    ///
    /// [`Failure::Handshake`] without `readyok` in time, [`Failure::Disconnected`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.client.new_game()
    }

    /// Sends the position and `go` with both clocks (`own` is the mover's), `stop` when the
    /// mover's time is up, and waits for `bestmove` until its grace has passed too.
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
    ) -> Result<Reply, Failure> {
        let position = client::Line {
            fen: line.fen,
            moves: line.moves,
        };
        let reply = self.client.think(&client::Think {
            since_capture: position,
            from_start: position,
            banned: &[],
            own,
            opp,
            first_to_move: white_to_move,
            draw_offered: false,
            interrupt: &Interrupt::default(),
        })?;
        let Some(text) = reply.mv else {
            return Err(Failure::Garbage(reply.line));
        };
        Ok(Reply {
            text,
            elapsed: reply.elapsed,
            score: reply.score,
            depth: reply.depth,
        })
    }
}
