//! `chariot loss`: measures evaluations on `datagen` data without training anything: each
//! network's loss as the engine evaluates it (the quantised network, in integers), and the
//! hand-written evaluation's, on the same positions (`chariot_training::nnue::loss`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use chariot_engine::resources;
use chariot_eval::nnue::Network;
use chariot_eval::nnue::network::output_bucket;
use chariot_formats::training_data as format;
use chariot_training::nnue::loss::{Loss, Targets};
use indicatif::{ProgressBar, ProgressStyle};

/// An evaluation to measure.
pub enum Evaluator {
    /// A network, named as the user gave it.
    Network(String, Arc<Network>),
    /// The hand-written evaluation.
    Hand,
}

impl Evaluator {
    fn name(&self) -> &str {
        match self {
            Evaluator::Network(name, _) => name,
            Evaluator::Hand => "hand-written",
        }
    }
}

/// What to measure, and on what.
pub struct Settings {
    /// The evaluations, in the order printed.
    pub evaluators: Vec<Evaluator>,
    /// The `datagen` files whose positions they are measured on.
    pub data: Vec<PathBuf>,
    /// Weight of the search score in the blended target.
    pub lambda: f32,
    /// Use at most this many positions (the first ones of the files).
    pub max_positions: Option<usize>,
    /// Also the losses on this many ranges of piece counts (the ranges of as many output
    /// buckets); 1 for none.
    pub by_pieces: usize,
    /// Print JSON instead of a table.
    pub json: bool,
    /// No progress bar.
    pub quiet: bool,
}

