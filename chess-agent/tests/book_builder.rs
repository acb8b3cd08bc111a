//! `chess-book build` on a tiny PGN file and lines file in a temporary directory: the entries
//! and weights it writes, the bad game it skips and names, and its exit codes.

use std::path::Path;
use std::process::{Command, Output};

use chess_agent::book::Book;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Four good games and a bad one (game 3: `Ke3` at ply 3 is illegal).
const PGN: &str = r#"[Event "one"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O {castles} Nf6 (4... d6) 1-0

[Event "two"]
[Result "0-1"]

1. e4 c5 0-1

[Event "three"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "four"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Event "five"]
[SetUp "1"]
[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]
[Result "1-0"]

1. a8=Q 1-0
"#;

const LINES: &str = "# Two lines, each a draw for each of its moves.\n\
e4 e5 Nf3   # open game\n\
\n\
1. d4 Nf6\n";

fn chess_book(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chess-book"))
        .args(args)
        .output()
        .expect("start chess-book")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The book's moves of the position after `uci` moves from `fen` (default: start), as
/// `(uci, weight)`, heaviest first.
fn moves(book: &Book, fen: Option<&str>, uci: &[&str]) -> Vec<(String, u16)> {
    let mut pos: Chess = fen.map_or_else(Chess::default, |f| {
        f.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    });
    for u in uci {
        let m = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    book.moves(&pos)
        .into_iter()
        .map(|(m, w)| (m.to_uci(CastlingMode::Chess960).to_string(), w))
        .collect()
}

fn inputs(dir: &Path) -> (String, String) {
    let pgn = dir.join("games.pgn");
    let lines = dir.join("lines.txt");
    std::fs::write(&pgn, PGN).unwrap();
    std::fs::write(&lines, LINES).unwrap();
    (
        pgn.to_str().unwrap().to_owned(),
        lines.to_str().unwrap().to_owned(),
    )
}

#[test]
fn builds_weights_as_make_book_does() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn, lines) = inputs(dir.path());
    let out = dir.path().join("book.bin");
    let o = chess_book(&[
        "build",
        "--out",
        out.to_str().unwrap(),
        "--lines",
        &lines,
        &pgn,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    let stderr = text(&o.stderr);
    // The bad game is named by file, game number and ply, and skipped.
    assert!(
        stderr.contains("games.pgn: game 3, ply 3: illegal move Ke3"),
        "{stderr}"
    );
    assert!(stderr.contains("game skipped"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stdout.contains("games read: 4 (1 skipped)"), "{stdout}");
    assert!(stdout.contains("lines read: 2 (0 skipped)"), "{stdout}");
    let book = Book::open(&out).unwrap();
    // Start: e4 = game one won (2) + game two lost (0) + a line (1); d4 = a draw + a line.
    assert_eq!(
        moves(&book, None, &[]),
        [("e2e4".into(), 3), ("d2d4".into(), 2)]
    );
    // After e4, Black: c5 won (2); e5 lost in game one (0) + a line (1).
    assert_eq!(
        moves(&book, None, &["e2e4"]),
        [("c7c5".into(), 2), ("e7e5".into(), 1)]
    );
    assert_eq!(moves(&book, None, &["e2e4", "e7e5"]), [("g1f3".into(), 3)]);
    // Black's Nc6 only lost: left out.
    assert!(moves(&book, None, &["e2e4", "e7e5", "g1f3"]).is_empty());
    // Castling is stored as the king taking its rook; the variation (4... d6) is ignored.
    let before_castling = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"];
    assert_eq!(moves(&book, None, &before_castling), [("e1h1".into(), 2)]);
    let after_castling = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1h1"];
    assert!(moves(&book, None, &after_castling).is_empty());
    // A game from a [FEN] tag, with a promotion.
    assert_eq!(
        moves(&book, Some("8/P6k/8/8/8/8/8/K7 w - - 0 1"), &[]),
        [("a7a8q".into(), 2)]
    );
    assert_eq!(
        moves(&book, None, &["d2d4"]),
        [("d7d5".into(), 1), ("g8f6".into(), 1)]
    );
    // Positions: start, e4, e4 e5, e4 e5 Nf3 Nc6 (Bc4), before castling, the FEN, d4; the
    // positions whose only move lost (Nc6, Bc5, Nf6) have none.
    let positions: std::collections::BTreeSet<u64> = book.entries().iter().map(|e| e.key).collect();
    assert_eq!(positions.len(), 7);
    assert_eq!(book.len(), 10);
    assert!(
        stdout.contains("positions: 7; entries: 10 (160 bytes)"),
        "{stdout}"
    );
    // Nothing else was left in the directory.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn max_ply_and_min_games() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn, lines) = inputs(dir.path());
    let out = dir.path().join("book.bin");
    let out = out.to_str().unwrap();
    let o = chess_book(&[
        "build",
        "--out",
        out,
        "--max-ply",
        "1",
        "--lines",
        &lines,
        &pgn,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let book = Book::open(Path::new(out)).unwrap();
    assert_eq!(
        moves(&book, None, &[]),
        [("e2e4".into(), 3), ("d2d4".into(), 2)]
    );
    assert!(moves(&book, None, &["e2e4"]).is_empty());
    // Seen in two games at least: e4 (3 games), d4 (2), e4 e5 (2), e4 e5 Nf3 (2).
    let o = chess_book(&[
        "build",
        "--out",
        out,
        "--min-games",
        "2",
        "--lines",
        &lines,
        &pgn,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let book = Book::open(Path::new(out)).unwrap();
    assert_eq!(book.len(), 4);
    assert_eq!(moves(&book, None, &["e2e4"]), [("e7e5".into(), 1)]);
    // The show subcommand reads it back.
    let o = chess_book(&["show", out, "e4"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("e5       e7e5   weight     1"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn, lines) = inputs(dir.path());
    let out = dir.path().join("book.bin");
    let out = out.to_str().unwrap();
    // 2: a mistake on the command line (no --out; no input at all; a bad number).
    assert_eq!(chess_book(&["build", &pgn]).status.code(), Some(2));
    assert_eq!(chess_book(&["build", "--out", out]).status.code(), Some(2));
    assert_eq!(
        chess_book(&["build", "--out", out, "--max-ply", "x", &pgn])
            .status
            .code(),
        Some(2)
    );
    // 1: an unreadable input names the file, and no book is written.
    let missing = dir.path().join("missing.pgn");
    let o = chess_book(&["build", "--out", out, &pgn, missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("missing.pgn"),
        "{}",
        text(&o.stderr)
    );
    assert!(!Path::new(out).exists());
    let o = chess_book(&["build", "--out", out, "--lines", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("missing.pgn"),
        "{}",
        text(&o.stderr)
    );
    // 1: no entries left (no move was seen in 9 games).
    let o = chess_book(&["build", "--out", out, "--min-games", "9", &pgn]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("no entries"),
        "{}",
        text(&o.stderr)
    );
    // 1: the output cannot be written.
    let o = chess_book(&["build", "--out", "/nonexistent/dir/book.bin", &pgn]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("cannot write"),
        "{}",
        text(&o.stderr)
    );
    // 0, and a bad line in a lines file is skipped with its line number and ply.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "e4 e5\ne4 e5 Qh6\nd4 ??\n").unwrap();
    let o = chess_book(&[
        "build",
        "--out",
        out,
        "--lines",
        bad.to_str().unwrap(),
        "--lines",
        &lines,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let stderr = text(&o.stderr);
    assert!(
        stderr.contains("bad.txt: line 2: ply 3: illegal move \"Qh6\""),
        "{stderr}"
    );
    assert!(
        stderr.contains("bad.txt: line 3: ply 2: unreadable move \"??\""),
        "{stderr}"
    );
    assert!(
        text(&o.stdout).contains("lines read: 3 (2 skipped)"),
        "{}",
        text(&o.stdout)
    );
    assert!(chess_book(&["--help"]).status.success());
    assert!(text(&chess_book(&["build", "--help"]).stdout).contains("Exit codes"));
}
