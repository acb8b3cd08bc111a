//! The book subcommands of the `book-builder` binary: import, summary, compile, probe, tree,
//! stats, import-dat, export-dat, build-default, bench, positions. Each parses its arguments with clap
//! (in `cli.rs`) and calls the library; this file only turns results into text.

use chariot_cli::Exit;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use book_builder::compile::{CompileOptions, compile};
use book_builder::import::{FileImport, ImportTotals, import_file};
use book_builder::inspect::{TreeOptions, probe_json, probe_text, stats, tree};
use book_builder::positions::{ExtractOptions, Extractor};
use chariot_formats::book::{Book, BookWriter, BuildInfo, eleeye};
use chariot_formats::positions::FileWriter;
use chariot_gamedb::db::GameDb;
use chariot_gamedb::filter::{DateBound, Filter, ResultFilter};
use chariot_games::game::{RejectKind, check};
use chariot_games::read_file;
use chariot_rules::Position;
use chariot_rules::display::DiagramStyle;
use chariot_rules::notation::parse_move;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

/// Which games a book is built from (shared by `compile` and `summary`).
#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// Only games on or after this date (YYYY, YYYY-MM or YYYY-MM-DD; undated games are left out).
    #[arg(long, value_name = "DATE")]
    pub from: Option<DateBound>,
    /// Only games on or before this date (`2005` includes all of 2005).
    #[arg(long, value_name = "DATE")]
    pub to: Option<DateBound>,
    /// Only games in which both players are rated at least this.
    #[arg(long, value_name = "ELO")]
    pub min_elo: Option<u32>,
    /// Only games whose event name contains TEXT (repeatable: any of them).
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// Only games with a player whose name contains TEXT (repeatable: any of them).
    #[arg(long, value_name = "TEXT")]
    pub player: Vec<String>,
    /// With --player: only games where that player has this colour (red or black).
    #[arg(long, value_name = "COLOR", value_parser = parse_color, requires = "player")]
    pub player_color: Option<chariot_rules::Color>,
    /// Only games with these results: 1-0, 0-1, 1/2-1/2 (or red, black, draw), unknown.
    #[arg(long, value_name = "RESULT", value_delimiter = ',')]
    pub result: Vec<ResultFilter>,
    /// Also count games from set-up positions (by default only games from the usual start).
    #[arg(long)]
    pub setups: bool,
}

impl FilterArgs {
    fn filter(&self) -> anyhow::Result<Filter> {
        let f = Filter {
            from: self.from.clone(),
            to: self.to.clone(),
            min_elo: self.min_elo,
            events: self.event.clone(),
            players: self.player.clone(),
            player_color: self.player_color,
            results: self.result.clone(),
            setups: self.setups,
        };
        f.validate()?;
        Ok(f)
    }
}

/// `red` or `black`.
fn parse_color(text: &str) -> Result<chariot_rules::Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "red" | "r" | "w" => Ok(chariot_rules::Color::Red),
        "black" | "b" => Ok(chariot_rules::Color::Black),
        _ => Err(format!("{text:?}: expected red or black")),
    }
}

/// A position given as a FEN or as moves from the start.
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// The position as a FEN.
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// The position after these moves from the start (ICCS, WXF or Chinese).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    fn position(&self) -> anyhow::Result<Position> {
        let mut pos = match &self.fen {
            Some(fen) => Position::from_fen(fen).with_context(|| format!("FEN {fen:?}"))?,
            None => Position::start(),
        };
        for (i, text) in self.moves.iter().enumerate() {
            let m = parse_move(&pos, text).with_context(|| format!("move {}", i + 1))?;
            pos.make_move(m);
        }
        Ok(pos)
    }
}

