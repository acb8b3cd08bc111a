//! Building a table: its subtables loaded, the retrograde analysis run, the codes compressed and
//! written (the `egtb-gen gen` command drives it table by table).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::error::TableError;

use chariot_formats::egtb::file::{self, TableFile};
use chariot_formats::egtb::{Indexer, Metric, Signature};

use crate::dtm::{Generated, Progress, generate};
use crate::loaded::{Loaded, Subtables};

/// The path of a table's DTM file in `dir` (`KRKAABB.egtb`).
pub fn table_path(dir: &Path, sig: Signature) -> PathBuf {
    table_path_in(dir, sig, Metric::Dtm)
}

/// The path of a table's file of `metric` in `dir`: `KRKAABB.egtb` (DTM), `KRKAABB.dtc.egtb`
/// (DTC).
pub fn table_path_in(dir: &Path, sig: Signature, metric: Metric) -> PathBuf {
    let ext = chariot_formats::egtb::probe::EXTENSION;
    match metric {
        Metric::Dtm => dir.join(format!("{sig}.{ext}")),
        Metric::Dtc => dir.join(format!("{sig}.dtc.{ext}")),
    }
}

/// The file of a table in `dir` that a generation or check can read its values from: the DTM
/// file when present, else (unless `dtm_only`) the DTC file.
pub fn readable_table(dir: &Path, sig: Signature, dtm_only: bool) -> PathBuf {
    let dtm = table_path(dir, sig);
    let dtc = table_path_in(dir, sig, Metric::Dtc);
    if dtm_only || dtm.exists() || !dtc.exists() {
        dtm
    } else {
        dtc
    }
}

/// The tables `wanted` need (captures lead to them, one or more away), `wanted` included, each
/// once, smallest first: the order to generate them in.
#[must_use]
pub fn generation_order(wanted: &[Signature]) -> Vec<Signature> {
    let mut order: Vec<Signature> = Vec::new();
    for s in wanted {
        for d in s.closure() {
            if !order.contains(&d) {
                order.push(d);
            }
        }
    }
    order.sort_by_key(|s| (s.piece_count(), s.to_string()));
    order
}

