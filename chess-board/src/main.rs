//! `chess-board`: see `docs/chess-board.md`.

use clap::Parser as _;

fn main() {
    let cli = chess_board::cli::Cli::parse();
    match chess_board::cli::run(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("chess-board: {e:#}");
            std::process::exit(1);
        }
    }
}
