//! WXF notation: `C2.5`, `H8+7`, `R1-1`, `R+.4`, `++.4`, `3+.4`.
//!
//! Four characters: the piece letter (K A E H R C P), the file it stands on (1-9 from the mover's
//! right), the direction (`+` forward, `-` backward, `.` sideways) and a number: the destination
//! file, or for a general, chariot, cannon or soldier moving along its file, the number of
//! ranks. Tandem pieces, as the WXF's official notation page defines them:
//!
//! - two (or three) like pieces on a file: the file digit becomes `+` (front) or `-` (rear):
//!   `R+.4`, `C--1`; the middle one of three soldiers keeps its file digit: `P3.4`;
//! - four or five soldiers on a file: `++` the foremost, `P+` the second, `P3` the middle of
//!   five, `P-` the second from the rear, `--` the rearmost;
//! - tandem soldiers on two files: the file digit replaces the letter: `3+.4`, `33.4` (middle),
//!   `3-.4`.
//!
//! Also read: the leading-sign placement real files use (`+R.4`, `-C+1`, `＋Ｐ＋１`), full-width
//! characters (`Ｃ２＝５`), `=` for `.`, any letter case, `E`/`B` and `H`/`N` for the elephant
//! and horse, and the three-character sideways form without a sign (`C25`).

use crate::{Color, Kind, Move, Position};

use super::describe::write_move;
use super::error::MoveTextError;
use super::text::fold;
use super::{Action, Description, Notation, Tandem};

/// Reads WXF move text without a position.
///
/// # Errors
/// [`MoveTextError::Malformed`] naming what is wrong: the length, an unknown piece letter, a
/// designator that is none of the forms above, a direction other than `+ - . =`, or a number
/// outside 1-9.
pub fn parse_wxf(text: &str) -> Result<Description, MoveTextError> {
    let chars: Vec<char> = text
        .trim()
        .chars()
        .map(|c| match fold(c) {
            '=' => '.',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    let bad = |reason: String| MoveTextError::malformed(text, reason);
    let (a, b, action, target) = match chars.as_slice() {
        // `C25`: the sideways move written without its sign.
        &[a, b, t] => (a, b, '.', t),
        &[a, b, s, t] => (a, b, s, t),
        [] => return Err(bad("empty text".to_owned())),
        _ => {
            return Err(bad(format!(
                "WXF moves have four characters (C2.5, H8+7, R+.4), this has {}",
                chars.len()
            )));
        }
    };
    let (kind, file, tandem) = designator(a, b).ok_or_else(|| {
        bad(format!(
            "{a}{b:?} does not name a piece: expected a letter K A E H R C P with a file 1-9 (C2), \
             a tandem sign (R+, +R, ++, --) or a soldier's file with a sign (3+, 33)"
        ))
    })?;
    let action = match action {
        '+' => Action::Forward,
        '-' => Action::Backward,
        '.' => Action::Sideways,
        c => {
            return Err(bad(format!(
                "{c:?} is not a direction: expected + (forward), - (backward) or . (sideways)"
            )));
        }
    };
    let target = digit(target).ok_or_else(|| {
        bad(format!(
            "{target:?} is not a number 1-9 (a destination file or a count of ranks)"
        ))
    })?;
    Ok(Description {
        kind,
        file,
        tandem,
        action,
        target,
    })
}

/// The digit 1-9 `c` stands for.
fn digit(c: char) -> Option<u8> {
    matches!(c, '1'..='9').then(|| c as u8 - b'0')
}

/// The sign `+` or `-` as front or rear, given the two mark families.
fn sign(c: char, front: Tandem, rear: Tandem) -> Option<Tandem> {
    match c {
        '+' => Some(front),
        '-' => Some(rear),
        _ => None,
    }
}

/// The first two characters: which piece.
fn designator(a: char, b: char) -> Option<(Kind, Option<u8>, Option<Tandem>)> {
    let letter = |c: char| {
        if c.is_ascii_alphabetic() {
            Kind::from_letter(c)
        } else {
            None
        }
    };
    if let Some(kind) = letter(a) {
        if let Some(file) = digit(b) {
            return Some((kind, Some(file), None));
        }
        return Some((
            kind,
            None,
            Some(sign(b, Tandem::WxfFront, Tandem::WxfRear)?),
        ));
    }
    if let Some(kind) = letter(b) {
        return Some((kind, None, Some(sign(a, Tandem::Front, Tandem::Rear)?)));
    }
    if let Some(file) = digit(a) {
        if digit(b) == Some(file) {
            return Some((Kind::Soldier, Some(file), Some(Tandem::Middle)));
        }
        return Some((
            Kind::Soldier,
            Some(file),
            Some(sign(b, Tandem::WxfFront, Tandem::WxfRear)?),
        ));
    }
    if a == b {
        return Some((
            Kind::Soldier,
            None,
            Some(sign(a, Tandem::Front, Tandem::Rear)?),
        ));
    }
    None
}

/// The WXF letter of a kind (E for the elephant and H for the horse, unlike FEN).
fn letter(kind: Kind) -> char {
    match kind {
        Kind::Elephant => 'E',
        Kind::Horse => 'H',
        k => k.letter(),
    }
}

/// A description in WXF, if WXF can express it.
fn render(d: &Description, _: Color) -> Option<String> {
    let l = letter(d.kind);
    let pawn = d.kind == Kind::Soldier;
    let piece = match (d.file, d.tandem) {
        (Some(f), None) => format!("{l}{f}"),
        (None, Some(Tandem::WxfFront)) => format!("{l}+"),
        (None, Some(Tandem::WxfRear)) => format!("{l}-"),
        (None, Some(Tandem::Front)) if pawn => "++".to_owned(),
        (None, Some(Tandem::Rear)) if pawn => "--".to_owned(),
        (None, Some(Tandem::Front)) => format!("+{l}"),
        (None, Some(Tandem::Rear)) => format!("-{l}"),
        (Some(f), Some(Tandem::WxfFront)) if pawn => format!("{f}+"),
        (Some(f), Some(Tandem::WxfRear)) if pawn => format!("{f}-"),
        (Some(f), Some(Tandem::Middle)) if pawn => format!("{f}{f}"),
        _ => return None,
    };
    let action = match d.action {
        Action::Forward => '+',
        Action::Backward => '-',
        Action::Sideways => '.',
    };
    Some(format!("{piece}{action}{}", d.target))
}

/// Writes the legal move `m` of `pos` in WXF, ASCII with `.` for sideways moves (`C2.5`,
/// `R+.4`, `++.4`, `3+.4`), using tandem marks exactly when several like pieces share the
/// file (advisors and elephants excepted: their direction tells two on a file apart).
///
/// # Errors
/// [`MoveTextError::Illegal`] when `m` is not legal in `pos`; [`MoveTextError::Inexpressible`]
/// when WXF has no mark for the piece, which happens only with waived piece counts (an inner
/// one of six like pieces on a file, or four on a file while another file also has several).
pub fn format_wxf(pos: &Position, m: Move) -> Result<String, MoveTextError> {
    write_move(pos, m, Notation::Wxf, render, parse_wxf)
}
