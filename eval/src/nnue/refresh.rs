//! The king-bucketed network's refresh cache ("Finny tables", after the Stockfish developer who
//! proposed them): for each perspective and each of the general's buckets, the first-layer sums
//! of the pieces that stood on the board when that bucket was last left, and which features
//! those were. When a general moves to another bucket, its side's sums are rebuilt from the
//! cached ones by adding and taking off only the rows of the pieces that differ (usually a
//! handful) instead of all of them from the biases.
//!
//! A search thread keeps one cache for as long as it lives; the cache belongs to one network at
//! a time and starts afresh (every entry the biases of an empty board) when another one
//! evaluates.

use chariot_rules::{Color, Piece, Position, Square};

use super::board::placed;
use super::king::KingNet;
use super::king_features::{BUCKETS, Orientation, PER_BUCKET};

/// Words of one bucket's feature set.
const WORDS: usize = PER_BUCKET.div_ceil(64);

/// The sums of one perspective in one bucket, and the features they hold.
#[derive(Clone, Debug)]
struct Entry {
    sums: Vec<i16>,
    features: [u64; WORDS],
}

/// The cache of one search thread (or any caller that refreshes a king-bucketed network often).
#[derive(Clone, Debug, Default)]
pub struct RefreshCache {
    /// The network the entries belong to ([`KingNet::id`]); 0 before any.
    network: u64,
    /// Red's entries by bucket, then Black's.
    entries: Vec<Entry>,
}

impl RefreshCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> RefreshCache {
        RefreshCache::default()
    }

    /// Writes into `out` the first-layer sums of `perspective` for `pos`.
    pub fn refresh_position(
        &mut self,
        net: &KingNet,
        perspective: Color,
        pos: &Position,
        out: &mut [i16],
    ) {
        let o = Orientation::of(perspective, pos.king(perspective));
        self.refresh(net, perspective, o, placed(pos), out);
    }

    /// Writes into `out` the first-layer sums of `perspective` seen in `orientation` for the
    /// pieces `placed`, from the cached sums of that bucket, and keeps them as its new entry.
    pub fn refresh(
        &mut self,
        net: &KingNet,
        perspective: Color,
        orientation: Orientation,
        placed: impl Iterator<Item = (Piece, Square)>,
        out: &mut [i16],
    ) {
        if self.network != net.id() {
            let empty = Entry {
                sums: net.biases().to_vec(),
                features: [0; WORDS],
            };
            self.entries = vec![empty; 2 * BUCKETS];
            self.network = net.id();
        }
        let bucket = usize::from(orientation.bucket);
        let first = bucket * PER_BUCKET;
        let mut now = [0u64; WORDS];
        for (piece, sq) in placed {
            let f = orientation.index(perspective, piece, sq) - first;
            now[f / 64] |= 1 << (f % 64);
        }
        let entry = &mut self.entries[perspective.index() * BUCKETS + bucket];
        let kernel = net.kernel();
        for (w, (&was, &is)) in entry.features.iter().zip(&now).enumerate() {
            let mut added = is & !was;
            while added != 0 {
                let f = first + w * 64 + added.trailing_zeros() as usize;
                kernel.add_row(&mut entry.sums, net.row(f));
                added &= added - 1;
            }
            let mut removed = was & !is;
            while removed != 0 {
                let f = first + w * 64 + removed.trailing_zeros() as usize;
                kernel.sub_row(&mut entry.sums, net.row(f));
                removed &= removed - 1;
            }
        }
        entry.features = now;
        out.copy_from_slice(&entry.sums);
    }
}
