//! One game through the Board with scripted fake agents: every rule of the contest that ends
//! or continues a game, the words the Board says, and its PGN.

mod common;

use std::time::{Duration, Instant};

use chess_board::game::{self, GameConfig, Reason};
use chess_board::words::{Encoding, Protocol, Words};
use common::{fake_cmd, fake_logged};
use shakmaty::{Color, Position};

/// The contest's defaults but 30 s a side, so that a broken test fails rather than waits ten
/// minutes.
fn cfg(white: &str, black: &str) -> GameConfig {
    GameConfig {
        time: Duration::from_secs(30),
        ..GameConfig::new(white, black)
    }
}

fn play(white: &str, black: &str) -> game::GameRecord {
    game::play(&cfg(&fake_cmd(white), &fake_cmd(black))).unwrap()
}

fn sans(record: &game::GameRecord) -> Vec<String> {
    record.moves.iter().map(|m| m.san.to_string()).collect()
}

#[test]
fn fools_mate_wins_for_black_and_the_board_speaks_chinese() {
    let dir = tempfile::tempdir().unwrap();
    let (wlog, blog) = (dir.path().join("w"), dir.path().join("b"));
    let config = cfg(&fake_logged(&wlog, "f3 g4"), &fake_logged(&blog, "e5 Qh4"));
    let record = game::play(&config).unwrap();
    assert_eq!(record.ending.winner, Some(Color::Black));
    assert_eq!(record.ending.reason, Reason::Checkmate);
    assert_eq!(record.ending.result(), "0-1");
    assert_eq!(sans(&record), ["f3", "e5", "g4", "Qh4#"]);
    // The colour words, then the opponent's moves in standard SAN; the game ends at the mate.
    assert_eq!(std::fs::read_to_string(&wlog).unwrap(), "先手\ne5\n");
    assert_eq!(std::fs::read_to_string(&blog).unwrap(), "后手\nf3\ng4\n");
}

#[test]
fn three_illegal_tries_in_a_row_lose() {
    let dir = tempfile::tempdir().unwrap();
    let wlog = dir.path().join("w");
    let config = cfg(&fake_logged(&wlog, "e5 Ke2 xyz e4"), &fake_cmd("e5"));
    let record = game::play(&config).unwrap();
    assert_eq!(record.ending.winner, Some(Color::Black));
    assert_eq!(record.ending.reason, Reason::IllegalMove);
    assert!(record.moves.is_empty());
    assert_eq!(record.final_rejected, ["e5", "Ke2", "xyz"]);
    // Two retry signals; the third rejected try ends the game.
    assert_eq!(
        std::fs::read_to_string(&wlog).unwrap(),
        "先手\n重走\n重走\n"
    );
}

#[test]
fn a_retry_then_a_legal_move_continues_the_game() {
    // White: an illegal move, a blank line (ignored), then e4; later Nf3 and a crash.
    let record = play("e5 @blank e4 Nf3 @crash", "Nc6 d5 Nf6");
    assert_eq!(sans(&record), ["e4", "Nc6", "Nf3", "d5"]);
    assert_eq!(record.moves[0].rejected, ["e5"]);
    assert_eq!(record.moves[0].text, "e4");
    assert!(record.moves[1].rejected.is_empty());
    assert_eq!(record.ending.reason, Reason::Crash);
    assert_eq!(record.ending.winner, Some(Color::Black));
    // Two tries rejected, then legal: the count starts again at the next move.
    let record = play("e5 e5 e4 Nf3 @crash", "Nc6 Ke7 Ke7 e5");
    assert_eq!(sans(&record), ["e4", "Nc6", "Nf3", "e5"]);
    assert_eq!(record.moves[3].rejected, ["Ke7", "Ke7"]);
}

#[test]
fn tolerant_move_text_is_accepted_and_passed_on_as_standard_san() {
    let dir = tempfile::tempdir().unwrap();
    let blog = dir.path().join("b");
    let config = cfg(
        &fake_cmd("e2e4 Ng1f3 Bf1-c4 0-0"),
        &fake_logged(&blog, "e5 Nc6 Nf6 @crash"),
    );
    let record = game::play(&config).unwrap();
    assert_eq!(
        sans(&record),
        ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"]
    );
    assert_eq!(
        std::fs::read_to_string(&blog).unwrap(),
        "后手\ne4\nNf3\nBc4\nO-O\n"
    );
}

#[test]
fn lines_nobody_asked_for_are_ignored() {
    // White writes e4 and at once d4 as well: the d4 is thrown away before White is sent
    // Black's reply, so White's second move is the Nf3 it writes after reading e5.
    let record = play("@say:e4 d4 Nf3 @crash", "@sleep:100 e5 Nc6");
    assert_eq!(sans(&record), ["e4", "e5", "Nf3", "Nc6"]);
    assert!(record.moves.iter().all(|m| m.rejected.is_empty()));
}

