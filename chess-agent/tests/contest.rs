//! Transcript tests of the contest protocol: the binary with piped stdin.

mod common;

use common::{check_output, pos, run};
use shakmaty::{Chess, Position};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The agent, as the side not to move in `fen`, reads `input` and answers with one legal move.
fn answers(fen: &str, input: &str) {
    let colour = if fen.contains(" w ") {
        "black"
    } else {
        "white"
    };
    let t = run(
        &["--time", "2", "--fen", fen],
        &format!("{colour}\n{input}"),
    );
    assert!(t.success, "{}", t.stderr);
    assert!(!t.stderr.contains("ignoring"), "{input:?}: {}", t.stderr);
    let lines = t.lines();
    assert_eq!(lines.len(), 1, "{input:?}: {:?}", t.stdout);
    assert!(t.stdout.ends_with('\n') && !t.stdout.ends_with("\n\n"));
    let mut p = pos(fen);
    let theirs = chess_agent::san::parse_move(&p, input).unwrap();
    p.play_unchecked(theirs);
    check_output(&p, lines[0]);
}

#[test]
fn white_moves_at_once_for_every_colour_word() {
    for word in [
        "white",
        "WHITE",
        "w",
        "W",
        "first",
        "First",
        "先手",
        "  white \r",
    ] {
        let t = run(&["--time", "1"], &format!("{word}\n"));
        assert!(t.success);
        let lines = t.lines();
        assert_eq!(lines.len(), 1, "{word:?}: {:?}", t.stdout);
        check_output(&Chess::default(), lines[0]);
    }
}

#[test]
fn black_waits_for_every_colour_word() {
    for word in ["black", "Black", "b", "B", "second", "后手", "black\r"] {
        let t = run(&["--time", "1"], &format!("{word}\n"));
        assert!(t.success);
        assert_eq!(t.stdout, "", "{word:?}");
        let t = run(&["--time", "1"], &format!("{word}\ne4\n"));
        let lines = t.lines();
        assert_eq!(lines.len(), 1, "{word:?}: {:?}", t.stdout);
    }
}

#[test]
fn unknown_colour_line_is_reported_and_the_next_one_read() {
    let t = run(&["--time", "1"], "hello\nwhite\n");
    assert!(t.stderr.contains("expected the colour"), "{}", t.stderr);
    assert_eq!(t.lines().len(), 1);
}

#[test]
fn every_san_input_form() {
    for input in [
        "Nf3",
        "Ngf3",
        "N1f3",
        "Ng1f3",
        "Nf3\r\n",
        "  Nf3  \n",
        "e4",
        "e4\r\n",
        "e2e4",
        "Nf3+",
    ] {
        answers(START, input);
    }
    let capture = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    for input in ["exd5", "ed5", "exd5+", "exd5#"] {
        answers(capture, input);
    }
}

#[test]
fn en_passant_with_and_without_the_mark() {
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    for input in ["exf6", "exf6 e.p.", "exf6e.p.", "exf6 e.p.\r\n"] {
        answers(fen, input);
    }
    // Black takes en passant too.
    answers(
        "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
        "exd3",
    );
}

#[test]
fn castling_both_ways_in_both_spellings() {
    let fen = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";
    for input in ["O-O", "0-0", "O-O-O", "0-0-0", "O-O+"] {
        answers(fen, input);
    }
    let black = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 0 1";
    for input in ["O-O", "0-0-0"] {
        answers(black, input);
    }
}

#[test]
fn promotion_to_each_piece() {
    let fen = "8/P5k1/8/8/8/8/6K1/8 w - - 0 1";
    for input in [
        "a8=Q", "a8Q", "a8=R", "a8R", "a8=B", "a8B", "a8=N", "a8N", "a8=Q+",
    ] {
        answers(fen, input);
    }
}

#[test]
fn rank_and_square_disambiguation() {
    let fen = "6k1/8/8/R7/8/8/8/R5K1 w - - 0 1";
    for input in ["R1a3", "R5a3", "Ra1a3", "Ra5a3", "R1xa3"] {
        answers(fen, input);
    }
}

#[test]
fn agent_promotes_with_equals_sign() {
    let t = run(
        &["--time", "2", "--fen", "8/P6k/8/8/8/8/8/K7 w - - 0 1"],
        "white\n",
    );
    assert_eq!(t.lines(), ["a8=Q"]);
}

#[test]
fn agent_castles_in_capital_o() {
    // Whatever the agent plays here is checked against the output rules; the spelling of
    // castling itself is checked through the writer the agent uses.
    let fen = "4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1";
    let t = run(&["--time", "2", "--fen", fen], "white\n");
    let line = t.lines()[0].to_owned();
    check_output(&pos(fen), &line);
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let m = chess_agent::san::parse_move(&p, "0-0").unwrap();
    assert_eq!(chess_agent::san::format_move(&p, m), "O-O");
}

