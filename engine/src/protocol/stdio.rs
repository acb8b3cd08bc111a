//! The engine on a byte stream: standard input and output, or pipes in tests.
//!
//! Lines are read on their own thread, so that `stop`, `isready`, `ponderhit` and `quit` reach
//! the session while it thinks, and are read as bytes: a line that is not UTF-8 is read as GBK
//! (what Chinese Windows GUIs send, e.g. a book path) and said so; a line that is neither gets
//! one error line, and the engine goes on.
//!
//! The lines go to the UCCI/UCI session until it reads `xboard` as the first protocol command;
//! from then on they go to CECP's game ([`super::cecp`]), which also receives a wake-up through
//! the same channel whenever one of its searches has written its move.

use std::io::{self, BufRead, IsTerminal};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

use super::cecp::{Game, Waker};
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
    /// The end of input (or a read error).
    End,
    /// A CECP search has written its move (sent from the search thread).
    Wake,
}

/// Who reads the lines.
// One value for the whole run: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum Front {
    /// The UCCI/UCI session (and a person before a protocol is chosen).
    Session(Session),
    /// XBoard's protocol, once `xboard` was read.
    Cecp(Game),
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
    // The reader thread ends at end of input or a read error, and says so (the channel stays
    // open: CECP's searches hold senders to wake the loop).
    let lines = tx.clone();
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
            if lines
                .send(Input::decode(std::mem::take(&mut line)))
                .is_err()
            {
                return;
            }
        }
        let _ = lines.send(Input::End);
    });
    if reader.is_err() {
        emit(&out, "info string error: cannot start the input thread");
        return;
    }
    let mut front = Front::Session(Session::new(out.clone(), terminal));
    while let Ok(input) = rx.recv() {
        let line = match input {
            Input::Text(line) => line,
            // Notes about the encoding, in the session's words (CECP's `#` lines).
            Input::Gbk(line) => {
                let note = "the line was not UTF-8 and was read as GBK";
                emit(&out, &in_words(&front, note));
                line
            }
            Input::Undecodable(len) => {
                let note = format!(
                    "error: a line of {len} bytes is neither UTF-8 nor GBK and was ignored"
                );
                emit(&out, &in_words(&front, &note));
                continue;
            }
            Input::End => break,
            Input::Wake => {
                if let Front::Cecp(game) = &mut front {
                    game.wake();
                }
                continue;
            }
        };
        let flow = match &mut front {
            Front::Cecp(game) => game.handle(&line),
            Front::Session(session) => {
                let flow = session.handle(&line);
                if flow == Flow::Continue && session.blocks_input() {
                    session.wait();
                }
                flow
            }
        };
        match flow {
            Flow::Continue => {}
            Flow::Quit => return,
            Flow::Xboard => {
                front = match front {
                    Front::Session(session) => {
                        let wake = tx.clone();
                        let waker: Waker = Arc::new(move || {
                            let _ = wake.send(Input::Wake);
                        });
                        Front::Cecp(Game::new(session.into_engine(), out.clone(), waker))
                    }
                    cecp @ Front::Cecp(_) => cecp,
                };
            }
        }
    }
    // End of input without quit.
    match &mut front {
        Front::Session(session) => session.shutdown(),
        Front::Cecp(game) => game.shutdown(),
    }
}

/// A note as the front end writes it: `info string ...`, or a `#` line in CECP.
fn in_words(front: &Front, note: &str) -> String {
    match front {
        Front::Session(_) => format!("info string {note}"),
        Front::Cecp(_) => format!("# {note}"),
    }
}
