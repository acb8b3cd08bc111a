//! The engine driver: one typed state machine behind both protocols.
//!
//! A [`Session`] holds the position, the banned moves, the settings and the searcher. Lines are
//! read on their own thread (so `stop`, `isready`, `ponderhit` and `quit` are answered while
//! thinking) and handed to [`Session::handle`]; each search runs on a worker thread that owns the
//! searcher until it prints `bestmove` and hands the searcher back.
//!
//! States, as UCCI names them: *boot* until `ucci` or `uci` (other commands there are taken as
//! UCCI), *idle*, and *thinking* while a worker runs. In the thinking state, `isready`, `stop`,
//! `ponderhit`, `probe` and `quit` are served at once; commands that need the idle state are
//! refused with an error line, unless `stop` was already sent, in which case they wait for the
//! `bestmove` and then run (GUIs send `position` right after `stop`). In batch mode (UCCI
//! `setoption batch true`) no command is read while thinking: they queue until `bestmove`.

use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::command::{Command, CommandError, GoParams, PositionSpec};
use super::options::{self, OptionId, Proto};
use super::uci::SquareNaming;
use super::{ucci, uci};
use crate::book::{Book, BookMove, BookSet, choose};
use crate::display::{DiagramStyle, diagram};
use crate::egtb::{Tablebases, Value as TbValue};
use crate::rules::perft::divide;
use crate::rules::{Color, Move, Position};
use crate::search::score::tb_rule_win_at;
use crate::search::{
    Bound, Clock, Control, HashView, Info, Level, Limits, Options, Report, Score, SearchResult,
    Searcher,
};

/// Engine name and author, as `id` reports them.
pub const NAME: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));
/// The author line.
pub const AUTHOR: &str = "the Chariot developers";

/// A shared, line-oriented output.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn emit(out: &Output, line: &str) {
    // A GUI that closed its end of the pipe cannot be told anything; ignore write errors.
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// Scores within this many centipawns of zero are "dead even" for draw offers.
const DRAW_MARGIN: i32 = 20;
/// A side this far behind (or mated) on consecutive moves resigns.
const RESIGN_SCORE: i32 = -1500;
/// How many consecutive own moves the resign and draw-offer conditions must hold.
const RESIGN_MOVES: usize = 4;
const DRAW_OFFER_MOVES: usize = 10;
/// UCCI scores mates as `MATE_UCCI - plies`, as ElephantEye does.
const MATE_UCCI: i32 = 10_000;

/// What the engine remembers of the game between moves (for draw offers and resignation).
#[derive(Clone, Debug, Default)]
struct GameMemory {
    /// Scores of our last searches, in centipawns from our side (mates as ±MATE_UCCI).
    scores: Vec<i32>,
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
    use_book: bool,
    use_egtb: bool,
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
            use_book: true,
            use_egtb: true,
        }
    }
}

struct Worker {
    handle: JoinHandle<(Searcher, GameMemory)>,
    control: Arc<Control>,
    draw_offered: Arc<AtomicBool>,
    /// Set just before the worker prints its final answer: from then on the engine is idle,
    /// even if the thread has not quite returned yet.
    answered: Arc<AtomicBool>,
    /// The search only ends when told to (`go infinite`, `go ponder`).
    open_ended: bool,
}

impl Worker {
    fn busy(&self) -> bool {
        !self.answered.load(Ordering::SeqCst)
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
    position: Position,
    banmoves: Vec<Move>,
    settings: Settings,
    options: Options,
    searcher: Option<Searcher>,
    hash: HashView,
    worker: Option<Worker>,
    memory: GameMemory,
    terminal: bool,
    books: BookSet,
    rng: u64,
    tables: Arc<Tablebases>,
}

impl Session {
    /// A session writing to `out`. `terminal` turns on colours in board diagrams.
    #[must_use]
    pub fn new(out: Output, terminal: bool) -> Session {
        let options = Options::default();
        let mut searcher = Searcher::new(options.clone());
        let hash = searcher.hash_view();
        let tables = Arc::new(Tablebases::open_skipping(&default_table_dirs()).0);
        searcher.set_tablebases(Some(Arc::clone(&tables)));
        Session {
            proto: None,
            out,
            position: Position::start(),
            banmoves: Vec::new(),
            settings: Settings::default(),
            options,
            searcher: Some(searcher),
            hash,
            worker: None,
            memory: GameMemory::default(),
            terminal,
            books: builtin_books(),
            rng: seed(),
            tables,
        }
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    fn error(&self, message: &str) {
        self.say(&format!("info string error: {}", shorten(message)));
    }

    fn thinking(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::busy)
    }

