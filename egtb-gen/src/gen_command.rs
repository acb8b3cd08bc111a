//! `egtb-gen gen`: resolve dependencies, skip finished tables, generate, compress and write,
//! with progress bars.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use chariot_formats::egtb::{Metric, Signature, TableFile};
use egtb_gen::dtm::Progress;
use egtb_gen::pipeline::{Report, build_one, generation_order, memory_estimate, table_path_in};
use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar showing a generation's stages.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn stage(&self, name: &str, total: u64) {
        self.0.set_message(name.to_owned());
        if total > 0 {
            self.0.set_length(total);
            self.0.set_position(0);
        }
    }

    fn advance(&self, done: u64) {
        self.0.inc(done);
    }
}

/// Options of `egtb-gen gen`.
#[derive(Clone, Debug)]
pub struct Options {
    /// zstd level.
    pub level: i32,
    /// Entries per block.
    pub block_entries: u32,
    /// Refuse tables whose memory estimate exceeds this.
    pub max_memory_gib: f64,
    /// Regenerate the named tables even if present.
    pub force: bool,
    /// Report failed tables and continue.
    pub keep_going: bool,
    /// The files to write per table.
    pub metrics: Vec<Metric>,
}

/// The tables named and those of the named set, or a usage error.
fn wanted_tables(names: &[String], set: Option<&str>) -> anyhow::Result<Vec<Signature>> {
    let mut wanted: Vec<Signature> = Vec::new();
    for n in names {
        let sig: Signature = n
            .parse()
            .map_err(|e| chariot_cli::usage(format!("table name {n:?}: {e}")))?;
        wanted.push(sig);
    }
    if let Some(name) = set {
        match egtb_gen::sets::set(name) {
            Some(s) => wanted.extend(s),
            None => {
                return Err(chariot_cli::usage(format!(
                    "unknown set {name:?}; known sets: {}",
                    egtb_gen::sets::SETS.map(|s| s.0).join(", ")
                )));
            }
        }
    }
    if wanted.is_empty() {
        return Err(chariot_cli::usage(
            "nothing to generate: give table names or --set NAME",
        ));
    }
    Ok(wanted)
}

/// `egtb-gen plan`: the tables' dependency graph as a Makefile or a Snakemake file, on
/// standard output or into `out` (written through a temporary file).
pub fn plan_command(
    names: &[String],
    set: Option<&str>,
    dir: &Path,
    snakemake: bool,
    metrics: &[Metric],
    out: Option<&Path>,
) -> anyhow::Result<bool> {
    let wanted = wanted_tables(names, set)?;
    let plan = egtb_gen::plan::Plan::new(&wanted, metrics)?;
    let origin = std::env::args().collect::<Vec<_>>().join(" ");
    let text = if snakemake {
        plan.snakefile(dir, &origin)
    } else {
        plan.makefile(dir, &origin)
    };
    match out {
        Some(path) => {
            chariot_formats::atomic::write(path, text.as_bytes())?;
            eprintln!(
                "{}: {} tables, {} asked for",
                path.display(),
                plan.jobs.len(),
                plan.wanted.len()
            );
        }
        None => print!("{text}"),
    }
    Ok(true)
}

/// `egtb-gen gen`. Returns `false` when some table failed (with `keep_going`).
pub fn gen_command(
    names: &[String],
    set: Option<&str>,
    dir: &Path,
    opts: &Options,
) -> anyhow::Result<bool> {
    let Options {
        level,
        block_entries,
        max_memory_gib,
        force,
        keep_going,
        ref metrics,
    } = *opts;
    let wanted = wanted_tables(names, set)?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let order = generation_order(&wanted);
    let limit = (max_memory_gib * (1u64 << 30) as f64) as u64;
    let started = Instant::now();
    let overall = ProgressBar::new(order.len() as u64);
    overall.set_style(
        ProgressStyle::with_template("{prefix} [{elapsed_precise}] {bar:30} {pos}/{len} tables")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("  {msg:32} {bar:30} {percent:>3}% eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let multi = indicatif::MultiProgress::new();
    let overall = multi.add(overall);
    let bar = multi.add(bar);
    let (mut generated, mut skipped) = (0, 0);
    let mut failed: Vec<Signature> = Vec::new();
    let mut total = Report::default();
    for sig in order {
        let explicit = wanted.contains(&sig);
        let present = metrics.iter().all(|&m| {
            let path = table_path_in(dir, sig, m);
            path.exists() && TableFile::open(&path).is_ok()
        });
        if present && !(force && explicit) {
            skipped += 1;
            overall.inc(1);
            continue;
        }
        let need = memory_estimate(sig)?;
        if need > limit {
            bail!(
                "table {sig} needs about {:.1} GiB, more than --max-memory {max_memory_gib} GiB",
                need as f64 / (1u64 << 30) as f64
            );
        }
        if sig.captures().iter().any(|c| failed.contains(c)) {
            failed.push(sig);
            multi.suspend(|| eprintln!("{sig:14} skipped: a table it needs failed"));
            overall.inc(1);
            continue;
        }
        let report = match build_one(sig, dir, level, block_entries, metrics, &Bar(bar.clone())) {
            Ok(r) => r,
            Err(e) if keep_going => {
                multi.suspend(|| eprintln!("{sig:14} failed: {e}"));
                failed.push(sig);
                overall.inc(1);
                continue;
            }
            Err(e) => return Err(anyhow::Error::from(e).context(format!("generating {sig}"))),
        };
        multi.suspend(|| {
            eprintln!(
                "{sig:14} {:>13} entries {:>8.1} s {:>10.0} entries/s {:>11} bytes",
                report.entries,
                report.seconds,
                report.entries as f64 / report.seconds.max(1e-9),
                report.bytes
            );
        });
        total.entries += report.entries;
        total.seconds += report.seconds;
        total.bytes += report.bytes;
        generated += 1;
        overall.inc(1);
    }
    bar.finish_and_clear();
    overall.finish_and_clear();
    eprintln!(
        "generated {} ({}, {}) in {:.1} s wall; {} already present",
        chariot_cli::count(generated as u64, "table", "tables"),
        chariot_cli::count(total.entries, "entry", "entries"),
        chariot_cli::count(total.bytes, "byte", "bytes"),
        started.elapsed().as_secs_f64(),
        skipped,
    );
    if !failed.is_empty() {
        let names: Vec<String> = failed.iter().map(ToString::to_string).collect();
        eprintln!(
            "{} failed: {}",
            chariot_cli::count(failed.len() as u64, "table", "tables"),
            names.join(" ")
        );
    }
    Ok(failed.is_empty())
}
