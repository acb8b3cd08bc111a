//! Transcript tests of the engine's protocols, run against the real `chariot` binary over pipes.
//!
//! Each test starts the engine, sends commands and waits for the expected replies. The waits have
//! generous limits (they detect hangs, they do not measure speed).

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::{Engine, PATIENCE};

use chariot_rules::{Move, Position};

impl Engine {
    fn ucci() -> Engine {
        let mut e = Engine::start();
        e.send("ucci");
        e.starts("ucciok");
        e.send("setoption usemillisec true");
        e
    }

    fn uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.starts("uciok");
        e
    }
}

fn bestmove_of(line: &str) -> Move {
    let text = line
        .split_whitespace()
        .nth(1)
        .expect("a move after bestmove");
    chariot_rules::notation::parse_iccs(text).expect("an ICCS move")
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn ucci_handshake_lists_options() {
    let mut e = Engine::start();
    e.send("ucci");
    let lines = e.lines_until("ucciok");
    assert!(lines.iter().any(|l| l.starts_with("id name Chariot")));
    for opt in [
        "usemillisec",
        "batch",
        "debug",
        "ponder",
        "hashsize",
        "threads",
        "idle",
        "pruning",
        "knowledge",
        "randomness",
        "blunders",
        "style",
        "newgame",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option {opt} type"))),
            "option {opt} missing: {lines:?}"
        );
    }
    e.send("isready");
    e.starts("readyok");
    e.quit();
}

#[test]
fn ucci_search_reports_and_moves() {
    let mut e = Engine::ucci();
    // The built-in book knows these positions; this test is about the search.
    e.send("setoption usebook false");
    e.send(&format!("position fen {START} moves h2e2 h7e7"));
    e.send("go depth 4");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 4 score ") && l.contains(" pv ")),
        "{lines:?}"
    );
    let mut pos = Position::from_fen(START).unwrap();
    for m in ["h2e2", "h7e7"] {
        pos.make_move(chariot_rules::notation::parse_iccs(m).unwrap());
    }
    assert!(pos.is_legal(bestmove_of(lines.last().unwrap())));
    e.quit();
}

#[test]
fn stop_while_idle_and_depth_zero_give_nobestmove() {
    let mut e = Engine::ucci();
    e.send("stop");
    e.starts("nobestmove");
    e.send("position startpos");
    e.send("go depth 0");
    e.starts("nobestmove");
    // Checkmated: rooks on a9 and b8 and the red general on the d-file leave no square.
    e.send("position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go depth 3");
    e.starts("nobestmove");
    e.quit();
}

#[test]
fn quit_while_thinking_says_bye() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    e.starts("readyok");
    e.send("quit");
    e.starts("bye");
    e.quit_after_bye();
}

impl Engine {
    fn quit_after_bye(mut self) {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        panic!("engine still running after bye");
    }
}

#[test]
fn stop_answers_with_a_legal_bestmove() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.send("isready");
    e.starts("readyok");
    thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let line = e.starts("bestmove");
    assert!(Position::start().is_legal(bestmove_of(&line)));
    e.quit();
}

#[test]
fn banmoves_are_never_played() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go depth 3");
    let first = bestmove_of(&e.starts("bestmove"));
    e.send("position startpos");
    e.send(&format!("banmoves {first}"));
    e.send("go depth 3");
    let second = bestmove_of(&e.starts("bestmove"));
    assert_ne!(first, second);
    // Ban all but one move: that one must be played.
    let moves = Position::start().legal_move_list();
    let keep = moves[7];
    let banned: Vec<String> = moves
        .iter()
        .filter(|&&m| m != keep)
        .map(ToString::to_string)
        .collect();
    e.send("position startpos");
    e.send(&format!("banmoves {}", banned.join(" ")));
    e.send("go depth 3");
    assert_eq!(bestmove_of(&e.starts("bestmove")), keep);
    // A new position clears the banned moves.
    e.send("position startpos");
    e.send("go depth 3");
    assert_eq!(bestmove_of(&e.starts("bestmove")), first);
    e.quit();
}

