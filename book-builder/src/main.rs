//! The `book-builder` binary: reads Xiangqi game collections, imports them into a game database
//! and builds, inspects and converts opening books.

use std::process::ExitCode;

mod cli;
mod commands;
mod json;
mod scan;

fn main() -> ExitCode {
    cli::run()
}