/// Generates the tables `wanted` and every table they need into `dir`, smallest first, none
/// skipped (the command line's `gen` adds skipping, memory limits and progress bars).
///
/// # Errors
/// As [`build_one`], for the first table that fails.
pub fn build_all(
    wanted: &[Signature],
    dir: &Path,
    level: i32,
    block_entries: u32,
    metrics: &[Metric],
) -> Result<Vec<Report>, TableError> {
    generation_order(wanted)
        .into_iter()
        .map(|s| build_one(s, dir, level, block_entries, metrics, &()))
        .collect()
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
///
/// # Errors
/// When the signature (or one its captures lead to) cannot be indexed.
pub fn memory_estimate(sig: Signature) -> Result<u64, TableError> {
    let own = 2 * Indexer::new(sig)?.size();
    let mut subs = 0;
    for s in sig.captures() {
        subs += 2 * Indexer::new(s)?.size();
    }
    // The first pass: 5 bytes per entry (state, two move counts, the first-pass byte) and the
    // subtables at 2 bytes an entry, dropped after it. The game: the state and first-pass byte
    // (3) and the solver's arrays (8, the move counts among them), and with games for both
    // winners (both sides have attacking pieces, so chases are judged) a chase core's escapes
    // (1) and the first one's copy of the counts (2) or solution (4). The DTC pass: the DTM
    // codes, the first-pass byte and its word (5); the writing: both tables' codes (4).
    let games = chariot_rules::Color::ALL
        .into_iter()
        .filter(|w| sig.side(w.opponent()).has_attackers())
        .count();
    let per_entry = match games {
        0 => 5,
        1 => 11,
        _ => 16,
    };
    Ok((own * 5 + subs * 2).max(own * per_entry))
}

/// Loads the tables the captures of `sig` lead to: their DTM files, or with `dtm_only` false a
/// DTC file where there is no DTM file (enough for win, draw and loss, not for distances to
/// mate).
///
/// # Errors
/// [`TableError::File`] or [`TableError::Load`] naming the subtable that cannot be read.
pub fn load_subtables(sig: Signature, dir: &Path, dtm_only: bool) -> Result<Subtables, TableError> {
    let mut subs: Subtables = HashMap::new();
    for s in sig.captures() {
        let path = readable_table(dir, s, dtm_only);
        let f = TableFile::open(&path).map_err(|source| TableError::File {
            path: path.clone(),
            source,
        })?;
        let loaded = Loaded::from_file(&f).map_err(|source| TableError::Load { path, source })?;
        subs.insert(s, Arc::new(loaded));
    }
    Ok(subs)
}

/// Generates one table whose dependencies are in `dir`, and writes its files of `metrics`
/// there (a DTM file needs the DTM files of the tables captures lead to; a DTC file needs any
/// of their files).
///
/// # Errors
/// A subtable that cannot be read, a failed analysis, or a file that cannot be written.
pub fn build_one(
    sig: Signature,
    dir: &Path,
    level: i32,
    block_entries: u32,
    metrics: &[Metric],
    progress: &dyn Progress,
) -> Result<Report, TableError> {
    let t = Instant::now();
    let failed = |source| TableError::Generate {
        signature: sig,
        source,
    };
    let subs = load_subtables(sig, dir, metrics.contains(&Metric::Dtm))?;
    // The subtables are dropped after the first pass, the first-pass bytes after the DTC pass.
    let (g, facts) = generate(sig, subs, progress).map_err(failed)?;
    let c = if metrics.contains(&Metric::Dtc) {
        Some(crate::dtc::conversion_table(&g, &facts, progress).map_err(failed)?)
    } else {
        None
    };
    drop(facts);
    // The files written, with their paths; one order of the entries for both
    // (`crate::layout`), decided on the first.
    let mut files: Vec<(&Generated, PathBuf)> = Vec::new();
    if metrics.contains(&Metric::Dtm) {
        files.push((&g, table_path(dir, sig)));
    }
    if let Some(c) = &c {
        files.push((c, table_path_in(dir, sig, Metric::Dtc)));
    }
    progress.stage(&format!("{sig}: compressing"), 0);
    let scheme = match files.first() {
        Some((first, _)) => crate::layout::choose(first, level, block_entries),
        None => chariot_formats::egtb::index::KEY_SCHEME,
    };
    if block_entries == 0 || block_entries > chariot_formats::egtb::file::MAX_BLOCK_ENTRIES {
        return Err(TableError::BlockEntries);
    }
    let tables: Vec<&Generated> = files.iter().map(|f| f.0).collect();
    let packed =
        crate::layout::pack(&tables, scheme, block_entries, level).map_err(|(t, source)| {
            TableError::File {
                path: files[t].1.clone(),
                source,
            }
        })?;
    let mut bytes = 0;
    for ((g, path), packed) in files.iter().zip(&packed) {
        bytes += write_packed(g, packed, path, block_entries)?;
    }
    Ok(Report {
        entries: g.codes.len() as u64,
        seconds: t.elapsed().as_secs_f64(),
        bytes,
    })
}

/// Writes the file of `g` from its compressed blocks; returns its size.
fn write_packed(
    g: &Generated,
    packed: &crate::layout::Packed,
    path: &Path,
    block_entries: u32,
) -> Result<u64, TableError> {
    let file_error = |source| TableError::File {
        path: path.to_owned(),
        source,
    };
    // The value width does not depend on the order: unused entries repeat used codes (or 0).
    let mut header = file::make_header(
        g.signature,
        &g.codes,
        packed.stats,
        g.flags,
        g.coding,
        block_entries,
    );
    header.key_scheme = packed.key_scheme;
    file::write_table(path, &header, &packed.blocks).map_err(file_error)?;
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|source| TableError::Io {
            path: path.to_owned(),
            source,
        })
}