    /// Waits for the running search (if any) and takes the searcher back.
    fn join(&mut self) {
        if let Some(w) = self.worker.take() {
            match w.handle.join() {
                Ok((searcher, memory)) => {
                    self.searcher = Some(searcher);
                    self.memory = memory;
                }
                Err(_) => {
                    // The search panicked: report it and carry on with a fresh searcher.
                    self.error("the search failed unexpectedly; the hash table was reset");
                    let searcher = Searcher::new(self.options.clone());
                    self.hash = searcher.hash_view();
                    self.searcher = Some(searcher);
                }
            }
        }
    }

    /// `true` in batch mode after a `go`: the read loop must not read until the search ends.
    #[must_use]
    pub fn blocks_input(&self) -> bool {
        self.settings.batch && self.worker.is_some()
    }

    /// Waits for the current search to finish (batch mode).
    pub fn wait(&mut self) {
        self.join();
    }

    /// At the end of input: lets a running search finish and answer (so that piped command
    /// files work like batch mode), but stops one that would only end when told to.
    pub fn shutdown(&mut self) {
        if let Some(w) = self.worker.as_ref().filter(|w| w.open_ended) {
            w.control.pondering.store(false, Ordering::SeqCst);
            w.control.stop.store(true, Ordering::SeqCst);
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
                if let Some(w) = &self.worker {
                    w.control.stop.store(true, Ordering::SeqCst);
                    w.control.pondering.store(false, Ordering::SeqCst);
                }
                self.join();
                if self.proto != Some(Proto::Uci) {
                    self.say("bye");
                }
                return Flow::Quit;
            }
            Command::Stop => {
                match &self.worker {
                    Some(w) if w.busy() => {
                        w.control.pondering.store(false, Ordering::SeqCst);
                        w.control.stop.store(true, Ordering::SeqCst);
                    }
                    // Stop while idle: UCCI answers nobestmove so the GUI does not wait.
                    _ if self.proto != Some(Proto::Uci) => self.say("nobestmove"),
                    _ => {}
                }
                return Flow::Continue;
            }
            Command::PonderHit { draw } => {
                if let Some(w) = self.worker.as_ref().filter(|w| w.busy()) {
                    if *draw {
                        w.draw_offered.store(true, Ordering::SeqCst);
                    }
                    w.control.pondering.store(false, Ordering::SeqCst);
                } else {
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
        if self.thinking() {
            let stopping = self
                .worker
                .as_ref()
                .is_some_and(|w| w.control.stop.load(Ordering::SeqCst));
            if !stopping {
                self.error("the engine is thinking; send stop first");
                return Flow::Continue;
            }
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
                    self.position = pos;
                    self.banmoves.clear();
                }
                Err(e) => self.error(&format!("position: {e} (the previous position is kept)")),
            },
            Command::BanMoves(texts) => match self.parse_moves_here(&texts) {
                Ok(moves) => self.banmoves = moves,
                Err(e) => self.error(&format!(
                    "banmoves: {e} (the previous banned moves are kept)"
                )),
            },
            Command::Go(params) => self.go(params),
            Command::Display => {
                let style = DiagramStyle {
                    ansi: self.terminal,
                    ..DiagramStyle::default()
                };
                for line in diagram(&self.position, style).lines() {
                    self.say(line);
                }
            }
            Command::GoPerft(depth) => {
                let mut pos = self.position.clone();
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
                let mut pos = self.position.clone();
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
                let table = crate::eval::breakdown(&self.position, &crate::eval::EvalConfig::FULL);
                for line in table.to_string().lines() {
                    self.say(line);
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
        let books: usize = self.books.books().iter().map(Book::len).sum();
        self.say(&format!(
            "info string {} endgame tables found, max {} pieces; {} book entries",
            self.tables.len(),
            self.tables.max_pieces(),
            books
        ));
    }

    /// Gives the search the tables, or none when `useegtb` is off.
    fn share_tables(&mut self) {
        let tables = self.settings.use_egtb.then(|| Arc::clone(&self.tables));
        if let Some(s) = &mut self.searcher {
            s.set_tablebases(tables);
        }
    }

    fn new_game(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
        self.memory = GameMemory::default();
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
        let mut options = self.options.clone();
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
            OptionId::UseBook => self.settings.use_book = options::check(name, value)?,
            OptionId::BookFiles => {
                let list = value.unwrap_or("").trim();
                let list = if list == "<empty>" { "" } else { list };
                self.books = if list.is_empty() {
                    builtin_books()
                } else {
                    BookSet::open_list(list)
                        .map_err(|e| format!("bookfiles: {e} (the previous books are kept)"))?
                };
                let n = self.books.books().len();
                let entries: usize = self.books.books().iter().map(Book::len).sum();
                self.say(&format!(
                    "info string {} loaded, {}",
                    count(n, "book file", "book files"),
                    count(entries, "entry", "entries")
                ));
            }
            OptionId::UseEgtb => {
                self.settings.use_egtb = options::check(name, value)?;
                self.share_tables();
            }
            OptionId::EgtbPaths => {
                let list = value.unwrap_or("").trim();
                let list = if list == "<empty>" { "" } else { list };
                let paths: Vec<&str> = list
                    .split(';')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .collect();
                let (tables, errors) = if paths.is_empty() {
                    Tablebases::open_skipping(&default_table_dirs())
                } else {
                    Tablebases::open_skipping(&paths)
                };
                for e in &errors {
                    self.error(&format!("egtbpaths: {e}"));
                }
                self.tables = Arc::new(tables);
                self.share_tables();
                self.say(&format!(
                    "info string {} found",
                    count(self.tables.len(), "endgame table", "endgame tables")
                ));
            }
            OptionId::NewGame => self.new_game(),
            OptionId::ClearHash => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
        }
        if options != self.options {
            if let Some(s) = &mut self.searcher {
                s.set_options(options.clone());
                self.hash = s.hash_view();
            }
            self.options = options;
        }
        Ok(())
    }

    /// Parses a move text in the session's square naming against `pos`.
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, String> {
        let iccs = self
            .settings
            .naming
            .to_iccs(text)
            .ok_or_else(|| format!("{text:?} is not a move"))?;
        let m = crate::notation::parse_iccs(&iccs).map_err(|e| format!("{text:?}: {e}"))?;
        if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(format!("{text} is not a legal move in {}", pos.fen()))
        }
    }

    fn parse_moves_here(&self, texts: &[String]) -> Result<Vec<Move>, String> {
        texts
            .iter()
            .map(|t| self.parse_move(&self.position, t))
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
        if let Some(p) = self.hash.probe(pos) {
            if let Some(m) = p.best {
                line += &format!(" bestmove {}", self.settings.naming.format(m));
            }
            if let Some((s, d)) = p.lower {
                line += &format!(" lowerbound {} depth {d}", ucci_score(s));
            }
            if let Some((s, d)) = p.upper {
                line += &format!(" upperbound {} depth {d}", ucci_score(s));
            }
        }
        line
    }

    fn limits(&self, go: &GoParams) -> Result<Limits, String> {
        let searchmoves = go
            .searchmoves
            .iter()
            .map(|t| self.parse_move(&self.position, t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("searchmoves: {e}"))?;
        let (time, increment, opptime) = match go.colour_clocks {
            Some(c) => match self.position.turn() {
                Color::Red => (c.red, c.red_inc, c.black),
                Color::Black => (c.black, c.black_inc, c.red),
            },
            None => (go.time, go.increment, go.opptime),
        };
        let clock = time.map(|time| Clock {
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
            banmoves: self.banmoves.clone(),
        })
    }

    fn go(&mut self, params: GoParams) {
        let limits = match self.limits(&params) {
            Ok(l) => l,
            Err(e) => {
                self.error(&format!("go: {e}"));
                return;
            }
        };
        let mut limits = limits;
        let answers_at_once = !params.infinite && !params.ponder && params.depth != Some(0);
        if answers_at_once && (self.play_from_book(&limits) || self.play_from_tables(&mut limits)) {
            return;
        }
        let Some(mut searcher) = self.searcher.take() else {
            self.error("go: the searcher is unavailable");
            return;
        };
        let control = Arc::new(Control::default());
        control.pondering.store(params.ponder, Ordering::SeqCst);
        let draw_offered = Arc::new(AtomicBool::new(params.draw));
        let answered = Arc::new(AtomicBool::new(false));
        let (out, pos, proto, naming) = (
            self.out.clone(),
            self.position.clone(),
            self.proto.unwrap_or(Proto::Ucci),
            self.settings.naming,
        );
        let mut memory = self.memory.clone();
        let (ctl, offered, done) = (control.clone(), draw_offered.clone(), answered.clone());
        let handle = thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let started = Instant::now();
                let mut report = |r: Report<'_>| {
                    if let Some(line) = format_report(proto, naming, &r) {
                        emit(&out, &line);
                    }
                };
                let result = searcher.search(&pos, &limits, &ctl, &mut report);
                let lines = finish(
                    proto,
                    naming,
                    &pos,
                    &result,
                    &mut memory,
                    offered.load(Ordering::SeqCst),
                    started,
                );
                done.store(true, Ordering::SeqCst);
                for l in lines {
                    emit(&out, &l);
                }
                (searcher, memory)
            });
        match handle {
            Ok(handle) => {
                self.worker = Some(Worker {
                    handle,
                    control,
                    draw_offered,
                    answered,
                    open_ended: params.infinite || params.ponder,
                })
            }
            Err(e) => self.error(&format!("go: cannot start the search thread: {e}")),
        }
    }
}

