//! The `book-builder read` command line, run as a process.

use std::path::PathBuf;
use std::process::{Command, Output};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_book-builder"))
        .args(args)
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn report_for_a_collection() {
    let file = data("pgn/ccpd-masters-slice.big5.pgn.zst");
    let out = run(&["read", file.to_str().unwrap()]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains(": zstd, PGN, Big5 ("), "{stdout}");
    assert!(
        stdout.contains("51 games, 0 skipped, 0 warnings"),
        "{stdout}"
    );
    assert!(
        stdout.contains("results: 1-0 25, 0-1 12, 1/2-1/2 12, * 2, none 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("notation: no moves 1, chinese 50; 4630 plies"),
        "{stdout}"
    );
}

#[test]
fn json_lines_per_game() {
    let file = data("dhtmlxq/game.ubb");
    let out = run(&["scan", "--json", file.to_str().unwrap()]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(lines[0].starts_with('{') && lines[0].ends_with('}'));
    assert!(
        lines[0].contains("\"moves\":[\"h2e2\",\"h7e7\",\"h0g2\""),
        "{}",
        lines[0]
    );
    assert!(lines[0].contains("\"Title\":\"无标题\""), "{}", lines[0]);
    // The report goes to stderr when stdout carries JSON.
    assert!(
        text(&out.stderr).contains("1 game,"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn problems_are_located_and_unreadable_files_fail() {
    let bad = data("malformed/unbalanced-parentheses.pgn");
    let out = run(&["read", bad.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "skipped games make the run partial, not failed"
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "unbalanced-parentheses.pgn:1:4: error: variation opened at line 3 is not closed"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("unbalanced-parentheses.pgn:2:8: error: ')' without a matching '('"),
        "{stdout}"
    );

    let garbage = data("malformed/garbage.bin");
    let out = run(&["read", garbage.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "one file of two is readable: partial"
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("garbage.bin: error: binary data"),
        "{stdout}"
    );
    assert!(
        stdout.contains("total: 2 files (1 unreadable), 1 game, 2 skipped"),
        "{stdout}"
    );

    let missing = data("no/such/file.pgn");
    let out = run(&["read", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("error: cannot read the file"));
}

#[test]
fn a_directory_without_game_files_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "no games here").unwrap();
    for command in ["read", "import"] {
        let db = dir.path().join("games.db");
        let mut args = vec![command, dir.path().to_str().unwrap()];
        if command == "import" {
            args.extend(["--db", db.to_str().unwrap()]);
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = text(&out.stderr);
        assert!(
            err.contains("no game files in this directory"),
            "{command}: {err}"
        );
    }
}

#[test]
fn directories_are_searched() {
    let dir = data("xqf");
    let out = run(&["read", "--max-problems", "0", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    // 15 XQF files and SAMPLE.PGN; *.TXT-like files would be skipped.
    assert!(
        stdout.contains("total: 16 files (0 unreadable), 16 games, 0 skipped"),
        "{stdout}"
    );
}

#[test]
fn usage_errors() {
    assert_eq!(run(&["read"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert!(run(&["--help"]).status.success());
}
