//! `info`, `probe` and `verify`: everything here reads tables only through the library's reader.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use chariot::egtb::{Indexer, Signature, TableFile, Tablebases, Value};
use chariot::rules::Waivers;
use chariot::{Color, Position};
use rayon::prelude::*;

use crate::generate::Loaded;
use crate::run::table_path;

/// `egtb-gen info`.
pub fn info(files: &[PathBuf]) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    for path in files {
        let t = TableFile::open(path).with_context(|| format!("opening {}", path.display()))?;
        let h = t.header();
        let ix = Indexer::new(h.signature)?;
        writeln!(out, "{}", path.display())?;
        writeln!(out, "  table      {}", h.signature)?;
        writeln!(
            out,
            "  index      {} entries per side to move ({} with both sides), {} bytes per entry",
            h.entries_per_half,
            h.entries(),
            h.value_width
        )?;
        let names = [
            format!("{} (strong, Red in the table) to move", h.signature.strong),
            format!("{} (weak, Black in the table) to move", h.signature.weak),
        ];
        let mut longest = (0, Color::Red, 0u64);
        for (i, s) in h.stats.iter().enumerate() {
            let turn = if i == 0 { Color::Red } else { Color::Black };
            writeln!(out, "  {}", names[i])?;
            writeln!(
                out,
                "    positions {:>12}   wins {:>12}   draws {:>12}   losses {:>12}   (unused indices {})",
                s.wins + s.draws + s.losses,
                s.wins,
                s.draws,
                s.losses,
                s.unused
            )?;
            if s.max_dtm > longest.0 {
                longest = (s.max_dtm, turn, s.max_dtm_index);
            }
        }
        if longest.0 > 0 {
            let setup = ix.setup(&ix.decode(longest.2), longest.1);
            writeln!(out, "  longest    {} plies: {}", longest.0, setup.fen())?;
        } else {
            writeln!(out, "  longest    no mate in this table")?;
        }
        let raw = h.entries() * u64::from(h.value_width);
        writeln!(
            out,
            "  size       {} bytes on disk, {} uncompressed, ratio {:.1}:1, {} blocks of {} entries",
            t.file_len(),
            raw,
            raw as f64 / t.file_len().max(1) as f64,
            h.blocks,
            h.block_entries
        )?;
        writeln!(
            out,
            "  rules      perpetual check {}",
            if h.flags & crate::perpetual::FLAG_PERPETUAL_JUDGED != 0 {
                "judged (no position decided by it)"
            } else {
                "not judged"
            }
        )?;
    }
    Ok(true)
}

/// Text for one probed position.
fn probe_one(tb: &Tablebases, fen: &str, json: bool, with_line: bool) -> String {
    let pos = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => return error_line(fen, &format!("invalid position: {e}"), json),
    };
    let value = match tb.probe(&pos) {
        Ok(Some(v)) => v,
        Ok(None) => {
            let sig = Signature::of(&pos).0;
            return error_line(fen, &format!("no table for {sig}"), json);
        }
        Err(e) => return error_line(fen, &chain(&e), json),
    };
    let best = match tb.best_move(&pos) {
        Ok(b) => b.map(|(m, _)| m),
        Err(e) => return error_line(fen, &chain(&e), json),
    };
    let line = if with_line && value != Value::Draw {
        match tb.line(&pos, value.dtm().unwrap_or(0) as usize) {
            Ok(l) => l,
            Err(e) => return error_line(fen, &chain(&e), json),
        }
    } else {
        Vec::new()
    };
    let line_text: Vec<String> = line.iter().map(ToString::to_string).collect();
    if json {
        let dtm = value.dtm().map_or("null".to_owned(), |d| d.to_string());
        let best = best.map_or("null".to_owned(), |m| format!("\"{m}\""));
        let line = line_text
            .iter()
            .map(|m| format!("\"{m}\""))
            .collect::<Vec<_>>()
            .join(",");
        format!(
            "{{\"fen\":\"{}\",\"wdl\":\"{}\",\"dtm\":{dtm},\"best\":{best},\"line\":[{line}]}}",
            escape(fen),
            value.wdl()
        )
    } else {
        let best = best.map_or("-".to_owned(), |m| m.to_string());
        format!(
            "{fen}\n  {value}; best {best}; line {}",
            line_text.join(" ")
        )
    }
}

