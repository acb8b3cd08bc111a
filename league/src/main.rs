//! `chariot-league`: engine-vs-engine Xiangqi matches and tournaments over UCCI and UCI.
//!
//! The command line (parsing, output, exit codes) is here; matches, tournaments, the referee
//! and the statistics are the `chariot_league` library's.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::run()
}
