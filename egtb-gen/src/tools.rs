//! `info`, `probe`, `verify` and `bench-probe`: everything here reads tables only through the
//! library's reader (the verification itself is `egtb_gen::verify`).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use chariot_formats::egtb::stats::{Distances, Mate, SideCounts, SideDistances, Summary};
use chariot_formats::egtb::{Indexer, Metric, Signature, TableFile, Tablebases, Value};
use chariot_rules::Waivers;
use chariot_rules::{Color, Position};
use serde::Serialize;

/// One side to move's counts in `info --json`.
#[derive(Debug, Serialize)]
struct SideInfo {
    /// `strong` (Red in the table) or `weak`.
    to_move: &'static str,
    /// The header's counts (and the longest distance to mate with this side to move).
    #[serde(flatten)]
    counts: SideCounts,
    /// With `--distances`: positions per distance to mate, wins and losses apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    histogram: Option<Histogram>,
    /// With `--distances`: the longest mates with this side to move, longest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    longest: Option<Vec<MateInfo>>,
}

/// `[plies, positions]` pairs, shortest distance first, empty distances left out.
#[derive(Debug, Serialize)]
struct Histogram {
    wins: Vec<(u32, u64)>,
    losses: Vec<(u32, u64)>,
}

/// A position at a distance to mate.
#[derive(Debug, Serialize)]
struct MateInfo {
    fen: String,
    /// `win` or `loss` for the side to move.
    wdl: String,
    plies: u32,
}

/// A table's header as `info --json` prints it.
#[derive(Debug, Serialize)]
struct TableInfo {
    file: String,
    table: String,
    /// `dtm` (distances to mate) or `dtc` (distances to conversion).
    metric: &'static str,
    entries_per_side: u64,
    bytes_per_entry: u32,
    sides: Vec<SideInfo>,
    /// The longest mate in plies, and a position with it.
    longest_plies: u32,
    longest_fen: Option<String>,
    file_bytes: u64,
    uncompressed_bytes: u64,
    blocks: u64,
    block_entries: u32,
    /// `not judged`, `judged` (no position decided by it) or `decides` (some are).
    perpetual_check_rule: &'static str,
    rule_stages: u32,
    /// Per winner (strong side first): the stages that are cores of the perpetual-chase rule.
    chase_core_stages: [Vec<u32>; 2],
    format_version: u32,
}

/// The header's numbers (`chariot_formats::egtb::stats`), and with `longest` the distances of every
/// entry and that many longest mates per side to move.
fn table_info(path: &Path, longest: Option<usize>) -> anyhow::Result<TableInfo> {
    let t = TableFile::open(path).with_context(|| path.display().to_string())?;
    let s = Summary::of(&t)?;
    let distances = longest
        .map(|n| Distances::of(&t, n))
        .transpose()
        .with_context(|| path.display().to_string())?;
    let sides = s
        .sides
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let d = distances.as_ref().map(|d| &d.sides[i]);
            SideInfo {
                to_move: if i == 0 { "strong" } else { "weak" },
                counts: *c,
                histogram: d.map(|d| Histogram {
                    wins: SideDistances::bars(&d.wins).collect(),
                    losses: SideDistances::bars(&d.losses).collect(),
                }),
                longest: d.map(|d| {
                    d.longest
                        .iter()
                        .map(|m| MateInfo {
                            fen: m.fen.clone(),
                            wdl: m.value.wdl().to_string(),
                            plies: m.plies(),
                        })
                        .collect()
                }),
            }
        })
        .collect();
    Ok(TableInfo {
        file: path.display().to_string(),
        table: s.signature.to_string(),
        metric: s.metric.name(),
        entries_per_side: s.entries_per_side,
        bytes_per_entry: u32::from(s.bytes_per_entry),
        sides,
        longest_plies: s.longest.as_ref().map_or(0, Mate::plies),
        longest_fen: s.longest.map(|m| m.fen),
        file_bytes: s.file_bytes,
        uncompressed_bytes: s.uncompressed_bytes,
        blocks: s.blocks,
        block_entries: s.block_entries,
        perpetual_check_rule: s.rule.name(),
        rule_stages: s.rule_stages,
        chase_core_stages: t
            .header()
            .coding
            .chase_stages
            .map(|bits| (0..128).filter(|&st| bits >> st & 1 == 1).collect()),
        format_version: u32::from(s.format_version),
    })
}

