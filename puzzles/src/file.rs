//! The puzzle file (`docs/formats/puzzles.md`): its reader and its writer.
//!
//! UTF-8 text. The first line is the magic and version, `# chariot puzzles 1`; further lines
//! starting with `#` are comments, blank lines are skipped; every other line is one puzzle,
//! seven fields separated by tabs:
//!
//! ```text
//! ID  SOURCE  GOAL  DIFFICULTY  FEN  LINE  TITLE
//! ```
//!
//! `LINE` is the winning line in ICCS moves separated by spaces. The reader trusts nothing: it
//! checks every field, that the id is the position's ([`Puzzle::id_of`]) and appears once, that
//! the line is legal move by move with the solver's move first and last, and that a mate's
//! line has the length its goal says and leaves the defender without a legal move. What only a
//! search can confirm (that the mate is forced, that one move alone wins) is checked by
//! [`crate::verify`].

use std::collections::HashMap;

use chariot_rules::{Move, Position, PositionError};

use crate::record::{Goal, Puzzle};

/// The first line of every puzzle file.
pub const MAGIC: &str = "# chariot puzzles 1";

/// The column names, written as a comment under the magic.
const COLUMNS: &str = "# id\tsource\tgoal\tdifficulty\tfen\tline\ttitle";

/// What is wrong with a puzzle file. Each names the line (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The first line is not [`MAGIC`] (another file, or another version).
    #[error("line 1: expected {MAGIC:?}, found {0:?}")]
    Magic(String),
    /// A puzzle line without seven tab-separated fields.
    #[error("line {line}: expected 7 tab-separated fields, found {found}")]
    Fields {
        /// The line.
        line: usize,
        /// The fields found.
        found: usize,
    },
    /// A field that is not one of its values.
    #[error("line {line}: {field} {value:?} is not {expected}")]
    Field {
        /// The line.
        line: usize,
        /// The field's name.
        field: &'static str,
        /// Its text.
        value: String,
        /// What it may be.
        expected: &'static str,
    },
    /// The FEN is not a legal position.
    #[error("line {line}: FEN {fen:?}: {source}")]
    Position {
        /// The line.
        line: usize,
        /// The FEN.
        fen: String,
        /// Why it is no position.
        source: PositionError,
    },
    /// The id is not the position's.
    #[error("line {line}: id {id:?} is not the position's ({expected})")]
    Id {
        /// The line.
        line: usize,
        /// The id written.
        id: String,
        /// The position's id.
        expected: String,
    },
    /// A second puzzle with an id already read.
    #[error("line {line}: id {id} appears twice (first on line {first})")]
    Duplicate {
        /// The line.
        line: usize,
        /// The id.
        id: String,
        /// Where it appeared first.
        first: usize,
    },
    /// A move of the line that is not legal where it stands.
    #[error("line {line}: move {number} of the line ({text:?}) is not legal there")]
    Illegal {
        /// The line.
        line: usize,
        /// The move's number in the line, from 1.
        number: usize,
        /// Its text.
        text: String,
    },
    /// A line of even length (the opponent's move last) or none.
    #[error("line {line}: the line has {plies} moves; it must end with the solver's move")]
    Length {
        /// The line.
        line: usize,
        /// Its moves.
        plies: usize,
    },
    /// A mate whose line does not fit its goal: another length, or the defender can still move.
    #[error("line {line}: goal {goal}, but {why}")]
    NotMate {
        /// The line.
        line: usize,
        /// The goal.
        goal: Goal,
        /// What is wrong.
        why: String,
    },
    /// A title the format cannot hold (it has a tab or a line break), or an empty one.
    #[error("puzzle {id}: title {title:?} is empty or holds a tab or a line break")]
    Title {
        /// The puzzle.
        id: String,
        /// Its title.
        title: String,
    },
}

/// Reads every puzzle of a file's text.
///
/// # Errors
/// The first [`FileError`] found, naming its line.
pub fn read(text: &str) -> Result<Vec<Puzzle>, FileError> {
    let mut lines = text.lines().enumerate();
    let first = lines.next().map_or("", |(_, l)| l);
    if first.trim_end() != MAGIC {
        return Err(FileError::Magic(first.chars().take(40).collect()));
    }
    let mut puzzles = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, text) in lines {
        let line = i + 1;
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        let p = parse_line(line, text)?;
        if let Some(&first) = seen.get(&p.id) {
            return Err(FileError::Duplicate {
                line,
                id: p.id,
                first,
            });
        }
        seen.insert(p.id.clone(), line);
        puzzles.push(p);
    }
    Ok(puzzles)
}

