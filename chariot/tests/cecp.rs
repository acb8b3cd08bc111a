//! Transcript tests of CECP, XBoard's protocol, run against the real `chariot` binary over pipes.
//!
//! The lines sent are what XBoard 4.9.1 sends (recorded with `-debugMode true` in a two-machine
//! game of Chariot against itself under Xvfb, `scripts/xboard-tests.sh`), and each test waits for
//! the replies the CECP specification asks for. The waits detect hangs; they measure no speed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use chariot_rules::notation::parse_iccs;
use chariot_rules::{Move, MoveList, Position};

const PATIENCE: Duration = Duration::from_secs(30);

/// The engine over pipes, with everything sent and read kept for failure messages.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    /// Starts the engine and makes it speak CECP: `xboard`, `protover 2`, and the features'
    /// acceptance, up to `feature done=1`. Returns the engine and the feature lines.
    fn xboard() -> (Engine, Vec<String>) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the chariot binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut e = Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        };
        e.send("xboard");
        e.send("protover 2");
        let features = e.lines_until("feature done=1");
        for accepted in [
            "setboard",
            "usermove",
            "time",
            "draw",
            "ping",
            "playother",
            "analyze",
            "sigint",
            "sigterm",
            "colors",
            "reuse",
            "san",
            "memory",
            "smp",
            "debug",
            "nps",
            "pause",
            "myname",
            "variants",
            "option",
            "done",
        ] {
            e.send(&format!("accepted {accepted}"));
        }
        (e, features)
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `pred`; returns it (panics with the transcript on timeout).
    fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no {what} within {PATIENCE:?}:\n{}",
                    self.transcript.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "engine closed output before {what}:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    fn starts(&mut self, prefix: &str) -> String {
        let p = prefix.to_owned();
        self.until(prefix, move |l| l.starts_with(&p))
    }

    /// Reads every line up to and including the first starting with `prefix`.
    fn lines_until(&mut self, prefix: &str) -> Vec<String> {
        let start = self.transcript.len();
        self.starts(prefix);
        self.transcript[start..]
            .iter()
            .filter_map(|l| l.strip_prefix("< ").map(str::to_owned))
            .collect()
    }

    /// Sends `ping n` and returns every line read up to its `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        self.lines_until(&format!("pong {n}"))
    }

    /// The engine's next move (the text after `move `).
    fn next_move(&mut self) -> String {
        self.starts("move ")["move ".len()..].to_owned()
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!(
            "engine did not exit after quit:\n{}",
            self.transcript.join("\n")
        );
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What XBoard 4.9.1 sends the first engine of a two-machine game after the handshake, up to
/// its first `go` (from the `-debugMode` log of `scripts/xboard-tests.sh`: `-tc 0:10 -inc 0.2
/// -firstOptions "Move Overhead=200"`; XBoard sets the game up twice, at start-up and for the
/// game), with the `pong` each `ping` waits for.
const XBOARD_GAME_START: [(&str, Option<&str>); 24] = [
    ("option Move Overhead=200", None),
    ("memory 68", None),
    ("cores 1", None),
    ("new", None),
    ("random", None),
    ("variant xiangqi", None),
    ("level 0 0:10 0.2", None),
    ("post", None),
    ("hard", None),
    ("ping 1", Some("pong 1")),
    ("force", None),
    ("ping 2", Some("pong 2")),
    ("memory 68", None),
    ("cores 1", None),
    ("new", None),
    ("random", None),
    ("variant xiangqi", None),
    ("level 0 0:10 0.2", None),
    ("post", None),
    ("hard", None),
    ("ping 3", Some("pong 3")),
    ("force", None),
    ("computer", None),
    ("time 1000", None),
];

/// Plays `moves` (ICCS) from the start position.
fn position_after(moves: &[String]) -> Position {
    let mut pos = Position::start();
    for m in moves {
        let mv: Move = parse_iccs(m).expect("an ICCS move");
        assert!(pos.is_legal(mv), "{m} is legal in {}", pos.fen());
        pos.make_move(mv);
    }
    pos
}

/// Thinking output: `ply score time nodes ...`, four numbers first.
fn is_thinking(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() > 4 && words[..4].iter().all(|w| w.parse::<i64>().is_ok())
}

#[test]
fn the_handshake_lists_features_and_options_from_the_registry() {
    let (mut e, features) = Engine::xboard();
    let first = &features[0];
    for feature in [
        "myname=\"Chariot ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "reuse=1",
        "memory=1",
        "smp=1",
        "debug=1",
    ] {
        assert!(first.contains(feature), "{feature}: {first}");
    }
    let option = |o: &str| {
        features
            .iter()
            .any(|l| l == &format!("feature option=\"{o}\""))
    };
    assert!(option("Style -combo solid /// *normal /// risky"));
    assert!(option("OwnBook -check 1"));
    assert!(option("MultiPV -spin 1 1 64"));
    assert!(option("Clear Hash -button"));
    // The hash size and the threads come as `memory` and `cores`, pondering as `hard`/`easy`.
    assert!(!features.iter().any(|l| l.contains("option=\"Hash ")
        || l.contains("option=\"Threads ")
        || l.contains("option=\"Ponder ")));
    let lines = e.sync(7);
    assert_eq!(lines.last().map(String::as_str), Some("pong 7"));
    e.quit();
}

#[test]
fn a_game_as_xboard_plays_it_with_pondering_and_ponder_hits() {
    let (mut e, _) = Engine::xboard();
    for (line, answer) in XBOARD_GAME_START {
        e.send(line);
        if let Some(answer) = answer {
            let lines = e.lines_until(answer);
            let said: Vec<&String> = lines.iter().filter(|l| !l.starts_with('#')).collect();
            assert_eq!(said, [answer], "nothing but the pong (and # notes)");
        }
    }
    // Chariot plays Red, as the first engine of a two-machine game.
    e.send("otim 1000");
    e.send("go");
    let mut moves = vec![e.next_move()];
    let mut hits = 0;
    for _ in 0..4 {
        let pos = position_after(&moves);
        // The engine ponders on the reply it expects, and says which.
        let hint = e.starts("Hint: ")["Hint: ".len()..].to_owned();
        let hinted = parse_iccs(&hint).expect("an ICCS hint");
        assert!(pos.is_legal(hinted), "{hint} in {}", pos.fen());
        // Alternately play the expected reply (a ponder hit) and another one.
        let reply = if moves.len() % 4 == 1 {
            hits += 1;
            hint
        } else {
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let other = legal
                .iter()
                .copied()
                .find(|&m| m != hinted)
                .expect("another legal move");
            other.to_string()
        };
        moves.push(reply.clone());
        e.send("time 950");
        e.send("otim 990");
        e.send(&format!("usermove {reply}"));
        let answer = e.next_move();
        let pos = position_after(&moves);
        assert!(
            pos.is_legal(parse_iccs(&answer).unwrap()),
            "{answer} in {}:\n{}",
            pos.fen(),
            e.transcript.join("\n")
        );
        moves.push(answer);
    }
    assert_eq!(hits, 2);
    // The end of a game as XBoard ends it.
    e.send("result 1/2-1/2 {XBoard adjudication: repetition draw}");
    e.send("force");
    let lines = e.sync(2);
    assert!(
        !lines.iter().any(|l| l.starts_with("move ")),
        "no move after the game: {lines:?}"
    );
    e.quit();
}

#[test]
fn thinking_output_is_in_centipawns_and_centiseconds_while_post_is_on() {
    let (mut e, _) = Engine::xboard();
    e.send("new");
    e.send("option OwnBook=0");
    e.send("post");
    e.send("sd 4");
    e.send("go");
    let lines = e.lines_until("move ");
    let thinking: Vec<&String> = lines.iter().filter(|l| is_thinking(l)).collect();
    assert!(
        thinking
            .iter()
            .any(|l| l.starts_with("4 ") && l.contains('\t')),
        "{lines:?}"
    );
    // The PV after the tab is moves.
    let pv = thinking.last().unwrap().split('\t').nth(1).unwrap();
    assert!(
        pv.split_whitespace()
            .all(|m| parse_iccs(m.trim_end_matches(['?', '!'])).is_ok()),
        "{pv}"
    );
    // `nopost`: the next search writes no thinking lines.
    e.send("nopost");
    e.send("force");
    e.send("new");
    e.send("go");
    let lines = e.lines_until("move ");
    assert!(!lines.iter().any(|l| is_thinking(l)), "{lines:?}");
    e.quit();
}

#[test]
fn illegal_moves_unknown_commands_and_bad_positions_are_answered_in_cecps_words() {
    let (mut e, _) = Engine::xboard();
    e.send("new");
    e.send("force");
    e.send("usermove a0a5");
    e.starts("Illegal move: a0a5");
    e.send("usermove x");
    e.starts("Illegal move: x");
    e.send("frobnicate");
    e.starts("Error (unknown command): frobnicate");
    e.send("undo");
    e.starts("Error (command not legal now): undo");
    e.send("variant shogi");
    e.starts("Error (only xiangqi is played): variant shogi");
    // A position the rules refuse: said to the user, and moves are refused until a valid one.
    e.send("setboard 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    let line = e.starts("tellusererror Illegal position");
    assert!(line.contains("4k4/9/9"), "{line}");
    e.send("usermove e0e1");
    e.starts("Illegal move (no valid position; send new or setboard): e0e1");
    // XBoard's own letters: H for the horse, E for the elephant.
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    e.send("usermove b0c2");
    e.send("usermove b9c7");
    e.send("undo");
    e.send("usermove h9g7");
    e.send("remove");
    let lines = e.sync(3);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
        "{lines:?}"
    );
    // After `remove` no move is left to take back.
    e.send("undo");
    e.starts("Error (command not legal now): undo");
    e.quit();
}

#[test]
fn mates_stalemates_and_forbidden_perpetuals_are_claimed_by_the_asian_rules() {
    let (mut e, _) = Engine::xboard();
    e.send("new");
    e.send("force");
    // Red wins in one (e1d1 mates, e1e8 leaves Black without a move) and says so after it.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    e.send(&format!("setboard {fen}"));
    e.send("sd 4");
    e.send("go");
    let mv = e.next_move();
    let claim = e.starts("1-0 {");
    let mut pos = Position::from_fen(fen).unwrap();
    pos.make_move(parse_iccs(&mv).unwrap());
    assert!(!pos.has_legal_move(), "{mv}");
    let expected = if pos.in_check() {
        "1-0 {Red mates}"
    } else {
        "1-0 {Black is stalemated (no legal move)}"
    };
    assert_eq!(claim, expected);
    // Black, to move, has no move and is not in check: a stalemate, which Black loses.
    e.send("force");
    e.send("setboard 3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go");
    e.starts("1-0 {Black is stalemated (no legal move)}");
    // Red checks with every move while Black's general steps back and forth; Red's move that
    // brings the position a third time loses (Chariot plays Black, the side not on move).
    e.send("force");
    e.send("setboard 3k5/9/9/8p/9/9/8P/9/9/R3K4 w - - 0 1");
    for m in [
        "a0a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9",
    ] {
        e.send(&format!("usermove {m}"));
    }
    e.send("playother");
    e.send("usermove a8a9");
    let lines = e.lines_until("0-1 {");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("0-1 {Red loses by perpetual check}")
    );
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    e.quit();
}