#[test]
fn batch_mode_queues_commands_while_thinking() {
    let mut e = Engine::ucci();
    e.send("setoption batch true");
    e.send("position startpos");
    e.send("go depth 3");
    // Read after bestmove in batch mode: this position applies to the second search only.
    e.send("position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go depth 3");
    let lines = e.lines_until("nobestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.quit();
}

#[test]
fn without_batch_mode_commands_during_thinking_are_refused() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.send("position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.starts("info string error: the engine is thinking");
    e.send("stop");
    let line = e.starts("bestmove");
    assert!(Position::start().is_legal(bestmove_of(&line)));
    e.quit();
}

#[test]
fn seconds_and_milliseconds() {
    // Without usemillisec, `go time 2` means two seconds: plenty for a move.
    let mut e = Engine::start();
    e.send("ucci");
    e.starts("ucciok");
    e.send("position startpos");
    e.send("go time 2 increment 0");
    let line = e.starts("bestmove");
    assert!(Position::start().is_legal(bestmove_of(&line)));
    // With it, `go time 2000` is the same clock.
    e.send("setoption usemillisec true");
    e.send("go time 2000 increment 0");
    let line = e.starts("bestmove");
    assert!(Position::start().is_legal(bestmove_of(&line)));
    e.quit();
}

#[test]
fn bad_input_is_reported_and_the_state_kept() {
    let mut e = Engine::ucci();
    e.send("frobnicate");
    e.starts("info string error: unknown command \"frobnicate\"");
    e.send("position fen rnbakabnr/9/1c5c1 w");
    e.starts("info string error: position: invalid FEN");
    e.send("position startpos moves h2e2 h0h9");
    let err = e.starts("info string error: position: move 2");
    assert!(err.contains("h0h9"), "{err}");
    // (After a rejected position, go answers without a move: see the test after this one.)
    e.send("position startpos moves h2e2");
    e.send("banmoves a0a5");
    e.starts("info string error: banmoves");
    e.send("go depth x");
    e.starts("info string error: go");
    e.send("setoption hashsize lots");
    e.starts("info string error: option hashsize");
    // The position is still the one after h2e2: Black to move.
    e.send("go depth 2");
    let m = bestmove_of(&e.starts("bestmove"));
    let mut pos = Position::start();
    pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
    assert!(pos.is_legal(m), "{m} is not legal after h2e2");
    e.quit();
}

#[test]
fn after_a_rejected_position_go_answers_without_a_move_until_a_valid_one() {
    for uci in [false, true] {
        let mut e = if uci { Engine::uci() } else { Engine::ucci() };
        let no_move = if uci { "bestmove (none)" } else { "nobestmove" };
        e.send("position startpos moves h2e2");
        // The GUI's board is after h2e2 h9g7 b0c2; the engine cannot read it.
        e.send("position startpos moves h2e2 h9g7 b0c9");
        e.starts("info string error: position: move 3");
        e.send("go depth 2");
        let lines = e.lines_until(if uci { "bestmove" } else { "nobestmove" });
        assert_eq!(lines.last().unwrap(), no_move, "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("the last position was rejected")),
            "{lines:?}"
        );
        // A bad FEN too, and (UCCI) banned moves for the stale position are refused.
        e.send("position fen rnbakabnr/9/1c5c1 w");
        if !uci {
            e.send("banmoves h9g7");
            e.starts("info string error: banmoves");
        }
        e.send("go depth 2");
        let lines = e.lines_until(if uci { "bestmove" } else { "nobestmove" });
        assert_eq!(lines.last().unwrap(), no_move, "{lines:?}");
        // A valid position ends it.
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 2");
        let mut pos = Position::start();
        for m in ["h2e2", "h9g7"] {
            pos.make_move(chariot_rules::notation::parse_iccs(m).unwrap());
        }
        assert!(pos.is_legal(bestmove_of(&e.starts("bestmove"))));
        e.quit();
    }
}

#[test]
fn probe_answers_pophash() {
    let mut e = Engine::ucci();
    e.send("probe startpos moves a0a1");
    assert_eq!(e.starts("pophash"), "pophash");
    e.send("setoption usebook false");
    e.send("position startpos");
    e.send("go depth 5");
    let best = e.starts("bestmove");
    e.send("probe startpos");
    let pophash = e.starts("pophash");
    assert!(pophash.starts_with("pophash bestmove "), "{pophash}");
    assert_eq!(
        pophash.split_whitespace().nth(2),
        best.split_whitespace().nth(1)
    );
    e.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::ucci();
    e.send("position startpos moves h2e2");
    e.send("go ponder time 60000 increment 0");
    e.send("isready");
    e.starts("readyok");
    e.send("ponderhit");
    // Now the clock runs: 60 s of sudden death gives a move within a few seconds.
    let line = e.starts("bestmove");
    let mut pos = Position::start();
    pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
    assert!(pos.is_legal(bestmove_of(&line)));
    e.quit();
}

#[test]
fn draw_is_accepted_only_when_even_and_hopeless_positions_resign() {
    let mut e = Engine::ucci();
    // Generals and advisors only: dead even.
    e.send("position fen 3k1a3/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    e.send("go draw depth 3");
    let line = e.starts("bestmove");
    assert!(line.ends_with(" draw"), "{line}");
    // Black has a bare general against two rooks: offered a draw, Red refuses.
    e.send("position fen 3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1");
    e.send("go draw depth 3");
    let line = e.starts("bestmove");
    assert!(!line.contains("draw"), "{line}");
    // And Black, lost beyond doubt, resigns after some moves.
    let mut resigned = false;
    for _ in 0..6 {
        e.send("position fen 3k5/9/9/9/9/9/9/R8/R8/4K4 b - - 0 1");
        e.send("go depth 4");
        if e.starts("bestmove").ends_with(" resign") {
            resigned = true;
            break;
        }
    }
    assert!(resigned, "{}", e.transcript.join("\n"));
    e.quit();
}

#[test]
fn uci_dialects() {
    let mut e = Engine::uci();
    e.send("isready");
    e.starts("readyok");
    e.send("setoption name Hash value 8");
    e.send("setoption name OwnBook value false");
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 3 seldepth ") && l.contains(" score cp ")),
        "{lines:?}"
    );
    let mut pos = Position::start();
    for m in ["h2e2", "h9g7"] {
        pos.make_move(chariot_rules::notation::parse_iccs(m).unwrap());
    }
    assert!(pos.is_legal(bestmove_of(lines.last().unwrap())));
    // Fairy-Stockfish's dialect: ranks 1-10.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h3e3 h10g8");
    e.send("go depth 3 searchmoves a4a5");
    assert_eq!(e.starts("bestmove").split_whitespace().nth(1), Some("a4a5"));
    e.send("go movetime 200");
    e.starts("bestmove");
    e.send("go wtime 3000 btime 3000 winc 100 binc 100");
    e.starts("bestmove");
    e.send("setoption name Nonsense value 1");
    e.starts("info string error: unknown option");
    e.quit();
}

#[test]
fn end_of_input_lets_a_bounded_search_answer() {
    let mut e = Engine::ucci();
    e.send("setoption usebook false");
    e.send("position startpos");
    e.send("go depth 4");
    // Closing the input (as when a command file is piped in) must not cut the search short.
    e.stdin = None;
    let lines = e.lines_until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 4 ")),
        "{lines:?}"
    );
}

