//! Sides, piece kinds and pieces.

use std::fmt;

/// The side to move or the owner of a piece. Red moves first and sits on ranks 0-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first, on ranks 0-4 (uppercase FEN letters).
    Red = 0,
    /// The second side, on ranks 5-9 (lowercase FEN letters).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side letter: `w` for Red (as UCCI writes it), `b` for Black.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// `true` for Red.
    #[inline]
    #[must_use]
    pub const fn is_red(self) -> bool {
        matches!(self, Color::Red)
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// The seven kinds of Xiangqi piece, in FEN letter order K A B N R C P.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// General (帅/将), FEN `K`.
    General = 0,
    /// Advisor (仕/士), FEN `A`.
    Advisor = 1,
    /// Elephant (相/象), FEN `B` (also `E` on input).
    Elephant = 2,
    /// Horse (马), FEN `N` (also `H` on input).
    Horse = 3,
    /// Chariot (车), FEN `R`.
    Chariot = 4,
    /// Cannon (炮), FEN `C`.
    Cannon = 5,
    /// Soldier (兵/卒), FEN `P`.
    Soldier = 6,
}

impl Kind {
    /// The English name, as messages say it (`docs/glossary.md`): general, advisor, elephant,
    /// horse, chariot, cannon, soldier.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Chariot => "chariot",
            Kind::Cannon => "cannon",
            Kind::Soldier => "soldier",
        }
    }

    /// All kinds in FEN letter order.
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
    ];

    /// 0..7 in FEN letter order.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with the given index.
    ///
    /// # Panics
    /// If `i >= 7`.
    #[must_use]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The canonical (uppercase) FEN letter.
    #[must_use]
    pub const fn letter(self) -> char {
        ['K', 'A', 'B', 'N', 'R', 'C', 'P'][self as usize]
    }

    /// Reads a FEN or WXF piece letter of either case (`H` = horse, `E` = elephant).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        })
    }

    /// The maximum number of pieces of this kind a side can have in a game.
    #[must_use]
    pub const fn max_count(self) -> u32 {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    /// `true` for the pieces that can cross the river and attack: horse, rook, cannon, pawn.
    #[must_use]
    pub const fn is_attacker(self) -> bool {
        matches!(
            self,
            Kind::Horse | Kind::Chariot | Kind::Cannon | Kind::Soldier
        )
    }
}

/// A piece: a kind and a colour, packed into one byte (`kind + 8 * colour + 1`; 0 is never a piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// Makes a piece.
    #[inline]
    #[must_use]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(kind as u8 + 1 + ((color as u8) << 3))
    }

    /// The piece's colour.
    #[inline]
    #[must_use]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline]
    #[must_use]
    pub const fn kind(self) -> Kind {
        Kind::ALL[((self.0 & 7) - 1) as usize]
    }

    /// A dense index 0..14: Red's kinds 0..7 then Black's 7..14.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        (self.color() as usize) * 7 + ((self.0 & 7) - 1) as usize
    }

    /// The raw byte as an index (1..=7 Red, 9..=15 Black): where the position keeps the
    /// piece's squares.
    #[inline(always)]
    #[must_use]
    pub const fn slot(self) -> usize {
        self.0 as usize
    }

    /// The raw byte (1..=7 Red, 9..=15 Black).
    #[inline]
    #[must_use]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// The piece with the given raw byte, if it is one.
    #[inline]
    #[must_use]
    pub const fn from_u8(b: u8) -> Option<Piece> {
        if b & 7 != 0 && b < 16 {
            Some(Piece(b))
        } else {
            None
        }
    }

    /// The FEN letter: uppercase for Red, lowercase for Black.
    #[must_use]
    pub const fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (`H`/`E` accepted for horse/elephant); case gives the colour.
    #[must_use]
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// The traditional Chinese character (Red's and Black's differ: 帥/將, 仕/士, 相/象, 傌/馬, 俥/車, 炮/砲, 兵/卒).
    #[must_use]
    pub const fn chinese(self) -> char {
        let red = ['帥', '仕', '相', '傌', '俥', '炮', '兵'];
        let black = ['將', '士', '象', '馬', '車', '砲', '卒'];
        match self.color() {
            Color::Red => red[self.kind() as usize],
            Color::Black => black[self.kind() as usize],
        }
    }
}

impl Piece {
    /// The simplified Chinese character, as simplified move text writes it (帅/将, 仕/士,
    /// 相/象, 马, 车, 炮, 兵/卒).
    #[must_use]
    pub const fn chinese_simplified(self) -> char {
        let red = ['帅', '仕', '相', '马', '车', '炮', '兵'];
        let black = ['将', '士', '象', '马', '车', '炮', '卒'];
        match self.color() {
            Color::Red => red[self.kind() as usize],
            Color::Black => black[self.kind() as usize],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_packing_round_trips() {
        for color in Color::ALL {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert_eq!(Piece::from_u8(p.to_u8()), Some(p));
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert_eq!(Piece::from_u8(0), None);
        assert_eq!(Piece::from_u8(8), None);
        assert_eq!(Piece::from_u8(16), None);
    }
}