/// `egtb-gen info`: a table's header, as text or one JSON object per table; with `longest`,
/// also the distances to mate of every entry and that many longest mates per side to move.
pub fn info(files: &[PathBuf], json: bool, longest: Option<usize>) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    for path in files {
        let i = table_info(path, longest)?;
        if json {
            writeln!(out, "{}", serde_json::to_string(&i)?)?;
            continue;
        }
        let sig: Signature = i.table.parse()?;
        writeln!(out, "{}", i.file)?;
        writeln!(out, "  table      {}", i.table)?;
        let dtc = i.metric == "dtc";
        writeln!(
            out,
            "  metric     {}",
            if dtc {
                "distance to conversion (plies to a capture or soldier's move, or mate)"
            } else {
                "distance to mate (plies)"
            }
        )?;
        writeln!(
            out,
            "  index      {} per side to move ({} with both sides), {} per entry",
            chariot_cli::count(i.entries_per_side, "entry", "entries"),
            2 * i.entries_per_side,
            chariot_cli::count(u64::from(i.bytes_per_entry), "byte", "bytes")
        )?;
        for (side, name) in i.sides.iter().zip([
            format!("{} (strong, Red in the table) to move", sig.strong),
            format!("{} (weak, Black in the table) to move", sig.weak),
        ]) {
            writeln!(out, "  {name}")?;
            let c = &side.counts;
            writeln!(
                out,
                "    positions {:>12}   wins {:>12}   draws {:>12}   losses {:>12}   unused indices {:>12}",
                c.positions, c.wins, c.draws, c.losses, c.unused
            )?;
            if c.rule_wins + c.rule_losses > 0 {
                writeln!(
                    out,
                    "    by the perpetual check/chase rules:  wins {:>12}                       losses {:>12}",
                    c.rule_wins, c.rule_losses
                )?;
            }
        }
        match &i.longest_fen {
            Some(fen) => writeln!(
                out,
                "  longest    {}{}: {fen}",
                chariot_cli::count(u64::from(i.longest_plies), "ply", "plies"),
                if dtc { " to conversion" } else { " to mate" }
            )?,
            None => writeln!(out, "  longest    no mate in this table")?,
        }
        writeln!(
            out,
            "  size       {} on disk, {} uncompressed, ratio {:.1}:1, {} of {}",
            chariot_cli::count(i.file_bytes, "byte", "bytes"),
            chariot_cli::count(i.uncompressed_bytes, "byte", "bytes"),
            i.uncompressed_bytes as f64 / i.file_bytes.max(1) as f64,
            chariot_cli::count(i.blocks, "block", "blocks"),
            chariot_cli::count(u64::from(i.block_entries), "entry", "entries")
        )?;
        let rule = match i.perpetual_check_rule {
            "decides" => {
                let decided: u64 = i
                    .sides
                    .iter()
                    .map(|s| s.counts.rule_wins + s.counts.rule_losses)
                    .sum();
                let chase = i.chase_core_stages.iter().map(Vec::len).sum::<usize>();
                let chase = if chase == 0 {
                    String::new()
                } else {
                    format!(
                        ", {} of perpetual chase",
                        chariot_cli::count(chase as u64, "core", "cores")
                    )
                };
                format!(
                    "judged; decides {} in {}{chase} (format version {})",
                    chariot_cli::count(decided, "position", "positions"),
                    chariot_cli::count(u64::from(i.rule_stages), "stage", "stages"),
                    i.format_version
                )
            }
            "judged" => "judged (no position decided by it)".to_owned(),
            _ => "not judged".to_owned(),
        };
        writeln!(out, "  rules      perpetual check/chase {rule}")?;
        for (side, name) in i.sides.iter().zip(["strong", "weak"]) {
            if let Some(h) = &side.histogram {
                let bars = |v: &[(u32, u64)]| {
                    if v.is_empty() {
                        return "none".to_owned();
                    }
                    v.iter()
                        .map(|(d, n)| format!("{d}:{n}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                writeln!(
                    out,
                    "  distances  {name} side to move (plies:positions): wins {}; losses {}",
                    bars(&h.wins),
                    bars(&h.losses)
                )?;
            }
            for m in side.longest.iter().flatten() {
                writeln!(
                    out,
                    "  longest    {name} side to move, {} in {}: {}",
                    m.wdl,
                    chariot_cli::count(u64::from(m.plies), "ply", "plies"),
                    m.fen
                )?;
            }
        }
    }
    Ok(true)
}

/// The longest line shown for a rule value (it usually ends earlier, at a repetition).
const RULE_LINE: usize = 60;
/// The longest line shown for a position answered in DTC (it ends earlier, at mate).
const DTC_LINE: usize = 400;

/// A probed position, as `probe --json` prints it (fields documented in `docs/egtb.md`).
#[derive(Debug, Serialize)]
struct Answer {
    fen: String,
    /// `dtm` or `dtc`: the metric of the distances below.
    metric: &'static str,
    /// For the side to move.
    wdl: String,
    /// Plies to mate from this position; `null` for a draw, a value decided by the rule, or
    /// an answer in DTC.
    dtm: Option<u32>,
    /// Plies to the next conversion (a capture or soldier's move, or mate) in an answer in DTC;
    /// `null` otherwise.
    dtc: Option<u32>,
    by_rule: bool,
    rule_rank: Option<Rank>,
    best: Option<String>,
    /// The best line for a win or loss (to mate, or until a repetition for a value decided by
    /// the rule); `null` for a draw (no line to show) and with `--no-line`.
    line: Option<Vec<String>>,
    /// Every legal move; left out with `--value-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveAnswer>>,
}

/// How much `probe` says about each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    /// The position's value only.
    Value,
    /// The value, the best move and every move's value.
    Moves,
    /// All of that and the best line.
    Line,
}

