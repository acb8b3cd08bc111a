//! Distance to conversion (DTC) from a finished table's values.
//!
//! A table's DTM pass decides which positions are won or lost by mate ([`crate::generate`]);
//! this pass gives each of them its distance to conversion ([`chariot::egtb::Metric::Dtc`]):
//! the plies until the winner makes a capture or a soldier's move that keeps its win by mate,
//! or until the loser is mated or makes any capture or soldier's move. Draws and the values of
//! the perpetual-check and perpetual-chase rules are kept as they are (their ranks already
//! count the plies to the next step of the winner's plan).
//!
//! 1. **First pass** (every entry, in parallel): a won position with a conversion into a
//!    position lost by mate for the opponent is won at 1; a lost position without a move is
//!    lost at 0; a lost position whose every move is a conversion is lost at 1; other lost
//!    positions count their moves that are no conversion.
//! 2. **Levels** `n = 0, 1, 2, ...`: every position at distance `n` updates its predecessors
//!    through moves that are no conversion (unmoves without captures and without soldiers). A
//!    lost one makes a won predecessor won at `n + 1` unless it has its distance already; a
//!    won one counts down a lost predecessor's moves, and at zero the predecessor is lost at
//!    `n + 1`. As levels are visited in order, a win takes its quickest conversion and a loss
//!    its slowest, as in the DTM pass.
//!
//! Every position decided by mate gets a distance (its DTM is a bound: along the winner's
//! mating line a conversion or the mate comes within DTM plies); one that does not is an error.
//! Memory: 4 bytes per entry beside the table's DTM codes.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering::Relaxed};

use chariot::egtb::file::HalfStats;
use chariot::egtb::{Coding, IndexError, Indexer, Metric, Signature, Value, is_conversion};
use chariot::{Color, Position};
use rayon::prelude::*;

use crate::generate::{GenError, Generated, Progress};
use crate::loaded::Subtables;
use crate::retro;
use crate::state::LEGAL_ONLY;

/// Not decided by mate, or no legal position.
const OTHER: u8 = 0;
/// Won by mate.
const WON: u8 = 1;
/// Lost by mate.
const LOST: u8 = 2;
/// No distance (yet).
const UNSET: u16 = u16::MAX;

struct Pass<'a> {
    sig: Signature,
    ix: &'a Indexer,
    size: u64,
    dtm: &'a Generated,
    subs: &'a Subtables,
    class: Vec<u8>,
    dist: Vec<AtomicU16>,
    /// A lost position's moves that are no conversion and lead to a position whose distance
    /// is not known yet.
    open: Vec<AtomicU8>,
    max_level: AtomicU32,
}

impl Pass<'_> {
    fn turn_of(&self, e: u64) -> Color {
        if e < self.size {
            Color::Red
        } else {
            Color::Black
        }
    }

    fn own_value(&self, pos: &Position) -> Option<Value> {
        let (turn, idx) = self.ix.index_of(pos).ok()?;
        let e = turn.index() as u64 * self.size + idx;
        self.dtm.coding.decode(self.dtm.codes[e as usize]).ok()
    }

    /// Entry `e`'s class, first distance and count of moves that are no conversion.
    fn first(&self, e: u64) -> Result<(u8, u16, u8), GenError> {
        let Ok(value) = self.dtm.coding.decode(self.dtm.codes[e as usize]) else {
            return Err(GenError::BadSubtable(self.sig));
        };
        let class = match value {
            Value::Win(_) => WON,
            Value::Loss(_) => LOST,
            _ => return Ok((OTHER, UNSET, 0)),
        };
        let p = self.ix.decode(e % self.size);
        if p.has_overlap() {
            return Ok((OTHER, UNSET, 0));
        }
        let Ok(mut pos) = self.ix.position(&p, self.turn_of(e), LEGAL_ONLY) else {
            return Ok((OTHER, UNSET, 0));
        };
        let moves = pos.legal_move_list();
        if class == LOST {
            if moves.is_empty() {
                return Ok((LOST, 0, 0));
            }
            let inside = moves.iter().filter(|&&m| !is_conversion(&pos, m)).count();
            return Ok(match inside {
                0 => (LOST, 1, 0),
                n => (LOST, UNSET, u8::try_from(n).unwrap_or(u8::MAX)),
            });
        }
        for &m in moves.iter() {
            if !is_conversion(&pos, m) {
                continue;
            }
            let capture = pos.is_capture(m);
            pos.make_move(m);
            let after = if capture {
                let needed = Signature::of(&pos).0;
                let sub = self.subs.get(&needed).ok_or(GenError::MissingSubtable {
                    table: self.sig,
                    needed,
                })?;
                sub.value(&pos).ok_or(GenError::BadSubtable(needed))?
            } else {
                self.own_value(&pos)
                    .ok_or(GenError::BadSubtable(self.sig))?
            };
            pos.unmake_move();
            if matches!(after, Value::Loss(_)) {
                return Ok((WON, 1, 0));
            }
        }
        Ok((WON, UNSET, 0))
    }

    /// Visits entry `e` if its distance is `level`, updating its predecessors.
    fn visit(&self, e: u64, level: u16) {
        if self.dist[e as usize].load(Relaxed) != level {
            return;
        }
        let next = level + 1;
        let lost = self.class[e as usize] == LOST;
        let mover = self.turn_of(e).opponent();
        let base = mover.index() as u64 * self.size;
        retro::predecessors_by(self.ix, e % self.size, mover, false, |q| {
            let q = (base + q) as usize;
            match self.class[q] {
                WON if lost
                    && self.dist[q]
                        .compare_exchange(UNSET, next, Relaxed, Relaxed)
                        .is_ok() =>
                {
                    self.max_level.fetch_max(u32::from(next), Relaxed);
                }
                LOST if !lost
                    && self.dist[q].load(Relaxed) == UNSET
                    && self.open[q].fetch_sub(1, Relaxed) == 1 =>
                {
                    self.dist[q].store(next, Relaxed);
                    self.max_level.fetch_max(u32::from(next), Relaxed);
                }
                _ => {}
            }
        });
    }
}

