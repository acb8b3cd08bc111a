//! Per-thread search state and Lazy SMP.
//!
//! Lazy SMP: every thread runs its own iterative deepening over its own copy of the position,
//! and the threads share nothing but the transposition table (and the stop flag). They help each
//! other only through the table: a helper that finishes a subtree first leaves its result for the
//! others. Helpers start at different depths so that they do not all walk the same tree in step.
//! Only the main thread (number 0) watches the clock, reports, and decides the move.
//!
//! Threads are scoped (`std::thread::scope`), so they borrow the table and the per-thread
//! histories from the [`Searcher`] without reference counting, and all have ended when
//! [`run`] returns.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::boxed::boxed_array;
use super::history::History;
use super::picker::MoveBuffer;
use super::root_move::RootMove;
use super::score::{INFINITE, MAX_PLY, Score};
use super::timeman::TimeManager;
use super::tt::Tt;
use super::{Control, Level, Limits, Report, SearchResult, Searcher, Style};
use chariot_eval::{Accumulator, EvalConfig, evaluate_incremental, evaluate_lazy, evaluate_with};
use chariot_formats::egtb::Tablebases;
use chariot_rules::{Color, Move, MoveList, Position};

/// What the search keeps for each ply.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    /// The static evaluation (meaningless when in check).
    pub static_eval: i32,
    /// Quiet moves that caused a cutoff at this ply.
    pub killers: [Move; 2],
    /// The move being searched from this ply ([`Move::NONE`] for a null move).
    pub current: Move,
    /// The raw byte of the piece that `current` moves.
    pub moved: u8,
    /// Whether the side to move at this ply is in check, when the parent already worked it out
    /// (the late move reduction asks whether a move gives check); `None` otherwise. Every node
    /// takes it on entry, so that it never outlives the position it is about.
    pub check: Option<bool>,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: 0,
        killers: [Move::NONE; 2],
        current: Move::NONE,
        moved: 0,
        check: None,
    };
}

/// A thread's state that outlives one search: history and counter moves (until `clear`), and
/// the stack and principal variation buffers (reused to avoid allocation).
///
/// The per-ply tables are boxed arrays rather than vectors: their lengths are constants, so that
/// the compiler can see that an index below [`MAX_PLY`] (which the search checks at every node)
/// is in bounds, and drop the test.
pub(crate) struct ThreadData {
    pub history: History,
    pub stack: Box<[Frame; MAX_PLY + 4]>,
    pub pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub pv_len: Box<[usize; MAX_PLY + 1]>,
    /// One move buffer per ply.
    pub buffers: Box<[MoveBuffer; MAX_PLY + 1]>,
    /// The evaluation's incremental sums of the position at each ply.
    pub accs: Box<[Accumulator; MAX_PLY + 4]>,
    /// The network's first layer at each ply, when the search evaluates with one.
    pub network: super::network_stack::NetworkStack,
}

impl ThreadData {
    pub fn new() -> ThreadData {
        let start = Accumulator::new(&Position::start());
        ThreadData {
            history: History::new(),
            stack: boxed_array(|_| Frame::EMPTY),
            pv: boxed_array(|_| [Move::NONE; MAX_PLY + 1]),
            pv_len: boxed_array(|_| 0),
            buffers: boxed_array(|_| MoveBuffer::new()),
            accs: boxed_array(|_| start),
            network: super::network_stack::NetworkStack::new(),
        }
    }

    pub fn clear(&mut self) {
        self.history.clear();
        self.reset_stack();
    }

    pub fn reset_stack(&mut self) {
        self.stack.fill(Frame::EMPTY);
    }
}

/// How the options shape one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    pub pruning: Level,
    pub eval: EvalConfig,
    /// Amplitude of the evaluation noise in centipawns (0 = none).
    pub noise: i32,
    /// The share of captures overlooked below the root, in 65,536ths (0 = none).
    pub overlook: u64,
    pub seed: u64,
    /// What a draw is worth to the side that started the search (negative: it avoids draws).
    pub contempt: i32,
    pub multipv: usize,
}

