//! The perpetual-check rule as a game on the positions the retrograde analysis leaves undecided.
//!
//! # The game
//!
//! The *region* is the set of undecided positions: from none of them can either side force mate.
//! A move either stays in the region or leaves it: a capture (valued in a smaller table, where the
//! rule may have decided too) or a quiet move into a decided position of this table (always a loss
//! for the mover, or the position would be decided). A move *checks* when the side it leads to is
//! in check, so a check is a property of the position moved to ([`GameGraph::in_check`]).
//!
//! A play that stays in the region forever is judged by the rule: if from some point on one side
//! checks on every move and the other does not, the checking side loses; otherwise (neither checks
//! forever, or both do) it is a draw.
//!
//! The chase rule adds a second kind of core (`docs/egtb.md`, "The chase rule in the game"): Q
//! chases P's only piece of a kind on every move and P makes *idle* moves (neither checking nor
//! chasing) infinitely often. Each level's core is a check core if there is one, else a chase
//! core of the first target that has one ([`CoreKind`]); this is sound, and exact when the game
//! has no chase targets.
//!
//! Whether `P` wins is a zero-sum game on its own: `P` wins a play that leaves the region with a
//! win for `P` (a capture into a smaller table's rule win for `P`, or the opponent `Q` moving into
//! a decided loss), or that stays in the region with Q checking on every move from some point on
//! (co-Büchi: Q's non-checking moves are finite) while P makes a non-checking move infinitely
//! often (Büchi). That is a Rabin condition with one pair; it is solved for `P = Red` and for
//! `P = Black` separately, and the two winning regions are disjoint (a play cannot have both
//! sides check forever while the other does not). Everything else in the region is a draw.
//!
//! # The solution: stages and plies
//!
//! The standard nested fixed point, computed with attractors (backward search with counters of
//! unrefuted moves, exactly like the retrograde passes):
//!
//! - **stage 0**: `W0`, the positions from which P forces a winning exit (P's attractor to them).
//! - for `i = 1, 2, ...`, given `W` (the union of the earlier stages):
//!   - **stage `2i - 1`, the core `B_i`**: P's winning region in the game restricted to the
//!     region outside `W`, in which reaching `W` wins for P, any move of Q that is not a check
//!     and stays outside `W` (or a capture that does not lose for Q) wins for Q, and an infinite
//!     play wins for P when P makes a non-checking move infinitely often. This Büchi game is
//!     solved by the usual greatest fixed point: `Z` starts as the region outside `W` without
//!     the positions where Q has such an escape; `T` is the set from which P forces a
//!     non-checking move of its own into `Z` (or reaching `W`) while Q's moves stay in `T` or go
//!     into `W`; `Z := T` until it no longer shrinks. When `B_i` is empty, the computation ends.
//!   - **stage `2i`**: P's attractor to `W ∪ B_i` (Q may move as it likes on the way).
//!
//! Within a stage every position carries *plies*, odd when P is to move and even when Q is:
//!
//! - attractor stages: P's plies are `1 + min` over its moves into this stage (a move into an
//!   earlier stage, or a winning exit, counts 0), Q's are `1 + max` over its moves into this
//!   stage (into an earlier stage or a losing exit: −1). So it is the number of plies until play
//!   reaches an earlier stage.
//! - core stages: P's plies are 1 if P has a non-checking move into the core (or a move into an
//!   earlier stage), otherwise `1 + min` over its checks into the core; Q's are `1 + max` over
//!   its moves into the core (all of them checks). So it is the number of plies until P's next
//!   non-checking move, during which Q checks on every move.
//!
//! Read as a lexicographic measure `(stage, plies)`, this is a certificate that P wins: along
//! P's strategy (into an earlier stage if it can, else the move that lowers the plies, except
//! that in a core P may make any non-checking move that stays in the core), every move lowers
//! the measure except P's non-checking moves inside a core, Q's moves inside a core are checks,
//! and the stage never rises. So every infinite play ends up in one core with Q checking on
//! every move and P not checking infinitely often. `docs/egtb.md` gives the full argument.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU16, Ordering::Relaxed};

use chariot_rules::Color;
use rayon::prelude::*;

use crate::region::Region;

/// The best a move out of the region gives the side to move there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    /// Every move out of the region loses (or there is none).
    Lose,
    /// Some move out of the region draws, none wins.
    Draw,
    /// Some move out of the region wins by the rule (a capture into a smaller table).
    Win,
}

/// What the loser does forever in a core, read from its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CoreKind {
    /// The loser checks on every move; the winner makes a move that gives no check infinitely
    /// often.
    Check,
    /// The loser chases the winner's only piece of this kind (a [`chariot_rules::Kind`] index) on
    /// every move; the winner makes a move that neither checks nor chases infinitely often.
    Chase(u8),
}

/// The positions of one table as a game graph. Node ids run over `0..nodes()`; only nodes in the
/// region take part.
pub trait GameGraph: Sync {
    /// The number of node ids.
    fn nodes(&self) -> u64;
    /// `true` when the node is in the region (undecided by the retrograde passes).
    fn in_region(&self, v: u64) -> bool;
    /// The side to move at the node.
    fn mover(&self, v: u64) -> Color;
    /// `true` when the side to move is in check, i.e. every move to this node is a check.
    fn in_check(&self, v: u64) -> bool;
    /// The best move out of the region, for the side to move.
    fn exit(&self, v: u64) -> Exit;
    /// Calls `f` once for every move from `v` that stays in the table (nodes outside the region
    /// may be given; they are ignored).
    fn successors(&self, v: u64, f: impl FnMut(u64));
    /// Calls `f` once for every (node, move) pair whose move leads to `w` (nodes outside the
    /// region may be given; they are ignored).
    fn predecessors(&self, w: u64, f: impl FnMut(u64));
    /// The kinds (as [`chariot_rules::Kind`] indices) of the winner's pieces whose perpetual chase by
    /// the loser the game judges: none when the chase rule is not judged for the table.
    fn chase_targets(&self, winner: Color) -> Vec<u8>;
    /// Of the targets `targets` (bit `t` for the kind with [`chariot_rules::Kind`] index `t`), those
    /// for which the side to move at `v` has a move to a node `w` with `into(w)` that does not
    /// chase the opponent's only piece of that kind. Only called with targets of
    /// [`GameGraph::chase_targets`].
    fn moves_not_chasing(&self, v: u64, targets: u8, into: impl Fn(u64) -> bool) -> u8;
    /// `true` when the side to move at `v` has an *idle* move (it neither checks nor chases) to
    /// a node `w` with `into(w)`. Only called when [`GameGraph::chase_targets`] gave a target.
    fn has_idle_move(&self, v: u64, into: impl Fn(u64) -> bool) -> bool;
}

