//! `book-builder ecco`: the ECCO codes of lines derived from games that carry them, into an
//! ECCO file (`data/openings.ecco` by default), with `--check` the measures of
//! `docs/openings.md`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use book_builder::ecco::{
    DeriveOptions, Keying, SOURCE, TaggedLine, check_names, cross_validate, default_lines, derive,
    metadata, tagged_lines,
};
use chariot_cli::Exit;
use chariot_gamedb::db::GameDb;

use super::spinner;

/// Options of `book-builder ecco`.
pub struct EccoArgs<'a> {
    /// The database, else the master collection in `data`.
    pub db: Option<&'a Path>,
    /// The data directory.
    pub data: &'a Path,
    /// The file to write, else `data/openings.ecco`.
    pub output: Option<&'a Path>,
    /// How codes are derived.
    pub options: DeriveOptions,
    /// Folds of the held-out measure and the namer's check, when asked.
    pub check: Option<u32>,
}

/// `book-builder ecco [--db DB] [-o FILE] [--check N]`.
pub fn ecco(a: &EccoArgs<'_>) -> anyhow::Result<Exit> {
    if a.options.max_plies == 0 || a.options.min_games == 0 {
        return Err(chariot_cli::usage(
            "--max-plies and --min-games: expected at least 1",
        ));
    }
    let started = Instant::now();
    let bar = spinner("{spinner} [{elapsed}] {msg}");
    let (lines, untagged, source) = match a.db {
        Some(db) => {
            bar.set_message("reading the games");
            let (lines, untagged) = tagged_lines(&GameDb::open(db)?)?;
            let name = db
                .file_name()
                .map_or_else(|| db.display().to_string(), |n| n.to_string_lossy().into());
            (lines, untagged, format!("database {name}"))
        }
        None => {
            let read = default_lines(a.data, &mut |n| {
                bar.set_message(format!("{}: {n} games", SOURCE.file));
            });
            let (lines, untagged, _) = read?;
            (
                lines,
                untagged,
                format!("{} ({})", SOURCE.file, SOURCE.attribution),
            )
        }
    };
    bar.finish_and_clear();
    let out: PathBuf = a
        .output
        .map_or_else(|| a.data.join("openings.ecco"), Path::to_owned);
    let table = derive(&lines, a.options, metadata(&source, a.options));
    table.write(&out)?;
    let size = std::fs::metadata(&out).map_or(0, |m| m.len());
    println!(
        "{}: {} lines, {size} bytes from {} games with a code ({} without; max plies {}, min \
         games {}) [{:.2} s]",
        out.display(),
        table.entries().len(),
        lines.len(),
        untagged,
        a.options.max_plies,
        a.options.min_games,
        started.elapsed().as_secs_f64()
    );
    if lines.is_empty() {
        eprintln!("warning: no game carries an ECCO tag; the file classifies nothing");
    }
    if let Some(folds) = a.check {
        print!("{}", report(&lines, a.options, folds));
    }
    Ok(Exit::Success)
}

/// Percent of `n` in `total`, one decimal.
fn percent(n: u64, total: u64) -> String {
    if total == 0 {
        return "-".into();
    }
    format!("{:.1}%", 100.0 * n as f64 / total as f64)
}

/// The measures: the held-out agreement of the derived codes with the games' own, and the
/// namer's agreement with the codes' families.
fn report(lines: &[TaggedLine], options: DeriveOptions, folds: u32) -> String {
    use std::fmt::Write as _;
    let folds = folds.max(2);
    let mut s = String::new();
    for (keying, what) in [
        (Keying::Lines, "lines"),
        (Keying::Positions, "positions instead (not stored)"),
    ] {
        let a = cross_validate(lines, options, folds, keying);
        let _ = writeln!(
            s,
            "held out ({folds} folds), by {what}: {} of {} games given their own code ({}), {} \
             their code's family ({}), {} no code",
            a.exact,
            a.games,
            percent(a.exact, a.games),
            a.family,
            percent(a.family, a.games),
            a.none
        );
    }
    let n = check_names(lines);
    let _ = writeln!(
        s,
        "names: {} of {} games named in their code's family ({}); the commonest name of each \
         code covers {} ({}); {} unnamed",
        n.family,
        n.games,
        percent(n.family, n.games),
        n.commonest,
        percent(n.commonest, n.games),
        n.unnamed
    );
    for (code, name, games) in n.contradictions.iter().take(12) {
        let _ = writeln!(s, "  {code} named {name}: {games}");
    }
    let rest: u64 = n.contradictions.iter().skip(12).map(|c| c.2).sum();
    if rest > 0 {
        let _ = writeln!(s, "  and {rest} more games");
    }
    s
}