impl Config {
    fn new(searcher: &Searcher, root: Color) -> Config {
        let o = &searcher.options;
        let noise = match o.randomness {
            Level::None => 0,
            Level::Tiny => 4,
            Level::Small => 10,
            Level::Medium => 20,
            Level::Large => 40,
            Level::Huge => 80,
        };
        // Each level doubles the share: even a few percent of the captures at every node of a
        // deep search is a large handicap (measured: docs/STRENGTH.md).
        let overlook = match o.blunders {
            Level::None => 0,
            Level::Tiny => 2,
            Level::Small => 4,
            Level::Medium => 8,
            Level::Large => 16,
            Level::Huge => 32,
        } * 65_536
            / 100;
        // A new seed per search: the noise and the overlooked captures are hashes of the
        // position and this seed.
        let seed = if noise == 0 && overlook == 0 {
            0
        } else {
            chariot_rules::random::Rng::from_clock().next_u64() | 1
        };
        let contempt = match o.style {
            Style::Solid => 0,
            Style::Normal => 15,
            Style::Risky => 50,
        };
        Config {
            pruning: o.pruning,
            eval: EvalConfig::new(o.knowledge, o.style, root),
            noise,
            overlook,
            seed,
            contempt,
            multipv: o.multipv.max(1),
        }
    }

    pub fn null_move(&self) -> bool {
        self.pruning >= Level::Tiny
    }

    pub fn reductions(&self) -> bool {
        self.pruning >= Level::Medium
    }

    pub fn futility(&self) -> bool {
        self.pruning >= Level::Medium
    }

    pub fn move_count_pruning(&self) -> bool {
        self.pruning >= Level::Large
    }
}

/// A 64-bit finaliser (MurmurHash3's): spreads a key's bits over all of its bits.
#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub control: &'a Control,
    /// Set by the main thread to end the search on all threads.
    pub abort: AtomicBool,
    /// Nodes per thread, published at every poll (and at the end).
    pub nodes: Vec<AtomicU64>,
    pub limits: &'a Limits,
    pub config: Config,
    pub start: Instant,
    /// The `idle` level.
    pub idle: Level,
    /// Endgame tables, and the most pieces any of them holds.
    pub tables: Option<(&'a Tablebases, u32)>,
    /// Table probes that scored a node (all threads).
    pub tbhits: AtomicU64,
    /// The network to evaluate with, if any.
    pub network: Option<&'a chariot_eval::nnue::Network>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// One search thread.
pub(crate) struct Worker<'a> {
    pub id: usize,
    pub data: &'a mut ThreadData,
    pub shared: &'a Shared<'a>,
    pub tt: &'a Tt,
    pub nodes: u64,
    pub seldepth: usize,
    pub root_depth: i32,
    pub root_color: Color,
    /// Null move search is not tried at plies below this (during a verification search).
    pub nmp_min_ply: usize,
    pub stopped: bool,
    pub time: TimeManager,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: u32,
    /// With MultiPV, the best root move as the last completed iteration reported it: a stop in
    /// the middle of an iteration answers with its line, so that `bestmove ... ponder` agrees
    /// with the last `multipv 1` line the GUI showed.
    pub reported_best: Option<RootMove>,
    /// When this thread last rested (UCCI `idle`).
    pub rested: Instant,
    /// The thread polls when its node count has these bits clear ([`poll_mask`]).
    pub poll_mask: u64,
}

/// The nodes between two polls (a look at the stop flag, the clock and the node budget) less
/// one, as a bit mask: every 1024 nodes, or under a node budget every 1024th of it (a power of
/// two, at least every node), so that `go nodes N` stops between N − N/1024 and N nodes (at
/// exactly N below 2,048) while the cost of a poll stays out of the normal search.
pub(crate) fn poll_mask(limits: &Limits) -> u64 {
    const EVERY: u64 = 1024;
    let every = match limits.nodes {
        Some(n) if !limits.infinite && n / EVERY < EVERY => {
            let share = (n / EVERY).max(1);
            // The largest power of two not above the share.
            1 << (63 - share.leading_zeros())
        }
        _ => EVERY,
    };
    every - 1
}