/// Where a node won by the rule stands: see the module notes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rank {
    /// The stage: 0 for wins by exits, `2i - 1` for the core of level `i`, `2i` for its attractor.
    pub stage: u16,
    /// Plies within the stage: odd for the winner to move, even for the loser.
    pub plies: u16,
}

/// Why the game could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// More stages or plies than 16 bits hold.
    #[error("the perpetual-check game needs more than {} stages or plies", u16::MAX - 1)]
    TooDeep,
}

/// The nodes P wins, with their ranks.
pub struct Solution {
    /// The winner.
    pub winner: Color,
    /// The region the arrays are numbered by.
    region: Arc<Region>,
    /// Stage per region node (by its dense number), [`NONE`] when P does not win it.
    stage: Vec<u16>,
    /// Plies per region node (meaningful where the stage is set).
    plies: Vec<u16>,
    /// The number of stages used (0 when P wins nothing).
    pub stages: u16,
    /// The kind of each level's core: level `i` (from 1) is stage `2i - 1`, `kinds[i - 1]`.
    pub kinds: Vec<CoreKind>,
}

impl Solution {
    /// The rank of node `v`, if P wins it.
    #[must_use]
    pub fn rank(&self, v: u64) -> Option<Rank> {
        let r = self.region.get(v)?;
        let stage = self.stage[r];
        (stage != NONE).then(|| Rank {
            stage,
            plies: self.plies[r],
        })
    }

    /// The number of nodes P wins.
    #[must_use]
    pub fn count(&self) -> usize {
        self.stage.iter().filter(|&&s| s != NONE).count()
    }
}

/// No stage: the node is not won (yet).
pub const NONE: u16 = u16::MAX;

/// Not in the arena of the current computation.
const OUT: u8 = 0;
/// In the arena, not (yet) attracted.
const ARENA: u8 = 1;
/// Attracted in the current computation.
const JOINED: u8 = 2;

/// Per region node (by its dense number in the [`Region`]), counts of moves that stay in the
/// region ([`prepare`] or [`Degrees::new`]).
#[derive(Clone)]
pub struct Degrees {
    /// Moves into the region.
    out: Vec<u8>,
    /// Moves into the region that give no check.
    quiet: Vec<u8>,
}

impl Degrees {
    /// Degrees known already: per node of the table (`out` and `quiet` as long as the node
    /// count), its moves into the region and those of them that give no check (the generator
    /// keeps both while it refutes moves); kept for the region's nodes only.
    #[must_use]
    pub fn new(out: Vec<u8>, quiet: Vec<u8>, region: &Region) -> Degrees {
        let pick = |all: Vec<u8>| -> Vec<u8> {
            let mut kept = Vec::with_capacity(region.len());
            kept.extend(region.scan(1 << 16, |v, _| Some(all[v as usize])));
            kept
        };
        Degrees {
            out: pick(out),
            quiet: pick(quiet),
        }
    }

    /// The moves into the region of the node numbered `r` in the region: all, and those that
    /// give no check.
    #[must_use]
    pub fn of(&self, r: usize) -> (u8, u8) {
        (self.out[r], self.quiet[r])
    }
}

/// The region of `g`, numbered densely.
#[must_use]
pub fn region_of<G: GameGraph>(g: &G) -> Region {
    Region::new(g.nodes(), |v| g.in_region(v))
}

/// Counts every region node's moves into the region by generating them.
pub fn prepare<G: GameGraph>(g: &G, region: &Region) -> Degrees {
    let counts: Vec<(u8, u8)> = region.scan(1 << 12, |v, _| {
        let (mut out, mut quiet) = (0u8, 0u8);
        g.successors(v, |w| {
            if g.in_region(w) {
                out += 1;
                quiet += u8::from(!g.in_check(w));
            }
        });
        Some((out, quiet))
    });
    Degrees {
        out: counts.iter().map(|c| c.0).collect(),
        quiet: counts.iter().map(|c| c.1).collect(),
    }
}

/// The game's working arrays, one entry per region node (by its dense number).
struct Solver<'a, G: GameGraph> {
    g: &'a G,
    p: Color,
    region: &'a Region,
    stage: Vec<AtomicU16>,
    plies: Vec<AtomicU16>,
    /// The counter of the current attractor (Q nodes: moves not yet joined).
    cnt: Vec<AtomicU8>,
    mark: Vec<AtomicU8>,
    /// Moves into the region not (yet) won by P.
    out: Vec<AtomicU8>,
    /// Moves into the region that give no check and are not (yet) won by P: Q's escapes.
    quiet: Vec<AtomicU8>,
}

/// Nodes in chunks for the parallel scans.
const CHUNK: u64 = 1 << 12;