#[derive(Debug, Serialize)]
struct Rank {
    stage: u32,
    plies: u32,
}

/// One legal move: its value for the side to move in the probed position, the distance counted
/// from that position (the move included).
#[derive(Debug, Serialize)]
struct MoveAnswer {
    #[serde(rename = "move")]
    mv: String,
    wdl: String,
    dtm: Option<u32>,
    dtc: Option<u32>,
    by_rule: bool,
}

/// The distance of `v` as (DTM, DTC) in `metric`.
fn distances(v: Value, metric: Metric) -> (Option<u32>, Option<u32>) {
    match metric {
        Metric::Dtm => (v.dtm(), None),
        Metric::Dtc => (None, v.dtm()),
    }
}

/// A line of input that could not be answered.
#[derive(Debug, Serialize)]
struct Failure {
    /// The input as given (lossily decoded when it is not UTF-8).
    fen: String,
    error: String,
}

/// Answers one FEN.
fn probe_one(tb: &Tablebases, fen: &str, detail: Detail) -> Result<Answer, String> {
    let pos = Position::from_fen(fen).map_err(|e| format!("invalid position: {e}"))?;
    let value = match tb.probe(&pos) {
        Ok(Some(v)) => v,
        Ok(None) => return Err(format!("no table for {}", Signature::of(&pos).0)),
        Err(e) => return Err(e.to_string()),
    };
    let metric = tb.metric_of(&pos).unwrap_or_default();
    let (dtm, dtc) = distances(value, metric);
    let mut answer = Answer {
        fen: fen.to_owned(),
        metric: metric.name(),
        wdl: value.wdl().to_string(),
        dtm,
        dtc,
        by_rule: value.by_rule(),
        rule_rank: value.rule_rank().map(|r| Rank {
            stage: r.stage,
            plies: r.plies,
        }),
        best: None,
        line: None,
        moves: None,
    };
    if detail == Detail::Value {
        return Ok(answer);
    }
    let (move_metric, mut moves) = tb
        .move_values_with_metric(&pos)
        .map_err(|e| e.to_string())?
        .unwrap_or((metric, Vec::new()));
    moves.sort_by_key(|&(_, v)| v.best_first());
    answer.best = tb
        .best_move(&pos)
        .map_err(|e| e.to_string())?
        .map(|(m, _)| m.to_string());
    // A rule value's line runs until a position repeats (where the rule judges the cycle); a
    // line by DTC until mate, which its distance does not bound.
    let plies = match metric {
        Metric::Dtm => value.dtm().map_or(RULE_LINE, |d| d as usize),
        Metric::Dtc => DTC_LINE,
    };
    if detail == Detail::Line && value != Value::Draw {
        let line = tb.line(&pos, plies).map_err(|e| e.to_string())?;
        answer.line = Some(line.iter().map(ToString::to_string).collect());
    }
    answer.moves = Some(
        moves
            .into_iter()
            .map(|(m, v)| {
                let (dtm, dtc) = distances(v, move_metric);
                MoveAnswer {
                    mv: m.to_string(),
                    wdl: v.wdl().to_string(),
                    dtm,
                    dtc,
                    by_rule: v.by_rule(),
                }
            })
            .collect(),
    );
    Ok(answer)
}

