//! What the handlers share: the books, the tables, the external engines, the open games and the
//! server's limits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chariot_engine::search::Options;
use chariot_formats::book::BookSet;
use chariot_formats::egtb::Tablebases;
use chariot_rules::random::Rng;

use crate::error::ApiError;
use crate::game::Game;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games kept at once; a new game beyond this replaces the longest idle one, or is refused
    /// when none has been idle for `idle`.
    pub max_games: usize,
    /// A game unused this long may be closed.
    pub idle: Duration,
    /// The longest the engine thinks for one move, whatever the level.
    pub max_think: Duration,
    /// Request bodies larger than this are refused (413).
    pub max_body: usize,
    /// Each game's engine hash table, MiB.
    pub hash_mb: usize,
    /// Analyses running at once (each has an engine searching flat out on one thread).
    pub max_analyses: usize,
    /// The longest one analysis asked for in seconds may run.
    pub max_analysis: Duration,
    /// The longest an infinite analysis (`seconds=infinite`) runs when its client does not
    /// close the stream before (`crate::analysis`).
    pub max_infinite_analysis: Duration,
    /// Searches of the ChessDB endpoint running at once (`crate::chessdb_search`); more
    /// are answered `rate limit exceeded`.
    pub max_chessdb_searches: usize,
    /// The nodes one search of the ChessDB endpoint may spend (about 0.2 s at the 1.5 million
    /// nodes a second `chariot bench` measures on one unloaded core).
    pub chessdb_nodes: u64,
    /// Game reviews running at once (`crate::review`; each searches on one thread).
    pub max_reviews: usize,
    /// The longest game a review takes, in plies.
    pub max_review_plies: usize,
    /// The nodes a review searches in each position that neither the rules nor the tables
    /// decide: nodes rather than time, so that a review says the same on a slow machine as on a
    /// fast one (150,000: about 0.1 s at the 1.5 million nodes a second `chariot bench`
    /// measures on one unloaded core).
    pub review_nodes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_games: 64,
            idle: Duration::from_secs(30 * 60),
            max_think: Duration::from_secs(10),
            max_body: 64 * 1024,
            hash_mb: 8,
            max_analyses: 4,
            max_analysis: Duration::from_secs(60),
            max_infinite_analysis: Duration::from_secs(30 * 60),
            max_chessdb_searches: 2,
            chessdb_nodes: 300_000,
            max_reviews: 2,
            max_review_plies: 600,
            review_nodes: 150_000,
        }
    }
}

/// What the handlers share.
pub struct AppState {
    pub(crate) limits: Limits,
    pub(crate) books: Arc<BookSet>,
    pub(crate) tables: Arc<Tablebases>,
    pub(crate) games: Mutex<HashMap<String, Slot>>,
    ids: Mutex<Rng>,
    pub(crate) analyses: Arc<tokio::sync::Semaphore>,
    /// The ChessDB endpoint's searches running.
    pub(crate) chessdb_searches: Arc<tokio::sync::Semaphore>,
    /// Where finished games are kept, if anywhere.
    pub(crate) archive: Option<Arc<crate::played_games::Archive>>,
    /// The explorer's game database, if any.
    pub(crate) games_db: Option<Arc<crate::explorer_db::GamesDb>>,
    /// The tablebase pages computed so far (`GET /api/tablebases/{material}`).
    pub(crate) table_pages: crate::tables::Pages,
    /// Imports and book compilations under way or recently ended.
    pub(crate) jobs: crate::jobs::Jobs,
    /// The books compiled in the browser (and those kept from earlier runs).
    pub(crate) library: crate::compiled_books::Library,
    /// The external engines (`chariot serve --engine`).
    pub(crate) engines: crate::engines::Engines,
    /// Places for the game reviews running at once (`crate::review`).
    pub(crate) reviews: Arc<tokio::sync::Semaphore>,
    /// The review job of each game reviewed (its start FEN and moves), while the jobs keep it.
    pub(crate) reviewed: Mutex<HashMap<String, String>>,
    /// Where finished reviews are kept across restarts, if anywhere.
    pub(crate) review_store: Option<Arc<crate::review_store::ReviewStore>>,
    /// The shipped puzzles and the searches judging a solver's moves.
    pub(crate) puzzles: crate::puzzle_shelf::Puzzles,
}

