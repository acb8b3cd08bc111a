//! An agent as a child process: started from a command line, written to and read from in lines,
//! killed at the end. The process itself is `chariot-league`'s
//! ([`chariot_matchkit::process::Process`]): its reader thread is what keeps the Board from
//! ever hanging on an agent (the game waits on a channel with a deadline, never on a pipe), and
//! each line carries the instant it was read, so the clock charges an agent for its own thinking
//! and not for the Board's scheduling. Agents are started without the `quit` an engine gets at
//! the end (the contest protocol has no such word: an agent would read it as a bad move), and the
//! Board writes byte lines, since it may have to write its Chinese words in GBK.
//!
//! The command is split like a shell would split it ([`split_command`]) and run directly, not
//! through `sh -c`, so that killing the child kills the agent and not just a shell around it.
//! The Board writes a few bytes per move (a whole game is far below a pipe's 64 KiB buffer), so
//! writing never blocks even on an agent that stops reading.

use std::io;
use std::path::PathBuf;

use chariot_matchkit::process::Launch;
pub use chariot_matchkit::process::{Process as Agent, RecvError};

/// Splits a command line into words as a POSIX shell would, without running a shell: words are
/// separated by whitespace; `'...'` quotes literally; `"..."` quotes with `\"`, `\\` and `\$`
/// escapes; a backslash outside quotes escapes the next character. No variables, globs or
/// redirections.
///
/// # Errors
///
/// A description when a quote is not closed, the line ends in a backslash, or there are no words.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in {line:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in {line:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in {line:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(
                    chars
                        .next()
                        .ok_or_else(|| format!("{line:?} ends in a backslash"))?,
                );
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty command".to_owned());
    }
    Ok(words)
}

/// Starts the agent `command` (split by [`split_command`]) with piped standard streams. With
/// `echo_stderr` set, its standard error is copied to the Board's, each line prefixed with
/// `label`; the last lines are kept either way ([`Agent::stderr_tail`]). Dropping the agent
/// closes its standard input, gives it a moment to leave, then kills and reaps it.
///
/// # Errors
///
/// A bad command line, or the operating system's error when the program cannot be started.
pub fn spawn(command: &str, label: &str, echo_stderr: bool) -> io::Result<Agent> {
    let words = split_command(command).map_err(io::Error::other)?;
    let launch = Launch {
        command: PathBuf::from(&words[0]),
        args: words[1..].to_vec(),
        dir: None,
        echo_stderr: echo_stderr.then(|| label.to_owned()),
        no_quit: true,
    };
    Agent::spawn(&launch, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("python -u ./chess_script.py").unwrap(),
            ["python", "-u", "./chess_script.py"]
        );
        assert_eq!(
            split_command(r#"  a 'b c' "d \"e\" \x" f\ g ''  "#).unwrap(),
            ["a", "b c", r#"d "e" \x"#, "f g", ""]
        );
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("a \\").is_err());
        assert!(split_command("   ").is_err());
    }

    /// Whether a process exists (a zombie still does, until it is reaped).
    #[cfg(target_os = "linux")]
    fn exists(pid: u32) -> bool {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dropped_agents_are_killed_and_reaped() {
        // One that never reads nor exits, one that exits by itself, one that crashed.
        for command in ["sleep 30", "cat", "sh -c 'exit 3'"] {
            let mut agent = spawn(command, "test", false).unwrap();
            let pid = agent.id();
            agent.send_bytes(b"e4").ok();
            if command.starts_with("cat") {
                let (line, _) = agent
                    .recv_until(Instant::now() + Duration::from_secs(5))
                    .unwrap();
                assert_eq!(line, "e4");
            }
            let started = Instant::now();
            drop(agent);
            assert!(started.elapsed() < Duration::from_secs(2), "{command}");
            assert!(!exists(pid), "{command}: process {pid} left behind");
        }
        let err = spawn("/nonexistent/agent", "test", false).err().unwrap();
        assert!(err.to_string().contains("cannot start"), "{err}");
    }
}
