//! `egtb-gen gen`: resolve dependencies, skip finished tables, generate, compress and write.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use chariot::egtb::file::{self, TableFile};
use chariot::egtb::{Indexer, Signature};

use crate::tools::plural;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::generate::{Generated, Loaded, Subtables, generate};

/// The path of a table in `dir`.
pub fn table_path(dir: &Path, sig: Signature) -> PathBuf {
    dir.join(format!("{sig}.{}", chariot::egtb::probe::EXTENSION))
}

/// What one generated table cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct Report {
    /// Entries (both halves).
    pub entries: u64,
    /// Seconds to generate and write.
    pub seconds: f64,
    /// Bytes on disk.
    pub bytes: u64,
}

/// The estimated peak memory of generating `sig`, in bytes.
pub fn memory_estimate(sig: Signature) -> anyhow::Result<u64> {
    let own = 2 * Indexer::new(sig)?.size();
    let mut subs = 0;
    for s in sig.captures() {
        subs += 2 * Indexer::new(s)?.size();
    }
    // 5 bytes per entry during the retrograde passes (twice at the end of the first pass: the
    // chunked copy); then the state, check byte and move counts (5), the second game's working
    // arrays (8) with the first game's solution (4); plus the subtables.
    Ok(own * 17 + subs * 2)
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
    } = *opts;
    let mut wanted: Vec<Signature> = Vec::new();
    for n in names {
        let sig: Signature = n
            .parse()
            .map_err(|e| chariot_cli::usage(format!("table name {n:?}: {e}")))?;
        wanted.push(sig);
    }
    if let Some(name) = set {
        match crate::sets::set(name) {
            Some(s) => wanted.extend(s),
            None => {
                return Err(chariot_cli::usage(format!(
                    "unknown set {name:?}; known sets: {}",
                    crate::sets::SETS.map(|s| s.0).join(", ")
                )));
            }
        }
    }
    if wanted.is_empty() {
        return Err(chariot_cli::usage(
            "nothing to generate: give table names or --set NAME",
        ));
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut order: Vec<Signature> = Vec::new();
    for s in &wanted {
        for d in s.closure() {
            if !order.contains(&d) {
                order.push(d);
            }
        }
    }
    order.sort_by_key(|s| (s.piece_count(), s.to_string()));
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
        let path = table_path(dir, sig);
        let explicit = wanted.contains(&sig);
        if path.exists() && !(force && explicit) && TableFile::open(&path).is_ok() {
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
        let report = match build_one(sig, dir, level, block_entries, &bar) {
            Ok(r) => r,
            Err(e) if keep_going => {
                multi.suspend(|| eprintln!("{sig:14} failed: {e:#}"));
                failed.push(sig);
                overall.inc(1);
                continue;
            }
            Err(e) => return Err(e.context(format!("generating {sig}"))),
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
        plural(generated as u64, "table", "tables"),
        plural(total.entries, "entry", "entries"),
        plural(total.bytes, "byte", "bytes"),
        started.elapsed().as_secs_f64(),
        skipped,
    );
    if !failed.is_empty() {
        let names: Vec<String> = failed.iter().map(ToString::to_string).collect();
        eprintln!(
            "{} failed: {}",
            plural(failed.len() as u64, "table", "tables"),
            names.join(" ")
        );
    }
    Ok(failed.is_empty())
}

/// Loads the tables the captures of `sig` lead to.
fn load_subtables(sig: Signature, dir: &Path) -> anyhow::Result<Subtables> {
    let mut subs: Subtables = HashMap::new();
    for s in sig.captures() {
        let path = table_path(dir, s);
        let f = TableFile::open(&path).with_context(|| format!("opening {}", path.display()))?;
        let loaded =
            Loaded::from_file(&f).with_context(|| format!("reading {}", path.display()))?;
        subs.insert(s, Arc::new(loaded));
    }
    Ok(subs)
}

/// Generates one table whose dependencies are in `dir`, and writes it there.
pub fn build_one(
    sig: Signature,
    dir: &Path,
    level: i32,
    block_entries: u32,
    bar: &ProgressBar,
) -> anyhow::Result<Report> {
    let t = Instant::now();
    let subs = load_subtables(sig, dir)?;
    let g = generate(sig, &subs, bar)?;
    drop(subs);
    bar.set_message(format!("{sig}: compressing"));
    let path = table_path(dir, sig);
    let bytes = write_generated(&g, &path, level, block_entries)?;
    Ok(Report {
        entries: g.codes.len() as u64,
        seconds: t.elapsed().as_secs_f64(),
        bytes,
    })
}

/// Compresses the blocks in parallel and writes the file; returns its size.
pub fn write_generated(
    g: &Generated,
    path: &Path,
    level: i32,
    block_entries: u32,
) -> anyhow::Result<u64> {
    if block_entries == 0 {
        anyhow::bail!("--block-entries must be at least 1");
    }
    let header = file::make_header(
        g.signature,
        &g.codes,
        g.stats,
        g.flags,
        g.coding,
        block_entries,
    );
    let blocks = (0..header.blocks)
        .into_par_iter()
        .map(|b| file::compress_block(&g.codes, b, header.block_entries, header.value_width, level))
        .collect::<Result<Vec<_>, _>>()?;
    file::write_table(path, &header, &blocks)?;
    Ok(std::fs::metadata(path)?.len())
}
