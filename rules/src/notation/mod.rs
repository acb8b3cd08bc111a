//! Move text in the three notations Xiangqi players and programs write: ICCS coordinates
//! (`h2e2`), WXF (`C2.5`) and Chinese (`炮二平五`).
//!
//! # Design
//!
//! Reading is done in two steps, as shakmaty does with `UciMove` and `San`:
//!
//! 1. [`parse_text`] (or [`parse_iccs`], [`parse_wxf`], [`parse_chinese`]) reads the text alone,
//!    without a position, into a [`MoveText`]: either ICCS coordinates or a [`Description`] (piece,
//!    which of several like pieces, file, direction, target). Only malformed text fails here.
//! 2. [`MoveText::to_move`] checks the description against a [`Position`] and finds the one legal
//!    move it describes, or says why there is none ([`MoveTextError::NoSuchPiece`],
//!    [`MoveTextError::Illegal`]) or more than one ([`MoveTextError::Ambiguous`]).
//!
//! [`parse_move`] does both and detects the notation; [`parse_move_as`] takes it as given.
//! Writing goes the other way: [`format_move`] describes a legal move in the notation asked for,
//! using the tandem forms (`前车`, `R+`, `++`, `3+`) exactly when several like pieces share a
//! file, and every text it writes reads back as the same move. `docs/notation.md` lists what is
//! accepted and written.
//!
//! ```
//! use chariot_rules::Position;
//! use chariot_rules::notation::{Notation, format_move, parse_move};
//!
//! let pos = Position::start();
//! let m = parse_move(&pos, "炮二平五")?;
//! assert_eq!(m, parse_move(&pos, "C2.5")?);
//! assert_eq!(m, parse_move(&pos, "H2-E2")?);
//! assert_eq!(format_move(&pos, m, Notation::Wxf)?, "C2.5");
//! assert_eq!(format_move(&pos, m, Notation::Chinese)?, "炮二平五");
//! assert!(parse_move(&pos, "前炮平五").is_err()); // no file holds two red cannons
//! # Ok::<(), chariot_rules::notation::MoveTextError>(())
//! ```
//!
//! Files in WXF and Chinese text are counted from each player's own right: Red's file 1 is the
//! i-file, Black's file 1 is the a-file. "Front" is towards the opponent.

mod chinese;
mod describe;
mod error;
mod iccs;
mod san;
mod squares;
mod text;
mod wxf;

use std::fmt;

use crate::{Kind, Move, Position};

pub use chinese::{ChineseStyle, format_chinese, parse_chinese};
pub use error::MoveTextError;
pub use iccs::{format_iccs, parse_iccs};
pub use san::parse_san;
pub use squares::SquareNaming;
pub use wxf::{format_wxf, parse_wxf};

/// The move notations this module reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates of the from- and to-square, `h2e2` (also `H2-E2` on input).
    Iccs,
    /// The World Xiangqi Federation's letters and digits, `C2.5`, `H8+7`, `R+.4`.
    Wxf,
    /// Chinese characters, `炮二平五`, `马８进７`, `前车进一`. Written in simplified characters;
    /// see [`format_chinese`] for traditional ones.
    Chinese,
}

impl Notation {
    /// All notations.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        })
    }
}

/// Which way a described move goes, seen from the side that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Towards the opponent (`+`, 进).
    Forward,
    /// Towards the own back rank (`-`, 退).
    Backward,
    /// Along the rank (`.`, `=`, 平); the target is the destination file.
    Sideways,
}

/// Which of several like pieces on one file is meant.
///
/// Pieces on a file are counted from the front (the end nearer the opponent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tandem {
    /// The foremost: 前, a leading sign `+R`, WXF `++` for four or five soldiers.
    Front,
    /// The rearmost: 后/後, a leading sign `-R`, WXF `--` for four or five soldiers.
    Rear,
    /// The middle one of three (or five): 中, WXF `33` (file digit twice) when two files hold
    /// tandem soldiers.
    Middle,
    /// The n-th from the front, 1-based: 一兵, 二兵, ... for four or five soldiers on a file.
    Nth(u8),
    /// WXF's trailing sign `R+`: the front piece of two or three, the second from the front of
    /// four or five.
    WxfFront,
    /// WXF's trailing sign `R-`: the rear piece of two or three, the second from the rear of
    /// four or five.
    WxfRear,
}

