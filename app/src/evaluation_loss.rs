//! `chariot loss`: measures evaluations on `datagen` data without training anything: each
//! network's loss as the engine evaluates it (the quantised network, in integers), and the
//! hand-written evaluation's, on the same positions (`chariot::nnue::loss`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use chariot::nnue::Network;
use chariot::nnue::loss::{Loss, Targets};
use chariot::training_data as format;
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
    /// Print JSON instead of a table.
    pub json: bool,
    /// No progress bar.
    pub quiet: bool,
}

/// Measures every evaluation on every position of the files and prints the losses.
pub fn run(settings: &Settings) -> anyhow::Result<()> {
    let mut losses: Vec<Loss> = settings
        .evaluators
        .iter()
        .map(|_| Loss::new(settings.lambda))
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
    let positions = losses.first().map_or(0, Loss::positions);
    if positions == 0 {
        return Err(chariot_cli::usage("the data files hold no positions"));
    }
    if settings.json {
        let rows: Vec<serde_json::Value> = settings
            .evaluators
            .iter()
            .zip(&losses)
            .map(|(e, l)| {
                serde_json::json!({
                    "evaluation": e.name(),
                    "loss": l.loss(),
                    "score_loss": l.score_loss(),
                    "result_loss": l.result_loss(),
                })
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
        .max()
        .unwrap_or(0)
        .max("evaluation".len());
    println!(
        "{:<width$}  {:>9}  {:>10}  {:>11}",
        "evaluation", "loss", "score loss", "result loss"
    );
    for (e, l) in settings.evaluators.iter().zip(&losses) {
        println!(
            "{:<width$}  {:>9.6}  {:>10.6}  {:>11.6}",
            e.name(),
            l.loss(),
            l.score_loss(),
            l.result_loss()
        );
    }
    Ok(())
}

/// Adds the records of one file to every evaluation's loss.
fn measure_file(
    path: &Path,
    records: &[format::Record],
    settings: &Settings,
    losses: &mut [Loss],
) -> anyhow::Result<()> {
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
        for (e, loss) in settings.evaluators.iter().zip(losses.iter_mut()) {
            let cp = match e {
                Evaluator::Network(_, net) => net.evaluate_position(&pos),
                Evaluator::Hand => chariot::eval::evaluate(&pos),
            };
            loss.add(&targets, cp);
        }
        if i % 4096 == 0 {
            bar.set_position(i as u64);
        }
    }
    bar.finish_and_clear();
    Ok(())
}
