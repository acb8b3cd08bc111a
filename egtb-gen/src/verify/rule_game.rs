//! `verify`'s own solution of a table's rule game (`docs/egtb.md`), by a different method than
//! the generator's: every attractor is a sequence of sweeps (a node joins in sweep `k` when all
//! its successors' ranks, looked at afresh, say so), not a backward search with counters kept up
//! to date.
//!
//! Memory is a few bytes a node of the region: the moves are generated when a node is looked at
//! ([`Moves`]), never stored. A sweep looks only at the nodes that can join in it: in sweep
//! `k ≥ 2` the predecessors of the nodes that joined in sweep `k − 1`; in sweeps 0 and 1 also
//! the predecessors of the nodes outside the arena that count as ranked (the positions already
//! won), the nodes that may join without a successor (pass 1's dead ends, and its winning
//! captures or the moves into the arena that score), and nothing else, since a node that joins
//! in sweep `k` has a successor of rank `k − 1` unless it joins by one of those. The sets the
//! cores start from are found the same way: the loser's positions whose every way out of the
//! won positions checks (or chases) are pass 1's (those with no way out but such moves) or
//! predecessors of won positions.

use chariot_rules::Color;
use rayon::prelude::*;

use super::moves::{Edge, Moves};
use crate::region::Region;

/// What pass 1 found about the region's positions, for the game.
#[derive(Default)]
pub struct Facts {
    /// Per node of the region (dense number), its best capture: 0 loses (or there is none), 1
    /// draws, 2 wins (by the rule or outright).
    pub exit: Vec<u8>,
    /// The entries with a winning capture.
    pub winning_exits: Vec<u64>,
    /// The entries without a quiet move into the region.
    pub dead_ends: Vec<u64>,
    /// The entries without a capture that draws or wins whose quiet moves into the region all
    /// give check (`.1`) or all chase some piece of each kind of `.2` (bit per kind): where a
    /// core's loser positions start.
    pub cornered: Vec<(u64, bool, u8)>,
}

/// A set of nodes of the region, a bit each.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize, member: impl Fn(usize) -> bool + Sync) -> Bits {
        let mut words = vec![0u64; n.div_ceil(64)];
        words.par_iter_mut().enumerate().for_each(|(w, word)| {
            for d in w * 64..((w + 1) * 64).min(n) {
                if member(d) {
                    *word |= 1 << (d % 64);
                }
            }
        });
        Bits(words)
    }

    fn get(&self, d: usize) -> bool {
        self.0[d / 64] >> (d % 64) & 1 == 1
    }

    fn set(&mut self, d: usize) {
        self.0[d / 64] |= 1 << (d % 64);
    }

    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// The rule game's solution for one winner: per node, `0` not won, else `1 +` the stage and
/// plies packed ([`Solution::rank`]).
pub struct Solution {
    won: Vec<u32>,
    /// Per level (stage `2 * level + 1`), whether its core is a chase core.
    pub chase_levels: Vec<bool>,
}

/// Bits of the packed plies; the stage takes the rest.
const PLY_BITS: u32 = 21;

impl Solution {
    /// The stage and plies of node `d` (dense number), if the winner wins it by the rule.
    #[must_use]
    pub fn rank(&self, d: usize) -> Option<(u32, u32)> {
        let x = self.won[d].checked_sub(1)?;
        Some((x >> PLY_BITS, x & ((1 << PLY_BITS) - 1)))
    }

    /// The highest stage plus one of any node (0 when none is won).
    #[must_use]
    pub fn stages_used(&self) -> u32 {
        self.won
            .par_iter()
            .filter_map(|&x| x.checked_sub(1).map(|x| (x >> PLY_BITS) + 1))
            .max()
            .unwrap_or(0)
    }
}

/// The game deeper than [`Solution`] packs (2¹¹ stages, 2²¹ plies): no table the generator
/// writes is.
#[derive(Debug)]
pub struct TooDeep;

/// What an attractor adds: the ranks (per node, `0` not joined, else `1 +` the sweep) and the
/// entries that joined.
struct Attracted {
    rank: Vec<u32>,
    joined: Vec<u64>,
}

/// The predecessors of the won nodes so far, by side to move.
#[derive(Default)]
struct Near {
    /// Of the winner (predecessors of the loser's won positions).
    winner: Vec<u64>,
    /// Of the loser.
    loser: Vec<u64>,
}

/// One table's rule game, for [`Game::solve`].
pub struct Game<'a> {
    moves: &'a Moves<'a>,
    region: &'a Region,
    facts: &'a Facts,
    /// Nodes below this dense number have Red to move.
    red_nodes: usize,
}

