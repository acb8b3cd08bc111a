//! Distance to conversion (DTC) from a finished table's values.
//!
//! A table's DTM pass decides which positions are won or lost by mate ([`crate::dtm`]);
//! this pass gives each of them its distance to conversion ([`chariot_formats::egtb::Metric::Dtc`]):
//! the plies until the winner makes a capture or a soldier's move that keeps its win by mate,
//! or until the loser is mated or makes any capture or soldier's move. Draws and the values of
//! the perpetual-check and perpetual-chase rules are kept as they are (their ranks already
//! count the plies to the next step of the winner's plan).
//!
//! 1. **First pass** (every entry, in parallel), from the DTM pass's values and the byte its
//!    first pass kept per entry ([`MoveFacts`]), without generating moves: a won position with a
//!    capture into a position lost by mate for the opponent is won at 1; a lost position without
//!    a move is lost at 0; a lost position whose every move is a conversion is lost at 1; other
//!    lost positions count their moves that are no conversion.
//! 2. **Soldiers' conversions** (tables with soldiers): every position lost by mate makes the
//!    won positions one soldier's move before it won at 1.
//! 3. **Levels** `n = 0, 1, 2, ...`: every position at distance `n` updates its predecessors
//!    through moves that are no conversion (unmoves without captures and without soldiers). A
//!    lost one makes a won predecessor won at `n + 1` unless it has its distance already; a
//!    won one counts down a lost predecessor's moves, and at zero the predecessor is lost at
//!    `n + 1`. As levels are visited in order, a win takes its quickest conversion and a loss
//!    its slowest, as in the DTM pass.
//!
//! Every position decided by mate gets a distance (its DTM is a bound: along the winner's
//! mating line a conversion or the mate comes within DTM plies); one that does not is an error.
//! Memory: 2 bytes per entry (its class, won or lost by mate or neither, and a distance or a lost
//! position's count of open moves; turned into the DTC codes in place) beside the table's DTM
//! codes and first-pass bytes.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use chariot_formats::egtb::file::HalfStats;
use chariot_formats::egtb::{Coding, IndexError, Indexer, Metric, Signature, Value, is_conversion};
use chariot_rules::{Color, Kind};
use rayon::prelude::*;

use crate::dtm::{GenError, Generated, MoveFacts, Progress};
use crate::level_chunks::Due;
use crate::retro::{self, Unmoves};
use crate::state::{CAPTURE_WINS, LEGAL_ONLY, inside};

/// Class bits of an entry's word: not decided by mate, or no legal position.
const OTHER: u16 = 0;
/// Class bits: won by mate.
const WON: u16 = 1 << 14;
/// Class bits: lost by mate.
const LOST: u16 = 2 << 14;
/// The class bits.
const CLASS: u16 = 3 << 14;
/// Bit set while the entry's distance is not known: a won position's, or a lost one's with, in
/// the low bits, its moves that are no conversion and lead to a position whose distance is not
/// known yet.
const OPEN: u16 = 1 << 13;
/// The distance bits (a DTC is at most the DTM, which fits them: `MAX_DISTANCE`).
const DIST: u16 = OPEN - 1;

struct Pass<'a> {
    sig: Signature,
    ix: &'a Indexer,
    size: u64,
    dtm: &'a Generated,
    facts: &'a [u8],
    /// Per entry its class ([`WON`], [`LOST`], [`OTHER`]) and a distance, or [`OPEN`] (with a
    /// count for a lost position).
    dist: Vec<AtomicU16>,
    /// The chunks holding positions of coming levels, and the highest level.
    due: Due,
}