#[test]
fn a_crash_loses() {
    let record = play("e4", "@crash");
    assert_eq!(record.ending.winner, Some(Color::White));
    assert_eq!(record.ending.reason, Reason::Crash);
    assert!(
        record.ending.detail.contains("exit code 3"),
        "{:?}",
        record.ending
    );
    // An agent that cannot even start loses too.
    let config = cfg("/nonexistent/agent --flag", &fake_cmd("e5"));
    let record = game::play(&config).unwrap();
    assert_eq!(record.ending.winner, Some(Color::Black));
    assert_eq!(record.ending.reason, Reason::Crash);
    assert!(record.ending.detail.contains("could not be started"));
}

#[test]
fn silence_loses_on_time_and_nothing_hangs() {
    for silent in ["@hang", "@mute", "@sleep:2000 e5"] {
        let config = GameConfig {
            time: Duration::from_millis(400),
            ..cfg(&fake_cmd("e4"), &fake_cmd(silent))
        };
        let started = Instant::now();
        let record = game::play(&config).unwrap();
        assert_eq!(record.ending.winner, Some(Color::White), "{silent}");
        assert_eq!(record.ending.reason, Reason::Time, "{silent}");
        assert!((record.used[1] - 0.4).abs() < 1e-6, "{:?}", record.used);
        // The agent that never reads is killed, not waited for.
        assert!(started.elapsed() < Duration::from_secs(2), "{silent}");
    }
}

#[test]
fn the_clock_counts_the_whole_game() {
    // Black thinks 150 ms a move: three moves fit into 0.5 s, the fourth does not.
    let config = GameConfig {
        time: Duration::from_millis(500),
        ..cfg(
            &fake_cmd("Nf3 Ng1 Nf3 Ng1 Nf3"),
            &fake_cmd("@sleep:150 Nf6 @sleep:150 Ng8 @sleep:150 Nf6 @sleep:150 Ng8"),
        )
    };
    let record = game::play(&config).unwrap();
    assert_eq!(record.ending.reason, Reason::Time);
    assert_eq!(record.ending.winner, Some(Color::White));
    assert_eq!(record.moves.len(), 7);
    assert!(record.moves[1].seconds >= 0.15);
}

