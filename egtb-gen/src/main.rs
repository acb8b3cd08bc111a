//! `egtb-gen`: builds Xiangqi endgame tablebases and inspects, probes and verifies them.
//!
//! The commands live here (argument parsing, progress bars, text and JSON output, exit codes);
//! the work is the `egtb_gen` library's, which returns typed errors.

mod cli;
mod generation;
mod tools;

fn main() -> std::process::ExitCode {
    cli::main()
}
