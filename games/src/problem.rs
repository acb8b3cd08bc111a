//! Problems found while reading a game file, each located (game, line) and explained.
//!
//! Real collections are messy, so a problem in one game never stops the reading of the next: an
//! [`Severity::Error`] means the game (or, without a game number, the whole file) was skipped; a
//! [`Severity::Warning`] means it was read, but something in it was odd or dropped.

use std::fmt;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The game was read; something in it was ignored or looks wrong.
    Warning,
    /// The game (or the file) could not be read and was skipped.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// What went wrong. The message names the offending text or value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemKind {
    // ---- the file as a whole ----
    /// The file could not be read from disk.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// The file starts with the zstd magic number but does not decompress.
    #[error("corrupt or truncated zstd data ({0})")]
    Zstd(String),
    /// Decompressing would exceed the size limit (a zstd bomb or a mistake).
    #[error("zstd data decompresses to more than {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The file is empty (after decompression).
    #[error("empty file")]
    Empty,
    /// The file holds binary data that is not an XQF file.
    #[error("binary data, not a game file ({0})")]
    Binary(String),
    /// A stretch of binary bytes inside a text file: the game around it was skipped, the
    /// others were read.
    #[error("{len} bytes of damaged data at byte offset {offset}; the game there was skipped")]
    DamagedRegion {
        /// Where the damage starts, in bytes from the start of the (decompressed) data.
        offset: usize,
        /// How many bytes it spans (from its first to its last binary byte).
        len: usize,
    },
    /// zstd data that stops or breaks before its end: the games decoded before the damage were
    /// read.
    #[error(
        "zstd data damaged after {decoded} decompressed bytes ({reason}); the games from here on are lost"
    )]
    ZstdTruncated {
        /// Bytes decompressed before the damage.
        decoded: usize,
        /// The decompressor's message.
        reason: String,
    },
    /// The file is text, but neither PGN nor DhtmlXQ.
    #[error("no PGN tags, PGN movetext or DhtmlXQ block found")]
    UnknownFormat,
    /// Some bytes did not decode in the detected encoding and were replaced by U+FFFD.
    #[error("{count} byte sequences are invalid {encoding} and were replaced")]
    Undecodable {
        /// How many replacement characters were produced.
        count: usize,
        /// The encoding the file was decoded as.
        encoding: &'static str,
    },

    // ---- PGN ----
    /// A tag line is cut off: no closing `"]`.
    #[error("tag not terminated (expected '\"]' at the end of the line): {0}")]
    UnterminatedTag(String),
    /// A line starting with `[` that is not a tag `[Name "value"]`.
    #[error("malformed tag: {0}")]
    MalformedTag(String),
    /// A tag closed by `]` whose value has no closing quote; the value was taken up to `]`.
    #[error("tag value has no closing quote: {0}")]
    UnquotedTagValue(String),
    /// A `{` comment not closed before the game (or the file) ends.
    #[error("comment opened at line {opened_at} is not closed")]
    UnclosedComment {
        /// The line of the `{`.
        opened_at: usize,
    },
    /// A `(` variation not closed before the game ends.
    #[error("variation opened at line {opened_at} is not closed")]
    UnclosedVariation {
        /// The line of the `(`.
        opened_at: usize,
    },
    /// A `)` without a matching `(`.
    #[error("')' without a matching '('")]
    UnmatchedParenthesis,
    /// A `}` without a matching `{`; ignored.
    #[error("'}}' without a matching '{{' ignored")]
    UnmatchedBrace,
    /// Text that is not part of any game (no tags before it and no move numbers in it).
    #[error("text outside any game: {0}")]
    StrayText(String),
    /// Moves after the result marker were ignored.
    #[error("text after the result {result} ignored: {text}")]
    TextAfterResult {
        /// The result marker.
        result: String,
        /// The first ignored token.
        text: String,
    },
    /// The `Result` tag and the movetext's result marker disagree; the tag was kept.
    #[error("Result tag says {tag} but the movetext ends with {movetext}; keeping {tag}")]
    ResultMismatch {
        /// The tag's result.
        tag: String,
        /// The movetext's result.
        movetext: String,
    },
    /// A result that is not one of the known spellings.
    #[error("unknown result {0:?} ignored")]
    UnknownResult(String),
    /// A rating that is not a number.
    #[error("{tag} {value:?} is not a number; ignored")]
    BadRating {
        /// The tag name.
        tag: String,
        /// Its value.
        value: String,
    },

    // ---- DhtmlXQ ----
    /// `[DhtmlXQ_movelist]` has a digit count that is not a multiple of 4.
    #[error("DhtmlXQ move list has {0} digits, not a multiple of 4")]
    MoveListLength(usize),
    /// A 4-digit move group names a square off the board, or contains a non-digit.
    #[error("DhtmlXQ move {ply} {text:?} names a square off the board")]
    BadMoveDigits {
        /// The ply (1-based).
        ply: usize,
        /// The group.
        text: String,
    },
    /// `[DhtmlXQ_binit]` is not 64 digits.
    #[error("DhtmlXQ binit {0:?} is not 64 digits")]
    BadBinit(String),
    /// A DhtmlXQ block without a move list or start position.
    #[error("DhtmlXQ block without a move list or start position")]
    EmptyDhtmlXq,

    // ---- XQF ----
    /// The file is shorter than the 1024-byte XQF header.
    #[error("XQF file is {0} bytes, shorter than its 1024-byte header")]
    XqfTooShort(usize),
    /// An XQF version this reader does not know.
    #[error("unsupported XQF version {0} (known: 1.0 to 1.8, bytes 1-18)")]
    XqfVersion(u8),
    /// The move records end in the middle of a record or comment.
    #[error("XQF move data ends at byte {offset}, inside record {record}")]
    XqfTruncated {
        /// The file offset where data ran out.
        offset: usize,
        /// The record being read (0 = the root record before the first move).
        record: usize,
    },
    /// A move record decodes to a square off the board.
    #[error("XQF move {ply} has {which} square code {code}, off the board")]
    XqfBadSquare {
        /// The ply (1-based).
        ply: usize,
        /// `from` or `to`.
        which: &'static str,
        /// The decoded `X*10+Y` code.
        code: u8,
    },
    /// A comment length that is negative or runs past the end of the file.
    #[error("XQF comment length {length} at byte {offset} does not fit in the {size}-byte file")]
    XqfCommentLength {
        /// The decoded length.
        length: i64,
        /// Where the length field is.
        offset: usize,
        /// The file's size.
        size: usize,
    },
    /// A result code other than 0-3.
    #[error("unknown XQF result code {0} ignored")]
    XqfResult(u8),
    /// A header string whose length byte exceeds its field; it was cut to the field.
    #[error("XQF {field} length {length} exceeds its {capacity}-byte field")]
    XqfStringLength {
        /// The field.
        field: &'static str,
        /// The length byte.
        length: u8,
        /// The field's capacity.
        capacity: usize,
    },

    // ---- start positions (DhtmlXQ, XQF) ----
    /// Two pieces of a piece table stand on one square.
    #[error("the start position puts two pieces on {0}")]
    TwoPiecesOnSquare(String),
    /// A piece table without both generals.
    #[error("the start position lacks the {0} general")]
    MissingGeneral(&'static str),
}

