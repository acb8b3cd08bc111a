//! The workspace's one random generator: ChaCha8 from `rand_chacha`, seeded from a number, so
//! that a seed gives the same sequence on every platform and every version of the crate (which
//! `rand`'s `SmallRng` does not promise). Tests, book choices, opening selection and position
//! sampling all draw from it; the Zobrist constants stay a `const fn` (they must be computed at
//! compile time), and the search's evaluation noise is a hash of the position, not a sequence.

use rand::{Rng as _, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded random generator.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The generator for `seed`: the same seed gives the same numbers everywhere.
    #[must_use]
    pub fn seeded(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A generator seeded from the clock and the process id, for variety (book moves, openings)
    /// rather than secrecy.
    #[must_use]
    pub fn from_clock() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng::seeded(nanos ^ (u64::from(std::process::id()) << 32))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n`, uniformly (`n > 0`).
    ///
    /// # Panics
    ///
    /// When `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// A number in `[0, 1)`, uniformly.
    pub fn unit(&mut self) -> f64 {
        self.0.random()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_sequence() {
        let a: Vec<u64> = {
            let mut r = Rng::seeded(42);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let mut r = Rng::seeded(42);
        assert_eq!(a, (0..4).map(|_| r.next_u64()).collect::<Vec<_>>());
        let mut other = Rng::seeded(43);
        assert_ne!(a[0], other.next_u64());
    }

    #[test]
    fn draws_stay_in_range() {
        let mut r = Rng::seeded(7);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            seen[r.below(5)] = true;
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert!(
            seen.iter().all(|&s| s),
            "every value of 0..5 drawn in 1000 tries"
        );
    }
}