impl Session {
    /// Plays by the endgame tables when they cover the position: a won position is played by
    /// the quickest mate, a lost one by the longest defence (answering at once, with the mate
    /// distance); a position won by the perpetual-check rule by the rule's plan, scored as a
    /// table win without mate. In a drawn position the search chooses among the drawing moves (the tables do
    /// not say which draw is most promising), so `limits` is narrowed to them. Banned moves and
    /// `searchmoves` are respected. Returns `true` if it answered.
    fn play_from_tables(&mut self, limits: &mut Limits) -> bool {
        if !self.settings.use_egtb || self.tables.is_empty() {
            return false;
        }
        let pos = &self.position;
        let values = match self.tables.move_values(pos) {
            Ok(Some(values)) => values,
            Ok(None) => return false,
            Err(e) => {
                self.error(&format!("tablebase: {e}; searching instead"));
                return false;
            }
        };
        let allowed: Vec<(Move, TbValue)> = values
            .into_iter()
            .filter(|(m, _)| !limits.banmoves.contains(m))
            .filter(|(m, _)| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        // The first of the best keeps the choice deterministic; wins by the perpetual-check
        // rule are played by the rule's plan (`Tablebases::choose`).
        let (best, value) = match self.tables.choose(pos, &allowed) {
            Ok(Some(choice)) => choice,
            Ok(None) => return false,
            Err(e) => {
                self.error(&format!("tablebase: {e}; searching instead"));
                return false;
            }
        };
        if value == TbValue::Draw {
            let drawing: Vec<Move> = allowed
                .iter()
                .filter(|(_, v)| *v == TbValue::Draw)
                .map(|(m, _)| *m)
                .collect();
            self.say(&format!(
                "info string tablebase: draw; searching the {} drawing moves",
                drawing.len()
            ));
            limits.searchmoves = drawing;
            return false;
        }
        let mut after = pos.clone();
        after.make_move(best);
        let mut line = vec![best];
        line.extend(self.tables.line(&after, 24).unwrap_or_default());
        let naming = self.settings.naming;
        let pv: Vec<String> = line.iter().map(|&m| naming.format(m)).collect();
        let plies = value.dtm().unwrap_or(0) as i32;
        // A win by the perpetual-check rule is no mate: it scores as the search scores it.
        let score = match value {
            TbValue::Win(_) => Score::Mate(plies),
            TbValue::Loss(_) => Score::Mate(-plies),
            TbValue::RuleWin(_) => Score::from_internal(tb_rule_win_at(0)),
            _ => Score::from_internal(-tb_rule_win_at(0)),
        };
        if value.by_rule() {
            self.say(&format!(
                "info string tablebase: {} by the perpetual-check rule",
                value.wdl()
            ));
        }
        match self.proto {
            Some(Proto::Uci) => {
                let moves = if plies > 0 { (plies + 1) / 2 } else { 0 };
                let score = match value {
                    TbValue::Win(_) => format!("mate {moves}"),
                    TbValue::Loss(_) => format!("mate {}", -moves),
                    _ => score.to_string(),
                };
                self.say(&format!(
                    "info depth {} score {score} nodes 0 tbhits 1 time 0 pv {}",
                    line.len(),
                    pv.join(" ")
                ));
            }
            _ => self.say(&format!(
                "info depth {} score {} pv {}",
                line.len(),
                ucci_score(score),
                pv.join(" ")
            )),
        }
        let mut answer = format!("bestmove {}", pv[0]);
        if let Some(p) = pv.get(1) {
            answer += &format!(" ponder {p}");
        }
        self.say(&answer);
        true
    }

    /// Plays a book move when the book knows the position: a move that is not banned, is among
    /// `searchmoves` (if given) and does not repeat an earlier position. Returns `true` if it
    /// answered.
    fn play_from_book(&mut self, limits: &Limits) -> bool {
        if !self.settings.use_book || self.books.is_empty() {
            return false;
        }
        let pos = &self.position;
        let history: Vec<u64> = pos.history().iter().map(|u| u.key).collect();
        let candidates: Vec<BookMove> = self
            .books
            .probe(pos)
            .into_iter()
            .filter(|m| !limits.banmoves.contains(&m.mv))
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(&m.mv))
            .filter(|m| {
                let mut after = pos.clone();
                after.make_move(m.mv);
                !history.contains(&after.key())
            })
            .collect();
        let temperature = match self.options.randomness {
            Level::None => 0.0,
            Level::Tiny | Level::Small => 0.5,
            Level::Medium => 1.0,
            Level::Large | Level::Huge => 2.0,
        };
        let random = next_random(&mut self.rng);
        let Some(choice) = choose(&candidates, temperature, random) else {
            return false;
        };
        let mut after = pos.clone();
        after.make_move(choice.mv);
        let ponder = self
            .books
            .probe(&after)
            .into_iter()
            .max_by_key(|m| m.weight)
            .map(|m| m.mv);
        let naming = self.settings.naming;
        let total: u32 = candidates.iter().map(|m| m.weight).sum();
        let s = choice.stats;
        let pct = |n: u32| {
            if s.games == 0 {
                0.0
            } else {
                100.0 * f64::from(n) / f64::from(s.games)
            }
        };
        let text = format!(
            "book move {}: {} games, red {:.0}% draw {:.0}% black {:.0}%, weight {} ({:.0}%)",
            naming.format(choice.mv),
            s.games,
            pct(s.red_wins),
            pct(s.draws),
            pct(s.black_wins),
            choice.weight,
            100.0 * f64::from(choice.weight) / f64::from(total.max(1))
        );
        let pv = match ponder {
            Some(p) => format!("{} {}", naming.format(choice.mv), naming.format(p)),
            None => naming.format(choice.mv),
        };
        match self.proto {
            Some(Proto::Uci) => {
                self.say(&format!("info depth 1 score cp 0 nodes 0 time 0 pv {pv}"));
                self.say(&format!("info string {text}"));
            }
            _ => {
                self.say(&format!("info depth 0 score 0 pv {pv}"));
                self.say(&format!("info message {text}"));
            }
        }
        let mut line = format!("bestmove {}", naming.format(choice.mv));
        if let Some(p) = ponder {
            line += &format!(" ponder {}", naming.format(p));
        }
        self.say(&line);
        true
    }
}

