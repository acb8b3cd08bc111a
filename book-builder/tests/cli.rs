//! The `book-builder read` command line, run as a process.

mod common;

use common::run;
use std::path::PathBuf;

/// The game-file test data, kept with the readers in the games crate.
fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../games/tests/data")
        .join(rel)
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
    let game: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        game["iccs"].as_array().unwrap()[..3],
        ["h2e2", "h7e7", "h0g2"]
    );
    assert!(game["rejected"].is_null());
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

#[test]
fn export_writes_the_selected_games_in_any_notation_and_gbk() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let db = db.to_str().unwrap();
    let source = data("pgn/ccpd-masters-slice.big5.pgn.zst");
    let odd = dir.path().join("odd.pgn");
    std::fs::write(
        &odd,
        "[Event \"Test\"]\n[Red \"Smile 🙂\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n",
    )
    .unwrap();
    let out = run(&[
        "import",
        "--db",
        db,
        source.to_str().unwrap(),
        odd.to_str().unwrap(),
    ]);
    // Game 40 of the slice has no moves and is rejected.
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));

    // All games, in Chinese and GBK, read back to the same games.
    let pgn = dir.path().join("all.pgn");
    let out = run(&[
        "export",
        "--db",
        db,
        "-o",
        pgn.to_str().unwrap(),
        "--notation",
        "chinese",
        "--encoding",
        "gbk",
        "--setups",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("50 games exported to"), "{err}");
    assert!(
        err.contains("1 game left out") && err.contains("Smile 🙂 vs B, Test"),
        "{err}"
    );
    assert!(
        err.contains("U+1F642") && err.contains("Smile 🙂\\\"]\\n[Black"),
        "{err}"
    );
    let bytes = std::fs::read(&pgn).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "GBK is not UTF-8 here"
    );
    let again = dir.path().join("again.db");
    let out = run(&[
        "import",
        "--db",
        again.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = |db: &str| {
        let out = run(&["summary", "--db", db, "--json", "--setups"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["selection"].clone()
    };
    let mut first = summary(db);
    first["games"] = (first["games"].as_u64().unwrap() - 1).into();
    first["red_wins"] = (first["red_wins"].as_u64().unwrap() - 1).into();
    first["plies"] = (first["plies"].as_u64().unwrap() - 2).into();
    assert_eq!(summary(again.to_str().unwrap()), first);

    // A filter, ICCS to standard output, and the tags kept.
    let out = run(&["export", "--db", db, "--player", "Smile"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.matches("[Game \"Chinese Chess\"]").count(),
        1,
        "{stdout}"
    );
    assert!(
        stdout.contains("[Red \"Smile 🙂\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]"),
        "{stdout}"
    );
    assert!(stdout.contains("1. h2e2 h9g7 1-0"), "{stdout}");
    let out = run(&["export", "--db", db, "--notation", "fancy"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn probe_names_the_opening_from_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let db = db.to_str().unwrap();
    let games = dir.path().join("named.pgn");
    std::fs::write(
        &games,
        "[ECCO \"C50\"]\n[Opening \"中炮\"]\n[Variation \"屏风马\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
         [ECCO \"C50\"]\n[Opening \"中炮\"]\n[Variation \"屏风马\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 2. b0c2 0-1\n\n\
         [ECCO \"A00\"]\n[Result \"1/2-1/2\"]\n\n1. b2e2 b7e7 1/2-1/2\n\n\
         [Result \"1-0\"]\n\n1. c3c4 1-0\n",
    )
    .unwrap();
    let out = run(&["import", "--db", db, games.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // h2e2 h9g7 is reached by the first two games.
    let out = run(&["probe", "--db", db, "--moves", "h2e2", "h9g7"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("opening: 2 games of"), "{stdout}");
    assert!(stdout.contains("  C50 中炮, 屏风马: 2 games"), "{stdout}");
    // The third game played the mirror image of h2e2 h7e7, which the book merges with it.
    let out = run(&["probe", "--db", db, "--moves", "h2e2", "h7e7"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("opening: 1 game of") && stdout.contains("  A00: 1 game"),
        "{stdout}"
    );
    let out = run(&["probe", "--db", db, "--json", "--moves", "c3c4"]);
    let stdout = text(&out.stdout);
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["openings"]["games"], 1, "{stdout}");
    assert_eq!(last["openings"]["untagged"], 1, "{stdout}");
}

/// `probe --moves` names the line's own opening as Chariot does everywhere (its ECCO table and
/// composed names), with or without a game database; a FEN has no line, so no name; the JSON
/// output keeps to the moves.
#[test]
fn probe_names_the_lines_opening() {
    let out = run(&["probe", "--moves", "b2c2", "h9g7"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("this line's opening: A06 兵底炮对起马 (Cannon Behind the Pawn vs Horse)"),
        "{stdout}"
    );
    // A line the table gives no code: the name alone.
    let stdout = text(&run(&["probe", "--moves", "h2e2", "h9g7"]).stdout);
    assert!(
        stdout.contains("this line's opening: 中炮 (Central Cannon)\n"),
        "{stdout}"
    );
    // The JSON lines stay the moves.
    let stdout = text(&run(&["probe", "--json", "--moves", "炮八平七", "马8进7"]).stdout);
    assert!(!stdout.contains("opening"), "{stdout}");
    let fen = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CC6/9/RNBAKABNR w - - 2 2";
    let stdout = text(&run(&["probe", "--fen", fen]).stdout);
    assert!(!stdout.contains("opening"), "{stdout}");
}