/// One puzzle line.
fn parse_line(line: usize, text: &str) -> Result<Puzzle, FileError> {
    let fields: Vec<&str> = text.trim_end_matches('\r').split('\t').collect();
    let [id, source, goal, difficulty, fen, moves, title] = fields[..] else {
        return Err(FileError::Fields {
            line,
            found: fields.len(),
        });
    };
    let field = |field: &'static str, value: &str, expected: &'static str| FileError::Field {
        line,
        field,
        value: value.to_owned(),
        expected,
    };
    let source = source.parse().map_err(|()| {
        field(
            "source",
            source,
            "classic, ccpd-mates, ccpd-tactics, masters or tables",
        )
    })?;
    let goal: Goal = goal
        .parse()
        .map_err(|()| field("goal", goal, "mateN (N from 1) or win"))?;
    let difficulty = difficulty
        .parse()
        .map_err(|()| field("difficulty", difficulty, "easy, medium or hard"))?;
    if title.trim().is_empty() {
        return Err(field("title", title, "a text"));
    }
    let position = Position::from_fen(fen).map_err(|source| FileError::Position {
        line,
        fen: fen.to_owned(),
        source,
    })?;
    let expected = Puzzle::id_of(&position);
    if id != expected {
        return Err(FileError::Id {
            line,
            id: id.to_owned(),
            expected,
        });
    }
    let line_moves = play(line, &position, moves)?;
    let puzzle = Puzzle {
        id: expected,
        source,
        goal,
        difficulty,
        position,
        line: line_moves,
        title: title.to_owned(),
    };
    check_shape(line, &puzzle)?;
    Ok(puzzle)
}

/// The moves of a line's text, each legal where it is played.
fn play(line: usize, start: &Position, text: &str) -> Result<Vec<Move>, FileError> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, word) in text.split(' ').filter(|w| !w.is_empty()).enumerate() {
        let m = pos
            .legal_move_list()
            .iter()
            .copied()
            .find(|m| m.to_string() == word)
            .ok_or_else(|| FileError::Illegal {
                line,
                number: i + 1,
                text: word.to_owned(),
            })?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(moves)
}

/// The line ends with the solver's move; a mate's line has its goal's length and mates.
fn check_shape(line: usize, p: &Puzzle) -> Result<(), FileError> {
    if p.line.len().is_multiple_of(2) {
        return Err(FileError::Length {
            line,
            plies: p.line.len(),
        });
    }
    if let Goal::Mate(n) = p.goal {
        let not_mate = |why: String| FileError::NotMate {
            line,
            goal: p.goal,
            why,
        };
        if p.solver_moves() != n as usize {
            return Err(not_mate(format!(
                "the line has {} of the solver's moves",
                p.solver_moves()
            )));
        }
        if p.after(p.line.len()).has_legal_move() {
            return Err(not_mate("the defender has a legal move at its end".into()));
        }
    }
    Ok(())
}

