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
pub fn run(
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
