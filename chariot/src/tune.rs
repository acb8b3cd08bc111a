//! `chariot tune`: Texel tuning of the evaluation on a positions file, with a report of what
//! changed and the new `params.rs` and `pst.rs`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use chariot_eval::Params;
use chariot_eval::trace::{WEIGHTS, default_weights, table_of, weight_name};
use chariot_training::tune::dataset::{Split, load, load_all};
use chariot_training::tune::model::{error, evaluations, fit_k};
use chariot_training::tune::optimize::{Group, Settings, at_bounds, round, tune};
use chariot_training::tune::source::{PARAMS_RS, PST_RS, params_source, pst_source};

/// What `chariot tune` was asked to do.
pub struct TuneArgs {
    /// The positions file.
    pub positions: PathBuf,
    /// Read at most this many positions.
    pub max_positions: usize,
    /// A file of positions to measure on; without it, part of `positions` is held out.
    pub held_out: Option<PathBuf>,
    /// Without `held_out`: one position in this many (by key) is held out.
    pub holdout: u64,
    /// The descent's settings.
    pub settings: Settings,
    /// Where to write the new sources.
    pub out: Option<PathBuf>,
}

/// Runs the tuning and prints the report on standard output.
pub fn run_tuning(args: &TuneArgs) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if let Some(dir) = &args.out {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let started = Instant::now();
    let (split, how) = match &args.held_out {
        Some(path) => (
            Split {
                train: load_all(&args.positions, args.max_positions)?,
                held_out: load_all(path, usize::MAX)?,
            },
            format!("from {}", path.display()),
        ),
        None => (
            load(&args.positions, args.max_positions, args.holdout)?,
            format!("positions with key mod {} = 0", args.holdout),
        ),
    };
    let (train, held) = (&split.train, &split.held_out);
    if train.is_empty() {
        bail!("{}: no training positions", args.positions.display());
    }
    writeln!(
        out,
        "positions: {} training from {}, {} held out ({how}) [{:.1} s]",
        train.len(),
        args.positions.display(),
        held.len(),
        started.elapsed().as_secs_f64()
    )?;

    let w0 = default_weights();
    let k = fit_k(train, &evaluations(train, &w0));
    writeln!(
        out,
        "K = {k:.4} (fitted on the training positions with the built-in weights)"
    )?;
    let (train0, held0) = (error(train, &w0, k), error(held, &w0, k));
    writeln!(
        out,
        "before: training error {train0:.6}, held-out error {held0:.6}"
    )?;
    let groups: Vec<&str> = args.settings.groups.iter().map(|g| g.name()).collect();
    let tuned = args.settings.tuned(train);
    writeln!(
        out,
        "tuning {} ({} weights; table cells used fewer than {} times left alone, the others \
         within +-{}; ridge {}) for {} iterations, learning rate {} decaying to a tenth, {} \
         thread(s)",
        groups.join(", "),
        tuned.iter().filter(|&&t| t).count(),
        args.settings.min_uses,
        args.settings.table_bound,
        args.settings.l2,
        args.settings.iterations,
        args.settings.learning_rate,
        args.settings.threads
    )?;
    out.flush()?;

    let tuning = Instant::now();
    let every = (args.settings.iterations / 20).max(1);
    let mut failure = None;
    let w = tune(train, &w0, k, &args.settings, |t, e, w| {
        if t % every == 0 || t == args.settings.iterations {
            let line = format!(
                "iteration {t:>5}: training error {e:.6}, held-out (rounded weights) {:.6} [{:.0} s]",
                error(held, &round(w), k),
                tuning.elapsed().as_secs_f64()
            );
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                failure.get_or_insert(e);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e.into());
    }
    let result = round(&w);
    let (train1, held1) = (error(train, &result, k), error(held, &result, k));
    writeln!(
        out,
        "after (rounded weights): training error {train1:.6}, held-out error {held1:.6}"
    )?;
    writeln!(
        out,
        "held-out error {held0:.6} -> {held1:.6} ({:+.6})",
        held1 - held0
    )?;

    writeln!(out, "\nweights (before -> after):")?;
    let (p0, p1) = (w0.iter().take(Params::COUNT), result.iter());
    for (i, (a, b)) in p0.zip(p1).enumerate() {
        let mark = if a == b { "" } else { " *" };
        writeln!(out, "  {:<22} {a:>5} -> {b:>5}{mark}", Params::NAMES[i])?;
    }
    let mut cells: Vec<usize> = (Params::COUNT..WEIGHTS)
        .filter(|&i| train.uses(i) > 0)
        .collect();
    cells.sort_by_key(|&i| std::cmp::Reverse((result[i] - w0[i]).abs()));
    writeln!(
        out,
        "\ntable cells that moved most (of {} used; pieces seen there in training):",
        cells.len()
    )?;
    for &i in cells.iter().take(25) {
        writeln!(
            out,
            "  {:<16} {:>5} -> {:>5}  ({} times)",
            weight_name(i),
            w0[i],
            result[i],
            train.uses(i)
        )?;
    }
    let rare: Vec<String> = cells
        .iter()
        .filter(|&&i| !tuned[i])
        .map(|&i| format!("{} ({})", weight_name(i), train.uses(i)))
        .collect();
    if !rare.is_empty() {
        writeln!(
            out,
            "cells used too rarely to tune (kept relative to their table): {}",
            rare.join(", ")
        )?;
    }
    let bounded = at_bounds(&w, &tuned, args.settings.table_bound);
    if !bounded.is_empty() {
        let names: Vec<String> = bounded
            .iter()
            .map(|&(i, b)| format!("{} at {b}", weight_name(i)))
            .collect();
        writeln!(out, "at a bound: {}", names.join(", "))?;
    }

    if let Some(dir) = &args.out {
        let params = chariot_eval::trace::params_of(&result);
        let tables = std::array::from_fn(|t| table_of(&result, t));
        write(&dir.join("params.rs"), &params_source(PARAMS_RS, &params)?)?;
        write(&dir.join("pst.rs"), &pst_source(PST_RS, &tables)?)?;
        writeln!(
            out,
            "\nwrote {0}/params.rs and {0}/pst.rs (copy them to eval/src/ to use them)",
            dir.display()
        )?;
    }
    writeln!(out, "total time {:.0} s", started.elapsed().as_secs_f64())?;
    Ok(())
}

fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Parses `--groups`: comma-separated group names, or `all`.
pub fn parse_groups(text: &str) -> anyhow::Result<Vec<Group>> {
    if text == "all" {
        return Ok(Group::ALL.to_vec());
    }
    let mut groups = Vec::new();
    for name in text.split(',') {
        let g: Group = name.trim().parse()?;
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    Ok(groups)
}

// The arguments of `chariot tune` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The positions file.
    positions: std::path::PathBuf,
    /// Adam iterations (each a pass over all training positions).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    iterations: usize,
    /// The first step size in centipawns (it decays to a tenth over the run).
    #[arg(long, default_value_t = 1.0, value_name = "LR")]
    learning_rate: f64,
    /// Weight groups to tune, comma-separated: material, pst, mobility, horse-legs,
    /// cannons, king-safety, soldiers, tempo; or all.
    #[arg(long, default_value = "all", value_name = "LIST")]
    groups: String,
    /// Measure on the positions of this file (e.g. from held-out games, see `book-builder
    /// positions --held-out`) instead of holding out part of POSITIONS.
    #[arg(long, value_name = "FILE")]
    held_out: Option<std::path::PathBuf>,
    /// Without --held-out: hold out the positions whose Zobrist key is divisible by N (0:
    /// none).
    #[arg(
        long,
        default_value_t = 10,
        value_name = "N",
        conflicts_with = "held_out"
    )]
    holdout: u64,
    /// Leave table cells alone on which fewer than N pieces stood in the training positions.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    min_uses: u64,
    /// Keep every piece-square table cell within -CP..=CP.
    #[arg(long, default_value_t = 150, value_name = "CP")]
    table_bound: u32,
    /// Ridge penalty: L2 * ((w - start) / 100)^2 per tuned weight is added to the error.
    #[arg(long, default_value_t = 0.0, value_name = "L2")]
    l2: f64,
    /// Read at most N positions.
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Write the tuned params.rs and pst.rs into this directory.
    #[arg(long, value_name = "DIR")]
    out: Option<std::path::PathBuf>,
}

/// Runs `chariot tune`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        positions,
        iterations,
        learning_rate,
        groups,
        held_out,
        holdout,
        min_uses,
        table_bound,
        l2,
        max_positions,
        threads,
        out,
    } = args;
    if !(learning_rate > 0.0 && learning_rate.is_finite()) {
        return Err(chariot_cli::usage(format!(
            "--learning-rate must be a positive number, not {learning_rate}"
        )));
    }
    if !(l2 >= 0.0 && l2.is_finite()) {
        return Err(chariot_cli::usage(format!(
            "--l2 must be a number of at least 0, not {l2}"
        )));
    }
    let args = TuneArgs {
        positions,
        max_positions: max_positions.unwrap_or(usize::MAX),
        held_out,
        holdout,
        settings: chariot_training::tune::optimize::Settings {
            iterations,
            learning_rate,
            groups: parse_groups(&groups)?,
            threads: threads.max(1),
            min_uses,
            table_bound: f64::from(table_bound),
            l2,
        },
        out,
    };
    run_tuning(&args)
}