/// Measures every evaluation on every position of the files and prints the losses.
pub fn measure(settings: &Settings) -> anyhow::Result<()> {
    let ranges = settings.by_pieces.max(1);
    // Per evaluation, per range of piece counts.
    let mut losses: Vec<Vec<Loss>> = settings
        .evaluators
        .iter()
        .map(|_| vec![Loss::new(settings.lambda); ranges])
        .collect();
    let mut left = settings.max_positions.unwrap_or(usize::MAX);
    for path in &settings.data {
        if left == 0 {
            break;
        }
        let records = format::read_all(path)?;
        let take = records.len().min(left);
        left -= take;
        measure_file(path, &records[..take], settings, &mut losses)?;
    }
    let totals: Vec<Loss> = losses
        .iter()
        .map(|by_range| {
            let mut total = Loss::new(settings.lambda);
            for l in by_range {
                total.merge(l);
            }
            total
        })
        .collect();
    let positions = totals.first().map_or(0, Loss::positions);
    if positions == 0 {
        return Err(chariot_cli::usage("the data files hold no positions"));
    }
    let bounds = piece_ranges(ranges);
    if settings.json {
        let numbers = |l: &Loss| {
            serde_json::json!({
                "positions": l.positions(),
                "loss": l.loss(),
                "score_loss": l.score_loss(),
                "result_loss": l.result_loss(),
            })
        };
        let rows: Vec<serde_json::Value> = settings
            .evaluators
            .iter()
            .zip(totals.iter().zip(&losses))
            .map(|(e, (total, by_range))| {
                let mut row = numbers(total);
                row["evaluation"] = e.name().into();
                if ranges > 1 {
                    row["by_pieces"] = by_range
                        .iter()
                        .zip(&bounds)
                        .map(|(l, &(lo, hi))| {
                            let mut r = numbers(l);
                            r["pieces"] = serde_json::json!([lo, hi]);
                            r
                        })
                        .collect();
                }
                row
            })
            .collect();
        let out = serde_json::json!({
            "positions": positions,
            "lambda": settings.lambda,
            "data": settings.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "evaluations": rows,
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{} positions, target {} of the search score's win probability and {} of the result",
        positions,
        settings.lambda,
        1.0 - settings.lambda
    );
    let width = settings
        .evaluators
        .iter()
        .map(|e| e.name().chars().count())
        .chain(std::iter::once("evaluation".len()))
        .chain((ranges > 1).then_some("  32-32 pieces".len()))
        .max()
        .unwrap_or(0);
    let header = if ranges > 1 { "  positions" } else { "" };
    println!(
        "{:<width$}  {:>9}  {:>10}  {:>11}{header}",
        "evaluation", "loss", "score loss", "result loss"
    );
    let line = |name: &str, l: &Loss| {
        let count = if ranges > 1 {
            format!("  {:>9}", l.positions())
        } else {
            String::new()
        };
        println!(
            "{:<width$}  {:>9.6}  {:>10.6}  {:>11.6}{count}",
            name,
            l.loss(),
            l.score_loss(),
            l.result_loss()
        );
    };
    for ((e, total), by_range) in settings.evaluators.iter().zip(&totals).zip(&losses) {
        line(e.name(), total);
        if ranges > 1 {
            for (l, &(lo, hi)) in by_range.iter().zip(&bounds) {
                line(&format!("  {lo}-{hi} pieces"), l);
            }
        }
    }
    Ok(())
}

/// The piece counts (lowest and highest, generals included) of each of `ranges` ranges: those
/// of as many output buckets.
fn piece_ranges(ranges: usize) -> Vec<(u32, u32)> {
    let mut out = vec![(u32::MAX, 0); ranges];
    for n in 2..=32 {
        let r = &mut out[output_bucket(ranges, n)];
        r.0 = r.0.min(n);
        r.1 = r.1.max(n);
    }
    out
}

/// Adds the records of one file to every evaluation's loss.
fn measure_file(
    path: &Path,
    records: &[format::Record],
    settings: &Settings,
    losses: &mut [Vec<Loss>],
) -> anyhow::Result<()> {
    let ranges = settings.by_pieces.max(1);
    let bar = if settings.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(records.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} positions {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(path.display().to_string());
    for (i, r) in records.iter().enumerate() {
        let pos = r
            .position()
            .map_err(|e| anyhow::anyhow!("position {}: {e}", i + 1))
            .with_context(|| format!("{}", path.display()))?;
        let targets = Targets::of(r);
        let range = output_bucket(ranges, pos.piece_count());
        for (e, by_range) in settings.evaluators.iter().zip(losses.iter_mut()) {
            let cp = match e {
                Evaluator::Network(_, net) => net.evaluate_position(&pos),
                Evaluator::Hand => chariot_eval::evaluate(&pos),
            };
            by_range[range].add(&targets, cp);
        }
        if i % 4096 == 0 {
            bar.set_position(i as u64);
        }
    }
    bar.finish_and_clear();
    Ok(())
}

// The arguments of `chariot loss` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Network files (.nnue) to measure.
    #[arg(value_name = "NET")]
    nets: Vec<std::path::PathBuf>,
    /// The positions to measure on: `datagen` files (repeatable).
    #[arg(long, required = true, value_name = "FILE")]
    data: Vec<std::path::PathBuf>,
    /// Also measure the built-in network (the engine's default evaluation).
    #[arg(long)]
    builtin: bool,
    /// Also measure the hand-written evaluation.
    #[arg(long)]
    hand: bool,
    /// Weight of the search score in the target; the rest is the game result (as `train`).
    #[arg(long, default_value_t = 0.75, value_name = "X")]
    lambda: f32,
    /// Use at most N positions (the first ones of the files).
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Also the losses on N ranges of the number of pieces on the board (those of N output
    /// buckets, 2 to 16): where an evaluation is weak, openings or endgames.
    #[arg(long, value_name = "N")]
    by_pieces: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `chariot loss`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        nets,
        data,
        builtin,
        hand,
        lambda,
        max_positions,
        by_pieces,
        json,
        quiet,
    } = args;
    if !(0.0..=1.0).contains(&lambda) {
        return Err(chariot_cli::usage("--lambda must be between 0 and 1"));
    }
    let max = chariot_eval::nnue::network::MAX_BUCKETS;
    if by_pieces.is_some_and(|n| !(2..=max).contains(&n)) {
        return Err(chariot_cli::usage(format!(
            "--by-pieces must be between 2 and {max}"
        )));
    }
    let mut evaluators = Vec::new();
    for path in &nets {
        evaluators.push(Evaluator::Network(
            path.display().to_string(),
            resources::load_network_file(path)?,
        ));
    }
    if builtin {
        let net = chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?;
        evaluators.push(Evaluator::Network("built-in".to_owned(), net));
    }
    if hand {
        evaluators.push(Evaluator::Hand);
    }
    if evaluators.is_empty() {
        return Err(chariot_cli::usage(
            "nothing to measure: name network files, --builtin or --hand",
        ));
    }
    measure(&Settings {
        evaluators,
        data,
        lambda,
        max_positions,
        by_pieces: by_pieces.unwrap_or(1),
        json,
        quiet,
    })
}
