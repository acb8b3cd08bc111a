//! `chariot train`: reads training data, trains a network with `chariot_training::nnue::train`, writes a
//! checkpoint after every epoch (`NAME.epochN.nnue` beside the output) and the final network.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use chariot_eval::nnue::file;
use chariot_formats::training_data as format;
use chariot_training::nnue::train;

/// Trains on `data`, measuring on the positions of `validation` besides the ones held out of
/// `data`, from the network in `start` when given (random weights otherwise), and writes the
/// network to `out`.
pub fn run(
    data: &[PathBuf],
    validation: &[PathBuf],
    out: &Path,
    max_positions: Option<usize>,
    settings: &train::Settings,
    start: Option<train::FloatNet>,
) -> anyhow::Result<()> {
    // Refused before any file is read (a data file may take minutes to load).
    for path in validation {
        if data.iter().any(|d| same_file(d, path)) {
            return Err(chariot_cli::usage(format!(
                "--validation {}: the file is also training data",
                path.display()
            )));
        }
    }
    let mut records = Vec::new();
    for path in data {
        let mut more = format::read_all(path)?;
        records.append(&mut more);
        if max_positions.is_some_and(|m| records.len() >= m) {
            break;
        }
    }
    if let Some(m) = max_positions {
        records.truncate(m);
    }
    if records.is_empty() {
        return Err(chariot_cli::usage("the data files hold no positions"));
    }
    let mut held_out = Vec::new();
    for path in validation {
        let mut more = format::read_all(path)?;
        if more.is_empty() {
            return Err(chariot_cli::usage(format!(
                "--validation {}: the file holds no positions",
                path.display()
            )));
        }
        held_out.append(&mut more);
    }
    let held = records
        .len()
        .checked_div(settings.validation_every)
        .unwrap_or(0);
    println!(
        "training on {} positions, measuring on {} ({}), {} hidden neurons{}, {} epochs, from {}",
        records.len() - held,
        held + held_out.len(),
        if !held_out.is_empty() {
            "the --validation positions".to_owned()
        } else if held == 0 {
            "none held out".to_owned()
        } else {
            format!("one in {} held out", settings.validation_every)
        },
        settings.hidden,
        if settings.buckets > 1 {
            format!(", {} output buckets", settings.buckets)
        } else {
            String::new()
        },
        settings.epochs,
        if start.is_some() {
            "the starting network"
        } else {
            "random weights"
        }
    );
    let started = Instant::now();
    let mut failed: Option<anyhow::Error> = None;
    let net = train::train(&records, &held_out, settings, start, |report, net| {
        if report.epoch == 0 {
            println!(
                "start      train loss {:.6}  validation loss {:.6}",
                report.train_loss, report.validation_loss
            );
            return;
        }
        let checkpoint = checkpoint_path(out, report.epoch);
        if let Err(e) = file::write(&checkpoint, &net.quantise()) {
            failed.get_or_insert(e.into());
        }
        println!(
            "epoch {:>3}  train loss {:.6}  validation loss {:.6}  lr {:.6}  {:.0} s  -> {}",
            report.epoch,
            report.train_loss,
            report.validation_loss,
            report.learning_rate,
            started.elapsed().as_secs_f64(),
            checkpoint.display()
        );
    });
    if let Some(e) = failed {
        return Err(e.context("writing a checkpoint"));
    }
    file::write(out, &net.quantise()).with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Whether two paths name the same file (as far as the file system says).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `net.nnue` -> `net.epoch3.nnue`.
fn checkpoint_path(out: &Path, epoch: usize) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "net".into(), |s| s.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}.epoch{epoch}.nnue"))
}
