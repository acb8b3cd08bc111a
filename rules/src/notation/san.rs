//! WinBoard's Xiangqi SAN (`Che2`, `Hxe6`, `Cbg7`, `g5`, `Rxe7+`): standard algebraic notation
//! on ICCS coordinates (files `a`-`i` from Red's left, ranks `0`-`9` from Red's side). Read only:
//! WinBoard, XBoard and the engines that play under them write it in their PGN files.
//!
//! A move is a piece letter (`K` general, `A` advisor, `E` or `B` elephant, `H` or `N` horse,
//! `R` chariot, `C` cannon, `P` or none for a soldier), an optional origin file, rank or square
//! when several such pieces could go there, an optional `x`, and the destination square;
//! trailing `+`, `#`, `!` and `?` marks are ignored. The text is matched against the legal moves
//! of the position, as shakmaty reads chess SAN.

use super::MoveTextError;
use crate::{Kind, Move, Position, Square};

/// The legal move of `pos` that a SAN text names.
///
/// # Errors
/// [`MoveTextError::Malformed`] for text that is not SAN, [`MoveTextError::NoSuchPiece`] when no
/// such piece can reach the square, [`MoveTextError::Ambiguous`] when several can and nothing
/// says which.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let malformed = |reason: &str| MoveTextError::Malformed {
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let body = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let bytes = body.as_bytes();
    if !body.is_ascii() || bytes.len() < 2 {
        return Err(malformed("not SAN"));
    }
    let (kind, rest) = match bytes[0] {
        b'K' => (Kind::General, &bytes[1..]),
        b'A' => (Kind::Advisor, &bytes[1..]),
        b'E' | b'B' => (Kind::Elephant, &bytes[1..]),
        b'H' | b'N' => (Kind::Horse, &bytes[1..]),
        b'R' => (Kind::Chariot, &bytes[1..]),
        b'C' => (Kind::Cannon, &bytes[1..]),
        b'P' => (Kind::Soldier, &bytes[1..]),
        b'a'..=b'i' => (Kind::Soldier, bytes),
        _ => return Err(malformed("not SAN: no piece letter or file")),
    };
    let n = rest.len();
    if n < 2 {
        return Err(malformed("not SAN: no destination square"));
    }
    let square = |file: u8, rank: u8| -> Option<Square> {
        ((b'a'..=b'i').contains(&file) && rank.is_ascii_digit())
            .then(|| Square::new(file - b'a', rank - b'0'))
    };
    let to = square(rest[n - 2], rest[n - 1])
        .ok_or_else(|| malformed("not SAN: bad destination square"))?;
    let mut origin = &rest[..n - 2];
    if origin.last() == Some(&b'x') {
        origin = &origin[..origin.len() - 1];
    }
    let (from_file, from_rank) = match origin {
        [] => (None, None),
        [f @ b'a'..=b'i'] => (Some(f - b'a'), None),
        [r @ b'0'..=b'9'] => (None, Some(r - b'0')),
        [f @ b'a'..=b'i', r @ b'0'..=b'9'] => (Some(f - b'a'), Some(r - b'0')),
        _ => return Err(malformed("not SAN: bad origin")),
    };
    let fits: Vec<Move> = pos
        .legal_move_list()
        .iter()
        .copied()
        .filter(|m| {
            m.to() == to
                && pos.piece_at(m.from()).is_some_and(|p| p.kind() == kind)
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
        })
        .collect();
    match fits.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveTextError::NoSuchPiece {
            text: text.to_owned(),
            reason: format!("no legal move of a {} to {to}", kind.name()),
        }),
        _ => Err(MoveTextError::Ambiguous {
            text: text.to_owned(),
            moves: fits,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_iccs;

    fn play(moves: &[&str]) -> Vec<String> {
        let mut pos = Position::start();
        moves
            .iter()
            .map(|t| {
                let m = parse_san(&pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
                pos.make_move(m);
                m.to_string()
            })
            .collect()
    }

    #[test]
    fn winboard_moves_read_as_icss() {
        // The opening of a WinBoard game (WukongJS - MaxQi, 2021).
        assert_eq!(
            play(&[
                "Che2", "Cbg7", "Cxe6", "Cxg3", "Ce2", "Chh3", "Ce4", "Cxe3+", "Afe1", "Hi7"
            ]),
            [
                "h2e2", "b7g7", "e2e6", "g7g3", "b2e2", "h7h3", "e6e4", "h3e3", "f0e1", "h9i7"
            ]
        );
    }

    #[test]
    fn soldiers_need_no_letter_and_ambiguity_is_an_error() {
        let pos = Position::start();
        assert_eq!(parse_san(&pos, "c4").unwrap(), parse_iccs("c3c4").unwrap());
        assert_eq!(parse_san(&pos, "Pc4").unwrap(), parse_iccs("c3c4").unwrap());
        assert!(matches!(
            parse_san(&pos, "Re1"),
            Err(MoveTextError::NoSuchPiece { .. })
        ));
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K3R w").unwrap();
        assert!(matches!(
            parse_san(&pos, "Re0"),
            Err(MoveTextError::NoSuchPiece { .. })
        ));
        assert!(parse_san(&pos, "Rc0").is_ok());
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K3R w").unwrap();
        assert!(matches!(
            parse_san(&pos, "Ri1"),
            Err(MoveTextError::Ambiguous { .. })
        ));
        assert_eq!(
            parse_san(&pos, "Rai1").unwrap(),
            parse_iccs("a1i1").unwrap()
        );
        assert_eq!(
            parse_san(&pos, "R0i1").unwrap(),
            parse_iccs("i0i1").unwrap()
        );
        assert!(matches!(
            parse_san(&pos, "Zz9"),
            Err(MoveTextError::Malformed { .. })
        ));
        assert!(matches!(
            parse_san(&pos, "炮二平五"),
            Err(MoveTextError::Malformed { .. })
        ));
    }
}