impl Pass<'_> {
    fn turn_of(&self, e: u64) -> Color {
        if e < self.size {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The DTM pass's value of a legal position, `None` for an unused entry.
    fn value(&self, e: u64) -> Result<Option<Value>, GenError> {
        if !self.dtm.is_used(e) {
            return Ok(None);
        }
        let code = self.dtm.codes[e as usize];
        self.dtm
            .coding
            .decode(code)
            .map(Some)
            .map_err(|_| GenError::Inconsistent {
                table: self.sig,
                detail: format!("entry {e} holds code {code}, which its coding does not know"),
            })
    }

    /// Entry `e` is decided at `level` (its word stored).
    fn schedule(&self, e: u64, level: u16) {
        self.due.schedule(e, u32::from(level));
    }

    /// The level entry `e` is due at when that is after `level`.
    fn due_after(&self, e: u64, level: u16) -> Option<u32> {
        let w = self.dist[e as usize].load(Relaxed);
        (w & CLASS != OTHER && w & OPEN == 0 && w & DIST > level).then(|| u32::from(w & DIST))
    }

    fn class(&self, e: u64) -> u16 {
        self.dist[e as usize].load(Relaxed) & CLASS
    }

    /// Entry `e`'s first word: its class and first distance, or [`OPEN`] with its count of moves
    /// that are no conversion.
    fn first(&self, e: u64) -> Result<u16, GenError> {
        let f = self.facts[e as usize];
        Ok(match self.value(e)? {
            Some(Value::Loss(0)) => LOST,
            Some(Value::Loss(_)) => match inside(f).map_or_else(|| self.count_inside(e), Ok)? {
                0 => LOST | 1,
                n => LOST | OPEN | u16::from(n),
            },
            Some(Value::Win(_)) if f & CAPTURE_WINS != 0 => WON | 1,
            Some(Value::Win(_)) => WON | OPEN,
            _ => OTHER,
        })
    }

    /// The moves of entry `e` that are no conversion, counted by generating them (for the few
    /// positions with more than the first-pass byte holds).
    fn count_inside(&self, e: u64) -> Result<u8, GenError> {
        let p = self.ix.decode(e % self.size);
        let pos = self
            .ix
            .position(&p, self.turn_of(e), LEGAL_ONLY)
            .map_err(|err| GenError::Inconsistent {
                table: self.sig,
                detail: format!("entry {e} is marked legal but is no legal position ({err})"),
            })?;
        let moves = pos.legal_move_list();
        let n = moves.iter().filter(|&&m| !is_conversion(&pos, m)).count();
        Ok(u8::try_from(n).unwrap_or(u8::MAX))
    }

    /// Makes the won positions one soldier's move before lost entry `e` won at 1.
    fn soldier_conversions(&self, e: u64) {
        let mover = self.turn_of(e).opponent();
        let base = mover.index() as u64 * self.size;
        retro::predecessors_by(self.ix, e % self.size, mover, Unmoves::SoldiersOnly, |q| {
            let slot = &self.dist[(base + q) as usize];
            if slot.load(Relaxed) == WON | OPEN
                && slot
                    .compare_exchange(WON | OPEN, WON | 1, Relaxed, Relaxed)
                    .is_ok()
            {
                self.schedule(base + q, 1);
            }
        });
    }

    /// Visits entry `e` if its distance is `level`, updating its predecessors.
    fn visit(&self, e: u64, level: u16) {
        let w = self.dist[e as usize].load(Relaxed);
        // One masked comparison rejects nearly every entry of a level's scan.
        if w & !CLASS != level || w & CLASS == OTHER {
            return;
        }
        let lost = w & CLASS == LOST;
        let next = level + 1;
        let mover = self.turn_of(e).opponent();
        let base = mover.index() as u64 * self.size;
        retro::predecessors_by(self.ix, e % self.size, mover, Unmoves::NoSoldiers, |q| {
            let slot = &self.dist[(base + q) as usize];
            if lost {
                // A won predecessor converts by moving here, unless it does sooner (a plain load
                // first: most predecessors are no longer open).
                if slot.load(Relaxed) == WON | OPEN
                    && slot
                        .compare_exchange(WON | OPEN, WON | next, Relaxed, Relaxed)
                        .is_ok()
                {
                    self.schedule(base + q, next);
                }
                return;
            }
            // A lost predecessor's move here is refuted; its last one decides its distance.
            let counted = slot.fetch_update(Relaxed, Relaxed, |w| {
                (w & (CLASS | OPEN) == LOST | OPEN)
                    .then(|| if w & DIST == 1 { LOST | next } else { w - 1 })
            });
            if counted == Ok(LOST | OPEN | 1) {
                self.schedule(base + q, next);
            }
        });
    }
}

/// The DTC table of a generated DTM table: same signature, flags and rule values, distances to
/// conversion. `facts` are the bytes the DTM pass's first pass kept ([`crate::dtm`]).
///
/// # Errors
/// [`GenError`] when a distance exceeds the codes, or a position decided by mate gets no
/// distance (a fault of the DTM values).
pub fn conversion_table(
    dtm: &Generated,
    facts: &MoveFacts,
    progress: &dyn Progress,
) -> Result<Generated, GenError> {
    let sig = dtm.signature;
    let ix = Indexer::new(sig)?;
    let size = ix.size();
    let total = 2 * size;
    const CHUNK: u64 = 1 << 14;
    progress.stage(&format!("{sig}: conversions"), total);
    let n = usize::try_from(total).map_err(|_| GenError::Index(IndexError::TooLarge(sig)))?;
    if facts.0.len() != n || dtm.codes.len() != n {
        return Err(GenError::Inconsistent {
            table: sig,
            detail: format!(
                "{} first-pass bytes and {} codes for {n} entries",
                facts.0.len(),
                dtm.codes.len()
            ),
        });
    }
    let pass = Pass {
        sig,
        ix: &ix,
        size,
        dtm,
        facts: &facts.0,
        dist: std::iter::repeat_with(|| AtomicU16::new(OTHER))
            .take(n)
            .collect(),
        due: Due::new(total, crate::level_chunks::CHUNK),
    };
    let p = &pass;
    (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(total);
            let len = range.end - range.start;
            for e in range {
                let w = p.first(e)?;
                p.dist[e as usize].store(w, Relaxed);
                if w & CLASS != OTHER && w & OPEN == 0 {
                    p.schedule(e, w & DIST);
                }
            }
            progress.advance(len);
            Ok::<(), GenError>(())
        })?;
    let soldiers = |c: Color| sig.side(c).count(Kind::Soldier) > 0;
    if soldiers(Color::Red) || soldiers(Color::Black) {
        progress.stage(&format!("{sig}: soldiers' conversions"), total);
        (0..total.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
            for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                if soldiers(p.turn_of(e).opponent()) && p.class(e) == LOST {
                    p.soldier_conversions(e);
                }
            }
            progress.advance(CHUNK.min(total - c * CHUNK));
        });
    }
    let mut level = 0u32;
    while level <= pass.due.highest() {
        if level + 1 > u32::from(DIST) {
            return Err(GenError::CodesOverflow(sig));
        }
        progress.stage(&format!("{sig}: conversion distance {level}"), total);
        (0..p.due.groups()).into_par_iter().for_each(|g| {
            let swept = p.due.sweep_group(g, level, |e| {
                p.visit(e, level as u16);
                Ok::<_, std::convert::Infallible>(p.due_after(e, level as u16))
            });
            let Ok(covered) = swept;
            progress.advance(covered);
        });
        level += 1;
    }
    finish(pass)
}

