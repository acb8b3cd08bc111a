//! The order a table file stores its entries in.
//!
//! A table is generated in key scheme 3 (the general pair most significant, the pieces next, the
//! defences least), and key scheme 4 holds exactly the same entries in another order (the
//! pieces most significant, then the soldiers, the pair of defences with their generals least).
//! Neither compresses better for every table: the rook tables of the first set are a third
//! smaller in key scheme 3, the horse-and-soldier tables half as large in key scheme 4. So the
//! writer compresses a sample of blocks both ways (every 8th block, all of them for small
//! tables) and stores the table in the order whose sample is smaller; the header says which,
//! and readers take any. A table's DTM and DTC files are decided together, on the DTM codes
//! (or the DTC codes when only they are written), and rearranged block by block as they are
//! compressed, both in one pass (no rearranged copy of a whole table is made).

use chariot_formats::egtb::Indexer;
use chariot_formats::egtb::file::{Block, FileError, HalfStats, compress_block, value_width};
use chariot_formats::egtb::index::{
    ALT_KEY_SCHEME, KEY_SCHEME as KEY_SCHEME_GENERATED, Run, SchemeMap,
};
use rayon::prelude::*;

use crate::dtm::Generated;

/// Every how many blocks one is compressed for the comparison.
const SAMPLE_EVERY: u64 = 8;

/// A table's file contents in a key scheme: its compressed blocks and its statistics (whose
/// longest-distance index is in that order).
pub struct Packed {
    /// The key scheme.
    pub key_scheme: u8,
    /// The compressed blocks, in order.
    pub blocks: Vec<Block>,
    /// The statistics.
    pub stats: [HalfStats; 2],
}

/// The entry (of both halves, in `from`'s order) whose value entry `i` of `to`'s order holds,
/// or `None` for an unused entry (pieces sharing a square, no legal position). With `map` (key
/// scheme 4 into key scheme 3) a lookup per entry, else a full decode and encode.
#[inline]
fn source(
    used: &Generated,
    from: &Indexer,
    to: &Indexer,
    map: Option<&SchemeMap>,
    run: &mut Run,
    i: u64,
) -> Option<u64> {
    let size = from.size();
    let local = match map {
        Some(map) => map.source(i % size, run)?,
        None => {
            let p = to.decode(i % size);
            if p.has_overlap() {
                return None;
            }
            from.encode(&p)?
        }
    };
    let e = (i / size) * size + local;
    used.is_used(e).then_some(e)
}

/// Fills `outs[t]` with the codes of `tables[t]` for the entries of `to`'s order from `start`
/// on, finding each entry's source once for all of them; an unused entry repeats the code
/// before it (0 at the start).
fn reorder(
    tables: &[&Generated],
    from: &Indexer,
    to: &Indexer,
    map: Option<&SchemeMap>,
    start: u64,
    outs: &mut [Vec<u16>],
) {
    let len = outs.first().map_or(0, Vec::len);
    let mut run = Run::default();
    for i in 0..len {
        let e = source(tables[0], from, to, map, &mut run, start + i as u64);
        for (t, g) in tables.iter().enumerate() {
            outs[t][i] = match e {
                Some(e) => g.codes[e as usize],
                None if i == 0 => 0,
                None => outs[t][i - 1],
            };
        }
    }
}

