//! Which chunks of a table hold positions of a coming level, so that a level's pass visits
//! only those.
//!
//! The retrograde passes ([`crate::dtm`], [`crate::dtc`]) decide positions level by level,
//! and a level's pass looks for the positions decided at that level. Scanning every entry at
//! every level costs little in a table with a few dozen levels, but a long one (`KNPKAABB`:
//! 130 levels of distance to mate, most of them holding few positions) spent half of its
//! retrograde time scanning. So each chunk of entries keeps the lowest level at which one of its
//! positions is due; a level's pass skips the chunks not due, and a chunk it visits gets the
//! lowest level still due among its positions, found by the same scan.

use std::ops::Range;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

/// No level due.
const NONE: u16 = u16::MAX;

/// Entries per chunk in the retrograde passes' [`Due`]. Smaller chunks skip more of a level's
/// entries but cost a look per chunk at every level: on `KNPKAABB` (both metrics, one thread)
/// chunks of 16,384 entries scanned 33 times the table at its DTM levels and 7 times at its DTC
/// levels, chunks of 256 scan 4.4 and 1.3 times it, for 7% less CPU for the table (one thread,
/// sub-tables present); chunks of 64 cost more than they save.
pub const CHUNK: u64 = 1 << 8;

/// Chunks a thread takes at a time in a level's pass ([`Due::sweep_group`]): the threads share
/// out groups of 16,384 entries and report progress once per group, as coarsely as before the
/// chunks were made small. With a progress bar's shared counter (and clock) touched on every
/// small chunk, two threads gained nothing from them; with groups, and [`Due::schedule`]
/// reading the highest level before writing it, `KNPKAABB` with its sub-tables takes 82-84 s
/// of CPU on two threads against 91-106 s (`docs/log/performance.md`, "Level passes").
pub const GROUP: u64 = 64;

/// The lowest level due per chunk of entries.
pub struct Due {
    next: Vec<AtomicU16>,
    chunk: u64,
    entries: u64,
    /// The highest level scheduled so far.
    highest: AtomicU32,
}

impl Due {
    /// No level due in any chunk of `chunk` entries of a table of `entries` entries.
    #[must_use]
    pub fn new(entries: u64, chunk: u64) -> Due {
        let chunks = entries.div_ceil(chunk) as usize;
        Due {
            next: std::iter::repeat_with(|| AtomicU16::new(NONE))
                .take(chunks)
                .collect(),
            chunk,
            entries,
            highest: AtomicU32::new(0),
        }
    }

    /// The number of chunks.
    #[must_use]
    pub fn chunks(&self) -> u64 {
        self.next.len() as u64
    }

    /// The entries of chunk `c`.
    #[must_use]
    pub fn range(&self, c: u64) -> Range<u64> {
        c * self.chunk..((c + 1) * self.chunk).min(self.entries)
    }

    /// The number of groups of [`GROUP`] chunks.
    #[must_use]
    pub fn groups(&self) -> u64 {
        self.chunks().div_ceil(GROUP)
    }

    /// The highest level any entry has been scheduled at (0 when none has).
    #[must_use]
    pub fn highest(&self) -> u32 {
        self.highest.load(Ordering::Acquire)
    }

    /// A level's pass over the chunks of group `g` ([`Due::sweep`] on each), returning the
    /// number of entries the group covers (for a progress bar). The first error ends it.
    pub fn sweep_group<E>(
        &self,
        g: u64,
        level: u32,
        mut visit: impl FnMut(u64) -> Result<Option<u32>, E>,
    ) -> Result<u64, E> {
        let chunks = g * GROUP..((g + 1) * GROUP).min(self.chunks());
        for c in chunks.clone() {
            self.sweep(c, level, &mut visit)?;
        }
        let end = self.range(chunks.end - 1).end;
        Ok(end - self.range(chunks.start).start)
    }

    /// A level's pass over chunk `c`: when the chunk is due at `level`, `visit` is called on
    /// each of its entries, deciding what is decided at `level` and returning the level the
    /// entry is due at next, if any; the chunk then keeps the lowest of those. The first error
    /// ends the pass.
    pub fn sweep<E>(
        &self,
        c: u64,
        level: u32,
        mut visit: impl FnMut(u64) -> Result<Option<u32>, E>,
    ) -> Result<(), E> {
        if !self.take(c, level) {
            return Ok(());
        }
        let mut low: Option<u32> = None;
        for e in self.range(c) {
            if let Some(d) = visit(e)? {
                low = Some(low.map_or(d, |l| l.min(d)));
            }
        }
        self.mark(c, low);
        Ok(())
    }

