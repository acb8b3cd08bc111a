//! `book-builder positions`: quiet positions with their games' results, for Texel tuning.

use chariot_cli::Exit;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{FilterArgs, spinner};
use anyhow::bail;
use book_builder::positions::{ExtractOptions, Extractor};
use chariot_formats::positions::FileWriter;
use chariot_gamedb::db::GameDb;
use chariot_gamedb::filter::Filter;
use chariot_games::checked::check;
use chariot_games::read_file;

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
            if s.games.is_multiple_of(256) {
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
