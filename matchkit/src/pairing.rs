//! Pairings: the Swiss system's pairs of a round, and the seeded shuffle of openings and
//! players (the workspace's one generator, `chariot_rules::random::Rng`, so that a seed gives
//! the same order on every platform).

use std::collections::HashSet;

use chariot_rules::random::Rng;

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
    fn swiss_pairs_pair_top_down_and_avoid_rematches() {
        let met = HashSet::new();
        assert_eq!(swiss_pairs(&[3, 1, 0, 2], &met), Some(vec![(3, 1), (0, 2)]));
        let met: HashSet<_> = [(1, 3), (0, 2)].into_iter().collect();
        assert_eq!(swiss_pairs(&[3, 1, 0, 2], &met), Some(vec![(3, 0), (1, 2)]));
    }
}
