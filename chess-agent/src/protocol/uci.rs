//! UCI, so the agent plays in chess GUIs and engine matches: `uci`, `isready`, `ucinewgame`,
//! `setoption name Hash|OwnBook`, `position startpos|fen ... [moves ...]`, `go` with `wtime btime winc
//! binc movestogo movetime depth nodes infinite`, `stop`, `quit`. The search runs on its own
//! thread, so `stop`, `isready` and `quit` are answered while it thinks; `info` lines report
//! each completed iteration and `bestmove` ends every `go`. `quit` stops at once; the end of
//! the input lets a limited search finish (so `echo ... | chess-agent` works) and stops an
//! infinite one.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Position};

use crate::engine::Engine;
use crate::game::Game;
use crate::search::{Limits, score};
use crate::timeman;

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) -> std::io::Result<()> {
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    w.write_all(line.as_bytes())?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Runs UCI after the `uci` line until `quit` or the end of input.
///
/// # Errors
///
/// Any error writing to `output`.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    mut input: R,
    output: W,
    mut engine: Engine,
) -> std::io::Result<()> {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    identify(&out)?;
    let mut game = Game::new();
    let mut held = false;
    while let Some(line) = super::line::read(&mut input)? {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        match command {
            "uci" => identify(&out)?,
            "isready" => say(&out, "readyok")?,
            "ucinewgame" => {
                engine.stop();
                engine.new_game();
                game = Game::new();
            }
            "setoption" => match set_option(args) {
                Ok(SetOption::Hash(mb)) => engine.set_hash(mb),
                Ok(SetOption::OwnBook(on)) => engine.set_own_book(on),
                Err(e) => say(&out, &format!("info string {e}"))?,
            },
            "position" => {
                engine.stop();
                engine.wait();
                match position(args) {
                    Ok(g) => game = g,
                    Err(e) => say(&out, &format!("info string {e}"))?,
                }
            }
            "go" => {
                engine.stop();
                engine.wait();
                held = go(&mut engine, &game, args, &out)?;
            }
            "stop" => {
                engine.stop();
                engine.wait();
            }
            "quit" => {
                engine.stop();
                break;
            }
            _ => say(&out, &format!("info string unknown command {command}"))?,
        }
    }
    // At the end of the input a search with limits finishes (so piped scripts get their
    // `bestmove`); an infinite one is stopped.
    if held {
        engine.stop();
    }
    engine.wait();
    Ok(())
}

fn identify(out: &Out) -> std::io::Result<()> {
    say(
        out,
        &format!("id name chess-agent {}", env!("CARGO_PKG_VERSION")),
    )?;
    say(out, "id author Chariot developers")?;
    say(out, "option name Hash type spin default 64 min 1 max 4096")?;
    // Whether `go` with a clock plays book moves (the `--book` file or the built-in book).
    say(out, "option name OwnBook type check default true")?;
    say(out, "uciok")
}

/// A `setoption` the agent understands.
#[derive(Debug, PartialEq, Eq)]
enum SetOption {
    Hash(usize),
    OwnBook(bool),
}

/// `name <id> value <x>`; option names are case-insensitive, as UCI says.
fn set_option(args: &[&str]) -> Result<SetOption, String> {
    let at = |word: &str| args.iter().position(|w| w.eq_ignore_ascii_case(word));
    let name = at("name").ok_or("setoption needs a name")?;
    let value = at("value").unwrap_or(args.len());
    let option = args.get(name + 1..value).unwrap_or_default().join(" ");
    let text = args.get(value + 1..).unwrap_or_default().join(" ");
    if option.eq_ignore_ascii_case("hash") {
        let mb: usize = text
            .parse()
            .map_err(|_| format!("Hash needs a number, not {text:?}"))?;
        Ok(SetOption::Hash(mb.clamp(1, 4096)))
    } else if option.eq_ignore_ascii_case("ownbook") {
        match text.to_ascii_lowercase().as_str() {
            "true" => Ok(SetOption::OwnBook(true)),
            "false" => Ok(SetOption::OwnBook(false)),
            _ => Err(format!("OwnBook needs true or false, not {text:?}")),
        }
    } else {
        Err(format!("unknown option {option:?}"))
    }
}

