//! An engine as a child process: spawn it, write lines to its standard input, read its standard
//! output line by line on a thread of its own, and kill it when it is dropped.
//!
//! The reader thread is what keeps the runner from ever hanging on an engine: the game loop waits
//! on a channel with a deadline, never on a pipe. Each line carries the instant it was read, so
//! the clock charges an engine for its own thinking and not for the runner's scheduling.
//!
//! Engines are killed directly (not their process group), so a wrapper script should `exec` the
//! engine; an engine left behind by a killed wrapper still sees end-of-file on its standard input.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line kept from an engine; the rest of a longer line is dropped, so an engine that
/// writes endless bytes without a newline cannot exhaust the runner's memory.
const MAX_LINE: usize = 64 * 1024;

/// How many of the last lines of an engine's standard error are kept for error reports.
const STDERR_LINES: usize = 8;

/// How long a dropped engine gets to exit by itself after `quit` before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// What the reader thread saw on the engine's standard output.
#[derive(Debug)]
enum Event {
    /// A line (lossily decoded as UTF-8, without its line end) and when it was read.
    Line(String, Instant),
    /// End of file: the engine closed its output, usually because it exited.
    Eof,
}

/// Why no line arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecvError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Disconnected,
}

/// How to start an engine (or any program that speaks in lines: the chess contest's agents).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// The program.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (the runner's when `None`).
    pub dir: Option<PathBuf>,
    /// Copy its standard error to ours, each line prefixed with `[LABEL]` (the last lines are
    /// kept either way, [`Process::stderr_tail`]).
    pub echo_stderr: Option<String>,
    /// Do not write `quit` when done with it (a program for which `quit` means nothing); its
    /// standard input is closed either way.
    pub no_quit: bool,
}

/// A running engine process.
///
/// Dropping it writes `quit`, gives the engine a moment to exit, then kills it and reaps it.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The end of output has been seen.
    eof: bool,
    /// A label for debug output (`--debug`), `None` for none.
    trace: Option<String>,
    /// Write `quit` when dropped.
    quit: bool,
}

impl Process {
    /// Starts the engine with piped standard input and output.
    ///
    /// # Errors
    /// The operating system's error when the program cannot be started (not found, not
    /// executable, a bad working directory).
    pub fn spawn(launch: &Launch, trace: Option<String>) -> io::Result<Process> {
        let mut cmd = Command::new(&launch.command);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &launch.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot start {}: {e}", launch.command.display()),
            )
        })?;
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            thread::Builder::new()
                .name("engine-stdout".into())
                .spawn(move || read_lines(out, |line| tx.send(line).is_ok()))?;
        }
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            let echo = launch.echo_stderr.clone();
            thread::Builder::new()
                .name("engine-stderr".into())
                .spawn(move || {
                    read_lines(err, |event| {
                        if let Event::Line(line, _) = event {
                            if let Some(label) = &echo {
                                eprintln!("[{label}] {line}");
                            }
                            let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                            if tail.len() == STDERR_LINES {
                                tail.pop_front();
                            }
                            tail.push_back(line);
                        }
                        true
                    });
                })?;
        }
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stderr,
            eof: false,
            trace,
            quit: !launch.no_quit,
        })
    }

    /// Writes one line (a newline is added) and flushes it.
    ///
    /// # Errors
    /// A broken pipe when the engine has exited.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.send_bytes(line.as_bytes())
    }

    /// Writes one line of bytes (in whatever encoding the program reads; a newline is added)
    /// and flushes it, in one write.
    ///
    /// # Errors
    /// A broken pipe when the program has exited or closed its input.
    pub fn send_bytes(&mut self, line: &[u8]) -> io::Result<()> {
        if let Some(label) = &self.trace {
            eprintln!("{label} < {}", String::from_utf8_lossy(line));
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "standard input closed"))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
        stdin.write_all(&bytes)?;
        stdin.flush()
    }

    /// The next line and when it was read, waiting until `deadline` at most.
    ///
    /// # Errors
    /// [`RecvError::Timeout`] when the deadline passes first, [`RecvError::Disconnected`] when
    /// the engine has closed its output.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<(String, Instant), RecvError> {
        if self.eof {
            return Err(RecvError::Disconnected);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Event::Line(line, at)) => {
                if let Some(label) = &self.trace {
                    eprintln!("{label} > {line}");
                }
                Ok((line, at))
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Err(RecvError::Disconnected)
            }
            Err(RecvTimeoutError::Timeout) => Err(RecvError::Timeout),
        }
    }

    /// Takes the lines already read but not yet received (between games, so that a late
    /// answer to the previous game cannot be taken for an answer in this one; output written
    /// when none was asked for).
    pub fn drain(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(event) = self.lines.try_recv() {
            match event {
                Event::Line(line, _) => out.push(line),
                Event::Eof => self.eof = true,
            }
        }
        out
    }

    /// `true` once the end of the engine's output has been seen (by a receive or a drain).
    pub fn is_closed(&self) -> bool {
        self.eof
    }

    /// How the process ended, if it has: `exit code N`, `signal N`, or `None` while it runs.
    pub fn exit_status(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(describe_status(status)),
            _ => None,
        }
    }

    /// As [`Process::exit_status`], waiting up to `wait` for the process to end.
    pub fn exit_status_within(&mut self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        loop {
            match self.exit_status() {
                Some(status) => return Some(status),
                None if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                None => return None,
            }
        }
    }

    /// The last lines the engine wrote to its standard error, joined with ` | `.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect::<Vec<_>>().join(" | ")
    }

    /// The engine's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.eof && self.quit {
            let _ = self.send("quit");
        }
        // Closing standard input tells engines that read to end-of-file to leave.
        self.stdin = None;
        let until = Instant::now() + EXIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `source` line by line, handing each line (and finally [`Event::Eof`]) to `sink`
