//! The `chariot` binary over pipes, for the protocol transcript tests (`protocol.rs`, `cecp.rs`):
//! lines sent and read, waits with generous limits (they detect hangs, they measure no speed),
//! and everything kept for failure messages.

// Each test file uses its own part of this.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// How long a wait may last before the test fails with the transcript.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The engine over pipes, with everything sent and read kept for failure messages.
pub struct Engine {
    /// The engine's process.
    pub child: Child,
    /// The engine's input; `None` once closed.
    pub stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line sent (`> `) and read (`< `).
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts the binary, saying nothing yet.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the chariot binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends raw bytes followed by a newline (lines that are not UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("> {}", String::from_utf8_lossy(bytes)));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `pred`; returns it (panics with the transcript on timeout).
    pub fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    if pred(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "no {what} within {PATIENCE:?}:\n{}",
                    self.transcript.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "engine closed output before {what}:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Reads lines until one starts with `prefix`; returns it.
    pub fn starts(&mut self, prefix: &str) -> String {
        let p = prefix.to_owned();
        self.until(prefix, move |l| l.starts_with(&p))
    }

    /// Reads every line up to and including the first starting with `prefix`.
    pub fn lines_until(&mut self, prefix: &str) -> Vec<String> {
        let start = self.transcript.len();
        self.starts(prefix);
        self.transcript[start..]
            .iter()
            .filter_map(|l| l.strip_prefix("< ").map(str::to_owned))
            .collect()
    }

    /// Sends `quit` and waits for a clean exit.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!(
            "engine did not exit after quit:\n{}",
            self.transcript.join("\n")
        );
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