fn spinner(template: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

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

fn file_report(name: &str, r: &FileImport, max_problems: usize) -> String {
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

/// Options of `book-builder compile`.
pub struct CompileArgs<'a> {
    /// The database.
    pub db: &'a Path,
    /// The book to write.
    pub out: &'a Path,
    /// Ply limit.
    pub max_ply: u32,
    /// Minimum games per move.
    pub min_games: u32,
    /// Minimum score per move.
    pub min_score: f64,
    /// No mirror merging.
    pub no_mirror: bool,
    /// The filters.
    pub filters: &'a FilterArgs,
}

/// `book-builder compile --db DB -o BOOK`.
pub fn compile_book(a: &CompileArgs<'_>) -> anyhow::Result<Exit> {
    if !(0.0..=1.0).contains(&a.min_score) {
        bail!("--min-score {}: expected a score from 0 to 1", a.min_score);
    }
    let filter = a.filters.filter()?;
    let gdb = GameDb::open(a.db)?;
    let started = Instant::now();
    let bar = spinner("{spinner} [{elapsed}] compiling");
    let opts = CompileOptions {
        max_ply: a.max_ply,
        min_games: a.min_games,
        min_score: a.min_score,
        mirror: !a.no_mirror,
        filter,
        metadata: vec![format!(
            "database: {}",
            a.db.file_name().map_or_else(
                || a.db.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            )
        )],
    };
    let report = compile(&gdb, &opts, a.out);
    bar.finish_and_clear();
    let report = report?;
    let size = fs::metadata(a.out).map_or(0, |m| m.len());
    println!(
        "{}: {} entries, {} positions, {size} bytes from {} games ({} position-move pairs counted, \
         max ply {}, min games {}, min score {}, {}) [{:.2} s]",
        a.out.display(),
        report.entries,
        report.positions,
        report.games,
        report.counted,
        a.max_ply,
        a.min_games,
        a.min_score,
        if a.no_mirror {
            "mirrors apart"
        } else {
            "mirrors merged"
        },
        started.elapsed().as_secs_f64()
    );
    if report.games == 0 {
        eprintln!("warning: the filters selected no games; the book is empty");
    }
    if report.broken > 0 {
        eprintln!(
            "warning: {} games did not replay (a damaged database?) and were counted up to the bad move",
            report.broken
        );
    }
    Ok(Exit::Success)
}

/// The book to read: the given file, or the engine's built-in book.
fn open_book(book: Option<&Path>) -> anyhow::Result<Book> {
    Ok(match book {
        Some(path) => Book::open(path)?,
        None => chariot_formats::book::builtin::book()?,
    })
}

/// `book-builder probe [--book FILE] [--fen FEN | --moves ...] [--json]`.
pub fn probe(
    book: Option<&Path>,
    at: &PositionArgs,
    db: Option<&Path>,
    json: bool,
) -> anyhow::Result<Exit> {
    let pos = at.position()?;
    let book = open_book(book)?;
    let openings = match db {
        Some(db) => Some(GameDb::open(db)?.openings_at(&pos, OPENING_PLIES)?),
        None => None,
    };
    let mut text = if json {
        probe_json(&book, &pos)
    } else {
        probe_text(
            &book,
            &pos,
            DiagramStyle {
                ansi: io::stdout().is_terminal(),
                // The table beside the board writes simplified Chinese.
                simplified: true,
            },
        )
    };
    if let (Some(o), Some(db)) = (&openings, db) {
        if json {
            #[derive(serde::Serialize)]
            struct Line<'a> {
                openings: &'a chariot_gamedb::db::OpeningCounts,
            }
            text.push_str(&serde_json::to_string(&Line { openings: o })?);
            text.push('\n');
        } else {
            text.push_str(&openings_text(o, db));
        }
    }
    io::stdout().lock().write_all(text.as_bytes())?;
    Ok(Exit::Success)
}

/// Plies of each game searched for the probed position by `probe --db`.
const OPENING_PLIES: usize = 60;

/// The openings part of `probe --db`: the five most common names, then what is left.
fn openings_text(o: &chariot_gamedb::db::OpeningCounts, db: &Path) -> String {
    use std::fmt::Write as _;
    let games = |n: u64| chariot_cli::count(n, "game", "games");
    let mut s = format!(
        "\nopening: {} of {} reach this position",
        games(o.games),
        db.display()
    );
    if o.games == 0 {
        s.push('\n');
        return s;
    }
    s.push_str(":\n");
    for c in o.openings.iter().take(5) {
        let label = match (&c.ecco, &c.name) {
            (Some(e), Some(n)) => format!("{e} {n}"),
            (Some(e), None) => e.clone(),
            (None, Some(n)) => n.clone(),
            (None, None) => String::new(),
        };
        let _ = writeln!(s, "  {label}: {}", games(c.games));
    }
    let rest: u64 = o.openings.iter().skip(5).map(|c| c.games).sum();
    if rest > 0 {
        let _ = writeln!(s, "  and {} more under other names", games(rest));
    }
    if o.untagged > 0 {
        let _ = writeln!(s, "  {} without ECCO or opening tags", games(o.untagged));
    }
    s
}