/// Writes a small book: from the start, h2e2 (heavy) and c3c4; after h2e2, h9g7.
/// The directory is removed when the returned `TempDir` is dropped.
fn write_test_book(mirror: bool) -> (tempfile::TempDir, std::path::PathBuf) {
    use chariot_formats::book::{BookWriter, BuildInfo, Entry, MoveStats, canonical};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.xqb");
    let mut w = BookWriter::new(BuildInfo {
        mirror,
        ..BuildInfo::default()
    });
    let mut add = |pos: &Position, text: &str, red_wins: u32, draws: u32, black_wins: u32| {
        let (key, mv) = canonical(
            pos,
            chariot_rules::notation::parse_iccs(text).unwrap(),
            mirror,
        );
        let stats = MoveStats {
            games: red_wins + draws + black_wins,
            red_wins,
            draws,
            black_wins,
            mean_elo: 0,
        };
        w.push(Entry {
            key,
            mv,
            stats,
            weight: stats.weight(pos.turn()),
        });
    };
    let mut pos = Position::start();
    add(&pos, "h2e2", 50, 20, 10);
    add(&pos, "c3c4", 5, 5, 5);
    pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
    add(&pos, "h9g7", 10, 20, 30);
    w.write(&path).unwrap();
    (dir, path)
}

#[test]
fn book_moves_are_played_and_respect_banmoves() {
    let (_book_dir, path) = write_test_book(true);
    let mut e = Engine::ucci();
    e.send(&format!("setoption bookfiles {}", path.display()));
    e.starts("info string 1 book file loaded");
    e.send("position startpos");
    e.send("go time 10000 increment 0");
    let lines = e.lines_until("bestmove");
    assert_eq!(
        lines.last().unwrap(),
        "bestmove h2e2 ponder h9g7",
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info message book move h2e2: 80 games")),
        "{lines:?}"
    );
    // The mirrored position is in the book too (mirror merging): after b2e2, b9c7.
    e.send("position startpos moves b2e2");
    e.send("go time 10000 increment 0");
    assert_eq!(e.starts("bestmove"), "bestmove b9c7");
    // A banned book move is never played: the other book move is.
    e.send("position startpos");
    e.send("banmoves h2e2");
    e.send("go time 10000 increment 0");
    assert_eq!(e.starts("bestmove").split_whitespace().nth(1), Some("c3c4"));
    // usebook false: the engine searches (and says depth 1 or more).
    e.send("setoption usebook false");
    e.send("position startpos");
    e.send("go depth 2");
    let lines = e.lines_until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2")),
        "{lines:?}"
    );
    // A missing book file is an error that keeps the previous books.
    e.send("setoption bookfiles /nonexistent/book.xqb");
    e.starts("info string error: bookfiles");
    e.quit();
}