#[test]
fn stalemate_draws() {
    // Sam Loyd's ten-move stalemate.
    let record = play(
        "e3 Qh5 Qxa5 h4 Qxc7 Qxd7+ Qxb7 Qxb8 Qxc8 Qe6",
        "a5 Ra6 h5 Rah6 f6 Kf7 Qd3 Qh7 Kg6",
    );
    assert_eq!(record.moves.len(), 19);
    assert_eq!(record.ending.reason, Reason::Stalemate);
    assert_eq!(record.ending.winner, None);
    assert_eq!(record.ending.result(), "1/2-1/2");
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_draw() {
    let config = GameConfig {
        fen: Some("7k/8/8/8/8/8/8/R3K3 w - - 98 80".to_owned()),
        ..cfg(&fake_cmd("Kd2 Kd3"), &fake_cmd("Kg8 Kh8"))
    };
    let record = game::play(&config).unwrap();
    assert_eq!(record.moves.len(), 2);
    assert_eq!(record.ending.reason, Reason::FiftyMoves);
    assert_eq!(record.ending.winner, None);
    // Mate on the hundredth half-move is still mate.
    let config = GameConfig {
        fen: Some("7k/8/6K1/8/8/8/8/R7 w - - 99 80".to_owned()),
        ..cfg(&fake_cmd("Ra8"), &fake_cmd(""))
    };
    let record = game::play(&config).unwrap();
    assert_eq!(record.ending.reason, Reason::Checkmate);
    assert_eq!(record.ending.winner, Some(Color::White));
    // A capture resets the count: Rxa8 at 99 half-moves, then more moves are played.
    let config = GameConfig {
        fen: Some("r6k/8/8/8/8/8/8/R3K3 w - - 99 80".to_owned()),
        ..cfg(&fake_cmd("Rxa8+ @crash"), &fake_cmd("Kh7"))
    };
    let record = game::play(&config).unwrap();
    assert_eq!(record.moves.len(), 2);
    assert_eq!(record.ending.reason, Reason::Crash);
}

#[test]
fn a_finished_or_bad_start_position() {
    let config = GameConfig {
        fen: Some("7k/5KQ1/8/8/8/8/8/8 b - - 0 1".to_owned()),
        ..cfg(&fake_cmd(""), &fake_cmd(""))
    };
    let record = game::play(&config).unwrap();
    assert_eq!(record.ending.reason, Reason::Checkmate);
    assert!(record.moves.is_empty());
    let config = GameConfig {
        fen: Some("not a fen".to_owned()),
        ..cfg(&fake_cmd(""), &fake_cmd(""))
    };
    assert!(game::play(&config).is_err());
}

#[test]
fn gbk_and_english_words() {
    let dir = tempfile::tempdir().unwrap();
    for (protocol, expected) in [
        (
            Protocol {
                words: Words::Chinese,
                encoding: Encoding::Gbk,
            },
            b"\xcf\xc8\xca\xd6\n\xd6\xd8\xd7\xdf\n".to_vec(),
        ),
        (
            Protocol {
                words: Words::English,
                encoding: Encoding::Utf8,
            },
            b"white\nredo\n".to_vec(),
        ),
    ] {
        let log = dir
            .path()
            .join(format!("{:?}-{:?}", protocol.words, protocol.encoding));
        let config = GameConfig {
            protocol,
            ..cfg(&fake_logged(&log, "e5 e4 @crash"), &fake_cmd("e5"))
        };
        let record = game::play(&config).unwrap();
        assert_eq!(sans(&record), ["e4", "e5"]);
        let mut seen = std::fs::read(&log).unwrap();
        // The log also holds Black's reply after the retry.
        seen.truncate(expected.len());
        assert_eq!(seen, expected);
    }
}

#[test]
fn the_pgn_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    for _ in 0..2 {
        let out = std::process::Command::new(common::board())
            .args([
                "game",
                "--white",
                &fake_cmd("e4 Qh5 Bc4 Qf7 Qxf7#"),
                "--black",
            ])
            .arg(fake_cmd("e5 Nc6 Nf6"))
            .args(["--white-name", "Scholar", "--black-name", "Victim", "--pgn"])
            .arg(&pgn)
            .output()
            .unwrap();
        assert!(out.status.success());
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.starts_with("1-0 White mates (7 plies"), "{stdout}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Appended: two games.
    assert_eq!(text.matches("[Event ").count(), 2);
    let first = text.split("\n\n[Event").next().unwrap();
    for tag in [
        "[Event \"AI chess contest\"]\n[Site \"?\"]\n[Date \"",
        "[Round \"-\"]\n[White \"Scholar\"]\n[Black \"Victim\"]\n[Result \"1-0\"]\n",
        "[TimeControl \"600\"]\n[Termination \"normal\"]\n[PlyCount \"7\"]\n\n",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {White mates} 1-0",
    ] {
        assert!(first.contains(tag), "{tag:?} not in {first}");
    }
    let (pos, result, plies) = common::replay(first);
    assert!(pos.is_checkmate());
    assert_eq!((result.as_str(), plies), ("1-0", 7));

    // Rejected tries are comments; a bad argument exits 2, a bad FEN 1.
    let out = std::process::Command::new(common::board())
        .args(["game", "--white", &fake_cmd("e5 e4 @crash"), "--black"])
        .arg(fake_cmd("e5"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("1. e4 {rejected: \"e5\"} e5"), "{stdout}");
    assert!(stdout.contains("[Termination \"abandoned\"]"), "{stdout}");
    assert!(stdout.contains("White crashed (exit code 3)"), "{stdout}");
    let (_, result, _) = common::replay(&stdout);
    assert_eq!(result, "0-1");
    let status = std::process::Command::new(common::board())
        .args(["game", "--white", "x"])
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(2));
    let status = std::process::Command::new(common::board())
        .args(["game", "--white", "x", "--black", "y", "--fen", "bad"])
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(1));
}

#[test]
fn chess_agent_against_itself() {
    let Some(agent) = common::chess_agent() else {
        return;
    };
    // The agents believe they have 3 s, the Board gives them 6 s: on a busy machine a debug
    // build's bookkeeping differs from the Board's by a few milliseconds a move.
    let cmd = format!("{} --time 3", agent.display());
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("selfplay.pgn");
    let out = std::process::Command::new(common::board())
        .args([
            "game", "--time", "6", "--white", &cmd, "--black", &cmd, "--pgn",
        ])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success());
    let summary = String::from_utf8(out.stdout).unwrap();
    eprintln!("chess-agent vs chess-agent: {summary}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let (pos, result, plies) = common::replay(&text);
    assert!(plies > 0);
    assert!(
        !summary.contains("crashed") && !summary.contains("illegal"),
        "{summary}"
    );
    let expected = if pos.is_checkmate() {
        if pos.turn() == Color::White {
            "0-1"
        } else {
            "1-0"
        }
    } else if pos.is_stalemate() || pos.halfmoves() >= 100 {
        "1/2-1/2"
    } else {
        // Only a loss on time can end the game elsewhere.
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
        &result
    };
    assert_eq!(result, expected, "{text}");
}
