//! The training positions file: positions with the result of the game they were taken from.
//!
//! A plain UTF-8 text file, one position per line (layout in `docs/formats/positions.md`):
//!
//! ```text
//! # chariot positions: any comment
//! rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;0.5
//! ```
//!
//! `FEN;result`, the result from Red's view: `1` Red won, `0.5` draw, `0` Black won. Lines
//! starting with `#` and blank lines are ignored. Text is easy to produce and inspect with any
//! tool, and the files other Texel tuners use look much the same. Writer and reader live here
//! together; `book-builder positions` writes such files, `chariot tune` reads them.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::atomic::AtomicFile;
use chariot_rules::{DecidedResult, Position, PositionError};

/// The result written as `s` (`1`, `0.5` or `0`: Red's score).
///
/// # Errors
///
/// [`LineError::BadResult`] for any other text.
pub fn parse_outcome(s: &str) -> Result<DecidedResult, LineError> {
    DecidedResult::from_score_text(s).ok_or_else(|| LineError::BadResult(s.to_owned()))
}

/// A position and the result of its game.
#[derive(Clone, Debug)]
pub struct Labeled {
    /// The position.
    pub position: Position,
    /// The game's result (positions are taken from finished games).
    pub outcome: DecidedResult,
}

/// What is wrong with one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// No `;` between the FEN and the result.
    #[error("no ';' between the FEN and the result")]
    MissingSeparator,
    /// The FEN is malformed or not a legal position.
    #[error("invalid FEN {fen:?}: {source}")]
    BadFen {
        /// The FEN as written.
        fen: String,
        /// Why it was refused.
        source: PositionError,
    },
    /// The result is not `1`, `0.5` or `0`.
    #[error("result {0:?} is not 1, 0.5 or 0")]
    BadResult(String),
}

/// Why a positions file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// A line is malformed.
    #[error("{path}: line {line}: {error}")]
    Line {
        /// The file (empty when reading from a stream).
        path: PathBuf,
        /// The line number, 1-based.
        line: usize,
        /// What is wrong.
        error: LineError,
    },
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file (empty when reading from a stream).
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

/// Reads one line: `Ok(None)` for a blank or comment line.
///
/// # Errors
/// A [`LineError`] naming what is wrong.
pub fn parse_line(line: &str) -> Result<Option<Labeled>, LineError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (fen, result) = line.rsplit_once(';').ok_or(LineError::MissingSeparator)?;
    let outcome = parse_outcome(result.trim())?;
    let fen = fen.trim();
    let position = Position::from_fen(fen).map_err(|source| LineError::BadFen {
        fen: fen.to_owned(),
        source,
    })?;
    Ok(Some(Labeled { position, outcome }))
}

/// The line for a position and result (without the line break).
#[must_use]
pub fn format_line(position: &Position, outcome: DecidedResult) -> String {
    format!("{};{}", position.fen(), outcome.score_text())
}

/// Reads the positions of a stream one at a time.
pub struct Reader<R> {
    input: R,
    path: PathBuf,
    line: usize,
    buf: String,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `input`; `path` names it in errors.
    pub fn new(input: R, path: impl Into<PathBuf>) -> Reader<R> {
        Reader {
            input,
            path: path.into(),
            line: 0,
            buf: String::new(),
        }
    }
}

impl Reader<BufReader<File>> {
    /// Opens a positions file.
    ///
    /// # Errors
    /// [`PositionsError::Io`] when the file cannot be opened.
    pub fn open(path: &Path) -> Result<Reader<BufReader<File>>, PositionsError> {
        let file = File::open(path).map_err(|source| PositionsError::Io {
            path: path.to_owned(),
            source,
        })?;
        Ok(Reader::new(BufReader::new(file), path))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<Labeled, PositionsError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.buf.clear();
            match self.input.read_line(&mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(source) => {
                    return Some(Err(PositionsError::Io {
                        path: self.path.clone(),
                        source,
                    }));
                }
            }
            self.line += 1;
            match parse_line(&self.buf) {
                Ok(None) => {}
                Ok(Some(p)) => return Some(Ok(p)),
                Err(error) => {
                    return Some(Err(PositionsError::Line {
                        path: self.path.clone(),
                        line: self.line,
                        error,
                    }));
                }
            }
        }
    }
}

/// Writes a positions stream: comment lines first, then one line per position.
pub struct Writer<W: Write> {
    out: W,
    count: usize,
}

impl<W: Write> Writer<W> {
    /// Starts a stream with `comments`, each line of each written as a `# ` line.
    ///
    /// # Errors
    /// The writer's I/O errors.
    pub fn new(mut out: W, comments: &[String]) -> io::Result<Writer<W>> {
        for c in comments {
            for line in c.lines() {
                writeln!(out, "# {line}")?;
            }
        }
        Ok(Writer { out, count: 0 })
    }

    /// Writes one position.
    ///
    /// # Errors
    /// The writer's I/O errors.
    pub fn write(&mut self, position: &Position, outcome: DecidedResult) -> io::Result<()> {
        self.count += 1;
        writeln!(self.out, "{}", format_line(position, outcome))
    }

