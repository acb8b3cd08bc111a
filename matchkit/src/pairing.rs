//! Pairings: who meets whom. The round robin's order of encounters, the Swiss system's
//! backtracking pairs of a round, a Swiss rule as the runner asks it ([`SwissPairing`]) with
//! the kit's own rule by points ([`PointsSwiss`]), and the seeded shuffle of openings and players
//! (the workspace's one generator, `chariot_rules::random::Rng`, so that a seed gives the same
//! order on every platform).

use std::collections::HashSet;

use chariot_rules::random::Rng;

use crate::standings::{GameScore, Standings};

/// One Swiss round as a rule pairs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The encounters: `(a, b)` where `a` has the first seat (Red, White) in the encounter's
    /// first game.
    pub encounters: Vec<(usize, usize)>,
    /// The player who sits out, if any: the runner scores it as a won encounter.
    pub bye: Option<usize>,
}

/// A Swiss system's rule, as the runner asks it: before each round, who meets whom; after each
/// counted game, its result (for rules that remember more than the standings do).
///
/// The kit's rule is [`PointsSwiss`]; the chess contest's referee brings its own (a drawn
/// first round, colours by balance, drawn pairs kept apart for a round).
pub trait SwissPairing {
    /// Pairs round `round` (from 1) from the standings after the rounds before it.
    fn pair(&mut self, round: u32, standings: &Standings) -> Round;

    /// Learns the result of a counted game of the current round: `first` had the first seat,
    /// `score` is from its side. The default remembers nothing.
    fn record(&mut self, first: usize, second: usize, score: GameScore) {
        let _ = (first, second, score);
    }
}

/// The kit's Swiss rule (`chariot-league --tournament swiss`): before each round the players
/// are ranked by points (byes included), then by their order on the command line, and paired
/// top-down with the best-ranked opponent not met yet ([`swiss_pairs`], backtracking;
/// rematches only when no pairing without them exists). With an odd number, the lowest-ranked
/// player that has not had a bye sits out (anyone, lowest first, once all have had one). Of a
/// pair, the one that had the first seat less often has it in the encounter's first game.
#[derive(Clone, Debug)]
pub struct PointsSwiss {
    games: u32,
    met: HashSet<(usize, usize)>,
    firsts: Vec<u32>,
    had_bye: Vec<bool>,
}

impl PointsSwiss {
    /// The rule for `players` players meeting in encounters of `games` games (colours
    /// alternating within an encounter).
    #[must_use]
    pub fn new(players: usize, games: u32) -> PointsSwiss {
        PointsSwiss {
            games,
            met: HashSet::new(),
            firsts: vec![0; players],
            had_bye: vec![false; players],
        }
    }
}

impl SwissPairing for PointsSwiss {
    fn pair(&mut self, _round: u32, standings: &Standings) -> Round {
        let n = self.firsts.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            standings
                .points(b)
                .total_cmp(&standings.points(a))
                .then(a.cmp(&b))
        });
        let mut bye = None;
        if n % 2 == 1 {
            let p = order
                .iter()
                .rev()
                .copied()
                .find(|&p| !self.had_bye[p])
                .unwrap_or(order[n - 1]);
            self.had_bye[p] = true;
            order.retain(|&q| q != p);
            bye = Some(p);
        }
        let pairs = swiss_pairs(&order, &self.met)
            .unwrap_or_else(|| swiss_pairs(&order, &HashSet::new()).unwrap_or_default());
        let mut encounters = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            self.met.insert((a.min(b), a.max(b)));
            // The one who had the first seat less often gets it first.
            let (first, second) = if self.firsts[b] < self.firsts[a] {
                (b, a)
            } else {
                (a, b)
            };
            self.firsts[first] += self.games.div_ceil(2);
            self.firsts[second] += self.games / 2;
            encounters.push((first, second));
        }
        Round { encounters, bye }
    }
}

/// All pairs of `n` players in the order of the circle method, so that consecutive
/// encounters mostly involve different players.
#[must_use]
pub fn round_robin_pairs(n: usize) -> Vec<(usize, usize)> {
    let m = if n.is_multiple_of(2) { n } else { n + 1 };
    let mut ring: Vec<usize> = (0..m).collect();
    let mut out = Vec::new();
    for _ in 0..m.saturating_sub(1) {
        for i in 0..m / 2 {
            let (a, b) = (ring[i], ring[m - 1 - i]);
            if a < n && b < n {
                out.push((a.min(b), a.max(b)));
            }
        }
        // Keep the first fixed and rotate the rest.
        let last = ring.pop().unwrap_or(0);
        ring.insert(1, last);
    }
    out
}

