//! The agent follows a Polyglot book given with `--book`, and the built-in one without it.

mod common;

use chess_agent::book::{self, Entry};
use chess_agent::packed_move;
use common::{pos, run};
use shakmaty::{CastlingMode, Chess, Position};

#[test]
fn plays_the_book_move_in_both_protocols() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.bin");
    let start = Chess::default();
    let b3 = chess_agent::san::parse_move(&start, "b3").unwrap();
    let mut after = start.clone();
    after.play_unchecked(b3);
    let a6 = chess_agent::san::parse_move(&after, "a6").unwrap();
    book::write(
        &path,
        &[
            Entry {
                key: book::key(&start),
                packed: packed_move::pack(b3),
                weight: 10,
                learn: 0,
            },
            Entry {
                key: book::key(&after),
                packed: packed_move::pack(a6),
                weight: 10,
                learn: 0,
            },
        ],
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let t = run(
        &["--time", "1", "--book", file, "--book-choice", "best"],
        "white\n",
    );
    assert_eq!(t.lines(), ["b3"]);
    let t = run(&["--time", "1", "--book", file], "black\nb3\n");
    assert_eq!(t.lines(), ["a6"]);
    // After a retry the book move is excluded and the search chooses.
    let t = run(&["--time", "1", "--book", file], "white\n重走\n");
    assert_eq!(t.lines()[0], "b3");
    assert_ne!(t.lines()[1], "b3");
    let t = run(
        &["--book", file],
        "uci\nposition startpos\ngo wtime 1000 btime 1000\n",
    );
    assert!(t.stdout.contains("bestmove b2b3"), "{}", t.stdout);
    let _ = pos("8/8/8/8/8/8/8/K6k w - - 0 1");
}

#[test]
fn a_corrupted_book_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.bin");
    std::fs::write(&path, [0u8; 20]).unwrap();
    let t = run(&["--book", path.to_str().unwrap()], "white\n");
    assert!(!t.success);
    assert!(t.stderr.contains("corrupted"), "{}", t.stderr);
}

#[test]
fn without_book_option_the_built_in_book_is_followed() {
    let start = Chess::default();
    let book_moves: Vec<_> = book::Book::embedded()
        .moves(&start)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert!(book_moves.len() >= 2, "{book_moves:?}");
    // Contest protocol: White's first move comes from the book, whatever the seed.
    for seed in ["1", "2", "3"] {
        let t = run(&["--time", "1", "--seed", seed], "white\n");
        assert!(t.success, "{}", t.stderr);
        let m = common::check_output(&start, t.lines()[0]);
        assert!(book_moves.contains(&m), "{m:?} not in {book_moves:?}");
    }
    // `--book-choice best` plays the heaviest move.
    let t = run(&["--time", "1", "--book-choice", "best"], "white\n");
    assert_eq!(common::check_output(&start, t.lines()[0]), book_moves[0]);
    // UCI: a clocked `go` answers from the book at once.
    let t = run(&[], "uci\nposition startpos\ngo wtime 60000 btime 60000\n");
    assert!(
        t.stdout
            .contains("option name OwnBook type check default true"),
        "{}",
        t.stdout
    );
    assert!(t.stdout.contains("info string book move"), "{}", t.stdout);
    let best = t
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    assert!(
        book_moves
            .iter()
            .any(|m| m.to_uci(CastlingMode::Standard).to_string() == best),
        "{best}"
    );
}

#[test]
fn book_none_and_own_book_false_search_instead() {
    let t = run(
        &["--book", "none"],
        "uci\nposition startpos\ngo wtime 2000 btime 2000\n",
    );
    assert!(!t.stdout.contains("book move"), "{}", t.stdout);
    assert!(t.stdout.contains("info depth"), "{}", t.stdout);
    let t = run(
        &[],
        "uci\nsetoption name OwnBook value false\nposition startpos\ngo wtime 2000 btime 2000\n",
    );
    assert!(!t.stdout.contains("book move"), "{}", t.stdout);
    assert!(t.stdout.contains("info depth"), "{}", t.stdout);
    assert!(t.stdout.contains("bestmove "), "{}", t.stdout);
    let t = run(
        &[],
        "uci\nsetoption name OwnBook value maybe\nsetoption name OwnBook value true\nposition startpos\ngo wtime 2000 btime 2000\n",
    );
    assert!(
        t.stdout.contains("info string OwnBook needs true or false"),
        "{}",
        t.stdout
    );
    assert!(t.stdout.contains("info string book move"), "{}", t.stdout);
    // A missing file is still an error, not a silent fall-back to the built-in book.
    let t = run(&["--book", "/nonexistent/book.bin"], "white\n");
    assert!(
        !t.success && t.stderr.contains("cannot read book"),
        "{}",
        t.stderr
    );
}
