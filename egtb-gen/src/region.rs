//! The region of a table's perpetual check/chase game numbered densely: the game's working
//! arrays and its solution hold one entry per position of the region, not per entry of the
//! table (the region is the positions the retrograde passes left undecided, about half of a
//! table's entries in the tables measured, `docs/log/performance.md`).
//!
//! A bit per node says whether it is in the region, and a count per 64 nodes of the region's
//! nodes before them turns a node into its dense number with one population count: 2 bits per
//! node of the table in all.

use rayon::prelude::*;

/// The region's nodes, numbered `0..len()` in node order.
pub struct Region {
    /// Bit `v % 64` of word `v / 64`: node `v` is in the region.
    bits: Vec<u64>,
    /// Per word, the region's nodes in the words before it.
    before: Vec<u64>,
    len: usize,
}

impl Region {
    /// The nodes `v` of `0..n` with `in_region(v)`.
    #[must_use]
    pub fn new(n: u64, in_region: impl Fn(u64) -> bool + Sync) -> Region {
        let bits: Vec<u64> = (0..n.div_ceil(64))
            .into_par_iter()
            .map(|w| {
                let mut word = 0u64;
                for v in w * 64..((w + 1) * 64).min(n) {
                    if in_region(v) {
                        word |= 1 << (v % 64);
                    }
                }
                word
            })
            .collect();
        Region::from_words(bits)
    }

    /// The region whose membership bits are `bits` (bit `v % 64` of word `v / 64` for node `v`).
    #[must_use]
    pub fn from_words(bits: Vec<u64>) -> Region {
        let mut before = Vec::with_capacity(bits.len());
        let mut sum = 0u64;
        for &w in &bits {
            before.push(sum);
            sum += u64::from(w.count_ones());
        }
        Region {
            bits,
            before,
            len: usize::try_from(sum).unwrap_or(usize::MAX),
        }
    }

    /// The number of nodes in the region.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` when the region has no node.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `true` when node `v` is in the region.
    #[inline]
    #[must_use]
    pub fn contains(&self, v: u64) -> bool {
        self.bits
            .get((v / 64) as usize)
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }

    /// The dense number of node `v`, which must be in the region.
    #[inline]
    #[must_use]
    pub fn at(&self, v: u64) -> usize {
        debug_assert!(self.contains(v), "node {v} is not in the region");
        let w = (v / 64) as usize;
        let below = self.bits[w] & ((1u64 << (v % 64)) - 1);
        (self.before[w] + u64::from(below.count_ones())) as usize
    }

    /// The dense number of node `v`, or `None` when it is not in the region.
    #[inline]
    #[must_use]
    pub fn get(&self, v: u64) -> Option<usize> {
        self.contains(v).then(|| self.at(v))
    }

    /// The region's nodes in order, in parallel chunks of about `chunk` table nodes: calls `f`
    /// with each node and its dense number; collects what it returns.
    pub fn scan<T: Send>(&self, chunk: u64, f: impl Fn(u64, usize) -> Option<T> + Sync) -> Vec<T> {
        let words = chunk.div_ceil(64).max(1) as usize;
        self.bits
            .par_chunks(words)
            .enumerate()
            .flat_map_iter(|(c, ws)| {
                let f = &f;
                let mut out = Vec::new();
                for (i, &word) in ws.iter().enumerate() {
                    let w = c * words + i;
                    let mut bits = word;
                    let mut r = self.before[w] as usize;
                    while bits != 0 {
                        let v = w as u64 * 64 + u64::from(bits.trailing_zeros());
                        if let Some(x) = f(v, r) {
                            out.push(x);
                        }
                        r += 1;
                        bits &= bits - 1;
                    }
                }
                out
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_numbered_densely_in_order() {
        // Every third node and a run of 70 in the middle, of 300.
        let in_region = |v: u64| v.is_multiple_of(3) || (100..170).contains(&v);
        let region = Region::new(300, in_region);
        let members: Vec<u64> = (0..300).filter(|&v| in_region(v)).collect();
        assert_eq!(region.len(), members.len());
        for v in 0..310 {
            assert_eq!(region.contains(v), in_region(v) && v < 300, "{v}");
            assert_eq!(region.get(v), members.iter().position(|&m| m == v), "{v}");
        }
        for chunk in [1, 64, 100, 1 << 12] {
            let scanned = region.scan(chunk, |v, r| Some((v, r)));
            let want: Vec<(u64, usize)> =
                members.iter().enumerate().map(|(r, &v)| (v, r)).collect();
            assert_eq!(scanned, want, "chunk {chunk}");
        }
        assert!(Region::new(10, |_| false).is_empty());
    }
}
