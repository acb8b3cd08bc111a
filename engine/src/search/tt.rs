//! The transposition table: a lockless hash table shared by all search threads.
//!
//! Design: the table is an array of 64-byte buckets (one cache line), each holding four entries of
//! two 64-bit words. The second word packs the data (move, score, static evaluation, depth, bound,
//! generation); the first holds `key ^ data`. Threads read and write the two words with relaxed
//! atomic operations and no lock, so a reader may see a word from one writer and a word from
//! another; such a torn entry fails the `key ^ data` check and is treated as a miss (the
//! "lockless hashing" of Hyatt and Mann). A false hit therefore needs a full 64-bit key collision.
//!
//! Replacement: an entry for the same key is updated in place; otherwise the entry whose depth,
//! less eight plies per search generation of age, is lowest is replaced, so that old deep results
//! eventually give way to fresh ones.
//!
//! Memory: nearly every probe of a large table misses the processor caches, and with 4 KiB pages
//! the address translation misses too. The table therefore lives in an anonymous memory mapping
//! that Linux is asked to back with 2 MiB pages (transparent huge pages), and the search
//! [prefetches](Tt::prefetch) a child's bucket as soon as it decides to make the move, so that
//! the load overlaps with the work done before the child probes.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::score::Bound;
use chariot_rules::Move;

/// Depths are stored with this offset so that quiescence entries (depth below zero) fit a byte.
const DEPTH_OFFSET: i32 = 8;
const ENTRIES: usize = 4;
/// Generations wrap around in six bits.
const GENERATION_MASK: u8 = 63;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES],
}

/// The stored static evaluation of a position whose node only had a bound of it (a lazy
/// evaluation, see `docs/search.md`): a reader evaluates it afresh.
pub(crate) const EVAL_NONE: i32 = i16::MIN as i32;

/// One stored result, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TtEntry {
    /// The best (or refuting) move, [`Move::NONE`] if unknown.
    pub mv: Move,
    /// The score, node-relative (see [`super::score::from_tt`]).
    pub score: i32,
    /// The static evaluation of the position, or [`EVAL_NONE`].
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
}

impl TtEntry {
    fn pack(self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Upper => 1u64,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let depth = (self.depth + DEPTH_OFFSET).clamp(0, 255) as u64;
        u64::from(self.mv.to_u16())
            | u64::from(self.score as i16 as u16) << 16
            | u64::from(self.eval as i16 as u16) << 32
            | depth << 48
            | bound << 56
            | u64::from(generation & GENERATION_MASK) << 58
    }

    fn unpack(data: u64) -> Option<TtEntry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(TtEntry {
            mv: Move::from_u16(data as u16).unwrap_or(Move::NONE),
            score: i32::from((data >> 16) as u16 as i16),
            eval: i32::from((data >> 32) as u16 as i16),
            depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
            bound,
        })
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & GENERATION_MASK
}

/// Where the buckets live.
enum Memory {
    /// An anonymous mapping, zero-filled by the system, advised to use huge pages. Held as a
    /// raw mapping, which is only ever reached through a pointer (never through a `&[u8]` that
    /// other threads' atomic writes would alias).
    Mapped(memmap2::MmapRaw),
    /// The fallback when mapping fails.
    Heap(Vec<Bucket>),
}

impl Memory {
    /// Memory for `n` empty buckets.
    fn new(n: usize) -> Memory {
        match memmap2::MmapMut::map_anon(n * size_of::<Bucket>()) {
            Ok(map) => {
                let map = memmap2::MmapRaw::from(map);
                // Only a hint: without huge pages the table works the same, a little slower.
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                Memory::Mapped(map)
            }
            Err(_) => {
                let mut buckets = Vec::with_capacity(n);
                buckets.resize_with(n, Bucket::default);
                Memory::Heap(buckets)
            }
        }
    }

    #[inline]
    fn buckets(&self) -> &[Bucket] {
        match self {
            Memory::Mapped(map) => {
                // SAFETY: the mapping is page-aligned (buckets need 64 bytes), holds exactly
                // `len / size_of::<Bucket>()` buckets, and lives as long as `self`. It starts
                // zero-filled, and all zeros is a valid `Bucket` (atomic integers of 0). It is
                // only ever accessed through this shared slice, i.e. through atomic operations.
                unsafe {
                    std::slice::from_raw_parts(
                        map.as_ptr().cast::<Bucket>(),
                        map.len() / size_of::<Bucket>(),
                    )
                }
            }
            Memory::Heap(buckets) => buckets,
        }
    }
}

