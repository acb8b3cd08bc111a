//! Endgame tablebases: exact win/draw/loss and distance to mate for small material balances.
//!
//! - [`signature`]: material signatures and the canonical table names (`KRKAABB`).
//! - [`index`]: the position <-> index mapping, shared by the generator (`egtb-gen`) and the prober.
//! - [`file`]: the table file format, reader and writer (`docs/formats/egtb.md`).
//! - [`probe`]: [`Tablebases`], a set of open tables: value, best move and line to mate.
//!
//! Values are for the side to move. A distance to mate (DTM) counts plies with best play (the
//! winner shortens it, the loser lengthens it): a side that is checkmated or stalemated has lost
//! at distance 0, a mate in one is a win at distance 1. Positions that neither side can force to
//! a result are draws; `docs/egtb.md` explains how repetitions and perpetual check are treated.

pub mod file;
pub mod index;
pub mod probe;
pub mod signature;

use std::cmp::Ordering;
use std::fmt;

pub use file::{FileError, Header, TableFile};
pub use index::{IndexError, Indexer};
pub use probe::{ProbeError, Tablebases};
pub use signature::{Material, Signature, SignatureError};

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a result.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// The exact value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Mates in this many plies (always odd).
    Win(u32),
    /// A draw.
    Draw,
    /// Is mated (or stalemated) in this many plies (always even; 0 = now).
    Loss(u32),
}

/// A stored code that is no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("code {0} is no value (1 is reserved)")]
pub struct ValueError(pub u16);

impl Value {
    /// The value stored as `code`: 0 is a draw, `2 + d` a decided position at distance `d`
    /// (odd `d`: the side to move wins, even `d`: it loses).
    ///
    /// # Errors
    /// [`ValueError`] for the reserved code 1.
    pub fn from_code(code: u16) -> Result<Value, ValueError> {
        match code {
            0 => Ok(Value::Draw),
            1 => Err(ValueError(code)),
            c => {
                let d = u32::from(c - 2);
                Ok(if d % 2 == 1 {
                    Value::Win(d)
                } else {
                    Value::Loss(d)
                })
            }
        }
    }

    /// The code stored for this value, or `None` when the distance has the wrong parity or does
    /// not fit in 16 bits.
    #[must_use]
    pub fn to_code(self) -> Option<u16> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d % 2 == 1 => u16::try_from(d + 2).ok(),
            Value::Loss(d) if d % 2 == 0 => u16::try_from(d + 2).ok(),
            _ => None,
        }
    }

    /// Win, draw or loss.
    #[must_use]
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// The distance to mate in plies, for decided positions.
    #[must_use]
    pub fn dtm(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value of a position whose move leads to a position of value `self` (for the
    /// opponent): one ply further and seen from the other side.
    #[must_use]
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// A total order for the side to move: quicker wins are better, slower losses are better.
    #[must_use]
    pub fn score(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - i64::from(d),
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + i64::from(d),
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// Better for the side to move is greater.
    fn cmp(&self, other: &Value) -> Ordering {
        self.score().cmp(&other.score())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win, mate in {d} plies"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(0) => f.write_str("loss, no legal move"),
            Value::Loss(d) => write!(f, "loss, mated in {d} plies"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Loss(30),
            Value::Win(253),
        ] {
            assert_eq!(Value::from_code(v.to_code().unwrap()), Ok(v));
        }
        assert_eq!(Value::Win(2).to_code(), None);
        assert_eq!(Value::from_code(1), Err(ValueError(1)));
        assert!(Value::Win(1) > Value::Win(3));
        assert!(Value::Loss(4) > Value::Loss(2));
        assert!(Value::Draw > Value::Loss(100));
        assert_eq!(Value::Loss(0).before_move(), Value::Win(1));
    }
}