impl Worker<'_> {
    /// Counts a node; every [`poll_mask`] + 1 nodes publishes the count and checks whether to
    /// stop.
    #[inline]
    pub fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 {
            self.poll();
        }
    }

    fn poll(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
        self.rest();
        if self.id == 0 {
            let shared = self.shared;
            let limits = shared.limits;
            let mut stop = shared.control.stop.load(Relaxed);
            if shared.control.pondering.load(Relaxed) {
                // The budget starts when pondering ends.
                self.time.restart(Instant::now());
            } else if !limits.infinite {
                stop |= self.time.out_of_time() || self.out_of_nodes();
            }
            if stop {
                shared.abort.store(true, Relaxed);
            }
        }
        // A stop or the clock lets the first iteration complete (it takes well under a
        // millisecond), so that there is always a move to play. A node budget ends it as soon
        // as one root move has been searched: a budget smaller than the first iteration (the
        // weakest playing level's) still holds.
        if self.shared.abort.load(Relaxed)
            && (self.completed_depth > 0
                || (self.root_moves[0].score > -INFINITE && self.out_of_nodes()))
        {
            self.stopped = true;
        }
    }

    /// Whether the search has spent its node budget (all threads), or would overspend it
    /// before the next poll: with one thread it never searches more than the budget.
    fn out_of_nodes(&self) -> bool {
        let limits = self.shared.limits;
        !limits.infinite
            && limits
                .nodes
                .is_some_and(|n| self.shared.total_nodes() + self.poll_mask >= n)
    }

    /// Sleeps for a share of the time worked since the last rest, as the `idle` option asks:
    /// after every 8 ms of work, 8 ms x (1/3, 1, 3) of rest for small, medium and large, so the
    /// search uses about 75%, 50% and 25% of a processor. It never rests while told to stop.
    fn rest(&mut self) {
        let factor = match self.shared.idle {
            Level::None => return,
            Level::Tiny | Level::Small => 1.0 / 3.0,
            Level::Medium => 1.0,
            Level::Large | Level::Huge => 3.0,
        };
        let worked = self.rested.elapsed();
        if worked >= Duration::from_millis(8) {
            let pause = worked.mul_f64(factor);
            // Sleep in short slices so that stop is still answered within a few milliseconds.
            let until = Instant::now() + pause;
            while Instant::now() < until && !self.shared.control.stop.load(Relaxed) {
                std::thread::sleep((until - Instant::now()).min(Duration::from_millis(2)));
            }
            self.rested = Instant::now();
        }
    }

    /// The static evaluation of `pos` at `ply`, with the configured knowledge and noise.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let config = &self.shared.config;
        let v = match self.shared.network {
            Some(net) => self.data.network.evaluate(net, ply, pos),
            None => evaluate_incremental(pos, &config.eval, &self.data.accs[ply]),
        };
        if config.noise == 0 {
            return v;
        }
        // Noise is a function of the position, so that it is the same wherever the position
        // recurs in this search (and the table stays consistent).
        let span = (2 * config.noise + 1) as u64;
        v + (mix(pos.key() ^ config.seed) % span) as i32 - config.noise
    }

    /// Whether the search overlooks the capture `m` in `pos` (the `blunders` option): a hash of
    /// the position, the move and the search's seed, so that a capture is overlooked wherever
    /// its position recurs in this search, and a different one in the next search.
    #[inline]
    pub fn overlooks(&self, pos: &Position, m: Move) -> bool {
        let config = &self.shared.config;
        config.overlook != 0
            && mix(pos.key() ^ config.seed ^ u64::from(m.to_u16()).rotate_left(29)) & 0xffff
                < config.overlook
    }

    /// The static evaluation when it may fall inside `(alpha, beta)`; otherwise, when the quick
    /// part of it shows that it is at least `beta` or at most `alpha` by the lazy margin, that
    /// bound (see [`evaluate_lazy`]). The flag is `true` for the exact evaluation.
    #[inline]
    pub fn evaluate_lazy(
        &mut self,
        pos: &Position,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> (i32, bool) {
        let config = &self.shared.config;
        if config.noise == 0 && self.shared.network.is_none() {
            return evaluate_lazy(pos, &config.eval, &self.data.accs[ply], alpha, beta);
        }
        (self.evaluate(pos, ply), true)
    }

    /// Sets up the evaluation's incremental state for the root position `pos` (ply 0).
    pub fn enter_root(&mut self, pos: &Position) {
        self.data.accs[0] = Accumulator::new(pos);
        if let Some(net) = self.shared.network {
            self.data.network.refresh(net, 0, pos);
        }
    }

    /// Derives the evaluation's incremental state at `ply + 1` from that at `ply`, for `m`
    /// played in `pos` (call before making it).
    #[inline]
    pub fn enter_move(&mut self, pos: &Position, ply: usize, m: Move) {
        self.data.accs[ply + 1] = self.data.accs[ply].after_move(pos, m);
        if self.shared.network.is_some() {
            self.data.network.after_move(ply, pos, m);
        }
    }

    /// As [`Worker::enter_move`] for a null move.
    #[inline]
    pub fn enter_null(&mut self, ply: usize) {
        self.data.accs[ply + 1] = self.data.accs[ply];
        if self.shared.network.is_some() {
            self.data.network.after_null(ply);
        }
    }

    /// The value of a draw for the side to move (contempt makes it unwelcome to the root side).
    #[inline]
    pub fn draw_score(&self, pos: &Position) -> i32 {
        let c = self.shared.config.contempt;
        if pos.turn() == self.root_color { -c } else { c }
    }
}

