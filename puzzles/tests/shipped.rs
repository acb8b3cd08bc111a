//! Every shipped puzzle (`data/puzzles/puzzles.tsv`, compiled in): the file reads (legal lines,
//! mates that mate: the rules core) and writes back byte for byte; every mate is forced (the
//! search); every table position's line keeps one winning move at each of the solver's moves
//! (the tables).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use chariot_formats::egtb::Tablebases;
use chariot_puzzles::generate::Settings;
use chariot_puzzles::{Goal, Prover, Source, Theme, file, shipped, verify};

fn tables() -> Arc<Tablebases> {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "data", "egtb"]
        .iter()
        .collect();
    Arc::new(Tablebases::open(&[dir]).unwrap())
}

#[test]
fn the_shipped_file_reads_and_writes_back_byte_for_byte() {
    let puzzles = shipped().unwrap_or_else(|e| panic!("data/puzzles/puzzles.tsv: {e}"));
    // The comments the writer put under the magic, before the column names.
    let comments: Vec<String> = chariot_puzzles::SHIPPED
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("# id\t"))
        .map(|l| l.strip_prefix("# ").unwrap_or(l).to_owned())
        .collect();
    assert_eq!(
        file::write(&puzzles, &comments).unwrap(),
        chariot_puzzles::SHIPPED
    );
}

#[test]
fn every_source_and_theme_has_puzzles() {
    let puzzles = shipped().unwrap();
    let mut by_source: BTreeMap<Source, usize> = BTreeMap::new();
    for p in &puzzles {
        *by_source.entry(p.source).or_default() += 1;
        assert!(!p.themes().is_empty(), "{} has no theme", p.id);
    }
    for source in Source::ALL {
        assert!(
            by_source.get(&source).copied().unwrap_or(0) >= 40,
            "{source}: {by_source:?}"
        );
    }
    for theme in Theme::ALL {
        assert!(
            puzzles
                .iter()
                .filter(|p| p.themes().contains(&theme))
                .count()
                >= 100,
            "{}",
            theme.name()
        );
    }
    for n in 1..=3 {
        assert!(
            puzzles.iter().any(|p| p.goal == Goal::Mate(n)),
            "no mate in {n}"
        );
    }
}

#[test]
fn every_shipped_mate_is_forced() {
    let tables = tables();
    let mut prover = Prover::new(Some(tables), Settings::default().nodes);
    let mut failed = Vec::new();
    let puzzles = shipped().unwrap();
    for p in puzzles.iter().filter(|p| matches!(p.goal, Goal::Mate(_))) {
        if let Err(e) = verify::forced_mate(p, &mut prover) {
            failed.push(format!("{} ({}): {e}", p.id, p.title));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn every_table_puzzle_keeps_one_winning_move() {
    let tables = tables();
    let mut failed = Vec::new();
    for p in shipped()
        .unwrap()
        .iter()
        .filter(|p| p.source == Source::Tables)
    {
        if let Err(e) = verify::table_line(p, &tables) {
            failed.push(format!("{} ({}): {e}", p.id, p.title));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}