/// `book-builder tree [--book FILE] [--json]`.
pub fn show_tree(
    book: Option<&Path>,
    at: &PositionArgs,
    opts: TreeOptions,
    json: bool,
) -> anyhow::Result<Exit> {
    if !(0.0..=1.0).contains(&opts.min_share) {
        return Err(chariot_cli::usage(format!(
            "--min-share {}: expected a share from 0 to 1",
            opts.min_share
        )));
    }
    let pos = at.position()?;
    let book = open_book(book)?;
    let mut out = io::stdout().lock();
    if json {
        let nodes = book_builder::inspect::tree_json(&book, &pos, opts);
        writeln!(out, "{}", serde_json::to_string_pretty(&nodes)?)?;
    } else {
        out.write_all(tree(&book, &pos, opts).as_bytes())?;
    }
    Ok(Exit::Success)
}

/// `book-builder stats [--book FILE] [--json]`: exits 1 when the book is damaged.
pub fn show_stats(book: Option<&Path>, json: bool) -> anyhow::Result<Exit> {
    // A damaged book is opened anyway: stats says what is wrong with it (and exits 1).
    let book = match book {
        Some(path) => Book::open_unverified(path)?,
        None => chariot_formats::book::builtin::book()?,
    };
    let report = book_builder::inspect::book_stats(&book);
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        out.write_all(stats(&book).as_bytes())?;
    }
    Ok(Exit::from_ok(report.verified, Exit::Failure))
}

