//! ICCS coordinates: the from-square and the to-square, `h2e2`.
//!
//! Files a-i run from Red's left, ranks 0-9 from Red's back rank. Input may be upper or lower
//! case, full-width, with or without a dash between the squares (`h2e2`, `H2-E2`); output is
//! lowercase without a dash, as UCCI writes it.

use crate::{Move, Position, Square};

use super::error::MoveTextError;
use super::text::fold;

/// The squares of ICCS text, if it has the shape `h2e2` or `h2-e2` (any case, full-width
/// allowed, surrounding whitespace ignored).
fn squares(text: &str) -> Option<(Square, Square)> {
    let chars: Vec<char> = text.trim().chars().map(fold).collect();
    let chars: Vec<char> = match chars.as_slice() {
        [a, b, '-', c, d] => vec![*a, *b, *c, *d],
        [_, _, _, _] => chars,
        _ => return None,
    };
    let square = |f: char, r: char| -> Option<Square> {
        let file = (f.to_ascii_lowercase() as u32).checked_sub('a' as u32)?;
        let rank = (r as u32).checked_sub('0' as u32)?;
        (file < 9 && rank < 10).then(|| Square::new(file as u8, rank as u8))
    };
    Some((square(chars[0], chars[1])?, square(chars[2], chars[3])?))
}

/// `true` when `text` has the shape of ICCS coordinates.
pub(crate) fn looks_like_iccs(text: &str) -> bool {
    squares(text).is_some()
}

/// Reads ICCS coordinates (`h2e2`, `H2-E2`, any case, full-width allowed) without a position.
///
/// # Errors
/// [`MoveTextError::Malformed`] when the text is not two squares, or names the same square twice.
pub fn parse_iccs(text: &str) -> Result<Move, MoveTextError> {
    let (from, to) = squares(text).ok_or_else(|| {
        MoveTextError::malformed(
            text,
            "expected ICCS coordinates: two squares a0-i9 such as h2e2 or H2-E2",
        )
    })?;
    if from == to {
        return Err(MoveTextError::malformed(
            text,
            format!("the move starts and ends on {from}"),
        ));
    }
    Ok(Move::new(from, to))
}

/// Writes `m` as ICCS coordinates, lowercase and without a dash (`h2e2`). Needs no position;
/// [`super::format_move`] also checks that the move is legal.
#[must_use]
pub fn format_iccs(m: Move) -> String {
    m.to_string()
}

/// `m` itself when it is legal in `pos`, otherwise an error saying why not, naming `text`.
pub(crate) fn check(m: Move, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    if pos.is_legal(m) {
        return Ok(m);
    }
    Err(MoveTextError::Illegal {
        text: text.to_owned(),
        reason: why_illegal(m, pos),
    })
}

/// Why the coordinates `m` are not a legal move in `pos`.
pub(crate) fn why_illegal(m: Move, pos: &Position) -> String {
    let (from, to) = (m.from(), m.to());
    let us = pos.turn();
    let Some(piece) = pos.piece_at(from) else {
        return format!("there is no piece on {from}");
    };
    let name = format!("{} {}", piece.color(), piece.kind().name());
    if piece.color() != us {
        return format!("the piece on {from} is a {name}, but {us} is to move");
    }
    if from == to {
        return format!("the move starts and ends on {from}");
    }
    if pos.piece_at(to).is_some_and(|p| p.color() == us) {
        return format!("the {name} on {from} cannot take its own piece on {to}");
    }
    if pos.is_pseudo_legal(m) {
        return format!(
            "moving the {name} from {from} to {to} would leave the {us} general in check or facing the other general"
        );
    }
    format!("the {name} on {from} cannot move to {to}")
}
