//! `book-builder import`, `summary` and `export`: game files into the game database, what it
//! holds, and its games out as PGN.

use chariot_cli::Exit;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{FilterArgs, spinner};
use anyhow::Context;
use book_builder::import::{FileImport, ImportTotals, import_file};
use chariot_gamedb::db::GameDb;
use chariot_gamedb::filter::Filter;
use chariot_games::checked::RejectKind;
use indicatif::{ProgressBar, ProgressStyle};

/// `book-builder import FILES... --db DB`.
pub fn import(
    files: &[PathBuf],
    db: &Path,
    batch: usize,
    max_problems: usize,
) -> anyhow::Result<Exit> {
    let mut gdb = GameDb::create_or_open(db)?;
    let started = Instant::now();
    let mut totals = ImportTotals::default();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let bar = spinner("{spinner} [{elapsed}] {msg}: {pos} games read ({per_sec})");
    for path in files {
        let name = path.display().to_string();
        bar.set_message(name.clone());
        bar.set_position(0);
        let report = import_file(&mut gdb, path, &name, batch, &mut |n| {
            bar.set_position(n as u64);
        })?;
        totals.add(&report);
        let text = file_report(&name, &report, max_problems);
        bar.suspend(|| out.write_all(text.as_bytes()))?;
    }
    bar.finish_and_clear();
    let (players, events) = gdb.name_counts()?;
    let all = gdb.summary(&Filter {
        setups: true,
        ..Filter::default()
    })?;
    let mut s = format!(
        "total: {}{}, {} read: {} imported, {} duplicates ({} with a conflicting result), \
         {} rejected [{:.2} s]\n",
        chariot_cli::count(totals.files as u64, "file", "files"),
        if totals.unreadable_files > 0 {
            format!(" ({} unreadable)", totals.unreadable_files)
        } else {
            String::new()
        },
        chariot_cli::count(totals.read as u64, "game", "games"),
        totals.imported,
        totals.duplicates,
        totals.conflicts,
        totals.rejected_total(),
        started.elapsed().as_secs_f64()
    );
    if totals.rejected_total() > 0 {
        let by: Vec<String> = RejectKind::ALL
            .iter()
            .filter_map(|k| totals.rejected.get(k).map(|n| format!("{k} {n}")))
            .collect();
        s.push_str(&format!("  rejected: {}\n", by.join(", ")));
    }
    s.push_str(&format!(
        "  {}: {}, {}, {}\n",
        db.display(),
        chariot_cli::count(all.games, "game", "games"),
        chariot_cli::count(players, "player", "players"),
        chariot_cli::count(events, "event", "events")
    ));
    out.write_all(s.as_bytes())?;
    out.flush()?;
    // Unreadable files or rejected games: the rest is imported, and the run is partial.
    Ok(
        if totals.unreadable_files > 0 || totals.rejected_total() > 0 {
            Exit::Partial
        } else {
            Exit::Success
        },
    )
}

pub(super) fn file_report(name: &str, r: &FileImport, max_problems: usize) -> String {
    if let Some(reason) = r.failure() {
        return format!("{name}: cannot be read: {reason}\n");
    }
    let mut s = format!(
        "{name}: {} read: {} imported, {} duplicates, {} rejected [{:.2} s]\n",
        chariot_cli::count(r.read as u64, "game", "games"),
        r.outcome.imported,
        r.outcome.duplicates,
        r.rejections.len(),
        r.seconds
    );
    let rejected: Vec<String> = r.rejections.iter().map(|j| j.located(name)).collect();
    crate::scan::list_some(
        &mut s,
        &rejected,
        max_problems,
        "rejected games (see --max-problems, or the rejections table)",
    );
    s
}

/// One imported file in `summary`: its latest run and how often it was imported.
#[derive(serde::Serialize)]
struct ImportedFile {
    #[serde(flatten)]
    last: chariot_gamedb::db::ImportRow,
    runs: usize,
}

/// `summary --json`.
#[derive(serde::Serialize)]
struct SummaryJson {
    database: String,
    selection: chariot_gamedb::db::Summary,
    filters: Vec<String>,
    players: u64,
    events: u64,
    games_in_database: u64,
    rejected_games: u64,
    import_runs: usize,
    files: Vec<ImportedFile>,
}

