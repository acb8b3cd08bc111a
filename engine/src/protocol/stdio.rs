//! The engine on a byte stream: standard input and output, or pipes in tests.
//!
//! Lines are read on their own thread, so that `stop`, `isready`, `ponderhit` and `quit` reach
//! the session while it thinks, and are read as bytes: a line that is not UTF-8 is read as GBK
//! (what Chinese Windows GUIs send, e.g. a book path) and said so; a line that is neither gets
//! one error line, and the engine goes on.

use std::io::{self, BufRead, IsTerminal};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use super::session::{Flow, Output, Session, emit};

/// Runs the engine on standard input and output until `quit` or the end of input.
pub fn run_stdio() {
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    let out: Output = Arc::new(Mutex::new(Box::new(io::stdout())));
    run(io::BufReader::new(io::stdin()), out, terminal);
}

/// A line of input as the reader thread decoded it.
enum Input {
    /// Valid UTF-8.
    Text(String),
    /// Not UTF-8 but valid GBK (what Chinese Windows GUIs send, e.g. a book path), decoded.
    Gbk(String),
    /// Neither UTF-8 nor GBK: its length in bytes.
    Undecodable(usize),
}

impl Input {
    /// Decodes a line's bytes (without its line ending).
    fn decode(bytes: Vec<u8>) -> Input {
        match String::from_utf8(bytes) {
            Ok(text) => Input::Text(text),
            Err(e) => {
                let bytes = e.into_bytes();
                match encoding_rs::GBK.decode_without_bom_handling_and_without_replacement(&bytes) {
                    Some(text) => Input::Gbk(text.into_owned()),
                    None => Input::Undecodable(bytes.len()),
                }
            }
        }
    }
}

/// Runs the engine on any input and output (tests use pipes and buffers).
///
/// Lines are read as bytes: a line that is not UTF-8 is read as GBK when it is valid GBK (said
/// in an `info string`), and a line that is neither gets one error line; the engine goes on in
/// every case.
pub fn run(mut input: impl BufRead + Send + 'static, out: Output, terminal: bool) {
    let (tx, rx) = mpsc::channel::<Input>();
    // The reader thread ends at end of input or a read error; the channel then closes.
    let reader = thread::Builder::new().name("input".into()).spawn(move || {
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            if tx.send(Input::decode(std::mem::take(&mut line))).is_err() {
                break;
            }
        }
    });
    if reader.is_err() {
        emit(&out, "info string error: cannot start the input thread");
        return;
    }
    let mut session = Session::new(out, terminal);
    while let Ok(input) = rx.recv() {
        let line = match input {
            Input::Text(line) => line,
            Input::Gbk(line) => {
                emit(
                    session.output(),
                    "info string the line was not UTF-8 and was read as GBK",
                );
                line
            }
            Input::Undecodable(len) => {
                emit(
                    session.output(),
                    &format!(
                        "info string error: a line of {len} bytes is neither UTF-8 nor GBK and was ignored"
                    ),
                );
                continue;
            }
        };
        if session.handle(&line) == Flow::Quit {
            return;
        }
        if session.blocks_input() {
            session.wait();
        }
    }
    // End of input without quit.
    session.shutdown();
}
