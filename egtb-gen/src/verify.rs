//! `egtb-gen verify`: re-checks a table through the library's reader only, independently of
//! the generator's code (no unmoves, no counters, no shared state).
//!
//! 1. **Locally**, every legal position against its moves (forward move generation by the rules
//!    core; captures read from the smaller tables in the same directory): a position without a
//!    move is lost at 0; a position decided by mate, or drawn, holds exactly the best of its
//!    successors' values ([`Value`]'s order, one ply further; in a DTC table a capture or
//!    soldier's move into a position decided by mate is a win or loss at 1 ply,
//!    [`Metric::before_move`]); a position decided by the
//!    perpetual-check rule holds a rule value of the same kind as that best (a win when its
//!    best move leads to a rule loss, a loss when every move loses and one only by the rule).
//!    This proves every distance to mate (by induction on it), as in version 1, and every
//!    distance to conversion (by induction on the conversions still possible, then on it).
//! 2. **Globally**, the rule: the drawn and rule-decided positions form the game's region. Its
//!    edges (quiet moves inside it) are built into a plain adjacency array, and the game of
//!    `docs/egtb.md` is solved again for both winners by a different method than the
//!    generator's: every attractor is a sequence of sweeps (a node joins in sweep `k` when all
//!    its successors' ranks, looked at afresh, say so), not a backward search with counters
//!    kept up to date. Every stored stage and plies must equal the recomputed ones, and every stored
//!    draw must be won by neither side. Local consistency cannot show the latter: a cycle of
//!    wrongly drawn positions is locally consistent, so the game has to be solved again.
//!    When no position of a colour has a winning capture and no position of the other side lacks
//!    a move that gives no check (pass 1 counts them), that colour's game provably decides
//!    nothing (its stage 0 and first core are empty) and is not built: most tables with an
//!    attacking piece on one side only end there, without the memory of the adjacency array.
//! 3. The header's statistics must match the counts.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use chariot::egtb::{Indexer, Metric, RuleRank, Signature, TableFile, Value, is_conversion};
use chariot::rules::Waivers;
use chariot::rules::chase::chased;
use chariot::{Color, Position};
use rayon::prelude::*;

use crate::error::TableError;
use crate::loaded::Loaded;
use crate::perpetual::chase_targets;
use crate::run::readable_table;

/// The first inconsistency of a table, if any: (entry, FEN, stored, expected).
pub type Inconsistency = (u64, String, Value, Value);

/// Not a node of the region.
const NO_NODE: u32 = u32::MAX;

/// The region of the game, as plain arrays (node `i` is entry `entries[i]`).
struct Region {
    entries: Vec<u64>,
    mover: Vec<Color>,
    check: Vec<bool>,
    /// The best capture for the side to move: 0 loses (or none), 1 draws, 2 wins by the rule.
    exit: Vec<u8>,
    /// Successors of node `i`: `succ[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    succ: Vec<u32>,
    /// Per edge (as `succ`): the move chases something, and the kinds of the pieces it chases
    /// (bit per [`chariot::Kind`] index); only filled when the table judges chases.
    marks: Vec<(bool, u8)>,
    /// Predecessors, the same way (the successor lists turned round).
    pred_start: Vec<u32>,
    pred: Vec<u32>,
}

/// Per node: `None` not won (yet), or the stage and plies.
type Ranks = Vec<Option<(u16, i32)>>;

impl Region {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn successors(&self, v: usize) -> &[u32] {
        &self.succ[self.start[v] as usize..self.start[v + 1] as usize]
    }

    /// What the moves of node `v` chase, in the order of [`Region::successors`].
    fn marks(&self, v: usize) -> &[(bool, u8)] {
        &self.marks[self.start[v] as usize..self.start[v + 1] as usize]
    }

    fn predecessors(&self, v: usize) -> &[u32] {
        &self.pred[self.pred_start[v] as usize..self.pred_start[v + 1] as usize]
    }

