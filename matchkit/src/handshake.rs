//! The handshake of the one engine client (`crate::client`): `ucci` or `uci` sent, the `id` and
//! `option` lines read until `ucciok` or `uciok`, and what they said kept ([`Hello`]): the
//! engine's name and author, the options it declared (`crate::options`), their names as
//! listed (for `usemillisec` and the like) and the values `UCI_Variant` offers.

use std::time::Instant;

use crate::engine::Failure;
use crate::options::EngineOption;
use crate::process::{Process, RecvError};

/// What the handshake learned.
#[derive(Default)]
pub(crate) struct Hello {
    pub(crate) id_name: Option<String>,
    /// The engine's `id author`.
    pub(crate) author: Option<String>,
    /// The options it declared that could be read ([`EngineOption::parse`]).
    pub(crate) declared: Vec<EngineOption>,
    /// Option names as listed (UCCI: the word after `option`; UCI: after `option name`).
    pub(crate) options: Vec<String>,
    /// UCI only: the values the `UCI_Variant` option offers (`var` words).
    pub(crate) variants: Vec<String>,
}

/// Sends `hello_cmd` (`ucci` or `uci`) and reads `id` and `option` lines until `ok` (`ucciok`/`uciok`).
///
/// In `probe` mode a line that complains about an unknown command ends the wait early.
/// Outside probe mode (the UCI attempt after a UCCI probe) a late `ucciok` is accepted; it is
/// reported with the marker option `"\0ucci"`.
pub(crate) fn handshake(
    process: &mut Process,
    (hello_cmd, ok): (&str, &str),
    deadline: Instant,
    probe: bool,
) -> Result<Hello, Failure> {
    let gone = |process: &mut Process| Failure::Disconnected {
        status: process.exit_status(),
        stderr: process.stderr_tail(),
    };
    if process.send(hello_cmd).is_err() {
        return Err(gone(process));
    }
    let mut hello = Hello::default();
    loop {
        match process.recv_until(deadline) {
            Ok((line, _)) => {
                let line = line.trim();
                let mut words = line.split_whitespace();
                match words.next() {
                    Some(w) if w == ok => return Ok(hello),
                    Some("ucciok") if !probe => {
                        hello.options.push("\0ucci".to_owned());
                        return Ok(hello);
                    }
                    Some("id") => {
                        let field = words.next();
                        let text = words.collect::<Vec<_>>().join(" ");
                        match field {
                            _ if text.is_empty() => {}
                            Some("name") => hello.id_name = Some(text),
                            Some("author") => hello.author = Some(text),
                            _ => {}
                        }
                    }
                    Some("option") => read_option(line, &mut hello),
                    _ if probe && line.to_ascii_lowercase().contains("unknown") => {
                        return Err(Failure::Handshake(format!("{hello_cmd}: {line}")));
                    }
                    _ => {}
                }
            }
            Err(RecvError::Timeout) => {
                return Err(Failure::Handshake(format!("no {ok} in time")));
            }
            Err(RecvError::Disconnected) => return Err(gone(process)),
        }
    }
}

/// Records an `option` line: UCCI `option NAME type ...`, UCI `option name NAME type ...`.
fn read_option(line: &str, hello: &mut Hello) {
    hello.declared.extend(EngineOption::parse(line));
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.get(1) == Some(&"name") {
        let end = words
            .iter()
            .position(|&w| w == "type")
            .unwrap_or(words.len());
        let name = words[2..end.max(2)].join(" ");
        if name.eq_ignore_ascii_case("UCI_Variant") {
            hello.variants.extend(
                words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_owned()),
            );
        }
        hello.options.push(name);
    } else if let Some(name) = words.get(1) {
        hello.options.push((*name).to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_uci_options() {
        let mut hello = Hello::default();
        read_option(
            "option name UCI_Variant type combo default chess var chess var xiangqi",
            &mut hello,
        );
        read_option("option name Move Overhead type spin default 10", &mut hello);
        read_option("option usemillisec type check default true", &mut hello);
        assert_eq!(hello.variants, ["chess", "xiangqi"]);
        assert_eq!(
            hello.options,
            ["UCI_Variant", "Move Overhead", "usemillisec"]
        );
    }
}
