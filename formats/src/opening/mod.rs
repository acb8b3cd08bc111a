//! Openings: the ECCO code of a line (derived from master games, [`table`]) and its name
//! (composed from the players' terms, [`names`]).
//!
//! ECCO (the Encyclopedia of Chinese Chess Openings) files the openings under the codes A00 to
//! E99. The codes here are not copied from a table: `book-builder ecco` derives them from the
//! master games' own `ECCO` tags (`docs/openings.md` says how and how well), into a small file
//! (`data/openings.ecco`, layout in `docs/formats/ecco.md`) that is compiled into the program
//! ([`builtin`]). A code belongs to a *line* (the moves from the usual start, left-right
//! mirrors merged) rather than to a position, because ECCO files an opening by the order of
//! its moves: a horse opening that transposes into a central cannon keeps its A code.
//!
//! [`identify`] gives both for a line: what the explorer, the move lists and the PGN show.

pub mod builtin;
pub mod names;
pub mod table;

use std::fmt;
use std::str::FromStr;

use chariot_rules::{Move, Position};

pub use names::{OpeningName, Term, name_line};
pub use table::{EccoError, EccoTable};

/// The five families of ECCO.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Family {
    /// Openings other than the central cannon and the pawn opening (飞相局, 起马局, 过宫炮, ...).
    A,
    /// The central cannon against defences other than the screen horses and the cannons
    /// (反宫马, 单提马, 三步虎, ...).
    B,
    /// The central cannon against the screen horses (中炮对屏风马).
    C,
    /// The central cannon against a central cannon: same- and opposite-direction cannons
    /// (顺炮, 列炮), at once or later.
    D,
    /// The pawn opening (仙人指路).
    E,
}

impl Family {
    /// The five, in order.
    pub const ALL: [Family; 5] = [Family::A, Family::B, Family::C, Family::D, Family::E];

    /// The letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Family::A => 'A',
            Family::B => 'B',
            Family::C => 'C',
            Family::D => 'D',
            Family::E => 'E',
        }
    }

    /// The family of a letter (`A` to `E`).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Family> {
        match c {
            'A' => Some(Family::A),
            'B' => Some(Family::B),
            'C' => Some(Family::C),
            'D' => Some(Family::D),
            'E' => Some(Family::E),
            _ => None,
        }
    }

    const fn index(self) -> u16 {
        self as u16
    }
}

/// An ECCO code: a family and a number from 00 to 99 (`C45`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ecco(u16);

impl Ecco {
    /// The code of `family` and `number`, when the number is below 100.
    #[must_use]
    pub const fn new(family: Family, number: u8) -> Option<Ecco> {
        if number < 100 {
            Some(Ecco(family.index() * 100 + number as u16))
        } else {
            None
        }
    }

    /// The family.
    #[must_use]
    pub const fn family(self) -> Family {
        match self.0 / 100 {
            0 => Family::A,
            1 => Family::B,
            2 => Family::C,
            3 => Family::D,
            _ => Family::E,
        }
    }

    /// The number, 0 to 99.
    #[must_use]
    pub const fn number(self) -> u8 {
        (self.0 % 100) as u8
    }

    /// The code as a file stores it: `family × 100 + number` (A00 = 0, E99 = 499).
    #[must_use]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// The code a file stores as `bits`, when it is one (below 500).
    #[must_use]
    pub const fn from_u16(bits: u16) -> Option<Ecco> {
        if bits < 500 { Some(Ecco(bits)) } else { None }
    }
}

impl fmt::Display for Ecco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}", self.family().letter(), self.number())
    }
}

impl fmt::Debug for Ecco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Text that is not an ECCO code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an ECCO code (a letter A to E and two digits, as C45)")]
pub struct EccoParseError(pub String);

impl FromStr for Ecco {
    type Err = EccoParseError;

    /// `C45`; surrounding spaces are ignored, the letter may be lowercase.
    fn from_str(text: &str) -> Result<Ecco, EccoParseError> {
        let bad = || EccoParseError(text.to_owned());
        let t = text.trim();
        let mut chars = t.chars();
        let family = chars
            .next()
            .and_then(|c| Family::from_letter(c.to_ascii_uppercase()))
            .ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let number: u8 = digits.parse().map_err(|_| bad())?;
        Ecco::new(family, number).ok_or_else(bad)
    }
}

