//! The search against classical mate problems (`data/puzzles`, see its README).

use std::path::PathBuf;

use chariot_engine::search::puzzle::Puzzle;
use chariot_engine::search::{Limits, Options, Searcher};

fn load(file: &str) -> Vec<Puzzle> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "data", "puzzles", file]
        .iter()
        .collect();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Puzzle::parse_all(&text)
        .into_iter()
        .map(|(line, p)| p.unwrap_or_else(|e| panic!("{file}:{line}: {e}")))
        .collect()
}

/// Searches every problem and returns the titles of those not solved.
fn unsolved(puzzles: &[Puzzle], limits: &Limits) -> Vec<String> {
    let mut searcher = Searcher::new(Options {
        hash_mb: 16,
        ..Options::default()
    });
    puzzles
        .iter()
        .filter_map(|p| {
            let (ok, r) = p.solve(&mut searcher, limits);
            (!ok).then(|| {
                format!(
                    "{} (expected {}, got {:?} {})",
                    p.title, p.solution[0], r.best, r.score
                )
            })
        })
        .collect()
}

#[test]
fn short_mates_are_solved_within_a_node_budget() {
    let puzzles = load("short.eglib");
    assert_eq!(puzzles.len(), 20);
    let failed = unsolved(
        &puzzles,
        &Limits {
            nodes: Some(100_000),
            ..Limits::default()
        },
    );
    assert!(failed.is_empty(), "unsolved: {failed:#?}");
}

#[test]
#[ignore = "slow: about a minute in release mode"]
fn most_problems_are_solved() {
    let mut puzzles = load("short.eglib");
    puzzles.extend(load("mixed.eglib"));
    let failed = unsolved(
        &puzzles,
        &Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        },
    );
    let solved = puzzles.len() - failed.len();
    println!(
        "solved {solved} of {}; unsolved: {failed:#?}",
        puzzles.len()
    );
    assert!(
        solved * 100 >= puzzles.len() * 85,
        "only {solved} of {} solved",
        puzzles.len()
    );
}
