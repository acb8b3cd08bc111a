//! The protocol state machine: one typed driver behind both protocols, over the engine API.
//!
//! A [`Session`] turns commands into calls on [`Engine`] (which owns the position, the searcher,
//! the books, the tables and the search thread) and writes the engine's events in the session's
//! protocol ([`super::output`]). Lines are read on their own thread ([`super::stdio`]), so
//! `stop`, `isready`, `ponderhit` and `quit` are answered while thinking.
//!
//! States, as UCCI names them: *boot* until `ucci` or `uci` (other commands there are taken as
//! UCCI), *idle*, and *thinking* while a search runs. In the thinking state, `isready`, `stop`,
//! `ponderhit`, `probe` and `quit` are served at once; commands that need the idle state are
//! refused with an error line, unless `stop` was already sent, in which case they wait for the
//! `bestmove` and then run (GUIs send `position` right after `stop`). In batch mode (UCCI
//! `setoption batch true`) no command is read while thinking: they queue until `bestmove`.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::command::{Command, CommandError, GoParams, PositionSpec};
use super::output::Writer;
use super::uci::SquareNaming;
use super::{Proto, options, ucci, uci};
use crate::api::{Engine, Event, GoRequest, Notice, OptionError, centipawns};
use crate::search::{Limits, TimeLeft};
use chariot_rules::display::{DiagramStyle, diagram};
use chariot_rules::perft::divide;
use chariot_rules::{Color, Move, Position};

/// Engine name and author, as `id` reports them.
pub const NAME: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const AUTHOR: &str = "the Chariot developers";

/// A shared, line-oriented output.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes a line and flushes it.
pub fn emit(out: &Output, line: &str) {
    // A GUI that closed its end of the pipe cannot be told anything; ignore write errors.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// What [`Session::handle`] tells the read loop.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was handled: stop reading.
    Quit,
    /// `xboard` was read before a protocol was chosen: the caller hands the engine
    /// ([`Session::into_engine`]) to XBoard's protocol, CECP (`super::cecp`).
    Xboard,
}

/// The engine's state between commands.
pub struct Session {
    proto: Option<Proto>,
    out: Output,
    terminal: bool,
    engine: Engine,
    /// Why the last `position` was rejected, until a valid one comes: the engine's position is
    /// then not the GUI's, so `go` answers without a move and `banmoves` is refused.
    rejected: Option<String>,
}

impl Session {
    /// A session writing to `out`. `terminal` turns on colours in board diagrams.
    #[must_use]
    pub fn new(out: Output, terminal: bool) -> Session {
        Session {
            proto: None,
            out,
            terminal,
            engine: Engine::new(),
            rejected: None,
        }
    }

    /// The engine, for another protocol's front end (after [`Flow::Xboard`]).
    #[must_use]
    pub fn into_engine(self) -> Engine {
        self.engine
    }

    /// Where the session writes.
    #[must_use]
    pub fn output(&self) -> &Output {
        &self.out
    }

    fn writer(&self) -> Writer {
        Writer {
            proto: self.proto.unwrap_or(Proto::Ucci),
            naming: self.naming(),
        }
    }

