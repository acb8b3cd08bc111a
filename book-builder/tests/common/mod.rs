//! What the command-line tests share: `book-builder` run as a process, and its output read.

// Each test file uses some of these.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `book-builder` with `args` and waits for it.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_book-builder"))
        .args(args)
        .output()
        .expect("runs")
}

/// The standard output of a run that must have succeeded; else the test fails showing its exit
/// status and both outputs.
pub fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}
