//! Endgame tablebases: exact win/draw/loss and distance to mate for small material balances.
//!
//! - [`signature`]: material signatures and the canonical table names (`KRKAABB`).
//! - [`index`]: the position <-> index mapping, shared by the generator (`egtb-gen`) and the prober.
//! - [`file`](mod@file): the table file format, reader and writer (`docs/formats/egtb.md`).
//! - [`probe`]: [`Tablebases`], a set of open tables: value, best move and line to mate.
//! - [`stats`]: a table in numbers: results per side to move, distances to mate, longest mates.
//!
//! Values are for the side to move. A distance to mate (DTM) counts plies with best play (the
//! winner shortens it, the loser lengthens it): a side that is checkmated or stalemated has lost
//! at distance 0, a mate in one is a win at distance 1. Positions that neither side can force to
//! mate are draws, unless one side could avoid mate only by checking forever, which the Asian
//! rules forbid: such positions are won or lost *by the perpetual-check rule*
//! ([`Value::RuleWin`], [`Value::RuleLoss`], with a [`RuleRank`] instead of a distance; format
//! version 2, [`Coding`]). `docs/egtb.md` explains the game behind them.

pub mod file;
pub mod index;
pub mod metric;
pub mod probe;
pub mod signature;
pub mod stats;

use std::cmp::Ordering;
use std::fmt;

pub use file::{FileError, Header, TableFile};
pub use index::{IndexError, Indexer};
pub use metric::{Metric, is_conversion};
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

/// Where a position decided by the perpetual-check rule stands in the winner's plan.
///
/// The rule's solution is a sequence of *stages* (`docs/egtb.md`): stage 0 holds the positions
/// from which the winner forces a capture into a smaller table that the rule decides for it;
/// odd stages are *cores*, where the loser must check on every move (or fall to an earlier
/// stage); even stages from 2 on are the ways into a core. `plies` counts within the stage:
/// in a core, the plies until the winner's next move that gives no check; elsewhere, the plies
/// until play reaches an earlier stage. It is odd when the winner is to move, even when the
/// loser is. Ranks compare only within one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleRank {
    /// The stage (0, 1, 2, ...).
    pub stage: u32,
    /// Plies within the stage.
    pub plies: u32,
}

impl RuleRank {
    /// `true` when the stage is a core (the loser checks on every move there).
    #[must_use]
    pub fn is_core(self) -> bool {
        self.stage % 2 == 1
    }

    /// A single number ordering ranks: stage first, then plies.
    fn key(self) -> i64 {
        (i64::from(self.stage) << 20) + i64::from(self.plies)
    }
}

/// The exact value of a position for the side to move.
///
/// A win by mate is better than a win by the perpetual-check rule, which is better than a draw;
/// likewise a loss by the rule is better than being mated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Mates in this many plies (always odd).
    Win(u32),
    /// Wins by the perpetual-check rule: the opponent can avoid mate only by checking forever
    /// (with the rank of the winner's plan).
    RuleWin(RuleRank),
    /// A draw.
    Draw,
    /// Loses by the perpetual-check rule: it can avoid mate only by checking forever.
    RuleLoss(RuleRank),
    /// Is mated (or stalemated) in this many plies (always even; 0 = now).
    Loss(u32),
}

/// A stored code that is no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("code {0} is no value in this table")]
pub struct ValueError(pub u16);

impl Value {
    /// The value stored as `code` in a table without rule values (format version 1): 0 is a
    /// draw, `2 + d` a decided position at distance `d` (odd `d`: the side to move wins, even
    /// `d`: it loses). [`Coding::decode`] reads version 2 codes.
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

