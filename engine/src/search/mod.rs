//! The search: iterative deepening over a principal variation search, with a shared
//! transposition table, Lazy SMP threads and time management.
//!
//! This module is the typed API that the UCCI and UCI front ends drive; everything else in
//! `search/` is private machinery, one topic per file:
//!
//! - [`limits`]: what a search may spend ([`Limits`], [`TimeLeft`]);
//! - [`score`]: [`Score`], [`Bound`] and the internal mate encoding;
//! - `tt`: the lockless transposition table;
//! - `picker`: move ordering, the staged move picker (TT move, SEE-sorted captures, killers,
//!   counter move, quiet moves by history);
//! - `history`: the quiet-move statistics that order quiet moves (butterfly and continuation
//!   histories, counter moves);
//! - `see`: static exchange evaluation;
//! - `timeman`: turning a clock into a time budget;
//! - `draw`: repetitions and the natural move limit inside the search;
//! - `pvs`: the alpha-beta search and quiescence search of one thread;
//! - `iterate`: iterative deepening, aspiration windows, MultiPV and reporting;
//! - `thread`: per-thread state and Lazy SMP.
//!
//! The effects of the [`Options`] are described in `docs/search.md`.
//!
//! # Example
//! ```
//! use std::sync::Arc;
//! use chariot_rules::Position;
//! use chariot_engine::search::{Control, Limits, Options, Searcher};
//!
//! let mut searcher = Searcher::new(Options { hash_mb: 1, ..Options::default() });
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = searcher.search(&Position::start(), &limits, &Arc::new(Control::default()), &mut |_| {});
//! assert!(result.best.is_some());
//! ```

pub mod bench;
mod boxed;
pub mod limits;
pub mod puzzle;
pub mod score;

mod draw;
mod history;
mod iterate;
mod network_stack;
mod picker;
mod pvs;
mod root_move;
mod see;
mod thread;
mod timeman;
mod tt;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use chariot_eval::levels::{Level, Style};
pub use limits::{Limits, TimeLeft};
pub use score::{Bound, Score};
pub use thread::uses_network;

use chariot_formats::egtb::Tablebases;
use chariot_rules::{Move, Position};
use thread::ThreadData;
use tt::Tt;

/// Engine options that shape the search (the protocol front ends map `setoption` onto these).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB (at least 1 is used).
    pub hash_mb: usize,
    /// Search threads (Lazy SMP; at least 1 is used).
    pub threads: usize,
    /// Number of principal variations to report (at least 1 is used).
    pub multipv: usize,
    /// How aggressively the search prunes (`None`: no null move, reductions or futility).
    pub pruning: Level,
    /// Which evaluation terms are used (`None`: material only).
    pub knowledge: Level,
    /// Random noise added to the evaluation to vary play (`None`: deterministic).
    pub randomness: Level,
    /// How often the search overlooks a capture below the root, as a beginner does not see
    /// that a piece hangs (`None`: never, the default).
    pub blunders: Level,
    /// Draw avoidance and king-safety balance.
    pub style: Style,
    /// How much processor time to leave to other programs (UCCI `idle`): `None` searches flat
    /// out; `Small`, `Medium` and `Large` rest a quarter, a half and three quarters of the time.
    pub idle: Level,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            pruning: Level::Large,
            knowledge: Level::Large,
            randomness: Level::None,
            blunders: Level::None,
            style: Style::Normal,
            idle: Level::None,
        }
    }
}

/// Information about a completed iteration (or an aspiration-window failure) of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Nominal depth in plies.
    pub depth: u32,
    /// The deepest ply reached (selective depth).
    pub seldepth: u32,
    /// Which principal variation this is, from 1.
    pub multipv: u32,
    /// The score of the line from the side to move's view.
    pub score: Score,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    /// Tablebase hits (none yet: the search does not probe tablebases).
    pub tbhits: u64,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Move>,
}

/// What the search tells its caller while it runs (called on the searching thread).
#[derive(Debug)]
pub enum Report<'a> {
    /// An iteration finished (or a line failed high or low); one report per MultiPV line.
    Iteration(&'a Info),
    /// The root move now being searched (sent only after the search has run a second).
    CurrMove {
        /// The iteration's depth.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its number in the root move list, from 1.
        number: u32,
    },
    /// Free text for the GUI (UCI `info string`).
    String(&'a str),
}

/// Flags shared between a running search and the thread that controls it.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop the search as soon as possible (it returns within about a millisecond).
    pub stop: AtomicBool,
    /// While true the search never stops on time; when it turns false (ponderhit) the time
    /// budget starts counting from that moment.
    pub pondering: AtomicBool,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when no root move is allowed (no legal move, all banned) or
    /// when the depth limit is 0.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// The score of `best` (without a move: `Mate(0)` when mated, otherwise the evaluation).
    pub score: Score,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
}

