//! Making the shipped puzzle file from its sources, reproducibly: the same inputs and settings
//! give the same bytes (every search has a node budget, no clock, one thread and a cleared
//! table; table positions are drawn with the seeded generator).
//!
//! The stages, each a module: [`classic`] takes the composed mate problems whose mate the
//! search proves; [`games`] searches the positions of game collections that the games point to
//! for a move that alone gains decisively; [`tables`] draws table positions with one winning
//! move. A position is a puzzle once (the first source to find it keeps it, in the order
//! above); then the puzzles are rated against each other ([`crate::difficulty::rate`]) and
//! written sorted by source and id.

pub mod classic;
pub mod games;
pub mod tables;

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

use chariot_formats::egtb::Tablebases;
use chariot_games::checked;

use crate::difficulty;
use crate::prover::Prover;
use crate::record::{Puzzle, Source};

/// The knobs of a generation run (the defaults make the shipped file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The node budget of each search.
    pub nodes: u64,
    /// The longest mate taken, in the solver's moves.
    pub max_mate: u32,
    /// The most solver moves in a game position's line that does not end in mate.
    pub max_solver_moves: usize,
    /// The most solver moves in a table position's line.
    pub max_table_moves: usize,
    /// How many games of the master collection are searched (spread evenly over it).
    pub master_games: usize,
    /// How many table puzzles are drawn.
    pub table_puzzles: usize,
    /// The longest table mate taken at the start, in plies.
    pub max_table_dtm: u32,
    /// The seed of the table draws.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nodes: 200_000,
            max_mate: 7,
            max_solver_moves: 3,
            max_table_moves: 5,
            master_games: 2_000,
            table_puzzles: 400,
            max_table_dtm: 21,
            seed: 1,
        }
    }
}

/// The source files of a run.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Composed mate problems: each collection's name and its `title|FEN|solution` file.
    pub classic: Vec<(String, PathBuf)>,
    /// Game collections and the source their puzzles are credited to.
    pub games: Vec<(Source, PathBuf)>,
    /// The directory of the endgame tables, if any.
    pub tables: Option<PathBuf>,
}

/// The reasons positions were not taken, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rejected(pub BTreeMap<&'static str, usize>);

impl Rejected {
    /// Counts one more for `why`.
    pub fn count(&mut self, why: &'static str) {
        *self.0.entry(why).or_default() += 1;
    }
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Puzzles per source.
    pub found: BTreeMap<Source, usize>,
    /// Positions looked at but not taken, by reason.
    pub rejected: Rejected,
    /// Games searched, per source file.
    pub games: Vec<(PathBuf, usize)>,
}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// An input file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A game file could not be read at all.
    #[error("{path}: {why}")]
    Games {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The tables could not be opened.
    #[error("endgame tables: {0}")]
    Tables(String),
}

/// Makes the puzzles of `inputs` with `settings`; `progress` hears what is being done.
///
/// # Errors
/// A [`BuildError`] when an input cannot be read.
pub fn build(
    inputs: &Inputs,
    settings: &Settings,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<Puzzle>, Report), BuildError> {
    let tables = match &inputs.tables {
        Some(dir) => Tablebases::open(&[dir]).map_err(|e| BuildError::Tables(e.to_string()))?,
        None => Tablebases::default(),
    };
    let tables = Arc::new(tables);
    let mut prover = Prover::new(Some(Arc::clone(&tables)), settings.nodes);
    let mut report = Report::default();
    let mut taken = HashSet::new();
    let mut puzzles: Vec<Puzzle> = Vec::new();
    for (name, path) in &inputs.classic {
        progress(&format!("classic problems: {}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|source| BuildError::Read {
            path: path.clone(),
            source,
        })?;
        let found = classic::puzzles(name, &text, settings, &mut prover, &mut report.rejected);
        puzzles.extend(found.into_iter().filter(|p| taken.insert(p.id.clone())));
    }
    for (source, path) in &inputs.games {
        let (summary, records) = match std::fs::read(path) {
            Ok(bytes) => chariot_games::read_all(&bytes),
            Err(source) => {
                return Err(BuildError::Read {
                    path: path.clone(),
                    source,
                });
            }
        };
        if summary.failed() {
            return Err(BuildError::Games {
                path: path.clone(),
                why: format!("{} problems, no game read", summary.problems.len()),
            });
        }
        let games: Vec<checked::Game> = records
            .iter()
            .filter_map(|r| checked::check(r).ok())
            .collect();
        let chosen = spread(
            games.len(),
            match source {
                Source::Masters => settings.master_games,
                _ => games.len(),
            },
        );
        progress(&format!(
            "games: {} ({} of {} games)",
            path.display(),
            chosen.len(),
            games.len()
        ));
        for (n, &g) in chosen.iter().enumerate() {
            let found = games::puzzles(
                &games[g],
                *source,
                settings,
                &mut prover,
                &mut taken,
                &mut report.rejected,
            );
            puzzles.extend(found);
            if (n + 1) % 100 == 0 {
                progress(&format!(
                    "  {} games searched, {} puzzles so far",
                    n + 1,
                    puzzles.len()
                ));
            }
        }
        report.games.push((path.clone(), chosen.len()));
    }
    if !tables.is_empty() && settings.table_puzzles > 0 {
        progress(&format!("tables: {} puzzles", settings.table_puzzles));
        let found = tables::puzzles(&tables, settings, &mut taken, &mut report.rejected);
        puzzles.extend(found);
    }
    progress(&format!("difficulty of {} puzzles", puzzles.len()));
    difficulty::rate(&mut puzzles, &mut Prover::new(None, settings.nodes));
    puzzles.sort_by(|a, b| (a.source, &a.id).cmp(&(b.source, &b.id)));
    for p in &puzzles {
        *report.found.entry(p.source).or_default() += 1;
    }
    Ok((puzzles, report))
}

/// `wanted` indices spread evenly over `0..len` (all of them when `wanted >= len`).
#[must_use]
pub fn spread(len: usize, wanted: usize) -> Vec<usize> {
    if wanted >= len {
        return (0..len).collect();
    }
    (0..wanted).map(|i| i * len / wanted).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_spread_evenly() {
        assert_eq!(spread(10, 3), [0, 3, 6]);
        assert_eq!(spread(3, 10), [0, 1, 2]);
        assert!(spread(0, 5).is_empty());
    }
}
