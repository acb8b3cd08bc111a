//! `chess-agent`: plays one game of international chess on stdin/stdout, under the 2018
//! contest's protocol or, when the first line is `uci`, under UCI. See `docs/chess-agent.md`.

use std::io::{BufReader, ErrorKind};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use chess_agent::book::{Book, Choice};
use chess_agent::engine::{Engine, Options};
use chess_agent::game::Game;
use chess_agent::protocol::{self, contest::Settings};
use clap::{Parser, ValueEnum};

/// An international-chess agent for the 2018 AI contest protocol (SAN over stdin/stdout) and UCI.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// The whole game's thinking time in seconds (contest protocol).
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS")]
    time: f64,
    /// A Polyglot opening book (.bin), or `none` for no book. Without it the agent uses the
    /// small book built into it (chess-agent/data/book.bin, see its README.md).
    #[arg(long, value_name = "FILE|none")]
    book: Option<PathBuf>,
    /// How to choose among book moves.
    #[arg(long, value_enum, default_value_t = BookChoice::Weighted)]
    book_choice: BookChoice,
    /// Seed for the book's random choice (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    hash: usize,
    /// Start from this FEN instead of the standard position (contest protocol; for tests).
    #[arg(long)]
    fen: Option<String>,
    /// Print a line per move about the search on stderr.
    #[arg(long, short)]
    verbose: bool,
    /// Print the bench signature (nodes of fixed searches at this depth) and exit.
    #[arg(long, value_name = "DEPTH", num_args = 0..=1, default_missing_value = "10")]
    bench: Option<i32>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum BookChoice {
    /// At random in proportion to the weights.
    Weighted,
    /// Always the highest weight.
    Best,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("chess-agent: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    if let Some(depth) = args.bench {
        let b = chess_agent::search::bench::run(depth.clamp(1, 64));
        let millis = b.elapsed.as_millis().max(1);
        println!(
            "bench depth {depth}: {} nodes {millis} ms {} nps",
            b.nodes,
            u128::from(b.nodes) * 1000 / millis
        );
        return Ok(());
    }
    anyhow::ensure!(
        args.time.is_finite() && args.time > 0.0,
        "--time must be a positive number of seconds"
    );
    let start = match &args.fen {
        Some(fen) => Game::from_fen(fen).map_err(anyhow::Error::msg)?,
        None => Game::new(),
    };
    // `--book none` turns books off; a file called `none` is still reachable as `./none`.
    let book = match args.book.as_deref() {
        None => Some(Book::embedded().clone()),
        Some(path) if path.as_os_str() == "none" => None,
        Some(path) => Some(Book::open(path).context("opening the book")?),
    };
    let options = Options {
        hash_mb: args.hash.clamp(1, 4096),
        book_choice: match args.book_choice {
            BookChoice::Weighted => Choice::Weighted,
            BookChoice::Best => Choice::Best,
        },
        seed: args.seed,
    };
    let settings = Settings {
        total: Duration::from_secs_f64(args.time),
        verbose: args.verbose,
        start,
    };
    let engine = Engine::new(&options, book);
    let stdin = BufReader::new(std::io::stdin());
    protocol::run(stdin, std::io::stdout(), engine, &settings)?;
    Ok(())
}
