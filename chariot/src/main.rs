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

/// The program's version and the commit it was built from (`chariot/build.rs`): `0.1.0 (9995fca)`.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("CHARIOT_COMMIT"), ")");

fn main() -> ExitCode {
    cli::run()
}
