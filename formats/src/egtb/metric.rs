//! What a table's distances count: plies to mate (DTM) or plies to the next conversion (DTC).
//!
//! A *conversion* is a move that cannot be undone: a capture (the game goes on in a smaller
//! table) or a soldier's move (soldiers never step back). Checkmate and stalemate end the count
//! too. Distance to conversion counts the plies, with best play, until the side that wins makes
//! a conversion that keeps its win by mate, or the side that loses is mated or makes a
//! conversion (any conversion of the loser leads to a position still lost by mate): the winner
//! shortens it, the loser lengthens it. A side that is mated has lost at 0; a side that wins
//! by capturing at once wins at 1. Playing by DTC wins: within a phase the distance falls with
//! every move, and there are only so many conversions. Positions decided by the perpetual-check
//! or perpetual-chase rule keep the rule's rank in both metrics (`docs/egtb.md`).

use std::fmt;
use std::str::FromStr;

use super::{Value, plies};
use chariot_rules::{Kind, Move, Position};

/// What a table's distances count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Metric {
    /// Distance to mate in plies (header code 1).
    #[default]
    Dtm,
    /// Distance to conversion in plies (header code 2): to a capture or a soldier's move that
    /// keeps the result, or to mate.
    Dtc,
}

impl Metric {
    /// Both metrics, DTM first.
    pub const ALL: [Metric; 2] = [Metric::Dtm, Metric::Dtc];

    /// The code of the header's metric byte.
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Metric::Dtm => 1,
            Metric::Dtc => 2,
        }
    }

    /// The metric of a header's metric byte.
    #[must_use]
    pub fn from_code(code: u8) -> Option<Metric> {
        match code {
            1 => Some(Metric::Dtm),
            2 => Some(Metric::Dtc),
            _ => None,
        }
    }

    /// Its lowercase name, `dtm` or `dtc`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Metric::Dtm => "dtm",
            Metric::Dtc => "dtc",
        }
    }

    /// The value of a position whose move leads to a position of value `successor` (for the
    /// opponent), in this metric: one ply further and seen from the other side, except that in
    /// DTC a conversion move into a position decided by mate is a win or loss at 1 ply whatever
    /// the distance after it.
    #[must_use]
    pub fn before_move(self, successor: Value, conversion: bool) -> Value {
        match (self, successor) {
            (Metric::Dtc, Value::Win(_)) if conversion => Value::Loss(1),
            (Metric::Dtc, Value::Loss(_)) if conversion => Value::Win(1),
            _ => successor.before_move(),
        }
    }

    /// The value with its distance named in this metric's words ("mate in 5 plies",
    /// "conversion in 5 plies").
    #[must_use]
    pub fn describe(self, value: Value) -> String {
        match (self, value) {
            (Metric::Dtc, Value::Win(d)) => format!("win, conversion in {d} {}", plies(d)),
            (Metric::Dtc, Value::Loss(0)) => "loss, no legal move".to_string(),
            (Metric::Dtc, Value::Loss(d)) => format!("loss, conversion in {d} {}", plies(d)),
            _ => value.to_string(),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A metric name that is neither `dtm` nor `dtc`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown metric {0:?} (dtm or dtc)")]
pub struct MetricError(pub String);

impl FromStr for Metric {
    type Err = MetricError;

    fn from_str(s: &str) -> Result<Metric, MetricError> {
        match s.to_ascii_lowercase().as_str() {
            "dtm" => Ok(Metric::Dtm),
            "dtc" => Ok(Metric::Dtc),
            _ => Err(MetricError(s.to_string())),
        }
    }
}

/// `true` when legal move `m` of `pos` is a conversion: a capture or a soldier's move.
#[must_use]
pub fn is_conversion(pos: &Position, m: Move) -> bool {
    pos.is_capture(m)
        || pos
            .piece_at(m.from())
            .is_some_and(|p| p.kind() == Kind::Soldier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_iccs;

    #[test]
    fn conversions_are_captures_and_soldier_moves() {
        let pos = Position::from_fen("4k4/9/9/9/4p4/9/9/2r6/9/3K1R3 w - - 0 1").unwrap();
        let mv = |s: &str| parse_iccs(s).unwrap();
        assert!(!is_conversion(&pos, mv("f0f1")));
        let black = Position::from_fen("4k4/9/9/9/4p4/9/9/2r6/9/3K1R3 b - - 0 1").unwrap();
        assert!(is_conversion(&black, mv("e5e4")));
        assert!(!is_conversion(&black, mv("c2c3")));
        let capture = Position::from_fen("4k4/9/9/9/4p4/9/9/2r6/9/2RK5 b - - 0 1").unwrap();
        assert!(is_conversion(&capture, mv("c2c0")));
    }

    #[test]
    fn values_before_a_move_depend_on_conversion_in_dtc_only() {
        assert_eq!(Metric::Dtm.before_move(Value::Loss(6), true), Value::Win(7));
        assert_eq!(Metric::Dtc.before_move(Value::Loss(6), true), Value::Win(1));
        assert_eq!(
            Metric::Dtc.before_move(Value::Loss(6), false),
            Value::Win(7)
        );
        assert_eq!(Metric::Dtc.before_move(Value::Win(3), true), Value::Loss(1));
        assert_eq!(Metric::Dtc.before_move(Value::Draw, true), Value::Draw);
        for m in Metric::ALL {
            assert_eq!(Metric::from_code(m.code()), Some(m));
            assert_eq!(m.name().parse::<Metric>(), Ok(m));
        }
        assert!("dtz".parse::<Metric>().is_err());
        assert_eq!(Metric::from_code(3), None);
    }
}
