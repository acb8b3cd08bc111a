//! A game clock for a web game: sudden death, or sudden death with an increment (Fischer).
//!
//! The server's clock is the one that counts: the page shows a copy that ticks down between
//! answers. The side to move's time runs from the moment its turn began; a move made after its
//! time ran out is not played and the side loses on time.

use std::time::{Duration, Instant};

use chariot_rules::Color;

/// How a clock is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    /// Each side's time at the start.
    pub initial: Duration,
    /// Time added after each move of one's own.
    pub increment: Duration,
}

/// A running game clock.
#[derive(Clone, Debug)]
pub struct Clock {
    spec: ClockSpec,
    /// Time left for Red and Black when the current turn began.
    left: [Duration; 2],
    /// When the current turn began; `None` once the clock is stopped.
    since: Option<Instant>,
}

fn index(c: Color) -> usize {
    usize::from(c == Color::Black)
}

impl Clock {
    /// A clock whose side to move's time starts running now.
    #[must_use]
    pub fn start(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            left: [spec.initial; 2],
            since: Some(Instant::now()),
        }
    }

    /// How it is set.
    #[must_use]
    pub fn spec(&self) -> ClockSpec {
        self.spec
    }

    /// The time `side` has left now, when `to_move` is on move.
    #[must_use]
    pub fn left(&self, side: Color, to_move: Color) -> Duration {
        let stored = self.left[index(side)];
        match self.since {
            Some(t) if side == to_move => stored.saturating_sub(t.elapsed()),
            _ => stored,
        }
    }

    /// `true` when `to_move`'s time has run out.
    #[must_use]
    pub fn flagged(&self, to_move: Color) -> bool {
        self.since.is_some() && self.left(to_move, to_move).is_zero()
    }

    /// `mover` has moved: their time is charged and the increment added, and the other side's
    /// time starts. Returns `false` (charging nothing) when their time had run out.
    pub fn punch(&mut self, mover: Color) -> bool {
        let Some(since) = self.since else {
            return true;
        };
        let spent = since.elapsed();
        let i = index(mover);
        if spent >= self.left[i] {
            self.left[i] = Duration::ZERO;
            self.since = None;
            return false;
        }
        self.left[i] = self.left[i] - spent + self.spec.increment;
        self.since = Some(Instant::now());
        true
    }

    /// Stops the clock with `to_move`'s time charged (the game is over).
    pub fn stop(&mut self, to_move: Color) {
        if self.since.is_some() {
            self.left[index(to_move)] = self.left(to_move, to_move);
            self.since = None;
        }
    }

    /// Starts a stopped clock again (a finished game taken back), unless a time ran out.
    pub fn resume(&mut self) {
        if self.since.is_none() && !self.left.iter().any(Duration::is_zero) {
            self.since = Some(Instant::now());
        }
    }

    /// `true` while it runs.
    #[must_use]
    pub fn running(&self) -> bool {
        self.since.is_some()
    }

    /// How long the engine may think for one move with `left` on its clock: a share of the
    /// time left plus most of the increment, keeping a margin for the answer to travel.
    #[must_use]
    pub fn budget(&self, left: Duration) -> Duration {
        let margin = Duration::from_millis(300);
        let share = left / 30 + self.spec.increment * 3 / 4;
        share
            .min(left.saturating_sub(margin))
            .max(Duration::from_millis(10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(ms: u64, inc: u64) -> ClockSpec {
        ClockSpec {
            initial: Duration::from_millis(ms),
            increment: Duration::from_millis(inc),
        }
    }

    #[test]
    fn a_move_charges_the_mover_and_adds_the_increment() {
        let mut c = Clock::start(spec(60_000, 2_000));
        std::thread::sleep(Duration::from_millis(20));
        assert!(c.punch(Color::Red));
        let red = c.left(Color::Red, Color::Black);
        assert!(red > Duration::from_millis(61_000) && red < Duration::from_millis(61_990));
        // Black's time runs now, Red's does not.
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(c.left(Color::Red, Color::Black), red);
        assert!(c.left(Color::Black, Color::Black) < Duration::from_millis(60_000));
        c.stop(Color::Black);
        let black = c.left(Color::Black, Color::Black);
        std::thread::sleep(Duration::from_millis(10));
        assert_eq!(c.left(Color::Black, Color::Black), black);
        assert!(!c.running());
    }

    #[test]
    fn a_side_whose_time_ran_out_loses_its_move() {
        let mut c = Clock::start(spec(15, 0));
        assert!(!c.flagged(Color::Red));
        std::thread::sleep(Duration::from_millis(30));
        assert!(c.flagged(Color::Red));
        assert!(!c.punch(Color::Red));
        assert_eq!(c.left(Color::Red, Color::Red), Duration::ZERO);
    }

    #[test]
    fn the_engine_budget_keeps_a_margin() {
        let c = Clock::start(spec(60_000, 1_000));
        assert_eq!(
            c.budget(Duration::from_secs(60)),
            Duration::from_millis(2_750)
        );
        assert_eq!(
            c.budget(Duration::from_millis(500)),
            Duration::from_millis(200)
        );
        assert_eq!(
            c.budget(Duration::from_millis(100)),
            Duration::from_millis(10)
        );
    }
}
