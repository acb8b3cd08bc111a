//! Chinese notation: `炮二平五`, `马８进７`, `前车进一`, `中兵平四`, `二兵平三`.
//!
//! Four characters: the piece, the file it stands on (counted from the mover's right), the
//! direction (进 forward, 退 backward, 平 sideways) and a number: the destination file, or for a
//! general, chariot, cannon or soldier moving along its file, the number of ranks. When like
//! pieces share a file the file is replaced by 前 (front) / 后 (rear), 前/中/后 for three, and
//! 一二三四五 counted from the front for four or five soldiers; when two files hold tandem
//! soldiers the file follows the piece (`前兵七平六`).
//!
//! Input is lenient in the ways real game records are: simplified or traditional characters
//! and either side's characters for any piece (real files write 炮, 車, 馬 for both sides),
//! Chinese numerals, ASCII or full-width digits for either side, the mark after the piece
//! (`車前平三`, as the WXF writes it), and the soldier implied by a mark with a file
//! (`前七平六`, `七前平六`).

use crate::{Color, Kind, Move, Piece, Position};

use super::describe::write_move;
use super::error::MoveTextError;
use super::text::{CHINESE_NUMERALS, FULL_WIDTH_DIGITS, fold, numeral};
use super::{Action, Description, Notation, Tandem};

/// The characters written for Chinese move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ChineseStyle {
    /// Simplified characters: 帅仕相马车炮兵 for Red, 将士象马车炮卒 for Black; 进退平, 前中后.
    /// The canonical output.
    #[default]
    Simplified,
    /// Traditional characters with each side's own piece names: 帥仕相傌俥炮兵 for Red,
    /// 將士象馬車砲卒 for Black; 進退平, 前中後.
    Traditional,
}

/// One character of Chinese move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Piece(Kind),
    Mark(Tandem),
    Number(u8),
    Action(Action),
}

fn token(c: char) -> Option<Token> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => Token::Piece(Kind::General),
        '仕' | '士' => Token::Piece(Kind::Advisor),
        '相' | '象' => Token::Piece(Kind::Elephant),
        '马' | '馬' | '傌' => Token::Piece(Kind::Horse),
        '车' | '車' | '俥' => Token::Piece(Kind::Chariot),
        '炮' | '砲' | '包' => Token::Piece(Kind::Cannon),
        '兵' | '卒' => Token::Piece(Kind::Soldier),
        '前' => Token::Mark(Tandem::Front),
        '后' | '後' => Token::Mark(Tandem::Rear),
        '中' => Token::Mark(Tandem::Middle),
        '进' | '進' => Token::Action(Action::Forward),
        '退' => Token::Action(Action::Backward),
        '平' => Token::Action(Action::Sideways),
        _ => Token::Number(numeral(c)?),
    })
}

/// Reads Chinese move text without a position.
///
/// # Errors
/// [`MoveTextError::Malformed`] naming what is wrong: a character that is no piece, number, mark
/// or direction, a missing direction or number, or a piece designation that is none of the
/// accepted forms (see the module documentation and `docs/notation.md`).
pub fn parse_chinese(text: &str) -> Result<Description, MoveTextError> {
    let bad = |reason: String| MoveTextError::malformed(text, reason);
    let mut tokens = Vec::new();
    for c in text.trim().chars().map(fold) {
        let t = token(c).ok_or_else(|| {
            bad(format!(
                "{c:?} is not a piece, a number, 前/中/后 or a direction 进/退/平"
            ))
        })?;
        tokens.push(t);
    }
    let (target, action, piece) = match tokens.as_slice() {
        [] => return Err(bad("empty text".to_owned())),
        [piece @ .., Token::Action(a), Token::Number(n)] => (*n, *a, piece),
        [.., Token::Action(_)] => {
            return Err(bad(
                "the move ends without a number after 进/退/平".to_owned()
            ));
        }
        _ => {
            return Err(bad(
                "expected a piece, then 进, 退 or 平, then a number, as in 炮二平五".to_owned(),
            ));
        }
    };
    use Token::{Mark, Number, Piece};
    let (kind, file, tandem) = match *piece {
        [Piece(k), Number(f)] => (k, Some(f), None),
        [Mark(t), Piece(k)] | [Piece(k), Mark(t)] => (k, None, Some(t)),
        [Number(n), Piece(k)] => (k, None, Some(Tandem::Nth(n))),
        [Mark(t), Piece(k), Number(f)] => (k, Some(f), Some(t)),
        [Number(n), Piece(k), Number(f)] => (k, Some(f), Some(Tandem::Nth(n))),
        [Mark(t), Number(f)] | [Number(f), Mark(t)] => (Kind::Soldier, Some(f), Some(t)),
        _ => {
            let shown: String = text.trim().chars().take(piece.len()).collect();
            return Err(bad(format!(
                "{shown:?} does not name a piece: expected a piece and its file (炮二), \
                 前/中/后 or 一..五 with a piece (前车, 二兵), optionally followed by the file (前兵七)"
            )));
        }
    };
    Ok(Description {
        kind,
        file,
        tandem,
        action,
        target,
    })
}

