//! CECP's commands: a line from XBoard or WinBoard as one typed [`Command`].
//!
//! Words only, as in the UCCI and UCI front ends: moves stay text (the game checks them against
//! its position and answers `Illegal move: MOVE`), times become durations, and a line that
//! cannot be read is a [`CommandError`] that the game writes as CECP's `Error (...): COMMAND`.

use std::time::Duration;

/// A command from XBoard, WinBoard or another CECP interface.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protover N`: answer with the `feature` lines.
    Protover(u32),
    /// `new`: the start position, the engine to play Black, no depth limit.
    New,
    /// `variant NAME`: only `xiangqi` is played.
    Variant(String),
    /// `force`: play neither side; stop thinking.
    Force,
    /// `go`: play the side to move and start thinking.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// The obsolete `white` (`true`) and `black` (`false`): the engine plays the other colour.
    /// `feature colors=0` asks the GUI not to send them.
    Colour {
        /// `white` was sent: the engine plays Black.
        white: bool,
    },
    /// `level MPS BASE INC`: MPS moves in BASE (0: the whole game), INC added after each move.
    Level {
        /// Moves per session; 0 for the whole game.
        moves: u32,
        /// Time for the session.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// `st TIME`: exactly this long per move.
    St(Duration),
    /// `sd DEPTH`: search no deeper.
    Sd(u32),
    /// `time N`: the engine's clock in centiseconds (negative once its flag has fallen).
    Time(i64),
    /// `otim N`: the opponent's clock in centiseconds.
    Otim(i64),
    /// `usermove MOVE`, or a move on a line of its own: the opponent's move, as text.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`: answer `pong N` once everything before it is done.
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `hint`: answer `Hint: MOVE` when there is one.
    Hint,
    /// `bk`: the book's moves, each line starting with a blank, then an empty line.
    Book,
    /// `undo`: take back one move.
    Undo,
    /// `remove`: take back two moves.
    Remove,
    /// `hard` (`true`) or `easy` (`false`): pondering on or off.
    Ponder(bool),
    /// `post` (`true`) or `nopost` (`false`): thinking output on or off.
    Post(bool),
    /// `analyze`: analyse until `exit`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `memory N`: megabytes for the hash table.
    Memory(u64),
    /// `cores N`: search threads.
    Cores(u64),
    /// `option NAME[=VALUE]`: an option the engine listed in a `feature option=...` line.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value (`None` for a button).
        value: Option<String>,
    },
    /// `quit`.
    Quit,
    /// A command that needs no answer and changes nothing here: `xboard` (already in CECP),
    /// `accepted`, `random` (GNU Chess's evaluation noise, which the specification allows to
    /// ignore; the `Randomness` option does that job), `computer`, `name`, `rating`, `ics`,
    /// and `.` (an analysis status request, which the specification makes optional).
    Ignored,
    /// `rejected FEATURE`: the GUI does not support a feature the engine asked for.
    Rejected(String),
    /// A blank line.
    Empty,
}

/// A line that is no command, or a command with bad arguments: written to the GUI as
/// `Error (KIND): LINE`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Error ({kind}): {line}")]
pub struct CommandError {
    /// What is wrong (`unknown command`, `bad argument`).
    pub kind: String,
    /// The line as sent.
    pub line: String,
}

impl CommandError {
    fn new(kind: &str, line: &str) -> CommandError {
        CommandError {
            kind: kind.to_owned(),
            line: line.trim().to_owned(),
        }
    }
}

/// Reads one line.
///
/// # Errors
/// A [`CommandError`] for an unknown command or one whose arguments cannot be read.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(Command::Empty);
    };
    let bad = || CommandError::new("bad argument", line);
    let number = |i: usize| {
        rest.get(i)
            .and_then(|w| w.parse::<u64>().ok())
            .ok_or_else(bad)
    };
    Ok(match head {
        "protover" => Command::Protover(number(0)?.try_into().map_err(|_| bad())?),
        "new" => Command::New,
        "variant" => Command::Variant(rest.first().ok_or_else(bad)?.to_string()),
        "force" => Command::Force,
        "go" => Command::Go,
        "playother" => Command::PlayOther,
        "white" => Command::Colour { white: true },
        "black" => Command::Colour { white: false },
        "level" => parse_level(rest).ok_or_else(bad)?,
        "st" => Command::St(seconds(rest.first().ok_or_else(bad)?).ok_or_else(bad)?),
        "sd" => Command::Sd(number(0)?.try_into().map_err(|_| bad())?),
        "time" | "otim" => {
            let centis = rest
                .first()
                .and_then(|w| w.parse::<i64>().ok())
                .ok_or_else(bad)?;
            if head == "time" {
                Command::Time(centis)
            } else {
                Command::Otim(centis)
            }
        }
        "usermove" => match rest {
            [mv] => Command::UserMove((*mv).to_owned()),
            _ => return Err(bad()),
        },
        "?" => Command::MoveNow,
        "ping" => Command::Ping(rest.join(" ")),
        "draw" => Command::Draw,
        "result" => Command::Result(rest.join(" ")),
        "setboard" => {
            if rest.is_empty() {
                return Err(bad());
            }
            Command::SetBoard(rest.join(" "))
        }
        "hint" => Command::Hint,
        "bk" => Command::Book,
        "undo" => Command::Undo,
        "remove" => Command::Remove,
        "hard" => Command::Ponder(true),
        "easy" => Command::Ponder(false),
        "post" => Command::Post(true),
        "nopost" => Command::Post(false),
        "analyze" => Command::Analyze,
        "exit" => Command::Exit,
        "memory" => Command::Memory(number(0)?),
        "cores" => Command::Cores(number(0)?),
        "option" => parse_option(line).ok_or_else(bad)?,
        "quit" => Command::Quit,
        "xboard" | "accepted" | "random" | "computer" | "name" | "rating" | "ics" | "." => {
            Command::Ignored
        }
        "rejected" => Command::Rejected(rest.join(" ")),
        // Protocol version 1, or a GUI that rejected `usermove`: a move on a line of its own.
        mv if rest.is_empty() && looks_like_move(mv) => Command::UserMove(mv.to_owned()),
        _ => return Err(CommandError::new("unknown command", line)),
    })
}

