//! The `chariot` binary: the UCCI/UCI/CECP (XBoard) engine and its command-line tools.

use std::process::ExitCode;

mod bench;
mod cli;
mod datagen;
mod datagen_plan;
mod datagen_verify;
mod eval;
mod loss;
mod perft;
mod puzzles;
mod serve;
mod tactics;
mod train;
mod tune;

fn main() -> ExitCode {
    cli::run()
}