/// `book-builder summary --db FILE`: the selected games' counts, then the files imported (each
/// once, with its latest run: importing a file again adds a run to the log but no game), and
/// the totals, which agree: every game in the database was new in exactly one run.
pub fn summary(db: &Path, filters: &FilterArgs, json: bool) -> anyhow::Result<Exit> {
    let filter = filters.filter()?;
    let gdb = GameDb::open(db)?;
    let s = gdb.summary(&filter)?;
    let all = gdb.summary(&Filter {
        setups: true,
        ..Filter::default()
    })?;
    let (players, events) = gdb.name_counts()?;
    let runs = gdb.imports()?;
    let mut files: Vec<ImportedFile> = Vec::new();
    for run in &runs {
        match files
            .iter_mut()
            .find(|f| f.last.path == run.path && f.last.bytes == run.bytes)
        {
            Some(f) => {
                f.last = run.clone();
                f.runs += 1;
            }
            None => files.push(ImportedFile {
                last: run.clone(),
                runs: 1,
            }),
        }
    }
    let report = SummaryJson {
        database: db.display().to_string(),
        filters: filter.describe(),
        players,
        events,
        games_in_database: all.games,
        rejected_games: gdb.rejection_count()?,
        import_runs: runs.len(),
        files,
        selection: s,
    };
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(Exit::Success);
    }
    let s = &report.selection;
    let mut text = format!(
        "{}: {} selected ({}, {} in the database)\n",
        report.database,
        chariot_cli::count(s.games, "game", "games"),
        chariot_cli::count(players, "player", "players"),
        chariot_cli::count(events, "event", "events")
    );
    text.push_str(&format!(
        "  results: 1-0 {}, 1/2-1/2 {}, 0-1 {}, unknown {} ({} disagreed between copies)\n",
        s.red_wins, s.draws, s.black_wins, s.unknown, s.conflicts
    ));
    text.push_str(&format!(
        "  {}, {} from set-up positions, dates {} to {}\n",
        chariot_cli::count(s.plies, "ply", "plies"),
        s.setups,
        s.first_date.as_deref().unwrap_or("-"),
        s.last_date.as_deref().unwrap_or("-")
    ));
    for line in &report.filters {
        text.push_str(&format!("  {line}\n"));
    }
    if s.games != report.games_in_database {
        text.push_str(&format!(
            "  ({} of the database left out by the filters{})\n",
            chariot_cli::count(report.games_in_database - s.games, "game", "games"),
            if filter.setups {
                ""
            } else {
                "; games from set-up positions are left out unless --setups is given"
            }
        ));
    }
    if !report.files.is_empty() {
        text.push_str(&format!(
            "  {} imported in {} (latest run of each; \"new\" counts games first stored by that run):\n",
            chariot_cli::count(report.files.len() as u64, "file", "files"),
            chariot_cli::count(report.import_runs as u64, "run", "runs")
        ));
        for f in &report.files {
            let i = &f.last;
            text.push_str(&format!(
                "    {} {} ({}): {} read, {} new, {} already stored, {} rejected{}{}\n",
                i.started,
                i.path,
                chariot_cli::count(i.bytes, "byte", "bytes"),
                i.games_read,
                i.imported,
                i.duplicates,
                i.rejected,
                if f.runs > 1 {
                    format!("; imported {} times", f.runs)
                } else {
                    String::new()
                },
                if i.finished.is_none() {
                    " (interrupted)"
                } else {
                    ""
                }
            ));
        }
        text.push_str(&format!(
            "  database: {}, {} (each once, however often its file was imported)\n",
            chariot_cli::count(report.games_in_database, "game", "games"),
            chariot_cli::count(report.rejected_games, "rejected game", "rejected games")
        ));
    }
    out.write_all(text.as_bytes())?;
    Ok(Exit::Success)
}

/// What `export` is asked for.
pub struct ExportArgs<'a> {
    /// The database.
    pub db: &'a Path,
    /// The PGN file to write; standard output when `None`.
    pub output: Option<&'a Path>,
    /// The movetext notation.
    pub notation: chariot_rules::notation::Notation,
    /// UTF-8 or GBK.
    pub charset: chariot_games::write::Charset,
    /// Which games.
    pub filters: &'a FilterArgs,
}

/// `book-builder export DB [-o FILE] [--notation N] [--encoding E] [filters]`.
pub fn export(args: &ExportArgs<'_>) -> anyhow::Result<Exit> {
    use chariot_games::write::encode;
    let filter = args.filters.filter()?;
    let gdb = GameDb::open(args.db)?;
    let total = gdb.summary(&filter)?.games;
    let bar = match args.output {
        Some(_) if io::stderr().is_terminal() => {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} games [{elapsed}] eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    };
    let mut file = match args.output {
        Some(path) => Some(io::BufWriter::new(
            chariot_formats::atomic::AtomicFile::create(path)?,
        )),
        None => None,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut written, mut unwritable) = (0u64, Vec::new());
    let mut failure: Option<io::Error> = None;
    gdb.for_each_game(&filter, &mut |g| {
        bar.inc(1);
        let text = g.pgn(args.notation);
        match encode(&text, args.charset) {
            Ok(bytes) => {
                let w = match file.as_mut() {
                    Some(f) => f.write_all(&bytes),
                    None => out.write_all(&bytes),
                };
                if let Err(e) = w {
                    failure = Some(e);
                    return false;
                }
                written += 1;
            }
            Err(e) => unwritable.push(format!("game {} ({}): {e}", g.id, describe(&g))),
        }
        true
    })?;
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(anyhow::Error::from(e).context("cannot write the PGN"));
    }
    out.flush().context("cannot write the PGN")?;
    if let Some(f) = file {
        // Only a complete export replaces the file.
        f.into_inner()
            .map_err(|e| anyhow::Error::from(e.into_error()).context("cannot write the PGN"))?
            .commit()?;
    }
    let games = |n: u64| chariot_cli::count(n, "game", "games");
    eprintln!(
        "{} exported{}",
        games(written),
        args.output
            .map(|p| format!(" to {}", p.display()))
            .unwrap_or_default()
    );
    if unwritable.is_empty() {
        return Ok(Exit::Success);
    }
    eprintln!(
        "{} left out: a character has no GBK code (export with --encoding utf-8 to keep them):",
        games(unwritable.len() as u64)
    );
    for line in unwritable.iter().take(10) {
        eprintln!("  {line}");
    }
    if unwritable.len() > 10 {
        eprintln!("  ... and {} more", unwritable.len() - 10);
    }
    Ok(Exit::Partial)
}

/// `Red vs Black, Event` for messages.
fn describe(g: &chariot_gamedb::db::FullGame) -> String {
    format!(
        "{} vs {}{}",
        g.red.as_deref().unwrap_or("?"),
        g.black.as_deref().unwrap_or("?"),
        g.event
            .as_deref()
            .map(|e| format!(", {e}"))
            .unwrap_or_default()
    )
}
