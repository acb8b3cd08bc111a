//! `book-builder read` (alias `scan`): what game files hold, per file and in total, with every
//! problem located; and the search of directories for game files that `import` and `positions`
//! share.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use chariot_cli::Exit;
use chariot_games::{FileSummary, GameRecord, GameResult, NotationGuess, read_file};
use indicatif::{ProgressBar, ProgressStyle};

/// File name endings searched for in directories.
const GAME_EXTENSIONS: [&str; 6] = ["pgn", "xqf", "ubb", "htm", "html", "zst"];

/// The files to read: explicit files as given, directories searched recursively (in name
/// order, following links; walkdir notices a link that loops back and says so).
pub fn collect_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let is_game_file = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| GAME_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
    };
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let before = files.len();
            for entry in walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name()
            {
                let entry = entry.with_context(|| format!("cannot list {}", p.display()))?;
                if entry.file_type().is_file() && is_game_file(entry.path()) {
                    files.push(entry.into_path());
                }
            }
            if files.len() == before {
                return Err(chariot_cli::usage(format!(
                    "{}: no game files in this directory (looked for .{})",
                    p.display(),
                    GAME_EXTENSIONS.join(", .")
                )));
            }
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// Counts gathered over the games of one file (or all files).
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    results: BTreeMap<Option<GameResult>, usize>,
    notations: BTreeMap<Option<NotationGuess>, usize>,
    dates_normalized: usize,
    dates_raw_only: usize,
    with_fen: usize,
}

impl Tally {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.plies += g.moves.len();
        *self.results.entry(g.result).or_default() += 1;
        *self.notations.entry(g.notation()).or_default() += 1;
        match &g.date {
            Some(d) if d.normalized.is_some() => self.dates_normalized += 1,
            Some(_) => self.dates_raw_only += 1,
            None => {}
        }
        self.with_fen += usize::from(g.fen.is_some());
    }

    fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.plies += o.plies;
        for (k, v) in &o.results {
            *self.results.entry(*k).or_default() += v;
        }
        for (k, v) in &o.notations {
            *self.notations.entry(*k).or_default() += v;
        }
        self.dates_normalized += o.dates_normalized;
        self.dates_raw_only += o.dates_raw_only;
        self.with_fen += o.with_fen;
    }

    fn lines(&self) -> Vec<String> {
        if self.games == 0 {
            return Vec::new();
        }
        let results = [
            (Some(GameResult::RedWins), "1-0"),
            (Some(GameResult::BlackWins), "0-1"),
            (Some(GameResult::Draw), "1/2-1/2"),
            (Some(GameResult::Unfinished), "*"),
            (None, "none"),
        ]
        .iter()
        .map(|(k, name)| format!("{name} {}", self.results.get(k).copied().unwrap_or(0)))
        .collect::<Vec<_>>()
        .join(", ");
        let notations = self
            .notations
            .iter()
            .map(|(k, v)| format!("{} {v}", k.map_or("no moves", NotationGuess::name)))
            .collect::<Vec<_>>()
            .join(", ");
        let mut lines = vec![
            format!("results: {results}"),
            format!(
                "notation: {notations}; {} plies, {} from a set-up position",
                self.plies, self.with_fen
            ),
        ];
        if self.dates_normalized + self.dates_raw_only > 0 {
            lines.push(format!(
                "dates: {} normalised, {} kept as written only, {} missing",
                self.dates_normalized,
                self.dates_raw_only,
                self.games - self.dates_normalized - self.dates_raw_only
            ));
        }
        lines
    }
}

pub fn read(paths: &[PathBuf], json: bool, max_problems: usize) -> anyhow::Result<Exit> {
    let files = collect_files(paths)?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let bar = if files.len() > 1 {
        ProgressBar::new(files.len() as u64)
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed}] {wide_bar} {pos}/{len} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut total = Tally::default();
    let (mut failed, mut skipped, mut warnings) = (0usize, 0usize, 0usize);
    let mut summaries_with_damage = 0usize;
    let started = Instant::now();
    for path in &files {
        let name = path.display().to_string();
        bar.set_message(name.clone());
        let mut tally = Tally::default();
        let mut write_error = None;
        let t0 = Instant::now();
        let summary = read_file(path, &mut |game| {
            tally.add(&game);
            if json
                && write_error.is_none()
                && let Err(e) = writeln!(out, "{}", crate::json::game(&name, &game))
            {
                write_error = Some(e);
            }
        });
        if let Some(e) = write_error {
            return Err(e.into());
        }
        let elapsed = t0.elapsed();
        failed += usize::from(summary.failed());
        skipped += summary.skipped();
        summaries_with_damage += usize::from(
            summary
                .problems
                .iter()
                .any(|p| p.severity == chariot_games::Severity::Error && p.game.is_none()),
        );
        warnings += summary.warnings();
        let report = report(&name, &summary, &tally, elapsed.as_secs_f64(), max_problems);
        bar.suspend(|| -> io::Result<()> {
            if json {
                eprint!("{report}");
                Ok(())
            } else {
                out.write_all(report.as_bytes())
            }
        })?;
        total.merge(&tally);
        bar.inc(1);
    }
    bar.finish_and_clear();
    if files.len() > 1 {
        let mut report = format!(
            "total: {} ({failed} unreadable), {}, {skipped} skipped, {warnings} warnings [{:.2} s]\n",
            chariot_cli::count(files.len() as u64, "file", "files"),
            chariot_cli::count(total.games as u64, "game", "games"),
            started.elapsed().as_secs_f64()
        );
        for line in total.lines() {
            report.push_str(&format!("  {line}\n"));
        }
        if json {
            eprint!("{report}");
        } else {
            out.write_all(report.as_bytes())?;
        }
    }
    out.flush()?;
    // Nothing readable at all fails; some files or games left out make the run partial.
    Ok(if failed == files.len() {
        Exit::Failure
    } else if failed > 0 || skipped > 0 || summaries_with_damage > 0 {
        Exit::Partial
    } else {
        Exit::Success
    })
}

/// The report for one file.
fn report(name: &str, s: &FileSummary, tally: &Tally, seconds: f64, max_problems: usize) -> String {
    let mut kind = Vec::new();
    if s.zstd {
        kind.push("zstd".to_owned());
    }
    kind.push(s.format.map_or("unrecognised", |f| f.name()).to_owned());
    if let Some(e) = s.encoding {
        kind.push(e.name().to_owned());
    }
    let mut r = format!(
        "{name}: {} ({}): {}, {} skipped, {} warnings [{seconds:.2} s]\n",
        kind.join(", "),
        chariot_cli::count(s.bytes as u64, "byte", "bytes"),
        chariot_cli::count(s.games as u64, "game", "games"),
        s.skipped(),
        s.warnings()
    );
    for line in tally.lines() {
        r.push_str(&format!("  {line}\n"));
    }
    let problems: Vec<String> = s.problems.iter().map(|p| p.located(name)).collect();
    list_some(
        &mut r,
        &problems,
        max_problems,
        "problems (see --max-problems)",
    );
    r
}

/// Appends up to `max` of `lines`, indented, and how many more there are (`... and 7 more
/// problems`).
pub fn list_some(out: &mut String, lines: &[String], max: usize, more: &str) {
    for line in lines.iter().take(max) {
        out.push_str(&format!("  {line}\n"));
    }
    if lines.len() > max {
        out.push_str(&format!("  ... and {} more {more}\n", lines.len() - max));
    }
}