/// The tables used when `egtbpaths` is empty: every table directory of the data-location order
/// (`chariot::data`: `CHARIOT_EGTB`, next to the executable, the user's data directory, the
/// source tree's shipped tables).
fn default_table_dirs() -> Vec<std::path::PathBuf> {
    crate::data::table_dirs()
}

/// The book built into the engine, used while `bookfiles` is empty: `data/book.xqb`, compiled
/// from the master games in `data/games/` by `book-builder build-default` (see `data/README.md`).
fn builtin_books() -> BookSet {
    static BUILTIN: &[u8] = include_bytes!("../../../data/book.xqb");
    // The bytes are checked like any file; should they ever be damaged, the engine plays
    // without a book rather than not at all.
    Book::from_bytes("built-in book", BUILTIN)
        .map(|b| BookSet::from_books(vec![b]))
        .unwrap_or_default()
}

/// A seed for book randomness from the clock (book choices need variety, not secrecy).
fn seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ 0x9E37_79B9_7F4A_7C15
}

/// The next number in 0..1 from a SplitMix64 stream.
fn next_random(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// A score in UCCI's single number: centipawns, mates as ±(10000 - plies).
fn ucci_score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(p) if p > 0 => MATE_UCCI - p,
        Score::Mate(p) => -MATE_UCCI - p,
    }
}

