//! Tables against search: a plain depth-limited mate search over the rules core, independent of
//! the tables, must find exactly the stored distance wherever the mate is within its horizon,
//! and no mate where the table says draw or a longer distance. In a DTC table, whose distances
//! count to the next conversion, a mate the search finds must be stored as a result by mate of
//! the same kind.

use chariot_formats::egtb::Value;
use chariot_rules::Position;

use crate::error::TableError;

/// The value of `pos` if it is decided within `depth` plies (exact distance), else `None`.
///
/// A side without legal moves has lost (checkmate or stalemate). Captures are searched like any
/// move, so the search never looks at a table.
#[must_use]
pub fn mate_search(pos: &mut Position, depth: u32) -> Option<Value> {
    let moves = pos.legal_move_list();
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    if depth == 0 {
        return None;
    }
    let mut best: Option<Value> = None;
    let mut all_lose = true;
    let mut longest_loss = 0;
    for &m in moves.iter() {
        pos.make_move(m);
        let child = mate_search(pos, depth - 1);
        pos.unmake_move();
        match child {
            Some(Value::Loss(d)) => {
                let v = Value::Win(d + 1);
                if best.is_none_or(|b| v > b) {
                    best = Some(v);
                }
                all_lose = false;
            }
            Some(Value::Win(d)) => longest_loss = longest_loss.max(d + 1),
            _ => all_lose = false,
        }
    }
    if best.is_some() {
        return best;
    }
    all_lose.then_some(Value::Loss(longest_loss))
}

/// What the search expects for a position whose table value is `stored`: the value itself
/// when its distance is within `depth`, otherwise `None` (undecided within the horizon).
#[must_use]
pub fn expected_within(stored: Value, depth: u32) -> Option<Value> {
    match stored.dtm() {
        Some(d) if d <= depth => Some(stored),
        _ => None,
    }
}

/// Cross-checks `samples` positions of the table at `path` against [`mate_search`] to `depth`
/// plies: half of them spread over all legal positions, half over those whose stored distance
/// is within the horizon. Returns the number checked, or the first disagreement as text.
///
/// # Errors
/// When the table cannot be read.
pub fn crosscheck_table(
    path: &std::path::Path,
    samples: usize,
    depth: u32,
) -> Result<Result<usize, String>, TableError> {
    use chariot_formats::egtb::{Indexer, TableFile};
    use chariot_rules::Color;
    use chariot_rules::Waivers;
    use rayon::prelude::*;

    let file_error = |source| TableError::File {
        path: path.to_owned(),
        source,
    };
    let t = TableFile::open(path).map_err(file_error)?;
    let ix = Indexer::with_scheme(t.header().signature, t.header().key_scheme)?;
    let codes = t.all_codes().map_err(file_error)?;
    let coding = t.header().coding;
    let size = ix.size();
    let legal = |e: u64| -> Option<Position> {
        let turn = if e < size { Color::Red } else { Color::Black };
        let p = ix.decode(e % size);
        if p.has_overlap() {
            return None;
        }
        let w = Waivers {
            placement: true,
            counts: true,
            opposite_check: false,
        };
        Position::from_setup(&ix.setup(&p, turn), w).ok()
    };
    let short: Vec<u64> = (0..codes.len() as u64)
        .filter(|&e| {
            coding
                .decode(codes[e as usize])
                .ok()
                .and_then(Value::dtm)
                .is_some_and(|d| d <= depth)
                && legal(e).is_some()
        })
        .collect();
    let mut picked: Vec<u64> = Vec::new();
    let half = samples / 2;
    if !short.is_empty() {
        let step = (short.len() / half.max(1)).max(1);
        picked.extend(short.iter().step_by(step).take(half));
    }
    // A fixed odd stride walks all entries in a scattered but reproducible order.
    let n = codes.len() as u64;
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut tries = 0;
    while picked.len() < samples && tries < 100 * samples {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let e = (state >> 11) % n.max(1);
        tries += 1;
        if legal(e).is_some() {
            picked.push(e);
        }
    }
    let bad = picked.par_iter().find_map_first(|&e| {
        let mut pos = legal(e)?;
        let stored = coding.decode(codes[e as usize]).ok()?;
        let found = mate_search(&mut pos, depth);
        // A DTC table's distances are no distances to mate: a mate the search finds must be a
        // result by mate of the same kind there, and nothing more can be asked.
        let agrees = match coding.metric {
            chariot_formats::egtb::Metric::Dtm => found == expected_within(stored, depth),
            chariot_formats::egtb::Metric::Dtc => {
                found.is_none_or(|f| stored.dtm().is_some() && stored.wdl() == f.wdl())
            }
        };
        (!agrees).then(|| {
            format!(
                "{}: {} stored {stored}, search to {depth} plies finds {}",
                path.display(),
                pos.fen(),
                found.map_or("nothing".to_owned(), |v| v.to_string())
            )
        })
    });
    Ok(match bad {
        Some(msg) => Err(msg),
        None => Ok(picked.len()),
    })
}