    /// Entry `e` is due at `level` (call it after the entry's state is stored).
    #[inline]
    pub fn schedule(&self, e: u64, level: u32) {
        // Read before writing: the highest level rarely changes, and a write from every thread
        // on every call would pass its cache line from core to core. A stale read is never
        // higher than the true value (it only grows), so no raise is lost.
        if level > self.highest.load(Ordering::Relaxed) {
            self.highest.fetch_max(level, Ordering::Release);
        }
        self.mark(e / self.chunk, Some(level));
    }

    /// Chunk `c` holds a position due at `level` (or none, for `None`).
    #[inline]
    pub fn mark(&self, c: u64, level: Option<u32>) {
        if let Some(level) = level {
            let l = u16::try_from(level).unwrap_or(NONE - 1);
            self.next[c as usize].fetch_min(l, Ordering::Release);
        }
    }

    /// `true` when chunk `c` must be visited at `level`; its mark is then cleared, and the
    /// caller gives it the lowest level still due among its positions (with [`Due::mark`])
    /// after visiting it. Positions other threads make due meanwhile mark it again.
    #[inline]
    pub fn take(&self, c: u64, level: u32) -> bool {
        let slot = &self.next[c as usize];
        if u32::from(slot.load(Ordering::Relaxed)) > level {
            return false;
        }
        slot.swap(NONE, Ordering::AcqRel);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_due_at_their_lowest_level_and_cleared_when_taken() {
        let due = Due::new(100, 10);
        due.schedule(15, 7);
        due.schedule(12, 3);
        due.schedule(99, 4);
        assert!(!due.take(0, 10), "nothing in chunk 0");
        assert!(!due.take(1, 2), "chunk 1 is due at 3");
        assert!(due.take(1, 3));
        assert!(!due.take(1, 7), "taken: its caller marks it again");
        due.mark(1, Some(7));
        assert!(due.take(1, 7));
        assert!(due.take(9, 4));
        due.mark(9, None);
        assert!(!due.take(9, 100));
        assert_eq!(due.highest(), 7, "the highest level scheduled");
    }

    #[test]
    fn a_group_sweeps_its_chunks_and_counts_their_entries() {
        // 2.5 groups of chunks of 2 entries.
        let due = Due::new(2 * GROUP * 2 + GROUP, 2);
        assert_eq!(due.groups(), 3);
        due.schedule(1, 0);
        due.schedule(2 * GROUP + 3, 0);
        due.schedule(4 * GROUP + 1, 0);
        let mut seen = Vec::new();
        let mut covered = 0;
        for g in 0..due.groups() {
            covered += due
                .sweep_group(g, 0, |e| {
                    seen.push(e);
                    Ok::<_, ()>(None)
                })
                .unwrap();
        }
        assert_eq!(covered, 5 * GROUP, "every entry once");
        let want = [0, 1, 2 * GROUP + 2, 2 * GROUP + 3, 4 * GROUP, 4 * GROUP + 1];
        assert_eq!(seen, want, "the due chunks of each group");
    }

    #[test]
    fn a_sweep_visits_due_chunks_only_and_keeps_their_lowest_next_level() {
        let due = Due::new(25, 10);
        assert_eq!((due.chunks(), due.range(2)), (3, 20..25));
        due.schedule(21, 0);
        let mut seen = Vec::new();
        for c in 0..due.chunks() {
            due.sweep(c, 0, |e| {
                seen.push(e);
                Ok::<_, ()>((e == 23).then_some(5).or((e == 24).then_some(2)))
            })
            .unwrap();
        }
        assert_eq!(seen, (20..25).collect::<Vec<_>>(), "only chunk 2 was due");
        assert!(!due.take(2, 1));
        assert!(due.take(2, 2), "the lowest level its entries named");
        due.schedule(3, 1);
        assert_eq!(
            due.sweep(0, 1, |e| if e == 4 { Err(e) } else { Ok(None) }),
            Err(4)
        );
    }
}
