//! `egtb-gen`: builds Xiangqi endgame tablebases and inspects, probes and verifies them.

mod cli;
mod generate;
mod perpetual;
mod retro;
mod run;
mod sets;
mod tools;

fn main() -> std::process::ExitCode {
    cli::main()
}