    /// How the session names squares (ranks 1-10 after `UCI_Variant xiangqi`).
    fn naming(&self) -> SquareNaming {
        self.engine.settings().naming
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn error(&self, message: &str) {
        self.say(&format!("info string error: {}", shorten(message)));
    }

    /// Waits for the running search (if any) and takes the searcher back.
    fn join(&mut self) {
        if !self.engine.join() {
            // The search panicked: report it and carry on with a fresh searcher.
            self.error("the search failed unexpectedly; the hash table was reset");
        }
    }

    /// `true` in batch mode after a `go`: the read loop must not read until the search ends.
    #[must_use]
    pub fn blocks_input(&self) -> bool {
        self.engine.settings().batch && self.engine.has_search()
    }

    /// Waits for the current search to finish (batch mode).
    pub fn wait(&mut self) {
        self.join();
    }

    /// At the end of input: lets a running search finish and answer (so that piped command
    /// files work like batch mode), but stops one that would only end when told to.
    pub fn shutdown(&mut self) {
        if self.engine.is_open_ended() {
            self.engine.stop();
        }
        self.join();
    }

    /// Handles one input line. With the `debug` option on (UCCI `setoption debug true`, UCI
    /// `debug on`), the line is first echoed as `info string debug: <line>` (ElephantEye's `debug`
    /// option is the model), so that a GUI's engine window shows what the engine was sent.
    pub fn handle(&mut self, line: &str) -> Flow {
        if self.engine.settings().debug {
            self.say(&format!("info string debug: {}", shorten(line)));
        }
        let parsed = match self.proto {
            Some(Proto::Uci) => uci::parse(line),
            _ => match line.split_whitespace().next() {
                Some("uci") if self.proto.is_none() => Ok(Command::Uci),
                Some("xboard") if self.proto.is_none() => {
                    // A search started by a person before `xboard` ends here; CECP starts
                    // with an idle engine.
                    self.engine.stop();
                    self.join();
                    return Flow::Xboard;
                }
                _ => ucci::parse(line, self.engine.settings().use_millisec),
            },
        };
        match parsed {
            Ok(cmd) => self.execute(cmd),
            Err(CommandError(e)) => {
                self.error(&e);
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, cmd: Command) -> Flow {
        // Commands served in any state.
        match &cmd {
            Command::Empty => return Flow::Continue,
            Command::IsReady => {
                self.say("readyok");
                return Flow::Continue;
            }
            Command::Quit => {
                self.engine.stop();
                self.join();
                if self.proto != Some(Proto::Uci) {
                    self.say("bye");
                }
                return Flow::Quit;
            }
            Command::Stop => {
                // Stop while idle: UCCI answers nobestmove so the GUI does not wait.
                if !self.engine.stop() && self.proto != Some(Proto::Uci) {
                    self.say("nobestmove");
                }
                return Flow::Continue;
            }
            Command::PonderHit { draw } => {
                if !self.engine.ponderhit(*draw) {
                    self.error("ponderhit: the engine is not pondering");
                }
                return Flow::Continue;
            }
            Command::Probe { spec, moves } => {
                match self.build_position(spec, moves) {
                    Ok(pos) => self.say(&self.pophash(&pos)),
                    Err(e) => self.error(&format!("probe: {e}")),
                }
                return Flow::Continue;
            }
            Command::Debug(on) => {
                self.set_option("debug", Some(if *on { "on" } else { "off" }));
                return Flow::Continue;
            }
            _ => {}
        }
        // Everything else needs the idle state.
        if self.engine.is_thinking() && !self.engine.is_stopping() {
            if let Command::Go(_) | Command::GoRejected(_) = cmd {
                // Every go is answered, this one at once: a GUI that counts its answers then
                // still gets one for each go, and never waits for one that will not come.
                self.reject_go("the engine is thinking; send stop first");
            } else {
                self.error("the engine is thinking; send stop first");
            }
            return Flow::Continue;
        }
        self.join();
        match cmd {
            Command::Ucci => self.hello(Proto::Ucci),
            Command::Uci => self.hello(Proto::Uci),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.engine.new_game(),
            Command::Position { spec, moves } => match self.build_position(&spec, &moves) {
                Ok(pos) => {
                    self.rejected = None;
                    self.engine.set_position(pos);
                }
                Err(e) => {
                    self.error(&format!(
                        "position: {e} (go answers without a move until a valid position)"
                    ));
                    self.rejected = Some(e);
                }
            },
            Command::BanMoves(_) if self.rejected.is_some() => {
                self.error("banmoves: the last position was rejected; send a valid position first");
            }
            Command::BanMoves(texts) => match self.parse_moves_here(&texts) {
                Ok(moves) => self.engine.ban_moves(moves),
                Err(e) => self.error(&format!(
                    "banmoves: {e} (the previous banned moves are kept)"
                )),
            },
            Command::Go(params) => self.go(params),
            Command::GoRejected(reason) => self.reject_go(&reason),
            Command::Display => {
                let style = DiagramStyle {
                    ansi: self.terminal,
                    ..DiagramStyle::default()
                };
                for line in diagram(self.engine.position(), style).lines() {
                    self.say(line);
                }
            }
            Command::GoPerft(depth) => {
                let mut pos = self.engine.position().clone();
                let naming = self.naming();
                let total: u64 = if depth == 0 {
                    1
                } else {
                    let rows = divide(&mut pos, depth);
                    for (m, n) in &rows {
                        self.say(&format!("{}: {n}", naming.format(*m)));
                    }
                    rows.iter().map(|r| r.1).sum()
                };
                self.say("");
                self.say(&format!("Nodes searched: {total}"));
            }
            Command::Perft(depth) => {
                let start = Instant::now();
                let mut pos = self.engine.position().clone();
                let rows = divide(&mut pos, depth.max(1));
                let naming = self.naming();
                for (m, n) in &rows {
                    self.say(&format!("{}: {n}", naming.format(*m)));
                }
                let total: u64 = if depth == 0 {
                    1
                } else {
                    rows.iter().map(|r| r.1).sum()
                };
                self.say(&format!(
                    "info string perft {depth} took {} ms",
                    start.elapsed().as_millis()
                ));
                self.say(&total.to_string());
            }
            Command::Eval => {
                let table = chariot_eval::breakdown(
                    self.engine.position(),
                    &chariot_eval::EvalConfig::FULL,
                );
                for line in table.to_string().lines() {
                    self.say(line);
                }
                // The network the search evaluates with, when it does (`usennue`, and the
                // knowledge and style that use it).
                if let Some(net) = self
                    .engine
                    .network()
                    .filter(|_| crate::search::uses_network(self.engine.options()))
                {
                    let v = net.evaluate_position(self.engine.position());
                    self.say(&format!("network evaluation (side to move): {v}"));
                }
            }
            Command::Bench(depth) => {
                let depth = depth.unwrap_or(crate::search::bench::DEFAULT_DEPTH);
                let out = self.out.clone();
                let result = crate::search::bench::run(depth, |i, fen, r| {
                    emit(
                        &out,
                        &format!(
                            "info string bench position {} nodes {} fen {fen}",
                            i + 1,
                            r.nodes
                        ),
                    );
                });
                let ms = result.time.as_millis().max(1);
                self.say(&format!(
                    "info string bench depth {depth}: {} nodes, {ms} ms, {} nodes/second",
                    result.nodes,
                    u128::from(result.nodes) * 1000 / ms
                ));
            }
            Command::Empty
            | Command::IsReady
            | Command::Quit
            | Command::Stop
            | Command::PonderHit { .. }
            | Command::Probe { .. }
            | Command::Debug(_) => unreachable!("handled above"),
        }
        Flow::Continue
    }

    fn hello(&mut self, proto: Proto) {
        self.proto = Some(proto);
        match proto {
            Proto::Ucci => {
                self.say(&format!("id name {NAME}"));
                self.say("id copyright 2026 the Chariot developers, GPL-3.0-or-later");
                self.say(&format!("id author {AUTHOR}"));
                self.say("id user unknown");
            }
            Proto::Uci => {
                self.say(&format!("id name {NAME}"));
                self.say(&format!("id author {AUTHOR}"));
            }
        }
        for line in options::declarations(proto) {
            self.say(&line);
        }
        self.say(match proto {
            Proto::Ucci => "ucciok",
            Proto::Uci => "uciok",
        });
        // What the engine found to play with, once, after the handshake.
        let tables = self.engine.tables();
        self.say(&format!(
            "info string {} endgame tables found, max {} pieces; {} book entries",
            tables.len(),
            tables.max_pieces(),
            self.engine.book_entries()
        ));
    }

    /// Sets an option on the engine and reports what it says, or why it was not set.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.engine.set_option(name, value) {
            Ok(notices) => {
                for notice in notices {
                    match notice {
                        Notice::Note(text) => self.say(&format!("info string {text}")),
                        Notice::Warning(text) => self.error(&text),
                    }
                }
            }
            // UCCI: options the engine did not list are not an error ("并不会出错"); say so once.
            Err(OptionError::Unknown(_)) if self.proto != Some(Proto::Uci) => self.say(&format!(
                "info string option {name:?} is not supported and was ignored"
            )),
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Parses a move text in the session's square naming against `pos`.
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let m = match self.naming() {
            SquareNaming::ZeroBased => {
                chariot_rules::notation::parse_iccs(text).map_err(|e| format!("{text:?}: {e}"))?
            }
            naming => naming
                .parse(text)
                .ok_or_else(|| format!("{text:?} is not a move"))?,
        };
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(format!("{text} is not a legal move in {}", pos.fen()))
        }
    }

    fn parse_moves_here(&self, texts: &[String]) -> Result<Vec<Move>, String> {
        texts
            .iter()
            .map(|t| self.parse_move(self.engine.position(), t))
            .collect()
    }

    fn build_position(&self, spec: &PositionSpec, moves: &[String]) -> Result<Position, String> {
        let mut pos = match spec {
            PositionSpec::Start => Position::start(),
            PositionSpec::Fen(fen) => {
                Position::from_fen(fen).map_err(|e| format!("invalid FEN {fen:?}: {e}"))?
            }
        };
        for (i, text) in moves.iter().enumerate() {
            let m = self
                .parse_move(&pos, text)
                .map_err(|e| format!("move {} {e}", i + 1))?;
            pos.make_move(m);
        }
        Ok(pos)
    }

    fn pophash(&self, pos: &Position) -> String {
        let mut line = String::from("pophash");
        if let Some(p) = self.engine.hash_probe(pos) {
            if let Some(m) = p.best {
                line += &format!(" bestmove {}", self.naming().format(m));
            }
            if let Some((s, d)) = p.lower {
                line += &format!(" lowerbound {} depth {d}", centipawns(s));
            }
            if let Some((s, d)) = p.upper {
                line += &format!(" upperbound {} depth {d}", centipawns(s));
            }
        }
        line
    }

    fn limits(&self, go: &GoParams) -> Result<Limits, String> {
        let searchmoves = go
            .searchmoves
            .iter()
            .map(|t| self.parse_move(self.engine.position(), t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("searchmoves: {e}"))?;
        let (time, increment, opptime) = match go.colour_clocks {
            Some(c) => match self.engine.position().turn() {
                Color::Red => (c.red, c.red_inc, c.black),
                Color::Black => (c.black, c.black_inc, c.red),
            },
            None => (go.time, go.increment, go.opptime),
        };
        let clock = time.map(|time| TimeLeft {
            time,
            increment,
            movestogo: go.movestogo,
            opptime,
            move_overhead: self.engine.settings().move_overhead,
            ponder: self.engine.settings().ponder,
        });
        Ok(Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            clock,
            infinite: go.infinite,
            mate: go.mate,
            searchmoves,
            banmoves: Vec::new(),
        })
    }

    /// Answers a `go` that will not search: the reason, then the protocol's no-move answer.
    fn reject_go(&self, reason: &str) {
        let reason = reason.strip_prefix("go: ").unwrap_or(reason);
        self.error(&format!("go: {reason}; answering without a move"));
        for line in self.writer().no_move(false) {
            self.say(&line);
        }
    }

    fn go(&mut self, params: GoParams) {
        if let Some(why) = &self.rejected {
            // Searching the previous position would play a move for a board the GUI no
            // longer shows.
            return self.reject_go(&format!(
                "the last position was rejected ({why}); send a valid position"
            ));
        }
        if !params.ignored.is_empty() {
            self.say(&shorten(&format!(
                "info string go: ignored {} (not understood)",
                params.ignored.join(" ")
            )));
        }
        let limits = match self.limits(&params) {
            Ok(l) => l,
            Err(e) => return self.reject_go(&e),
        };
        let request = GoRequest {
            limits,
            ponder: params.ponder,
            draw_offered: params.draw,
        };
        let (out, writer) = (self.out.clone(), self.writer());
        let listen = Box::new(move |event: Event<'_>| match event {
            Event::Search(r) => {
                if let Some(line) = writer.report(&r) {
                    emit(&out, &line);
                }
            }
            Event::Note(text) => emit(&out, &format!("info string {text}")),
            Event::Warning(text) => {
                emit(&out, &format!("info string error: {}", shorten(&text)));
            }
            Event::Done(answer) => {
                for line in writer.answer(answer) {
                    emit(&out, &line);
                }
            }
        });
        if let Err(e) = self.engine.go(request, listen) {
            self.reject_go(&e.to_string());
        }
    }
}

/// Messages longer than this many characters are cut (an unknown 200 KB line is not echoed
/// back whole).
const MESSAGE_LIMIT: usize = 200;

/// `message`, or its first [`MESSAGE_LIMIT`] characters and how long it was.
pub(super) fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    match message.char_indices().nth(MESSAGE_LIMIT) {
        None => message.into(),
        Some((cut, _)) => format!("{}... ({} bytes in all)", &message[..cut], message.len()).into(),
    }
}