/// The shared transposition table.
pub(crate) struct Tt {
    /// Owns the buckets; reached through `base` and `len`, which spare matching on the kind of
    /// memory at every access.
    #[allow(dead_code)]
    memory: Memory,
    base: *const Bucket,
    len: usize,
    generation: AtomicU8,
}

// SAFETY: `base` and `len` describe the buckets that `memory` owns, which live as long as the
// table and are only reached through atomic operations; `Memory` itself is `Send` and `Sync`.
unsafe impl Send for Tt {}
// SAFETY: as for `Send`.
unsafe impl Sync for Tt {}

impl Tt {
    /// A table of about `mb` MiB (at least one).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / size_of::<Bucket>()).max(1);
        let memory = Memory::new(n);
        let buckets = memory.buckets();
        let (base, len) = (buckets.as_ptr(), buckets.len());
        Tt {
            memory,
            base,
            len,
            generation: AtomicU8::new(0),
        }
    }

    #[inline]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: `base` and `len` are those of `memory`'s buckets, which live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.base, self.len) }
    }

    /// Empties the table. Takes `&self`: the table is shared with [`super::HashView`]s, and
    /// no search runs while it is cleared.
    pub fn clear(&self) {
        for bucket in self.buckets() {
            for e in &bucket.entries {
                e.check.store(0, Relaxed);
                e.data.store(0, Relaxed);
            }
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: entries written from now on are younger than all before.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & GENERATION_MASK, Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto any table size, not only powers of two, and
        // the index is always below the size.
        let i = ((u128::from(key) * self.len as u128) >> 64) as usize;
        debug_assert!(i < self.len);
        // SAFETY: `i < len` (above), and the buckets live as long as `self`.
        unsafe { &*self.base.add(i) }
    }

    /// Starts loading the bucket of `key` into the cache (a hint; it has no other effect).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = std::ptr::from_ref(self.bucket(key)).cast::<i8>();
            // SAFETY: a prefetch never faults and does not access memory architecturally; the
            // address is that of a live bucket anyway.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for e in &self.bucket(key).entries {
            let data = e.data.load(Relaxed);
            if data != 0 && e.check.load(Relaxed) ^ data == key {
                return TtEntry::unpack(data);
            }
        }
        None
    }

    /// Stores a result for `key`. A missing move keeps the move already stored for the key.
    #[inline]
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.entries {
            let data = e.data.load(Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = e;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if e.check.load(Relaxed) ^ data == key {
                let Some(old) = TtEntry::unpack(data) else {
                    break;
                };
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                // Keep a deeper result for the same position unless the new one is exact.
                if entry.bound != Bound::Exact
                    && entry.depth + 3 < old.depth
                    && generation_of(data) == self.generation()
                {
                    return;
                }
                victim = e;
                break;
            }
            let age =
                i32::from(self.generation().wrapping_sub(generation_of(data)) & GENERATION_MASK);
            let old_depth = ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET;
            let worth = old_depth - 8 * age;
            if worth < victim_worth {
                victim = e;
                victim_worth = worth;
            }
        }
        let data = entry.pack(self.generation());
        victim.check.store(key ^ data, Relaxed);
        victim.data.store(data, Relaxed);
    }

    /// The share of entries written in the current search, in permille (sampled).
    pub fn hashfull(&self) -> u32 {
        let buckets = self.buckets();
        let sample = buckets.len().min(250);
        let mut used = 0;
        for bucket in &buckets[..sample] {
            for e in &bucket.entries {
                let data = e.data.load(Relaxed);
                if data != 0 && generation_of(data) == self.generation() {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(1);
        let mv = Move::new(Square::new(7, 2), Square::new(4, 2));
        let entry = TtEntry {
            mv,
            score: -1234,
            eval: 56,
            depth: -1,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_1234_5678, entry);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(entry));
        assert_eq!(tt.probe(0x1234), None);
        // A later store without a move keeps the stored move.
        tt.store(
            0xdead_beef_1234_5678,
            TtEntry {
                mv: Move::NONE,
                depth: 5,
                bound: Bound::Exact,
                ..entry
            },
        );
        let got = tt.probe(0xdead_beef_1234_5678).unwrap();
        assert_eq!((got.mv, got.depth, got.bound), (mv, 5, Bound::Exact));
    }

    #[test]
    fn hashfull_counts_current_generation() {
        let tt = Tt::new(1);
        assert_eq!(tt.hashfull(), 0);
        let e = TtEntry {
            mv: Move::NONE,
            score: 0,
            eval: 0,
            depth: 1,
            bound: Bound::Exact,
        };
        for k in 0..100_000u64 {
            tt.store(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), e);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.probe(0x9e37_79b9_7f4a_7c15), None);
    }
}
