//! Material signatures: which pieces a table holds, and its canonical name.
//!
//! A table covers one material balance with either side to move. Its name lists the stronger
//! side first, each side as `K` followed by its other pieces in the fixed order
//! `R N C P A B` (attacking pieces first, strongest first, then advisors and elephants):
//! `KRKAABB`, `KRAKNB`, `KNPKAA`. On input the pieces of a side may come in any order, letters
//! may be lower case, WXF's `H` (horse) and `E` (elephant) are accepted, and the sides may be
//! given in either order: `kaabbkr`, `KHKEE` and `KRKBAAB` all name tables.
//!
//! Which side is stronger is decided by [`Material::strength`]: the value of the attacking pieces
//! (R 9, N 4, C 4, P 2), then their number, then the number of defenders, then the counts in the
//! fixed order. Equal material on both sides (`KRKR`) is symmetric.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use chariot_rules::{Color, Kind, Piece, Position};

/// The order in which the pieces of a side are listed in a name and laid out in an index.
pub const NAME_ORDER: [Kind; 6] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Cannon,
    Kind::Soldier,
    Kind::Advisor,
    Kind::Elephant,
];

/// The pieces of one side besides its general: how many of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material {
    counts: [u8; 7],
}

impl Material {
    /// A side with only its general.
    pub const BARE: Material = Material {
        counts: [1, 0, 0, 0, 0, 0, 0],
    };

    /// How many pieces of `kind` the side has (the general counts as 1).
    #[inline]
    #[must_use]
    pub fn count(&self, kind: Kind) -> u8 {
        self.counts[kind.index()]
    }

    /// The material of `color` in a position.
    #[must_use]
    pub fn of(pos: &Position, color: Color) -> Material {
        let mut m = Material::default();
        for kind in Kind::ALL {
            // At most five of a kind: stepping through the bits beats a 128-bit population
            // count where the CPU has no instruction for it (the default x86-64 target), and
            // every probe and index of a position counts its material.
            m.counts[kind.index()] = pos.pieces(Piece::new(color, kind)).into_iter().count() as u8;
        }
        m
    }

    /// The same material with one more (`+1`) or one fewer (`-1`) piece of `kind`.
    #[must_use]
    pub fn with(&self, kind: Kind, delta: i8) -> Material {
        let mut m = *self;
        m.counts[kind.index()] = m.counts[kind.index()].saturating_add_signed(delta);
        m
    }

    /// The number of pieces, the general included.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    /// `true` when the side has a rook, horse, cannon or soldier: a piece that can give check.
    #[must_use]
    pub fn has_attackers(&self) -> bool {
        NAME_ORDER[..4].iter().any(|&k| self.count(k) > 0)
    }

    /// The key that orders sides by strength (larger is stronger); see the module notes.
    #[must_use]
    pub fn strength(&self) -> (u32, u32, u32, [u8; 6]) {
        let value = |k: Kind| match k {
            Kind::Chariot => 9,
            Kind::Horse | Kind::Cannon => 4,
            Kind::Soldier => 2,
            _ => 0,
        };
        let attack = NAME_ORDER[..4]
            .iter()
            .map(|&k| value(k) * u32::from(self.count(k)))
            .sum();
        let attackers = NAME_ORDER[..4]
            .iter()
            .map(|&k| u32::from(self.count(k)))
            .sum();
        let defenders = u32::from(self.count(Kind::Advisor) + self.count(Kind::Elephant));
        let counts = NAME_ORDER.map(|k| self.count(k));
        (attack, attackers, defenders, counts)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("K")?;
        for kind in NAME_ORDER {
            for _ in 0..self.count(kind) {
                write!(f, "{}", kind.letter())?;
            }
        }
        Ok(())
    }
}

/// A table's material: the stronger side first (it is Red in the table's own frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The stronger side.
    pub strong: Material,
    /// The weaker side.
    pub weak: Material,
}

/// Why a signature could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// The text does not start with `K` or does not have a second `K`.
    #[error(
        "{0:?} is not a signature: expected two sides, each a K followed by its pieces (e.g. KRKAA)"
    )]
    Shape(String),
    /// A letter that names no piece.
    #[error("unknown piece letter {letter:?} in {text:?} (use K A B N R C P, or WXF's E and H)")]
    Letter {
        /// The whole text.
        text: String,
        /// The letter.
        letter: char,
    },
    /// More pieces of a kind than a side has in a game.
    #[error("{text:?} has {count} pieces '{letter}' on one side, at most {max} are possible")]
    TooMany {
        /// The whole text.
        text: String,
        /// The piece letter.
        letter: char,
        /// How many were given.
        count: u8,
        /// The limit.
        max: u32,
    },
}

impl Signature {
    /// The signature with sides `a` and `b` in canonical order, and whether `a` became the weak
    /// side (then colours must be swapped to bring a position with `a` as Red into the table's frame).
    #[must_use]
    pub fn canonical(a: Material, b: Material) -> (Signature, bool) {
        match a.strength().cmp(&b.strength()) {
            Ordering::Less => (Signature { strong: b, weak: a }, true),
            _ => (Signature { strong: a, weak: b }, false),
        }
    }

    /// The table holding `pos`, and whether Red is the weaker side there (colours swapped).
    #[must_use]
    pub fn of(pos: &Position) -> (Signature, bool) {
        Signature::canonical(
            Material::of(pos, Color::Red),
            Material::of(pos, Color::Black),
        )
    }

