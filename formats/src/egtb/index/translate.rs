//! Key scheme 4's entries found in key scheme 3, a run at a time. Tables are generated in key
//! scheme 3 and some are written in key scheme 4 (`egtb-gen`'s layout choice), so the writer
//! needs, for every entry of the file's order, the generated entry that holds its value. Key
//! scheme 4's pair digit (both generals and defences) is its least significant, so consecutive
//! entries share their chariots, horses, cannons and soldiers: what the generals and defenders
//! decide of the key scheme 3 index is worked out once per pair digit for the table, what the
//! pieces decide once per run of pair digits, and an entry costs a lookup and an addition
//! instead of a full decode and encode.

use super::scheme3::Defences;
use super::{Indexer, Layout, MAX_PIECES};

/// A pair digit's squares and what it decides of key scheme 3's index.
#[derive(Clone, Copy)]
struct Pair {
    occupied: u128,
    /// `None` when the generals and defenders share a square or have no key scheme 3 index.
    defences: Option<Defences>,
}

/// Key scheme 4's entries as key scheme 3's, for one table.
pub struct SchemeMap<'a> {
    /// Key scheme 4 (the file's order).
    to: &'a Indexer,
    /// Key scheme 3 (the generated order).
    from: &'a Indexer,
    pairs: Vec<Pair>,
}

/// The pieces of the run of entries a [`SchemeMap`] looked at last (one per thread).
#[derive(Default)]
pub struct Run {
    high: Option<u64>,
    occupied: u128,
    overlap: bool,
    /// The key scheme 3 piece digit, as it is and mirrored.
    digits: [Option<u64>; 2],
}

impl<'a> SchemeMap<'a> {
    /// The map from `to`'s entries (key scheme 4) to `from`'s (key scheme 3) of the same table;
    /// `None` for other key schemes or tables.
    #[must_use]
    pub fn new(to: &'a Indexer, from: &'a Indexer) -> Option<SchemeMap<'a>> {
        let (Layout::PairDigit(pd, _), Layout::KingMajor(km)) = (&to.layout, &from.layout) else {
            return None;
        };
        if to.signature != from.signature || to.size != from.size {
            return None;
        }
        let placed = 2 + to
            .groups
            .iter()
            .filter(|g| g.is_defender())
            .map(|g| g.count)
            .sum::<usize>();
        let pairs = (0..pd.pairs_lowest()?)
            .map(|pair| {
                let mut s = [0u8; MAX_PIECES];
                let occupied = pd.place_pair(&to.groups, pair, &mut s);
                let apart = occupied.count_ones() as usize == placed;
                Pair {
                    occupied,
                    defences: apart.then(|| km.defences(&from.groups, &s)).flatten(),
                }
            })
            .collect();
        Some(SchemeMap { to, from, pairs })
    }

    /// The key scheme 3 index of key scheme 4 index `idx` (below the size), or `None` when two
    /// pieces share a square or key scheme 3 has no index for the placement (as
    /// [`Indexer::encode`] of [`Indexer::decode`]). `run` keeps the pieces between calls.
    #[inline]
    pub fn source(&self, idx: u64, run: &mut Run) -> Option<u64> {
        let (Layout::PairDigit(pd, _), Layout::KingMajor(km)) =
            (&self.to.layout, &self.from.layout)
        else {
            return None;
        };
        let n = self.pairs.len() as u64;
        let high = idx / n;
        if run.high != Some(high) {
            let mut s = [0u8; MAX_PIECES];
            let (occupied, overlap) = pd.pieces(&self.to.groups, idx, &mut s);
            *run = Run {
                high: Some(high),
                occupied,
                overlap,
                digits: [
                    km.piece_digit(&self.from.groups, &s, false),
                    km.piece_digit(&self.from.groups, &s, true),
                ],
            };
        }
        let pair = &self.pairs[(idx % n) as usize];
        let d = pair.defences?;
        if run.overlap || run.occupied & pair.occupied != 0 {
            return None;
        }
        Some(d.index(run.digits[usize::from(d.mirror)]?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::Signature;
    use crate::egtb::index::{ALT_KEY_SCHEME, KEY_SCHEME};

    /// The map gives what a full decode and encode give, on every entry of small tables and a
    /// sample of larger ones (soldiers, horses, chariots, two of a kind, defences on both sides).
    #[test]
    fn the_map_is_a_decode_and_an_encode() {
        for name in [
            "KNPKAABB",
            "KRKAB",
            "KPPKA",
            "KCABKR",
            "KNNKAB",
            "KRAABBKAABB",
        ] {
            let sig: Signature = name.parse().unwrap();
            let from = Indexer::with_scheme(sig, KEY_SCHEME).unwrap();
            let to = Indexer::with_scheme(sig, ALT_KEY_SCHEME).unwrap();
            let map = SchemeMap::new(&to, &from).expect("key schemes 4 and 3");
            let step = (to.size() / 200_000).max(1);
            let mut run = Run::default();
            let mut some = 0;
            for idx in (0..to.size()).step_by(step as usize) {
                let p = to.decode(idx);
                let want = if p.has_overlap() {
                    None
                } else {
                    from.encode(&p)
                };
                assert_eq!(map.source(idx, &mut run), want, "{name} {idx}");
                some += usize::from(want.is_some());
            }
            assert!(some > 0, "{name}");
        }
    }
}
