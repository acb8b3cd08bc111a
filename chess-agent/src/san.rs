//! Move text: the tolerant SAN reader and the strict SAN writer of the contest protocol.
//!
//! Reading follows lesson 2 of `STYLE.md`: the text is first taken apart into a [`MoveText`]
//! without looking at the position, then matched against the position's legal moves. The reader
//! accepts everything the contest rules ask for and a little more (see `docs/chess-agent.md`):
//! `x` or `:` for captures (neither required nor checked), `+`, `#`, `!`, `?` suffixes, an
//! optional `e.p.`/`ep`, castling as `O-O`/`0-0`/`o-o` (with or without `-`), no, file, rank or
//! full-square disambiguation, `=Q`, `Q`, `q`, `(Q)` and `/Q` promotions, an optional `P` for
//! pawns, a `-` between origin and target, a leading PGN move number (`1.`, `1...`), and
//! surrounding whitespace including `\r\n`.
//!
//! Writing uses shakmaty's SAN with its check and mate suffix: the contest rules allow `x`, `+`
//! and `#` in output ("x、+、#可以省略,也可以输出"), and standard SAN is what every referee and
//! PGN reader expects. Promotions are written `=Q`, castling `O-O`/`O-O-O`, pawns without a
//! letter, never `e.p.`.

use shakmaty::san::SanPlus;
use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};
use thiserror::Error;

/// Why a line of move text was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveTextError {
    /// The line was empty or only whitespace.
    #[error("empty move text")]
    Empty,
    /// The text is not a move in any form the reader knows.
    #[error("cannot read {0:?} as a move")]
    Syntax(String),
    /// The text reads as a move, but no legal move in the position matches it.
    #[error("{0:?} is not a legal move here")]
    Illegal(String),
    /// More than one legal move matches the text.
    #[error("{0:?} is ambiguous here")]
    Ambiguous(String),
}

/// A move as written, before it is checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveText {
    /// Castling to the given side.
    Castle(CastlingSide),
    /// A piece or pawn move.
    Normal {
        /// The moving piece's letter; `None` means a pawn, or any piece when the full origin
        /// square is given (`g1f3`, as in long algebraic notation).
        role: Option<Role>,
        /// The origin's file, when given.
        file: Option<File>,
        /// The origin's rank, when given.
        rank: Option<Rank>,
        /// The target square.
        to: Square,
        /// The promotion piece, when given.
        promotion: Option<Role>,
    },
}

/// Reads one line of move text and finds the legal move it names in `pos`.
///
/// A promotion written without a piece is taken as a queen promotion.
///
/// # Errors
///
/// [`MoveTextError`] when the text is empty, unreadable, illegal or ambiguous in `pos`.
pub fn parse_move(pos: &Chess, text: &str) -> Result<Move, MoveTextError> {
    let parsed = parse_text(text)?;
    let name = || text.trim().to_owned();
    let legal = pos.legal_moves();
    let mut found = legal.iter().copied().filter(|&m| matches(parsed, m));
    let first = found.next().ok_or_else(|| MoveTextError::Illegal(name()))?;
    if found.next().is_some() {
        return Err(MoveTextError::Ambiguous(name()));
    }
    Ok(first)
}

/// Whether the written move `text` names the legal move `m`.
fn matches(text: MoveText, m: Move) -> bool {
    match text {
        MoveText::Castle(side) => m.castling_side() == Some(side),
        MoveText::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        } => {
            let Some(from) = m.from() else { return false };
            let target = match m {
                // A king's two-square step (`Kg1`, `e1g1`) also names castling.
                Move::Castle { king, rook } => {
                    let side = if king < rook {
                        CastlingSide::KingSide
                    } else {
                        CastlingSide::QueenSide
                    };
                    Square::from_coords(side.king_to_file(), king.rank())
                }
                _ => m.to(),
            };
            let role_ok = match role {
                Some(r) => r == m.role(),
                None => (file.is_some() && rank.is_some()) || m.role() == Role::Pawn,
            };
            role_ok
                && target == to
                && file.is_none_or(|f| f == from.file())
                && rank.is_none_or(|r| r == from.rank())
                && promotion.or(m.is_promotion().then_some(Role::Queen)) == m.promotion()
        }
    }
}