/// An error with its causes, as one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn error_line(fen: &str, msg: &str, json: bool) -> String {
    if json {
        format!(
            "{{\"fen\":\"{}\",\"error\":\"{}\"}}",
            escape(fen),
            escape(msg)
        )
    } else {
        format!("{fen}\n  error: {msg}")
    }
}

/// `egtb-gen probe`.
pub fn probe(
    dirs: &[PathBuf],
    fens: &[String],
    json: bool,
    with_line: bool,
) -> anyhow::Result<bool> {
    let tb = Tablebases::open(dirs).context("opening tables")?;
    if tb.is_empty() {
        anyhow::bail!(
            "no tables found in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut ok = true;
    let mut handle = |fen: &str, out: &mut dyn Write| -> std::io::Result<()> {
        let text = probe_one(&tb, fen, json, with_line);
        ok &= !text.contains("error");
        writeln!(out, "{text}")
    };
    if fens.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line?;
            let fen = line.trim();
            if !fen.is_empty() {
                handle(fen, &mut out)?;
            }
        }
    } else {
        for fen in fens {
            handle(fen, &mut out)?;
        }
    }
    out.flush()?;
    Ok(ok)
}

/// The first inconsistency of a table, if any: (entry, FEN, stored, expected).
type Inconsistency = (u64, String, Value, Value);

/// Re-checks one table: every legal position's stored value must equal the best over its moves
/// of the successors' values (read from this table or, after a capture, from the smaller
/// tables in the same directory), a position without moves must be lost at distance 0, and the
/// header's statistics must match.
pub fn verify_table(path: &Path) -> anyhow::Result<Option<Inconsistency>> {
    let t = TableFile::open(path).with_context(|| format!("opening {}", path.display()))?;
    let h = t.header().clone();
    let dir = path.parent().unwrap_or(Path::new("."));
    let ix = Indexer::new(h.signature)?;
    let own = Arc::new(Loaded::from_file(&t)?);
    let mut subs: HashMap<Signature, Arc<Loaded>> = HashMap::new();
    for s in h.signature.captures() {
        let p = table_path(dir, s);
        let f = TableFile::open(&p).with_context(|| format!("opening {}", p.display()))?;
        subs.insert(s, Arc::new(Loaded::from_file(&f)?));
    }
    subs.insert(h.signature, Arc::clone(&own));
    let size = ix.size();
    let waivers = Waivers {
        placement: true,
        counts: true,
        opposite_check: false,
    };
    let stored_at = |e: u64| Value::from_code(own.codes[e as usize]);
    const CHUNK: u64 = 1 << 14;
    let results: Vec<(Option<Inconsistency>, [u64; 8])> = (0..(2 * size).div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let chunk = c * CHUNK..((c + 1) * CHUNK).min(2 * size);
            // Per half: wins, draws, losses, unused.
            let mut counts = [0u64; 8];
            for e in chunk {
                let half = (e / size) as usize;
                let turn = if half == 0 { Color::Red } else { Color::Black };
                let p = ix.decode(e % size);
                let pos = if p.has_overlap() {
                    None
                } else {
                    Position::from_setup(&ix.setup(&p, turn), waivers).ok()
                };
                let Some(mut pos) = pos else {
                    counts[4 * half + 3] += 1;
                    continue;
                };
                let stored = match stored_at(e) {
                    Ok(v) => v,
                    Err(_) => {
                        return (Some((e, pos.fen(), Value::Draw, Value::Draw)), counts);
                    }
                };
                counts[4 * half
                    + match stored {
                        Value::Win(_) => 0,
                        Value::Draw => 1,
                        Value::Loss(_) => 2,
                    }] += 1;
                let mut best: Option<Value> = None;
                for &m in pos.legal_move_list().iter() {
                    pos.make_move(m);
                    let v = subs
                        .get(&Signature::of(&pos).0)
                        .and_then(|t| {
                            let (tt, i) = t.indexer.index_of(&pos).ok()?;
                            Value::from_code(
                                t.codes[(tt.index() as u64 * t.indexer.size() + i) as usize],
                            )
                            .ok()
                        })
                        .map(Value::before_move);
                    pos.unmake_move();
                    let Some(v) = v else {
                        return (Some((e, pos.fen(), stored, Value::Draw)), counts);
                    };
                    best = Some(best.map_or(v, |b| b.max(v)));
                }
                let expected = best.unwrap_or(Value::Loss(0));
                if expected != stored {
                    return (Some((e, pos.fen(), stored, expected)), counts);
                }
            }
            (None, counts)
        })
        .collect();
    let mut counts = [0u64; 8];
    for (bad, c) in &results {
        if bad.is_some() {
            return Ok(bad.clone());
        }
        for i in 0..8 {
            counts[i] += c[i];
        }
    }
    for (half, s) in h.stats.iter().enumerate() {
        let c = &counts[4 * half..4 * half + 4];
        if [s.wins, s.draws, s.losses, s.unused] != c {
            anyhow::bail!(
                "{}: header statistics {:?} do not match the table's {:?} (wins, draws, losses, unused)",
                path.display(),
                [s.wins, s.draws, s.losses, s.unused],
                c
            );
        }
    }
    Ok(None)
}

