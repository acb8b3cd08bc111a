//! Openings: where games start.
//!
//! Two kinds of files (`--openings file=FILE format=epd|pgn`):
//!
//! - **EPD/FEN**: one position a line, `BOARD SIDE [- - [HALFMOVES FULLMOVES]]` followed by EPD
//!   operations if any (`id "name";` names the opening). Blank lines and `#` comments are
//!   skipped.
//! - **Games** (`format=pgn`): a game file of any kind `chariot_games` reads (PGN with ICCS,
//!   WXF, Chinese or WinBoard SAN moves, DhtmlXQ, XQF; UTF-8, GBK or Big5; zstd-compressed or
//!   not): each game's moves are played from its start position; the `Opening` and `Variation`
//!   tags name it. A game without moves is just its position.
//!
//! Every move is checked against the position when the file is read, so a bad line is an error
//! naming the file, the line and the move before any game starts. `plies=N` cuts the lines to
//! their first N plies.
//!
//! Or a Chariot opening book (`--book FILE --book-ply N`, [`from_book`]): seeded random walks
//! through the book from the start position, each named by its moves.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use chariot_formats::book::{self, Book};
use chariot_games::checked::check;
use chariot_games::{GameRecord, Severity};
use chariot_rules::random::Rng;
use chariot_rules::{Move, Position};
use thiserror::Error;

/// Where a game starts: a position and moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// A name for tables and the PGN `Opening` tag.
    pub name: Option<String>,
    /// The position before the opening's moves (no history).
    pub start: Position,
    /// The opening's moves.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position, no moves.
    #[must_use]
    pub fn start_position() -> Opening {
        Opening {
            name: None,
            start: Position::start(),
            moves: Vec::new(),
        }
    }
}

/// The formats of opening files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One FEN/EPD position a line.
    Epd,
    /// Games in any file `chariot_games` reads (PGN, DhtmlXQ, XQF; plain or zstd).
    Pgn,
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "epd" | "fen" => Ok(Format::Epd),
            "pgn" => Ok(Format::Pgn),
            _ => Err(format!(
                "unknown opening format {s:?} (expected epd or pgn)"
            )),
        }
    }
}

impl Format {
    /// The format a file name suggests: game files (`.pgn`, `.xqf`, `.ubb`, `.htm`, `.html`,
    /// `.zst`) are games, anything else EPD.
    #[must_use]
    pub fn from_path(path: &Path) -> Format {
        const GAMES: [&str; 6] = ["pgn", "xqf", "ubb", "htm", "html", "zst"];
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if GAMES.iter().any(|g| e.eq_ignore_ascii_case(g)) => Format::Pgn,
            _ => Format::Epd,
        }
    }
}

/// A problem in an opening file.
#[derive(Debug, Error)]
pub enum OpeningError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Something in the file is wrong.
    #[error("{path}:{line}: {message}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file holds no opening.
    #[error("{0}: no openings in the file")]
    Empty(PathBuf),
}

/// Reads an opening file, cutting lines to `plies` plies when given.
///
/// # Errors
/// [`OpeningError`] naming the file and line of the first problem: not UTF-8, a bad FEN, an
/// unreadable or illegal move; or an empty file.
pub fn load(
    path: &Path,
    format: Format,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let bytes = std::fs::read(path).map_err(|source| OpeningError::Io {
        path: path.to_owned(),
        source,
    })?;
    let bad = |line: usize, message: String| OpeningError::Bad {
        path: path.to_owned(),
        line,
        message,
    };
    let mut openings = match format {
        Format::Epd => {
            let text = String::from_utf8(bytes).map_err(|e| {
                let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                bad(
                    line,
                    "not UTF-8 text (an EPD file is ASCII FEN lines)".to_owned(),
                )
            })?;
            parse_epd(&text).map_err(|(l, m)| bad(l, m))?
        }
        Format::Pgn => parse_games(&bytes).map_err(|(l, m)| bad(l, m))?,
    };
    if openings.is_empty() {
        return Err(OpeningError::Empty(path.to_owned()));
    }
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    for (i, o) in openings.iter_mut().enumerate() {
        if let Some(n) = plies {
            o.moves.truncate(n);
        }
        if o.name.is_none() {
            o.name = Some(format!("{file} #{}", i + 1));
        }
    }
    Ok(openings)
}