impl<'a> Game<'a> {
    /// The game of `region` (entries of both halves), with pass 1's `facts`; `size` is the
    /// entries per side to move.
    #[must_use]
    pub fn new(moves: &'a Moves<'a>, region: &'a Region, facts: &'a Facts, size: u64) -> Game<'a> {
        // Dense numbers keep the entries' order, and Red's half comes first.
        let red_nodes = (0..size)
            .rev()
            .find(|&e| region.contains(e))
            .map_or(0, |e| region.at(e) + 1);
        Game {
            moves,
            region,
            facts,
            red_nodes,
        }
    }

    fn mover(&self, d: usize) -> Color {
        if d < self.red_nodes {
            Color::Red
        } else {
            Color::Black
        }
    }

    fn successors(&self, e: u64, chases: bool) -> Vec<Edge> {
        let mut out = Vec::new();
        self.moves.successors(e, chases, |x| out.push(x));
        out
    }

    /// The predecessors of `nodes`, each once, in order.
    fn predecessors(&self, nodes: &[u64]) -> Vec<u64> {
        let mut out: Vec<u64> = nodes
            .par_iter()
            .flat_map_iter(|&w| {
                let mut v = Vec::new();
                self.moves.predecessors(w, |x| v.push(x));
                v
            })
            .collect();
        out.par_sort_unstable();
        out.dedup();
        out
    }

    /// An attractor by sweeps. `arena(d)`: may join. `target(d)`: the rank a node outside the
    /// arena counts with (`None`: not a target); `near`: the predecessors of the targets of rank
    /// −1 and 0. `base(d, moves)`: a winner's node that joins at 1 whatever its successors'
    /// ranks, among `bases` (every other node it holds for is among them too). `q_may(d)`: a loser's node that may join at all. Sweep `k` adds
    /// the winner's nodes with a successor of rank `k − 1` and the loser's nodes all of whose
    /// successors are ranked, the largest at `k − 1`.
    #[allow(clippy::too_many_arguments)]
    fn attractor(
        &self,
        p: Color,
        arena: &(dyn Fn(usize) -> bool + Sync),
        target: &(dyn Fn(usize) -> Option<i32> + Sync),
        near: [&[u64]; 2],
        bases: &[u64],
        base: &(dyn Fn(usize, &[Edge]) -> bool + Sync),
        q_may: &(dyn Fn(usize) -> bool + Sync),
        chases: bool,
    ) -> Attracted {
        let n = self.region.len();
        let mut rank = vec![0u32; n];
        let mut all = Vec::new();
        let mut last: Vec<u64> = Vec::new();
        let mut k = 0i32;
        loop {
            let mut candidates = self.predecessors(&last);
            match k {
                0 => {
                    candidates.extend_from_slice(near[0]);
                    candidates.extend_from_slice(&self.facts.dead_ends);
                }
                1 => {
                    candidates.extend_from_slice(near[1]);
                    candidates.extend_from_slice(bases);
                }
                _ => {}
            }
            if k <= 1 {
                candidates.par_sort_unstable();
                candidates.dedup();
            }
            let rank_ref = &rank;
            let joined: Vec<u64> = candidates
                .into_par_iter()
                .filter(|&v| {
                    let d = self.region.at(v);
                    if !arena(d) || rank_ref[d] != 0 {
                        return false;
                    }
                    let edges = self.successors(v, chases);
                    let r = |w: u64| {
                        let dw = self.region.at(w);
                        if arena(dw) {
                            rank_ref[dw].checked_sub(1).map(|r| r as i32)
                        } else {
                            target(dw)
                        }
                    };
                    if self.mover(d) == p {
                        (k == 1 && base(d, &edges)) || edges.iter().any(|x| r(x.to) == Some(k - 1))
                    } else {
                        q_may(d) && {
                            let mut worst = Some(-1);
                            for x in &edges {
                                worst = match (worst, r(x.to)) {
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
                return Attracted { rank, joined: all };
            }
            for &v in &joined {
                rank[self.region.at(v)] = k as u32 + 1;
            }
            all.extend_from_slice(&joined);
            last = joined;
            k += 1;
        }
    }

    /// Solves the game for winner `p` by sweeps: each level's core is a check core if there is
    /// one, else a chase core of the first target in `targets` that has one.
    ///
    /// # Errors
    /// [`TooDeep`] when a stage or a count of plies does not fit [`Solution`].
    pub fn solve(&self, p: Color, targets: &[u8]) -> Result<Solution, TooDeep> {
        let n = self.region.len();
        let mut won = vec![0u32; n];
        let mut near = Near::default();
        let mut chase_levels = Vec::new();
        let exit = &self.facts.exit;
        // Stage 0: winning exits.
        let bases: Vec<u64> = self
            .facts
            .winning_exits
            .iter()
            .copied()
            .filter(|&e| self.mover(self.region.at(e)) == p)
            .collect();
        let a = self.attractor(
            p,
            &|_| true,
            &|_| None,
            [&[], &[]],
            &bases,
            &|d, _| exit[d] == 2,
            &|d| exit[d] == 0,
            false,
        );
        self.settle(&mut won, &mut near, p, &a, 0)?;
        let mut stage = 1u32;
        loop {
            let mut core = self.core(p, &won, &near, None);
            let mut chase = false;
            for &t in targets {
                if !core.joined.is_empty() {
                    break;
                }
                core = self.core(p, &won, &near, Some(t));
                chase = true;
            }
            if core.joined.is_empty() {
                return Ok(Solution { won, chase_levels });
            }
            chase_levels.push(chase);
            self.settle(&mut won, &mut near, p, &core, stage)?;
            let won_ref = &won;
            let eff =
                move |d: usize| (won_ref[d] != 0).then(|| if self.mover(d) == p { -1 } else { 0 });
            let attracted = self.attractor(
                p,
                &|d| won_ref[d] == 0,
                &eff,
                [&near.loser, &near.winner],
                &[],
                &|_, _| false,
                &|d| exit[d] == 0,
                false,
            );
            self.settle(&mut won, &mut near, p, &attracted, stage + 1)?;
            stage += 2;
        }
    }

    /// Records the nodes an attractor added at `stage`, and their predecessors.
    fn settle(
        &self,
        won: &mut [u32],
        near: &mut Near,
        p: Color,
        a: &Attracted,
        stage: u32,
    ) -> Result<(), TooDeep> {
        for &e in &a.joined {
            let d = self.region.at(e);
            let plies = a.rank[d] - 1;
            if stage >= 1 << (32 - PLY_BITS) || plies >= 1 << PLY_BITS {
                return Err(TooDeep);
            }
            won[d] = 1 + (stage << PLY_BITS | plies);
        }
        for v in self.predecessors(&a.joined) {
            if self.mover(self.region.at(v)) == p {
                near.winner.push(v);
            } else {
                near.loser.push(v);
            }
        }
        for list in [&mut near.winner, &mut near.loser] {
            list.par_sort_unstable();
            list.dedup();
        }
        Ok(())
    }

    /// The core of the next level (`target`: of a chase core of that kind, else a check core):
    /// within Z, the winner's positions not won and the loser's without a way out of the won
    /// positions that gives no check (chases no piece of the kind), `Z := T` until it holds, T
    /// being the winner's attractor within Z to its moves into Z that score (give no check;
    /// for a chase core, chase nothing either).
    fn core(&self, p: Color, won: &[u32], near: &Near, target: Option<u8>) -> Attracted {
        let exit = &self.facts.exit;
        let chases = target.is_some();
        // The loser's nodes of Z: pass 1's cornered ones and predecessors of won ones.
        let mut cands: Vec<u64> = self
            .facts
            .cornered
            .iter()
            .filter(|&&(_, check, kinds)| match target {
                None => check,
                Some(t) => kinds >> t & 1 == 1,
            })
            .map(|&(e, _, _)| e)
            .chain(near.loser.iter().copied())
            .filter(|&e| self.mover(self.region.at(e)) != p)
            .collect();
        cands.par_sort_unstable();
        cands.dedup();
        let mut zq: Vec<u64> = cands
            .into_par_iter()
            .filter(|&v| {
                let d = self.region.at(v);
                won[d] == 0
                    && exit[d] == 0
                    && self.successors(v, chases).iter().all(|x| {
                        won[self.region.at(x.to)] != 0
                            || match target {
                                None => x.check,
                                Some(t) => x.kinds >> t & 1 == 1,
                            }
                    })
            })
            .collect();
        let mut z = Bits::new(self.region.len(), |d| won[d] == 0 && self.mover(d) == p);
        for &e in &zq {
            z.set(self.region.at(e));
        }
        let eff = |d: usize| (won[d] != 0).then(|| if self.mover(d) == p { -1 } else { 0 });
        loop {
            let members = z.count();
            let bases: Vec<u64> = self
                .predecessors(&zq)
                .into_iter()
                .filter(|&v| self.mover(self.region.at(v)) == p)
                .collect();
            let zz = &z;
            let t = self.attractor(
                p,
                &|d| zz.get(d),
                &eff,
                [&near.loser, &near.winner],
                &bases,
                &|_, edges| {
                    edges
                        .iter()
                        .any(|x| zz.get(self.region.at(x.to)) && !x.check && !(chases && x.chase))
                },
                &|_| true,
                chases,
            );
            if t.joined.len() == members {
                return t;
            }
            let mut kept = Bits(vec![0; z.0.len()]);
            for &e in &t.joined {
                kept.set(self.region.at(e));
            }
            zq = t
                .joined
                .iter()
                .copied()
                .filter(|&e| self.mover(self.region.at(e)) != p)
                .collect();
            z = kept;
        }
    }
}
