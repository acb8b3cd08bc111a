//! Transcript tests of UCI mode.

mod common;

use common::run;

#[test]
fn handshake_search_and_bestmove() {
    let t = run(
        &[],
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 5\nisready\n",
    );
    assert!(t.success, "{}", t.stderr);
    let out = &t.stdout;
    assert!(out.contains("id name chess-agent"), "{out}");
    assert!(
        out.contains("uciok\n") && out.contains("readyok\n"),
        "{out}"
    );
    assert!(out.contains("info depth 5 "), "{out}");
    assert!(out.contains(" score cp "), "{out}");
    assert!(out.contains(" nps ") && out.contains(" pv "), "{out}");
    let best = out
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert_eq!(best.split_whitespace().count(), 2, "{best}");
}

#[test]
fn finds_mate_and_reports_it() {
    let t = run(
        &[],
        "uci\nposition fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ngo depth 4\n",
    );
    assert!(t.stdout.contains("score mate 1"), "{}", t.stdout);
    assert!(t.stdout.contains("bestmove a1a8\n"), "{}", t.stdout);
}

#[test]
fn clock_and_movetime_and_nodes() {
    // No book: from the start position the built-in one would answer without searching.
    let t = run(
        &["--book", "none"],
        "uci\nposition startpos\ngo wtime 2000 btime 2000 winc 10 binc 10\n",
    );
    assert!(t.stdout.contains("bestmove "), "{}", t.stdout);
    let t = run(
        &["--book", "none"],
        "uci\nposition startpos\ngo movetime 200\n",
    );
    assert!(t.stdout.contains("bestmove "), "{}", t.stdout);
    let t = run(&[], "uci\nposition startpos\ngo nodes 5000\n");
    assert!(t.stdout.contains("bestmove "), "{}", t.stdout);
}

#[test]
fn infinite_waits_for_stop() {
    let t = common::within(std::time::Duration::from_secs(20), || {
        run(
            &[],
            "uci\nposition startpos moves d2d4\ngo infinite\nstop\n",
        )
    });
    assert_eq!(t.stdout.matches("bestmove ").count(), 1, "{}", t.stdout);
}

#[test]
fn no_move_gives_null_bestmove_and_bad_input_is_reported() {
    let t = run(
        &[],
        "uci\nposition fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\nposition startpos moves e2e5\nfoo\n",
    );
    assert!(t.stdout.contains("bestmove 0000"), "{}", t.stdout);
    assert!(
        t.stdout.contains("info string illegal move e2e5"),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains("info string unknown command foo"),
        "{}",
        t.stdout
    );
}