/// The text of a puzzle file holding `puzzles` in their order, under [`MAGIC`], the column names
/// and `comments` (each written as a `#` line).
///
/// # Errors
/// [`FileError::Title`] for a title the format cannot hold.
pub fn write(puzzles: &[Puzzle], comments: &[String]) -> Result<String, FileError> {
    let mut out = String::new();
    out.push_str(MAGIC);
    out.push('\n');
    for c in comments {
        for l in c.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str(COLUMNS);
    out.push('\n');
    for p in puzzles {
        if p.title.trim().is_empty() || p.title.contains(['\t', '\n', '\r']) {
            return Err(FileError::Title {
                id: p.id.clone(),
                title: p.title.clone(),
            });
        }
        let line: Vec<String> = p.line.iter().map(ToString::to_string).collect();
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            p.id,
            p.source,
            p.goal,
            p.difficulty,
            p.position.fen(),
            line.join(" "),
            p.title
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Difficulty, Source};

    fn sample() -> Vec<Puzzle> {
        let mate = Position::from_fen("4ka3/4a4/8C/9/9/2B6/9/9/9/3K5 w - - 0 1").unwrap();
        let tactic = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        let m = |pos: &Position, s: &str| {
            pos.legal_move_list()
                .iter()
                .copied()
                .find(|m| m.to_string() == s)
                .unwrap()
        };
        vec![
            Puzzle {
                id: Puzzle::id_of(&mate),
                source: Source::Tables,
                goal: Goal::Mate(1),
                difficulty: Difficulty::Easy,
                line: vec![m(&mate, "i7i9")],
                position: mate,
                title: "KCBKAA".into(),
            },
            Puzzle {
                id: Puzzle::id_of(&tactic),
                source: Source::Masters,
                goal: Goal::Win,
                difficulty: Difficulty::Hard,
                line: vec![m(&tactic, "h2e2")],
                position: tactic,
                title: "Red – Black, an event, 1990".into(),
            },
        ]
    }

    #[test]
    fn a_file_reads_back_as_written() {
        let puzzles = sample();
        let text = write(&puzzles, &["made by a test".into()]).unwrap();
        assert!(text.starts_with("# chariot puzzles 1\n# made by a test\n# id\t"));
        let read_back = read(&text).unwrap();
        assert_eq!(read_back, puzzles);
        assert_eq!(write(&read_back, &["made by a test".into()]).unwrap(), text);
    }

    /// The file with its second puzzle line changed by `edit`.
    fn edited(edit: impl Fn(&mut Vec<String>)) -> Result<Vec<Puzzle>, FileError> {
        let text = write(&sample(), &[]).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let mut fields: Vec<String> = lines[2].split('\t').map(str::to_owned).collect();
        edit(&mut fields);
        lines[2] = fields.join("\t");
        read(&lines.join("\n"))
    }

    #[test]
    fn every_fault_is_named_with_its_line() {
        assert!(matches!(read("id\tclassic"), Err(FileError::Magic(_))));
        assert!(matches!(read(""), Err(FileError::Magic(_))));
        let e = edited(|f| f.truncate(6)).unwrap_err();
        assert_eq!(e, FileError::Fields { line: 3, found: 6 });
        let e = edited(|f| f[1] = "book".into()).unwrap_err();
        assert!(
            matches!(
                e,
                FileError::Field {
                    line: 3,
                    field: "source",
                    ..
                }
            ),
            "{e}"
        );
        let e = edited(|f| f[2] = "mate0".into()).unwrap_err();
        assert!(matches!(e, FileError::Field { field: "goal", .. }), "{e}");
        let e = edited(|f| f[3] = "trivial".into()).unwrap_err();
        assert!(
            matches!(
                e,
                FileError::Field {
                    field: "difficulty",
                    ..
                }
            ),
            "{e}"
        );
        let e = edited(|f| f[4] = "9/9 w".into()).unwrap_err();
        assert!(matches!(e, FileError::Position { line: 3, .. }), "{e}");
        let e = edited(|f| f[0] = "00000000".into()).unwrap_err();
        assert!(matches!(e, FileError::Id { .. }), "{e}");
        let e = edited(|f| f[5] = "c4c5".into()).unwrap_err();
        assert!(matches!(e, FileError::Illegal { number: 1, .. }), "{e}");
        let e = edited(|f| f[5] = "c4e2 e8d7".into()).unwrap_err();
        assert!(matches!(e, FileError::Length { plies: 2, .. }), "{e}");
        let e = edited(|f| f[2] = "mate2".into()).unwrap_err();
        assert!(matches!(e, FileError::NotMate { .. }), "{e}");
        let e = edited(|f| f[5] = "c4e2".into()).unwrap_err();
        assert!(e.to_string().contains("defender has a legal move"), "{e}");
        let e = edited(|f| f[6] = " ".into()).unwrap_err();
        assert!(matches!(e, FileError::Field { field: "title", .. }), "{e}");
        let text = write(&sample(), &[]).unwrap();
        let twice = format!("{text}{}", text.lines().nth(2).unwrap());
        assert!(matches!(
            read(&twice),
            Err(FileError::Duplicate { first: 3, .. })
        ));
    }

    proptest::proptest! {
        /// Files on disk are untrusted: whatever the text, the reader answers with puzzles or
        /// an error naming a line, never a panic. The text is a valid file with one character
        /// replaced, or the magic and lines of fields drawn from valid and broken values.
        #[test]
        fn any_text_reads_or_is_refused(at in 0usize..400, c in proptest::char::any()) {
            let text = write(&sample(), &[]).unwrap();
            let mut chars: Vec<char> = text.chars().collect();
            let i = at % chars.len();
            chars[i] = c;
            let edited: String = chars.into_iter().collect();
            if let Err(e) = read(&edited) {
                proptest::prop_assert!(e.to_string().starts_with("line "), "{e}");
            }
        }

        #[test]
        fn any_fields_read_or_are_refused(lines in proptest::collection::vec(
            proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("classic".to_owned()),
                    proptest::strategy::Just("mate1".to_owned()),
                    proptest::strategy::Just("win".to_owned()),
                    proptest::strategy::Just("easy".to_owned()),
                    proptest::strategy::Just("4ka3/4a4/8C/9/9/2B6/9/9/9/3K5 w - - 0 1".to_owned()),
                    proptest::strategy::Just("i7i9".to_owned()),
                    proptest::strategy::Just("i7i9 e9e8 i9i8".to_owned()),
                    ".{0,12}",
                ],
                0..9,
            ),
            0..5,
        )) {
            let mut text = format!("{MAGIC}\n");
            for fields in lines {
                text.push_str(&fields.join("\t"));
                text.push('\n');
            }
            let _ = read(&text);
        }
    }

    #[test]
    fn a_title_with_a_tab_is_not_written() {
        let mut puzzles = sample();
        puzzles[0].title = "a\tb".into();
        assert!(matches!(write(&puzzles, &[]), Err(FileError::Title { .. })));
    }
}
