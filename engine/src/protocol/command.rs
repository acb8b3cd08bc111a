//! The commands a GUI sends, as one typed enum shared by the UCCI and UCI front ends.
//!
//! Each front end turns a line of text into a [`Command`]; the engine driver (`session.rs`) acts
//! on commands without knowing which protocol they came in. Move texts stay text here: they are
//! resolved against a position by the driver, which can then say which move is illegal.

use std::time::Duration;

/// Where a `position` or `probe` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionSpec {
    /// The start position.
    Start,
    /// A FEN.
    Fen(String),
}

/// The parameters of `go`, in the units of the protocol already converted to durations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Think on the opponent's time until `ponderhit`.
    pub ponder: bool,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw: bool,
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Search about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// The side to move's clock (UCCI `time`, UCI `wtime`/`btime` for the side to move).
    pub time: Option<Duration>,
    /// The side to move's increment.
    pub increment: Duration,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// The opponent's clock.
    pub opptime: Option<Duration>,
    /// UCI only: Red's and Black's clocks, assigned to `time`/`opptime` once the side to move
    /// is known.
    pub colour_clocks: Option<ColourClocks>,
    /// Only these root moves (UCI `searchmoves`), as text.
    pub searchmoves: Vec<String>,
    /// Words the parser did not know and skipped (both specifications say to ignore them),
    /// e.g. UCI2WB's `byoyomi 0`; the session names them in an `info string`.
    pub ignored: Vec<String>,
}

/// UCI's clocks by colour (`wtime btime winc binc`); Red is UCI's "white".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColourClocks {
    /// Red's time left.
    pub red: Option<Duration>,
    /// Black's time left.
    pub black: Option<Duration>,
    /// Red's increment.
    pub red_inc: Duration,
    /// Black's increment.
    pub black_inc: Duration,
}

/// A command from the GUI (or a person at a terminal).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ucci`: switch to UCCI and list the options.
    Ucci,
    /// `uci`: switch to UCI and list the options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// UCI `debug on|off`.
    Debug(bool),
    /// Set an option (`value` is `None` for buttons and bare UCCI options).
    SetOption {
        /// The option name as sent.
        name: String,
        /// Its value.
        value: Option<String>,
    },
    /// UCI `ucinewgame` (UCCI sends `setoption newgame`).
    NewGame,
    /// Set the position.
    Position {
        /// The start.
        spec: PositionSpec,
        /// The moves from there, as text.
        moves: Vec<String>,
    },
    /// UCCI `banmoves`: moves the engine must not play in the current position.
    BanMoves(Vec<String>),
    /// Start thinking.
    Go(GoParams),
    /// A `go` that could not be read (a keyword without its number): answered at once with no
    /// move and the reason, so the GUI never waits for an answer that will not come.
    GoRejected(String),
    /// The expected move was played: stop pondering and start the clock.
    PonderHit {
        /// The opponent offers a draw with it.
        draw: bool,
    },
    /// Stop thinking and answer with the best move so far.
    Stop,
    /// UCCI `probe`: what the hash table holds for a position.
    Probe {
        /// The start.
        spec: PositionSpec,
        /// The moves from there.
        moves: Vec<String>,
    },
    /// Leave.
    Quit,
    /// `d`: draw the board (for people).
    Display,
    /// `perft N`: count move paths from the current position.
    Perft(u32),
    /// UCI `go perft N`: the same count in Stockfish's output form.
    GoPerft(u32),
    /// `eval`: the static evaluation of the current position, term by term.
    Eval,
    /// `bench [depth]`: the fixed benchmark.
    Bench(Option<u32>),
    /// A blank line.
    Empty,
}

/// A command line that could not be understood, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(pub String);

/// Reads `position`/`probe` arguments: `{fen <fen> | startpos} [moves m1 m2 ...]`.
pub(crate) fn parse_position_args(
    words: &[&str],
    command: &str,
) -> Result<(PositionSpec, Vec<String>), CommandError> {
    let split = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let (head, tail) = words.split_at(split);
    let moves = tail.iter().skip(1).map(|s| (*s).to_owned()).collect();
    let spec = match head {
        ["startpos"] => PositionSpec::Start,
        ["fen", fen @ ..] if !fen.is_empty() => PositionSpec::Fen(fen.join(" ")),
        ["fen"] => return Err(CommandError(format!("{command}: 'fen' needs a FEN string"))),
        [] => {
            return Err(CommandError(format!(
                "{command}: expected 'startpos' or 'fen <FEN>'"
            )));
        }
        [other, ..] => {
            return Err(CommandError(format!(
                "{command}: expected 'startpos' or 'fen <FEN>', found {other:?}"
            )));
        }
    };
    Ok((spec, moves))
}

/// Reads a number after a keyword of `go`.
pub(crate) fn number<T: std::str::FromStr>(
    words: &mut std::slice::Iter<'_, &str>,
    key: &str,
) -> Result<T, CommandError> {
    let text = words
        .next()
        .ok_or_else(|| CommandError(format!("go: '{key}' needs a number")))?;
    text.parse()
        .map_err(|_| CommandError(format!("go: '{key}' needs a number, found {text:?}")))
}

/// Reads the human commands both protocols accept (`d`, `perft`, `eval`, `bench`).
pub(crate) fn parse_human(words: &[&str]) -> Option<Result<Command, CommandError>> {
    Some(match words {
        ["d"] | ["display"] => Ok(Command::Display),
        ["eval"] => Ok(Command::Eval),
        ["perft", n] => n
            .parse()
            .map(Command::Perft)
            .map_err(|_| CommandError(format!("perft: expected a depth, found {n:?}"))),
        ["perft"] => Err(CommandError("perft: expected a depth, e.g. perft 4".into())),
        ["bench"] => Ok(Command::Bench(None)),
        ["bench", n] => n
            .parse()
            .map(|d| Command::Bench(Some(d)))
            .map_err(|_| CommandError(format!("bench: expected a depth, found {n:?}"))),
        _ => return None,
    })
}