/// `egtb-gen verify`.
pub fn verify(files: &[PathBuf]) -> anyhow::Result<bool> {
    let mut all_ok = true;
    for path in files {
        let start = std::time::Instant::now();
        match verify_table(path)? {
            None => println!(
                "{}: ok ({:.1} s)",
                path.display(),
                start.elapsed().as_secs_f64()
            ),
            Some((e, fen, stored, expected)) => {
                all_ok = false;
                println!(
                    "{}: INCONSISTENT at entry {e}: {fen}: stored {stored}, successors give {expected}",
                    path.display()
                );
            }
        }
    }
    Ok(all_ok)
}

/// `egtb-gen bench-probe`: times `Tablebases::probe` on random legal positions of one table,
/// each probed twice in a row: the first probe usually decompresses its block (cold), the
/// second finds it in the cache (warm).
pub fn bench_probe(path: &Path, positions: usize) -> anyhow::Result<bool> {
    use std::time::{Duration, Instant};
    let t = TableFile::open(path).with_context(|| format!("opening {}", path.display()))?;
    let sig = t.header().signature;
    let ix = Indexer::new(sig)?;
    let tb = Tablebases::open(&[path])?;
    let size = ix.size();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut picked = Vec::new();
    while picked.len() < positions {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let e = (state >> 11) % (2 * size);
        let turn = if e < size { Color::Red } else { Color::Black };
        let p = ix.decode(e % size);
        if p.has_overlap() {
            continue;
        }
        if let Ok(pos) = Position::from_setup(&ix.setup(&p, turn), Waivers::NONE) {
            picked.push(pos);
        }
    }
    let (mut cold, mut warm) = (Duration::ZERO, Duration::ZERO);
    for pos in &picked {
        let a = Instant::now();
        tb.probe(pos)?;
        let b = Instant::now();
        tb.probe(pos)?;
        warm += b.elapsed();
        cold += b - a;
    }
    let n = picked.len() as f64;
    println!(
        "{sig}: {} positions; first probe {:.1} us (usually a block decompression), repeated probe {:.2} us (cached block)",
        picked.len(),
        cold.as_secs_f64() * 1e6 / n,
        warm.as_secs_f64() * 1e6 / n
    );
    Ok(true)
}
