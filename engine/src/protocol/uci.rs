//! The UCI front end: lines to [`Command`]s.
//!
//! Xiangqi GUIs use UCI in two dialects. Pikafish's GUIs name squares a0..i9 like UCCI. GUIs that
//! drive Fairy-Stockfish (the Xiangqi branch of cutechess among them) send
//! `setoption name UCI_Variant value xiangqi` and number ranks 1-10; the session switches its
//! square naming when it sees that (see [`SquareNaming`]).

use std::time::Duration;

use super::command::{
    ColourClocks, Command, CommandError, GoParams, number, parse_human, parse_position_args,
};

pub use chariot_rules::notation::SquareNaming;

/// Reads one UCI command line.
///
/// # Errors
/// A [`CommandError`] naming the command and what is wrong with it.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(Command::Empty);
    };
    match head {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "debug" => match rest {
            ["on"] | [] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err(CommandError(format!(
                "debug: expected 'on' or 'off', found {:?}",
                rest.join(" ")
            ))),
        },
        "setoption" => parse_setoption(rest),
        "ucinewgame" => Ok(Command::NewGame),
        "position" => parse_position_args(rest, "position")
            .map(|(spec, moves)| Command::Position { spec, moves }),
        // `fen ...` / `startpos ...` without `position`: UCI2WB's UCI ("Cyclone") dialect and
        // older Pikafish GUIs.
        "fen" | "startpos" => parse_position_args(&words, "position")
            .map(|(spec, moves)| Command::Position { spec, moves }),
        // `go perft N`, as Stockfish and Fairy-Stockfish answer it (per-move counts, then
        // `Nodes searched: N`).
        "go" if rest.first() == Some(&"perft") => match rest {
            ["perft", n] => n
                .parse()
                .map(Command::GoPerft)
                .map_err(|_| CommandError(format!("go perft: expected a depth, found {n:?}"))),
            _ => Err(CommandError(
                "go perft: expected a depth, e.g. go perft 4".into(),
            )),
        },
        "go" => Ok(match parse_go(rest) {
            Ok(go) => Command::Go(go),
            Err(CommandError(e)) => Command::GoRejected(e),
        }),
        "ponderhit" => Ok(Command::PonderHit { draw: false }),
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        // Registration is not needed; accept the command so GUIs that send it are not confused.
        "register" => Ok(Command::Empty),
        _ => parse_human(&words)
            .unwrap_or_else(|| Err(CommandError(format!("unknown command {head:?}")))),
    }
}

/// Reads `setoption name <name> [value <value>]` (also used by UCCI, where clients such as PyPI
/// cchess send the UCI form).
pub(crate) fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let ["name", rest @ ..] = words else {
        return Err(CommandError(
            "setoption: expected 'setoption name <name> [value <value>]'".into(),
        ));
    };
    let split = rest
        .iter()
        .position(|w| *w == "value")
        .unwrap_or(rest.len());
    let name = rest[..split].join(" ");
    if name.is_empty() {
        return Err(CommandError("setoption: the option name is missing".into()));
    }
    let value = (split < rest.len()).then(|| rest[split + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_go(words: &[&str]) -> Result<GoParams, CommandError> {
    let mut go = GoParams::default();
    let mut clocks = ColourClocks::default();
    let mut has_clock = false;
    let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
    let mut it = words.iter();
    while let Some(&w) = it.next() {
        match w {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "depth" => go.depth = Some(number(&mut it, "depth")?),
            "nodes" => go.nodes = Some(number(&mut it, "nodes")?),
            "mate" => go.mate = Some(number(&mut it, "mate")?),
            "movetime" => go.movetime = Some(ms(number(&mut it, "movetime")?)),
            "movestogo" => go.movestogo = Some(number(&mut it, "movestogo")?),
            "wtime" => (clocks.red, has_clock) = (Some(ms(number(&mut it, "wtime")?)), true),
            "btime" => (clocks.black, has_clock) = (Some(ms(number(&mut it, "btime")?)), true),
            "winc" => clocks.red_inc = ms(number(&mut it, "winc")?),
            "binc" => clocks.black_inc = ms(number(&mut it, "binc")?),
            "searchmoves" => {
                // Everything up to the next keyword is a move.
                while let Some(&m) = it.clone().next() {
                    if KEYWORDS.contains(&m) {
                        break;
                    }
                    go.searchmoves.push(m.to_owned());
                    it.next();
                }
            }
            // "The engine should ignore unknown tokens" (UCI), e.g. UCI2WB's `byoyomi 0`.
            other => go.ignored.push(other.to_owned()),
        }
    }
    if has_clock {
        go.colour_clocks = Some(clocks);
    }
    Ok(go)
}

const KEYWORDS: [&str; 12] = [
    "ponder",
    "infinite",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "movestogo",
    "wtime",
    "btime",
    "winc",
    "binc",
    "searchmoves",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_uci_commands() {
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        let Command::Go(go) = parse(
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 searchmoves h2e2 b2e2 depth 3",
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(go.searchmoves, vec!["h2e2", "b2e2"]);
        assert_eq!(go.depth, Some(3));
        assert_eq!(go.movestogo, Some(5));
        let c = go.colour_clocks.unwrap();
        assert_eq!(
            (c.red, c.black),
            (
                Some(Duration::from_millis(1000)),
                Some(Duration::from_millis(2000))
            )
        );
        assert!(matches!(parse("go wtime"), Ok(Command::GoRejected(_))));
        let Ok(Command::Go(go)) = parse("go wtime 10 btime 10 byoyomi 0") else {
            panic!()
        };
        assert_eq!(go.ignored, ["byoyomi", "0"]);
        assert!(parse("setoption Hash 3").is_err());
    }
}