/// The text form of an answer: the value, the best move and line, then every move (the value
/// alone for an answer without moves).
fn text(a: &Answer, value: &str) -> String {
    let Some(moves) = &a.moves else {
        return format!("{}\n  {value}", a.fen);
    };
    let mut out = format!(
        "{}\n  {value}; best {}",
        a.fen,
        a.best.as_deref().unwrap_or("-")
    );
    if let Some(line) = &a.line {
        out.push_str("; line ");
        out.push_str(&line.join(" "));
    }
    out.push_str(&format!(
        "\n  moves (value for the side to move here; {} in plies from here, the move included):",
        if a.metric == "dtc" {
            "distance to conversion"
        } else {
            "distance to mate"
        }
    ));
    for m in moves {
        let how = match (m.dtm.or(m.dtc), m.by_rule) {
            (Some(d), _) => format!("{} in {d} {}", m.wdl, if d == 1 { "ply" } else { "plies" }),
            (None, true) => format!("{} by the perpetual check/chase rules", m.wdl),
            (None, false) => m.wdl.clone(),
        };
        out.push_str(&format!("\n    {:<5} {how}", m.mv));
    }
    out
}

/// `egtb-gen probe`: answers each FEN (arguments, or lines of standard input); a line that
/// cannot be answered gets an error record and the others go on. Returns whether every line
/// was answered.
pub fn probe(
    dirs: &[PathBuf],
    fens: &[String],
    json: bool,
    detail: Detail,
    metric: Option<Metric>,
) -> anyhow::Result<bool> {
    let (mut tb, skipped) = Tablebases::open_skipping(dirs);
    for e in &skipped {
        eprintln!("egtb-gen: warning: skipped {e}");
    }
    if let Some(m) = metric {
        tb.retain_metric(m);
    }
    if tb.is_empty() {
        anyhow::bail!(
            "no usable tables in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut ok = true;
    let answer = |fen: &str, out: &mut dyn Write| -> anyhow::Result<bool> {
        match probe_one(&tb, fen, detail) {
            Ok(a) if json => writeln!(out, "{}", serde_json::to_string(&a)?)?,
            Ok(a) => {
                let value = Position::from_fen(fen)
                    .ok()
                    .and_then(|p| {
                        let v = tb.probe(&p).ok().flatten()?;
                        Some(tb.metric_of(&p)?.describe(v))
                    })
                    .unwrap_or_else(|| a.wdl.clone());
                writeln!(out, "{}", text(&a, &value))?;
            }
            Err(error) => {
                fail(out, fen, &error, json)?;
                return Ok(false);
            }
        }
        Ok(true)
    };
    if fens.is_empty() {
        let mut input = std::io::stdin().lock();
        let mut bytes = Vec::new();
        let mut number = 0usize;
        loop {
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                break;
            }
            number += 1;
            match std::str::from_utf8(&bytes) {
                Ok(line) if line.trim().is_empty() => {}
                Ok(line) => ok &= answer(line.trim(), &mut out)?,
                Err(_) => {
                    ok = false;
                    let shown = String::from_utf8_lossy(&bytes).trim().to_owned();
                    fail(
                        &mut out,
                        &shown,
                        &format!("standard input, line {number}: not UTF-8 text"),
                        json,
                    )?;
                }
            }
        }
    } else {
        for fen in fens {
            ok &= answer(fen, &mut out)?;
        }
    }
    out.flush()?;
    Ok(ok)
}

fn fail(out: &mut dyn Write, fen: &str, error: &str, json: bool) -> anyhow::Result<()> {
    if json {
        let f = Failure {
            fen: fen.to_owned(),
            error: error.to_owned(),
        };
        writeln!(out, "{}", serde_json::to_string(&f)?)?;
    } else {
        writeln!(out, "{fen}\n  error: {error}")?;
    }
    Ok(())
}

/// `egtb-gen bench-probe`: times `Tablebases::probe` on random legal positions of one table,
/// each probed twice in a row: the first probe usually decompresses its block (cold), the
/// second finds it in the cache (warm).
pub fn bench_probe(path: &Path, positions: usize) -> anyhow::Result<bool> {
    use std::time::{Duration, Instant};
    let t = TableFile::open(path).with_context(|| format!("opening {}", path.display()))?;
    let sig = t.header().signature;
    let ix = Indexer::with_scheme(sig, t.header().key_scheme)?;
    let tb = Tablebases::open(&[path])?;
    let size = ix.size();
    let mut rng = chariot_rules::random::Rng::seeded(1);
    let mut picked = Vec::new();
    while picked.len() < positions {
        let e = rng.next_u64() % (2 * size);
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

/// A progress bar showing a verification's stages: a bar for a stage with a count of
/// entries, a spinner for one without.
pub struct StageBar<'a>(pub &'a indicatif::ProgressBar);

impl egtb_gen::dtm::Progress for StageBar<'_> {
    fn stage(&self, name: &str, total: u64) {
        let template = if total > 0 {
            "{prefix} {msg:28} [{elapsed_precise}] {bar:30} {percent:>3}% eta {eta}"
        } else {
            "{prefix} {msg:28} [{elapsed_precise}] {spinner}"
        };
        // The count first: a bar drawn with the last stage's count would show it finished.
        self.0.set_length(total);
        self.0.set_position(0);
        self.0.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        self.0.set_message(name.to_owned());
    }

    fn advance(&self, done: u64) {
        self.0.inc(done);
    }
}

/// One table's verdict, as `verify --json` prints it.
#[derive(Debug, serde::Serialize)]
struct Verdict {
    file: String,
    ok: bool,
    seconds: f64,
    /// The first inconsistency: entry, position, stored and expected values.
    inconsistency: Option<String>,
    /// Why the table (or a table it depends on) could not be read.
    error: Option<String>,
}

/// The table a file name holds (`KRKN` for `KRKN.egtb` and `KRKN.dtc.egtb`) with its
/// directory: the files of one table given to `verify` are checked together.
fn table_of(path: &std::path::Path) -> Option<(std::path::PathBuf, String)> {
    let name = path.file_name()?.to_str()?;
    let stem = name
        .strip_suffix(".dtc.egtb")
        .or_else(|| name.strip_suffix(".egtb"))?;
    Some((path.parent()?.to_path_buf(), stem.to_owned()))
}

/// `egtb-gen verify`: checks each file and reports it, going on after a damaged one. The
/// files of one table (its DTM and DTC files) are checked together, in one pass over the
/// moves ([`egtb_gen::verify::verify_tables_with`]); their verdicts then give the time of both.
/// Returns whether every table verified.
///
/// # Errors
/// Only when standard output cannot be written.
pub fn verify(files: &[std::path::PathBuf], json: bool) -> anyhow::Result<bool> {
    use std::io::Write;
    let mut all_ok = true;
    let mut out = std::io::stdout().lock();
    // On standard error, and only on a terminal (indicatif hides it otherwise).
    let bar = indicatif::ProgressBar::new_spinner();
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    // Groups of the files of one table, in the order their first file was given.
    let mut groups: Vec<Vec<&std::path::PathBuf>> = Vec::new();
    for path in files {
        let table = table_of(path);
        match groups
            .iter_mut()
            .find(|g| table.is_some() && table_of(g[0]) == table)
        {
            Some(g) => g.push(path),
            None => groups.push(vec![path]),
        }
    }
    for group in groups {
        bar.reset();
        let names: Vec<String> = group.iter().map(|p| p.display().to_string()).collect();
        bar.set_prefix(names.join(" + "));
        let start = std::time::Instant::now();
        let paths: Vec<&std::path::Path> = group.iter().map(|p| p.as_path()).collect();
        let results = egtb_gen::verify::verify_tables_with(&paths, &StageBar(&bar));
        let seconds = start.elapsed().as_secs_f64();
        for (file, result) in names.into_iter().zip(results) {
            let mut verdict = Verdict {
                file,
                ok: false,
                seconds,
                inconsistency: None,
                error: None,
            };
            match result {
                Ok(None) => verdict.ok = true,
                Ok(Some((e, fen, stored, expected))) => {
                    verdict.inconsistency = Some(format!(
                        "entry {e}: {fen}: stored {stored}, expected {expected}"
                    ));
                }
                Err(e) => verdict.error = Some(chariot_cli::message(&anyhow::Error::from(e))),
            }
            all_ok &= verdict.ok;
            // The verdict's line, with the bar lifted off the terminal while it is written.
            bar.suspend(|| -> std::io::Result<()> {
                if json {
                    writeln!(out, "{}", serde_json::to_string(&verdict)?)?;
                } else if verdict.ok {
                    writeln!(out, "{}: ok ({:.1} s)", verdict.file, verdict.seconds)?;
                } else if let Some(i) = &verdict.inconsistency {
                    writeln!(out, "{}: INCONSISTENT at {i}", verdict.file)?;
                } else {
                    let error = verdict.error.as_deref().unwrap_or("unknown error");
                    writeln!(out, "{}: error: {error}", verdict.file)?;
                }
                out.flush()
            })?;
        }
    }
    bar.finish_and_clear();
    Ok(all_ok)
}

/// One file's verdict, as `crosscheck --json` prints it.
#[derive(Debug, Serialize)]
struct Crosschecked {
    file: String,
    ok: bool,
    /// The positions compared with the search.
    positions: usize,
    seconds: f64,
    /// The first disagreement: the position, the stored value and what the search found.
    mismatch: Option<String>,
    /// Why the table could not be read.
    error: Option<String>,
}

/// `egtb-gen crosscheck`: `samples` positions of each file against a mate search to `depth`
/// plies ([`egtb_gen::crosscheck::crosscheck_table`]); a file that cannot be read is reported
/// and the others are still checked. True when every file agreed.
pub fn crosscheck(
    files: &[PathBuf],
    samples: usize,
    depth: u32,
    json: bool,
) -> anyhow::Result<bool> {
    let mut out = std::io::stdout().lock();
    let (mut all_ok, mut checked) = (true, 0);
    for f in files {
        let start = std::time::Instant::now();
        let mut verdict = Crosschecked {
            file: f.display().to_string(),
            ok: false,
            positions: 0,
            seconds: 0.0,
            mismatch: None,
            error: None,
        };
        match egtb_gen::crosscheck::crosscheck_table(f, samples, depth) {
            Ok(Ok(n)) => (verdict.ok, verdict.positions) = (true, n),
            Ok(Err(msg)) => verdict.mismatch = Some(msg),
            Err(e) => verdict.error = Some(chariot_cli::message(&anyhow::Error::from(e))),
        }
        verdict.seconds = start.elapsed().as_secs_f64();
        all_ok &= verdict.ok;
        checked += verdict.positions;
        if json {
            writeln!(out, "{}", serde_json::to_string(&verdict)?)?;
        } else if let Some(m) = &verdict.mismatch {
            writeln!(out, "MISMATCH {m}")?;
        } else if let Some(e) = &verdict.error {
            writeln!(out, "{}: error: {e}", verdict.file)?;
        }
        out.flush()?;
    }
    if !json {
        writeln!(
            out,
            "{} in {} agree with a {depth}-ply mate search{}",
            chariot_cli::count(checked as u64, "position", "positions"),
            chariot_cli::count(files.len() as u64, "table", "tables"),
            if all_ok {
                ""
            } else {
                " (except the mismatches and errors above)"
            }
        )?;
    }
    Ok(all_ok)
}