/// One problem, located in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// How bad it is.
    pub severity: Severity,
    /// The game's number in its file (from 1), or `None` for the file as a whole.
    pub game: Option<usize>,
    /// The line (from 1), for text formats.
    pub line: Option<usize>,
    /// What went wrong.
    pub kind: ProblemKind,
}

impl Problem {
    /// An error in game `game` at `line`.
    #[must_use]
    pub fn error(game: Option<usize>, line: Option<usize>, kind: ProblemKind) -> Problem {
        Problem {
            severity: Severity::Error,
            game,
            line,
            kind,
        }
    }

    /// A warning in game `game` at `line`.
    #[must_use]
    pub fn warning(game: Option<usize>, line: Option<usize>, kind: ProblemKind) -> Problem {
        Problem {
            severity: Severity::Warning,
            game,
            line,
            kind,
        }
    }

    /// Formats as `file:game:line: severity: reason`, leaving out parts that are unknown.
    #[must_use]
    pub fn located(&self, file: &str) -> String {
        let mut s = String::from(file);
        if let Some(g) = self.game {
            s.push_str(&format!(":{g}"));
        }
        if let Some(l) = self.line {
            if self.game.is_none() {
                s.push_str(":-");
            }
            s.push_str(&format!(":{l}"));
        }
        format!("{s}: {}: {}", self.severity, self.kind)
    }
}

impl fmt::Display for Problem {
    /// `game 3, line 45: error: reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.game, self.line) {
            (Some(g), Some(l)) => write!(f, "game {g}, line {l}: ")?,
            (Some(g), None) => write!(f, "game {g}: ")?,
            (None, Some(l)) => write!(f, "line {l}: ")?,
            (None, None) => {}
        }
        write!(f, "{}: {}", self.severity, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn located_format() {
        let p = Problem::error(
            Some(3),
            Some(45),
            ProblemKind::UnclosedComment { opened_at: 40 },
        );
        assert_eq!(
            p.located("a.pgn"),
            "a.pgn:3:45: error: comment opened at line 40 is not closed"
        );
        assert_eq!(
            p.to_string(),
            "game 3, line 45: error: comment opened at line 40 is not closed"
        );
        let p = Problem::error(None, None, ProblemKind::Empty);
        assert_eq!(p.located("a.pgn"), "a.pgn: error: empty file");
        let p = Problem::warning(Some(1), None, ProblemKind::XqfResult(9));
        assert_eq!(
            p.located("x.xqf"),
            "x.xqf:1: warning: unknown XQF result code 9 ignored"
        );
    }
}
