//! Retrograde analysis of one table.
//!
//! 1. **First pass** (every index, both sides to move, in parallel): decode, reject what is no
//!    legal position, generate the legal moves with the rules core. Captures leave the table and
//!    are valued at once from the smaller tables (already generated, held in memory); quiet moves
//!    stay inside and are counted. A position without legal moves is lost at distance 0.
//! 2. **Levels** `n = 0, 1, 2, ...`: every position decided at distance `n` is visited once and
//!    its predecessors (see [`crate::retro`]) are updated. If it is lost, they are won at
//!    `n + 1`. If it is won, their count of unrefuted quiet moves drops; at zero every move loses,
//!    and the predecessor is lost at `max(n + 1, its best capture's loss distance)`, or drawn if a
//!    capture draws. A position whose best capture wins at `k` is won at `k` unless a quicker
//!    quiet win was found first. Levels are processed in order, so every distance is minimal for
//!    the winner and maximal for the loser.
//! 3. Positions still undecided can be held by both sides forever: draws, except where one side
//!    could avoid the loss only by checking forever. [`crate::perpetual`] solves that as a game
//!    on the undecided positions ([`crate::perpetual_game`]) and gives such positions rule values.
//!
//! Captures may lead to positions of smaller tables that the rule decides. Such a capture never
//! makes a position won or lost by mate; it keeps the position undecided (like a drawing
//! capture), and the game then counts it as a move out of the region that wins or loses.
//!
//! Each position needs 5 bytes while its table is built (a 16-bit state, 8-bit counts of quiet
//! moves not yet refuted and of those that give no check, and a byte saying whether the side to
//! move is in check, whether a capture wins by mate and how many moves are no conversion:
//! [`MoveFacts`], for the distance-to-conversion pass), written in place by the first pass, plus
//! 2 bytes per position of the tables its captures lead to during the first pass; the game adds
//! 6 bytes per position of its region while it runs (and keeps the move counts as its own), 4
//! more for a second game.

use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};

use chariot_formats::egtb::file::{FLAG_RULE_DECIDES, FLAG_RULE_JUDGED, HalfStats};
use chariot_formats::egtb::index::Placement;
use chariot_formats::egtb::{Coding, IndexError, Indexer, Metric, Signature, Value};
use chariot_rules::{Color, Kind, Position};
use rayon::prelude::*;

use crate::level_chunks::Due;
use crate::loaded::Subtables;
use crate::perpetual_game::GameError;
use crate::retro;
use crate::state::*;

/// What a generation reports while it runs; the command line shows it as a progress bar, a
/// test ignores it (`&()`).
pub trait Progress: Sync {
    /// A stage begins, with this many entries to go through (0 when not counted).
    fn stage(&self, name: &str, total: u64);
    /// This many more entries of the stage are done.
    fn advance(&self, done: u64);
}

