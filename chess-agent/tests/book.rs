//! The agent follows a Polyglot book given with `--book`.

mod common;

use chess_agent::book::{self, Entry};
use chess_agent::packed_move;
use common::{pos, run};
use shakmaty::{Chess, Position};

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
