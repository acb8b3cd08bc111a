//! `chariot puzzles verify`: a file whose puzzles hold passes, one whose puzzle does not fails
//! naming it, a missing file is named.

use std::path::PathBuf;

use chariot_puzzles::Puzzle;
use chariot_rules::Position;

fn repo(path: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "..", path].iter().collect()
}

/// Runs `chariot puzzles verify FILE` with the shipped tables: the exit code and the output.
fn verify(text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.tsv");
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["puzzles", "verify", "--nodes", "20000", "--egtb"])
        .arg(repo("data/egtb"))
        .arg(&file)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), said)
}

/// A puzzle line of the file.
fn line(source: &str, goal: &str, fen: &str, moves: &str, title: &str) -> String {
    let id = Puzzle::id_of(&Position::from_fen(fen).unwrap());
    format!("{id}\t{source}\t{goal}\teasy\t{fen}\t{moves}\t{title}\n")
}

#[test]
fn a_file_is_verified_puzzle_by_puzzle() {
    let mate = line(
        "tables",
        "mate1",
        "4ka3/4a4/8C/9/9/2B6/9/9/9/3K5 w - - 0 1",
        "i7i9",
        "KCBKAA",
    );
    let (code, said) = verify(&format!("# chariot puzzles 1\n{mate}"));
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("1 puzzles, 0 failed"), "{said}");
    // The opening move is no decisive gain: a game position that fails, named.
    let opening = line(
        "masters",
        "win",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "h2e2",
        "no tactic",
    );
    let (code, said) = verify(&format!("# chariot puzzles 1\n{mate}{opening}"));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("no tactic") && said.contains("2 puzzles, 1 failed"),
        "{said}"
    );
    // A damaged file is refused with its line.
    let (code, said) = verify("# chariot puzzles 2\n");
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("line 1"), "{said}");
}
