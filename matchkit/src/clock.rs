//! Time controls and chess clocks.
//!
//! A time control is written as cutechess-cli writes it: `[MOVES/]TIME[+INCREMENT]`, times in
//! seconds (fractions allowed) or `MIN:SEC`. `10+0.1` is ten seconds and a tenth per move
//! (increment), `40/60` is a minute for every forty moves (moves per period), `300` is five
//! minutes for the game (sudden death); the forms combine (`40/60+0.5`).
//!
//! A clock may run below zero: an engine that overruns is sent `stop` and loses on time only when
//! its answer does not come within the grace time (the UCCI league simulator's rule). Overruns
//! add up: the flag falls once the clock is more than the grace below zero, so an engine cannot
//! live on the grace alone move after move.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// A time control: time per period, optional moves per period, increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period; `None` for one period for the whole game.
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// A time control that could not be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error(
    "invalid time control {text:?}: {reason} (expected [MOVES/]TIME[+INCREMENT], e.g. 10+0.1 or 40/60)"
)]
pub struct TimeControlError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let fail = |reason: &str| TimeControlError {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| fail("the moves per period are not a whole number"))?;
                if m == 0 {
                    return Err(fail("the moves per period must be at least 1"));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = parse_time(base).ok_or_else(|| fail("the time is not a number of seconds"))?;
        let increment = match inc {
            Some(i) => parse_seconds(i).ok_or_else(|| fail("the increment is not seconds"))?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(fail("there is no time at all"));
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

/// Seconds (`12`, `0.5`) or `MIN:SEC` (`1:30`).
fn parse_time(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().ok()?;
            let s = parse_seconds(s)?;
            Some(Duration::from_secs(m.checked_mul(60)?) + s)
        }
        None => parse_seconds(text),
    }
}

/// A non-negative, finite number of seconds of at most a year.
fn parse_seconds(text: &str) -> Option<Duration> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && (0.0..=31_536_000.0).contains(&s)).then(|| Duration::from_secs_f64(s))
}

impl fmt::Display for TimeControl {
    /// The cutechess form, `40/60+0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", secs(self.increment))?;
        }
        Ok(())
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag value: `MOVES/SECONDS` for a period, `SECONDS+INCREMENT` for
    /// increment (the PGN standard's forms, with fractions where the control has them).
    #[must_use]
    pub fn pgn(&self) -> String {
        let mut s = match self.moves {
            Some(m) => format!("{m}/{}", secs(self.base)),
            None => secs(self.base),
        };
        if !self.increment.is_zero() {
            s.push_str(&format!("+{}", secs(self.increment)));
        }
        s
    }
}

/// Seconds without trailing zeros: `10`, `0.1`, `2.25`.
fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_owned()
    }
}

/// One player's clock.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Milliseconds left; negative after an overrun within the grace.
    left_ms: i64,
    /// Moves this player has completed.
    moves_made: u32,
}

impl Clock {
    /// A clock set for the start of a game.
    #[must_use]
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left_ms: millis(tc.base),
            moves_made: 0,
        }
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.tc
    }

    /// Milliseconds left (negative after an overrun).
    #[must_use]
    pub fn left_ms(&self) -> i64 {
        self.left_ms
    }

    /// Milliseconds left as sent to an engine: never below zero.
    #[must_use]
    pub fn shown_ms(&self) -> u64 {
        self.left_ms.max(0).unsigned_abs()
    }

    /// The increment in milliseconds.
    #[must_use]
    pub fn increment_ms(&self) -> u64 {
        millis(self.tc.increment).unsigned_abs()
    }

    /// Moves left until the next period starts, for `movestogo`; `None` without periods.
    #[must_use]
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// The time this player may use for the move about to be thought, grace included, in
    /// milliseconds (zero or more).
    #[must_use]
    pub fn budget_ms(&self, grace_ms: u64) -> u64 {
        (self.left_ms + i64::try_from(grace_ms).unwrap_or(i64::MAX))
            .max(0)
            .unsigned_abs()
    }

    /// Charges a move that took `used` and credits the increment and, at the end of a period,
    /// the next period's time. Returns `false` when the flag fell: the clock went more than
    /// `grace_ms` below zero.
    pub fn punch(&mut self, used: Duration, grace_ms: u64) -> bool {
        self.left_ms -= millis(used);
        if self.left_ms < -i64::try_from(grace_ms).unwrap_or(i64::MAX) {
            return false;
        }
        self.moves_made += 1;
        self.left_ms += millis(self.tc.increment);
        if let Some(m) = self.tc.moves
            && self.moves_made.is_multiple_of(m)
        {
            self.left_ms += millis(self.tc.base);
        }
        true
    }
}

/// A duration in whole milliseconds, saturating.
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn parses_the_cutechess_forms() {
        let t = tc("10+0.1");
        assert_eq!(
            (t.moves, t.base, t.increment),
            (None, Duration::from_secs(10), Duration::from_millis(100))
        );
        let t = tc("40/60");
        assert_eq!(
            (t.moves, t.base, t.increment),
            (Some(40), Duration::from_secs(60), Duration::ZERO)
        );
        let t = tc("40/1:30+0.5");
        assert_eq!((t.moves, t.base), (Some(40), Duration::from_secs(90)));
        assert_eq!(t.to_string(), "40/90+0.5");
        assert_eq!(tc("0+1").pgn(), "0+1");
        assert_eq!(tc("300").pgn(), "300");
        for bad in [
            "", "x", "10+", "-5", "0/10", "10+abc", "0", "1e3", "inf", "10+0.1+1",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn increment_and_periods_are_credited() {
        let mut c = Clock::new(tc("2/1+0.1"));
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.punch(Duration::from_millis(300), 200));
        assert_eq!(c.left_ms(), 800);
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.punch(Duration::from_millis(300), 200));
        assert_eq!(c.left_ms(), 600 + 1000);
        assert_eq!(c.moves_to_go(), Some(2));
    }

    #[test]
    fn overruns_add_up_against_the_grace() {
        let mut c = Clock::new(tc("1"));
        assert!(c.punch(Duration::from_millis(1100), 200));
        assert_eq!((c.left_ms(), c.shown_ms()), (-100, 0));
        assert_eq!(c.budget_ms(200), 100);
        assert!(!c.punch(Duration::from_millis(150), 200));
    }
}
