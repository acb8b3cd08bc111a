//! What every engine client of the kit shares, whatever the game: why an engine failed, the
//! scores it reports (read from its `info` lines by [`crate::info`]), the UCI `go` line from the
//! clocks, the default waits, and the names engines go by.

use std::fmt;
use std::time::Duration;

use crate::clock::Clock;
use crate::process::Launch;

/// The default grace after an overrun: 0.2 s, the figure of the UCCI specification.
pub const DEFAULT_GRACE: Duration = Duration::from_millis(200);

/// The default time an engine gets to answer `ucci`/`uci` (and UCI `isready`).
pub const DEFAULT_HANDSHAKE: Duration = Duration::from_secs(10);

/// Why an engine failed. Every failure loses the game for that engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The program could not be started.
    Spawn(String),
    /// No `ucciok`/`uciok`/`readyok` in time.
    Handshake(String),
    /// The engine exited or closed its output.
    Disconnected {
        /// `exit code N` or `signal N` when known.
        status: Option<String>,
        /// The last lines of its standard error.
        stderr: String,
    },
    /// The flag fell: no answer within the time left plus the grace, `stop` included.
    Timeout,
    /// A `bestmove` line without a readable move.
    Garbage(String),
    /// Not the engine's fault: the run was interrupted (SIGINT, SIGTERM) while it thought, and
    /// the game is abandoned.
    Interrupted,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Spawn(e) => write!(f, "could not be started: {e}"),
            Failure::Handshake(e) => write!(f, "failed the handshake: {e}"),
            Failure::Disconnected { status, stderr } => {
                f.write_str("crashed or exited")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                if !stderr.is_empty() {
                    write!(f, "; stderr: {stderr}")?;
                }
                Ok(())
            }
            Failure::Timeout => f.write_str("lost on time"),
            Failure::Garbage(line) => write!(f, "sent a malformed answer {line:?}"),
            Failure::Interrupted => f.write_str("was stopped: the run was interrupted"),
        }
    }
}

/// An evaluation from an `info` line, from the engine's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns (UCCI: the engine's own units, a horse or cannon being about 100).
    Cp(i32),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i32),
}

impl EngineScore {
    /// The score as centipawns, a mate counting as ±(30000 − distance).
    #[must_use]
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(cp) => cp,
            EngineScore::Mate(n) if n > 0 => 30_000 - n,
            EngineScore::Mate(n) => -30_000 - n,
        }
    }
}

impl fmt::Display for EngineScore {
    /// `+0.28`, `-1.50`, `+M5`, `-M3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EngineScore::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            EngineScore::Mate(n) if n < 0 => write!(f, "-M{}", -n),
            EngineScore::Mate(n) => write!(f, "+M{n}"),
        }
    }
}

/// The UCI `go wtime T btime T winc I binc I [movestogo M]` (milliseconds) from the clock of
/// the side to move (`own`) and its opponent's; `first_to_move` when the side to move is the
/// first player (Red, or White in chess), whose times are `wtime` and `winc`.
#[must_use]
pub fn uci_go(own: &Clock, opp: &Clock, first_to_move: bool) -> String {
    let (first, second) = if first_to_move {
        (own, opp)
    } else {
        (opp, own)
    };
    let mut cmd = format!(
        "go wtime {} btime {} winc {} binc {}",
        first.shown_ms(),
        second.shown_ms(),
        first.increment_ms(),
        second.increment_ms()
    );
    if let Some(n) = own.moves_to_go() {
        cmd.push_str(&format!(" movestogo {n}"));
    }
    cmd
}

/// Whether an `info` line says the move comes from the engine's book: `info string book move
/// ...` or `info message book move ...` (also `info string book: ...`, `info string (book)`).
pub fn is_book_info(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().take(4).collect();
    matches!(words.get(1), Some(&"string" | &"message"))
        && words.get(2).is_some_and(|w| {
            matches!(
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_ascii_lowercase()
                    .as_str(),
                "book"
            )
        })
}

/// The name an engine goes by: the one given (`name=`), else its `id name`, else the file name
/// of the program it was started as (`launch`), else `engine{number}` (`number` counts from 1).
#[must_use]
pub fn engine_name(
    given: Option<&str>,
    id_name: Option<&str>,
    launch: &Launch,
    number: usize,
) -> String {
    given.or(id_name).map_or_else(
        || {
            launch.command.file_stem().map_or_else(
                || format!("engine{number}"),
                |s| s.to_string_lossy().into_owned(),
            )
        },
        str::to_owned,
    )
}

/// `base`, or the first of `base (2)`, `base (3)`, ... that is not in `taken`: engines with the
/// same name told apart in tables and PGN.
#[must_use]
pub fn distinct_name(base: String, taken: &[String]) -> String {
    let mut name = base.clone();
    let mut k = 2;
    while taken.contains(&name) {
        name = format!("{base} ({k})");
        k += 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_moves_are_recognised() {
        assert!(is_book_info("info string book move h2e2: 80 games"));
        assert!(is_book_info(
            "info message book move h2e2: 80 games, red 50%"
        ));
        assert!(is_book_info("info string (book)"));
        assert!(!is_book_info("info depth 1 score cp 0 pv h2e2"));
        assert!(!is_book_info("info string bookkeeping done"));
    }

    #[test]
    fn uci_go_names_the_first_player_white() {
        use crate::clock::TimeControl;
        let tc: TimeControl = "10+0.1".parse().unwrap();
        let (own, opp) = (Clock::new(tc), Clock::new(tc));
        assert_eq!(
            uci_go(&own, &opp, false),
            "go wtime 10000 btime 10000 winc 100 binc 100"
        );
    }

    #[test]
    fn names_fall_back_and_stay_distinct() {
        let launch = Launch {
            command: "/usr/games/fairy-stockfish".into(),
            args: Vec::new(),
            dir: None,
            echo_stderr: None,
            no_quit: false,
        };
        assert_eq!(engine_name(Some("A"), Some("B"), &launch, 1), "A");
        assert_eq!(engine_name(None, Some("B"), &launch, 1), "B");
        assert_eq!(engine_name(None, None, &launch, 1), "fairy-stockfish");
        let taken = vec!["B".to_owned(), "B (2)".to_owned()];
        assert_eq!(distinct_name("B".to_owned(), &taken), "B (3)");
    }
}
