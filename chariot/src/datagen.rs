//! `chariot datagen`: the command-line side of self-play data generation (the book to walk, a
//! progress bar, the summary); the games are played by `chariot_training::datagen`.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;
use chariot_engine::resources;
use chariot_training::datagen::{self, Settings};
use indicatif::{ProgressBar, ProgressStyle};

/// Runs data generation into `out` and prints a summary with the rate.
pub fn generate(
    out: &Path,
    settings: &Settings,
    book: Option<&Path>,
    no_book: bool,
    quiet: bool,
) -> anyhow::Result<()> {
    let books = match book {
        _ if no_book => None,
        Some(path) => Some(
            resources::load_books(&resources::parse_list(&path.to_string_lossy()))
                .context("--book")?,
        ),
        None => Some(resources::default_books()),
    };
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(settings.target_records)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} positions, {per_sec}, eta {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let progress = |records: u64, _target: u64, games: u64| {
        bar.set_position(records);
        bar.set_message(format!("{games} {}", plural(games, "game", "games")));
    };
    let summary = datagen::run(out, settings, books.as_ref(), &stop, &progress)?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    println!(
        "{}: {} {} written in {} {} ({:.0} positions/hour); {} in the file; red {} / draws {} / black {}",
        out.display(),
        summary.records_written,
        plural(summary.records_written, "position", "positions"),
        summary.games,
        plural(summary.games, "game", "games"),
        summary.records_written as f64 / secs * 3600.0,
        summary.records_before + summary.records_written,
        summary.red_wins,
        summary.draws,
        summary.black_wins,
    );
    Ok(())
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

// The arguments of `chariot datagen` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The data file (created if missing, appended to otherwise).
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
    /// Stop once the file holds this many positions.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    positions: u64,
    /// Search nodes per move.
    #[arg(long, default_value_t = 5_000, value_name = "N")]
    nodes: u64,
    /// Game threads (one search thread each).
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Seed of the run (the same seed and file give the same games).
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// Opening book for the opening walks (default: the built-in book).
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// No book walk: openings are random plies only.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// Book plies at most per opening.
    #[arg(long, default_value_t = 12, value_name = "N")]
    book_plies: usize,
    /// Random plies after the book walk.
    #[arg(long, default_value_t = 6, value_name = "N")]
    random_plies: usize,
    /// Search with this network (`.nnue`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    evalfile: Option<std::path::PathBuf>,
    /// Search with the hand-written evaluation instead of a network.
    #[arg(long, conflicts_with = "evalfile")]
    no_nnue: bool,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `chariot datagen`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        out,
        positions,
        nodes,
        threads,
        seed,
        book,
        no_book,
        book_plies,
        random_plies,
        evalfile,
        no_nnue,
        quiet,
    } = args;
    if nodes == 0 || threads == 0 {
        return Err(chariot_cli::usage(
            "--nodes and --threads must be at least 1",
        ));
    }
    let network = match (&evalfile, no_nnue) {
        (_, true) => None,
        (Some(path), false) => Some(resources::load_network_file(path).context("--evalfile")?),
        (None, false) => {
            Some(chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?)
        }
    };
    let settings = chariot_training::datagen::Settings {
        network,
        target_records: positions,
        nodes,
        threads,
        seed,
        book_plies,
        random_plies,
        ..chariot_training::datagen::Settings::default()
    };
    generate(&out, &settings, book.as_deref(), no_book, quiet)
}
