//! `chariot-league`: engine-vs-engine Xiangqi matches and tournaments over UCCI and UCI.

use std::process::ExitCode;

fn main() -> ExitCode {
    chariot_league::cli::run()
}