/// `book-builder import-dat BOOK.DAT -o BOOK`.
pub fn import_dat(
    dat: &Path,
    out: &Path,
    max_ply: u32,
    bridge: u32,
    no_mirror: bool,
) -> anyhow::Result<Exit> {
    let bytes = fs::read(dat).with_context(|| format!("cannot read {}", dat.display()))?;
    let records = eleeye::read(&bytes).with_context(|| dat.display().to_string())?;
    let started = Instant::now();
    let (entries, found) = eleeye::import(&records, max_ply, !no_mirror, bridge);
    let name = dat.file_name().map_or_else(
        || dat.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let info = BuildInfo {
        mirror: !no_mirror,
        max_ply,
        min_games: 0,
        min_score_permille: 0,
        games: 0,
        metadata: format!(
            "tool: book-builder {}\nsource: {name} (ElephantEye BOOK.DAT, {} records; weights only, no statistics)\nbridge: {bridge}",
            env!("CARGO_PKG_VERSION"),
            records.len()
        ),
    };
    let n = entries.len();
    let mut w = BookWriter::new(info);
    for e in entries {
        w.push(e);
    }
    w.write(out)?;
    println!(
        "{}: {n} entries from {found} positions of {} ({} records) [{:.2} s]",
        out.display(),
        dat.display(),
        records.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(Exit::Success)
}

/// `book-builder export-dat --book BOOK -o BOOK.DAT`.
pub fn export_dat(book: &Path, out: &Path, max_ply: u32) -> anyhow::Result<Exit> {
    let b = Book::open(book)?;
    let records = eleeye::export(&b, max_ply);
    write_atomically(out, &eleeye::to_bytes(&records))?;
    println!(
        "{}: {} records from {}",
        out.display(),
        records.len(),
        book.display()
    );
    Ok(Exit::Success)
}

/// Writes `bytes` to `path` through a temporary file renamed into place
/// ([`chariot_formats::atomic`]); errors name `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    chariot_formats::atomic::write(path, bytes)?;
    Ok(())
}

/// `book-builder build-default [--data DIR] [--db DB]`.
pub fn build_default(data: &Path, db: Option<&Path>) -> anyhow::Result<Exit> {
    let started = Instant::now();
    let bar = spinner("{spinner} [{elapsed}] {msg}");
    let built = book_builder::defaults::build(data, db, &mut |file, n| {
        bar.set_message(format!("{file}: {n} games"));
    });
    bar.finish_and_clear();
    let built = built?;
    for (path, r) in &built.imports {
        print!("{}", file_report(&path.display().to_string(), r, 5));
    }
    let size = fs::metadata(&built.book).map_or(0, |m| m.len());
    println!(
        "{}: {} entries, {} positions, {size} bytes from {} games [{:.2} s]",
        built.book.display(),
        built.compile.entries,
        built.compile.positions,
        built.compile.games,
        started.elapsed().as_secs_f64()
    );
    Ok(Exit::Success)
}

/// Where `book-builder positions` takes its games from.
pub enum GameSource {
    /// Game files, read and checked one game at a time.
    Files(Vec<PathBuf>),
    /// A game database.
    Db(PathBuf),
}

/// `book-builder positions (FILES... | --db DB) -o FILE [--held-out FILE]`.
pub fn positions(
    source: &GameSource,
    filters: &FilterArgs,
    output: &Path,
    held_out: Option<&Path>,
    options: ExtractOptions,
) -> anyhow::Result<Exit> {
    let filter = filters.filter()?;
    let started = Instant::now();
    let sources = match source {
        GameSource::Files(files) => {
            let only_setups = Filter {
                setups: filter.setups,
                ..Filter::default()
            };
            if filter != only_setups {
                bail!("the game filters (other than --setups) apply to --db only");
            }
            files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
        GameSource::Db(db) => {
            let mut s = format!("database {}", db.display());
            for line in filter.describe() {
                s.push_str(&format!(", {line}"));
            }
            s
        }
    };
    let mut comments = vec![
        format!("chariot positions: FEN;result (Red's view) from {sources}"),
        format!(
            "skip-plies {}, per-game {}, seed {}, quiet: not in check, no capture beats the static evaluation",
            options.skip_plies, options.per_game, options.seed
        ),
    ];
    if held_out.is_some() {
        comments.push(format!(
            "held-out games (one in {}) in a separate file",
            options.held_out_every
        ));
    }
    let mut writer = FileWriter::create(output, &comments)?;
    let mut held_writer = match held_out {
        Some(path) => {
            let mut c = comments.clone();
            c.push("this file: the held-out games".into());
            Some(FileWriter::create(path, &c)?)
        }
        None => None,
    };
    let mut extractor = Extractor::new(options);
    let bar = spinner("{spinner} [{elapsed}] {msg}");
    let mut rejected = 0usize;
    let mut failure = None;
    let mut take =
        |extractor: &mut Extractor, start: Option<&str>, moves: &[chariot_rules::Move], result| {
            let chosen = extractor.game(start, moves, result);
            let target = match &mut held_writer {
                Some(w) if chosen.held_out => w,
                _ => &mut writer,
            };
            for (pos, outcome) in chosen.positions {
                if let Err(e) = target.write(&pos, outcome) {
                    failure.get_or_insert(e);
                }
            }
            let s = extractor.stats();
            if s.games % 256 == 0 {
                bar.set_message(format!(
                    "{} games, {} positions",
                    s.games,
                    s.taken.iter().sum::<usize>()
                ));
            }
        };
    match source {
        GameSource::Files(files) => {
            for path in files {
                let summary = read_file(path, &mut |record| match check(&record) {
                    Ok(g) if g.start.is_none() || filter.setups => {
                        take(&mut extractor, g.start.as_deref(), &g.moves, g.result);
                    }
                    Ok(_) => {}
                    Err(_) => rejected += 1,
                });
                if summary.failed() {
                    bail!("{}: cannot be read as a game file", path.display());
                }
            }
        }
        GameSource::Db(db) => {
            let gdb = GameDb::open(db)?;
            for g in gdb.games(&filter, u32::MAX)? {
                take(&mut extractor, g.start.as_deref(), &g.moves, g.result);
            }
        }
    }
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e.into());
    }
    let written = writer.finish()?;
    let s = extractor.stats();
    println!(
        "{}: {written} positions from {} games [{:.2} s]",
        output.display(),
        s.used - s.held_out_games,
        started.elapsed().as_secs_f64()
    );
    if let (Some(w), Some(path)) = (held_writer, held_out) {
        let n = w.finish()?;
        println!(
            "{}: {n} positions from {} held-out games",
            path.display(),
            s.held_out_games
        );
    }
    println!(
        "results of the positions: Red won {}, draw {}, Black won {}",
        s.taken[2], s.taken[1], s.taken[0]
    );
    println!(
        "games: {} read, {} without a result, {} duplicates, {} with an illegal move or start{}",
        s.games,
        s.no_result,
        s.duplicates,
        s.invalid,
        if rejected > 0 {
            format!(", {rejected} more rejected while reading")
        } else {
            String::new()
        }
    );
    println!(
        "positions examined: {}, in check {}, not quiet {}, repeated {}",
        s.examined, s.in_check, s.not_quiet, s.repeated
    );
    Ok(Exit::Success)
}

/// `book-builder bench --book FILE`.
pub fn bench(book: &Path, positions: usize, rounds: usize) -> anyhow::Result<Exit> {
    let b = Book::open(book)?;
    let r = book_builder::bench::bench(&b, positions, rounds);
    println!(
        "{}: {} positions ({} with book moves) x {} rounds",
        book.display(),
        r.positions,
        r.hits,
        r.rounds
    );
    println!(
        "probe (key lookup, all moves, legality checked): {:.0} ns",
        r.probe_ns
    );
    println!(
        "legal_move_list on the same positions:            {:.0} ns",
        r.movegen_ns
    );
    println!(
        "ratio probe / legal_move_list: {:.2}",
        r.probe_ns / r.movegen_ns
    );
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
