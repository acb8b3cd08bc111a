//! Command-line interface of the `chariot` binary.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use chariot::rules::perft::{divide, perft};
use chariot::rules::{Position, START_FEN};
use clap::{Parser, Subcommand};

/// Chariot: a Xiangqi engine for UCCI and UCI GUIs, with tools for its rules.
///
/// Without a subcommand, chariot is the engine: it reads UCCI or UCI commands on standard input
/// (the first command, `ucci` or `uci`, decides) and answers on standard output. At a terminal,
/// type `ucci`, `position startpos`, `go depth 10`, `d` to see the board, `quit` to leave.
#[derive(Parser, Debug)]
#[command(name = "chariot", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree (the move generator's self-test).
    ///
    /// Prints the node count, or with --divide one `move: count` line per root move in ICCS,
    /// followed by the total. The total is always the last line.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// The position (UCCI FEN); the start position when absent.
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// List each root move with its count.
        #[arg(long)]
        divide: bool,
        /// Also print the time taken and nodes per second (on stderr).
        #[arg(long)]
        time: bool,
    },
}

/// Exit code for bad input (a malformed FEN, an unknown option).
const EXIT_USAGE: u8 = 2;

/// Runs the command line and returns the process exit code.
pub fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("chariot: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn execute(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        chariot::protocol::run_stdio();
        return Ok(());
    };
    match command {
        Command::Perft {
            depth,
            fen,
            divide: split,
            time,
        } => {
            let mut pos =
                Position::from_fen(&fen).with_context(|| format!("invalid --fen {fen:?}"))?;
            let start = Instant::now();
            let mut out = io::stdout().lock();
            let total = if split {
                let rows = divide(&mut pos, depth);
                for (m, n) in &rows {
                    writeln!(out, "{m}: {n}")?;
                }
                rows.iter().map(|r| r.1).sum()
            } else {
                perft(&mut pos, depth)
            };
            writeln!(out, "{total}")?;
            if time {
                let secs = start.elapsed().as_secs_f64();
                eprintln!("time {secs:.3} s, {:.1} Mnps", total as f64 / secs / 1e6);
            }
            Ok(())
        }
    }
}