/// What the transposition table knows about a position (UCCI `probe` answers with `pophash`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashProbe {
    /// The stored best move, if it is legal in the position.
    pub best: Option<Move>,
    /// A lower bound on the score and the depth it was searched to.
    pub lower: Option<(Score, u32)>,
    /// An upper bound on the score and the depth it was searched to.
    pub upper: Option<(Score, u32)>,
}

/// A shared, read-only view of a searcher's transposition table (see [`Searcher::hash_view`]).
#[derive(Clone)]
pub struct HashView(Arc<Tt>);

impl HashView {
    /// What the table holds for `pos`: the stored move if it is legal there, and the bounds.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<HashProbe> {
        let entry = self.0.probe(pos.key())?;
        let best = Some(entry.mv).filter(|&m| !m.is_none() && pos.is_legal(m));
        let score = Score::from_internal(score::from_tt(entry.score, 0));
        let depth = entry.depth.max(0) as u32;
        let (lower, upper) = match entry.bound {
            Bound::Exact => (Some((score, depth)), Some((score, depth))),
            Bound::Lower => (Some((score, depth)), None),
            Bound::Upper => (None, Some((score, depth))),
        };
        Some(HashProbe { best, lower, upper })
    }
}

/// The search engine: the transposition table, per-thread histories and the options.
///
/// One `Searcher` runs one search at a time (`search` takes `&mut self`); the caller runs it on a
/// thread of its own and stops it through the shared [`Control`].
pub struct Searcher {
    options: Options,
    tt: Arc<Tt>,
    threads: Vec<ThreadData>,
    tables: Option<Arc<Tablebases>>,
    /// The neural network the search evaluates with, or `None` for the hand-written
    /// evaluation.
    network: Option<Arc<chariot_eval::nnue::Network>>,
}

impl Searcher {
    /// A searcher with the given options and an empty table.
    #[must_use]
    pub fn new(options: Options) -> Searcher {
        let mut searcher = Searcher {
            tt: Arc::new(Tt::new(options.hash_mb)),
            threads: Vec::new(),
            tables: None,
            network: None,
            options,
        };
        searcher.resize_threads();
        searcher
    }

    /// The current options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options, resizing the table (which clears it) and the thread pool as needed.
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb.max(1) != self.options.hash_mb.max(1) {
            self.tt = Arc::new(Tt::new(options.hash_mb));
        }
        self.options = options;
        self.resize_threads();
    }

    /// Forgets everything learnt (new game): clears the table and the move-ordering history.
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.clear();
        }
    }

    /// Searches `pos` (whose move history is used for repetition detection) within `limits`,
    /// calling `report` with progress from the searching thread, and returns the best move.
    ///
    /// The search returns when a limit is reached or `control.stop` is set. With
    /// `limits.infinite`, or while `control.pondering` is set, it does not return before it is
    /// stopped (or the ponder hit), even when it has nothing left to search, as UCI requires.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Arc<Control>,
        report: &mut dyn FnMut(Report<'_>),
    ) -> SearchResult {
        thread::run(self, pos, limits, control, report)
    }

    /// The endgame tables the search consults (`None`: none). A position a table covers is
    /// scored by it (a win as a mate when it fits in the search's horizon, else as
    /// [`score::tb_win_in`]; a win by the perpetual-check rule as [`score::tb_rule_win_at`],
    /// below every table mate; a loss as the negation; a draw as a draw) instead of being
    /// searched; each such probe counts in `Info::tbhits`.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) {
        self.tables = tables.filter(|t| !t.is_empty());
    }

    /// Evaluates with `network` from the next search on, or with the hand-written evaluation
    /// (`None`). The knowledge level and style shape only the hand-written evaluation; noise
    /// (randomness) applies to both.
    pub fn set_network(&mut self, network: Option<Arc<chariot_eval::nnue::Network>>) {
        self.network = network;
    }

    /// The network the search evaluates with, if any.
    #[must_use]
    pub fn network(&self) -> Option<&Arc<chariot_eval::nnue::Network>> {
        self.network.as_ref()
    }

    /// What the table holds for `pos`.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<HashProbe> {
        self.hash_view().probe(pos)
    }

    /// A handle on the transposition table that can be probed while a search runs (UCCI
    /// `probe` is answered in the thinking state). It refers to the current table: after
    /// [`Searcher::set_options`] changes the hash size, take a new view.
    #[must_use]
    pub fn hash_view(&self) -> HashView {
        HashView(Arc::clone(&self.tt))
    }

    fn resize_threads(&mut self) {
        let n = self.options.threads.max(1);
        self.threads.truncate(n);
        while self.threads.len() < n {
            self.threads.push(ThreadData::new());
        }
    }
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(Options::default())
    }
}
