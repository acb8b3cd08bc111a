//! Real game records read move by move (`data/games/samples`, see its README).
//!
//! The same fifteen games in three notations must give the same moves, and a sample of master
//! games in traditional Chinese, as written in the wild, must replay legally.

mod common;

use common::pgn::{Game, data_path, games};

fn load(file: &str) -> Vec<Game> {
    let path = data_path(&["games", "samples", file]);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games = games(&text);
    assert!(!games.is_empty(), "{file} holds no games");
    games
}

/// Replays every game of a file, failing with the game, move and error of the first bad move.
fn replay_all(file: &str) -> Vec<Vec<chariot::Move>> {
    load(file)
        .iter()
        .map(|g| {
            let moves = g.replay().unwrap_or_else(|(i, text, e)| {
                panic!(
                    "{file}, game at line {}: move {} {text:?}: {e}",
                    g.line,
                    i + 1
                )
            });
            assert!(
                !moves.is_empty(),
                "{file}, game at line {}: no moves",
                g.line
            );
            moves
        })
        .collect()
}

#[test]
fn three_notations_give_the_same_games() {
    let iccs = replay_all("bulk_games_uci.pgn");
    let wxf = replay_all("xqdb_international.pgn");
    let chinese = replay_all("xqdb_traditional.pgn");
    assert_eq!(iccs.len(), 15);
    assert_eq!(wxf.len(), iccs.len());
    assert_eq!(chinese.len(), iccs.len());
    let mut errata = Vec::new();
    for (i, ((a, b), c)) in iccs.iter().zip(&wxf).zip(&chinese).enumerate() {
        assert_eq!(b, c, "game {}: WXF and Chinese differ", i + 1);
        assert_eq!(
            a.len(),
            b.len(),
            "game {}: ICCS and WXF differ in length",
            i + 1
        );
        for (ply, (x, y)) in a.iter().zip(b).enumerate() {
            if x != y {
                errata.push((i + 1, ply + 1, x.to_string(), y.to_string()));
            }
        }
    }
    // The one known error of the ICCS file (see data/games/samples/README.md): the rear soldier
    // moved (-P+1, 后兵进一), the ICCS file moves the front one. Both are legal there, so the
    // games stay in step.
    let known = vec![(2, 71, "e5e6".to_owned(), "e3e4".to_owned())];
    assert_eq!(
        errata, known,
        "(game, ply, ICCS, WXF) where the files differ"
    );
    let total: usize = iccs.iter().map(Vec::len).sum();
    assert!(total > 1000, "only {total} moves read");
}

#[test]
fn the_samples_use_tandem_forms() {
    // The comparison above is only as strong as the forms the files contain: make sure the
    // tandem marks are among them, so that a parser ignoring them would be caught.
    let wxf: Vec<String> = load("xqdb_international.pgn")
        .into_iter()
        .flat_map(|g| g.moves)
        .collect();
    assert!(wxf.iter().any(|t| t.starts_with('＋')) && wxf.iter().any(|t| t.starts_with('－')));
    let chinese: Vec<String> = load("xqdb_traditional.pgn")
        .into_iter()
        .flat_map(|g| g.moves)
        .collect();
    assert!(
        chinese.iter().any(|t| t.starts_with('前')) && chinese.iter().any(|t| t.starts_with('后'))
    );
}

#[test]
fn master_games_replay_legally() {
    let games = replay_all("ccpd-masters-sample.pgn");
    assert!(games.len() >= 100, "only {} games", games.len());
}

/// Replays every game of the PGN file named by `CHARIOT_PGN` (UTF-8) and reports each game
/// that does not replay: `CHARIOT_PGN=games.pgn cargo test --release --test games -- --ignored`.
#[test]
#[ignore = "reads the file named by CHARIOT_PGN"]
fn replay_external_file() {
    let path = std::env::var("CHARIOT_PGN").expect("set CHARIOT_PGN to a UTF-8 PGN file");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let games = games(&text);
    let mut failures = 0;
    let mut moves = 0;
    for g in &games {
        match g.replay() {
            Ok(m) => moves += m.len(),
            Err((i, text, e)) => {
                failures += 1;
                println!("game at line {}: move {} {text:?}: {e}", g.line, i + 1);
            }
        }
    }
    println!(
        "{} games, {moves} moves read, {failures} games failed",
        games.len()
    );
    assert_eq!(failures, 0);
}
