//! `egtb-gen`: builds Xiangqi endgame tablebases and inspects, probes and verifies them.

fn main() -> std::process::ExitCode {
    egtb_gen::cli::main()
}