#[test]
fn endgame_tables_play_the_quickest_mate_and_respect_banmoves() {
    let mut e = Engine::ucci();
    // The shipped tables (data/egtb) are used by default. A rook against a bare general.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    e.send("go time 60000 increment 0");
    let lines = e.lines_until("bestmove");
    // Rook to the eighth rank leaves Black without a move, which loses: mate in one ply.
    assert!(
        lines.iter().any(|l| l == "info depth 1 score 9999 pv a0a8"),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove a0a8");
    e.send("banmoves a0a8");
    e.send("go time 60000 increment 0");
    let lines = e.lines_until("bestmove");
    assert_ne!(lines.last().unwrap(), "bestmove a0a8");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && l.contains("score 99")),
        "{lines:?}"
    );
    // Rook against horse, won by the perpetual-check rule: the tables' plan answers at once.
    e.send("position fen 9/4k4/9/9/8R/9/2n6/9/3K5/9 w - - 0 1");
    e.send("go depth 5");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string tablebase: win by the perpetual check/chase rules"),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove d1d2 ponder c3b1");
    // A lone cannon cannot win: the search picks among the drawing moves.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/C3K4 w - - 0 1");
    e.send("go depth 3");
    e.starts("info string tablebase: draw");
    e.starts("bestmove");
    // Without tables the engine searches.
    e.send("setoption useegtb false");
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    e.send("go depth 2");
    let lines = e.lines_until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2")),
        "{lines:?}"
    );
    e.send("setoption egtbpaths /nonexistent/dir");
    e.starts("info string error: egtbpaths");
    e.quit();
}

#[test]
fn the_built_in_book_answers_by_default() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go depth 20");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info message book move ") && l.contains(" games, red ")),
        "{lines:?}"
    );
    assert!(Position::start().is_legal(bestmove_of(lines.last().unwrap())));
    // Another book replaces it; an empty list brings it back.
    let (_book_dir, path) = write_test_book(true);
    e.send(&format!("setoption bookfiles {}", path.display()));
    e.starts("info string 1 book file loaded, 3 entries");
    e.send("setoption bookfiles <empty>");
    let line = e.starts("info string 1 book file loaded");
    assert!(!line.ends_with(" 3 entries"), "{line}");
    e.quit();
}

#[test]
fn a_gbk_book_path_is_read_and_undecodable_lines_are_reported() {
    // What a Chinese Windows GUI sends: the option line in GBK, with a Chinese file name.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("开局库.xqb");
    let (_book_dir, book) = write_test_book(true);
    std::fs::copy(book, &path).unwrap();
    let line = format!("setoption bookfiles {}", path.display());
    let (gbk, _, unmappable) = encoding_rs::GBK.encode(&line);
    assert!(!unmappable);
    assert!(
        std::str::from_utf8(&gbk).is_err(),
        "the test line must not be UTF-8"
    );
    let mut e = Engine::ucci();
    e.send_bytes(&gbk);
    e.starts("info string the line was not UTF-8 and was read as GBK");
    e.starts("info string 1 book file loaded, 3 entries");
    // Bytes that are neither UTF-8 nor GBK: one error line each, and the engine goes on.
    let mut rng = chariot_rules::random::Rng::seeded(99);
    let mut undecodable = 0;
    for _ in 0..300 {
        let mut bytes: Vec<u8> = (0..40).map(|_| (rng.below(256)) as u8).collect();
        bytes.retain(|&b| b != b'\n' && b != b'\r');
        bytes.push(0xff); // never valid in UTF-8 or GBK
        e.send_bytes(&bytes);
        undecodable += 1;
    }
    e.send("isready");
    let lines = e.lines_until("readyok");
    let errors = lines
        .iter()
        .filter(|l| l.contains("is neither UTF-8 nor GBK"))
        .count();
    assert_eq!(errors, undecodable, "{lines:?}");
    e.send("setoption usebook false");
    e.send("position startpos");
    e.send("go depth 3");
    let last = e.lines_until("bestmove").pop().unwrap();
    assert!(Position::start().is_legal(bestmove_of(&last)), "{last}");
    e.quit();
}

#[test]
fn long_unknown_lines_are_not_echoed_whole() {
    let mut e = Engine::ucci();
    e.send(&"x".repeat(200_000));
    let line = e.starts("info string error");
    assert!(line.len() < 400, "{} bytes echoed", line.len());
    assert!(
        line.contains("200002 bytes in all") || line.contains("bytes in all"),
        "{line}"
    );
    e.quit();
}

#[test]
fn uci_go_perft_answers_as_stockfish_does() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.lines_until("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
    let moves = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .count();
    assert_eq!(moves, 44, "{lines:?}");
    assert_eq!(lines[lines.len() - 2], "");
    e.send("go perft x");
    e.starts("info string error: go perft");
    e.quit();
}

