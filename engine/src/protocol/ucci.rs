//! The UCCI 3.0 front end: lines to [`Command`]s, and the engine's replies to lines.
//!
//! UCCI differs from UCI in its words, not its ideas: `setoption <name> [<value>]` without
//! `name`/`value`, `go time T increment I opptime T` for the side to move's clock, in seconds
//! unless `usemillisec` is on, `banmoves`, `probe`/`pophash`, `nobestmove`, and `bye` after `quit`.

use std::time::Duration;

use super::command::{Command, CommandError, GoParams, number, parse_human, parse_position_args};

/// Reads one UCCI command line. `millis` tells whether times are milliseconds (`usemillisec`).
///
/// # Errors
/// A [`CommandError`] naming the command and what is wrong with it.
pub fn parse(line: &str, millis: bool) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(Command::Empty);
    };
    match head {
        "ucci" => Ok(Command::Ucci),
        "isready" => Ok(Command::IsReady),
        // The UCI form, which clients such as PyPI cchess send in UCCI too. No UCCI option is
        // called `name`, so the word cannot be misread.
        "setoption" if rest.first() == Some(&"name") => super::uci::parse_setoption(rest),
        "setoption" => match rest {
            [] => Err(CommandError("setoption: expected an option name".into())),
            [name] => Ok(Command::SetOption {
                name: (*name).to_owned(),
                value: None,
            }),
            [name, value @ ..] => Ok(Command::SetOption {
                name: (*name).to_owned(),
                value: Some(value.join(" ")),
            }),
        },
        "position" => parse_position_args(rest, "position")
            .map(|(spec, moves)| Command::Position { spec, moves }),
        // `fen ...` / `startpos ...` without `position`, as UCI2WB's UCI dialect sends them;
        // read in UCCI too (a GUI switched between protocols, or a person at a terminal).
        "fen" | "startpos" => parse_position_args(&words, "position")
            .map(|(spec, moves)| Command::Position { spec, moves }),
        "probe" => {
            parse_position_args(rest, "probe").map(|(spec, moves)| Command::Probe { spec, moves })
        }
        "banmoves" => Ok(Command::BanMoves(
            rest.iter().map(|s| (*s).to_owned()).collect(),
        )),
        "go" => Ok(match parse_go(rest, millis) {
            Ok(go) => Command::Go(go),
            Err(CommandError(e)) => Command::GoRejected(e),
        }),
        "ponderhit" => match rest {
            [] => Ok(Command::PonderHit { draw: false }),
            ["draw"] => Ok(Command::PonderHit { draw: true }),
            _ => Err(CommandError(format!(
                "ponderhit: expected nothing or 'draw', found {:?}",
                rest.join(" ")
            ))),
        },
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        _ => parse_human(&words)
            .unwrap_or_else(|| Err(CommandError(format!("unknown command {head:?}")))),
    }
}

fn parse_go(words: &[&str], millis: bool) -> Result<GoParams, CommandError> {
    let mut go = GoParams::default();
    let unit = |v: f64| {
        if millis {
            Duration::from_secs_f64(v.max(0.0) / 1000.0)
        } else {
            Duration::from_secs_f64(v.max(0.0))
        }
    };
    let mut it = words.iter();
    while let Some(&w) = it.next() {
        match w {
            "ponder" => go.ponder = true,
            "draw" => go.draw = true,
            "infinite" => go.infinite = true,
            "depth" => match it.clone().next() {
                Some(&"infinite") => {
                    it.next();
                    go.infinite = true;
                }
                _ => go.depth = Some(number(&mut it, "depth")?),
            },
            "nodes" => go.nodes = Some(number(&mut it, "nodes")?),
            "time" => go.time = Some(unit(number(&mut it, "time")?)),
            "increment" => go.increment = unit(number(&mut it, "increment")?),
            "movestogo" => go.movestogo = Some(number(&mut it, "movestogo")?),
            // Not in UCCI 3.0: UCI's fixed time per move, which UCI2WB sends in UCCI too (XBoard's
            // `-st`), in the unit of `time`.
            "movetime" => go.movetime = Some(unit(number(&mut it, "movetime")?)),
            "opptime" => go.opptime = Some(unit(number(&mut it, "opptime")?)),
            // The opponent's control is informational only; read and check it.
            "oppincrement" => drop(unit(number(&mut it, "oppincrement")?)),
            "oppmovestogo" => drop(number::<u32>(&mut it, "oppmovestogo")?),
            // Unknown words are skipped, as UCI says and UCCI engines do (a number after one is
            // skipped as a word of its own).
            other => go.ignored.push(other.to_owned()),
        }
    }
    if go.ponder && go.draw {
        return Err(CommandError(
            "go: 'ponder' and 'draw' cannot be used together (use 'ponderhit draw')".into(),
        ));
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::PositionSpec;

    #[test]
    fn reads_the_specification_examples() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(
            parse(&format!("position fen {fen} moves h2e2 h9g7"), true),
            Ok(Command::Position {
                spec: PositionSpec::Fen(fen.into()),
                moves: vec!["h2e2".into(), "h9g7".into()]
            })
        );
        assert_eq!(
            parse("setoption usebook false", true),
            Ok(Command::SetOption {
                name: "usebook".into(),
                value: Some("false".into())
            })
        );
        assert_eq!(
            parse("setoption name usebook value false", true),
            Ok(Command::SetOption {
                name: "usebook".into(),
                value: Some("false".into())
            })
        );
        assert_eq!(
            parse("setoption newgame", true),
            Ok(Command::SetOption {
                name: "newgame".into(),
                value: None
            })
        );
        let go = parse("go time 300000 increment 0", true).unwrap();
        let Command::Go(go) = go else { panic!() };
        assert_eq!(go.time, Some(Duration::from_secs(300)));
        let Command::Go(go) = parse("go ponder time 295 increment 2 opptime 300", false).unwrap()
        else {
            panic!()
        };
        assert!(go.ponder);
        assert_eq!(
            (go.time, go.increment, go.opptime),
            (
                Some(Duration::from_secs(295)),
                Duration::from_secs(2),
                Some(Duration::from_secs(300))
            )
        );
        let Command::Go(go) = parse("go depth infinite", true).unwrap() else {
            panic!()
        };
        assert!(go.infinite && go.depth.is_none());
        assert_eq!(
            parse("ponderhit draw", true),
            Ok(Command::PonderHit { draw: true })
        );
        assert_eq!(
            parse("banmoves h6i4", true),
            Ok(Command::BanMoves(vec!["h6i4".into()]))
        );
    }

    #[test]
    fn errors_name_the_command() {
        let Ok(Command::GoRejected(e)) = parse("go depth x", true) else {
            panic!()
        };
        assert!(e.contains("depth"));
        assert!(matches!(
            parse("go ponder draw time 5", true),
            Ok(Command::GoRejected(_))
        ));
        let Ok(Command::Go(go)) = parse("go time 10 movetime 2 byoyomi 0", false) else {
            panic!()
        };
        assert_eq!(go.movetime, Some(Duration::from_secs(2)));
        assert_eq!(go.ignored, ["byoyomi", "0"]);
        assert!(parse("position", true).unwrap_err().0.contains("position"));
        assert!(parse("position fen", true).is_err());
        assert!(
            parse("frobnicate", true)
                .unwrap_err()
                .0
                .contains("frobnicate")
        );
        assert_eq!(parse("   ", true), Ok(Command::Empty));
    }
}