/// The DTC table of a generated DTM table: same signature, flags and rule values, distances to
/// conversion. `subs` must hold every table a capture leads to (either metric).
///
/// # Errors
/// [`GenError`] when a subtable is missing or invalid, a distance exceeds the codes, or a
/// position decided by mate gets no distance (a fault of the DTM values).
pub fn conversion_table(
    dtm: &Generated,
    subs: &Subtables,
    progress: &dyn Progress,
) -> Result<Generated, GenError> {
    let sig = dtm.signature;
    let ix = Indexer::new(sig)?;
    let size = ix.size();
    let total = 2 * size;
    const CHUNK: u64 = 1 << 14;
    progress.stage(&format!("{sig}: conversions"), total);
    let mut pass = Pass {
        sig,
        ix: &ix,
        size,
        dtm,
        subs,
        class: Vec::new(),
        dist: Vec::new(),
        open: Vec::new(),
        max_level: AtomicU32::new(1),
    };
    // Written in place (no second copy): class, distance and open moves, 4 bytes an entry.
    let n = usize::try_from(total).map_err(|_| GenError::Index(IndexError::TooLarge(sig)))?;
    pass.dist = std::iter::repeat_with(|| AtomicU16::new(UNSET))
        .take(n)
        .collect();
    pass.open = std::iter::repeat_with(|| AtomicU8::new(0))
        .take(n)
        .collect();
    let mut class = vec![OTHER; n];
    {
        let p = &pass;
        class
            .par_chunks_mut(CHUNK as usize)
            .enumerate()
            .try_for_each(|(c, classes)| {
                let start = c as u64 * CHUNK;
                for (i, slot) in classes.iter_mut().enumerate() {
                    let e = start + i as u64;
                    let (class, dist, open) = p.first(e)?;
                    *slot = class;
                    p.dist[e as usize].store(dist, Relaxed);
                    p.open[e as usize].store(open, Relaxed);
                }
                progress.advance(classes.len() as u64);
                Ok::<(), GenError>(())
            })?;
    }
    pass.class = class;
    let mut level = 0u32;
    while level <= pass.max_level.load(Relaxed) {
        if level + 1 >= u32::from(UNSET) {
            return Err(GenError::CodesOverflow(sig));
        }
        progress.stage(&format!("{sig}: conversion distance {level}"), total);
        let p = &pass;
        (0..total.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
            for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                p.visit(e, level as u16);
            }
            progress.advance(CHUNK.min(total - c * CHUNK));
        });
        level += 1;
    }
    finish(&pass)
}

/// The DTC codes, statistics and coding.
fn finish(pass: &Pass) -> Result<Generated, GenError> {
    let dtm = pass.dtm;
    let value = |e: usize| -> Result<Option<Value>, GenError> {
        let d = pass.dist[e].load(Relaxed);
        Ok(match pass.class[e] {
            WON | LOST if d == UNSET => return Err(GenError::NoConversion(pass.sig, e as u64)),
            WON => Some(Value::Win(u32::from(d))),
            LOST => Some(Value::Loss(u32::from(d))),
            _ if !dtm.is_used(e as u64) => None,
            _ => match dtm.coding.decode(dtm.codes[e]) {
                // Draws and rule values as the DTM table has them.
                Ok(v @ (Value::Draw | Value::RuleWin(_) | Value::RuleLoss(_))) => Some(v),
                _ => return Err(GenError::BadSubtable(pass.sig)),
            },
        })
    };
    // The counts are the DTM table's; the longest distance is this metric's.
    let mut stats: [HalfStats; 2] = dtm.stats.map(|s| HalfStats {
        max_dtm: 0,
        max_dtm_index: 0,
        ..s
    });
    let mut max = 0u32;
    for e in 0..dtm.codes.len() {
        let half = &mut stats[e / pass.size as usize];
        if let Some(Value::Win(d) | Value::Loss(d)) = value(e)? {
            max = max.max(d);
            if d > half.max_dtm {
                half.max_dtm = d;
                half.max_dtm_index = e as u64 % pass.size;
            }
        }
    }
    let c = dtm.coding;
    let mut coding = if c.has_rule_values() {
        let plies = u32::from(c.rule_stride) - 1;
        Coding::for_table(Metric::Dtc, max, plies, u32::from(c.rule_stages))
    } else {
        Coding::for_table(Metric::Dtc, max, 0, 0)
    }
    .ok_or(GenError::CodesOverflow(pass.sig))?;
    coding.chase_stages = c.chase_stages;
    let mut codes = Vec::with_capacity(dtm.codes.len());
    let mut prev = 0u16;
    for e in 0..dtm.codes.len() {
        let code = match value(e)? {
            Some(v) => coding.encode(v).ok_or(GenError::CodesOverflow(pass.sig))?,
            None => prev,
        };
        codes.push(code);
        prev = code;
    }
    Ok(Generated {
        signature: pass.sig,
        codes,
        stats,
        flags: dtm.flags,
        coding,
        used: dtm.used.clone(),
    })
}
