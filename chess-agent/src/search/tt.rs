//! The transposition table: one entry per bucket, replaced when the new result is deeper or the
//! old one is from an earlier search.
//!
//! Entries hold the full 64-bit key, so a hit is a real hit barring a 2^-64 collision; the move
//! is Polyglot-packed and re-checked against the legal moves before use, so a collision can
//! never make the agent play an illegal move.

/// How a stored score bounds the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    /// No entry.
    #[default]
    None,
    /// The true score is at most the stored score (fail low).
    Upper,
    /// The true score is at least the stored score (fail high).
    Lower,
    /// The stored score is exact.
    Exact,
}

/// One stored search result.
#[derive(Debug, Clone, Copy, Default)]
pub struct Entry {
    /// The position's key.
    pub key: u64,
    /// The best or refuting move, packed; 0 when none.
    pub packed: u16,
    /// The score, mate scores relative to the node.
    pub score: i16,
    /// The static evaluation.
    pub eval: i16,
    /// The remaining depth searched.
    pub depth: i8,
    /// The bound type.
    pub bound: Bound,
    /// The search generation that wrote it.
    pub generation: u8,
}

/// The table.
#[derive(Debug)]
pub struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` MiB (at least one entry).
    #[must_use]
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes * 1024 * 1024 / size_of::<Entry>()).max(1);
        Table {
            entries: vec![Entry::default(); count],
            generation: 0,
        }
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.index(key)];
        (e.bound != Bound::None && e.key == key).then_some(e)
    }

    /// Stores a result.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        packed: u16,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation;
        let i = self.index(key);
        let old = &mut self.entries[i];
        let replace = old.key != key
            || old.generation != generation
            || depth >= i32::from(old.depth) - 1
            || bound == Bound::Exact;
        if !replace {
            return;
        }
        let packed = if packed == 0 && old.key == key {
            old.packed
        } else {
            packed
        };
        *old = Entry {
            key,
            packed,
            score: score.clamp(-32_000, 32_000) as i16,
            eval: eval.clamp(-32_000, 32_000) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            generation,
        };
    }

    /// Permille of entries written by the current search (UCI `hashfull`), from a sample.
    #[must_use]
    pub fn hashfull(&self) -> usize {
        let sample = self.entries.len().min(1000);
        self.entries[..sample]
            .iter()
            .filter(|e| e.bound != Bound::None && e.generation == self.generation)
            .count()
            * 1000
            / sample.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t = Table::new(1);
        assert!(t.probe(42).is_none());
        t.store(42, 7, 100, 5, 3, Bound::Exact);
        let e = t.probe(42).unwrap();
        assert_eq!(
            (e.packed, e.score, e.depth, e.bound),
            (7, 100, 3, Bound::Exact)
        );
        // A shallower result of the same search keeps the deeper move when it has none.
        t.store(42, 0, 50, 5, 3, Bound::Lower);
        assert_eq!(t.probe(42).unwrap().packed, 7);
    }
}