/// No report.
impl Progress for () {
    fn stage(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
}

/// Why a table could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// The table cannot be indexed.
    #[error(transparent)]
    Index(#[from] chariot_formats::egtb::IndexError),
    /// A table a capture leads to is missing.
    #[error("table {needed} (reached by a capture from {table}) is missing")]
    MissingSubtable {
        /// The table being generated.
        table: Signature,
        /// The missing one.
        needed: Signature,
    },
    /// A subtable gave an invalid value.
    #[error("subtable {0} holds an invalid value")]
    BadSubtable(Signature),
    /// A distance too long for the in-memory state.
    #[error("table {0}: a distance to mate exceeds {MAX_DISTANCE} plies")]
    TooDeep(Signature),
    /// The perpetual-check game could not be solved.
    #[error("table {table}: {source}")]
    Game {
        /// The table.
        table: Signature,
        /// The cause.
        source: GameError,
    },
    /// The values do not fit in 16-bit codes.
    #[error("table {0}: the distances and rule ranks do not fit in 16-bit codes")]
    CodesOverflow(Signature),
    /// A position decided by mate got no distance to conversion (its DTM values are wrong).
    #[error("table {0}: entry {1} is decided by mate but has no distance to conversion")]
    NoConversion(Signature, u64),
    /// The distance-to-mate pass's results that the distance-to-conversion pass reads
    /// contradict each other (they can only be damaged).
    #[error("table {table}: the distance-to-mate results are inconsistent: {detail}")]
    Inconsistent {
        /// The table.
        table: Signature,
        /// What contradicts what.
        detail: String,
    },
}

/// A generated table, ready to be written.
pub struct Generated {
    /// Its material.
    pub signature: Signature,
    /// The value codes, Red to move first; unused indices hold the previous code (don't care).
    pub codes: Vec<u16>,
    /// Statistics per side to move.
    pub stats: [HalfStats; 2],
    /// Header flags ([`FLAG_RULE_JUDGED`], [`FLAG_RULE_DECIDES`]).
    pub flags: u8,
    /// How the codes map to values ([`Coding::PLAIN`] when the rule decides nothing).
    pub coding: Coding,
    /// Bit `e % 64` of word `e / 64` set when entry `e` is a legal position.
    pub used: Vec<u64>,
}

impl Generated {
    /// `true` when entry `e` is a legal position (not a don't-care code).
    #[must_use]
    pub fn is_used(&self, e: u64) -> bool {
        self.used[(e / 64) as usize] >> (e % 64) & 1 == 1
    }
}

/// What the first pass learnt of each entry that the distance-to-conversion pass reads
/// ([`crate::dtc::conversion_table`]), so that it generates no moves: one byte an entry
/// (whether the side to move is in check, whether a capture wins by mate, how many moves are
/// no conversion).
pub struct MoveFacts(pub(crate) Vec<u8>);

/// Everything the passes share.
struct Work {
    sig: Signature,
    ix: Indexer,
    size: u64,
    val: Vec<AtomicU16>,
    /// Quiet moves not yet refuted; after the passes, for the game's region, its moves into the
    /// region (every other move of such a position leads to a win of the opponent).
    cnt: Vec<AtomicU8>,
    /// The same for the quiet moves that give no check.
    no_check: Vec<AtomicU8>,
    /// The first-pass byte of each entry ([`facts`]: in check, a capture that wins, the moves
    /// that are no conversion).
    facts: Vec<u8>,
    /// The tables captures lead to, until the first pass is done.
    subs: Subtables,
    /// The chunks holding positions of coming levels, and the highest level.
    due: Due,
}

impl Work {
    fn turn_of(&self, e: u64) -> Color {
        if e < self.size {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The position at entry `e`, whose placement is `p`, or `None` when it is no legal one.
    fn position_at(&self, e: u64, p: &Placement) -> Option<Position> {
        if p.has_overlap() {
            return None;
        }
        self.ix.position(p, self.turn_of(e), LEGAL_ONLY).ok()
    }

    /// The level entry `e` is due at when that is after `level`.
    fn due_after(&self, e: u64, level: u32) -> Option<u32> {
        let v = self.val[e as usize].load(Relaxed);
        (matches!(tag(v), WIN | LOSS | PEND_WIN) && dist(v) > level).then(|| dist(v))
    }

    /// The first pass for entry `e`, whose placement is `p`: its state, counts of quiet moves
    /// and of those that give no check, and its first-pass byte ([`facts`]).
    fn first_pass(&self, e: u64, p: &Placement) -> Result<(u16, u8, u8, u8), GenError> {
        let Some(mut pos) = self.position_at(e, p) else {
            return Ok((ILLEGAL, 0, 0, 0));
        };
        let moves = pos.legal_move_list();
        if moves.is_empty() {
            self.due.schedule(e, 0);
            return Ok((LOSS, 0, 0, facts(pos.in_check(), false, 0)));
        }
        let mut quiet = 0u8;
        let mut no_check = 0u8;
        let mut inside = 0u8;
        let mut capture_wins = false;
        let mut best: Option<Value> = None;
        for &m in moves.iter() {
            if !pos.is_capture(m) {
                quiet += 1;
                no_check += u8::from(!pos.gives_check(m));
                inside += u8::from(
                    pos.piece_at(m.from())
                        .is_some_and(|p| p.kind() != Kind::Soldier),
                );
                continue;
            }
            pos.make_move(m);
            let needed = Signature::of(&pos).0;
            let sub = self.subs.get(&needed).ok_or(GenError::MissingSubtable {
                table: self.sig,
                needed,
            })?;
            let v = sub.value(&pos).ok_or(GenError::BadSubtable(needed))?;
            pos.unmake_move();
            let v = v.before_move();
            capture_wins |= matches!(v, Value::Win(_));
            if best.is_none_or(|b| v > b) {
                best = Some(v);
            }
        }
        let capped = |d: u32| -> Result<u16, GenError> {
            if d > MAX_DISTANCE {
                Err(GenError::TooDeep(self.sig))
            } else {
                Ok(d as u16)
            }
        };
        let state = match (best, quiet) {
            (None, _) => UNKNOWN,
            (Some(Value::Win(d)), 0) => WIN | capped(d)?,
            (Some(Value::Loss(d)), 0) => LOSS | capped(d)?,
            (Some(Value::Draw), 0) => DRAW,
            (Some(Value::Win(d)), _) => PEND_WIN | capped(d)?,
            (Some(Value::Loss(d)), _) => CAP_LOSS | capped(d)?,
            (Some(Value::Draw), _) => CAP_DRAW | CAP_IS_DRAW,
            // Decided by the rule in the smaller table: undecided here, for the game to judge
            // (even without quiet moves, so that the game gives it its rank).
            (Some(Value::RuleWin(_)), _) => CAP_DRAW | CAP_IS_RULE_WIN,
            (Some(Value::RuleLoss(_)), _) => CAP_DRAW | CAP_IS_RULE_LOSS,
        };
        if matches!(tag(state), WIN | LOSS | PEND_WIN) {
            self.due.schedule(e, dist(state));
        }
        let facts = facts(pos.in_check(), capture_wins, inside);
        Ok((state, quiet, no_check, facts))
    }

    /// Visits entry `e` at `level` if it is decided there, updating its predecessors.
    fn visit(&self, e: u64, level: u32) -> Result<bool, GenError> {
        let mut v = self.val[e as usize].load(Relaxed);
        let odd = level % 2 == 1;
        if odd && v == PEND_WIN | level as u16 {
            self.val[e as usize].store(WIN | level as u16, Relaxed);
            v = WIN | level as u16;
        }
        let want = if odd { WIN } else { LOSS } | level as u16;
        if v != want {
            return Ok(false);
        }
        if level + 1 > MAX_DISTANCE {
            return Err(GenError::TooDeep(self.sig));
        }
        let next = (level + 1) as u16;
        let checks = in_check(self.facts[e as usize]);
        let turn = self.turn_of(e);
        let mover = turn.opponent();
        let base = mover.index() as u64 * self.size;
        retro::predecessors(&self.ix, e % self.size, mover, |q| {
            let slot = &self.val[(base + q) as usize];
            if !odd {
                // Lost here: the predecessor wins by moving here (unless it already wins sooner).
                let won = slot.fetch_update(Relaxed, Relaxed, |s| {
                    let better = undecided(s) || (tag(s) == PEND_WIN && dist(s) > u32::from(next));
                    better.then_some(WIN | next)
                });
                if won.is_ok() {
                    self.due.schedule(base + q, u32::from(next));
                }
            } else {
                let s = slot.load(Relaxed);
                if !undecided(s) {
                    return;
                }
                // The game needs the moves into its region that give no check: count them down
                // alongside.
                if !checks {
                    self.no_check[(base + q) as usize].fetch_sub(1, Relaxed);
                }
                if self.cnt[(base + q) as usize].fetch_sub(1, Relaxed) == 1 {
                    let lost = match tag(s) {
                        // Every quiet move loses and the best capture is decided by the rule in
                        // a smaller table: the game judges it (it has no move left in the region).
                        CAP_DRAW if s != CAP_DRAW | CAP_IS_DRAW => return,
                        CAP_DRAW => DRAW,
                        CAP_LOSS => LOSS | (dist(s).max(u32::from(next)) as u16),
                        _ => LOSS | next,
                    };
                    slot.store(lost, Relaxed);
                    if tag(lost) == LOSS {
                        self.due.schedule(base + q, dist(lost));
                    }
                }
            }
        });
        Ok(true)
    }
}

/// Generates one table, with what its distance-to-conversion pass needs. `subs` must hold every
/// table a capture leads to; they are dropped after the first pass, the only one that reads
/// them.
///
/// # Errors
/// [`GenError`] when a subtable is missing or invalid, or the table is not supported.
pub fn generate(
    sig: Signature,
    subs: Subtables,
    progress: &dyn Progress,
) -> Result<(Generated, MoveFacts), GenError> {
    let ix = Indexer::new(sig)?;
    let size = ix.size();
    let total = 2 * size;
    const CHUNK: u64 = 1 << 14;
    let mut work = Work {
        sig,
        ix,
        size,
        val: Vec::new(),
        cnt: Vec::new(),
        no_check: Vec::new(),
        facts: Vec::new(),
        subs,
        due: Due::new(2 * size, crate::level_chunks::CHUNK),
    };
    progress.stage(&format!("{sig}: first pass"), total);
    // Every entry's working state is written where it stays, so the first pass needs no second
    // copy (the state, counts and check flag: 5 bytes an entry).
    let n = usize::try_from(total).map_err(|_| GenError::Index(IndexError::TooLarge(sig)))?;
    work.val = std::iter::repeat_with(|| AtomicU16::new(0))
        .take(n)
        .collect();
    work.cnt = std::iter::repeat_with(|| AtomicU8::new(0))
        .take(n)
        .collect();
    work.no_check = std::iter::repeat_with(|| AtomicU8::new(0))
        .take(n)
        .collect();
    let mut facts = vec![0u8; n];
    {
        let w = &work;
        facts
            .par_chunks_mut(CHUNK as usize)
            .enumerate()
            .try_for_each(|(c, chunk)| {
                let start = c as u64 * CHUNK;
                // The placements of consecutive entries, decoded a step at a time.
                let mut cursor = w.ix.cursor(start % w.size);
                for (i, slot) in chunk.iter_mut().enumerate() {
                    let e = start + i as u64;
                    if e % w.size != cursor.index() {
                        if e % w.size == cursor.index() + 1 {
                            w.ix.advance(&mut cursor);
                        } else {
                            cursor = w.ix.cursor(e % w.size);
                        }
                    }
                    let (v, cnt, quiet, f) = w.first_pass(e, cursor.placement())?;
                    w.val[e as usize].store(v, Relaxed);
                    w.cnt[e as usize].store(cnt, Relaxed);
                    w.no_check[e as usize].store(quiet, Relaxed);
                    *slot = f;
                }
                progress.advance(chunk.len() as u64);
                Ok::<(), GenError>(())
            })?;
    }
    work.facts = facts;
    work.subs = Subtables::new();

    let mut level = 0u32;
    while level <= work.due.highest() {
        progress.stage(&format!("{sig}: distance {level}"), total);
        let w = &work;
        (0..w.due.groups()).into_par_iter().try_for_each(|g| {
            let covered = w.due.sweep_group(g, level, |e| {
                w.visit(e, level)?;
                Ok::<_, GenError>(w.due_after(e, level))
            })?;
            progress.advance(covered);
            Ok::<(), GenError>(())
        })?;
        level += 1;
    }
    progress.stage(&format!("{sig}: perpetual check"), 0);
    let out: Vec<u8> = std::mem::take(&mut work.cnt)
        .into_iter()
        .map(AtomicU8::into_inner)
        .collect();
    let quiet: Vec<u8> = std::mem::take(&mut work.no_check)
        .into_iter()
        .map(AtomicU8::into_inner)
        .collect();
    let state: Vec<u16> = std::mem::take(&mut work.val)
        .into_iter()
        .map(AtomicU16::into_inner)
        .collect();
    let rule = crate::perpetual::judge(&work.ix, &state, &work.facts, out, quiet)
        .map_err(|source| GenError::Game { table: sig, source })?;
    let (codes, stats, mut coding) =
        finish(&state, &rule, size).ok_or(GenError::CodesOverflow(sig))?;
    let mut used = vec![0u64; state.len().div_ceil(64)];
    for (e, &s) in state.iter().enumerate() {
        if tag(s) != ILLEGAL {
            used[e / 64] |= 1 << (e % 64);
        }
    }
    if coding.has_rule_values() {
        coding.chase_stages = rule
            .chase_stages()
            .map_err(|source| GenError::Game { table: sig, source })?;
    }
    let flags = if coding.has_rule_values() {
        FLAG_RULE_JUDGED | FLAG_RULE_DECIDES
    } else {
        FLAG_RULE_JUDGED
    };
    drop(state);
    let generated = Generated {
        signature: sig,
        codes,
        stats,
        flags,
        coding,
        used,
    };
    Ok((generated, MoveFacts(work.facts)))
}

/// Turns final states and rule values into file codes and statistics; unused indices repeat
/// the previous code. `None` when the codes do not fit in 16 bits.
fn finish(
    state: &[u16],
    rule: &crate::perpetual::RuleValues,
    size: u64,
) -> Option<(Vec<u16>, [HalfStats; 2], Coding)> {
    let value = |e: usize| -> Option<Value> {
        let s = state[e];
        match tag(s) {
            WIN => Some(Value::Win(dist(s))),
            LOSS => Some(Value::Loss(dist(s))),
            DRAW => Some(Value::Draw),
            ILLEGAL => None,
            // Undecided by the retrograde passes: the game's verdict.
            _ => Some(rule.value(e as u64).unwrap_or(Value::Draw)),
        }
    };
    let mut stats = [HalfStats::default(); 2];
    let (mut max_plies, mut stages) = (0u32, 0u32);
    for e in 0..state.len() {
        let half = &mut stats[(e as u64 / size) as usize];
        match value(e) {
            Some(Value::Win(d)) | Some(Value::Loss(d)) => {
                if matches!(value(e), Some(Value::Win(_))) {
                    half.wins += 1;
                } else {
                    half.losses += 1;
                }
                if d > half.max_dtm {
                    half.max_dtm = d;
                    half.max_dtm_index = e as u64 % size;
                }
            }
            Some(Value::RuleWin(r)) | Some(Value::RuleLoss(r)) => {
                if matches!(value(e), Some(Value::RuleWin(_))) {
                    half.rule_wins += 1;
                } else {
                    half.rule_losses += 1;
                }
                max_plies = max_plies.max(r.plies);
                stages = stages.max(r.stage + 1);
            }
            Some(Value::Draw) => half.draws += 1,
            None => half.unused += 1,
        }
    }
    let max_dtm = stats[0].max_dtm.max(stats[1].max_dtm);
    let coding = Coding::for_table(Metric::Dtm, max_dtm, max_plies, stages)?;
    let mut codes = Vec::with_capacity(state.len());
    let mut prev = 0u16;
    for e in 0..state.len() {
        let code = match value(e) {
            Some(v) => coding.encode(v)?,
            None => prev,
        };
        codes.push(code);
        prev = code;
    }
    Some((codes, stats, coding))
}
