//! The engine as a typed API: a position, banned moves, options, books and tables, and a
//! non-blocking `go` that reports through a callback and ends with the move to play.
//!
//! This is the layer under the protocols (Stockfish's `engine.h` under `uci.cpp` is the model):
//! UCCI and UCI ([`crate::protocol`]) are text over it, and any other client (a web server, a
//! test) drives it the same way. It owns the policies that decide how a move is chosen:
//!
//! - [`book_policy`]: a book move when the engine plays (not when it analyses), never a banned
//!   one, drawn by weight with the `randomness` option;
//! - [`table_policy`]: the endgame tables' move when they cover the position, the search among
//!   the drawing moves when it is drawn;
//! - [`verdict`]: resigning and offering or accepting draws.
//!
//! It also owns its options ([`options`]): every option with its kind, default, names in each
//! protocol and the action a new value takes, set by name with [`Engine::set_option`].
//!
//! **Analysis is not play.** A `go` with MultiPV above 1, `go infinite` or `go ponder` is
//! analysis: the engine searches and reports its lines even where a book or the tables know the
//! position; the book's moves are only reported, as a note.

pub mod book_policy;
pub mod options;
pub mod table_policy;
pub mod verdict;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::resources;
use crate::search::score::{tb_rule_win_at, tb_win_in};
use crate::search::{
    Control, HashProbe, HashView, Limits, Options, Report, Score, SearchResult, Searcher,
};
use chariot_formats::book::{Book, BookSet};
use chariot_formats::egtb::{Metric, ProbeError, Tablebases, Value as TbValue};
use chariot_rules::random::Rng;
use chariot_rules::{Move, Position};

pub use book_policy::BookChoice;
pub use options::{Notice, OptionError, Settings};
pub use table_policy::TableDecision;
pub use verdict::{GameMemory, Verdict};

/// UCCI's mate score: mates count as `MATE_SCORE - plies` centipawns (ElephantEye's scale),
/// which is also how the engine remembers mates for its resign rule.
pub const MATE_SCORE: i32 = 10_000;

/// A score as one number of centipawns: mates as ±([`MATE_SCORE`] − plies).
#[must_use]
pub fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(p) if p > 0 => MATE_SCORE - p,
        Score::Mate(p) => -MATE_SCORE - p,
    }
}

/// What a `go` asks for.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    /// The limits (banned moves are added from the engine's own list).
    pub limits: Limits,
    /// Ponder: search on the opponent's time until [`Engine::ponderhit`] or [`Engine::stop`].
    pub ponder: bool,
    /// The opponent offers a draw with this move.
    pub draw_offered: bool,
}

impl GoRequest {
    /// Whether this is analysis rather than play: several lines wanted, or a search that only
    /// ends when told to. Analysis always searches.
    #[must_use]
    pub fn is_analysis(&self, multipv: usize) -> bool {
        multipv > 1 || self.limits.infinite || self.ponder
    }
}

/// How a `go` ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move (`None` when there is none: mated, stalemated, every move banned, or `go depth
    /// 0`), the expected reply, the score for the side to move, and the depth and nodes (0 for
    /// a book or table move).
    pub result: SearchResult,
    /// Time taken.
    pub elapsed: Duration,
    /// Resign, or offer or accept a draw, with the move.
    pub verdict: Verdict,
    /// Where the move came from.
    pub source: Source,
}

impl Answer {
    /// A move answered without a search (from a book or the tables).
    fn at_once(
        best: Move,
        ponder: Option<Move>,
        score: Score,
        started: Instant,
        source: Source,
    ) -> Answer {
        Answer {
            result: SearchResult {
                best: Some(best),
                ponder,
                score,
                depth: 0,
                nodes: 0,
            },
            elapsed: started.elapsed(),
            verdict: Verdict::default(),
            source,
        }
    }
}

/// Where a move came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The search.
    Search,
    /// An opening book.
    Book(BookChoice),
    /// The endgame tables, with the value and the line.
    Tables {
        /// The value for the side to move.
        value: TbValue,
        /// What the value's distance counts (a distance to conversion is no mate distance).
        metric: Metric,
        /// The move and the table's line after it.
        line: Vec<Move>,
    },
}