    /// The code stored for this value in a table without rule values, or `None` when the
    /// distance has the wrong parity, does not fit in 16 bits, or the value is a rule value.
    #[must_use]
    pub fn to_code(self) -> Option<u16> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d % 2 == 1 => u16::try_from(d + 2).ok(),
            Value::Loss(d) if d % 2 == 0 => u16::try_from(d + 2).ok(),
            _ => None,
        }
    }

    /// The value stored as `code` in a DTC table without rule values: 0 is a draw, `2 + 2d` a
    /// loss at distance `d` (d >= 0), `1 + 2d` a win at distance `d` (d >= 1).
    ///
    /// # Errors
    /// [`ValueError`] for the reserved code 1.
    pub fn from_dtc_code(code: u16) -> Result<Value, ValueError> {
        match code {
            0 => Ok(Value::Draw),
            1 => Err(ValueError(code)),
            c if c % 2 == 0 => Ok(Value::Loss(u32::from(c - 2) / 2)),
            c => Ok(Value::Win(u32::from(c - 1) / 2)),
        }
    }

    /// The code of this value in a DTC table without rule values, or `None` for a win at 0, a
    /// distance that does not fit in 16 bits, or a rule value.
    #[must_use]
    pub fn to_dtc_code(self) -> Option<u16> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d >= 1 => u16::try_from(2 * u64::from(d) + 1).ok(),
            Value::Loss(d) => u16::try_from(2 * u64::from(d) + 2).ok(),
            _ => None,
        }
    }

    /// Win, draw or loss.
    #[must_use]
    pub fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) | Value::RuleWin(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) | Value::RuleLoss(_) => Wdl::Loss,
        }
    }

    /// The distance to mate in plies, for positions decided by mate.
    #[must_use]
    pub fn dtm(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            _ => None,
        }
    }

    /// The rank, for positions decided by the perpetual-check rule.
    #[must_use]
    pub fn rule_rank(self) -> Option<RuleRank> {
        match self {
            Value::RuleWin(r) | Value::RuleLoss(r) => Some(r),
            _ => None,
        }
    }

    /// A sort key that puts the better value for the side to move first: wins by the quickest
    /// mate, wins by the rule (by rank), draws, losses by the rule, losses by the slowest mate.
    #[must_use]
    pub fn best_first(self) -> (u8, u32) {
        let rank = |r: RuleRank| r.stage.saturating_mul(1 << 16).saturating_add(r.plies);
        match self {
            Value::Win(d) => (0, d),
            Value::RuleWin(r) => (1, rank(r)),
            Value::Draw => (2, 0),
            Value::RuleLoss(r) => (3, u32::MAX - rank(r)),
            Value::Loss(d) => (4, u32::MAX - d),
        }
    }

    /// `true` when the perpetual-check rule decides the position.
    #[must_use]
    pub fn by_rule(self) -> bool {
        self.rule_rank().is_some()
    }

    /// The value of a position whose move leads to a position of value `self` (for the
    /// opponent): one ply further and seen from the other side. For rule values only the
    /// result is exact: the parent's rank is its own table's (a capture changes tables).
    #[must_use]
    pub fn before_move(self) -> Value {
        let next = |r: RuleRank| RuleRank {
            stage: r.stage,
            plies: r.plies + 1,
        };
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::RuleWin(r) => Value::RuleLoss(next(r)),
            Value::Draw => Value::Draw,
            Value::RuleLoss(r) => Value::RuleWin(next(r)),
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// A total order for the side to move: wins by mate (quicker first), wins by the rule
    /// (lower rank first), draws, losses by the rule (higher rank first), losses by mate
    /// (slower first).
    #[must_use]
    pub fn score(self) -> i64 {
        const MATE: i64 = 1 << 50;
        const RULE: i64 = 1 << 40;
        match self {
            Value::Win(d) => MATE - i64::from(d),
            Value::RuleWin(r) => RULE - r.key(),
            Value::Draw => 0,
            Value::RuleLoss(r) => -RULE + r.key(),
            Value::Loss(d) => -MATE + i64::from(d),
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

/// `ply` or `plies`.
pub(crate) fn plies(n: u32) -> &'static str {
    if n == 1 { "ply" } else { "plies" }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win, mate in {d} {}", plies(*d)),
            Value::RuleWin(r) => write!(
                f,
                "win by the perpetual check/chase rules (stage {}, {} {})",
                r.stage,
                r.plies,
                plies(r.plies)
            ),
            Value::Draw => f.write_str("draw"),
            Value::RuleLoss(r) => write!(
                f,
                "loss by the perpetual check/chase rules (stage {}, {} {})",
                r.stage,
                r.plies,
                plies(r.plies)
            ),
            Value::Loss(0) => f.write_str("loss, no legal move"),
            Value::Loss(d) => write!(f, "loss, mated in {d} {}", plies(*d)),
        }
    }
}