#[test]
fn a_damaged_book_is_refused_with_its_reason_and_the_previous_books_kept() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir.path().join("damaged.xqb");
    let (_book_dir, book) = write_test_book(true);
    let mut bytes = std::fs::read(book).unwrap();
    let n = bytes.len();
    bytes[n - 5] ^= 0x40; // inside the last entry's statistics
    std::fs::write(&damaged, &bytes).unwrap();
    // The library refuses it on opening.
    let Err(e) = chariot_formats::book::Book::open(&damaged) else {
        panic!("a damaged book opened");
    };
    let e = e.to_string();
    assert!(e.contains("damaged.xqb") && e.contains("checksum"), "{e}");
    assert!(chariot_formats::book::Book::open_unverified(&damaged).is_ok());
    // So does the engine, and it keeps playing from the books it had.
    let mut e = Engine::ucci();
    e.send(&format!("setoption bookfiles {}", damaged.display()));
    let line = e.starts("info string error: bookfiles");
    assert!(
        line.contains("checksum") && line.contains("previous books are kept"),
        "{line}"
    );
    e.send("position startpos");
    e.send("go depth 20");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info message book move ")),
        "the built-in book still answers: {lines:?}"
    );
    e.quit();
}

#[test]
fn damaged_tables_are_named_with_their_reason_and_the_others_used() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    let dir = tempfile::tempdir().unwrap();
    for name in ["KK.egtb", "KRK.egtb", "KCK.egtb", "KCAK.egtb"] {
        std::fs::copy(shipped.join(name), dir.path().join(name)).unwrap();
    }
    // A truncated table: skipped with its reason, the others still open.
    let kcak = dir.path().join("KCAK.egtb");
    let len = std::fs::metadata(&kcak).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&kcak)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    // A table with a damaged block: opens, and its probes fail.
    let krk = dir.path().join("KRK.egtb");
    let mut bytes = std::fs::read(&krk).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0xff;
    std::fs::write(&krk, &bytes).unwrap();

    let mut e = Engine::ucci();
    e.send(&format!("setoption egtbpaths {}", dir.path().display()));
    let lines = e.lines_until("info string 3 endgame tables found");
    let error = lines
        .iter()
        .find(|l| l.starts_with("info string error: egtbpaths"))
        .unwrap_or_else(|| panic!("no error line: {lines:?}"));
    assert!(
        error.contains("KCAK.egtb: "),
        "the file and a reason: {error}"
    );
    // A KCK position is answered by its (healthy) table.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/C3K4 w - - 0 1");
    e.send("go depth 3");
    e.starts("info string tablebase: draw");
    e.starts("bestmove");
    // A KRK position whose block is damaged: said once, then the engine searches and reports.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("tablebase: ")
            && l.contains("KRK.egtb")
            && l.contains("searching instead")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3")),
        "{lines:?}"
    );
    e.quit();
}

/// Analysis is not play: with MultiPV 3 (UCI) or `go infinite` (UCCI) the engine searches the
/// start position, which its book knows, and shows its lines; the book's moves are a note.
#[test]
fn analysis_searches_where_the_book_would_play() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 6");
    let lines = e.lines_until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string analysing, so searching; the book has ")),
        "{lines:?}"
    );
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 6 ") && l.contains(&format!(" multipv {k} "))),
            "no depth-6 line for multipv {k}: {lines:?}"
        );
    }
    // Back to one line: the engine plays from its book again.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 6");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string book move ")),
        "{lines:?}"
    );
    e.quit();

    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.starts("info depth 3 ");
    e.send("stop");
    let lines = e.lines_until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    e.quit();
}

