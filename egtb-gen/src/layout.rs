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
//! (or the DTC codes when only they are written), and rearranged in one pass.

use chariot::egtb::Indexer;
use chariot::egtb::file::{HalfStats, compress_block, value_width};
use chariot::egtb::index::{ALT_KEY_SCHEME, KEY_SCHEME as KEY_SCHEME_GENERATED};
use rayon::prelude::*;

use crate::generate::Generated;

/// Every how many blocks one is compressed for the comparison.
const SAMPLE_EVERY: u64 = 8;

/// The layout a table is written in: its key scheme, its codes in that order, its statistics
/// (whose longest-distance index is in that order).
pub struct Layout {
    /// The key scheme.
    pub key_scheme: u8,
    /// The codes in its order; `None` when they are the generated codes as they are.
    pub codes: Option<Vec<u16>>,
    /// The statistics.
    pub stats: [HalfStats; 2],
}

/// The entry (of both halves, in `from`'s order) whose value entry `i` of `to`'s order holds,
/// or `None` for an unused entry (pieces sharing a square, no legal position).
#[inline]
fn source(used: &Generated, from: &Indexer, to: &Indexer, i: u64) -> Option<u64> {
    let size = from.size();
    let p = to.decode(i % size);
    if p.has_overlap() {
        return None;
    }
    let e = (i / size) * size + from.encode(&p)?;
    used.is_used(e).then_some(e)
}

/// The codes of `tables` for entries `range` of `to`'s order; an unused entry repeats the code
/// before it (0 at the start of the range).
fn reorder(
    tables: &[&Generated],
    from: &Indexer,
    to: &Indexer,
    range: std::ops::Range<u64>,
) -> Vec<Vec<u16>> {
    let mut out: Vec<Vec<u16>> = tables
        .iter()
        .map(|_| Vec::with_capacity((range.end - range.start) as usize))
        .collect();
    let mut prev = vec![0u16; tables.len()];
    for i in range {
        let e = source(tables[0], from, to, i);
        for (t, g) in tables.iter().enumerate() {
            let code = e.map_or(prev[t], |e| g.codes[e as usize]);
            out[t].push(code);
            prev[t] = code;
        }
    }
    out
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
    let sizes: Option<Vec<(u64, u64)>> = sample
        .par_iter()
        .map(|&b| {
            let range = b * be..((b + 1) * be).min(total);
            let here = &g.codes[range.start as usize..range.end as usize];
            let there = reorder(&[g], &from, &to, range).swap_remove(0);
            let a = compress_block(here, 0, block_entries, width, level).ok()?;
            let c = compress_block(&there, 0, block_entries, width, level).ok()?;
            Some((a.len() as u64, c.len() as u64))
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

/// The layouts of tables generated together (a table's DTM and DTC codes, which share their
/// entries and legality) in key scheme `scheme`: one pass of index arithmetic for all of them.
#[must_use]
pub fn arrange(tables: &[&Generated], scheme: u8, block_entries: u32) -> Vec<Layout> {
    let keep = || {
        tables
            .iter()
            .map(|g| Layout {
                key_scheme: KEY_SCHEME_GENERATED,
                codes: None,
                stats: g.stats,
            })
            .collect()
    };
    let Some(first) = tables.first() else {
        return Vec::new();
    };
    if scheme == KEY_SCHEME_GENERATED || block_entries == 0 {
        return keep();
    }
    let (Ok(from), Ok(to)) = (
        Indexer::with_scheme(first.signature, KEY_SCHEME_GENERATED),
        Indexer::with_scheme(first.signature, scheme),
    ) else {
        return keep();
    };
    if from.size() != to.size() {
        return keep();
    }
    let total = 2 * from.size();
    let be = u64::from(block_entries);
    // Per block: every table's codes in the new order.
    let parts: Vec<Vec<Vec<u16>>> = (0..total.div_ceil(be))
        .into_par_iter()
        .map(|b| reorder(tables, &from, &to, b * be..((b + 1) * be).min(total)))
        .collect();
    tables
        .iter()
        .enumerate()
        .map(|(t, g)| {
            let codes: Vec<u16> = parts.iter().flat_map(|p| p[t].iter().copied()).collect();
            let mut stats = g.stats;
            for s in &mut stats {
                if s.max_dtm > 0 {
                    let p = from.decode(s.max_dtm_index);
                    s.max_dtm_index = to.encode(&p).unwrap_or(0);
                }
            }
            Layout {
                key_scheme: scheme,
                codes: Some(codes),
                stats,
            }
        })
        .collect()
}