/// `startpos|fen <fen> [moves <uci>...]`.
fn position(args: &[&str]) -> Result<Game, String> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut game = match setup.split_first() {
        Some((&"startpos", _)) => Game::new(),
        Some((&"fen", fen)) => Game::from_fen(&fen.join(" "))?,
        _ => return Err("position needs startpos or fen".into()),
    };
    for text in moves {
        let m = UciMove::from_ascii(text.as_bytes())
            .map_err(|e| format!("bad move {text}: {e}"))?
            .to_move(game.position())
            .map_err(|e| format!("illegal move {text}: {e}"))?;
        game.play(m);
    }
    Ok(game)
}

/// Starts a search; returns whether it holds its result until `stop`.
fn go(engine: &mut Engine, game: &Game, args: &[&str], out: &Out) -> std::io::Result<bool> {
    let number = |key: &str| -> Option<u64> {
        let i = args.iter().position(|&w| w == key)?;
        args.get(i + 1)?
            .parse::<i64>()
            .ok()
            .map(|v| v.max(0) as u64)
    };
    let ms = |key: &str| number(key).map(Duration::from_millis);
    let infinite = args.contains(&"infinite") || args.contains(&"ponder");
    let mut limits = Limits {
        depth: number("depth").map(|d| d.clamp(1, 100) as i32),
        nodes: number("nodes"),
        ..Limits::default()
    };
    let (time, inc) = if game.position().turn() == Color::White {
        (ms("wtime"), ms("winc"))
    } else {
        (ms("btime"), ms("binc"))
    };
    if let Some(movetime) = ms("movetime") {
        let b = timeman::fixed(movetime);
        limits.soft = Some(b.soft);
        limits.hard = Some(b.hard);
    } else if let Some(time) = time {
        let b = timeman::uci(
            time,
            inc.unwrap_or_default(),
            number("movestogo").map(|n| n as u32),
        );
        limits.soft = Some(b.soft);
        limits.hard = Some(b.hard);
    }
    let analysing = infinite || limits.depth.is_some() || limits.nodes.is_some();
    if !analysing {
        if let Some(m) = engine.book_move(game, &[]) {
            let uci = m.to_uci(CastlingMode::Standard);
            say(out, "info string book move")?;
            say(out, &format!("bestmove {uci}"))?;
            return Ok(false);
        }
    }
    let report_out = Arc::clone(out);
    let done_out = Arc::clone(out);
    engine.go(
        game,
        limits,
        Vec::new(),
        infinite,
        Box::new(move |r| {
            let mut pv = String::new();
            for m in &r.pv {
                pv.push(' ');
                pv.push_str(&m.to_uci(CastlingMode::Standard).to_string());
            }
            let millis = r.elapsed.as_millis().max(1);
            let nps = u128::from(r.nodes) * 1000 / millis;
            let _ = say(
                &report_out,
                &format!(
                    "info depth {} seldepth {} score {} nodes {} nps {nps} time {millis} hashfull {} pv{pv}",
                    r.depth,
                    r.seldepth,
                    score::uci(r.score),
                    r.nodes,
                    r.hashfull,
                ),
            );
        }),
        Box::new(move |outcome| {
            let best = outcome.best.map_or_else(
                || "0000".to_owned(),
                |m| m.to_uci(CastlingMode::Standard).to_string(),
            );
            let _ = say(&done_out, &format!("bestmove {best}"));
        }),
    );
    Ok(infinite)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let g = position(&["startpos", "moves", "e2e4", "e7e5", "e1e2"]).unwrap();
        assert_eq!(g.moves().len(), 3);
        let g = position(&[
            "fen",
            "4k3/8/8/8/8/8/8/R3K2R",
            "w",
            "KQ",
            "-",
            "0",
            "1",
            "moves",
            "e1g1",
        ])
        .unwrap();
        assert_eq!(g.moves().len(), 1);
        assert!(position(&["startpos", "moves", "e2e5"]).is_err());
        assert_eq!(
            set_option(&["name", "Hash", "value", "16"]),
            Ok(SetOption::Hash(16))
        );
        assert_eq!(
            set_option(&["name", "OwnBook", "value", "false"]),
            Ok(SetOption::OwnBook(false))
        );
        assert_eq!(
            set_option(&["name", "ownbook", "value", "TRUE"]),
            Ok(SetOption::OwnBook(true))
        );
        assert!(set_option(&["name", "OwnBook", "value", "maybe"]).is_err());
        assert!(set_option(&["name", "Threads", "value", "2"]).is_err());
    }
}