/// Reads EPD/FEN lines. Errors are `(line, message)`.
pub fn parse_epd(text: &str) -> Result<Vec<Opening>, (usize, String)> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut fen: Vec<&str> = words.iter().take(2).copied().collect();
        let mut k = 2;
        // The castling and en-passant fields, then the counters, when present.
        while k < words.len() && k < 4 && words[k] == "-" {
            fen.push(words[k]);
            k += 1;
        }
        while k < words.len() && k < 6 && words[k].bytes().all(|b| b.is_ascii_digit()) {
            fen.push(words[k]);
            k += 1;
        }
        let fen = fen.join(" ");
        let start =
            Position::from_fen(&fen).map_err(|e| (i + 1, format!("bad FEN {fen:?}: {e}")))?;
        let ops = words[k..].join(" ");
        out.push(Opening {
            name: epd_id(&ops),
            start,
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// The value of the `id` operation in EPD operations (`id "name";`).
fn epd_id(ops: &str) -> Option<String> {
    for op in ops.split(';') {
        let op = op.trim();
        if let Some(rest) = op.strip_prefix("id ") {
            let v = rest.trim().trim_matches('"').trim();
            if !v.is_empty() {
                return Some(v.to_owned());
            }
        }
    }
    None
}

/// Reads the games of a game file and plays their moves. Errors are `(line, message)`: the
/// first game that cannot be read or played, with its line (1 for binary files).
pub fn parse_games(bytes: &[u8]) -> Result<Vec<Opening>, (usize, String)> {
    let mut out = Vec::new();
    let mut failed = None;
    let summary = chariot_games::read_bytes(bytes, &mut |record| {
        if failed.is_none() {
            match opening(&record) {
                Ok(o) => out.push(o),
                Err(e) => failed = Some(e),
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if let Some(p) = summary
        .problems
        .iter()
        .find(|p| p.severity == Severity::Error)
    {
        return Err((p.line.unwrap_or(1), p.to_string()));
    }
    Ok(out)
}

/// The opening a game gives: its start position and moves, named by its tags.
fn opening(record: &GameRecord) -> Result<Opening, (usize, String)> {
    let line = record.line.unwrap_or(1);
    let tag = |name: &str| record.tag(name).filter(|v| !v.is_empty() && *v != "?");
    let name = match (tag("Opening"), tag("Variation")) {
        (Some(o), Some(v)) => Some(format!("{o}, {v}")),
        (Some(o), None) => Some(o.to_owned()),
        _ => None,
    };
    let (start, moves) = if record.moves.is_empty() {
        let start = match &record.fen {
            Some(fen) => Position::from_fen(fen).map_err(|e| {
                (
                    line,
                    format!("game {}: bad FEN {fen:?}: {e}", record.number),
                )
            })?,
            None => Position::start(),
        };
        (start, Vec::new())
    } else {
        let game =
            check(record).map_err(|r| (line, r.located("").trim_start_matches(": ").to_owned()))?;
        let start = match &game.start {
            Some(board) => Position::from_fen(&format!("{board} - - 0 1"))
                .map_err(|e| (line, format!("game {}: {e}", record.number)))?,
            None => Position::start(),
        };
        (start, game.moves)
    };
    Ok(Opening { name, start, moves })
}

/// In which order openings are used (`order=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// File order (`order=sequential`, the default).
    #[default]
    Sequential,
    /// Shuffled once with the seed (`order=random`, `--srand`).
    Random,
}

impl FromStr for Order {
    type Err = String;

    fn from_str(s: &str) -> Result<Order, String> {
        match s {
            "sequential" => Ok(Order::Sequential),
            "random" => Ok(Order::Random),
            _ => Err(format!(
                "unknown order {s:?} (expected sequential or random)"
            )),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Sequential => "sequential",
            Order::Random => "random",
        })
    }
}

/// A problem with book openings.
#[derive(Debug, Error)]
pub enum BookOpeningError {
    /// The book has no move (of weight above 0) for the start position, so no opening can be
    /// drawn from it.
    #[error("{0}: the book has no move for the start position")]
    NoStartMove(PathBuf),
}

/// Walks tried per opening wanted before settling for fewer distinct ones (a small book may
/// not hold as many distinct lines as there are games).
const WALKS_PER_OPENING: usize = 20;

/// Up to `count` distinct openings drawn from `book`: random walks from the start position of
/// at most `plies` plies (a walk stops earlier where the book has no move), each move drawn in
/// proportion to its book weight ([`book::choose`] at temperature 1) with a generator seeded
/// with `seed`, so the same seed gives the same openings. Lines that end in the same position
/// (transpositions, repeats) count once. Each opening is named by its moves in ICCS.
///
/// Fewer than `count` come back when the book holds fewer distinct lines (the tournament then
/// cycles through them).
///
/// # Errors
/// [`BookOpeningError::NoStartMove`] when the book knows no move of the start position.
pub fn from_book(
    book: &Book,
    plies: usize,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, BookOpeningError> {
    let start = Position::start();
    if book::choose(&book.probe(&start), 0.0, 0.0).is_none() {
        return Err(BookOpeningError::NoStartMove(book.path().to_owned()));
    }
    let mut rng = Rng::seeded(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let walks = count
        .saturating_mul(WALKS_PER_OPENING)
        .max(WALKS_PER_OPENING);
    for _ in 0..walks {
        if out.len() >= count {
            break;
        }
        let mut pos = start.clone();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let Some(m) = book::choose(&book.probe(&pos), 1.0, rng.unit()) else {
                break;
            };
            pos.make_move(m.mv);
            moves.push(m.mv);
        }
        if moves.is_empty() || !seen.insert(pos.key()) {
            continue;
        }
        let name = moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        out.push(Opening {
            name: Some(name),
            start: start.clone(),
            moves,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fen_and_epd_lines() {
        let text = "# comment\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
            \n\
            rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - id \"central cannon\";\n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\n";
        let o = parse_epd(text).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[1].name.as_deref(), Some("central cannon"));
        assert_eq!(o[2].start.turn(), chariot_rules::Color::Black);
        let err = parse_epd("ok\nrnbakabnr/9 w\n").unwrap_err();
        assert_eq!(err.0, 1);
    }

    #[test]
    fn reads_pgn_in_all_notations() {
        let text = "[Game \"Chinese Chess\"]\n[Opening \"Central cannon\"]\n\n\
            1. h2e2 {a comment} h9g7 (1... b9c7) 2. h0g2 $1 i9h9 *\n\n\
            [Opening \"WXF\"]\n1. C2.5 H8+7 2. H2+3 R9.8 1-0\n\n\
            [FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\
            1.炮二平五 马8进7 2.马二进三 车9平8 1/2-1/2\n";
        let o = parse_games(text.as_bytes()).unwrap();
        assert_eq!(o.len(), 3);
        let iccs: Vec<Vec<String>> = o
            .iter()
            .map(|g| g.moves.iter().map(ToString::to_string).collect())
            .collect();
        assert_eq!(iccs[0], ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(iccs[1], iccs[0]);
        assert_eq!(iccs[2], iccs[0]);
        assert_eq!(o[0].name.as_deref(), Some("Central cannon"));
        assert_eq!(o[2].name, None);
    }

    #[test]
    fn an_illegal_pgn_move_names_its_game_and_ply() {
        let err = parse_games(b"[Event \"x\"]\n\n1. h2e2 h9g7\n2. h2h9\n").unwrap_err();
        assert_eq!(err.0, 1);
        assert!(
            err.1.contains("ply 3") && err.1.contains("h2h9"),
            "{}",
            err.1
        );
    }

    #[test]
    fn openings_come_from_gbk_files_and_positions_without_moves() {
        use chariot_games::write::{Charset, encode};
        let text = "[Opening \"中炮\"]\n1. 炮二平五 马8进7 *\n\n\
            [FEN \"3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1\"]\n*\n";
        let o = parse_games(&encode(text, Charset::Gbk).unwrap()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].name.as_deref(), Some("中炮"));
        assert_eq!(o[0].moves.len(), 2);
        assert!(o[1].moves.is_empty());
        assert_eq!(o[1].start.turn(), chariot_rules::Color::Black);
    }

    /// A book of six lines from the start, two of which transpose (three plies each).
    fn write_book(name: &str, start_weight: u32) -> Book {
        use chariot_formats::book::{BookWriter, BuildInfo, Entry, MoveStats, canonical};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        let mut w = BookWriter::new(BuildInfo::default());
        let lines: [&[&str]; 6] = [
            &["h2e2", "h9g7", "h0g2"],
            &["h2e2", "b9c7"],
            &["h2e2", "c6c5", "c3c4"],
            &["c3c4", "g6g5"],
            &["c3c4", "c6c5", "h2e2"],
            &["b2e2"],
        ];
        let mut seen = std::collections::HashSet::new();
        for line in lines {
            let mut pos = Position::start();
            for text in line {
                let m = chariot_rules::notation::parse_iccs(text).unwrap();
                let (key, mv) = canonical(&pos, m, false);
                if seen.insert((key, mv)) {
                    let weight = if pos.history().is_empty() {
                        start_weight
                    } else {
                        10
                    };
                    w.push(Entry {
                        key,
                        mv,
                        stats: MoveStats {
                            games: 10,
                            draws: 10,
                            ..MoveStats::default()
                        },
                        weight,
                    });
                }
                assert!(pos.is_legal(m), "{text}");
                pos.make_move(m);
            }
        }
        w.write(&path).unwrap();
        Book::from_bytes(name, std::fs::read(&path).unwrap()).unwrap()
    }

    fn names(openings: &[Opening]) -> Vec<String> {
        openings.iter().map(|o| o.name.clone().unwrap()).collect()
    }

    #[test]
    fn book_walks_are_seeded_distinct_and_named_by_their_moves() {
        let book = write_book("walks.xqb", 10);
        // Five distinct end positions: the two lines that transpose count once.
        let all = from_book(&book, 3, 100, 1).unwrap();
        assert_eq!(all.len(), 5, "{:?}", names(&all));
        let mut keys = std::collections::HashSet::new();
        for o in &all {
            assert!(!o.moves.is_empty() && o.moves.len() <= 3);
            let mut pos = o.start.clone();
            for &m in &o.moves {
                assert!(pos.is_legal(m));
                pos.make_move(m);
            }
            assert!(keys.insert(pos.key()));
            let iccs: Vec<String> = o.moves.iter().map(ToString::to_string).collect();
            assert_eq!(o.name.as_deref(), Some(iccs.join(" ").as_str()));
        }
        let mut sorted = names(&all);
        sorted.sort();
        assert!(sorted.contains(&"h2e2 h9g7 h0g2".to_owned()), "{sorted:?}");
        // Walks stop early where the book has no move.
        assert!(sorted.contains(&"b2e2".to_owned()), "{sorted:?}");
        assert!(sorted.contains(&"h2e2 b9c7".to_owned()), "{sorted:?}");
        // The same seed gives the same openings in the same order; another seed another order.
        assert_eq!(names(&from_book(&book, 3, 100, 1).unwrap()), names(&all));
        assert_ne!(names(&from_book(&book, 3, 100, 2).unwrap()), names(&all));
        // As many as asked for, when the book has them; the ply limit cuts the walks.
        assert_eq!(from_book(&book, 3, 2, 1).unwrap().len(), 2);
        let one = from_book(&book, 1, 100, 1).unwrap();
        let mut one = names(&one);
        one.sort();
        assert_eq!(one, ["b2e2", "c3c4", "h2e2"]);
    }

    #[test]
    fn a_book_without_start_moves_gives_no_openings() {
        let book = write_book("zero.xqb", 0);
        let err = from_book(&book, 3, 10, 1).unwrap_err();
        assert!(err.to_string().contains("zero.xqb"), "{err}");
    }
}