#[test]
fn illegal_and_unreadable_opponent_moves_are_reported_and_skipped() {
    let t = run(&["--time", "1"], "black\ne5\nhello\n\ne4\n");
    assert!(
        t.stderr.contains("\"e5\" is not a legal move"),
        "{}",
        t.stderr
    );
    assert!(t.stderr.contains("cannot read \"hello\""), "{}", t.stderr);
    let lines = t.lines();
    assert_eq!(lines.len(), 1, "{:?}", t.stdout);
    let mut p = Chess::default();
    p.play_unchecked(chess_agent::san::parse_move(&p, "e4").unwrap());
    check_output(&p, lines[0]);
}

#[test]
fn retry_signal_gives_a_different_move_each_time() {
    for signal in ["重走", "redo", "RETRY", "重走\r"] {
        // No book, so the search's root exclusion answers the retries (tests/book.rs covers
        // retries of book moves).
        let t = run(
            &["--time", "2", "--book", "none"],
            &format!("white\n{signal}\n{signal}\n{signal}\n"),
        );
        let lines = t.lines();
        assert_eq!(lines.len(), 4, "{signal:?}: {:?}", t.stdout);
        let moves: Vec<_> = lines
            .iter()
            .map(|l| check_output(&Chess::default(), l))
            .collect();
        for i in 0..moves.len() {
            for j in 0..i {
                assert_ne!(moves[i], moves[j], "{signal:?}: {lines:?}");
            }
        }
    }
}

#[test]
fn retry_after_a_reply_takes_back_only_our_move() {
    let t = run(&["--time", "2", "--book", "none"], "black\ne4\n重走\n");
    let lines = t.lines();
    assert_eq!(lines.len(), 2, "{:?}", t.stdout);
    assert_ne!(lines[0], lines[1]);
    let mut p = Chess::default();
    p.play_unchecked(chess_agent::san::parse_move(&p, "e4").unwrap());
    check_output(&p, lines[0]);
    check_output(&p, lines[1]);
}

#[test]
fn retry_with_a_single_legal_move_repeats_it() {
    // White's king can only take the rook.
    let fen = "7k/8/8/8/8/8/1r6/K7 w - - 0 1";
    assert_eq!(pos(fen).legal_moves().len(), 1);
    let t = run(&["--time", "1", "--fen", fen], "white\n重走\n");
    assert_eq!(t.lines(), ["Kxb2", "Kxb2"]);
}

#[test]
fn retry_before_any_move_of_ours_is_reported() {
    let t = run(&["--time", "1"], "black\n重走\n");
    assert_eq!(t.stdout, "");
    assert!(t.stderr.contains("no move of ours"), "{}", t.stderr);
}

#[test]
fn agent_gives_mate_then_waits_for_the_end_of_input() {
    let t = run(
        &[
            "--time",
            "2",
            "--fen",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        ],
        "white\nKh8\n",
    );
    assert!(t.success);
    assert_eq!(t.lines(), ["Ra8#"]);
    assert!(t.stderr.contains("game over: checkmate"), "{}", t.stderr);
    assert!(t.stderr.contains("the game is over"), "{}", t.stderr);
}

#[test]
fn agent_mated_or_stalemated_by_the_opponent_writes_nothing() {
    // Fool's mate against the agent.
    let t = run(
        &[
            "--time",
            "1",
            "--fen",
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
        ],
        "white\nQh4#\n",
    );
    assert!(t.success);
    assert_eq!(t.stdout, "");
    assert!(t.stderr.contains("game over: checkmate"), "{}", t.stderr);
    // Stalemate: after Qf7 Black has no move.
    let t = run(
        &["--time", "1", "--fen", "7k/8/8/5Q2/8/8/8/6K1 w - - 0 1"],
        "black\nQf7\n",
    );
    assert!(t.success);
    assert_eq!(t.stdout, "");
    assert!(t.stderr.contains("game over: stalemate"), "{}", t.stderr);
}

#[test]
fn agent_to_move_in_a_finished_position_writes_nothing() {
    for (fen, word) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmate"),
        ("7k/8/6QK/8/8/8/8/8 b - - 0 1", "stalemate"),
    ] {
        let t = run(&["--time", "1", "--fen", fen], "black\n");
        assert!(t.success);
        assert_eq!(t.stdout, "");
        assert!(t.stderr.contains(word), "{}", t.stderr);
    }
}

#[test]
fn empty_input_and_bad_arguments() {
    let t = run(&["--time", "1"], "");
    assert!(t.success && t.stdout.is_empty());
    let t = run(&["--time", "0"], "white\n");
    assert!(!t.success);
    let t = run(&["--fen", "not a fen"], "white\n");
    assert!(!t.success && t.stderr.contains("FEN"), "{}", t.stderr);
}

#[test]
fn gbk_colour_and_retry_words_and_garbage_bytes() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // 先手 and 重走 in GBK, then bytes that are neither UTF-8 nor a known word.
    let input: &[u8] = b"\xcf\xc8\xca\xd6\r\n\xd6\xd8\xd7\xdf\r\n\xff\xfe\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess-agent"))
        .args(["--time", "1", "--hash", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout:?}");
    assert_ne!(lines[0], lines[1]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("ignoring"));
}