fn format_report(proto: Proto, naming: SquareNaming, r: &Report<'_>) -> Option<String> {
    let pv = |info: &Info| {
        info.pv
            .iter()
            .map(|&m| naming.format(m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some(match (proto, r) {
        (Proto::Ucci, Report::Iteration(info)) => {
            // UCCI has no bound syntax: report only exact scores.
            if info.bound != Bound::Exact {
                return None;
            }
            format!(
                "info depth {} score {} time {} nodes {} nps {} pv {}",
                info.depth,
                ucci_score(info.score),
                info.time.as_millis(),
                info.nodes,
                info.nps,
                pv(info)
            )
        }
        (Proto::Uci, Report::Iteration(info)) => {
            let score = match info.score {
                Score::Cp(cp) => format!("cp {cp}"),
                Score::Mate(p) => {
                    format!("mate {}", if p > 0 { (p + 1) / 2 } else { -((-p + 1) / 2) })
                }
            };
            let bound = match info.bound {
                Bound::Exact => "",
                Bound::Lower => " lowerbound",
                Bound::Upper => " upperbound",
            };
            format!(
                "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
                info.depth,
                info.seldepth,
                info.multipv,
                info.nodes,
                info.nps,
                info.hashfull,
                info.tbhits,
                info.time.as_millis(),
                pv(info)
            )
        }
        (Proto::Ucci, Report::CurrMove { mv, .. }) => {
            format!("info currmove {}", naming.format(*mv))
        }
        (Proto::Uci, Report::CurrMove { depth, mv, number }) => {
            format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                naming.format(*mv)
            )
        }
        (Proto::Ucci, Report::String(s)) => format!("info message {s}"),
        (Proto::Uci, Report::String(s)) => format!("info string {s}"),
    })
}

/// The closing lines of a search: `bestmove` (with ponder, draw, resign) or `nobestmove`.
fn finish(
    proto: Proto,
    naming: SquareNaming,
    pos: &Position,
    result: &SearchResult,
    memory: &mut GameMemory,
    draw_offered: bool,
    started: Instant,
) -> Vec<String> {
    let mut lines = Vec::new();
    if proto == Proto::Ucci {
        lines.push(format!(
            "info time {} nodes {}",
            started.elapsed().as_millis(),
            result.nodes
        ));
    }
    let Some(best) = result.best else {
        lines.push(match proto {
            Proto::Ucci => "nobestmove".to_owned(),
            // UCI has no nobestmove; "0000" is the null move GUIs understand.
            Proto::Uci => "bestmove 0000".to_owned(),
        });
        return lines;
    };
    let score = ucci_score(result.score);
    memory.scores.push(score);
    let mut line = format!("bestmove {}", naming.format(best));
    if let Some(p) = result.ponder {
        line += &format!(" ponder {}", naming.format(p));
    }
    if proto == Proto::Ucci {
        let recent = |n: usize, f: &dyn Fn(i32) -> bool| {
            memory.scores.len() >= n
                && memory.scores[memory.scores.len() - n..]
                    .iter()
                    .all(|&s| f(s))
        };
        let lost = recent(RESIGN_MOVES, &|s| s <= RESIGN_SCORE)
            || result
                .score
                .mate_moves()
                .is_some_and(|m| m < 0 && score <= RESIGN_SCORE);
        let dead_even = score.abs() <= DRAW_MARGIN;
        if lost && recent(2, &|s| s <= RESIGN_SCORE) {
            line += " resign";
        } else if draw_offered && score <= DRAW_MARGIN {
            // Accept an offered draw when we are not better: dead even, or worse.
            line += " draw";
        } else if dead_even
            && (no_attackers(pos)
                || (recent(DRAW_OFFER_MOVES, &|s| s.abs() <= DRAW_MARGIN / 2)
                    && pos.halfmoves() >= 40))
        {
            line += " draw";
        }
    }
    lines.push(line);
    lines
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

/// `true` when neither side has a piece that can cross the river: nobody can ever win.
fn no_attackers(pos: &Position) -> bool {
    use crate::rules::{Kind, Piece};
    Color::ALL.iter().all(|&c| {
        [Kind::Horse, Kind::Rook, Kind::Cannon, Kind::Pawn]
            .iter()
            .all(|&k| pos.pieces(Piece::new(c, k)).is_empty())
    })
}

/// Runs the engine on standard input and output until `quit` or the end of input.
pub fn run_stdio() {
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    let out: Output = Arc::new(Mutex::new(Box::new(io::stdout())));
    run(io::BufReader::new(io::stdin()), out, terminal);
}

/// A line of input as the reader thread decoded it.
enum Input {
    /// Valid UTF-8.
    Text(String),
    /// Not UTF-8 but valid GBK (what Chinese Windows GUIs send, e.g. a book path), decoded.
    Gbk(String),
    /// Neither UTF-8 nor GBK: its length in bytes.
    Undecodable(usize),
}

impl Input {
    /// Decodes a line's bytes (without its line ending).
    fn decode(bytes: Vec<u8>) -> Input {
        match String::from_utf8(bytes) {
            Ok(text) => Input::Text(text),
            Err(e) => {
                let bytes = e.into_bytes();
                match encoding_rs::GBK.decode_without_bom_handling_and_without_replacement(&bytes) {
                    Some(text) => Input::Gbk(text.into_owned()),
                    None => Input::Undecodable(bytes.len()),
                }
            }
        }
    }
}

/// Runs the engine on any input and output (tests use pipes and buffers).
///
/// Lines are read as bytes: a line that is not UTF-8 is read as GBK when it is valid GBK (said
/// in an `info string`), and a line that is neither gets one error line; the engine goes on in
/// every case.
pub fn run(mut input: impl BufRead + Send + 'static, out: Output, terminal: bool) {
    let (tx, rx) = mpsc::channel::<Input>();
    // The reader thread ends at end of input or a read error; the channel then closes.
    let reader = thread::Builder::new().name("input".into()).spawn(move || {
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            if tx.send(Input::decode(std::mem::take(&mut line))).is_err() {
                break;
            }
        }
    });
    if reader.is_err() {
        emit(&out, "info string error: cannot start the input thread");
        return;
    }
    let mut session = Session::new(out, terminal);
    while let Ok(input) = rx.recv() {
        let line = match input {
            Input::Text(line) => line,
            Input::Gbk(line) => {
                session.say("info string the line was not UTF-8 and was read as GBK");
                line
            }
            Input::Undecodable(len) => {
                session.error(&format!(
                    "a line of {len} bytes is neither UTF-8 nor GBK and was ignored"
                ));
                continue;
            }
        };
        if session.handle(&line) == Flow::Quit {
            return;
        }
        if session.blocks_input() {
            session.wait();
        }
    }
    // End of input without quit.
    session.shutdown();
}