/// until it returns `false`. Lines longer than [`MAX_LINE`] are cut; bytes that are not UTF-8
/// are replaced, so garbage reaches the protocol parser as text it will reject.
fn read_lines(source: impl Read, mut sink: impl FnMut(Event) -> bool) {
    let mut reader = BufReader::new(source);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line_capped(&mut reader, &mut buf) {
            Ok(0) | Err(_) => {
                sink(Event::Eof);
                return;
            }
            Ok(_) => {
                let at = Instant::now();
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if !sink(Event::Line(line, at)) {
                    return;
                }
            }
        }
    }
}

/// Reads up to and including the next newline into `buf`, keeping at most [`MAX_LINE`] bytes of
/// it. Returns the number of bytes consumed (0 at end of file).
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut consumed = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        reader.consume(n);
        consumed += n;
        if done {
            return Ok(consumed);
        }
    }
}

/// `exit code N` or `signal N`.
fn describe_status(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("signal {sig}");
        }
    }
    "unknown exit status".to_owned()
}

/// The program of an engine command `cmd` run from directory `dir`: a relative command with a
/// directory part (`./engine`, `bin/engine`) is looked up in `dir` first, then in the current
/// directory; an absolute path, or a bare name left to the `PATH` search, is kept as it is.
#[must_use]
pub fn resolve_command(cmd: &str, dir: Option<&Path>) -> PathBuf {
    let path = PathBuf::from(cmd);
    if path.is_absolute() || path.components().count() == 1 {
        return path;
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    if let Some(dir) = dir {
        let in_dir = cwd.join(dir).join(&path);
        if in_dir.exists() {
            return in_dir;
        }
    }
    cwd.join(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_line_ends_removed() {
        let mut text = vec![b'x'; MAX_LINE + 100];
        text.extend_from_slice(b"\r\nok\n\xff\xfebad\n");
        let mut lines = Vec::new();
        read_lines(&text[..], |e| {
            lines.push(match e {
                Event::Line(l, _) => l,
                Event::Eof => "EOF".to_owned(),
            });
            true
        });
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0].len(), MAX_LINE);
        assert_eq!(lines[1], "ok");
        assert_eq!(lines[2], "\u{fffd}\u{fffd}bad");
        assert_eq!(lines[3], "EOF");
    }
}
