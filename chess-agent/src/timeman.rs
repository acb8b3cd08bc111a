//! Time management: how long to think about one move.
//!
//! Two limits per move: the *soft* one (start no new iteration after half of it; iterations
//! grow by a factor of about two, so the next one would likely not finish) and the *hard* one
//! (the search stops mid-iteration). Both leave a reserve for what the clock counts but the
//! search does not see: process scheduling, pipes, the referee's own work.

use std::time::Duration;

/// Time for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration after about half of this.
    pub soft: Duration,
    /// Stop at once after this.
    pub hard: Duration,
}

/// Per-move allowance for process and pipe latency, never spent thinking.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// The budget in the contest: `remaining` of the whole game's time left, `moves_played` of our
/// own moves so far, no increment.
///
/// Plans for max(25, 55 - moves_played) more moves, keeps 5% of the remaining time (up to two
/// seconds) in reserve, and never lets one move take more than a quarter of what is usable.
#[must_use]
pub fn contest(remaining: Duration, moves_played: u32) -> Budget {
    let reserve = (remaining / 20).min(Duration::from_secs(2));
    let usable = remaining
        .saturating_sub(reserve)
        .saturating_sub(MOVE_OVERHEAD);
    let moves_left = 55u32.saturating_sub(moves_played).max(25);
    let soft = usable / moves_left;
    let hard = (soft * 3).min(usable / 4);
    clamp(soft, hard)
}

/// The budget under UCI: `remaining` on our clock, `increment` per move, `moves_to_go` until
/// the next time control if any.
#[must_use]
pub fn uci(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Budget {
    let usable = remaining.saturating_sub(MOVE_OVERHEAD * 2);
    let moves_left = moves_to_go.unwrap_or(30).clamp(1, 50);
    let soft = usable / moves_left + increment * 3 / 4;
    let cap = if moves_left == 1 {
        usable * 4 / 5
    } else {
        usable / 2
    };
    let hard = (soft * 4).min(cap);
    clamp(soft.min(hard), hard)
}

/// The budget for a fixed time per move (UCI `movetime`).
#[must_use]
pub fn fixed(movetime: Duration) -> Budget {
    let t = movetime.saturating_sub(MOVE_OVERHEAD);
    // A fixed time is a target: run iterations until the hard stop.
    clamp(t * 2, t)
}

fn clamp(soft: Duration, hard: Duration) -> Budget {
    let floor = Duration::from_millis(1);
    Budget {
        soft: soft.max(floor),
        hard: hard.max(floor),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contest_budgets_sum_below_the_total() {
        // 150 moves (300 plies), each using its whole soft limit plus 10 ms of latency: time is
        // left over.
        let mut remaining = Duration::from_secs(600);
        for played in 0..150 {
            let b = contest(remaining, played);
            assert!(
                b.soft <= b.hard && b.hard < remaining,
                "move {played}: {b:?}"
            );
            remaining -= b.soft + Duration::from_millis(10);
        }
        assert!(remaining > Duration::from_secs(1), "{remaining:?}");
        // Even a hard-limit move never takes more than a quarter of what is left.
        let b = contest(Duration::from_secs(4), 10);
        assert!(b.hard <= Duration::from_secs(1));
        let first = contest(Duration::from_secs(600), 0);
        assert!(first.soft > Duration::from_secs(8) && first.hard <= Duration::from_secs(40));
    }

    #[test]
    fn uci_budgets() {
        let b = uci(Duration::from_secs(10), Duration::from_millis(100), None);
        assert!(b.hard <= Duration::from_secs(5) && b.soft >= Duration::from_millis(300));
        let last = uci(Duration::from_secs(1), Duration::ZERO, Some(1));
        assert!(last.hard < Duration::from_secs(1));
        assert_eq!(
            uci(Duration::ZERO, Duration::ZERO, None).hard,
            Duration::from_millis(1)
        );
    }
}