/// Pairs `order` (best first) top-down, each with the best-placed player it has not met;
/// `None` if no such pairing exists (or the search is too long).
#[must_use]
pub fn swiss_pairs(order: &[usize], met: &HashSet<(usize, usize)>) -> Option<Vec<(usize, usize)>> {
    fn search(
        left: &mut Vec<usize>,
        met: &HashSet<(usize, usize)>,
        out: &mut Vec<(usize, usize)>,
        budget: &mut u32,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let a = left.remove(0);
        for i in 0..left.len() {
            let b = left[i];
            if met.contains(&(a.min(b), a.max(b))) {
                continue;
            }
            left.remove(i);
            out.push((a, b));
            if search(left, met, out, budget) {
                return true;
            }
            out.pop();
            left.insert(i, b);
        }
        left.insert(0, a);
        false
    }
    let mut left = order.to_vec();
    let mut out = Vec::new();
    let mut budget = 100_000;
    search(&mut left, met, &mut out, &mut budget).then_some(out)
}

/// Shuffles in place with the workspace's seeded generator: the same seed gives the same order
/// on every platform.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = Rng::seeded(seed);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        b.sort_unstable();
        assert_eq!(b, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn round_robin_covers_every_pair_once() {
        for n in 2..9 {
            let pairs = round_robin_pairs(n);
            assert_eq!(pairs.len(), n * (n - 1) / 2, "n = {n}");
            let set: HashSet<_> = pairs.iter().copied().collect();
            assert_eq!(set.len(), pairs.len());
        }
        assert!(round_robin_pairs(0).is_empty() && round_robin_pairs(1).is_empty());
    }

    #[test]
    fn swiss_avoids_rematches_by_backtracking() {
        let met: HashSet<_> = [(0, 1), (2, 3)].into_iter().collect();
        assert_eq!(swiss_pairs(&[0, 1, 2, 3], &met), Some(vec![(0, 2), (1, 3)]));
        // 0 has met 1 and 2, so 0-3; then 1-2.
        let met: HashSet<_> = [(0, 1), (0, 2)].into_iter().collect();
        assert_eq!(swiss_pairs(&[0, 1, 2, 3], &met), Some(vec![(0, 3), (1, 2)]));
        // Everyone met everyone: no pairing.
        let met: HashSet<_> = round_robin_pairs(4).into_iter().collect();
        assert_eq!(swiss_pairs(&[0, 1, 2, 3], &met), None);
    }

    #[test]
    fn points_swiss_ranks_by_points_rotates_byes_and_balances_first_seats() {
        let mut rule = PointsSwiss::new(5, 2);
        let mut standings = Standings::new(5);
        // Round 1: all equal, so command-line order: 4 sits out, 0-1 and 2-3.
        let r1 = rule.pair(1, &standings);
        assert_eq!(r1.bye, Some(4));
        assert_eq!(r1.encounters, [(0, 1), (2, 3)]);
        // 3 and 1 win their encounters: ranked 1, 3, then 0, 2, 4.
        standings.players[1].wins = 2;
        standings.players[3].wins = 2;
        let r2 = rule.pair(2, &standings);
        // The lowest-ranked without a bye sits out: 2 (4 had one).
        assert_eq!(r2.bye, Some(2));
        // 1 and 3 have not met: 1-3; then 0-4. Each of round 1's players had the first seat
        // once in its two games, so 1 (ranked higher) keeps it; 4 sat out and gets it.
        assert_eq!(r2.encounters, [(1, 3), (4, 0)]);
        // One-game encounters, no results: the pairs change every round, and whoever had the
        // first seat less often gets it.
        let mut single = PointsSwiss::new(4, 1);
        let level = Standings::new(4);
        assert_eq!(single.pair(1, &level).encounters, [(0, 1), (2, 3)]);
        assert_eq!(single.pair(2, &level).encounters, [(0, 2), (1, 3)]);
        assert_eq!(single.pair(3, &level).encounters, [(3, 0), (1, 2)]);
    }

    #[test]
    fn swiss_pairs_pair_top_down_and_avoid_rematches() {
        let met = HashSet::new();
        assert_eq!(swiss_pairs(&[3, 1, 0, 2], &met), Some(vec![(3, 1), (0, 2)]));
        let met: HashSet<_> = [(1, 3), (0, 2)].into_iter().collect();
        assert_eq!(swiss_pairs(&[3, 1, 0, 2], &met), Some(vec![(3, 0), (1, 2)]));
    }
}