/// What a `go` reports, in order; the last event is always [`Event::Done`].
#[derive(Debug)]
pub enum Event<'a> {
    /// The search's progress: iterations, the current move, its notes.
    Search(Report<'a>),
    /// Something worth telling the user (the tables' verdict, the book's moves while analysing,
    /// a table that could not be read).
    Note(String),
    /// A problem that did not stop the `go` (the engine searched instead).
    Warning(String),
    /// The answer.
    Done(&'a Answer),
}

/// The callback a `go` reports through; it runs on the search thread.
pub type Listener = Box<dyn FnMut(Event<'_>) + Send>;

/// A search running on its own thread.
struct Worker {
    handle: JoinHandle<(Searcher, GameMemory)>,
    control: Arc<Control>,
    draw_offered: Arc<AtomicBool>,
    /// Set just before the answer is reported: from then on the engine is idle, even if the
    /// thread has not quite returned yet.
    answered: Arc<AtomicBool>,
    /// The search ends only when told to (`go infinite`, `go ponder`).
    open_ended: bool,
}

/// Why a `go` could not start.
#[derive(Debug, thiserror::Error)]
pub enum GoError {
    /// A search is running.
    #[error("the engine is thinking; stop it first")]
    Busy,
    /// The operating system refused a thread.
    #[error("cannot start the search thread: {0}")]
    Thread(std::io::Error),
}

/// The engine: its position and settings, its books and tables, and its searcher.
pub struct Engine {
    position: Position,
    banmoves: Vec<Move>,
    options: Options,
    use_book: bool,
    use_egtb: bool,
    /// The values of the options that are not search options ([`options`]).
    settings: Settings,
    books: Arc<BookSet>,
    tables: Arc<Tablebases>,
    /// The network the search evaluates with (the built-in one from the start); `None` for the
    /// hand-written evaluation. Searches at lower knowledge levels or another style use the
    /// hand-written evaluation anyway (`search::uses_network`).
    network: Option<Arc<chariot_eval::nnue::Network>>,
    /// The file of the `evalfile` option and the network read from it (used while `usennue`
    /// is on); `None`: the built-in network.
    eval_file: Option<(std::path::PathBuf, Arc<chariot_eval::nnue::Network>)>,
    searcher: Option<Searcher>,
    hash: HashView,
    worker: Option<Worker>,
    memory: GameMemory,
    rng: Rng,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with the default options and resources
    /// ([`resources`]): the built-in book, the tables of the data directories (unreadable tables
    /// are left out; [`resources::load_tables`] reports them) and the built-in network.
    #[must_use]
    pub fn new() -> Engine {
        let tables = resources::load_tables::<&str>(&[]).0;
        Engine::with(resources::default_books(), tables)
    }

    /// An engine with these books and tables.
    #[must_use]
    pub fn with(books: BookSet, tables: Tablebases) -> Engine {
        Engine::sharing(Arc::new(books), Arc::new(tables), Options::default())
    }

    /// An engine with books and tables shared with other engines (a server's sessions), and
    /// these options from the start (so that a small hash table is never first made large).
    #[must_use]
    pub fn sharing(books: Arc<BookSet>, tables: Arc<Tablebases>, options: Options) -> Engine {
        let mut searcher = Searcher::new(options.clone());
        let hash = searcher.hash_view();
        searcher.set_tablebases(Some(Arc::clone(&tables)));
        let network = resources::default_network();
        searcher.set_network(network.clone());
        Engine {
            position: Position::start(),
            banmoves: Vec::new(),
            options,
            use_book: true,
            use_egtb: true,
            settings: Settings::default(),
            books,
            tables,
            network,
            eval_file: None,
            searcher: Some(searcher),
            hash,
            worker: None,
            memory: GameMemory::default(),
            rng: Rng::from_clock(),
        }
    }

    /// The position the next `go` searches.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position (with its history, for repetitions); the banned moves are cleared.
    pub fn set_position(&mut self, pos: Position) {
        self.position = pos;
        self.banmoves.clear();
    }

    /// Moves the engine must not play in the current position (UCCI `banmoves`).
    pub fn ban_moves(&mut self, moves: Vec<Move>) {
        self.banmoves = moves;
    }

    /// The banned moves.
    #[must_use]
    pub fn banned(&self) -> &[Move] {
        &self.banmoves
    }

    /// A new game: the hash table cleared and the game's memory (for resigning) forgotten.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.memory = GameMemory::default();
    }

    /// Clears the hash table.
    pub fn clear_hash(&mut self) {
        self.join();
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    /// The search options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets the search options (a new hash size takes effect at once).
    pub fn set_options(&mut self, options: Options) {
        if options == self.options {
            return;
        }
        self.join();
        if let Some(s) = &mut self.searcher {
            s.set_options(options.clone());
            self.hash = s.hash_view();
        }
        self.options = options;
    }

    /// Plays from the books (when playing, not analysing).
    pub fn set_use_book(&mut self, on: bool) {
        self.use_book = on;
    }

    /// Uses the endgame tables (at the root and in the search).
    pub fn set_use_egtb(&mut self, on: bool) {
        self.join();
        self.use_egtb = on;
        self.share_tables();
    }

    /// The books.
    #[must_use]
    pub fn books(&self) -> &BookSet {
        &self.books
    }

    /// Replaces the books.
    pub fn set_books(&mut self, books: BookSet) {
        self.books = Arc::new(books);
    }

    /// The number of book entries over all books.
    #[must_use]
    pub fn book_entries(&self) -> usize {
        self.books.books().iter().map(Book::len).sum()
    }

    /// The tables.
    #[must_use]
    pub fn tables(&self) -> &Tablebases {
        &self.tables
    }

    /// Replaces the tables.
    pub fn set_tables(&mut self, tables: Tablebases) {
        self.join();
        self.tables = Arc::new(tables);
        self.share_tables();
    }

    /// A new searcher (empty hash table) in place of one that was lost with its thread.
    fn fresh_searcher(&mut self) {
        let mut searcher = Searcher::new(self.options.clone());
        searcher.set_tablebases(self.use_egtb.then(|| Arc::clone(&self.tables)));
        searcher.set_network(self.network.clone());
        self.hash = searcher.hash_view();
        self.searcher = Some(searcher);
    }

    /// Evaluates with `network` (a `.nnue` file's, `docs/formats/nnue.md`), or with the
    /// hand-written evaluation (`None`), from the next search on. The hash table is cleared:
    /// its scores came from the other evaluation.
    pub fn set_network(&mut self, network: Option<Arc<chariot_eval::nnue::Network>>) {
        self.join();
        if let Some(s) = &mut self.searcher {
            s.set_network(network.clone());
        }
        self.network = network;
        self.clear_hash();
    }

    /// The network the engine evaluates with, if any.
    #[must_use]
    pub fn network(&self) -> Option<&chariot_eval::nnue::Network> {
        self.network.as_deref()
    }

    fn share_tables(&mut self) {
        let tables = self.use_egtb.then(|| Arc::clone(&self.tables));
        if let Some(s) = &mut self.searcher {
            s.set_tablebases(tables);
        }
    }

    /// What the hash table knows of `pos` (UCCI `probe`); works while thinking.
    #[must_use]
    pub fn hash_probe(&self, pos: &Position) -> Option<HashProbe> {
        self.hash.probe(pos)
    }

    /// Seeds the book choice (for reproducible tests; by default it is seeded from the clock).
    pub fn seed(&mut self, seed: u64) {
        self.rng = Rng::seeded(seed);
    }

    /// `true` while a search runs and has not answered.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.worker
            .as_ref()
            .is_some_and(|w| !w.answered.load(Ordering::SeqCst))
    }

    /// `true` when a running search was told to stop and is about to answer.
    #[must_use]
    pub fn is_stopping(&self) -> bool {
        self.worker
            .as_ref()
            .is_some_and(|w| w.control.stop.load(Ordering::SeqCst))
    }

    /// `true` while a search that ends only when told to runs (`go infinite`, `go ponder`).
    #[must_use]
    pub fn is_open_ended(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| w.open_ended)
    }

    /// `true` when a `go` is running or has answered but not been joined.
    #[must_use]
    pub fn has_search(&self) -> bool {
        self.worker.is_some()
    }

    /// Stops the search (it answers within about a millisecond). Returns `false` when no search
    /// was thinking.
    pub fn stop(&self) -> bool {
        match &self.worker {
            Some(w) if !w.answered.load(Ordering::SeqCst) => {
                w.control.pondering.store(false, Ordering::SeqCst);
                w.control.stop.store(true, Ordering::SeqCst);
                true
            }
            _ => false,
        }
    }

    /// The opponent played the expected move: the ponder search becomes a normal one, its time
    /// counted from now; `draw` when the opponent offers a draw with it. Returns `false` when no
    /// search was thinking.
    pub fn ponderhit(&self, draw: bool) -> bool {
        match &self.worker {
            Some(w) if !w.answered.load(Ordering::SeqCst) => {
                if draw {
                    w.draw_offered.store(true, Ordering::SeqCst);
                }
                w.control.pondering.store(false, Ordering::SeqCst);
                true
            }
            _ => false,
        }
    }

    /// Waits for the search to end and takes the searcher back. A search that panicked leaves
    /// a fresh searcher (with an empty hash table) and returns `false`.
    pub fn join(&mut self) -> bool {
        let Some(w) = self.worker.take() else {
            return true;
        };
        match w.handle.join() {
            Ok((searcher, memory)) => {
                self.searcher = Some(searcher);
                self.memory = memory;
                true
            }
            Err(_) => {
                self.fresh_searcher();
                false
            }
        }
    }

    /// Starts a `go`: answers at once from the books or the tables when the engine plays and
    /// they know the position, otherwise searches on a thread. Events go to `listen` (on this
    /// thread for a book or table move, on the search thread otherwise); the last is
    /// [`Event::Done`].
    ///
    /// # Errors
    /// [`GoError::Busy`] while a search thinks; [`GoError::Thread`] when no thread can be
    /// started.
    pub fn go(&mut self, request: GoRequest, mut listen: Listener) -> Result<(), GoError> {
        if self.is_thinking() {
            return Err(GoError::Busy);
        }
        self.join();
        let started = Instant::now();
        let mut limits = request.limits.clone();
        limits.banmoves.clone_from(&self.banmoves);
        let analysis = request.is_analysis(self.options.multipv);
        if analysis {
            self.note_book_moves(&limits, &mut listen);
        } else if limits.depth != Some(0) {
            if let Some(answer) = self.play_from_book(&limits, started) {
                listen(Event::Done(&answer));
                return Ok(());
            }
            if let Some(answer) = self.play_from_tables(&mut limits, started, &mut listen) {
                listen(Event::Done(&answer));
                return Ok(());
            }
        }
        let Some(mut searcher) = self.searcher.take() else {
            // Only after a failed thread start; make a new one.
            return Err(GoError::Thread(std::io::Error::other(
                "the searcher is unavailable",
            )));
        };
        let control = Arc::new(Control::default());
        control.pondering.store(request.ponder, Ordering::SeqCst);
        let draw_offered = Arc::new(AtomicBool::new(request.draw_offered));
        let answered = Arc::new(AtomicBool::new(false));
        let pos = self.position.clone();
        let mut memory = self.memory.clone();
        let (ctl, offered, done) = (control.clone(), draw_offered.clone(), answered.clone());
        let spawned = thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                let result = searcher.search(&pos, &limits, &ctl, &mut |r| {
                    listen(Event::Search(r));
                });
                let verdict = match result.best {
                    Some(_) => memory.after_search(
                        centipawns(result.score),
                        result.score.mate_moves().is_some_and(|m| m < 0),
                        &pos,
                        offered.load(Ordering::SeqCst),
                    ),
                    None => Verdict::default(),
                };
                let answer = Answer {
                    result,
                    elapsed: started.elapsed(),
                    verdict,
                    source: Source::Search,
                };
                done.store(true, Ordering::SeqCst);
                listen(Event::Done(&answer));
                (searcher, memory)
            });
        match spawned {
            Ok(handle) => {
                self.worker = Some(Worker {
                    handle,
                    control,
                    draw_offered,
                    answered,
                    open_ended: request.limits.infinite || request.ponder,
                });
                Ok(())
            }
            Err(e) => {
                // The closure (and the searcher in it) is gone: start afresh.
                self.fresh_searcher();
                Err(GoError::Thread(e))
            }
        }
    }

    /// While analysing: the book's moves as a note, the search decides.
    fn note_book_moves(&self, limits: &Limits, listen: &mut Listener) {
        if !self.use_book || self.books.is_empty() {
            return;
        }
        let moves = book_policy::candidates(
            &self.books,
            &self.position,
            &limits.banmoves,
            &limits.searchmoves,
        );
        if moves.is_empty() {
            return;
        }
        let total: u32 = moves.iter().map(|m| m.weight).sum::<u32>().max(1);
        let list: Vec<String> = moves
            .iter()
            .map(|m| {
                format!(
                    "{} ({} games, {:.0}%)",
                    m.mv,
                    m.stats.games,
                    100.0 * f64::from(m.weight) / f64::from(total)
                )
            })
            .collect();
        listen(Event::Note(format!(
            "analysing, so searching; the book has {}",
            list.join(", ")
        )));
    }

    fn play_from_book(&mut self, limits: &Limits, started: Instant) -> Option<Answer> {
        if !self.use_book || self.books.is_empty() {
            return None;
        }
        let choice = book_policy::choose_move(
            &self.books,
            &self.position,
            &limits.banmoves,
            &limits.searchmoves,
            self.options.randomness,
            self.rng.unit(),
        )?;
        Some(Answer::at_once(
            choice.chosen.mv,
            choice.ponder,
            Score::Cp(0),
            started,
            Source::Book(choice),
        ))
    }

    fn play_from_tables(
        &mut self,
        limits: &mut Limits,
        started: Instant,
        listen: &mut Listener,
    ) -> Option<Answer> {
        if !self.use_egtb || self.tables.is_empty() {
            return None;
        }
        let decision = table_policy::decide(
            &self.tables,
            &self.position,
            &limits.banmoves,
            &limits.searchmoves,
        );
        match decision {
            Err(e) => {
                listen(Event::Warning(table_warning(&e)));
                None
            }
            Ok(TableDecision::NotCovered) => None,
            Ok(TableDecision::SearchAmong(moves)) => {
                listen(Event::Note(format!(
                    "tablebase: draw; searching the {} drawing move{}",
                    moves.len(),
                    if moves.len() == 1 { "" } else { "s" }
                )));
                limits.searchmoves = moves;
                None
            }
            Ok(TableDecision::Play {
                best,
                value,
                metric,
                line,
            }) => {
                if value.by_rule() {
                    listen(Event::Note(format!(
                        "tablebase: {} by the perpetual check/chase rules",
                        value.wdl()
                    )));
                }
                let plies = value.dtm().unwrap_or(0) as i32;
                // A win by the perpetual-check rule is no mate: it scores as the search does; so
                // is a win by distance to conversion (a table win, its mate distance unknown).
                let score = match (value, metric) {
                    (TbValue::Win(_), Metric::Dtc) => Score::from_internal(tb_win_in(plies as u32)),
                    (TbValue::Loss(_), Metric::Dtc) => {
                        Score::from_internal(-tb_win_in(plies as u32))
                    }
                    (TbValue::Win(_), _) => Score::Mate(plies),
                    (TbValue::Loss(_), _) => Score::Mate(-plies),
                    (TbValue::RuleWin(_), _) => Score::from_internal(tb_rule_win_at(0)),
                    _ => Score::from_internal(-tb_rule_win_at(0)),
                };
                let ponder = line.get(1).copied();
                Some(Answer::at_once(
                    best,
                    ponder,
                    score,
                    started,
                    Source::Tables {
                        value,
                        metric,
                        line,
                    },
                ))
            }
        }
    }
}

