//! Helpers for the Board's tests: the scripted fake agent and the real chess-agent.

#![allow(dead_code)]

use std::path::PathBuf;

/// The fake agent's path.
pub fn fake() -> String {
    env!("CARGO_BIN_EXE_chess-board-fake-agent").to_owned()
}

/// A fake agent command with these actions (each one word).
pub fn fake_cmd(actions: &str) -> String {
    format!("{} {actions}", fake())
}

/// A fake agent command that logs what it reads to `log`.
pub fn fake_logged(log: &std::path::Path, actions: &str) -> String {
    format!("{} --log {} {actions}", fake(), log.display())
}

/// The Board's binary.
pub fn board() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_chess-board"))
}

/// The chess-agent binary built next to the Board (`cargo build -p chess-agent`), if there.
pub fn chess_agent() -> Option<PathBuf> {
    let path = board().parent()?.join("chess-agent");
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED: {} is missing; run `cargo build -p chess-agent` (same profile) first",
            path.display()
        );
        None
    }
}

/// Replays a PGN's movetext with shakmaty's strict SAN reader from the standard position and
/// returns the final position and the result token.
pub fn replay(pgn: &str) -> (shakmaty::Chess, String, usize) {
    use shakmaty::Position;
    use shakmaty::san::San;
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    // Drop comments.
    let mut text = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => text.push(c),
            _ => {}
        }
    }
    let mut pos = shakmaty::Chess::default();
    let mut plies = 0;
    let mut result = String::new();
    for token in text.split_whitespace() {
        if token.ends_with('.') {
            assert!(
                token.trim_end_matches('.').parse::<u32>().is_ok(),
                "{token}"
            );
            continue;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            result = token.to_owned();
            continue;
        }
        let san: San = token
            .trim_end_matches(['+', '#'])
            .parse()
            .unwrap_or_else(|e| panic!("{token}: {e}"));
        let m = san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{token} illegal: {e}"));
        pos.play_unchecked(m);
        plies += 1;
    }
    (pos, result, plies)
}
