//! Why move text could not be read, matched or written.

use std::fmt;

use crate::Move;

use super::Notation;

/// Why move text could not be read, matched against a position, or written.
///
/// Every variant names the text (or, when writing, the move in ICCS) and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// The text is not a move in the notation (found without looking at a position).
    #[error("cannot read move {text:?}: {reason}")]
    Malformed {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No piece of the side to move fits the description (`炮二平五` with no cannon on file 2).
    #[error("move {text:?} names no piece: {reason}")]
    NoSuchPiece {
        /// The text as given.
        text: String,
        /// Which piece was looked for.
        reason: String,
    },
    /// The text names a piece, or coordinates, but no legal move.
    #[error("move {text:?} is not legal: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// Why the move cannot be made.
        reason: String,
    },
    /// The text fits more than one legal move.
    #[error("move {text:?} is ambiguous: it fits {}", MoveSlice(moves))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves it fits (at least two).
        moves: Vec<Move>,
    },
    /// The notation has no words for this legal move (only in positions with waived piece
    /// counts, such as six chariots on one file).
    #[error("the legal move {mv} cannot be written in {notation}: {reason}")]
    Inexpressible {
        /// The move.
        mv: Move,
        /// The notation asked for.
        notation: Notation,
        /// Why not.
        reason: String,
    },
}

impl MoveTextError {
    /// The text (or, for [`MoveTextError::Inexpressible`], the move in ICCS) the error is about.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            MoveTextError::Malformed { text, .. }
            | MoveTextError::NoSuchPiece { text, .. }
            | MoveTextError::Illegal { text, .. }
            | MoveTextError::Ambiguous { text, .. } => text.clone(),
            MoveTextError::Inexpressible { mv, .. } => mv.to_string(),
        }
    }

    /// A [`MoveTextError::Malformed`] for `text`.
    pub(crate) fn malformed(text: &str, reason: impl Into<String>) -> MoveTextError {
        MoveTextError::Malformed {
            text: text.to_owned(),
            reason: reason.into(),
        }
    }
}

/// Moves listed as `h0g2, b0c2`.
struct MoveSlice<'a>(&'a [Move]);

impl fmt::Display for MoveSlice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}