/// How a table's codes map to values. Version 1 tables hold only plain codes: in a DTM table
/// those of [`Value::from_code`], in a DTC table those of [`Value::from_dtc_code`]. Version 2
/// tables add a range for rule values from `rule_base` on:
/// `rule_base + stage * rule_stride + plies` (the stride is even, so the parity of the code
/// past the base is that of the plies: odd for a win, even for a loss).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Coding {
    /// What the distances of the plain codes count.
    pub metric: Metric,
    /// The first code of a rule value; 0 when the table has none.
    pub rule_base: u16,
    /// Codes per stage (even).
    pub rule_stride: u16,
    /// The number of stages.
    pub rule_stages: u16,
    /// Per winner in the table's frame (strong side first): bit `s` set when stage `s` is a
    /// core of the perpetual *chase* rule (the loser chases on every move; the winner plays
    /// its win with moves that neither check nor chase). Other odd stages are check cores.
    pub chase_stages: [u128; 2],
}

impl Coding {
    /// No rule values (format version 1), distances to mate.
    pub const PLAIN: Coding = Coding {
        metric: Metric::Dtm,
        rule_base: 0,
        rule_stride: 0,
        rule_stages: 0,
        chase_stages: [0; 2],
    };

    /// The plain coding (no rule values) of a metric.
    #[must_use]
    pub const fn plain(metric: Metric) -> Coding {
        Coding {
            metric,
            ..Coding::PLAIN
        }
    }

    /// The coding for a table of `metric` whose longest distance is `max_distance`, whose rule
    /// values have plies up to `max_plies` in `stages` stages; `None` when the codes would not
    /// fit in 16 bits. With no stage the coding is [`Coding::plain`].
    #[must_use]
    pub fn for_table(
        metric: Metric,
        max_distance: u32,
        max_plies: u32,
        stages: u32,
    ) -> Option<Coding> {
        let top_plain = match metric {
            Metric::Dtm => u64::from(max_distance) + 2,
            Metric::Dtc => 2 * u64::from(max_distance) + 2,
        };
        if stages == 0 {
            return (top_plain <= u64::from(u16::MAX)).then_some(Coding::plain(metric));
        }
        let base = top_plain + 1;
        let stride = (max_plies + 2) & !1;
        let top = base + u64::from(stride) * u64::from(stages) - 1;
        (top <= u64::from(u16::MAX)).then_some(Coding {
            metric,
            rule_base: base as u16,
            rule_stride: stride as u16,
            rule_stages: stages as u16,
            chase_stages: [0; 2],
        })
    }

    /// `true` when stage `stage` of the game won by `winner` (in the table's frame: Red is the
    /// strong side) is a chase core.
    #[must_use]
    pub fn is_chase_core(self, winner: chariot_rules::Color, stage: u32) -> bool {
        stage < 128 && self.chase_stages[winner.index()] >> stage & 1 == 1
    }

    /// `true` when the table has rule values.
    #[must_use]
    pub fn has_rule_values(self) -> bool {
        self.rule_base != 0
    }

    /// The value stored as `code`.
    ///
    /// # Errors
    /// [`ValueError`] for a code that is no value in this coding.
    pub fn decode(self, code: u16) -> Result<Value, ValueError> {
        if self.rule_base == 0 || code < self.rule_base {
            return match self.metric {
                Metric::Dtm => Value::from_code(code),
                Metric::Dtc => Value::from_dtc_code(code),
            };
        }
        let x = code - self.rule_base;
        let (stage, plies) = (x / self.rule_stride, x % self.rule_stride);
        if stage >= self.rule_stages {
            return Err(ValueError(code));
        }
        let rank = RuleRank {
            stage: u32::from(stage),
            plies: u32::from(plies),
        };
        Ok(if plies % 2 == 1 {
            Value::RuleWin(rank)
        } else {
            Value::RuleLoss(rank)
        })
    }

