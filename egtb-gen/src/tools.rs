//! `info`, `probe` and `bench-probe`: everything here reads tables only through the library's
//! reader (`verify` has its own module, [`crate::verify`]).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use chariot::egtb::file::{FLAG_RULE_DECIDES, FLAG_RULE_JUDGED};
use chariot::egtb::{Indexer, Signature, TableFile, Tablebases, Value};
use chariot::rules::Waivers;
use chariot::{Color, Position};

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
                s.wins + s.draws + s.losses + s.rule_wins + s.rule_losses,
                s.wins + s.rule_wins,
                s.draws,
                s.losses + s.rule_losses,
                s.unused
            )?;
            if s.rule_wins + s.rule_losses > 0 {
                writeln!(
                    out,
                    "    by the perpetual-check rule: wins {:>12}   losses {:>12}",
                    s.rule_wins, s.rule_losses
                )?;
            }
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
        let rule = if h.flags & FLAG_RULE_DECIDES != 0 {
            format!(
                "judged; decides {} positions in {} stages (format version {})",
                h.stats
                    .iter()
                    .map(|s| s.rule_wins + s.rule_losses)
                    .sum::<u64>(),
                h.coding.rule_stages,
                h.version()
            )
        } else if h.flags & FLAG_RULE_JUDGED != 0 {
            "judged (no position decided by it)".to_owned()
        } else {
            "not judged".to_owned()
        };
        writeln!(out, "  rules      perpetual check {rule}")?;
    }
    Ok(true)
}

/// The longest line shown for a rule value (it usually ends earlier, at a repetition).
const RULE_LINE: usize = 60;

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
    // A rule value's line runs until a position repeats (where the rule judges the cycle).
    let plies = value.dtm().map_or(RULE_LINE, |d| d as usize);
    let line = if with_line && value != Value::Draw {
        match tb.line(&pos, plies) {
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
        let rank = value.rule_rank().map_or("null".to_owned(), |r| {
            format!("{{\"stage\":{},\"plies\":{}}}", r.stage, r.plies)
        });
        format!(
            "{{\"fen\":\"{}\",\"wdl\":\"{}\",\"dtm\":{dtm},\"best\":{best},\"line\":[{line}],\"by_rule\":{},\"rule_rank\":{rank}}}",
            escape(fen),
            value.wdl(),
            value.by_rule()
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