/// The DTC codes (written over the pass's words), statistics and coding.
fn finish(pass: Pass) -> Result<Generated, GenError> {
    let (sig, dtm) = (pass.sig, pass.dtm);
    let size = pass.size as usize;
    let mut words: Vec<u16> = pass.dist.into_iter().map(AtomicU16::into_inner).collect();
    let value = |e: usize, w: u16| -> Result<Option<Value>, GenError> {
        Ok(match w & CLASS {
            _ if w & OPEN != 0 => return Err(GenError::NoConversion(sig, e as u64)),
            WON => Some(Value::Win(u32::from(w & DIST))),
            LOST => Some(Value::Loss(u32::from(w & DIST))),
            _ if !dtm.is_used(e as u64) => None,
            _ => match dtm.coding.decode(dtm.codes[e]) {
                // Draws and rule values as the DTM table has them.
                Ok(v @ (Value::Draw | Value::RuleWin(_) | Value::RuleLoss(_))) => Some(v),
                _ => {
                    return Err(GenError::Inconsistent {
                        table: sig,
                        detail: format!(
                            "entry {e} is neither won nor lost by mate, yet its code {} is no \
                             draw or rule value",
                            dtm.codes[e]
                        ),
                    });
                }
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
    for (e, &w) in words.iter().enumerate() {
        let half = &mut stats[e / size];
        if let Some(Value::Win(d) | Value::Loss(d)) = value(e, w)? {
            max = max.max(d);
            if d > half.max_dtm {
                half.max_dtm = d;
                half.max_dtm_index = (e % size) as u64;
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
    .ok_or(GenError::CodesOverflow(sig))?;
    coding.chase_stages = c.chase_stages;
    let mut prev = 0u16;
    for (e, w) in words.iter_mut().enumerate() {
        let code = match value(e, *w)? {
            Some(v) => coding.encode(v).ok_or(GenError::CodesOverflow(sig))?,
            None => prev,
        };
        *w = code;
        prev = code;
    }
    Ok(Generated {
        signature: sig,
        codes: words,
        stats,
        flags: dtm.flags,
        coding,
        used: dtm.used.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtm::generate;
    use crate::loaded::Subtables;

    #[test]
    fn damaged_distance_to_mate_results_are_named_not_blamed_on_a_subtable() {
        let sig: Signature = "KK".parse().unwrap();
        let (g, facts) = generate(sig, Subtables::new(), &()).unwrap();
        assert!(conversion_table(&g, &facts, &()).is_ok());
        let short = MoveFacts(facts.0[1..].to_vec());
        let Err(err) = conversion_table(&g, &short, &()) else {
            panic!("one first-pass byte short was accepted");
        };
        assert!(matches!(err, GenError::Inconsistent { .. }), "{err:?}");
        let message = err.to_string();
        assert!(
            message.starts_with("table KK: the distance-to-mate results are inconsistent")
                && message.contains("first-pass bytes"),
            "{message}"
        );
    }
}