/// A game and when it was last used.
pub(crate) struct Slot {
    game: Arc<Mutex<Game>>,
    used: Instant,
}

impl AppState {
    /// The shared state over these books and tables.
    #[must_use]
    pub fn new(books: BookSet, tables: Tablebases, limits: Limits) -> AppState {
        AppState {
            books: Arc::new(books),
            tables: Arc::new(tables),
            games: Mutex::new(HashMap::new()),
            ids: Mutex::new(Rng::from_clock()),
            analyses: Arc::new(tokio::sync::Semaphore::new(limits.max_analyses)),
            chessdb_searches: Arc::new(tokio::sync::Semaphore::new(limits.max_chessdb_searches)),
            reviews: Arc::new(tokio::sync::Semaphore::new(limits.max_reviews)),
            reviewed: Mutex::new(HashMap::new()),
            review_store: None,
            limits,
            archive: None,
            games_db: None,
            table_pages: crate::tables::Pages::default(),
            jobs: crate::jobs::Jobs::default(),
            library: crate::compiled_books::Library::default(),
            engines: crate::engines::Engines::default(),
            puzzles: crate::puzzle_shelf::Puzzles::default(),
        }
    }

    /// Offers `engines` to play against and to analyse with.
    #[must_use]
    pub fn with_engines(mut self, engines: crate::engines::Engines) -> AppState {
        self.engines = engines;
        self
    }

    /// Explores `db` (`GET /api/games`).
    #[must_use]
    pub fn with_games_db(mut self, db: Arc<crate::explorer_db::GamesDb>) -> AppState {
        self.games_db = Some(db);
        self
    }

    /// Keeps the books compiled in the browser in `library`.
    #[must_use]
    pub fn with_library(mut self, library: crate::compiled_books::Library) -> AppState {
        self.library = library;
        self
    }

    /// Keeps every finished game in `archive` (a game database).
    #[must_use]
    pub fn with_archive(mut self, archive: crate::played_games::Archive) -> AppState {
        self.archive = Some(Arc::new(archive));
        self
    }

    /// Keeps finished reviews in `store` and answers from it (`crate::review_store`).
    #[must_use]
    pub fn with_review_store(mut self, store: crate::review_store::ReviewStore) -> AppState {
        self.review_store = Some(Arc::new(store));
        self
    }

    pub(crate) fn engine_options(&self) -> Options {
        Options {
            hash_mb: self.limits.hash_mb,
            threads: 1,
            ..Options::default()
        }
    }

    pub(crate) fn new_id(&self) -> String {
        let mut rng = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        format!("{:016x}", rng.next_u64())
    }

    /// Files a new game in place of the game `replacing` (when there is one), else closing
    /// the longest idle game when the server is full. The game replaced is closed only here,
    /// once the new game is made: a new game that is refused leaves it playing.
    pub(crate) fn insert(&self, game: Game, replacing: Option<&str>) -> Result<String, ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = replacing {
            games.remove(old);
        }
        if games.len() >= self.limits.max_games {
            let idle = games
                .iter()
                .filter(|(_, s)| s.used.elapsed() >= self.limits.idle)
                .min_by_key(|(_, s)| s.used)
                .map(|(id, _)| id.clone());
            match idle {
                Some(id) => {
                    games.remove(&id);
                }
                None => {
                    return Err(ApiError::busy(format!(
                        "the server has {} games open, its limit; try again later",
                        games.len()
                    ))
                    .with_code("too-many-games")
                    .with("max", games.len()));
                }
            }
        }
        let id = self.new_id();
        games.insert(
            id.clone(),
            Slot {
                game: Arc::new(Mutex::new(game)),
                used: Instant::now(),
            },
        );
        Ok(id)
    }

    pub(crate) fn game(&self, id: &str) -> Result<Arc<Mutex<Game>>, ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let slot = games.get_mut(id).ok_or_else(|| {
            ApiError::not_found(format!("no game {id:?} (closed, or never made)"))
                .with_code("no-game")
                .with("id", id)
        })?;
        slot.used = Instant::now();
        Ok(Arc::clone(&slot.game))
    }
}
