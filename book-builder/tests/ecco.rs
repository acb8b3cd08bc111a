//! `book-builder ecco`: the ECCO file derived from games that carry codes, its measures, and the
//! shipped file remade byte for byte from the shipped collection.

mod common;

use common::{run, stdout};
use std::path::{Path, PathBuf};

use chariot_formats::opening::{EccoTable, builtin};
use chariot_rules::Position;
use chariot_rules::notation::parse_move;

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A database of the 110 sample master games (each with its ECCO tag).
fn sample_db(dir: &Path) -> PathBuf {
    let db = dir.join("games.db");
    let sample = repo("data/games/samples/ccpd-masters-sample.pgn");
    let out = run(&["import", s(&sample), "--db", s(&db)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    db
}

fn line(text: &str) -> Vec<chariot_rules::Move> {
    let mut pos = Position::start();
    text.split_whitespace()
        .map(|t| {
            let m = parse_move(&pos, t).unwrap();
            pos.make_move(m);
            m
        })
        .collect()
}

#[test]
fn a_file_from_a_database_with_its_measures() {
    let dir = tempfile::tempdir().unwrap();
    let db = sample_db(dir.path());
    let file = dir.path().join("sample.ecco");
    let text = stdout(&run(&[
        "ecco",
        "--db",
        s(&db),
        "-o",
        s(&file),
        "--check",
        "5",
    ]));
    assert!(
        text.contains("games with a code (0 without; max plies 16, min games 1)"),
        "{text}"
    );
    assert!(text.contains("held out (5 folds), by lines: "), "{text}");
    assert!(
        text.contains("held out (5 folds), by positions instead (not stored): "),
        "{text}"
    );
    assert!(
        text.contains("games named in their code's family"),
        "{text}"
    );
    let table = EccoTable::open(&file).unwrap();
    assert_eq!(table.info().max_plies, 16);
    assert!(table.info().metadata.contains("source: database games.db"));
    assert!(!table.entries().is_empty());
    // Again: the same bytes.
    let again = dir.path().join("again.ecco");
    stdout(&run(&["ecco", "--db", s(&db), "-o", s(&again)]));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(&again).unwrap()
    );
    // Another rule, another file.
    let other = dir.path().join("other.ecco");
    stdout(&run(&[
        "ecco",
        "--db",
        s(&db),
        "-o",
        s(&other),
        "--max-plies",
        "8",
        "--min-games",
        "2",
    ]));
    let t = EccoTable::open(&other).unwrap();
    assert_eq!((t.info().max_plies, t.info().min_games), (8, 2));
    assert_ne!(t.entries(), table.entries());
}

#[test]
fn bad_arguments_are_usage_errors() {
    assert_eq!(
        run(&["ecco", "--min-games", "0", "--db", "x.db"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["ecco", "--check", "1", "--db", "x.db"]).status.code(),
        Some(2)
    );
    let missing = run(&["ecco", "--data", "/nonexistent"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("ccpd-masters.big5.pgn.zst: missing")
    );
}

/// The shipped file is what the command derives from the shipped collection, byte for byte.
#[test]
fn the_shipped_file_is_remade_from_the_shipped_collection() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openings.ecco");
    let text = stdout(&run(&["ecco", "--data", s(&repo("data")), "-o", s(&file)]));
    assert!(text.contains("from 27759 games with a code"), "{text}");
    let shipped = std::fs::read(repo("data/openings.ecco")).unwrap();
    assert!(
        std::fs::read(&file).unwrap() == shipped,
        "data/openings.ecco is not what `book-builder ecco` derives: run it from the repository root"
    );
    assert_eq!(builtin::BYTES, &shipped[..]);
    // And it gives the masters' most played line of C45 its code.
    let t = builtin::table().unwrap();
    let c45 = "炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３ 兵七进一 卒７进１ 车二进六 \
               炮８平９ 车二平三 炮９退１ 马八进七 士４进５ 炮八平九";
    assert_eq!(
        t.classify(&line(c45)).map(|c| c.to_string()).as_deref(),
        Some("C45")
    );
}