/// The character for a piece in a style.
fn piece_char(piece: Piece, style: ChineseStyle) -> char {
    match style {
        ChineseStyle::Traditional => piece.chinese(),
        ChineseStyle::Simplified => {
            let red = ['帅', '仕', '相', '马', '车', '炮', '兵'];
            let black = ['将', '士', '象', '马', '车', '炮', '卒'];
            let names = if piece.color().is_red() { red } else { black };
            names[piece.kind().index()]
        }
    }
}

/// A file or count 1-9 as written for `color`: Chinese numerals for Red, full-width digits for
/// Black.
fn number(n: u8, color: Color) -> Option<char> {
    let i = usize::from(n).checked_sub(1)?;
    match color {
        Color::Red => CHINESE_NUMERALS.get(i).copied(),
        Color::Black => FULL_WIDTH_DIGITS.get(i).copied(),
    }
}

/// A description in Chinese, if Chinese can express it.
fn render(d: &Description, color: Color, style: ChineseStyle) -> Option<String> {
    let piece = piece_char(Piece::new(color, d.kind), style);
    let mut s = String::with_capacity(16);
    match d.tandem {
        None => {}
        Some(Tandem::Front) => s.push('前'),
        Some(Tandem::Rear) => s.push(if style == ChineseStyle::Traditional {
            '後'
        } else {
            '后'
        }),
        Some(Tandem::Middle) => s.push('中'),
        // Ordinals are not files: Chinese numerals for both sides.
        Some(Tandem::Nth(k)) => s.push(*CHINESE_NUMERALS.get(usize::from(k).checked_sub(1)?)?),
        Some(Tandem::WxfFront | Tandem::WxfRear) => return None,
    }
    s.push(piece);
    match (d.file, d.tandem) {
        (Some(f), _) => s.push(number(f, color)?),
        (None, Some(_)) => {}
        (None, None) => return None,
    }
    s.push(match (d.action, style) {
        (Action::Forward, ChineseStyle::Simplified) => '进',
        (Action::Forward, ChineseStyle::Traditional) => '進',
        (Action::Backward, _) => '退',
        (Action::Sideways, _) => '平',
    });
    s.push(number(d.target, color)?);
    Some(s)
}

/// Writes the legal move `m` of `pos` in Chinese, in `style`: Red's files and counts in Chinese
/// numerals (`炮二平五`), Black's in full-width digits (`马８进７`); tandem marks 前/后, 前/中/后
/// and 一..五 exactly when several like pieces share the file (advisors and elephants
/// excepted), with the file after the piece when two files hold tandem soldiers (`前兵七平六`).
///
/// # Errors
/// [`MoveTextError::Illegal`] when `m` is not legal in `pos`; [`MoveTextError::Inexpressible`]
/// only for a tenth like piece on one file (possible only with waived piece counts).
pub fn format_chinese(
    pos: &Position,
    m: Move,
    style: ChineseStyle,
) -> Result<String, MoveTextError> {
    write_move(
        pos,
        m,
        Notation::Chinese,
        |d, c| render(d, c, style),
        parse_chinese,
    )
}