#[test]
fn evalfile_loads_a_network_usennue_switches_to_the_hand_written_evaluation_and_empty_restores_the_built_in_network()
 {
    use chariot_eval::nnue::features::INPUTS;
    use chariot_eval::nnue::{Network, PsqNet};
    // A network that says 125 centipawns for the side to move whatever the position, so every
    // root move scores -125 (the quantisation's scale: QA 255 x QB 256 / 400).
    let hidden = 4;
    let flat: Network = PsqNet::from_parts(
        vec![0; INPUTS * hidden],
        vec![0; hidden],
        vec![0; 2 * hidden],
        vec![125 * 255 * 256 / 400],
    )
    .into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flat.nnue");
    chariot_eval::nnue::file::write(&path, &flat).unwrap();
    let mut e = Engine::uci();
    e.send("setoption name OwnBook value false");
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.starts("info string evaluating with the network");
    e.send("position startpos");
    // `eval` shows the network's verdict beside the hand-written terms.
    e.send("eval");
    e.send("isready");
    let lines = e.lines_until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l == "network evaluation (side to move): 125"),
        "{lines:?}"
    );
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 3") && l.contains("score cp -125")),
        "{lines:?}"
    );
    // A file that is not a network is refused and the network kept.
    let bad = dir.path().join("bad.nnue");
    std::fs::write(&bad, b"not a network").unwrap();
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    e.starts("info string error: evalfile");
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score cp -125")),
        "{lines:?}"
    );
    // Use NNUE false: the hand-written evaluation; true again: the file's network.
    e.send("setoption name Use NNUE value false");
    e.starts("info string evaluating with the hand-written evaluation");
    e.send("eval");
    e.send("isready");
    let lines = e.lines_until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("network evaluation")),
        "{lines:?}"
    );
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        !lines.iter().any(|l| l.contains("score cp -125")),
        "{lines:?}"
    );
    e.send("setoption name Use NNUE value true");
    e.starts("info string evaluating with the network of evalfile");
    // Empty: the built-in network again.
    e.send("setoption name EvalFile value <empty>");
    e.starts("info string evaluating with the built-in network");
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        !lines.iter().any(|l| l.contains("score cp -125")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn evalfile_loads_a_network_with_output_buckets_and_reads_each_position_by_its_bucket() {
    use chariot_eval::nnue::features::INPUTS;
    use chariot_eval::nnue::{Network, PsqNet};
    // Two buckets: up to 17 pieces the network says -300 centipawns for the side to move,
    // from 18 pieces on 125 (the quantisation's scale: QA 255 x QB 256 / 400).
    let hidden = 4;
    let cp = |v: i32| v * 255 * 256 / 400;
    let net: Network = PsqNet::from_parts(
        vec![0; INPUTS * hidden],
        vec![0; hidden],
        vec![0; 2 * 2 * hidden],
        vec![cp(-300), cp(125)],
    )
    .into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("buckets.nnue");
    chariot_eval::nnue::file::write(&path, &net).unwrap();
    plays_with_two_buckets(&path, "(4 neurons a side, 2 output buckets)");
}

/// Loads the network at `path` (two output buckets: -300 centipawns for the side to move up to
/// 17 pieces, 125 from 18 on) by `EvalFile`, checks that the engine `described` it so, that
/// `eval` gives each bucket's value, and that a search from the start reports it.
fn plays_with_two_buckets(path: &std::path::Path, described: &str) {
    let mut e = Engine::uci();
    e.send("setoption name OwnBook value false");
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let said = e.starts("info string evaluating with the network of evalfile");
    assert!(said.ends_with(described), "{said}");
    let evaluation = |e: &mut Engine, position: &str| {
        e.send(position);
        e.send("eval");
        e.send("isready");
        let lines = e.lines_until("readyok");
        lines
            .into_iter()
            .find_map(|l| {
                l.strip_prefix("network evaluation (side to move): ")
                    .map(str::to_owned)
            })
            .unwrap_or_default()
    };
    assert_eq!(evaluation(&mut e, "position startpos"), "125");
    assert_eq!(
        evaluation(&mut e, "position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1"),
        "-300"
    );
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 3") && l.contains("score cp -125")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn evalfile_loads_a_king_bucketed_network() {
    use chariot_eval::nnue::king::{HIDDEN1, HIDDEN2, KingNet, KingParts};
    use chariot_eval::nnue::king_features::INPUTS;
    // A version 3 network of two output buckets: up to 17 pieces it says -300 centipawns for
    // the side to move, from 18 pieces on 125 (the output scale: QA 127 x QO 256 / 400).
    let (h, b) = (32, 2);
    let cp = |v: i32| v * 127 * 256 / 400;
    let net = KingNet::from_parts(KingParts {
        w1: vec![0; INPUTS * h],
        b1: vec![0; h],
        w2: vec![0; b * HIDDEN1 * h],
        b2: vec![0; b * HIDDEN1],
        w3: vec![0; b * HIDDEN2 * HIDDEN1],
        b3: vec![0; b * HIDDEN2],
        w4: vec![0; b * HIDDEN2],
        b4: vec![cp(-300), cp(125)],
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("king.nnue");
    chariot_eval::nnue::file::write(&path, &net.into()).unwrap();
    plays_with_two_buckets(
        &path,
        "(king-bucketed, 32 neurons a side, 2 output buckets)",
    );
}

/// The `option` lines of a handshake as (name, type, the value UCI2WB gives XBoard as the
/// default): for a combo the first `var` (UCI2WB cuts the line at ` default ` before it reads the
/// choices, so no choice is marked and XBoard takes the first), for the others `default`.
fn uci2wb_defaults(lines: &[String]) -> Vec<(String, String, String)> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("option "))
        .map(|l| {
            let l = l.strip_prefix("name ").unwrap_or(l);
            let (name, decl) = l.split_once(" type ").expect("a type");
            let kind = decl.split_whitespace().next().unwrap().to_owned();
            let value = if kind == "combo" {
                decl.split(" var ")
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .next()
                    .unwrap()
            } else {
                decl.split_once("default ").map_or("", |(_, v)| v).trim()
            };
            (name.to_owned(), kind, value.to_owned())
        })
        .collect()
}

/// The depth, score, nodes and line of each iteration of `go depth 5` from a position no book
/// knows: equal lists mean equal settings (the search is deterministic with one thread and no
/// randomness).
fn search_signature(e: &mut Engine, uci: bool) -> Vec<String> {
    e.send("position fen 2bakab2/9/1cn3nc1/p3p3p/2p3p2/9/P1P1P1P1P/1C2B1NC1/4A4/2BAK4 w - - 0 1");
    e.send("go depth 5");
    let lines = e.lines_until("bestmove");
    let keep = |l: &String| {
        let w: Vec<&str> = l.split_whitespace().collect();
        let field = |k: &str| {
            let i = w.iter().position(|x| *x == k)?;
            Some(
                w[i + 1..]
                    .iter()
                    .take(if k == "pv" { 99 } else { 1 })
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        };
        let score = if uci {
            w.iter()
                .position(|x| *x == "score")
                .map(|i| w[i + 1..i + 3].join(" "))
        } else {
            field("score")
        };
        Some(format!(
            "{:?} {:?} {:?} {:?}",
            field("depth")?,
            score?,
            field("nodes")?,
            field("pv")?
        ))
    };
    let mut sig: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(keep)
        .collect();
    sig.push(lines.last().unwrap().clone());
    sig
}

#[test]
fn uci2wb_echoing_the_advertised_options_keeps_the_defaults() {
    for uci in [false, true] {
        let hello = if uci { "uci" } else { "ucci" };
        let mut fresh = Engine::start();
        fresh.send(hello);
        fresh.starts(&format!("{hello}ok"));
        let expected = search_signature(&mut fresh, uci);
        fresh.quit();

        let mut e = Engine::start();
        e.send(hello);
        let lines = e.lines_until(&format!("{hello}ok"));
        let options = uci2wb_defaults(&lines);
        assert!(options.len() > 10, "{lines:?}");
        for (name, kind, value) in options {
            // Buttons are commands, not settings; UCI2WB keeps UCI_Variant to itself.
            if kind == "button" || name == "UCI_Variant" {
                continue;
            }
            e.send(&if uci {
                format!("setoption name {name} value {value}")
            } else {
                format!("setoption {name} {value}")
            });
        }
        e.send("isready");
        e.starts("readyok");
        assert_eq!(
            search_signature(&mut e, uci),
            expected,
            "{hello}: {}",
            e.transcript.join("\n")
        );
        e.quit();
    }
}

#[test]
fn no_legal_move_answers_as_pikafish_in_uci_and_nobestmove_in_ucci() {
    // Checkmated: rooks on a9 and b8 and the red general on the d-file leave no square.
    let mated = "position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1";
    let mut e = Engine::uci();
    e.send(mated);
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    assert_eq!(
        lines[lines.len() - 2..],
        ["info depth 0 score mate 0", "bestmove (none)"],
        "{lines:?}"
    );
    // A go depth 0 has moves but plays none: no mate score, still no move.
    e.send("position startpos");
    e.send("go depth 0");
    let lines = e.lines_until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("mate")), "{lines:?}");
    e.quit();
    let mut e = Engine::ucci();
    e.send(mated);
    e.send("go depth 3");
    let lines = e.lines_until("nobestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.quit();
}

#[test]
fn every_go_is_answered_unknown_words_are_skipped_and_ucci_reads_movetime() {
    let after_h2e2 = || {
        let mut pos = Position::start();
        pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
        pos
    };
    // UCCI through UCI2WB with XBoard's -st: 'movetime' in the unit of 'time' (milliseconds
    // here, after usemillisec), a search of 300 ms, not 300 s (which would outlast PATIENCE).
    let mut e = Engine::ucci();
    e.send("setoption usebook false");
    e.send("position startpos moves h2e2");
    e.send("go time 60000 opptime 60000 movetime 300");
    assert!(after_h2e2().is_legal(bestmove_of(&e.starts("bestmove"))));
    e.send("go depth 2 frobnicate 7");
    e.starts("info string go: ignored");
    assert!(after_h2e2().is_legal(bestmove_of(&e.starts("bestmove"))));
    // A go that cannot be read is still answered, with the reason.
    e.send("go depth x");
    let lines = e.lines_until("nobestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: go")),
        "{lines:?}"
    );
    e.quit();

    // UCI through UCI2WB with byoyomi on: 'byoyomi 0' is skipped.
    let mut e = Engine::uci();
    e.send("setoption name OwnBook value false");
    e.send("position startpos moves h2e2");
    e.send("go wtime 60000 btime 60000 byoyomi 0");
    assert!(after_h2e2().is_legal(bestmove_of(&e.starts("bestmove"))));
    // Rejected by the session (an illegal searchmove) or the parser: still answered.
    for go in ["go depth 2 searchmoves a0a5", "go depth two"] {
        e.send(go);
        let lines = e.lines_until("bestmove");
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{go}: {lines:?}");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: go")),
            "{lines:?}"
        );
    }
    e.quit();
}