/// Runs one search for [`Searcher::search`].
pub(crate) fn run(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    control: &Arc<Control>,
    report: &mut dyn FnMut(Report<'_>),
) -> SearchResult {
    let start = Instant::now();
    let root_color = pos.turn();
    let config = Config::new(searcher, root_color);

    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    let root_moves: Vec<RootMove> = legal
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .filter(|m| !limits.banmoves.contains(m))
        .map(RootMove::new)
        .collect();

    let no_move = |score: Score| SearchResult {
        best: None,
        ponder: None,
        score,
        depth: 0,
        nodes: 0,
    };
    let result = if legal.is_empty() {
        Some(no_move(Score::Mate(0)))
    } else if root_moves.is_empty() || limits.depth == Some(0) {
        Some(no_move(Score::Cp(evaluate_with(pos, &config.eval))))
    } else {
        None
    };
    if let Some(result) = result {
        wait_while_required(limits, control);
        return result;
    }

    searcher.tt.new_search();
    let threads = searcher.threads.len();
    let shared = Shared {
        control,
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        limits,
        config,
        start,
        idle: searcher.options.idle,
        tables: searcher.tables.as_deref().map(|t| (t, t.max_pieces())),
        tbhits: AtomicU64::new(0),
        network: searcher
            .network
            .as_deref()
            .filter(|_| uses_network(&searcher.options)),
    };
    let tt = &searcher.tt;
    let time = TimeManager::new(limits, start);
    let (main_data, helper_data) = searcher
        .threads
        .split_first_mut()
        .unwrap_or_else(|| unreachable!("one thread at least"));

    std::thread::scope(|scope| {
        for (i, data) in helper_data.iter_mut().enumerate() {
            let (shared, root_moves, mut pos) = (&shared, root_moves.clone(), pos.clone());
            scope.spawn(move || {
                let mut worker = Worker::new(i + 1, data, shared, tt, time, root_moves, root_color);
                worker.iterate(&mut pos, None);
            });
        }
        let mut worker = Worker::new(0, main_data, &shared, tt, time, root_moves, root_color);
        let mut pos = pos.clone();
        worker.iterate(&mut pos, Some(report));
        wait_while_required(limits, control);
        shared.abort.store(true, Relaxed);
        shared.nodes[0].store(worker.nodes, Relaxed);
        worker.result(&mut pos)
    })
    .with_nodes(&shared)
}

impl SearchResult {
    fn with_nodes(mut self, shared: &Shared<'_>) -> SearchResult {
        self.nodes = shared.total_nodes();
        self
    }
}

/// In infinite mode and while pondering, UCI forbids answering before `stop` (or the ponder
/// hit), even when the search has nothing left to do.
fn wait_while_required(limits: &Limits, control: &Control) {
    while !control.stop.load(Relaxed) && (limits.infinite || control.pondering.load(Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl<'a> Worker<'a> {
    fn new(
        id: usize,
        data: &'a mut ThreadData,
        shared: &'a Shared<'a>,
        tt: &'a Tt,
        time: TimeManager,
        root_moves: Vec<RootMove>,
        root_color: Color,
    ) -> Worker<'a> {
        data.reset_stack();
        Worker {
            id,
            data,
            shared,
            tt,
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            root_color,
            nmp_min_ply: 0,
            stopped: false,
            time,
            root_moves,
            completed_depth: 0,
            reported_best: None,
            rested: Instant::now(),
            poll_mask: poll_mask(shared.limits),
        }
    }

    /// The main thread's answer once it has finished.
    fn result(&self, pos: &mut Position) -> SearchResult {
        let best = match &self.reported_best {
            Some(reported) if self.shared.config.multipv > 1 => reported,
            _ => &self.root_moves[0],
        };
        let score = if best.score > -INFINITE {
            best.score
        } else {
            best.prev_score
        };
        let ponder = best.pv.get(1).copied().or_else(|| {
            pos.make_move(best.mv);
            let m = self
                .tt
                .probe(pos.key())
                .map(|e| e.mv)
                .filter(|&m| !m.is_none() && pos.is_legal(m));
            pos.unmake_move();
            m
        });
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: Score::from_internal(score),
            depth: self.completed_depth,
            nodes: 0,
        }
    }
}

/// Whether a search with `options` evaluates with the network it has: only at full knowledge and
/// the normal style. Lower knowledge levels and the solid and risky styles are shapes of the
/// hand-written evaluation (the levels of play, `docs/search.md`), which the network has no
/// counterpart for.
#[must_use]
pub fn uses_network(options: &super::Options) -> bool {
    options.knowledge >= chariot_eval::levels::Level::Large
        && options.style == chariot_eval::levels::Style::Normal
}
