//! `book-builder compile`, `build-default`, `probe`, `tree`, `stats` and `bench`: books built
//! from the game database and looked into.

use chariot_cli::Exit;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use super::{FilterArgs, PositionArgs, open_book, spinner};
use anyhow::bail;
use book_builder::compile::{CompileOptions, compile};
use book_builder::inspect::{TreeOptions, probe_json, probe_text, stats, tree};
use chariot_formats::book::Book;
use chariot_formats::opening;
use chariot_gamedb::db::GameDb;
use chariot_rules::display::DiagramStyle;

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

/// `book-builder probe [--book FILE] [--fen FEN | --moves ...] [--json]`.
pub fn probe(
    book: Option<&Path>,
    at: &PositionArgs,
    db: Option<&Path>,
    json: bool,
) -> anyhow::Result<Exit> {
    let (pos, line) = at.line()?;
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
    // The line's own opening, as Chariot names it everywhere (the ECCO table derived from the
    // masters' games, `data/openings.ecco`, and the composed name); the games' tags follow. Not
    // in JSON, whose lines are the moves (and with --db the games' openings last).
    let line = line.map(|moves| {
        opening::identify(
            opening::builtin::table(),
            &chariot_rules::Position::start(),
            &moves,
        )
    });
    if let Some(o) = line.filter(|o| !json && !o.is_unknown()) {
        let words: Vec<String> = [
            o.ecco.map(|c| c.to_string()),
            o.name.as_ref().map(opening::OpeningName::zh),
            o.name.as_ref().map(|n| format!("({})", n.en())),
        ]
        .into_iter()
        .flatten()
        .collect();
        text.push_str(&format!("\nthis line's opening: {}\n", words.join(" ")));
    }
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
        print!(
            "{}",
            super::database::file_report(&path.display().to_string(), r, 5)
        );
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
