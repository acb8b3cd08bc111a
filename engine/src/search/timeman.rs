//! Time management: turning `movetime` or a game clock into a soft and a hard budget.
//!
//! The soft budget ("optimum") is what a move should normally cost; iterative deepening checks it
//! between iterations and stretches or shrinks it by how stable the best move is. The hard budget
//! ("maximum") is checked inside the search every 1024 nodes and is never exceeded by more than
//! that check interval.
//!
//! The clock rules: the move overhead is kept in reserve first. With `movestogo` the remaining
//! time is shared among the moves to the control (at most 50 counted); in sudden death the game is
//! assumed to last 30 more moves, so the budget shrinks as the clock runs down, and most of the
//! increment is spent on each move. The hard budget is a few times the soft one but never more
//! than a fixed share of the clock (a fifth in sudden death, more just before a control), which
//! leaves enough for the remaining moves even in very fast games.

use std::time::{Duration, Instant};

use super::limits::Limits;

/// Moves assumed to remain in a sudden-death game.
const SUDDEN_DEATH_MOVES: u32 = 30;

/// The budget of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    optimum: Option<Duration>,
    maximum: Option<Duration>,
}

impl TimeManager {
    /// The budget for `limits`, counted from `start`. Without `movetime` or a clock, unbounded.
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        let (optimum, maximum) = budget(limits).map_or((None, None), |(o, m)| (Some(o), Some(m)));
        TimeManager {
            start,
            optimum,
            maximum,
        }
    }

    /// Restarts the budget (on a ponder hit the time counts from that moment).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    /// Time since the budget started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// `true` once the hard budget is spent.
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// `true` when the soft budget, scaled by `scale` (about 0.5 to 2), is spent: time to stop
    /// between iterations. Never more than the hard budget.
    pub fn soft_stop(&self, scale: f64) -> bool {
        match (self.optimum, self.maximum) {
            (Some(o), Some(m)) => self.elapsed() >= o.mul_f64(scale.max(0.0)).min(m),
            _ => false,
        }
    }

    /// `true` when the search manages its own time (a clock or movetime was given).
    pub fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }
}

/// The (soft, hard) budget, or `None` when no time limit applies.
fn budget(limits: &Limits) -> Option<(Duration, Duration)> {
    let floor = Duration::from_millis(1);
    if let Some(movetime) = limits.movetime {
        let overhead = limits.clock.map_or(Duration::ZERO, |c| c.move_overhead);
        let t = movetime.saturating_sub(overhead).max(floor);
        return Some((t, t));
    }
    let clock = limits.clock?;
    let safe = clock.time.saturating_sub(clock.move_overhead);
    let moves = clock
        .movestogo
        .map_or(SUDDEN_DEATH_MOVES, |m| m.clamp(1, 50));
    let mut share = safe / moves + clock.increment.mul_f64(0.75);
    if clock.ponder {
        share += share / 4;
    }
    // The hard cap: a share of the clock that leaves room for the rest of the control.
    let cap_share = match clock.movestogo {
        Some(1) => 0.8,
        Some(2) => 0.5,
        Some(m) if m <= 5 => 0.35,
        _ => 0.2,
    };
    let cap = safe.mul_f64(cap_share) + clock.increment.mul_f64(0.5).min(safe.mul_f64(0.5));
    let cap = cap.min(safe).max(floor);
    let optimum = share.min(cap).max(floor);
    let maximum = (optimum * 4).min(cap).max(optimum);
    Some((optimum, maximum))
}

#[cfg(test)]
mod tests {
    #[test]
    fn pondering_allows_a_quarter_more() {
        let mut l = clock(60_000, 0, None);
        let (plain, _) = budget(&l).unwrap();
        if let Some(c) = &mut l.clock {
            c.ponder = true;
        }
        let (ponder, max) = budget(&l).unwrap();
        assert_eq!(ponder, plain + plain / 4);
        assert!(max >= ponder);
    }

    use super::*;
    use crate::search::TimeLeft;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(TimeLeft {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                movestogo: mtg,
                opptime: None,
                move_overhead: Duration::from_millis(30),
                ponder: false,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        for (ms, inc, mtg) in [
            (60_000, 0, None),
            (1_000, 0, None),
            (100, 0, None),
            (10, 0, None),
            (5_000, 1_000, None),
            (30_000, 0, Some(1)),
            (30_000, 0, Some(40)),
            (500, 100, Some(3)),
        ] {
            let (o, m) = budget(&clock(ms, inc, mtg)).unwrap();
            assert!(o <= m, "{ms} {inc} {mtg:?}: {o:?} > {m:?}");
            let usable = Duration::from_millis(ms.saturating_sub(30)).max(Duration::from_millis(1));
            assert!(
                m <= usable,
                "{ms} {inc} {mtg:?}: hard budget {m:?} exceeds {usable:?}"
            );
        }
        // Sudden death without increment keeps at least 80 % of the clock for later moves.
        let (_, m) = budget(&clock(60_000, 0, None)).unwrap();
        assert!(m <= Duration::from_millis(12_000));
    }

    #[test]
    fn movetime_is_exact_and_no_limit_is_unbounded() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(250)),
            ..Limits::default()
        };
        assert_eq!(
            budget(&limits),
            Some((Duration::from_millis(250), Duration::from_millis(250)))
        );
        assert_eq!(budget(&Limits::default()), None);
        assert!(!TimeManager::new(&Limits::default(), Instant::now()).is_timed());
    }
}