    /// `true` when both sides have the same material.
    #[must_use]
    pub fn is_symmetric(&self) -> bool {
        self.strong == self.weak
    }

    /// The material of the side that is Red in the table's frame (`Color::Red` = strong side).
    #[must_use]
    pub fn side(&self, color: Color) -> Material {
        match color {
            Color::Red => self.strong,
            Color::Black => self.weak,
        }
    }

    /// The number of pieces on the board.
    #[must_use]
    pub fn piece_count(&self) -> u32 {
        self.strong.total() + self.weak.total()
    }

    /// The tables reached by one capture, in canonical form, without duplicates.
    #[must_use]
    pub fn captures(&self) -> Vec<Signature> {
        let mut out = Vec::new();
        for color in Color::ALL {
            for kind in NAME_ORDER {
                if self.side(color).count(kind) > 0 {
                    let (s, w) = match color {
                        Color::Red => (self.strong.with(kind, -1), self.weak),
                        Color::Black => (self.strong, self.weak.with(kind, -1)),
                    };
                    let sig = Signature::canonical(s, w).0;
                    if !out.contains(&sig) {
                        out.push(sig);
                    }
                }
            }
        }
        out
    }

    /// This table and every table it depends on (through any number of captures), smallest first:
    /// the order in which they must be generated.
    #[must_use]
    pub fn closure(&self) -> Vec<Signature> {
        let mut out: Vec<Signature> = Vec::new();
        let mut stack = vec![*self];
        while let Some(s) = stack.pop() {
            if out.contains(&s) {
                continue;
            }
            out.push(s);
            stack.extend(s.captures());
        }
        out.sort_by_key(|s| (s.piece_count(), s.to_string()));
        out
    }
}

impl fmt::Display for Signature {
    /// `KRKA`; honours width and alignment (`{:14}`), so tables of signatures line up.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("{}{}", self.strong, self.weak))
    }
}

impl FromStr for Signature {
    type Err = SignatureError;

    fn from_str(text: &str) -> Result<Signature, SignatureError> {
        let shape = || SignatureError::Shape(text.to_owned());
        let upper: Vec<char> = text
            .trim()
            .chars()
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if upper.first() != Some(&'K') {
            return Err(shape());
        }
        let second = upper[1..]
            .iter()
            .position(|&c| c == 'K')
            .ok_or_else(shape)?
            + 1;
        let side = |letters: &[char]| -> Result<Material, SignatureError> {
            let mut m = Material::BARE;
            for &c in &letters[1..] {
                let kind = Kind::from_letter(c).ok_or(SignatureError::Letter {
                    text: text.to_owned(),
                    letter: c,
                })?;
                if kind == Kind::General {
                    return Err(shape());
                }
                m.counts[kind.index()] += 1;
                let count = m.counts[kind.index()];
                if u32::from(count) > kind.max_count() {
                    return Err(SignatureError::TooMany {
                        text: text.to_owned(),
                        letter: kind.letter(),
                        count,
                        max: kind.max_count(),
                    });
                }
            }
            Ok(m)
        };
        let a = side(&upper[..second])?;
        let b = side(&upper[second..])?;
        Ok(Signature::canonical(a, b).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(s: &str) -> String {
        s.parse::<Signature>().unwrap().to_string()
    }

    #[test]
    fn names_line_up_in_columns() {
        let s: Signature = "KRKA".parse().unwrap();
        assert_eq!(format!("[{s:6}]"), "[KRKA  ]");
        assert_eq!(format!("[{s:>6}]"), "[  KRKA]");
    }

    #[test]
    fn names_are_canonical() {
        assert_eq!(sig("KRKAA"), "KRKAA");
        assert_eq!(sig("kaakr"), "KRKAA");
        assert_eq!(sig("KAKRB"), "KRBKA");
        assert_eq!(sig("KBANKR"), "KRKNAB");
        assert_eq!(sig("KHKEE"), "KNKBB");
        assert_eq!(sig("KCKN"), "KNKC");
        assert_eq!(sig("KPKAABB"), "KPKAABB");
        assert_eq!(sig("KK"), "KK");
        assert_eq!(sig("KRKR"), "KRKR");
    }

    #[test]
    fn bad_names_are_rejected() {
        assert!(matches!(
            "RKA".parse::<Signature>(),
            Err(SignatureError::Shape(_))
        ));
        assert!(matches!(
            "KRA".parse::<Signature>(),
            Err(SignatureError::Shape(_))
        ));
        assert!(matches!(
            "KXKA".parse::<Signature>(),
            Err(SignatureError::Letter { letter: 'X', .. })
        ));
        assert!(matches!(
            "KRRRK".parse::<Signature>(),
            Err(SignatureError::TooMany { count: 3, .. })
        ));
        assert!(matches!(
            "KRKAKA".parse::<Signature>(),
            Err(SignatureError::Shape(_))
        ));
    }

    #[test]
    fn closure_lists_dependencies_first() {
        let s: Signature = "KRKAB".parse().unwrap();
        let names: Vec<String> = s.closure().iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["KK", "KAK", "KBK", "KRK", "KABK", "KRKA", "KRKB", "KRKAB"]
        );
    }
}
