//! What every Chariot command line shares: one table of exit codes, one way of printing an
//! error, and a quiet exit when the reader of standard output goes away (`chariot perft 6 | head`).
//!
//! The four binaries (`chariot`, `book-builder`, `egtb-gen`, `chariot-league`) wrap their work in
//! [`run`], which maps the outcome to an [`Exit`] code:
//!
//! | code | meaning |
//! |---|---|
//! | 0 | success: everything asked was done and nothing wrong was found |
//! | 1 | failure: an error stopped the command (a missing or unreadable file, a database or write error), or a check it ran failed (`verify`, `stats` on a damaged book) |
//! | 2 | bad usage: an unknown option, a malformed value, no input where input is required |
//! | 3 | partial: the command finished, but some input was rejected and left out (an import with rejected games, files with unreadable games, a batch with bad lines) |
//!
//! A command returns `Ok(Exit::…)` for the outcomes it decides itself, and an error otherwise;
//! an error made by [`usage`] (or carrying a [`UsageError`] anywhere in its chain) exits 2, any
//! other error exits 1, and a broken pipe exits 0 without a word.

use std::fmt;
use std::io;
use std::process::ExitCode;

/// The exit codes of every Chariot binary (the table is in the crate documentation and the
/// README).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Everything asked was done and nothing wrong was found.
    Success = 0,
    /// An error stopped the command, or a check it ran failed.
    Failure = 1,
    /// The command line or a request was malformed.
    Usage = 2,
    /// Finished, but some input was rejected and left out.
    Partial = 3,
}

impl Exit {
    /// `Success` when `ok`, otherwise `failure`.
    #[must_use]
    pub fn from_ok(ok: bool, failure: Exit) -> Exit {
        if ok { Exit::Success } else { failure }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// An error in how the command was called; [`run`] exits with [`Exit::Usage`] for it.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// A usage error with this message, to return from a command.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// Parses the command line with clap; on `--help` and `--version` prints them and returns
/// `Err(0)`, on a malformed command line prints clap's message and returns `Err(2)`.
///
/// # Errors
///
/// The exit code to return at once when the command line asks for no work or is malformed.
pub fn parse<C: clap::Parser>() -> Result<C, ExitCode> {
    C::try_parse().map_err(|e| {
        let _ = e.print();
        if e.use_stderr() {
            Exit::Usage.into()
        } else {
            Exit::Success.into()
        }
    })
}

/// Runs a command's work and turns its outcome into the process exit code: the error chain is
/// printed once as `NAME: error: cause`, a usage error exits 2, any other error 1, and a closed
/// pipe on standard output exits 0 quietly.
pub fn run(name: &str, work: impl FnOnce() -> anyhow::Result<Exit>) -> ExitCode {
    match work() {
        Ok(exit) => exit.into(),
        Err(e) => {
            if is_broken_pipe(&e) {
                return Exit::Success.into();
            }
            eprintln!("{name}: {}", message(&e));
            code_of(&e).into()
        }
    }
}

/// The exit code an error maps to: [`Exit::Usage`] when a [`UsageError`] is in its chain,
/// otherwise [`Exit::Failure`].
#[must_use]
pub fn code_of(error: &anyhow::Error) -> Exit {
    if error.chain().any(|e| e.is::<UsageError>()) {
        Exit::Usage
    } else {
        Exit::Failure
    }
}

/// A count with its noun: `1 game`, `2 games`, `0 games`.
#[must_use]
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Whether the error is a write to a closed pipe (the reader of our output went away).
#[must_use]
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The error chain as one line, each cause once: `open book.xqb: No such file or directory (os
/// error 2)`. A cause whose text the previous message already ends with is left out, so an I/O
/// error wrapped by a library that repeats its text is not said twice.
#[must_use]
pub fn message(error: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if text.is_empty() || out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_say_one_once() {
        assert_eq!(count(1, "game", "games"), "1 game");
        assert_eq!(count(0, "entry", "entries"), "0 entries");
        assert_eq!(count(2, "ply", "plies"), "2 plies");
    }

    #[test]
    fn usage_errors_exit_2_anywhere_in_the_chain() {
        let e = usage("no table files given").context("egtb-gen info");
        assert_eq!(code_of(&e), Exit::Usage);
        let e = anyhow::anyhow!("disk full");
        assert_eq!(code_of(&e), Exit::Failure);
    }

    #[test]
    fn a_cause_repeated_by_its_wrapper_is_said_once() {
        let io = io::Error::new(
            io::ErrorKind::PermissionDenied,
            "Permission denied (os error 13)",
        );
        let wrapped = io::Error::new(io.kind(), io.to_string());
        let e = anyhow::Error::new(wrapped).context("create out.xqb");
        assert_eq!(
            message(&e),
            "create out.xqb: Permission denied (os error 13)"
        );
        let e = anyhow::Error::new(io).context("Permission denied (os error 13)");
        assert_eq!(message(&e), "Permission denied (os error 13)");
    }

    #[test]
    fn a_broken_pipe_is_recognised_under_context() {
        let e = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe)).context("write");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }

    #[test]
    fn exit_codes_are_the_documented_numbers() {
        assert_eq!(Exit::Success as u8, 0);
        assert_eq!(Exit::Failure as u8, 1);
        assert_eq!(Exit::Usage as u8, 2);
        assert_eq!(Exit::Partial as u8, 3);
    }
}
