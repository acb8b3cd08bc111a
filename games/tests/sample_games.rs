//! Real game records read move by move (`data/games/samples`, see its README).
//!
//! The same fifteen games in three notations must give the same moves, and a sample of master
//! games in traditional Chinese, as written in the wild, must replay legally.

use std::path::PathBuf;

use chariot_games::checked::check;
use chariot_games::{GameRecord, read_file};

/// The path of a file under the repository's `data/`.
fn data_path(parts: &[&str]) -> PathBuf {
    let mut p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "data"].iter().collect();
    p.extend(parts);
    p
}

/// The games of a sample file, read by the games crate (the workspace's one reader).
fn load(file: &str) -> Vec<GameRecord> {
    let path = data_path(&["games", "samples", file]);
    let mut games = Vec::new();
    let summary = read_file(&path, &mut |g| games.push(g));
    assert!(
        summary.problems.is_empty(),
        "{}: {:?}",
        path.display(),
        summary.problems
    );
    assert!(!games.is_empty(), "{file} holds no games");
    games
}

/// Replays every game of a file, failing with the game, move and error of the first bad move.
fn replay_all(file: &str) -> Vec<Vec<chariot_rules::Move>> {
    load(file)
        .iter()
        .map(|g| {
            let game = check(g).unwrap_or_else(|r| panic!("{}", r.located(file)));
            game.moves
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
    let text =
        |file: &str| std::fs::read_to_string(data_path(&["games", "samples", file])).unwrap();
    let wxf = text("xqdb_international.pgn");
    assert!(wxf.contains(" ＋") && wxf.contains(" －"));
    let chinese = text("xqdb_traditional.pgn");
    assert!(chinese.contains(" 前") && chinese.contains(" 后"));
    // And the reader keeps them as moves: the games replay (above) with the same moves.
    assert_eq!(
        replay_all("xqdb_international.pgn"),
        replay_all("xqdb_traditional.pgn")
    );
}

#[test]
fn master_games_replay_legally() {
    let games = replay_all("ccpd-masters-sample.pgn");
    assert!(games.len() >= 100, "only {} games", games.len());
}

/// Replays every game of the game file named by `CHARIOT_PGN` (any format and encoding the
/// games crate reads) and reports each game that does not replay:
/// `CHARIOT_PGN=games.pgn cargo test --release -p chariot-games --test sample_games -- --ignored`.
#[test]
#[ignore = "reads the file named by CHARIOT_PGN"]
fn replay_external_file() {
    let path = std::env::var("CHARIOT_PGN").expect("set CHARIOT_PGN to a game file");
    let mut games = Vec::new();
    read_file(std::path::Path::new(&path), &mut |g| games.push(g));
    let mut failures = 0;
    let mut moves = 0;
    for g in &games {
        match check(g) {
            Ok(game) => moves += game.moves.len(),
            Err(r) => {
                failures += 1;
                println!("{}", r.located(&path));
            }
        }
    }
    println!(
        "{} games, {moves} moves read, {failures} games failed",
        games.len()
    );
    assert_eq!(failures, 0);
}