#[test]
fn draws_are_offered_and_lost_positions_resigned() {
    let (mut e, _) = Engine::xboard();
    e.send("new");
    e.send("force");
    // Generals and advisors only, and the opponent offers a draw: accepted with the move.
    e.send("setboard 3k1a3/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    e.send("draw");
    e.send("sd 3");
    e.send("go");
    let lines = e.lines_until("move ");
    assert!(
        lines.iter().any(|l| l == "offer draw"),
        "{}",
        e.transcript.join("\n")
    );
    // Black, lost beyond doubt, resigns after some moves.
    let mut resigned = false;
    for _ in 0..6 {
        e.send("force");
        e.send("setboard 3k5/9/9/9/9/9/9/R8/R8/4K4 b - - 0 1");
        e.send("sd 4");
        e.send("go");
        let line = e.until("move or resign", |l| {
            l.starts_with("move ") || l == "resign"
        });
        if line == "resign" {
            resigned = true;
            break;
        }
    }
    assert!(resigned, "{}", e.transcript.join("\n"));
    e.quit();
}

#[test]
fn analysis_follows_the_moves_until_exit() {
    let (mut e, _) = Engine::xboard();
    e.send("new");
    e.send("post");
    e.send("analyze");
    e.until("thinking output", is_thinking);
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("undo");
    e.until("thinking output", is_thinking);
    e.send("exit");
    let lines = e.sync(4);
    assert!(
        !lines.iter().any(|l| l.starts_with("move ")),
        "analysis plays no move: {lines:?}"
    );
    e.quit();
}

#[test]
fn move_now_and_ping_while_thinking() {
    let (mut e, _) = Engine::xboard();
    e.send("new");
    e.send("option OwnBook=0");
    e.send("st 60");
    e.send("go");
    thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("?");
    let m = e.next_move();
    assert!(asked.elapsed() < Duration::from_secs(10), "{m}");
    // A ping while the engine thinks on its move is answered after the move.
    e.send("st 1");
    e.send("usermove h9g7");
    e.send("ping 9");
    let lines = e.lines_until("pong 9");
    let moved = lines.iter().position(|l| l.starts_with("move "));
    assert!(
        moved.is_some_and(|i| i + 1 < lines.len()),
        "the move comes before the pong: {lines:?}"
    );
    e.quit();
}

#[test]
fn options_are_set_by_their_cecp_names() {
    let (mut e, _) = Engine::xboard();
    e.send("option Style=risky");
    e.send("option Clear Hash");
    e.send("option Nonsense=1");
    e.starts("Error (unknown option): Nonsense");
    e.send("option MultiPV=0");
    let line = e.starts("tellusererror");
    assert!(line.contains("MultiPV"), "{line}");
    e.send("option BookFile=/nonexistent/book.xqb");
    let line = e.starts("tellusererror");
    assert!(line.contains("bookfiles"), "{line}");
    // Without the book the first move is searched: thinking lines, no book line.
    e.send("option OwnBook=0");
    e.send("new");
    e.send("post");
    e.send("sd 2");
    e.send("go");
    let lines = e.lines_until("move ");
    assert!(!lines.iter().any(|l| l.contains("(book")), "{lines:?}");
    e.send("force");
    e.send("new");
    e.send("option OwnBook=1");
    e.send("go");
    let lines = e.lines_until("move ");
    assert!(
        lines.iter().any(|l| l.starts_with("0 0 0 0 (book ")),
        "{lines:?}"
    );
    e.quit();
}
