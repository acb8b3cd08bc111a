//! `chariot eval`: prints the static evaluation of a position, the hand-written evaluation term
//! by term, then the built-in network's.

use std::io::{self, Write};

use chariot_eval::{EvalConfig, breakdown};
use chariot_rules::{Position, START_FEN};

// The arguments of `chariot eval` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position (UCCI FEN); the start position when absent.
    #[arg(long, default_value = START_FEN)]
    fen: String,
}

/// Runs `chariot eval`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args { fen } = args;
    let pos = Position::from_fen(&fen)
        .map_err(|e| chariot_cli::usage(format!("invalid --fen {fen:?}: {e}")))?;
    let config = EvalConfig {
        engine: pos.turn(),
        ..EvalConfig::FULL
    };
    let mut out = io::stdout().lock();
    writeln!(out, "hand-written evaluation:")?;
    writeln!(out, "{}", breakdown(&pos, &config))?;
    match chariot_eval::nnue::builtin::network() {
        Ok(net) => {
            let v = net.evaluate_position(&pos);
            let red = if pos.turn().is_red() { v } else { -v };
            writeln!(out, "{}:", chariot_eval::nnue::builtin::NAME)?;
            writeln!(out, "evaluation (red): {red}")?;
            writeln!(out, "evaluation (side to move): {v}")?;
        }
        Err(e) => writeln!(out, "{e}")?,
    }
    Ok(())
}
