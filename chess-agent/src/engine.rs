//! The typed engine API both protocols use: a game, an optional book, and a search running on
//! its own thread with a stop flag.
//!
//! [`Engine::go`] starts a search and returns at once; [`Engine::stop`] asks it to finish;
//! [`Engine::wait`] joins it. The searcher (with its transposition table) moves into the search
//! thread and comes back when it is joined, so no lock is taken during the search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use shakmaty::Move;

use crate::book::{Book, Choice};
use crate::game::Game;
use crate::search::{Limits, Outcome, Report, Searcher};

/// Called with each completed iteration, on the search thread.
pub type OnReport = Box<dyn FnMut(&Report) + Send>;
/// Called once with the result, on the search thread, before it ends.
pub type OnDone = Box<dyn FnOnce(&Outcome) + Send>;

/// Engine settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// How book moves are picked.
    pub book_choice: Choice,
    /// Seed for the book's random choice; `None` seeds from the clock.
    pub seed: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 64,
            book_choice: Choice::Weighted,
            seed: None,
        }
    }
}

/// The engine: a searcher, an optional book and at most one running search.
pub struct Engine {
    searcher: Option<Searcher>,
    running: Option<JoinHandle<(Searcher, Outcome)>>,
    stop: Arc<AtomicBool>,
    book: Option<Book>,
    own_book: bool,
    book_choice: Choice,
    rng: u64,
    hash_mb: usize,
}

impl Engine {
    /// An engine with the given options and book.
    #[must_use]
    pub fn new(options: &Options, book: Option<Book>) -> Engine {
        let seed = options.seed.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0x9e37_79b9, |d| d.as_nanos() as u64)
        });
        Engine {
            searcher: Some(Searcher::new(options.hash_mb)),
            running: None,
            stop: Arc::new(AtomicBool::new(false)),
            book,
            own_book: true,
            book_choice: options.book_choice,
            rng: seed | 1,
            hash_mb: options.hash_mb,
        }
    }

    /// Resizes the transposition table (waits for a running search first).
    pub fn set_hash(&mut self, megabytes: usize) {
        self.wait();
        if megabytes != self.hash_mb {
            self.hash_mb = megabytes;
            self.searcher = Some(Searcher::new(megabytes));
        }
    }

    /// Forgets what earlier searches learnt.
    pub fn new_game(&mut self) {
        self.wait();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    /// Turns the book on or off (UCI's `OwnBook`); it is on when the engine starts.
    pub fn set_own_book(&mut self, on: bool) {
        self.own_book = on;
    }

    /// A book move for the game's position that is not in `excluded`, if the book is on and has
    /// one.
    pub fn book_move(&mut self, game: &Game, excluded: &[Move]) -> Option<Move> {
        let book = self.book.as_ref().filter(|_| self.own_book)?;
        // xorshift64*: plenty for choosing among a handful of book moves.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let random = self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d);
        book.pick(game.position(), self.book_choice, random, excluded)
    }

    /// Starts searching the game's position. `hold` keeps the result back until
    /// [`Engine::stop`] (UCI `go infinite` and `ponder`).
    pub fn go(
        &mut self,
        game: &Game,
        limits: Limits,
        excluded: Vec<Move>,
        hold: bool,
        mut on_report: OnReport,
        on_done: OnDone,
    ) {
        self.wait();
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.hash_mb));
        self.stop = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&self.stop);
        let pos = game.position().clone();
        let history = game.history_keys();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let outcome = searcher.think(
                    &pos,
                    &history,
                    limits,
                    &excluded,
                    Arc::clone(&stop),
                    &mut *on_report,
                );
                while hold && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                on_done(&outcome);
                (searcher, outcome)
            })
            .expect("spawn the search thread");
        self.running = Some(handle);
    }

    /// Asks the running search, if any, to finish.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a search is running.
    #[must_use]
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Waits for the running search, if any, and returns its outcome.
    pub fn wait(&mut self) -> Option<Outcome> {
        let handle = self.running.take()?;
        match handle.join() {
            Ok((searcher, outcome)) => {
                self.searcher = Some(searcher);
                Some(outcome)
            }
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    /// Searches the game's position to the end of `limits` on the search thread and waits.
    pub fn think(&mut self, game: &Game, limits: Limits, excluded: Vec<Move>) -> Outcome {
        self.go(
            game,
            limits,
            excluded,
            false,
            Box::new(|_| {}),
            Box::new(|_| {}),
        );
        self.wait().expect("a search was started")
    }
}
