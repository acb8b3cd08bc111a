//! `chariot perft`: counts the leaf nodes of the legal move tree (the move generator's
//! self-test).

use std::io::{self, Write};
use std::time::Instant;

use chariot_rules::perft::{divide, perft};
use chariot_rules::{Position, START_FEN};

// The arguments of `chariot perft` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
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
}

/// Runs `chariot perft`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        depth,
        fen,
        divide: split,
        time,
    } = args;
    let mut pos = Position::from_fen(&fen)
        .map_err(|e| chariot_cli::usage(format!("invalid --fen {fen:?}: {e}")))?;
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
