//! `chariot serve`: the web server (the `chariot_web` crate) on a tokio runtime.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use chariot_engine::resources;
use chariot_web::compiled_books::Library;
use chariot_web::engines::{EngineSpec, Engines};
use chariot_web::explorer_db::GamesDb;
use chariot_web::played_games::Archive;
use chariot_web::review_store::ReviewStore;
use chariot_web::{AppState, Limits};

/// How `chariot serve` was asked to run.
pub struct Settings {
    /// The address to listen on.
    pub host: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// Opening books; the built-in one when empty.
    pub books: Vec<PathBuf>,
    /// Table directories; the data-location order when empty.
    pub egtb: Vec<PathBuf>,
    /// Games open at once.
    pub max_games: usize,
    /// The longest one search of the server may take: a move at any level, a hint, a review's
    /// position, a query of the ChessDB endpoint.
    pub max_think: std::time::Duration,
    /// The game database finished games go into and the explorer explores; without it, the
    /// default game database and `played.sqlite` in the user's data directory.
    pub games: Option<PathBuf>,
    /// Open the app in the default browser.
    pub open: bool,
    /// External engines to play against and analyse with.
    pub engines: Vec<EngineSpec>,
}

/// Opens the books, the tables and the game database and serves until the process is stopped.
pub fn serve(settings: &Settings) -> anyhow::Result<()> {
    let Settings {
        host,
        port,
        books,
        egtb,
        max_games,
        max_think,
        games,
        open,
        engines,
    } = settings;
    let engines =
        Engines::new(engines.clone()).map_err(|e| chariot_cli::usage(format!("--engine: {e}")))?;
    let books = resources::load_books(books).context("--book")?;
    let (tables, problems) = resources::load_tables(egtb);
    for p in &problems {
        eprintln!("chariot serve: warning: {p}");
    }
    let addr = SocketAddr::new(*host, *port);
    let mut state = AppState::new(
        books,
        tables,
        Limits {
            max_games: *max_games,
            max_think: *max_think,
            ..Limits::default()
        },
    );
    match games {
        Some(path) => {
            let archive =
                Archive::open(path).with_context(|| format!("--games {}", path.display()))?;
            let explored =
                GamesDb::open(path).with_context(|| format!("--games {}", path.display()))?;
            state = state
                .with_archive(archive)
                .with_games_db(Arc::new(explored));
        }
        None => {
            match GamesDb::default_or_build() {
                Some(db) => state = state.with_games_db(db),
                None => eprintln!(
                    "chariot serve: warning: no game collections found to build the explorer's game database; use --games DB"
                ),
            }
            // The games played here are kept apart from the explorer's collections.
            let path = Archive::default_path();
            if let Some(dir) = path.parent() {
                // The data directory may not be there yet on a first start.
                let _ = std::fs::create_dir_all(dir);
            }
            match Archive::open(&path) {
                Ok(archive) => state = state.with_archive(archive),
                Err(e) => eprintln!(
                    "chariot serve: warning: played games are not kept ({}: {e})",
                    path.display()
                ),
            }
        }
    }
    // Finished reviews, kept for this build only: another build may value a game otherwise.
    let path = ReviewStore::default_path();
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match ReviewStore::open(&path, format!("chariot {}", crate::VERSION)) {
        Ok(store) => state = state.with_review_store(store),
        Err(e) => eprintln!(
            "chariot serve: warning: finished reviews are not kept ({e}); reviews are made again after a restart"
        ),
    }
    let (library, warnings) = Library::open(&Library::default_dir());
    for w in &warnings {
        eprintln!("chariot serve: warning: {w}");
    }
    let state = Arc::new(state.with_library(library).with_engines(engines));
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener.local_addr().unwrap_or(addr);
        let url = format!("http://{bound}/");
        println!("Chariot is at {url} (its JSON API under /api, docs/web-api.md); Ctrl-C stops it");
        if *open && let Err(e) = open::that_detached(&url) {
            eprintln!("chariot serve: warning: cannot open a browser ({e}); open {url} yourself");
        }
        chariot_web::serve_on(listener, state, std::future::pending())
            .await
            .context("the server failed")
    })
}

// The arguments of `chariot serve` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// The port (0: any free port, printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// An opening book (.xqb); repeat for several [default: the built-in book].
    #[arg(long = "book", value_name = "FILE")]
    books: Vec<std::path::PathBuf>,
    /// A directory of endgame tables; repeat for several [default: the data-location
    /// order, docs/protocol.md].
    #[arg(long = "egtb", value_name = "DIR")]
    egtb: Vec<std::path::PathBuf>,
    /// Games open at once.
    #[arg(long, default_value_t = 64, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    max_games: u64,
    /// The longest one search may take, in seconds: the engine's move at any level (the levels
    /// count nodes; this only caps them on a very slow machine), a hint, a review's position, a
    /// query of the ChessDB endpoint. Lower it on a slow or shared machine.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS", value_parser = think_seconds)]
    max_think: f64,
    /// The game database to explore, where every finished game is kept too (SQLite, as
    /// `book-builder import` writes; created when missing) [default: one built from the
    /// shipped collections on first start, in the user's data directory, and finished games
    /// kept in played.sqlite beside it].
    #[arg(long, value_name = "DB")]
    games: Option<std::path::PathBuf>,
    /// Open the app in the default web browser once the server listens.
    #[arg(long)]
    open: bool,
    /// An external UCCI or UCI engine to play against and analyse with, as one quoted value:
    /// its name and program, then the program's arguments and its settings, option.NAME=VALUE,
    /// arg=WORD, dir=DIR, proto=ucci|uci|auto, variant=auto|xiangqi|none, timemargin=MS,
    /// handshake=SECONDS ('fsf=/usr/games/fairy-stockfish proto=uci option.Hash=64'). Repeat
    /// for several (docs/web-app.md, "External engines"). Each starts when first listed or used.
    #[arg(long = "engine", value_name = "'NAME=CMD [ARG|KEY=VALUE]...'")]
    engines: Vec<String>,
}

/// Runs `chariot serve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        host,
        port,
        books,
        egtb,
        max_games,
        max_think,
        games,
        open,
        engines,
    } = args;
    let engines = engines
        .iter()
        .map(|value| {
            EngineSpec::parse_value(value).map_err(|e| chariot_cli::usage(format!("--engine: {e}")))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    serve(&Settings {
        host,
        port,
        books,
        egtb,
        max_games: usize::try_from(max_games).unwrap_or(usize::MAX),
        max_think: std::time::Duration::from_secs_f64(max_think),
        games,
        open,
        engines,
    })
}

/// `--max-think`: seconds from a hundredth to an hour.
fn think_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if (0.01..=3600.0).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!("{text} seconds: give 0.01 to 3600"))
    }
}
