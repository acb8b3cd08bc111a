//! `chess-board-fake-uci [--name NAME] ACTION...`: a scripted UCI engine for the tests of
//! `chess-board match`.
//!
//! It answers `uci` with `id name NAME` (default `fake`) and `uciok`, `isready` with
//! `readyok`, remembers the last `position`, ignores `setoption` and `ucinewgame`, and leaves
//! on `quit` or at the end of its input. On each `go` it takes the next ACTION (the last one
//! again when they run out):
//!
//! - `MOVE1|MOVE2|...`: answer `info depth 1 score cp 0` and `bestmove` with the first of these
//!   UCI moves that is legal in the position; when none is, the first as written (so a single
//!   illegal or unreadable move can be scripted: `e2e5`, `xyz`);
//! - `@hang`: never answer (but keep reading);
//! - `@exit`: exit with code 3 at once;
//! - `@empty`: answer `bestmove` without a move.

use std::io::{self, BufRead, Write};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// The position of a `position` command, `None` when it cannot be read.
fn position(words: &[&str]) -> Option<Chess> {
    let (mut pos, rest): (Chess, &[&str]) = match *words.first()? {
        "startpos" => (Chess::default(), &words[1..]),
        "fen" => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let fen: Fen = words[1..end].join(" ").parse().ok()?;
            (
                fen.into_position(CastlingMode::Standard).ok()?,
                &words[end..],
            )
        }
        _ => return None,
    };
    let moves = match rest.split_first() {
        Some((&"moves", moves)) => moves,
        _ => &[],
    };
    for text in moves {
        let m = text.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
    }
    Some(pos)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut name = "fake".to_owned();
    if args.first().map(String::as_str) == Some("--name") && args.len() >= 2 {
        name = args[1].clone();
        args.drain(..2);
    }
    let mut actions = args.into_iter();
    let mut last = String::from("@hang");
    let mut pos = Chess::default();
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => format!("id name {name}\nid author chess-board tests\nuciok"),
            Some("isready") => "readyok".to_owned(),
            Some("quit") => return,
            Some("position") => {
                pos = position(&words[1..]).unwrap_or_default();
                continue;
            }
            Some("go") => {
                if let Some(a) = actions.next() {
                    last = a;
                }
                match last.as_str() {
                    "@hang" => continue,
                    "@exit" => std::process::exit(3),
                    "@empty" => "bestmove".to_owned(),
                    moves => {
                        let legal = moves
                            .split('|')
                            .find(|t| t.parse::<UciMove>().is_ok_and(|u| u.to_move(&pos).is_ok()));
                        let chosen = legal.unwrap_or_else(|| moves.split('|').next().unwrap_or(""));
                        format!("info depth 1 score cp 0\nbestmove {chosen}")
                    }
                }
            }
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