#[test]
fn bare_fen_and_startpos_lines_set_the_position() {
    // UCI2WB's UCI ("Cyclone") dialect: 'fen FEN moves ...' without 'position', its FEN with 'r'
    // for Red and nothing after, and ' moves' even when no move follows.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
    for uci in [true, false] {
        let mut e = if uci { Engine::uci() } else { Engine::ucci() };
        e.send(&format!("fen {fen} moves h2e2"));
        e.send("go depth 2");
        let mut pos = Position::start();
        pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
        let lines = e.lines_until("bestmove");
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert!(pos.is_legal(bestmove_of(lines.last().unwrap())));
        // Older Pikafish GUIs: 'startpos moves ...'.
        e.send("startpos moves h2e2 h9g7");
        e.send("go depth 2");
        pos.make_move(chariot_rules::notation::parse_iccs("h9g7").unwrap());
        assert!(pos.is_legal(bestmove_of(&e.starts("bestmove"))));
        e.send(&format!("fen {fen} moves"));
        e.send("go depth 2");
        assert!(Position::start().is_legal(bestmove_of(&e.starts("bestmove"))));
        e.quit();
    }
}

#[test]
fn cchess_stop_before_go_and_uci_style_setoption_in_ucci() {
    // PyPI cchess in UCCI: 'setoption name X value Y', and 'stop' before every go.
    let mut e = Engine::ucci();
    e.send("setoption name usennue value false");
    e.send("isready");
    let lines = e.lines_until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string evaluating with")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("not supported")),
        "{lines:?}"
    );
    e.send("setoption name Clear Hash");
    e.send("stop");
    // Idle: one nobestmove, as UCCI 3.0 recommends (cchess reads it away after its stop).
    let lines = e.lines_until("nobestmove");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    let mut pos = Position::start();
    pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
    assert!(pos.is_legal(bestmove_of(&e.starts("bestmove"))));
    e.quit();
    // UCI: a stop with nothing running is ignored silently.
    let mut e = Engine::uci();
    e.send("stop");
    e.send("isready");
    let lines = e.lines_until("readyok");
    assert!(!lines.iter().any(|l| l.contains("bestmove")), "{lines:?}");
    e.quit();
}