    /// The code of `value`, or `None` when this coding cannot store it.
    #[must_use]
    pub fn encode(self, value: Value) -> Option<u16> {
        match value {
            Value::RuleWin(r) | Value::RuleLoss(r) => {
                let win = matches!(value, Value::RuleWin(_));
                let fits = self.rule_base != 0
                    && r.stage < u32::from(self.rule_stages)
                    && r.plies < u32::from(self.rule_stride)
                    && (r.plies % 2 == 1) == win;
                fits.then(|| self.rule_base + r.stage as u16 * self.rule_stride + r.plies as u16)
            }
            v => match self.metric {
                Metric::Dtm => v.to_code(),
                Metric::Dtc => v.to_dtc_code(),
            }
            .filter(|&c| self.rule_base == 0 || c < self.rule_base),
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

    #[test]
    fn dtc_codes_round_trip_with_and_without_rule_values() {
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Loss(1),
            Value::Win(1),
            Value::Win(2),
            Value::Loss(30),
            Value::Win(253),
        ] {
            let code = v.to_dtc_code().unwrap();
            assert_eq!(Value::from_dtc_code(code), Ok(v));
            assert_eq!(Coding::plain(Metric::Dtc).decode(code), Ok(v));
        }
        assert_eq!(Value::Win(0).to_dtc_code(), None);
        assert_eq!(Value::from_dtc_code(1), Err(ValueError(1)));
        let r = RuleRank { stage: 1, plies: 3 };
        let c = Coding::for_table(Metric::Dtc, 20, 5, 2).unwrap();
        assert_eq!(c.rule_base, 43);
        for v in [Value::Win(20), Value::Loss(20), Value::RuleWin(r)] {
            assert_eq!(c.decode(c.encode(v).unwrap()), Ok(v), "{v}");
        }
        assert_eq!(
            c.encode(Value::Win(21)),
            None,
            "collides with the rule codes"
        );
        assert_eq!(Coding::for_table(Metric::Dtc, 40_000, 0, 0), None);
    }

    #[test]
    fn rule_values_order_between_mates_and_draws_and_round_trip() {
        let r = |stage, plies| RuleRank { stage, plies };
        assert!(Value::Win(301) > Value::RuleWin(r(0, 1)));
        assert!(Value::RuleWin(r(0, 1)) > Value::RuleWin(r(0, 3)));
        assert!(Value::RuleWin(r(0, 99)) > Value::RuleWin(r(1, 1)));
        assert!(Value::RuleWin(r(9, 99)) > Value::Draw);
        assert!(Value::Draw > Value::RuleLoss(r(9, 98)));
        assert!(Value::RuleLoss(r(1, 0)) > Value::RuleLoss(r(0, 6)));
        assert!(Value::RuleLoss(r(0, 0)) > Value::Loss(200));
        assert_eq!(
            Value::RuleLoss(r(3, 4)).before_move(),
            Value::RuleWin(r(3, 5))
        );
        assert_eq!(Value::RuleWin(r(2, 1)).wdl(), Wdl::Win);
        assert_eq!(Value::RuleWin(r(2, 1)).dtm(), None);

        let c = Coding::for_table(Metric::Dtm, 40, 9, 3).unwrap();
        assert_eq!((c.rule_base, c.rule_stride, c.rule_stages), (43, 10, 3));
        for v in [
            Value::Draw,
            Value::Win(39),
            Value::Loss(40),
            Value::RuleWin(r(0, 1)),
            Value::RuleLoss(r(0, 0)),
            Value::RuleWin(r(2, 9)),
            Value::RuleLoss(r(1, 8)),
        ] {
            let code = c.encode(v).unwrap();
            assert_eq!(c.decode(code), Ok(v), "{v}");
        }
        assert_eq!(
            c.encode(Value::Win(41)),
            None,
            "collides with the rule codes"
        );
        assert_eq!(c.encode(Value::RuleWin(r(0, 2))), None, "wrong parity");
        assert_eq!(c.encode(Value::RuleWin(r(3, 1))), None, "no such stage");
        assert_eq!(c.decode(43 + 30), Err(ValueError(73)));
        assert_eq!(Coding::PLAIN.encode(Value::RuleWin(r(0, 1))), None);
        assert_eq!(Coding::PLAIN.decode(300), Ok(Value::Loss(298)));
        assert_eq!(Coding::for_table(Metric::Dtm, 65000, 1000, 2), None);
    }
}
