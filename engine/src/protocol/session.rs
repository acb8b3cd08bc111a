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
use std::thread;
use std::time::{Duration, Instant};

use super::command::{Command, CommandError, GoParams, PositionSpec};
use super::options::{self, OptionId, Proto};
use super::output::Writer;
use super::uci::SquareNaming;
use super::{ucci, uci};
use crate::api::{Engine, Event, GoRequest, centipawns};
use crate::resources;
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

/// Settings that are not search options.
#[derive(Clone, Debug)]
struct Settings {
    millis: bool,
    batch: bool,
    debug: bool,
    ponder: bool,
    move_overhead: Duration,
    naming: SquareNaming,
    /// `usennue` / `Use NNUE`: evaluate with a network (else the hand-written evaluation).
    use_nnue: bool,
    /// The file of `evalfile` / `EvalFile` and its network; `None`: the built-in one.
    net_file: Option<(
        std::path::PathBuf,
        std::sync::Arc<chariot_eval::nnue::Network>,
    )>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            millis: false,
            batch: false,
            debug: false,
            ponder: false,
            move_overhead: Duration::from_millis(30),
            naming: SquareNaming::ZeroBased,
            use_nnue: true,
            net_file: None,
        }
    }
}

/// What [`Session::handle`] tells the read loop.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was handled: stop reading.
    Quit,
}

/// The engine's state between commands.
pub struct Session {
    proto: Option<Proto>,
    out: Output,
    settings: Settings,
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
            settings: Settings::default(),
            terminal,
            engine: Engine::new(),
            rejected: None,
        }
    }

    /// Where the session writes.
    #[must_use]
    pub fn output(&self) -> &Output {
        &self.out
    }

    fn writer(&self) -> Writer {
        Writer {
            proto: self.proto.unwrap_or(Proto::Ucci),
            naming: self.settings.naming,
        }
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
        self.settings.batch && self.engine.has_search()
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

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let parsed = match self.proto {
            Some(Proto::Uci) => uci::parse(line),
            _ => match line.split_whitespace().next() {
                Some("uci") if self.proto.is_none() => Ok(Command::Uci),
                _ => ucci::parse(line, self.settings.millis),
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
                self.settings.debug = *on;
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
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    self.error(&e);
                }
            }
            Command::NewGame => self.new_game(),
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
                let naming = self.settings.naming;
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
                let naming = self.settings.naming;
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

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Gives the engine the evaluation `usennue` and `evalfile` ask for, and says which.
    fn apply_network(&mut self) {
        let net = if self.settings.use_nnue {
            match &self.settings.net_file {
                Some((_, n)) => Some(std::sync::Arc::clone(n)),
                // The built-in network (`None` only if its bytes were damaged).
                None => resources::default_network(),
            }
        } else {
            None
        };
        let file = self
            .settings
            .net_file
            .as_ref()
            .map(|(path, _)| path.as_path());
        let said = format!(
            "info string evaluating with {}",
            resources::describe_evaluation(net.as_deref(), file)
        );
        self.engine.set_network(net);
        self.say(&said);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let Some(id) = options::lookup(name) else {
            // UCCI: options the engine did not list are not an error ("并不会出错"); say so once.
            return if self.proto == Some(Proto::Uci) {
                Err(format!("unknown option {name:?}"))
            } else {
                self.say(&format!(
                    "info string option {name:?} is not supported and was ignored"
                ));
                Ok(())
            };
        };
        let mut options = self.engine.options().clone();
        match id {
            OptionId::UseMillisec => self.settings.millis = options::check(name, value)?,
            OptionId::Batch => self.settings.batch = options::check(name, value)?,
            OptionId::Debug => self.settings.debug = options::check(name, value)?,
            OptionId::Ponder => self.settings.ponder = options::check(name, value)?,
            OptionId::Hash => {
                let mb = options::spin(name, value, 0, 32768)?;
                // 0 lets the engine choose (UCCI): 64 MiB.
                options.hash_mb = if mb == 0 { 64 } else { mb as usize };
            }
            OptionId::Threads => {
                let n = options::spin(name, value, 0, 256)?;
                options.threads = if n == 0 {
                    thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    n as usize
                };
            }
            OptionId::Idle => options.idle = options::level(name, value)?,
            OptionId::Pruning => options.pruning = options::level(name, value)?,
            OptionId::Knowledge => options.knowledge = options::level(name, value)?,
            OptionId::Randomness => options.randomness = options::level(name, value)?,
            OptionId::Style => options.style = options::style(name, value)?,
            OptionId::MultiPv => options.multipv = options::spin(name, value, 1, 64)? as usize,
            OptionId::MoveOverhead => {
                self.settings.move_overhead =
                    Duration::from_millis(options::spin(name, value, 0, 5000)? as u64);
            }
            OptionId::Variant => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("xiangqi") => self.settings.naming = SquareNaming::OneBased,
                _ => {
                    return Err(format!(
                        "UCI_Variant: only xiangqi is supported{}",
                        options::found(value)
                    ));
                }
            },
            OptionId::UseBook => self.engine.set_use_book(options::check(name, value)?),
            OptionId::BookFiles => {
                let paths = resources::parse_list(value.unwrap_or(""));
                self.engine.set_books(
                    resources::load_books(&paths)
                        .map_err(|e| format!("bookfiles: {e} (the previous books are kept)"))?,
                );
                let n = self.engine.books().books().len();
                let entries = self.engine.book_entries();
                self.say(&format!(
                    "info string {} loaded, {}",
                    count(n, "book file", "book files"),
                    count(entries, "entry", "entries")
                ));
            }
            OptionId::UseEgtb => self.engine.set_use_egtb(options::check(name, value)?),
            OptionId::EgtbPaths => {
                let paths = resources::parse_list(value.unwrap_or(""));
                let (tables, errors) = resources::load_tables(&paths);
                for e in &errors {
                    self.error(&format!("egtbpaths: {e}"));
                }
                let found = tables.len();
                self.engine.set_tables(tables);
                self.say(&format!(
                    "info string {} found",
                    count(found, "endgame table", "endgame tables")
                ));
            }
            OptionId::UseNnue => {
                self.settings.use_nnue = options::check(name, value)?;
                self.apply_network();
            }
            OptionId::EvalFile => {
                self.settings.net_file = match resources::parse_path(value.unwrap_or("")) {
                    None => None,
                    Some(path) => {
                        let net = resources::load_network_file(&path).map_err(|e| {
                            format!("evalfile: {e} (the previous evaluation is kept)")
                        })?;
                        Some((path, net))
                    }
                };
                self.apply_network();
            }
            OptionId::NewGame => self.new_game(),
            OptionId::ClearHash => self.engine.clear_hash(),
        }
        self.engine.set_options(options);
        Ok(())
    }

    /// Parses a move text in the session's square naming against `pos`.
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let m = match self.settings.naming {
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
                line += &format!(" bestmove {}", self.settings.naming.format(m));
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
            move_overhead: self.settings.move_overhead,
            ponder: self.settings.ponder,
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
fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    match message.char_indices().nth(MESSAGE_LIMIT) {
        None => message.into(),
        Some((cut, _)) => format!("{}... ({} bytes in all)", &message[..cut], message.len()).into(),
    }
}

/// `"1 book file"`, `"2 book files"`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