impl Tandem {
    /// The index (0 = front) of the piece meant among `count` like pieces on one file, if
    /// this mark can name one of them. A tandem mark needs at least two pieces on the file.
    #[must_use]
    pub fn index(self, count: usize) -> Option<usize> {
        if count < 2 {
            return None;
        }
        match self {
            Tandem::Front => Some(0),
            Tandem::Rear => Some(count - 1),
            Tandem::Middle => (count % 2 == 1).then_some(count / 2),
            Tandem::Nth(k) => (1..=count)
                .contains(&usize::from(k))
                .then(|| usize::from(k) - 1),
            Tandem::WxfFront => Some(if count <= 3 { 0 } else { 1 }),
            Tandem::WxfRear => Some(if count <= 3 { count - 1 } else { count - 2 }),
        }
    }
}

impl fmt::Display for Tandem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tandem::Front => f.write_str("front"),
            Tandem::Rear => f.write_str("rear"),
            Tandem::Middle => f.write_str("middle"),
            Tandem::Nth(1) => f.write_str("1st"),
            Tandem::Nth(2) => f.write_str("2nd"),
            Tandem::Nth(3) => f.write_str("3rd"),
            Tandem::Nth(k) => write!(f, "{k}th"),
            Tandem::WxfFront => f.write_str("front (WXF +)"),
            Tandem::WxfRear => f.write_str("rear (WXF -)"),
        }
    }
}

/// A move described the WXF or Chinese way: a piece, which one, where it goes.
///
/// Made by [`parse_wxf`] and [`parse_chinese`] without a position; checked against one by
/// [`Description::to_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Description {
    /// The kind of the moving piece (its side is the side to move).
    pub kind: Kind,
    /// The file the piece stands on, 1-9 counted from the mover's right, when the text gives it.
    pub file: Option<u8>,
    /// Which of several like pieces on a file, when the text says so.
    pub tandem: Option<Tandem>,
    /// The direction.
    pub action: Action,
    /// For a sideways move and for a diagonal mover (advisor, elephant, horse): the
    /// destination file, 1-9. For a straight move of a general, chariot, cannon or soldier: the
    /// number of ranks, 1-9.
    pub target: u8,
}

impl Description {
    /// The legal move this description names in `pos`.
    ///
    /// A plain file (no tandem mark) with three or five like pieces on it names the middle one
    /// (the WXF rule); with two or four it must fit exactly one legal move.
    ///
    /// # Errors
    /// [`MoveTextError::NoSuchPiece`] when no piece fits the description,
    /// [`MoveTextError::Illegal`] when none of those that fit can make the move,
    /// [`MoveTextError::Ambiguous`] when more than one can.
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveTextError> {
        describe::resolve(self, pos, &self.to_string())
    }
}

impl fmt::Display for Description {
    /// A plain English rendering, used in error messages: `front chariot on file 3 forward 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = self.tandem {
            write!(f, "{t} ")?;
        }
        f.write_str(self.kind.name())?;
        if let Some(file) = self.file {
            write!(f, " on file {file}")?;
        }
        let straight = describe::moves_straight(self.kind);
        match self.action {
            Action::Sideways => write!(f, " sideways to file {}", self.target),
            Action::Forward if straight => write!(f, " forward {}", self.target),
            Action::Backward if straight => write!(f, " back {}", self.target),
            Action::Forward => write!(f, " forward to file {}", self.target),
            Action::Backward => write!(f, " back to file {}", self.target),
        }
    }
}

/// Move text read without a position: coordinates or a description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// ICCS coordinates (not yet checked for legality).
    Iccs(Move),
    /// A WXF or Chinese description.
    Described(Description),
}

impl MoveText {
    /// The legal move this text names in `pos`.
    ///
    /// # Errors
    /// [`MoveTextError::Illegal`] when the coordinates are not a legal move; for a description,
    /// see [`Description::to_move`].
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveTextError> {
        match self {
            MoveText::Iccs(m) => iccs::check(*m, pos, &m.to_string()),
            MoveText::Described(d) => d.to_move(pos),
        }
    }

