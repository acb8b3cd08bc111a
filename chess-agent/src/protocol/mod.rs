//! The text front ends over [`crate::engine`]: the contest protocol and UCI. The first line
//! chooses: `uci` starts UCI, anything else is the contest's colour line.

pub mod contest;
pub mod line;
pub mod uci;

use std::io::{BufRead, Write};

use crate::engine::Engine;

/// Reads the first non-empty line and runs the protocol it selects until the input ends.
///
/// # Errors
///
/// Any error writing to `output` (a closed pipe ends the game).
pub fn run<R: BufRead, W: Write + Send + 'static>(
    mut input: R,
    output: W,
    engine: Engine,
    settings: &contest::Settings,
) -> std::io::Result<()> {
    let line = loop {
        match line::read(&mut input)? {
            None => return Ok(()),
            Some(line) if line.trim().is_empty() => {}
            Some(line) => break line,
        }
    };
    if line.trim().eq_ignore_ascii_case("uci") {
        uci::run(input, output, engine)
    } else {
        contest::run(&line, input, output, engine, settings)
    }
}
