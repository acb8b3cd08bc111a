//! The test engine's `pikafish` mode says Pikafish's words: the transcript in
//! `tests/data/pikafish.transcript` (shown in `docs/protocol.md`, "Clients and their quirks") is
//! replayed against it, every line it writes compared with the transcript's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_chariot-test-engine");

#[test]
fn the_pikafish_mode_says_the_transcript() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pikafish.transcript");
    let transcript = std::fs::read_to_string(&path).unwrap();
    let mut engine = Command::new(TEST_ENGINE)
        .arg("pikafish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let output = BufReader::new(engine.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in output.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = 0;
    for (number, line) in transcript.lines().enumerate() {
        let at = number + 1;
        if line.starts_with('#') {
            continue;
        }
        if let Some(sent) = line.strip_prefix("> ") {
            writeln!(input, "{sent}").unwrap();
            input.flush().unwrap();
        } else if let Some(expected) = line.strip_prefix('<') {
            let got = rx
                .recv_timeout(Duration::from_secs(5))
                .unwrap_or_else(|_| panic!("line {at}: nothing said, expected {expected:?}"));
            assert_eq!(got, expected.trim_start(), "line {at}");
            said += 1;
        } else {
            panic!("line {at}: neither '>' nor '<': {line:?}");
        }
    }
    assert!(said > 30, "only {said} lines compared");
    drop(input);
    let status = engine.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(
        rx.recv_timeout(Duration::from_millis(200)).is_err(),
        "more was said"
    );
}