impl serde::Serialize for Ecco {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The key of the line before any move (the usual start).
const LINE_SEED: u64 = 0x6368_6172_696f_7421;

/// The key of a line one move longer than the line of key `key` (splitmix64's finaliser over
/// the key and the move's 16 bits: `docs/formats/ecco.md`).
#[must_use]
pub const fn extend_key(key: u64, mv: Move) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15) ^ mv.to_u16() as u64;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The keys of the first `n` lines of `moves` (after one move, two, ...), each the smaller of
/// the line's key and its left-right mirror's, so that a line and its mirror share one.
pub fn line_keys(moves: &[Move]) -> impl Iterator<Item = u64> + '_ {
    let mut key = LINE_SEED;
    let mut mirrored = LINE_SEED;
    moves.iter().map(move |&m| {
        key = extend_key(key, m);
        mirrored = extend_key(mirrored, m.mirror());
        key.min(mirrored)
    })
}

/// What a line's opening is: its ECCO code and its name, either unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The code ([`EccoTable::classify`]).
    pub ecco: Option<Ecco>,
    /// The name ([`name_line`]).
    pub name: Option<OpeningName>,
}

impl Opening {
    /// `true` when neither the code nor the name is known.
    #[must_use]
    pub fn is_unknown(&self) -> bool {
        self.ecco.is_none() && self.name.is_none()
    }
}

/// The opening of the line `moves` played from `start`, by the code `table` gives it and the
/// name [`name_line`] composes. Only a line from the usual start position has one (ECCO and the
/// names describe games from the start); moves after the first that is not legal are ignored.
#[must_use]
pub fn identify(table: Option<&EccoTable>, start: &Position, moves: &[Move]) -> Opening {
    // The board and the side to move (the key holds both), whatever the move counters say.
    if start.key() != Position::start().key() {
        return Opening::default();
    }
    let mut pos = start.clone();
    let legal = moves
        .iter()
        .take_while(|&&m| {
            let ok = pos.is_legal(m);
            if ok {
                pos.make_move(m);
            }
            ok
        })
        .count();
    let moves = &moves[..legal];
    Opening {
        ecco: table.and_then(|t| t.classify(moves)),
        name: name_line(moves),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::START_FEN;
    use chariot_rules::notation::parse_iccs;

    fn line(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| parse_iccs(m).unwrap())
            .collect()
    }

    #[test]
    fn codes_read_and_write() {
        let c: Ecco = "C45".parse().unwrap();
        assert_eq!(
            (c.family(), c.number(), c.to_string()),
            (Family::C, 45, "C45".into())
        );
        assert_eq!(" e09 ".parse::<Ecco>().unwrap().to_string(), "E09");
        assert_eq!(Ecco::from_u16(c.to_u16()), Some(c));
        for bad in ["", "C", "C4", "C456", "F10", "C4x", "１２", "C-1"] {
            assert!(bad.parse::<Ecco>().is_err(), "{bad:?}");
        }
        assert_eq!(Ecco::from_u16(500), None);
        assert_eq!(Ecco::new(Family::A, 100), None);
        assert_eq!(Ecco::from_u16(499).unwrap().to_string(), "E99");
    }

    #[test]
    fn a_line_and_its_mirror_share_their_keys() {
        let a: Vec<u64> = line_keys(&line("h2e2 h9g7 h0g2")).collect();
        let b: Vec<u64> = line_keys(&line("b2e2 b9c7 b0c2")).collect();
        assert_eq!(a, b);
        // A transposition is another line.
        let c: Vec<u64> = line_keys(&line("h0g2 h9g7 h2e2")).collect();
        assert_ne!(a[2], c[2]);
        // Each prefix has its own key.
        assert_ne!(a[0], a[1]);
    }

    #[test]
    fn the_line_key_is_pinned() {
        // The file's keys depend on this function; docs/formats/ecco.md gives the same value.
        let keys: Vec<u64> = line_keys(&line("h2e2 h9g7")).collect();
        assert_eq!(keys, vec![KEY_AFTER_H2E2, KEY_AFTER_H2E2_H9G7]);
    }

    const KEY_AFTER_H2E2: u64 = 0x4b5d_31a4_5192_0a8f;
    const KEY_AFTER_H2E2_H9G7: u64 = 0x6855_fe74_229a_57c6;

    #[test]
    fn only_lines_from_the_usual_start_have_an_opening() {
        let moves = line("h2e2 h9g7");
        let start = Position::start();
        let o = identify(None, &start, &moves);
        assert!(o.name.is_some());
        let mut other = Position::start();
        other.make_move(moves[0]);
        assert!(identify(None, &other, &moves[1..]).is_unknown());
        // The usual start with other move counters is the usual start.
        let counted = Position::from_fen(&START_FEN.replace(" 0 1", " 4 9")).unwrap();
        assert!(identify(None, &counted, &moves).name.is_some());
        // Moves after an illegal one are ignored, not a panic.
        let o = identify(None, &start, &line("h2e2 h2e2 a0a1"));
        assert_eq!(o.name.map(|n| n.zh()), Some("中炮".to_owned()));
    }
}