    /// Like [`MoveText::to_move`], naming `text` in the error.
    fn to_move_named(self, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        match self {
            MoveText::Iccs(m) => iccs::check(m, pos, text),
            MoveText::Described(d) => describe::resolve(&d, pos, text),
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Iccs(m) => write!(f, "{m}"),
            MoveText::Described(d) => write!(f, "{d}"),
        }
    }
}

/// The notation `text` is written in, judged from the text alone: Chinese when it holds a
/// Chinese character, ICCS when it has the shape of two squares (`h2e2`, `H2-E2`), WXF otherwise.
#[must_use]
pub fn detect(text: &str) -> Notation {
    if text.chars().any(text::is_cjk) {
        Notation::Chinese
    } else if iccs::looks_like_iccs(text) {
        Notation::Iccs
    } else {
        Notation::Wxf
    }
}

/// Reads move text in any of the three notations (see [`detect`]) without a position.
///
/// # Errors
/// [`MoveTextError::Malformed`] when the text is not a move in the detected notation.
pub fn parse_text(text: &str) -> Result<(Notation, MoveText), MoveTextError> {
    let notation = detect(text);
    let parsed = match notation {
        Notation::Iccs => parse_iccs(text).map(MoveText::Iccs),
        Notation::Wxf => parse_wxf(text)
            .map(MoveText::Described)
            .map_err(|e| not_any_notation(e, text)),
        Notation::Chinese => parse_chinese(text).map(MoveText::Described),
    }?;
    Ok((notation, parsed))
}

/// ASCII text that is neither ICCS nor WXF: say that the three notations were tried.
fn not_any_notation(err: MoveTextError, text: &str) -> MoveTextError {
    match err {
        MoveTextError::Malformed { reason, .. } if !text.trim().is_empty() => {
            MoveTextError::Malformed {
                text: text.to_owned(),
                reason: format!(
                    "not ICCS (h2e2) or Chinese (炮二平五), and as WXF (C2.5): {reason}"
                ),
            }
        }
        other => other,
    }
}

/// Reads move text in any notation and finds the legal move it names in `pos`.
///
/// # Errors
/// [`MoveTextError::Malformed`] for text that is not a move, otherwise as
/// [`MoveText::to_move`]. Every error names `text`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    match parse_text(text) {
        Ok((_, parsed)) => parsed.to_move_named(pos, text),
        // Text in none of the three notations may be WinBoard SAN (`Che2`, `g5`), which only
        // the position can tell from a typo.
        Err(e @ MoveTextError::Malformed { .. }) => match parse_san(pos, text) {
            Ok(m) => Ok(m),
            Err(MoveTextError::Malformed { .. }) => Err(e),
            // Only text that names a SAN piece (`Che2`) is surely meant as SAN; a bare square
            // (`h2`) is more likely a cut-short ICCS move, so its error is the notations' one.
            Err(san) if text.starts_with(|c: char| c.is_ascii_uppercase()) => Err(san),
            Err(_) => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Reads move text in the given notation and finds the legal move it names in `pos`.
///
/// # Errors
/// As [`parse_move`].
pub fn parse_move_as(
    pos: &Position,
    text: &str,
    notation: Notation,
) -> Result<Move, MoveTextError> {
    let parsed = match notation {
        Notation::Iccs => MoveText::Iccs(parse_iccs(text)?),
        Notation::Wxf => MoveText::Described(parse_wxf(text)?),
        Notation::Chinese => MoveText::Described(parse_chinese(text)?),
    };
    parsed.to_move_named(pos, text)
}

/// Writes the legal move `m` of `pos` in `notation`: ICCS `h2e2`, WXF `C2.5` (ASCII, `.` for
/// sideways), or Chinese in the canonical style ([`ChineseStyle::Simplified`]: `炮二平五`,
/// `马８进７`). The text reads back as `m` with [`parse_move`].
///
/// # Errors
/// [`MoveTextError::Illegal`] when `m` is not a legal move in `pos`;
/// [`MoveTextError::Inexpressible`] in positions set up with waived piece counts where the
/// notation has no words for the move (e.g. six chariots on one file).
pub fn format_move(pos: &Position, m: Move, notation: Notation) -> Result<String, MoveTextError> {
    match notation {
        Notation::Iccs => iccs::check(m, pos, &m.to_string()).map(format_iccs),
        Notation::Wxf => format_wxf(pos, m),
        Notation::Chinese => format_chinese(pos, m, ChineseStyle::Simplified),
    }
}