/// The warning for a table that could not be read during `go`.
fn table_warning(e: &ProbeError) -> String {
    format!("tablebase: {e}; searching instead")
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_iccs;
    use std::sync::mpsc;

    /// Runs a `go` to its end and returns the answer and the notes.
    fn run(engine: &mut Engine, request: GoRequest) -> (Answer, Vec<String>) {
        let (tx, rx) = mpsc::channel();
        engine
            .go(
                request,
                Box::new(move |e| match e {
                    Event::Done(a) => {
                        let _ = tx.send(Err(a.clone()));
                    }
                    Event::Note(n) | Event::Warning(n) => {
                        let _ = tx.send(Ok(n));
                    }
                    Event::Search(_) => {}
                }),
            )
            .unwrap();
        let mut notes = Vec::new();
        loop {
            match rx.recv().unwrap() {
                Ok(n) => notes.push(n),
                Err(a) => {
                    engine.join();
                    return (a, notes);
                }
            }
        }
    }

    fn depth(d: u32) -> GoRequest {
        GoRequest {
            limits: Limits {
                depth: Some(d),
                ..Limits::default()
            },
            ..GoRequest::default()
        }
    }

    #[test]
    fn play_takes_the_book_move_and_analysis_searches() {
        let mut e = Engine::with(
            chariot_formats::book::builtin::book_set(),
            Tablebases::default(),
        );
        e.seed(1);
        let (a, _) = run(&mut e, depth(6));
        assert!(matches!(a.source, Source::Book(_)), "{a:?}");
        assert_eq!(a.result.nodes, 0);
        // MultiPV 3: analysis searches, and the book's moves are a note.
        e.set_options(Options {
            multipv: 3,
            ..e.options().clone()
        });
        let (a, notes) = run(&mut e, depth(4));
        assert_eq!(a.source, Source::Search);
        assert!(a.result.nodes > 0);
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("analysing, so searching; the book has")),
            "{notes:?}"
        );
    }

    #[test]
    fn banned_moves_are_not_played_from_the_book() {
        let mut e = Engine::with(
            chariot_formats::book::builtin::book_set(),
            Tablebases::default(),
        );
        let start = Position::start();
        let book: Vec<Move> = e.books().probe(&start).iter().map(|m| m.mv).collect();
        assert!(book.len() > 1);
        e.ban_moves(book.clone());
        let (a, _) = run(&mut e, depth(3));
        assert_eq!(
            a.source,
            Source::Search,
            "every book move is banned: search"
        );
        assert!(!book.contains(&a.result.best.unwrap()));
    }

    #[test]
    fn the_tables_play_a_won_ending_and_a_ban_is_honoured() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
        let tables = Tablebases::open(&[dir]).unwrap();
        let mut e = Engine::with(BookSet::default(), tables);
        e.set_position(Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap());
        let (a, _) = run(&mut e, depth(8));
        let Source::Tables { value, .. } = a.source else {
            panic!("{a:?}");
        };
        assert_eq!(value, TbValue::Win(1));
        assert_eq!(a.result.score, Score::Mate(1));
        let mate = a.result.best.unwrap();
        e.ban_moves(vec![mate]);
        let (a, _) = run(&mut e, depth(8));
        assert_ne!(a.result.best, Some(mate));
        // Tables off: the search finds the mate itself.
        e.set_use_egtb(false);
        e.ban_moves(Vec::new());
        let (a, _) = run(&mut e, depth(4));
        assert_eq!(a.source, Source::Search);
        assert_eq!(a.result.score, Score::Mate(1));
    }

    #[test]
    fn stop_ends_an_infinite_search_with_a_move() {
        let mut e = Engine::with(BookSet::default(), Tablebases::default());
        let (tx, rx) = mpsc::channel();
        e.go(
            GoRequest {
                limits: Limits {
                    infinite: true,
                    ..Limits::default()
                },
                ..GoRequest::default()
            },
            Box::new(move |ev| {
                if let Event::Done(a) = ev {
                    let _ = tx.send(a.result.best);
                }
            }),
        )
        .unwrap();
        assert!(e.is_thinking() && e.is_open_ended());
        assert!(matches!(
            e.go(depth(1), Box::new(|_| {})),
            Err(GoError::Busy)
        ));
        std::thread::sleep(Duration::from_millis(50));
        assert!(e.stop());
        let best = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(best.is_some_and(|m| Position::start().is_legal(m)));
        assert!(e.join());
        assert!(!e.is_thinking() && !e.stop());
        let _ = parse_iccs("h2e2");
    }
}
