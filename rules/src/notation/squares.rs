//! How engines and GUIs name squares in coordinate moves: ICCS's a0..i9 (UCCI, Pikafish's UCI)
//! or Fairy-Stockfish's a1..i10 (UCI with `UCI_Variant xiangqi`). The engine's UCI front end and
//! the league's engine client both speak through this.

use super::iccs::parse_iccs;
use crate::{Move, Square};

/// How squares are written in move texts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SquareNaming {
    /// a0..i9, rank 0 at Red's back rank (UCCI, ICCS, Pikafish).
    #[default]
    ZeroBased,
    /// a1..i10 (Fairy-Stockfish's UCI with `UCI_Variant xiangqi`).
    OneBased,
}

impl SquareNaming {
    /// Writes a move.
    #[must_use]
    pub fn format(self, m: Move) -> String {
        match self {
            SquareNaming::ZeroBased => m.to_string(),
            SquareNaming::OneBased => format!("{}{}", one_based(m.from()), one_based(m.to())),
        }
    }

    /// Reads a move: ICCS `h2e2` (also `H2-E2`), or one-based `h3e3`, `b10c8` (a rank with a
    /// leading zero, `b010`, is no square). `None` when the text is not two squares.
    #[must_use]
    pub fn parse(self, text: &str) -> Option<Move> {
        match self {
            SquareNaming::ZeroBased => parse_iccs(text).ok(),
            SquareNaming::OneBased => {
                let bytes = text.as_bytes();
                let square = |i: usize| -> Option<(Square, usize)> {
                    let file = bytes.get(i)?.to_ascii_lowercase().wrapping_sub(b'a');
                    if file > 8 {
                        return None;
                    }
                    let digits = bytes[i + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    if digits == 0 || digits > 2 || (digits == 2 && bytes[i + 1] == b'0') {
                        return None;
                    }
                    let rank: u8 = text[i + 1..i + 1 + digits].parse().ok()?;
                    (1..=10)
                        .contains(&rank)
                        .then(|| (Square::new(file, rank - 1), i + 1 + digits))
                };
                let (from, next) = square(0)?;
                let (to, end) = square(next)?;
                (end == bytes.len() && from != to).then(|| Move::new(from, to))
            }
        }
    }
}

fn one_based(sq: Square) -> String {
    format!("{}{}", (b'a' + sq.file()) as char, sq.rank() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_namings_round_trip() {
        let m = parse_iccs("b9c7").unwrap();
        assert_eq!(SquareNaming::OneBased.format(m), "b10c8");
        assert_eq!(SquareNaming::OneBased.parse("b10c8"), Some(m));
        assert_eq!(SquareNaming::OneBased.parse("B10C8"), Some(m));
        assert_eq!(SquareNaming::ZeroBased.parse("b9c7"), Some(m));
        for bad in [
            "b010c8", "b11c8", "b0c8", "j1a1", "b10", "b10c8x", "a1a1", "",
        ] {
            assert_eq!(SquareNaming::OneBased.parse(bad), None, "{bad}");
        }
        let h = parse_iccs("h2e2").unwrap();
        assert_eq!(SquareNaming::OneBased.format(h), "h3e3");
        assert_eq!(SquareNaming::ZeroBased.format(h), "h2e2");
    }
}