#[test]
fn a_win_by_the_opponents_forbidden_perpetual_is_no_mate_score() {
    // Red checks from a9 and a8 while Black's general steps d9-d8-d9: Black's d9d8 completes
    // the repetition in which Red checked every move, so Red loses by the rule. The move is no
    // check and no mate: GUIs (UCI2WB turns `mate 1` into a won game) must not be told mate.
    let mut e = Engine::uci();
    e.send("setoption name UseEGTB value false");
    e.send("position fen 3k5/9/9/8p/9/9/8P/9/9/R3K4 w - - 0 1 moves a0a9 d9d8 a9a8 d8d9 a8a9");
    e.send("go depth 4");
    let lines = e.lines_until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove d9d8", "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("score mate")), "{lines:?}");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score cp "))
        .unwrap();
    let cp: i32 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "cp")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        cp > 20_000,
        "a win, scored above every evaluation: {last_info}"
    );
    e.quit();
}

#[test]
fn debug_echoes_each_command_read_until_it_is_turned_off() {
    let echoes = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("info string debug: "))
            .cloned()
            .collect()
    };
    // UCCI: `setoption debug true`.
    let mut e = Engine::ucci();
    e.send("isready");
    assert!(echoes(&e.lines_until("readyok")).is_empty());
    e.send("setoption debug true");
    e.send("isready");
    assert_eq!(
        echoes(&e.lines_until("readyok")),
        ["info string debug: isready"]
    );
    // Each line is echoed before it runs, also a bad one, which then gets its error.
    e.send("frobnicate now");
    let lines = e.lines_until("info string error");
    assert_eq!(lines[0], "info string debug: frobnicate now", "{lines:?}");
    e.send("setoption debug false");
    e.send("isready");
    let lines = e.lines_until("readyok");
    assert_eq!(
        echoes(&lines),
        ["info string debug: setoption debug false"],
        "the line that turns it off is the last echoed"
    );
    e.quit();
    // UCI: `debug on` / `debug off`.
    let mut e = Engine::uci();
    e.send("debug on");
    e.send("position startpos moves h2e2");
    e.send("isready");
    assert_eq!(
        echoes(&e.lines_until("readyok")),
        [
            "info string debug: position startpos moves h2e2",
            "info string debug: isready"
        ]
    );
    e.send("debug off");
    e.send("isready");
    assert_eq!(
        echoes(&e.lines_until("readyok")),
        ["info string debug: debug off"]
    );
    e.quit();
}