/// Takes move text apart without a position.
///
/// # Errors
///
/// [`MoveTextError::Empty`] or [`MoveTextError::Syntax`].
pub fn parse_text(text: &str) -> Result<MoveText, MoveTextError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let syntax = || MoveTextError::Syntax(trimmed.to_owned());
    if !trimmed.is_ascii() {
        return Err(syntax());
    }
    let mut s = strip_suffixes(strip_move_number(trimmed));
    if let Some(rest) = strip_en_passant(s) {
        s = strip_suffixes(rest.trim_end());
    }
    if let Some(side) = castling(s) {
        return Ok(MoveText::Castle(side));
    }
    let mut chars: Vec<u8> = s
        .bytes()
        .filter(|b| !matches!(b, b'x' | b':' | b'-'))
        .collect();
    let mut promotion = None;
    if chars.last() == Some(&b')') && chars.len() >= 4 && chars[chars.len() - 3] == b'(' {
        promotion = Some(promotion_role(chars[chars.len() - 2]).ok_or_else(syntax)?);
        chars.truncate(chars.len() - 3);
    } else if chars.len() >= 3 {
        let last = chars[chars.len() - 1];
        let before = chars[chars.len() - 2];
        if let Some(role) = promotion_role(last) {
            if before == b'=' || before == b'/' {
                promotion = Some(role);
                chars.truncate(chars.len() - 2);
            } else if before.is_ascii_digit() {
                promotion = Some(role);
                chars.truncate(chars.len() - 1);
            }
        }
    }
    let mut rest = &chars[..];
    let mut role = None;
    if let Some((&first, tail)) = rest.split_first() {
        let piece = match first {
            b'K' | b'k' => Some(Role::King),
            b'Q' | b'q' => Some(Role::Queen),
            b'R' | b'r' => Some(Role::Rook),
            b'B' => Some(Role::Bishop),
            b'N' | b'n' => Some(Role::Knight),
            b'P' | b'p' => Some(Role::Pawn),
            _ => None,
        };
        if let Some(piece) = piece {
            role = Some(piece);
            rest = tail;
        }
    }
    if rest.len() < 2 || rest.len() > 4 {
        return Err(syntax());
    }
    let (from, target) = rest.split_at(rest.len() - 2);
    let to = Square::from_coords(
        file_of(target[0]).ok_or_else(syntax)?,
        rank_of(target[1]).ok_or_else(syntax)?,
    );
    let (file, rank) = match *from {
        [] => (None, None),
        [c] => match (file_of(c), rank_of(c)) {
            (Some(f), _) => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return Err(syntax()),
        },
        [f, r] => (
            Some(file_of(f).ok_or_else(syntax)?),
            Some(rank_of(r).ok_or_else(syntax)?),
        ),
        _ => return Err(syntax()),
    };
    if promotion.is_some() && role.is_some_and(|r| r != Role::Pawn) {
        return Err(syntax());
    }
    Ok(MoveText::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

/// Drops a leading move number as PGN writes it: `1.`, `12...`, `3. `.
fn strip_move_number(s: &str) -> &str {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &s[digits..];
    if digits == 0 || !rest.starts_with('.') {
        return s;
    }
    rest.trim_start_matches('.').trim_start()
}

/// Drops trailing check, mate and annotation marks.
fn strip_suffixes(s: &str) -> &str {
    s.trim_end_matches(['+', '#', '!', '?', ' ', '\t'])
}

/// Drops a trailing `e.p.`, `e.p`, `ep` (any case), returning `None` when there is none.
fn strip_en_passant(s: &str) -> Option<&str> {
    let lower = s.to_ascii_lowercase();
    ["e.p.", "e.p", "ep"]
        .iter()
        .find(|suffix| lower.ends_with(*suffix) && lower.len() > suffix.len())
        .map(|suffix| &s[..s.len() - suffix.len()])
}

/// Recognises `O-O`, `0-0`, `o-o`, `OO` and the queen-side forms.
fn castling(s: &str) -> Option<CastlingSide> {
    let letters: String = s
        .chars()
        .filter(|&c| c != '-')
        .map(|c| if c == '0' || c == 'o' { 'O' } else { c })
        .collect();
    match letters.as_str() {
        "OO" => Some(CastlingSide::KingSide),
        "OOO" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

fn promotion_role(c: u8) -> Option<Role> {
    match c {
        b'Q' | b'q' => Some(Role::Queen),
        b'R' | b'r' => Some(Role::Rook),
        b'B' | b'b' => Some(Role::Bishop),
        b'N' | b'n' => Some(Role::Knight),
        _ => None,
    }
}

fn file_of(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::new(u32::from(c - b'a')))
}

fn rank_of(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::new(u32::from(c - b'1')))
}

/// Writes a legal move of `pos` as the contest's SAN (standard SAN with `+`/`#`).
#[must_use]
pub fn format_move(pos: &Chess, m: Move) -> String {
    SanPlus::from_move(pos.clone(), m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::test_position as pos;

    #[test]
    fn reads_every_form_of_one_move() {
        let start = Chess::default();
        for text in [
            "Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3+", "Nf3#", " Nf3\r\n", "nf3", "Nf3!?",
        ] {
            let m = parse_move(&start, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format_move(&start, m), "Nf3", "{text}");
        }
        for text in [
            "e4", "Pe4", "e2e4", "e2-e4", "e4\n", "1.e4", "1. e4", "12...e4",
        ] {
            let m = parse_move(&start, text).unwrap();
            assert_eq!(format_move(&start, m), "e4", "{text}");
        }
    }

    #[test]
    fn capture_mark_is_neither_required_nor_checked() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        for text in ["exd5", "ed5", "e:d5", "e4xd5", "exd5+"] {
            let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format_move(&p, m), "exd5");
        }
    }

    #[test]
    fn en_passant_with_and_without_mark() {
        let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        for text in [
            "exf6",
            "exf6 e.p.",
            "exf6e.p.",
            "exf6 ep",
            "ef6",
            "exf6 e.p.+",
        ] {
            let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(m.is_en_passant(), "{text}");
            assert_eq!(format_move(&p, m), "exf6");
        }
    }

    #[test]
    fn castling_forms() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, want) in [
            ("O-O", "O-O"),
            ("0-0", "O-O"),
            ("o-o", "O-O"),
            ("OO", "O-O"),
            ("Kg1", "O-O"),
            ("e1g1", "O-O"),
            ("O-O-O", "O-O-O"),
            ("0-0-0+", "O-O-O"),
            ("Kc1", "O-O-O"),
        ] {
            let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format_move(&p, m), want, "{text}");
        }
    }

    #[test]
    fn promotions() {
        let p = pos("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
        for (text, want) in [
            ("a8=Q", "a8=Q"),
            ("a8Q", "a8=Q"),
            ("a8q", "a8=Q"),
            ("a8(Q)", "a8=Q"),
            ("a8", "a8=Q"),
            ("a8=R", "a8=R"),
            ("a8=B", "a8=B"),
            ("a8N", "a8=N"),
            ("axb8=N", "axb8=N"),
            ("ab8Q", "axb8=Q+"),
        ] {
            let m = parse_move(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format_move(&p, m), want, "{text}");
        }
    }

    #[test]
    fn rank_and_square_disambiguation() {
        let p = pos("7k/8/8/R7/8/8/8/R6K w - - 0 1");
        assert!(matches!(
            parse_move(&p, "Ra3"),
            Err(MoveTextError::Ambiguous(_))
        ));
        assert_eq!(format_move(&p, parse_move(&p, "R1a3").unwrap()), "R1a3");
        assert_eq!(format_move(&p, parse_move(&p, "Ra5a3").unwrap()), "R5a3");
    }

    #[test]
    fn errors() {
        let start = Chess::default();
        assert_eq!(parse_move(&start, " \r\n"), Err(MoveTextError::Empty));
        assert!(matches!(
            parse_move(&start, "hello"),
            Err(MoveTextError::Syntax(_))
        ));
        assert!(matches!(
            parse_move(&start, "e5"),
            Err(MoveTextError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&start, "O-O"),
            Err(MoveTextError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&start, "重走"),
            Err(MoveTextError::Syntax(_))
        ));
    }
}
