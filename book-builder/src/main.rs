//! The `book-builder` binary: reads Xiangqi game collections (and, later, builds the opening book).

use std::process::ExitCode;

mod cli;
mod json;

fn main() -> ExitCode {
    cli::run()
}