/// Chooses the key scheme to write `g` in, for blocks of `block_entries` compressed at `level`
/// (see the module notes): [`ALT_KEY_SCHEME`] when its sample is at least 2% smaller, else the
/// generated scheme. Errors of the comparison (an indexer that cannot be built, a block that
/// cannot be compressed) keep the generated order.
#[must_use]
pub fn choose(g: &Generated, level: i32, block_entries: u32) -> u8 {
    let (Ok(from), Ok(to)) = (
        Indexer::with_scheme(g.signature, KEY_SCHEME_GENERATED),
        Indexer::with_scheme(g.signature, ALT_KEY_SCHEME),
    ) else {
        return KEY_SCHEME_GENERATED;
    };
    if from.size() != to.size() || block_entries == 0 {
        return KEY_SCHEME_GENERATED;
    }
    let total = g.codes.len() as u64;
    let be = u64::from(block_entries);
    let blocks = total.div_ceil(be);
    let width = value_width(&g.codes);
    let step = if blocks < 4 * SAMPLE_EVERY {
        1
    } else {
        SAMPLE_EVERY
    };
    let sample: Vec<u64> = (0..blocks).step_by(step as usize).collect();
    let map = SchemeMap::new(&to, &from);
    let sizes: Option<Vec<(u64, u64)>> = sample
        .par_iter()
        .map(|&b| {
            let range = b * be..((b + 1) * be).min(total);
            let here = &g.codes[range.start as usize..range.end as usize];
            let mut there = vec![vec![0u16; here.len()]];
            reorder(&[g], &from, &to, map.as_ref(), range.start, &mut there);
            let there = &there[0];
            let a = compress_block(here, 0, block_entries, width, level).ok()?;
            let c = compress_block(there, 0, block_entries, width, level).ok()?;
            Some((a.stored_len() as u64, c.stored_len() as u64))
        })
        .collect();
    let Some(sizes) = sizes else {
        return KEY_SCHEME_GENERATED;
    };
    let (here, there) = sizes.iter().fold((0, 0), |(a, c), &(x, y)| (a + x, c + y));
    if there * 50 < here * 49 {
        ALT_KEY_SCHEME
    } else {
        KEY_SCHEME_GENERATED
    }
}

/// The files of tables generated together (a table's DTM and DTC codes, which share their
/// entries and legality) in key scheme `scheme`, compressed at `level` in blocks of
/// `block_entries`, in parallel. In another order than the generated one, each block's codes are
/// rearranged on the way (one pass of index arithmetic for all the tables, no rearranged copy
/// of a whole table).
///
/// # Errors
/// The index of the table whose block could not be compressed, and why.
pub fn pack(
    tables: &[&Generated],
    scheme: u8,
    block_entries: u32,
    level: i32,
) -> Result<Vec<Packed>, (usize, FileError)> {
    let Some(first) = tables.first() else {
        return Ok(Vec::new());
    };
    let indexers = (
        Indexer::with_scheme(first.signature, KEY_SCHEME_GENERATED),
        Indexer::with_scheme(first.signature, scheme),
    );
    let moved = match indexers {
        (Ok(from), Ok(to)) if scheme != KEY_SCHEME_GENERATED && from.size() == to.size() => {
            Some((from, to))
        }
        _ => None,
    };
    let map = moved
        .as_ref()
        .and_then(|(from, to)| SchemeMap::new(to, from));
    let widths: Vec<u8> = tables.iter().map(|g| value_width(&g.codes)).collect();
    let total = first.codes.len() as u64;
    let be = u64::from(block_entries.max(1));
    let blocks = total.div_ceil(be);
    // Per block, every table's compressed block.
    let parts: Vec<Vec<Block>> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let range = b * be..((b + 1) * be).min(total);
            let fail = |t: usize, e: FileError| match e {
                FileError::Compress { reason, .. } => (
                    t,
                    FileError::Compress {
                        block: b as u32,
                        reason,
                    },
                ),
                e => (t, e),
            };
            match &moved {
                None => (0..tables.len())
                    .map(|t| {
                        compress_block(&tables[t].codes, b as u32, block_entries, widths[t], level)
                            .map_err(|e| (t, e))
                    })
                    .collect(),
                Some((from, to)) => {
                    let len = (range.end - range.start) as usize;
                    let mut outs = vec![vec![0u16; len]; tables.len()];
                    reorder(tables, from, to, map.as_ref(), range.start, &mut outs);
                    outs.iter()
                        .enumerate()
                        .map(|(t, codes)| {
                            compress_block(codes, 0, block_entries, widths[t], level)
                                .map_err(|e| fail(t, e))
                        })
                        .collect()
                }
            }
        })
        .collect::<Result<_, _>>()?;
    let mut packed: Vec<Packed> = tables
        .iter()
        .map(|g| {
            let mut stats = g.stats;
            if let Some((from, to)) = &moved {
                for s in &mut stats {
                    if s.max_dtm > 0 {
                        let p = from.decode(s.max_dtm_index);
                        s.max_dtm_index = to.encode(&p).unwrap_or(0);
                    }
                }
            }
            Packed {
                key_scheme: if moved.is_some() {
                    scheme
                } else {
                    KEY_SCHEME_GENERATED
                },
                blocks: Vec::with_capacity(blocks as usize),
                stats,
            }
        })
        .collect();
    for part in parts {
        for (t, block) in part.into_iter().enumerate() {
            packed[t].blocks.push(block);
        }
    }
    Ok(packed)
}