/// Whether a word is written like a coordinate move (`h2e2`): two squares a0..i9.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

/// A number of seconds, possibly fractional (`0.1`), never negative.
fn seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s))
}

/// `level MPS BASE INC`: BASE is minutes (`5`, `0.5`) or minutes and seconds (`0:30`); anything
/// after that is ignored, as the specification asks (`40 25+5 0` may announce a later control).
fn parse_level(words: &[&str]) -> Option<Command> {
    let [moves, base, increment] = words else {
        return None;
    };
    let moves = moves.parse().ok()?;
    let digits = |t: &str| -> String {
        t.chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect()
    };
    let base = match base.split_once(':') {
        Some((min, sec)) => {
            let min: u64 = min.parse().ok()?;
            let sec: u64 = digits(sec).parse().ok()?;
            Duration::from_secs(min.checked_mul(60)?.checked_add(sec)?)
        }
        None => {
            let min: f64 = digits(base).parse().ok()?;
            (min.is_finite() && min >= 0.0).then(|| Duration::from_secs_f64(min * 60.0))?
        }
    };
    Some(Command::Level {
        moves,
        base,
        increment: seconds(increment)?,
    })
}

/// `option NAME[=VALUE]`: the name may hold spaces; the value is everything after the first
/// `=`, as sent (a string option may hold spaces too).
fn parse_option(line: &str) -> Option<Command> {
    let body = line.trim_start().strip_prefix("option")?.trim();
    let (name, value) = match body.split_once('=') {
        Some((name, value)) => (name.trim(), Some(value.trim().to_owned())),
        None => (body, None),
    };
    (!name.is_empty()).then(|| Command::SetOption {
        name: name.to_owned(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_xboard_sends() {
        // The start of a two-machine game as XBoard 4.9 sends it (recorded with -debugMode).
        assert_eq!(parse("protover 2"), Ok(Command::Protover(2)));
        assert_eq!(parse("accepted usermove"), Ok(Command::Ignored));
        assert_eq!(
            parse("rejected debug"),
            Ok(Command::Rejected("debug".into()))
        );
        assert_eq!(parse("memory 68"), Ok(Command::Memory(68)));
        assert_eq!(parse("cores 1"), Ok(Command::Cores(1)));
        assert_eq!(parse("new"), Ok(Command::New));
        assert_eq!(parse("random"), Ok(Command::Ignored));
        assert_eq!(
            parse("variant xiangqi"),
            Ok(Command::Variant("xiangqi".into()))
        );
        assert_eq!(
            parse("level 0 0:05 0.1"),
            Ok(Command::Level {
                moves: 0,
                base: Duration::from_secs(5),
                increment: Duration::from_millis(100)
            })
        );
        assert_eq!(parse("post"), Ok(Command::Post(true)));
        assert_eq!(parse("hard"), Ok(Command::Ponder(true)));
        assert_eq!(parse("ping 1"), Ok(Command::Ping("1".into())));
        assert_eq!(parse("computer"), Ok(Command::Ignored));
        assert_eq!(parse("time 500"), Ok(Command::Time(500)));
        assert_eq!(parse("otim -12"), Ok(Command::Otim(-12)));
        assert_eq!(parse("usermove c0e2"), Ok(Command::UserMove("c0e2".into())));
        assert_eq!(parse("h2e2"), Ok(Command::UserMove("h2e2".into())));
        assert_eq!(
            parse("result 1/2-1/2 {XBoard adjudication: repetition draw}"),
            Ok(Command::Result(
                "1/2-1/2 {XBoard adjudication: repetition draw}".into()
            ))
        );
    }

    #[test]
    fn reads_time_controls_and_options() {
        assert_eq!(
            parse("level 40 5 0"),
            Ok(Command::Level {
                moves: 40,
                base: Duration::from_secs(300),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            parse("level 40 25+5 0"),
            Ok(Command::Level {
                moves: 40,
                base: Duration::from_secs(1500),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            parse("st 2.5"),
            Ok(Command::St(Duration::from_millis(2500)))
        );
        assert_eq!(parse("sd 7"), Ok(Command::Sd(7)));
        assert_eq!(
            parse("option Move Overhead=100"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("option BookFile=/books/a b.xqb"),
            Ok(Command::SetOption {
                name: "BookFile".into(),
                value: Some("/books/a b.xqb".into())
            })
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"),
            Ok(Command::SetBoard(
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1".into()
            ))
        );
    }

    #[test]
    fn bad_lines_are_errors_in_cecps_words() {
        let error = |line: &str| parse(line).unwrap_err().to_string();
        assert_eq!(error("frobnicate"), "Error (unknown command): frobnicate");
        assert_eq!(
            error("level 40 five 0"),
            "Error (bad argument): level 40 five 0"
        );
        assert_eq!(error("st -1"), "Error (bad argument): st -1");
        assert_eq!(error("sd"), "Error (bad argument): sd");
        assert_eq!(error("usermove"), "Error (bad argument): usermove");
        assert_eq!(error("setboard"), "Error (bad argument): setboard");
        assert_eq!(error("option =3"), "Error (bad argument): option =3");
        // A word that is not written like a move is no move.
        assert_eq!(error("z2e2"), "Error (unknown command): z2e2");
        assert_eq!(parse("  "), Ok(Command::Empty));
    }
}