    /// Builds the predecessor lists from the successor lists.
    fn turn_round(&mut self) {
        let n = self.len();
        let mut count = vec![0u32; n + 1];
        for &w in &self.succ {
            count[w as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut pred = vec![0u32; self.succ.len()];
        for v in 0..n {
            for &w in self.successors(v) {
                pred[fill[w as usize] as usize] = v as u32;
                fill[w as usize] += 1;
            }
        }
        self.pred_start = count;
        self.pred = pred;
    }

    /// An attractor by sweeps. `arena[v]`: may join. `target(w)`: the rank a node outside the
    /// arena counts with (`None`: not a target). `base(v)`: a P node that joins at 1 whatever
    /// its successors. `q_may(v)`: a Q node that may join at all. Sweep `k` adds the P nodes
    /// with a successor of rank `k - 1` and the Q nodes all of whose successors are ranked, the
    /// largest at `k - 1`. Returns the ranks of the nodes that joined.
    ///
    /// Sweeps 0 and 1 look at every node of the arena; later sweeps only at the predecessors
    /// of the nodes that joined in the sweep before (no other node can meet the conditions),
    /// each judged afresh from all its successors.
    fn sweep_attractor(
        &self,
        p: Color,
        arena: &[bool],
        target: &(dyn Fn(usize) -> Option<i32> + Sync),
        base: &(dyn Fn(usize) -> bool + Sync),
        q_may: &(dyn Fn(usize) -> bool + Sync),
    ) -> Vec<Option<i32>> {
        let n = self.len();
        let mut rank: Vec<Option<i32>> = vec![None; n];
        let mut k = 0i32;
        let mut last: Vec<usize> = Vec::new();
        loop {
            let candidates: Vec<usize> = if k <= 1 {
                (0..n).collect()
            } else {
                let mut c: Vec<usize> = last
                    .iter()
                    .flat_map(|&w| self.predecessors(w).iter().map(|&v| v as usize))
                    .collect();
                c.sort_unstable();
                c.dedup();
                c
            };
            let joined: Vec<usize> = candidates
                .into_par_iter()
                .filter(|&v| arena[v] && rank[v].is_none())
                .filter(|&v| {
                    let r = |w: u32| {
                        let w = w as usize;
                        if arena[w] { rank[w] } else { target(w) }
                    };
                    if self.mover[v] == p {
                        (k == 1 && base(v))
                            || self.successors(v).iter().any(|&w| r(w) == Some(k - 1))
                    } else {
                        q_may(v) && {
                            let mut worst = Some(-1);
                            for &w in self.successors(v) {
                                worst = match (worst, r(w)) {
                                    (Some(a), Some(b)) => Some(a.max(b)),
                                    _ => None,
                                };
                            }
                            worst == Some(k - 1)
                        }
                    }
                })
                .collect();
            if joined.is_empty() && k >= 1 {
                return rank;
            }
            for &v in &joined {
                rank[v] = Some(k);
            }
            last = joined;
            k += 1;
        }
    }

    /// Solves the game for winner `p` by sweeps: each level's core is a check core if there
    /// is one, else a chase core of the first target in `targets` that has one. Returns the
    /// ranks and, per level, whether its core is a chase core.
    fn solve(&self, p: Color, targets: &[u8]) -> (Ranks, Vec<bool>) {
        let n = self.len();
        let mut chase_levels = Vec::new();
        let mut won: Ranks = vec![None; n];
        let all = vec![true; n];
        // Stage 0: winning exits.
        let r = self.sweep_attractor(p, &all, &|_| None, &|v| self.exit[v] == 2, &|v| {
            self.exit[v] == 0
        });
        settle(&mut won, &r, 0);
        let mut stage = 1u16;
        loop {
            // Targets: the nodes won so far, as a move into them counts (P's moves reach Q
            // nodes: 0; Q's moves reach P nodes: −1).
            let eff =
                |won: &Ranks, w: usize| won[w].map(|_| if self.mover[w] == p { -1 } else { 0 });
            // The core: Z without Q's escapes, then Z := T until it holds.
            let z: Vec<bool> = (0..n)
                .map(|v| {
                    won[v].is_none()
                        && (self.mover[v] == p
                            || (self.exit[v] == 0
                                && self
                                    .successors(v)
                                    .iter()
                                    .all(|&w| won[w as usize].is_some() || self.check[w as usize])))
                })
                .collect();
            let mut core = self.core_by_sweeps(p, &won, z, None);
            let mut chase = false;
            for &t in targets {
                if core.iter().any(Option::is_some) {
                    break;
                }
                // Q's escapes: a move out of W that does not chase the target.
                let z: Vec<bool> = (0..n)
                    .map(|v| {
                        won[v].is_none()
                            && (self.mover[v] == p
                                || (self.exit[v] == 0
                                    && self.successors(v).iter().zip(self.marks(v)).all(
                                        |(&w, &(_, kinds))| {
                                            won[w as usize].is_some() || kinds >> t & 1 == 1
                                        },
                                    )))
                    })
                    .collect();
                core = self.core_by_sweeps(p, &won, z, Some(t));
                chase = true;
            }
            if core.iter().all(Option::is_none) {
                return (won, chase_levels);
            }
            chase_levels.push(chase);
            settle(&mut won, &core, stage);
            let arena: Vec<bool> = won.iter().map(Option::is_none).collect();
            let w0 = &won;
            let attracted = self.sweep_attractor(p, &arena, &|w| eff(w0, w), &|_| false, &|v| {
                self.exit[v] == 0
            });
            settle(&mut won, &attracted, stage + 1);
            stage += 2;
        }
    }

    /// The core within `z` (the region outside W without Q's escapes): `Z := T` until it holds,
    /// T being P's attractor within Z to its scoring moves into Z (no check; for a chase core
    /// of `target`, no chase either).
    fn core_by_sweeps(
        &self,
        p: Color,
        won: &Ranks,
        mut z: Vec<bool>,
        target: Option<u8>,
    ) -> Vec<Option<i32>> {
        let eff = |w: usize| won[w].map(|_| if self.mover[w] == p { -1 } else { 0 });
        loop {
            let zz = z.clone();
            let t = self.sweep_attractor(
                p,
                &z,
                &eff,
                &|v| {
                    self.successors(v)
                        .iter()
                        .zip(self.marks_or_none(v))
                        .any(|(&w, (chase, _))| {
                            zz[w as usize]
                                && !self.check[w as usize]
                                && !(target.is_some() && chase)
                        })
                },
                &|_| true,
            );
            let kept: Vec<bool> = t.iter().map(Option::is_some).collect();
            if kept == z {
                return t;
            }
            z = kept;
        }
    }

    /// [`Region::marks`], or no chase on every move when the table judges none.
    fn marks_or_none(&self, v: usize) -> impl Iterator<Item = (bool, u8)> + '_ {
        let n = self.successors(v).len();
        let marks = if self.marks.is_empty() {
            &[][..]
        } else {
            self.marks(v)
        };
        (0..n).map(move |i| marks.get(i).copied().unwrap_or((false, 0)))
    }
}

fn settle(won: &mut Ranks, joined: &[Option<i32>], stage: u16) {
    for (w, j) in won.iter_mut().zip(joined) {
        if let Some(r) = j {
            *w = Some((stage, *r));
        }
    }
}

/// What pass 1 finds in a chunk of entries.
#[derive(Default)]
struct Chunk {
    bad: Option<Inconsistency>,
    /// Per half: wins, draws, losses, rule wins, rule losses, unused.
    counts: [[u64; 6]; 2],
    /// Per colour as the winner: whether its game can decide anything (pass 1).
    possible: [bool; 2],
    entries: Vec<u64>,
    mover: Vec<Color>,
    check: Vec<bool>,
    exit: Vec<u8>,
    degree: Vec<u32>,
    succ: Vec<u32>,
    marks: Vec<(bool, u8)>,
}

/// Re-checks one table (see the module notes); `Ok(None)` when it is consistent.
///
/// # Errors
/// When the table or a table its captures lead to cannot be read, or the header's statistics
/// disagree with the table.
pub fn verify_table(path: &Path) -> Result<Option<Inconsistency>, TableError> {
    let t = TableFile::open(path).map_err(|source| TableError::File {
        path: path.to_owned(),
        source,
    })?;
    let h = t.header().clone();
    let dir = path.parent().unwrap_or(Path::new("."));
    let ix = Indexer::with_scheme(h.signature, h.key_scheme)?;
    let own = Arc::new(Loaded::from_file(&t).map_err(|source| TableError::Load {
        path: path.to_owned(),
        source,
    })?);
    let mut subs: HashMap<Signature, Arc<Loaded>> = HashMap::new();
    // A DTM table's captures need the DTM of the tables they lead to; a DTC table's only their
    // results, from either file.
    let metric = h.coding.metric;
    for s in h.signature.captures() {
        let p = readable_table(dir, s, metric == Metric::Dtm);
        let f = TableFile::open(&p).map_err(|source| TableError::File {
            path: p.clone(),
            source,
        })?;
        subs.insert(
            s,
            Arc::new(Loaded::from_file(&f).map_err(|source| TableError::Load {
                path: p.clone(),
                source,
            })?),
        );
    }
    subs.insert(h.signature, Arc::clone(&own));
    let size = ix.size();
    let total = 2 * size;
    let waivers = Waivers {
        placement: true,
        counts: true,
        opposite_check: false,
    };
    let legal = |e: u64| -> Option<Position> {
        let turn = if e < size { Color::Red } else { Color::Black };
        let p = ix.decode(e % size);
        if p.has_overlap() {
            return None;
        }
        Position::from_setup(&ix.setup(&p, turn), waivers).ok()
    };
    let value_of = |t: &Loaded, pos: &Position| -> Option<Value> {
        let (tt, i) = t.indexer.index_of(pos).ok()?;
        t.coding
            .decode(t.code(tt.index() as u64 * t.indexer.size() + i))
            .ok()
    };
    const CHUNK: u64 = 1 << 14;
    // The chase targets of each winner's game (none when the table judges no chase).
    let targets = [
        chase_targets(&ix, Color::Red),
        chase_targets(&ix, Color::Black),
    ];
    let judge_chase = targets.iter().any(|t| !t.is_empty());
    // Every move of a legal position, valued: the best value (`None` when some successor cannot
    // be read), the best capture for the game (0 loses, 1 draws, 2 wins) and the quiet moves
    // into the game's region (successors stored as draws or rule values), with whether they
    // check and (when the table judges chases) what they chase.
    type Edge = (u64, bool, (bool, u8));
    let explore = |pos: &mut Position, region: &mut Vec<Edge>| -> (Option<Value>, u8) {
        region.clear();
        let (mut best, mut exit) = (None::<Value>, 0u8);
        for &m in pos.legal_move_list().iter() {
            let capture = pos.is_capture(m);
            let mut marks = (false, 0u8);
            if judge_chase && !capture {
                for sq in chased(pos, m) {
                    marks.0 = true;
                    if let Some(piece) = pos.piece_at(sq) {
                        marks.1 |= 1 << piece.kind() as u8;
                    }
                }
            }
            pos.make_move(m);
            // A quiet move stays in this table; a capture leads to a smaller one.
            let child = if capture {
                subs.get(&Signature::of(pos).0)
                    .and_then(|t| value_of(t, pos))
            } else {
                ix.index_of(pos).ok().and_then(|(tt, i)| {
                    let entry = tt.index() as u64 * size + i;
                    let v = own.coding.decode(own.code(entry)).ok()?;
                    if v.dtm().is_none() {
                        region.push((entry, pos.in_check(), marks));
                    }
                    Some(v)
                })
            };
            pos.unmake_move();
            let Some(v) = child.map(|v| metric.before_move(v, is_conversion(pos, m))) else {
                return (None, exit);
            };
            best = Some(best.map_or(v, |b| b.max(v)));
            if capture {
                exit = exit.max(match v {
                    Value::RuleWin(_) | Value::Win(_) => 2,
                    Value::Draw => 1,
                    _ => 0,
                });
            }
        }
        (Some(best.unwrap_or(Value::Loss(0))), exit)
    };
    let in_region = |e: u64| {
        own.coding
            .decode(own.code(e))
            .is_ok_and(|v| v.dtm().is_none())
    };

    // Pass 1: local consistency, counts, and whether the game can decide anything at all. For
    // winner P it cannot when no P position has a winning capture and no position of the other
    // side lacks a way out that gives no check (then its stage 0 and first core are empty).
    let chunks: Vec<Chunk> = (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut out = Chunk::default();
            let mut region = Vec::new();
            for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                let half = (e / size) as usize;
                let Some(mut pos) = legal(e) else {
                    out.counts[half][5] += 1;
                    continue;
                };
                let Ok(stored) = own.coding.decode(own.code(e)) else {
                    out.bad = Some((e, pos.fen(), Value::Draw, Value::Draw));
                    return out;
                };
                out.counts[half][match stored {
                    Value::Win(_) => 0,
                    Value::Draw => 1,
                    Value::Loss(_) => 2,
                    Value::RuleWin(_) => 3,
                    Value::RuleLoss(_) => 4,
                }] += 1;
                let (best, exit) = explore(&mut pos, &mut region);
                let Some(expected) = best else {
                    out.bad = Some((e, pos.fen(), stored, Value::Draw));
                    return out;
                };
                let agrees = match stored {
                    Value::RuleWin(_) => matches!(expected, Value::RuleWin(_)),
                    Value::RuleLoss(_) => matches!(expected, Value::RuleLoss(_)),
                    _ => expected == stored,
                };
                if !agrees {
                    out.bad = Some((e, pos.fen(), stored, expected));
                    return out;
                }
                if in_region(e) {
                    let mover = pos.turn().index();
                    if exit == 2 {
                        out.possible[mover] = true;
                    }
                    if exit == 0 && region.iter().all(|&(_, check, _)| check) {
                        out.possible[1 - mover] = true;
                    }
                }
            }
            out
        })
        .collect();
    let mut counts = [[0u64; 6]; 2];
    let mut possible = [false; 2];
    for c in &chunks {
        if let Some(bad) = &c.bad {
            return Ok(Some(bad.clone()));
        }
        for (total, part) in counts.iter_mut().zip(c.counts) {
            for (t, p) in total.iter_mut().zip(part) {
                *t += p;
            }
        }
        possible[0] |= c.possible[0];
        possible[1] |= c.possible[1];
    }
    drop(chunks);
    for (half, s) in h.stats.iter().enumerate() {
        let header = [
            s.wins,
            s.draws,
            s.losses,
            s.rule_wins,
            s.rule_losses,
            s.unused,
        ];
        if header != counts[half] {
            return Err(TableError::Header {
                path: path.to_owned(),
                reason: format!(
                    "header statistics {header:?} do not match the table's {:?} (wins, draws, losses, rule wins, rule losses, unused)",
                    counts[half]
                ),
            });
        }
    }
    // A chase core needs no check: with chase targets the games are always solved.
    if judge_chase {
        possible = [true, true];
    }
    if !possible[0] && !possible[1] {
        // The game decides nothing: no rule value may be stored.
        let bad = (0..total).into_par_iter().find_map_first(|e| {
            let v = own.coding.decode(own.code(e)).ok()?;
            (v.by_rule() && legal(e).is_some()).then_some(e)
        });
        return Ok(bad.map(|e| {
            let fen = legal(e).map_or_else(String::new, |p| p.fen());
            let stored = own.coding.decode(own.code(e)).unwrap_or(Value::Draw);
            (e, fen, stored, Value::Draw)
        }));
    }

    // Pass 2: the region's nodes and edges, then the game solved again.
    let mut node_of = vec![NO_NODE; total as usize];
    let mut nodes = 0u32;
    for e in 0..total {
        if in_region(e) && legal(e).is_some() {
            node_of[e as usize] = nodes;
            nodes += 1;
        }
    }
    let chunks: Vec<Chunk> = (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut out = Chunk::default();
            let mut region = Vec::new();
            for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                if node_of[e as usize] == NO_NODE {
                    continue;
                }
                let Some(mut pos) = legal(e) else {
                    continue;
                };
                let (_, exit) = explore(&mut pos, &mut region);
                out.entries.push(e);
                out.mover.push(pos.turn());
                out.check.push(pos.in_check());
                out.exit.push(exit);
                out.degree.push(region.len() as u32);
                out.succ
                    .extend(region.iter().map(|&(w, _, _)| node_of[w as usize]));
                if judge_chase {
                    out.marks.extend(region.iter().map(|&(_, _, m)| m));
                }
            }
            out
        })
        .collect();
    let mut region = Region {
        entries: Vec::with_capacity(nodes as usize),
        mover: Vec::with_capacity(nodes as usize),
        check: Vec::with_capacity(nodes as usize),
        exit: Vec::with_capacity(nodes as usize),
        start: Vec::with_capacity(nodes as usize + 1),
        // Sized exactly: the edges are most of the memory verify needs.
        succ: Vec::with_capacity(chunks.iter().map(|c| c.succ.len()).sum()),
        marks: Vec::new(),
        pred_start: Vec::new(),
        pred: Vec::new(),
    };
    region.start.push(0);
    for c in chunks {
        region.entries.extend(c.entries);
        region.mover.extend(c.mover);
        region.check.extend(c.check);
        region.exit.extend(c.exit);
        for d in c.degree {
            let last = *region.start.last().unwrap_or(&0);
            region.start.push(last + d);
        }
        region.succ.extend(c.succ);
        region.marks.extend(c.marks);
    }
    drop(node_of);
    region.turn_round();
    let mut solutions: Vec<(Color, Ranks)> = Vec::new();
    for p in Color::ALL {
        let (ranks, chase_levels) = region.solve(p, &targets[p.index()]);
        let mut bits = 0u128;
        for (level, &chase) in chase_levels.iter().enumerate() {
            if chase {
                bits |= 1 << (2 * level + 1);
            }
        }
        // A level whose core holds no position of the table is not a stage of the file.
        let used = ranks.iter().flatten().map(|r| r.0 + 1).max().unwrap_or(0);
        let keep = if used >= 128 { !0 } else { (1u128 << used) - 1 };
        if bits & keep != h.coding.chase_stages[p.index()] {
            return Err(TableError::Header {
                path: path.to_owned(),
                reason: format!(
                    "chase stages {:#x} of {p:?}'s game in the header, {:#x} solved again",
                    h.coding.chase_stages[p.index()],
                    bits & keep
                ),
            });
        }
        solutions.push((p, ranks));
    }
    let bad = (0..region.len()).into_par_iter().find_map_first(|v| {
        let e = region.entries[v];
        let stored = own.coding.decode(own.code(e)).ok()?;
        let mut expected = Value::Draw;
        for (_, won) in &solutions {
            if let Some((stage, plies)) = won[v] {
                let rank = RuleRank {
                    stage: u32::from(stage),
                    plies: plies as u32,
                };
                let value = if plies % 2 == 1 {
                    Value::RuleWin(rank)
                } else {
                    Value::RuleLoss(rank)
                };
                if expected != Value::Draw {
                    // Both sides win: impossible in a correct solution.
                    return Some((e, value));
                }
                expected = value;
            }
        }
        (expected != stored).then_some((e, expected))
    });
    Ok(bad.map(|(e, expected)| {
        let fen = legal(e).map_or_else(String::new, |p| p.fen());
        let stored = own.coding.decode(own.code(e)).unwrap_or(Value::Draw);
        (e, fen, stored, expected)
    }))
}
