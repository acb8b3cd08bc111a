//! The generator on small inputs: the same inputs and settings give the same bytes, every
//! source gives puzzles, and what it makes passes the reader's checks and the search's.

use std::path::PathBuf;
use std::sync::Arc;

use chariot_formats::egtb::Tablebases;
use chariot_puzzles::generate::{self, Inputs, Settings};
use chariot_puzzles::{Prover, Source, file, verify};

fn data(path: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "..", "data", path]
        .iter()
        .collect()
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let inputs = Inputs {
        classic: vec![("短局".into(), data("puzzles/short.eglib"))],
        games: vec![(
            Source::Masters,
            data("games/samples/ccpd-masters-sample.pgn"),
        )],
        tables: Some(data("egtb")),
    };
    let settings = Settings {
        nodes: 30_000,
        master_games: 16,
        table_puzzles: 6,
        seed: 5,
        ..Settings::default()
    };
    let run = || {
        let (puzzles, report) = generate::build(&inputs, &settings, &mut |_| {}).unwrap();
        (file::write(&puzzles, &[]).unwrap(), puzzles, report)
    };
    let (first, puzzles, report) = run();
    let (second, _, _) = run();
    assert_eq!(first, second, "two runs differ");
    for source in [Source::Classic, Source::Masters, Source::Tables] {
        assert!(
            report.found.get(&source).copied().unwrap_or(0) > 0,
            "no puzzle from {source}: {report:?}"
        );
    }
    assert_eq!(report.games[0].1, 16);
    assert_eq!(file::read(&first).unwrap(), puzzles);
    let tables = Arc::new(Tablebases::open(&[data("egtb")]).unwrap());
    let mut prover = Prover::new(Some(Arc::clone(&tables)), settings.nodes);
    for p in &puzzles {
        verify::check(p, &mut prover, &tables).unwrap_or_else(|e| panic!("{}: {e}", p.id));
    }
}