impl<G: GameGraph> Solver<'_, G> {
    /// The dense number of region node `v`.
    #[inline]
    fn at(&self, v: u64) -> usize {
        self.region.at(v)
    }

    fn won(&self, v: u64) -> bool {
        self.stage[self.at(v)].load(Relaxed) != NONE
    }

    fn mark(&self, v: u64) -> u8 {
        self.mark[self.at(v)].load(Relaxed)
    }

    fn set_mark(&self, v: u64, m: u8) {
        self.mark[self.at(v)].store(m, Relaxed);
    }

    fn is_p(&self, v: u64) -> bool {
        self.g.mover(v) == self.p
    }

    /// Calls `f` for every region node, in parallel; collects what it returns. A scan reads and
    /// writes only the per-node arrays (no move generation), so it is cheap.
    fn scan<T: Send>(&self, f: impl Fn(u64) -> Option<T> + Sync) -> Vec<T> {
        self.region.scan(CHUNK, |v, _| f(v))
    }

    /// Backward search through the nodes marked [`ARENA`]. `seeds` (node, rank) are arena
    /// nodes that join with their rank (a node given twice joins once); `sources` (node, rank
    /// from −1) are nodes outside the arena that count as reached with that rank. A P node joins
    /// at `rank + 1` when a move reaches a joined node or source (the least such rank), a Q node
    /// when its counter of moves not yet reached drops to zero (one more than the largest rank
    /// among them). Joined nodes are marked [`JOINED`] with their rank in `plies`. Returns them.
    fn attract(
        &self,
        seeds: Vec<(u64, i32)>,
        sources: Vec<(u64, i32)>,
    ) -> Result<Vec<u64>, GameError> {
        let mut layers: Vec<Vec<u64>> = Vec::new();
        let mut joined = Vec::new();
        let put = |layers: &mut Vec<Vec<u64>>, v: u64, r: i32| {
            let at = (r + 1) as usize;
            if layers.len() <= at {
                layers.resize_with(at + 1, Vec::new);
            }
            layers[at].push(v);
        };
        for (v, r) in seeds {
            if self.mark(v) == ARENA {
                self.set_mark(v, JOINED);
                self.plies[self.at(v)].store(r as u16, Relaxed);
                joined.push(v);
                put(&mut layers, v, r);
            }
        }
        for (v, r) in sources {
            put(&mut layers, v, r);
        }
        let mut at = 0;
        while at < layers.len() {
            let frontier = std::mem::take(&mut layers[at]);
            if frontier.is_empty() {
                at += 1;
                continue;
            }
            let rank = at as i32; // the rank of what joins now: one more than the frontier's
            if rank >= i32::from(NONE) {
                return Err(GameError::TooDeep);
            }
            let next: Vec<u64> = frontier
                .par_iter()
                .fold(Vec::new, |mut out, &w| {
                    self.g.predecessors(w, |v| {
                        if !self.g.in_region(v) || self.mark(v) != ARENA {
                            return;
                        }
                        let claim = if self.is_p(v) {
                            self.mark[self.at(v)]
                                .compare_exchange(ARENA, JOINED, Relaxed, Relaxed)
                                .is_ok()
                        } else {
                            self.cnt[self.at(v)].fetch_sub(1, Relaxed) == 1
                                && self.mark[self.at(v)]
                                    .compare_exchange(ARENA, JOINED, Relaxed, Relaxed)
                                    .is_ok()
                        };
                        if claim {
                            self.plies[self.at(v)].store(rank as u16, Relaxed);
                            out.push(v);
                        }
                    });
                    out
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            if !next.is_empty() {
                joined.extend_from_slice(&next);
                for &v in &next {
                    put(&mut layers, v, rank);
                }
            }
            at += 1;
        }
        Ok(joined)
    }

    /// Gives every node in `nodes` the stage `s` (their plies are already set).
    fn settle(&self, nodes: &[u64], s: u16) {
        nodes.par_iter().for_each(|&v| {
            self.stage[self.at(v)].store(s, Relaxed);
            self.mark[self.at(v)].store(OUT, Relaxed);
        });
    }

    /// Updates the counters of the predecessors of nodes just won.
    fn retire(&self, nodes: &[u64]) {
        nodes.par_iter().for_each(|&w| {
            let quiet = !self.g.in_check(w);
            self.g.predecessors(w, |v| {
                if self.g.in_region(v) {
                    self.out[self.at(v)].fetch_sub(1, Relaxed);
                    if quiet {
                        self.quiet[self.at(v)].fetch_sub(1, Relaxed);
                    }
                }
            });
        });
    }

    fn clear_marks(&self) {
        self.mark.par_iter().for_each(|m| m.store(OUT, Relaxed));
    }

    /// Stage 0: the attractor to winning exits.
    fn exits(&self) -> Result<(), GameError> {
        let seeds = self.scan(|v| {
            if self.is_p(v) {
                self.set_mark(v, ARENA);
                return (self.g.exit(v) == Exit::Win).then_some((v, 1));
            }
            if self.g.exit(v) != Exit::Lose {
                return None;
            }
            let n = self.out[self.at(v)].load(Relaxed);
            self.cnt[self.at(v)].store(n, Relaxed);
            self.set_mark(v, ARENA);
            (n == 0).then_some((v, 0))
        });
        let joined = self.attract(seeds, Vec::new())?;
        self.settle(&joined, 0);
        self.retire(&joined);
        self.clear_marks();
        Ok(())
    }

    /// The core of the next level, of the given kind: P's Büchi region in the restricted game.
    /// Returns its nodes (with their plies set, stage not yet). `W` (the nodes won so far) is
    /// closed under P's attractor here, so no node of the region outside it has a move into it
    /// that P could use: P's only way to score is a move into `Z` that gives no check (in a
    /// chase core: that neither checks nor chases).
    ///
    /// Q's escapes and P's scoring moves of a check core depend only on the position moved to
    /// (kept in counters, seeds found backwards from Q's positions); those of a chase core
    /// depend on the move, so they are read from the moves themselves.
    ///
    /// `escapes` are this level's ([`Solver::escapes`]); a check core needs none.
    fn core(&self, kind: CoreKind, escapes: Option<&[AtomicU8]>) -> Result<Vec<u64>, GameError> {
        // Z: the region outside W without Q's escapes (a capture that does not lose, or a move
        // that stays outside W and gives no check, or in a chase core does not chase).
        let mut size = self
            .scan(|v| {
                if self.won(v) {
                    return None;
                }
                let escape = !self.is_p(v)
                    && (self.g.exit(v) != Exit::Lose
                        || match kind {
                            CoreKind::Check => self.quiet[self.at(v)].load(Relaxed) > 0,
                            CoreKind::Chase(t) => {
                                escapes.is_some_and(|e| e[self.at(v)].load(Relaxed) >> t & 1 == 1)
                            }
                        });
                if escape {
                    return None;
                }
                self.set_mark(v, ARENA);
                Some(())
            })
            .len();
        loop {
            if size == 0 {
                return Ok(Vec::new());
            }
            // T: P forces a scoring move of its own into Z (or a move into W); Q's moves stay
            // in T or go into W. Q's counters: its moves not into W.
            let q_nodes: Vec<(u64, bool)> = self.scan(|v| {
                if self.mark(v) != ARENA || self.is_p(v) {
                    return None;
                }
                let n = self.out[self.at(v)].load(Relaxed);
                self.cnt[self.at(v)].store(n, Relaxed);
                Some((v, n == 0))
            });
            let mut seeds: Vec<(u64, i32)> = match kind {
                // The predecessors of Q's nodes in Z that are not in check.
                CoreKind::Check => self
                    .arena_predecessors(&q_nodes, |w| !self.g.in_check(w))
                    .into_iter()
                    .map(|v| (v, 1))
                    .collect(),
                // P's nodes in Z with an idle move into Z: a move into Z reaches one of Q's
                // nodes in Z, so only their predecessors are asked (Z's Q nodes are those that
                // chase on every move, usually few).
                CoreKind::Chase(_) => {
                    let mut candidates = self.arena_predecessors(&q_nodes, |_| true);
                    candidates.par_sort_unstable();
                    candidates.dedup();
                    candidates
                        .into_par_iter()
                        .filter(|&v| {
                            self.g
                                .has_idle_move(v, |w| self.g.in_region(w) && self.mark(w) == ARENA)
                        })
                        .map(|v| (v, 1))
                        .collect()
                }
            };
            seeds.extend(q_nodes.iter().filter(|q| q.1).map(|q| (q.0, 0)));
            let t = self.attract(seeds, Vec::new())?;
            if t.len() == size {
                return Ok(t);
            }
            // Z := T.
            self.scan(|v| {
                match self.mark(v) {
                    JOINED => self.set_mark(v, ARENA),
                    ARENA => self.set_mark(v, OUT),
                    _ => {}
                }
                None::<()>
            });
            size = t.len();
        }
    }

    /// The predecessors marked [`ARENA`] of the nodes `nodes` (`.0`) that `keep` accepts; a
    /// predecessor may come more than once.
    fn arena_predecessors(
        &self,
        nodes: &[(u64, bool)],
        keep: impl Fn(u64) -> bool + Sync,
    ) -> Vec<u64> {
        nodes
            .par_iter()
            .filter(|&&(w, _)| keep(w))
            .fold(Vec::new, |mut out, &(w, _)| {
                self.g.predecessors(w, |v| {
                    if self.g.in_region(v) && self.mark(v) == ARENA {
                        out.push(v);
                    }
                });
                out
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            })
    }

    /// Per region node where Q is to move, not won and without a move out of the region that
    /// does not lose, the chase targets (bit `t` of `targets` for the [`chariot_rules::Kind`] index
    /// `t`) for which Q has a move that stays outside W and does not chase that target: its
    /// escapes from a chase core of that target. Found once for all targets of a level (W
    /// grows from level to level), in one pass over Q's moves.
    fn escapes(&self, targets: u8) -> Vec<AtomicU8> {
        let escapes: Vec<AtomicU8> = (0..self.region.len()).map(|_| AtomicU8::new(0)).collect();
        self.scan(|v| {
            if !self.won(v) && !self.is_p(v) && self.g.exit(v) == Exit::Lose {
                let found = self
                    .g
                    .moves_not_chasing(v, targets, |w| self.g.in_region(w) && !self.won(w));
                escapes[self.at(v)].store(found, Relaxed);
            }
            None::<()>
        });
        escapes
    }

    /// P's attractor to W and the core just found (settled, but not yet retired: the
    /// counters still count moves into it).
    fn level_attractor(&self, core: &[u64]) -> Result<Vec<u64>, GameError> {
        self.scan(|v| {
            if self.won(v) {
                return None;
            }
            if !self.is_p(v) {
                if self.g.exit(v) != Exit::Lose {
                    return None;
                }
                let n = self.out[self.at(v)].load(Relaxed);
                self.cnt[self.at(v)].store(n, Relaxed);
            }
            self.set_mark(v, ARENA);
            None::<()>
        });
        let sources = core
            .iter()
            .map(|&v| (v, if self.is_p(v) { -1 } else { 0 }))
            .collect();
        self.attract(Vec::new(), sources)
    }
}

/// Solves the game for winner `p`: every region node P wins, with its rank. `region` is the
/// graph's region, `degrees` come from [`prepare`] on the same graph (or [`Degrees::new`]);
/// the solver counts them down in place (so a caller that solves for both winners passes a
/// clone the first time).
///
/// # Errors
/// [`GameError::TooDeep`] when stages or plies exceed 16 bits.
pub fn solve<G: GameGraph>(
    g: &G,
    region: &Arc<Region>,
    degrees: Degrees,
    p: Color,
) -> Result<Solution, GameError> {
    let n = region.len();
    let s = Solver {
        g,
        p,
        region,
        stage: (0..n).map(|_| AtomicU16::new(NONE)).collect(),
        plies: (0..n).map(|_| AtomicU16::new(0)).collect(),
        cnt: (0..n).map(|_| AtomicU8::new(0)).collect(),
        mark: (0..n).map(|_| AtomicU8::new(OUT)).collect(),
        // In place: the same allocations, as atomics.
        out: degrees.out.into_iter().map(AtomicU8::new).collect(),
        quiet: degrees.quiet.into_iter().map(AtomicU8::new).collect(),
    };
    s.exits()?;
    let targets = g.chase_targets(p);
    let mut kinds = Vec::new();
    let mut stages = 1u16;
    loop {
        // The perpetual check first, then a chase of each target: the first core found is
        // this level's. When none is found, no further level can be.
        let mut kind = CoreKind::Check;
        let mut core = s.core(kind, None)?;
        if core.is_empty() && !targets.is_empty() {
            let escapes = s.escapes(targets.iter().fold(0, |m, &t| m | 1 << t));
            for &t in &targets {
                s.clear_marks();
                kind = CoreKind::Chase(t);
                core = s.core(kind, Some(&escapes))?;
                if !core.is_empty() {
                    break;
                }
            }
        }
        if core.is_empty() {
            break;
        }
        kinds.push(kind);
        if stages >= NONE - 2 {
            return Err(GameError::TooDeep);
        }
        s.settle(&core, stages);
        s.clear_marks();
        let attracted = s.level_attractor(&core)?;
        s.settle(&attracted, stages + 1);
        s.retire(&core);
        s.retire(&attracted);
        s.clear_marks();
        stages += 2;
    }
    let stage: Vec<u16> = s.stage.into_iter().map(AtomicU16::into_inner).collect();
    // Trailing stages with no node (an empty last attractor) are not counted.
    let used = stage
        .iter()
        .filter(|&&x| x != NONE)
        .max()
        .map_or(0, |&m| m + 1);
    Ok(Solution {
        winner: p,
        region: Arc::clone(region),
        stage,
        plies: s.plies.into_iter().map(AtomicU16::into_inner).collect(),
        stages: used,
        kinds: kinds.into_iter().take(usize::from(used / 2)).collect(),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// What a move of a test graph does to the opponent's pieces, for the chase rule.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Marks {
        /// The move chases some enemy piece.
        pub chase: bool,
        /// Bit `k`: the move chases the enemy's only piece of kind `k`.
        pub targets: u8,
    }

    /// A small explicit game graph for tests.
    #[derive(Clone, Debug, Default)]
    pub struct Explicit {
        pub mover: Vec<Color>,
        pub check: Vec<bool>,
        pub exit: Vec<Exit>,
        pub succ: Vec<Vec<u64>>,
        pub pred: Vec<Vec<u64>>,
        /// Per node, per successor: what the move chases.
        pub marks: Vec<Vec<Marks>>,
        /// Per winner (Red, Black): the targets of the chase games.
        pub targets: [Vec<u8>; 2],
    }

    impl Explicit {
        /// Adds a node; returns its id.
        pub fn node(&mut self, mover: Color, check: bool, exit: Exit) -> u64 {
            self.mover.push(mover);
            self.check.push(check);
            self.exit.push(exit);
            self.succ.push(Vec::new());
            self.pred.push(Vec::new());
            self.marks.push(Vec::new());
            self.mover.len() as u64 - 1
        }

        pub fn edge(&mut self, v: u64, w: u64) {
            self.marked_edge(v, w, Marks::default());
        }

        pub fn marked_edge(&mut self, v: u64, w: u64, m: Marks) {
            assert_ne!(self.mover[v as usize], self.mover[w as usize]);
            self.succ[v as usize].push(w);
            self.pred[w as usize].push(v);
            self.marks[v as usize].push(m);
        }
    }

    impl GameGraph for Explicit {
        fn nodes(&self) -> u64 {
            self.mover.len() as u64
        }
        fn in_region(&self, _: u64) -> bool {
            true
        }
        fn mover(&self, v: u64) -> Color {
            self.mover[v as usize]
        }
        fn in_check(&self, v: u64) -> bool {
            self.check[v as usize]
        }
        fn exit(&self, v: u64) -> Exit {
            self.exit[v as usize]
        }
        fn successors(&self, v: u64, mut f: impl FnMut(u64)) {
            self.succ[v as usize].iter().for_each(|&w| f(w));
        }
        fn predecessors(&self, w: u64, mut f: impl FnMut(u64)) {
            self.pred[w as usize].iter().for_each(|&v| f(v));
        }
        fn chase_targets(&self, winner: Color) -> Vec<u8> {
            self.targets[winner.index()].clone()
        }
        fn moves_not_chasing(&self, v: u64, targets: u8, into: impl Fn(u64) -> bool) -> u8 {
            let moves = self.succ[v as usize].iter().zip(&self.marks[v as usize]);
            moves
                .into_iter()
                .filter(|&(&w, _)| into(w))
                .fold(0, |found, (_, m)| found | (targets & !m.targets))
        }
        fn has_idle_move(&self, v: u64, into: impl Fn(u64) -> bool) -> bool {
            let moves = self.succ[v as usize].iter().zip(&self.marks[v as usize]);
            moves
                .into_iter()
                .any(|(&w, m)| into(w) && !m.chase && !self.check[w as usize])
        }
    }

    const R: Color = Color::Red;
    const B: Color = Color::Black;

    /// The game of `g` solved for winner `p`, its degrees counted by [`prepare`].
    fn solved<G: GameGraph>(g: &G, p: Color) -> Solution {
        let region = Arc::new(region_of(g));
        solve(g, &region, prepare(g, &region), p).unwrap()
    }

    fn rank(stage: u16, plies: u16) -> Option<Rank> {
        Some(Rank { stage, plies })
    }

    #[test]
    fn a_side_that_must_check_forever_loses() {
        let mut g = Explicit::default();
        // Black to move, not in check; its only move checks Red, whose only move does not check.
        let b0 = g.node(B, false, Exit::Lose);
        let r0 = g.node(R, true, Exit::Lose);
        g.edge(b0, r0);
        g.edge(r0, b0);
        let red = solved(&g, R);
        assert_eq!(red.rank(r0), rank(1, 1));
        assert_eq!(red.rank(b0), rank(1, 2));
        assert_eq!(solved(&g, B).count(), 0);
    }

    #[test]
    fn mutual_perpetual_check_is_a_draw() {
        let mut g = Explicit::default();
        let b0 = g.node(B, true, Exit::Lose);
        let r0 = g.node(R, true, Exit::Lose);
        g.edge(b0, r0);
        g.edge(r0, b0);
        assert_eq!(solved(&g, R).count(), 0);
        assert_eq!(solved(&g, B).count(), 0);
    }

    #[test]
    fn a_quiet_way_out_or_a_drawing_capture_saves_the_checker() {
        let mut g = Explicit::default();
        let b0 = g.node(B, false, Exit::Lose);
        let r0 = g.node(R, true, Exit::Lose);
        let r1 = g.node(R, false, Exit::Lose);
        g.edge(b0, r0);
        g.edge(r0, b0);
        g.edge(b0, r1);
        g.edge(r1, b0);
        assert_eq!(solved(&g, R).count(), 0);
        let mut g = Explicit::default();
        let b0 = g.node(B, false, Exit::Draw);
        let r0 = g.node(R, true, Exit::Lose);
        g.edge(b0, r0);
        g.edge(r0, b0);
        assert_eq!(solved(&g, R).count(), 0);
    }

    #[test]
    fn the_winner_may_check_on_the_way_but_not_forever() {
        // b0 -> r0 -> b1 -> r1 -> b0: Black always checks, Red checks into b1 and not into b0.
        let mut g = Explicit::default();
        let b0 = g.node(B, false, Exit::Lose);
        let r0 = g.node(R, true, Exit::Lose);
        let b1 = g.node(B, true, Exit::Lose);
        let r1 = g.node(R, true, Exit::Lose);
        g.edge(b0, r0);
        g.edge(r0, b1);
        g.edge(b1, r1);
        g.edge(r1, b0);
        let red = solved(&g, R);
        assert_eq!(red.rank(r1), rank(1, 1));
        assert_eq!(red.rank(b1), rank(1, 2));
        assert_eq!(red.rank(r0), rank(1, 3));
        assert_eq!(red.rank(b0), rank(1, 4));
        // If Red's move into b0 checked too, both would check forever: a draw.
        g.check[b0 as usize] = true;
        assert_eq!(solved(&g, R).count(), 0);
    }

    #[test]
    fn exits_and_their_attractor_are_stage_zero() {
        let mut g = Explicit::default();
        let r0 = g.node(R, false, Exit::Win);
        let b0 = g.node(B, false, Exit::Lose);
        let r1 = g.node(R, false, Exit::Lose);
        let b1 = g.node(B, false, Exit::Draw);
        g.edge(b0, r0);
        g.edge(r1, b0);
        g.edge(r1, b1);
        g.edge(b1, r1);
        g.edge(r0, b1);
        let red = solved(&g, R);
        assert_eq!(red.rank(r0), rank(0, 1));
        assert_eq!(red.rank(b0), rank(0, 2));
        assert_eq!(red.rank(r1), rank(0, 3));
        assert_eq!(red.rank(b1), None);
    }

    #[test]
    fn a_second_level_lets_the_checker_leave_only_into_the_first() {
        let mut g = Explicit::default();
        // Level 1: the core of the first test, entered from r3 by a quiet move.
        let b0 = g.node(B, false, Exit::Lose);
        let r0 = g.node(R, true, Exit::Lose);
        g.edge(b0, r0);
        g.edge(r0, b0);
        let r3 = g.node(R, false, Exit::Lose);
        g.edge(r3, b0);
        // b2 may check into r2 (which answers quietly) or leave quietly into r3.
        let b2 = g.node(B, false, Exit::Lose);
        let r2 = g.node(R, true, Exit::Lose);
        g.edge(b2, r2);
        g.edge(r2, b2);
        g.edge(b2, r3);
        // r5 enters b2's cycle quietly (so it belongs to the core); b4 must move there quietly,
        // so it is attracted at level 2.
        let r5 = g.node(R, false, Exit::Lose);
        g.edge(r5, b2);
        let b4 = g.node(B, false, Exit::Lose);
        let r4 = g.node(R, false, Exit::Lose);
        g.edge(r4, b4);
        g.edge(b4, r5);
        let red = solved(&g, R);
        assert_eq!(red.rank(b0), rank(1, 2));
        assert_eq!(red.rank(r3), rank(1, 1));
        assert_eq!(red.rank(r2), rank(3, 1));
        assert_eq!(red.rank(b2), rank(3, 2));
        assert_eq!(red.rank(r5), rank(3, 1));
        assert_eq!(red.rank(b4), rank(4, 0));
        assert_eq!(red.rank(r4), rank(4, 1));
        assert_eq!(red.stages, 5);
        assert_eq!(solved(&g, B).count(), 0);
    }

    /// Checks the certificate of the module notes on a solution: plies have the right parity
    /// and obey their equations, Q's moves inside a core are checks.
    pub fn check_certificate(g: &Explicit, sol: &Solution) {
        let p = sol.winner;
        for v in 0..g.nodes() {
            let Some(rv) = sol.rank(v) else {
                continue;
            };
            let core = rv.stage % 2 == 1;
            let kind = core.then(|| sol.kinds[usize::from(rv.stage / 2)]);
            let marks = &g.marks[v as usize];
            let succ: Vec<(u64, Option<Rank>, Marks)> = g.succ[v as usize]
                .iter()
                .zip(marks)
                .map(|(&w, &m)| (w, sol.rank(w), m))
                .collect();
            if g.mover[v as usize] == p {
                assert_eq!(rv.plies % 2, 1, "{v}");
                let lower = g.exit[v as usize] == Exit::Win
                    || succ
                        .iter()
                        .any(|(_, r, _)| r.is_some_and(|r| r.stage < rv.stage));
                let free = core
                    && succ.iter().any(|&(w, r, m)| {
                        let scores = match kind {
                            Some(CoreKind::Chase(_)) => !g.check[w as usize] && !m.chase,
                            _ => !g.check[w as usize],
                        };
                        scores && r.is_some_and(|r| r.stage == rv.stage)
                    });
                let best = succ
                    .iter()
                    .filter_map(|(_, r, _)| r.filter(|r| r.stage == rv.stage).map(|r| r.plies))
                    .min();
                let want = if lower || free { 1 } else { best.unwrap() + 1 };
                assert_eq!(rv.plies, want, "{v}");
            } else {
                assert_eq!(rv.plies % 2, 0, "{v}");
                assert_eq!(g.exit[v as usize], Exit::Lose);
                let mut worst = -1i32;
                for &(w, r, m) in &succ {
                    let r = r.unwrap_or_else(|| panic!("{v}: move to {w} escapes"));
                    assert!(r.stage <= rv.stage);
                    if r.stage == rv.stage {
                        worst = worst.max(i32::from(r.plies));
                        match kind {
                            Some(CoreKind::Check) => {
                                assert!(g.check[w as usize], "{v}: a quiet move inside a core");
                            }
                            Some(CoreKind::Chase(t)) => {
                                assert!(m.targets >> t & 1 == 1, "{v}: no chase inside a core");
                            }
                            None => {}
                        }
                    }
                }
                assert_eq!(i32::from(rv.plies), worst + 1, "{v}");
            }
        }
    }

    /// A P node's choice when it has no move at all.
    const NO_CHOICE: usize = usize::MAX - 1;

    /// Every memoryless strategy of P: per node the index of the successor P moves to,
    /// `usize::MAX` for a winning exit, [`NO_CHOICE`] for a P node without either (0 for Q's).
    fn strategies(g: &Explicit, p: Color) -> Vec<Vec<usize>> {
        let n = g.nodes() as usize;
        let options: Vec<Vec<usize>> = (0..n)
            .map(|v| {
                if g.mover[v] != p {
                    return vec![0];
                }
                let mut o: Vec<usize> = (0..g.succ[v].len()).collect();
                if g.exit[v] == Exit::Win {
                    o.push(usize::MAX);
                }
                if o.is_empty() {
                    o.push(NO_CHOICE);
                }
                o
            })
            .collect();
        let mut all = Vec::new();
        let mut choice = vec![0usize; n];
        loop {
            all.push((0..n).map(|v| options[v][choice[v]]).collect());
            let mut i = 0;
            loop {
                if i == n {
                    return all;
                }
                choice[i] += 1;
                if choice[i] < options[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }

    /// Whether P wins from each node, by brute force: P's memoryless strategies (Rabin
    /// conditions allow them) are enumerated, and for each the opponent's best reply is found
    /// on the one-player graph that is left (a reachable cycle through one of Q's quiet moves,
    /// or a reachable cycle without a quiet move of P, or a reachable non-losing exit of Q).
    fn brute_force(g: &Explicit, p: Color) -> Vec<bool> {
        let n = g.nodes() as usize;
        let mut wins = vec![false; n];
        for strat in strategies(g, p) {
            // Edges of the one-player graph: (from, to, quiet move of Q, quiet move of P).
            let mut edges: Vec<Vec<(usize, bool, bool)>> = vec![Vec::new(); n];
            let mut dead = vec![false; n]; // play ends badly for P here
            let mut good_end = vec![false; n];
            for v in 0..n {
                if g.mover[v] == p {
                    if strat[v] == NO_CHOICE {
                        dead[v] = true;
                    } else if strat[v] == usize::MAX {
                        good_end[v] = true;
                    } else {
                        let w = g.succ[v][strat[v]] as usize;
                        edges[v].push((w, false, !g.check[w]));
                    }
                } else {
                    if g.exit[v] != Exit::Lose {
                        dead[v] = true;
                    }
                    for &w in &g.succ[v] {
                        edges[v].push((w as usize, !g.check[w as usize], false));
                    }
                }
            }
            let reach = |from: usize, allowed: &dyn Fn(&(usize, bool, bool)) -> bool| {
                let mut seen = vec![false; n];
                let mut stack = vec![from];
                seen[from] = true;
                while let Some(v) = stack.pop() {
                    for e in &edges[v] {
                        if allowed(e) && !seen[e.0] {
                            seen[e.0] = true;
                            stack.push(e.0);
                        }
                    }
                }
                seen
            };
            let all: Vec<Vec<bool>> = (0..n).map(|v| reach(v, &|_| true)).collect();
            let checks: Vec<Vec<bool>> = (0..n).map(|v| reach(v, &|e| !e.2)).collect();
            // Nodes from which Q can end the play well or start a cycle that is good for Q: one
            // through a quiet move of Q, or one without a quiet move of P.
            let bad: Vec<bool> = (0..n)
                .map(|u| {
                    dead[u]
                        || (!good_end[u]
                            && edges[u].iter().any(|&(w, q_quiet, p_quiet)| {
                                (q_quiet && all[w][u]) || (!p_quiet && checks[w][u])
                            }))
                })
                .collect();
            for v in 0..n {
                if !wins[v] && !(0..n).any(|u| all[v][u] && bad[u]) {
                    wins[v] = true;
                }
            }
        }
        wins
    }

    /// A random graph where every node has a move (the region has no dead ends). The seed also
    /// varies how often moves check and how many moves a node has.
    fn random_graph(seed: u64, nodes: usize) -> Explicit {
        let mut rng = chariot_rules::random::Rng::seeded(seed);
        let mut next = |m: u64| rng.next_u64() % m;
        let check_in = 2 + seed % 3; // a node is in check with odds (check_in - 1) / check_in
        let mut g = Explicit::default();
        for i in 0..nodes {
            let mover = if i % 2 == 0 { R } else { B };
            let exit = match next(16) {
                0 => Exit::Win,
                1 => Exit::Draw,
                _ => Exit::Lose,
            };
            g.node(mover, next(check_in) != 0, exit);
        }
        for v in 0..nodes as u64 {
            let k = 1 + next(3);
            for _ in 0..k {
                // Successors have the other mover: ids of the other parity.
                let w = (next(nodes as u64 / 2) * 2 + (v + 1) % 2) % nodes as u64;
                if !g.succ[v as usize].contains(&w) {
                    g.edge(v, w);
                }
            }
        }
        g
    }

    #[test]
    fn random_graphs_agree_with_brute_force_and_carry_certificates() {
        let (mut decided, mut cores, mut deep) = (0, 0, 0);
        for seed in 1..2000u64 {
            let g = random_graph(seed, 8 + (seed % 3) as usize * 2);
            for p in [R, B] {
                let sol = solved(&g, p);
                let brute = brute_force(&g, p);
                for v in 0..g.nodes() {
                    assert_eq!(
                        sol.rank(v).is_some(),
                        brute[v as usize],
                        "seed {seed}, winner {p:?}, node {v}: {g:?}"
                    );
                }
                check_certificate(&g, &sol);
                decided += sol.count();
                cores += (0..g.nodes())
                    .filter(|&v| sol.rank(v).is_some_and(|r| r.stage > 0))
                    .count();
                deep += usize::from(sol.stages > 3);
            }
        }
        // The graphs must exercise the cores and the second level, not only exits.
        assert!(
            decided > 200 && cores > 100 && deep > 8,
            "{decided} {cores} {deep}"
        );
    }

    /// Whether P wins from each node under the check and chase rules, by brute force: P's
    /// memoryless strategies are enumerated (the condition is a Rabin condition: one pair for
    /// the check, one per chase target), and for each the opponent's best reply is found on
    /// the one-player graph that is left: a reachable dead end, or a reachable set of nodes
    /// that Q can keep the play in forever (strongly connected with all of Q's moves inside it)
    /// whose moves do not make the play a win for P (Q does not check on every move or P
    /// never moves without checking; and for every target, Q does not chase it on every move
    /// or P never makes an idle move).
    fn brute_force_rules(g: &Explicit, p: Color) -> Vec<bool> {
        let n = g.nodes() as usize;
        let targets = &g.targets[p.index()];
        let mut wins = vec![false; n];
        for strat in strategies(g, p) {
            // Edges: (to, marks, P's move); dead: play ends badly for P; end: P wins here.
            let mut edges: Vec<Vec<(usize, Marks, bool)>> = vec![Vec::new(); n];
            let mut dead = vec![false; n];
            for v in 0..n {
                if g.mover[v] == p {
                    match strat[v] {
                        usize::MAX => {}
                        NO_CHOICE => dead[v] = true,
                        j => edges[v].push((g.succ[v][j] as usize, g.marks[v][j], true)),
                    }
                } else {
                    dead[v] = g.exit[v] != Exit::Lose;
                    for (j, &w) in g.succ[v].iter().enumerate() {
                        edges[v].push((w as usize, g.marks[v][j], false));
                    }
                }
            }
            let reach = |from: usize, inside: u32| {
                let mut seen = 1u32 << from;
                let mut stack = vec![from];
                while let Some(v) = stack.pop() {
                    for e in &edges[v] {
                        if inside >> e.0 & 1 == 1 && seen >> e.0 & 1 == 0 {
                            seen |= 1 << e.0;
                            stack.push(e.0);
                        }
                    }
                }
                seen
            };
            let all = (1u32 << n) - 1;
            let mut bad: Vec<bool> = dead.clone();
            for set in 1..=all {
                // Every node keeps the play inside, and the set is strongly connected.
                let members: Vec<usize> = (0..n).filter(|&v| set >> v & 1 == 1).collect();
                let closed = members.iter().all(|&v| {
                    edges[v].iter().any(|e| set >> e.0 & 1 == 1)
                        && (g.mover[v] != p || edges[v].iter().all(|e| set >> e.0 & 1 == 1))
                });
                if !closed || members.iter().any(|&v| reach(v, set) != set) {
                    continue;
                }
                let inner: Vec<(usize, usize, Marks, bool)> = members
                    .iter()
                    .flat_map(|&v| {
                        edges[v]
                            .iter()
                            .filter(move |e| set >> e.0 & 1 == 1)
                            .map(move |e| (v, e.0, e.1, e.2))
                    })
                    .collect();
                let q_quiet = inner.iter().any(|e| !e.3 && !g.check[e.1]);
                let p_quiet = inner.iter().any(|e| e.3 && !g.check[e.1]);
                let p_idle = inner.iter().any(|e| e.3 && !g.check[e.1] && !e.2.chase);
                let check_win = !q_quiet && p_quiet;
                let chase_win = targets
                    .iter()
                    .any(|&t| p_idle && inner.iter().all(|e| e.3 || e.2.targets >> t & 1 == 1));
                if !check_win && !chase_win {
                    for &v in &members {
                        bad[v] = true;
                    }
                }
            }
            for (v, win) in wins.iter_mut().enumerate() {
                let r = reach(v, all);
                if !*win && !(0..n).any(|u| r >> u & 1 == 1 && bad[u]) {
                    *win = true;
                }
            }
        }
        wins
    }

    /// A random graph as [`random_graph`], whose moves also chase: some chase nothing, some
    /// something, some the winner's only piece of kind 1 or 2; Red's game judges chases of
    /// kind 1, Black's of kinds 1 and 2.
    fn random_marked_graph(seed: u64, nodes: usize) -> Explicit {
        let mut g = random_graph(seed, nodes);
        let mut rng = chariot_rules::random::Rng::seeded(seed ^ 0x9e37_79b9);
        let mut next = |m: u64| rng.next_u64() % m;
        for v in 0..nodes {
            for m in &mut g.marks[v] {
                let r = next(6);
                *m = Marks {
                    chase: r >= 2,
                    targets: match r {
                        3 => 1 << 1,
                        4 => 1 << 2,
                        5 => 1 << 1 | 1 << 2,
                        _ => 0,
                    },
                };
            }
        }
        g.targets = [vec![1], vec![1, 2]];
        g
    }

    /// The games with chase targets are sound: every node the solver gives P is won by P under
    /// the exact rules (brute force), with a certificate. They are not complete: one core
    /// kind per level misses wins that need the loser's checks and chases together (it can
    /// be kept from checking forever and from chasing one piece forever, but not from both at
    /// once: seed 123 below is such a graph); the test counts those nodes. Without chase
    /// targets the solution is exact (`random_graphs_agree_with_brute_force_...`, and here).
    #[test]
    fn chase_games_are_sound_against_brute_force_and_carry_certificates() {
        let (mut chase_cores, mut decided, mut missed, mut nodes) = (0, 0, 0, 0);
        for seed in 1..500u64 {
            let g = random_marked_graph(seed, 6 + (seed % 2) as usize * 2);
            for p in [R, B] {
                let sol = solved(&g, p);
                let brute = brute_force_rules(&g, p);
                for v in 0..g.nodes() {
                    assert!(
                        sol.rank(v).is_none() || brute[v as usize],
                        "seed {seed}, winner {p:?}, node {v}: {g:?} {:?}",
                        sol.kinds
                    );
                    missed += usize::from(sol.rank(v).is_none() && brute[v as usize]);
                }
                nodes += g.nodes() as usize;
                check_certificate(&g, &sol);
                decided += sol.count();
                chase_cores += sol
                    .kinds
                    .iter()
                    .filter(|k| matches!(k, CoreKind::Chase(_)))
                    .count();
                // Without the chase targets: exact.
                let mut plain = g.clone();
                plain.targets = [Vec::new(), Vec::new()];
                let sol = solved(&plain, p);
                let brute = brute_force_rules(&plain, p);
                for v in 0..g.nodes() {
                    assert_eq!(sol.rank(v).is_some(), brute[v as usize], "seed {seed}");
                }
            }
        }
        assert!(decided > 100 && chase_cores > 10, "{decided} {chase_cores}");
        // Measured: 1,838 nodes decided, 8 missed, of 6,988 (random graphs where most moves
        // chase are far denser in chases than tables).
        eprintln!("{decided} decided, {missed} missed of {nodes}");
        assert!(missed * 20 < decided, "{missed} missed, {decided} decided");
    }

    #[test]
    fn a_side_that_must_chase_forever_loses_unless_the_other_chases_too() {
        let chase = |t: u8| Marks {
            chase: true,
            targets: 1 << t,
        };
        let mut g = Explicit {
            targets: [vec![3], vec![3]],
            ..Explicit::default()
        };
        // Black must chase Red's horse (kind 3) on every move; Red answers with an idle move.
        let b0 = g.node(B, false, Exit::Lose);
        let r0 = g.node(R, false, Exit::Lose);
        g.marked_edge(b0, r0, chase(3));
        g.edge(r0, b0);
        let red = solved(&g, R);
        assert_eq!(red.rank(r0), rank(1, 1));
        assert_eq!(red.rank(b0), rank(1, 2));
        assert_eq!(red.kinds, [CoreKind::Chase(3)]);
        assert_eq!(solved(&g, B).count(), 0);
        // If Red's answer chased too, both would chase forever: a draw.
        g.marks[r0 as usize][0] = chase(3);
        assert_eq!(solved(&g, R).count(), 0);
        assert_eq!(solved(&g, B).count(), 0);
        // Chasing another piece than the judged one is no perpetual chase of it.
        g.marks[r0 as usize][0] = Marks::default();
        g.marks[b0 as usize][0] = chase(4);
        assert_eq!(solved(&g, R).count(), 0);
    }
}
