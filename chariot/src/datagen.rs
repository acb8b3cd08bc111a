//! `chariot datagen`: the command-line side of self-play data generation (the book to walk, a
//! progress bar, the summary); the games are played by `chariot_training::datagen`.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;
use chariot_engine::resources;
use chariot_training::datagen::{self, Settings};
use indicatif::{ProgressBar, ProgressStyle};

/// Runs data generation into `out` (with `shard`, one shard: a new file on one thread) and
/// prints a summary with the rate.
pub fn generate(
    out: &Path,
    settings: &Settings,
    play: &Play,
    shard: bool,
    quiet: bool,
) -> anyhow::Result<()> {
    let books = match &play.book {
        _ if play.no_book => None,
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
    let summary = if shard {
        datagen::run_shard(out, settings, books.as_ref(), &stop, &progress)?
    } else {
        datagen::run(out, settings, books.as_ref(), &stop, &progress)?
    };
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

/// How the games are played, for `datagen` and the shards of `datagen-plan` alike.
#[derive(clap::Args, Debug, Clone)]
pub struct Play {
    /// Search nodes per move.
    #[arg(long, default_value_t = 5_000, value_name = "N")]
    pub nodes: u64,
    /// Opening book for the opening walks (default: the built-in book).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// No book walk: openings are random plies only.
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// Book plies at most per opening.
    #[arg(long, default_value_t = 12, value_name = "N")]
    pub book_plies: usize,
    /// Random plies after the book walk.
    #[arg(long, default_value_t = 6, value_name = "N")]
    pub random_plies: usize,
    /// Search with this network (`.nnue`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub evalfile: Option<std::path::PathBuf>,
    /// Search with the hand-written evaluation instead of a network.
    #[arg(long, conflicts_with = "evalfile")]
    pub no_nnue: bool,
}

// The arguments of `chariot datagen` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The data file (created if missing, appended to otherwise; with --shard, replaced).
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
    /// Stop once the file holds this many positions.
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    positions: u64,
    /// Game threads (one search thread each).
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Seed of the run (the same seed and file give the same games).
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// Generate one shard of a plan (`datagen-plan`): a new file, played on one thread, so that
    /// the same seed and settings give the same bytes; written as FILE.part and renamed to FILE
    /// when complete.
    #[arg(long)]
    shard: bool,
    #[command(flatten)]
    play: Play,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `chariot datagen`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        out,
        positions,
        threads,
        seed,
        shard,
        play,
        quiet,
    } = args;
    if play.nodes == 0 || threads == 0 {
        return Err(chariot_cli::usage(
            "--nodes and --threads must be at least 1",
        ));
    }
    if shard && threads != 1 {
        return Err(chariot_cli::usage(
            "--shard plays on one thread, so that its games reach the file in one order \
             (shards are the parallelism): leave out --threads",
        ));
    }
    let network = match (&play.evalfile, play.no_nnue) {
        (_, true) => None,
        (Some(path), false) => Some(resources::load_network_file(path).context("--evalfile")?),
        (None, false) => {
            Some(chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?)
        }
    };
    let settings = chariot_training::datagen::Settings {
        network,
        target_records: positions,
        nodes: play.nodes,
        threads,
        seed,
        book_plies: play.book_plies,
        random_plies: play.random_plies,
        ..chariot_training::datagen::Settings::default()
    };
    generate(&out, &settings, &play, shard, quiet)
}
