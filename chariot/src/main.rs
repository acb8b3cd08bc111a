//! The `chariot` binary: the UCCI/UCI engine and its command-line tools.

use std::process::ExitCode;

mod cli;
mod evaluation_loss;
mod nnue_training;
mod selfplay;
mod serve;
mod tuning;

fn main() -> ExitCode {
    cli::run()
}