    /// The positions written so far.
    #[must_use]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Writes a positions file through [`AtomicFile`]: a temporary file next to the real one,
/// renamed into place by [`FileWriter::finish`], so that the real name never holds half a file.
/// Dropped unfinished, the temporary file vanishes.
pub struct FileWriter {
    writer: Writer<BufWriter<AtomicFile>>,
    path: PathBuf,
}

impl FileWriter {
    /// Creates the temporary file and writes the comments.
    ///
    /// # Errors
    /// [`PositionsError::Io`] naming the positions file.
    pub fn create(path: &Path, comments: &[String]) -> Result<FileWriter, PositionsError> {
        let io_error = |source| PositionsError::Io {
            path: path.to_owned(),
            source,
        };
        let file = AtomicFile::create(path).map_err(|e| io_error(e.source))?;
        let writer = Writer::new(BufWriter::new(file), comments).map_err(io_error)?;
        Ok(FileWriter {
            writer,
            path: path.to_owned(),
        })
    }

    /// Writes one position.
    ///
    /// # Errors
    /// [`PositionsError::Io`].
    pub fn write(
        &mut self,
        position: &Position,
        outcome: DecidedResult,
    ) -> Result<(), PositionsError> {
        self.writer
            .write(position, outcome)
            .map_err(|source| PositionsError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// The positions written so far.
    #[must_use]
    pub fn count(&self) -> usize {
        self.writer.count()
    }

    /// Flushes the file to disk and renames it into place; returns the number of positions.
    ///
    /// # Errors
    /// [`PositionsError::Io`].
    pub fn finish(self) -> Result<usize, PositionsError> {
        let count = self.count();
        let path = self.path;
        let io_error = |source| PositionsError::Io {
            path: path.clone(),
            source,
        };
        let file = self
            .writer
            .into_inner()
            .into_inner()
            .map_err(|e| io_error(e.into_error()))?;
        file.commit().map_err(|e| io_error(e.source))?;
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::START_FEN;
    use std::fs;

    const FENS: [&str; 3] = [
        START_FEN,
        "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
        "3ak1b2/2n1a4/8b/4P4/9/2B3R2/9/9/5K3/3A1AB2 b - - 5 70",
    ];

    #[test]
    fn files_round_trip() {
        let outcomes = [
            DecidedResult::RED_WINS,
            DecidedResult::DRAW,
            DecidedResult::BLACK_WINS,
        ];
        let positions: Vec<Position> = FENS
            .iter()
            .map(|f| Position::from_fen(f).unwrap())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        let comments = vec!["made by a test".to_owned(), "two\nlines".to_owned()];
        let mut w = FileWriter::create(&path, &comments).unwrap();
        for (p, o) in positions.iter().zip(outcomes) {
            w.write(p, o).unwrap();
        }
        assert!(!path.exists(), "only renamed into place when finished");
        assert_eq!(w.finish().unwrap(), 3);
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# made by a test\n# two\n# lines\n"),
            "{text}"
        );
        assert!(text.contains(&format!("\n{START_FEN};1\n")), "{text}");
        let back: Vec<Labeled> = Reader::open(&path).unwrap().map(Result::unwrap).collect();
        assert_eq!(back.len(), 3);
        for ((b, p), o) in back.iter().zip(&positions).zip(outcomes) {
            assert_eq!(b.position.fen(), p.fen());
            assert_eq!(b.outcome, o);
        }
        // An unfinished writer leaves nothing behind.
        let other = dir.path().join("q.txt");
        let mut w = FileWriter::create(&other, &[]).unwrap();
        w.write(&positions[0], DecidedResult::DRAW).unwrap();
        drop(w);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn outcomes_parse_strictly() {
        for o in [
            DecidedResult::RED_WINS,
            DecidedResult::DRAW,
            DecidedResult::BLACK_WINS,
        ] {
            assert_eq!(parse_outcome(o.score_text()), Ok(o));
        }
        assert_eq!(DecidedResult::DRAW.score(), 0.5);
        for bad in ["1-0", "0.50", "", "2", "½"] {
            assert_eq!(
                parse_outcome(bad),
                Err(LineError::BadResult(bad.to_owned()))
            );
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let input =
            format!("# comment\n\n{START_FEN};1\n{START_FEN}\nrnbakabnr/9 w;0\n{START_FEN};1-0\n");
        let items: Vec<_> = Reader::new(input.as_bytes(), "mem").collect();
        assert_eq!(items.len(), 4);
        assert!(items[0].is_ok());
        let line_of = |r: &Result<Labeled, PositionsError>| match r {
            Err(PositionsError::Line { line, error, .. }) => (*line, error.clone()),
            other => panic!("{other:?}"),
        };
        assert_eq!(line_of(&items[1]), (4, LineError::MissingSeparator));
        assert!(matches!(line_of(&items[2]), (5, LineError::BadFen { .. })));
        assert_eq!(
            line_of(&items[3]),
            (6, LineError::BadResult("1-0".to_owned()))
        );
        let msg = items[3].as_ref().unwrap_err().to_string();
        assert!(msg.starts_with("mem: line 6: result \"1-0\""), "{msg}");
    }
}
