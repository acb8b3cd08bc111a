//! Runs the `chess-agent` binary with piped input, with a watchdog so a hang fails the test.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

/// What the agent wrote.
pub struct Transcript {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

impl Transcript {
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs the agent with `args`, feeds it `input` and closes its stdin.
pub fn run(args: &[&str], input: &str) -> Transcript {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess-agent"))
        .args(args)
        .args(["--hash", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chess-agent");
    // The agent may exit before reading everything (bad arguments): a closed pipe is no error.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let output = rx
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("chess-agent (pid {pid}) hung on {input:?}"))
        .unwrap();
    Transcript {
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        success: output.status.success(),
    }
}

pub fn pos(fen: &str) -> Chess {
    chess_agent::game::Game::from_fen(fen)
        .unwrap()
        .position()
        .clone()
}

/// Checks one line of the agent's output against the contest's output rules and returns the
/// move: standard SAN that shakmaty reads strictly, no spaces, no `e.p.`, no `P`, `-` only in
/// castling, promotion with `=`.
pub fn check_output(pos: &Chess, line: &str) -> Move {
    assert!(!line.contains(' ') && !line.contains('\r'), "{line:?}");
    assert!(!line.contains("e.p") && !line.starts_with('P'), "{line:?}");
    assert!(!line.contains('-') || line.starts_with("O-O"), "{line:?}");
    assert!(!line.contains("++"), "{line:?}");
    let san: SanPlus = line.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
    let m = san.san.to_move(pos).unwrap_or_else(|e| {
        panic!(
            "{line:?} in {}: {e}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        )
    });
    if m.is_promotion() {
        assert!(line.contains('='), "{line:?}");
    }
    // The check marks are right, too.
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert_eq!(line.ends_with('#'), after.is_checkmate(), "{line:?}");
    assert_eq!(
        line.ends_with('+'),
        after.is_check() && !after.is_checkmate(),
        "{line:?}"
    );
    m
}

/// Waits no longer than `limit` for `f`, then panics.
pub fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < limit, "took {:?}", start.elapsed());
    out
}
