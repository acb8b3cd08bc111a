//! `chess-board-fake-agent [--log FILE] ACTION...`: a scripted contest agent for the Board's
//! tests.
//!
//! It reads the colour line, then takes one ACTION each time it is to answer: as White at once
//! and after every line it reads, as Black after every line it reads (the opponent's move or a
//! retry signal alike). An ACTION is move text, written as it is (so illegal and unreadable
//! moves can be scripted), or one of:
//!
//! - `@crash`: exit with code 3 at once;
//! - `@hang`: sleep forever without reading or writing;
//! - `@mute`: keep reading but never answer again;
//! - `@sleep:MS`: wait MS milliseconds, then take the next action;
//! - `@blank`: write an empty line, then take the next action;
//! - `@say:TEXT`: write TEXT, then take the next action (a line nobody asked for).
//!
//! When the actions run out it reads until its input ends and exits 0. With `--log FILE` every
//! line it reads is appended to FILE (as bytes, one per line), so tests can check what the
//! Board said.

use std::fs::OpenOptions;
use std::io::{self, BufRead, Write};
use std::time::Duration;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut log = None;
    if args.first().map(String::as_str) == Some("--log") && args.len() >= 2 {
        log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args[1])
            .ok();
        args.drain(..2);
    }
    let mut actions = args.into_iter();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut read = move || -> Option<Vec<u8>> {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                if let Some(f) = log.as_mut() {
                    let _ = f.write_all(&buf);
                    let _ = f.flush();
                }
                Some(buf)
            }
        }
    };
    let Some(colour) = read() else { return };
    let white = matches!(
        String::from_utf8_lossy(&colour).trim(),
        "先手" | "white" | "w" | "first"
    ) || colour.starts_with(b"\xcf\xc8\xca\xd6");
    let mut answer_now = white;
    loop {
        if answer_now {
            loop {
                match actions.next() {
                    None => {
                        while read().is_some() {}
                        return;
                    }
                    Some(a) if a == "@crash" => std::process::exit(3),
                    Some(a) if a == "@hang" => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    Some(a) if a == "@mute" => {
                        while read().is_some() {}
                        return;
                    }
                    Some(a) if a == "@blank" || a.starts_with("@say:") => {
                        let mut out = io::stdout().lock();
                        let _ = writeln!(out, "{}", a.strip_prefix("@say:").unwrap_or(""));
                        let _ = out.flush();
                    }
                    Some(a) if a.starts_with("@sleep:") => {
                        let ms = a["@sleep:".len()..].parse().unwrap_or(0);
                        std::thread::sleep(Duration::from_millis(ms));
                    }
                    Some(text) => {
                        let mut out = io::stdout().lock();
                        let _ = writeln!(out, "{text}");
                        let _ = out.flush();
                        break;
                    }
                }
            }
        }
        if read().is_none() {
            return;
        }
        answer_now = true;
    }
}
