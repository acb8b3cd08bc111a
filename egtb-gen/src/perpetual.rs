//! The perpetual-check and perpetual-chase rules for one table: the positions the retrograde
//! passes left undecided form the region of the game of [`crate::perpetual_game`], solved once with Red and
//! once with Black as the side that may win by the rule (the other being the one that would have
//! to check or chase forever). The two winning regions are disjoint; the rest of the region is
//! drawn. Chases are judged where both sides have attacking pieces ([`chase_targets`]).
//!
//! A side without attacking pieces never gives check (`docs/egtb.md`), so it never loses by
//! the rule, and its opponent's game is skipped: it would find nothing.

use chariot_formats::egtb::index::PieceStep;
use chariot_formats::egtb::signature::NAME_ORDER;
use chariot_formats::egtb::{Indexer, RuleRank, Value};
use chariot_rules::chase::chased;
use chariot_rules::{Color, Position};
use chariot_rules::{Kind, Move, Piece};

use crate::perpetual_game::{self, CoreKind, Degrees, Exit, GameError, GameGraph, Solution};
use crate::retro;
use crate::state;

/// One table's positions as a game graph: node `e` is entry `e` (Red to move first).
pub struct TableGraph<'a> {
    ix: &'a Indexer,
    size: u64,
    state: &'a [u16],
    check: &'a [u8],
}

impl<'a> TableGraph<'a> {
    /// The graph of a table whose retrograde passes are done: `state` holds the generator's
    /// states, `check` its first-pass bytes (whether the side to move is in check, and more),
    /// per entry.
    #[must_use]
    pub fn new(ix: &'a Indexer, state: &'a [u16], check: &'a [u8]) -> TableGraph<'a> {
        TableGraph {
            ix,
            size: ix.size(),
            state,
            check,
        }
    }

    fn turn(&self, e: u64) -> Color {
        if e < self.size {
            Color::Red
        } else {
            Color::Black
        }
    }
}

impl GameGraph for TableGraph<'_> {
    fn nodes(&self) -> u64 {
        2 * self.size
    }

    fn in_region(&self, v: u64) -> bool {
        state::in_region(self.state[v as usize])
    }

    fn mover(&self, v: u64) -> Color {
        self.turn(v)
    }

    fn in_check(&self, v: u64) -> bool {
        state::in_check(self.check[v as usize])
    }

    fn exit(&self, v: u64) -> Exit {
        state::exit(self.state[v as usize])
    }

    fn successors(&self, v: u64, mut f: impl FnMut(u64)) {
        self.any_quiet_move(
            v,
            |w| {
                f(w);
                false
            },
            |_, _| false,
        );
    }

    fn predecessors(&self, w: u64, mut f: impl FnMut(u64)) {
        let mover = self.turn(w).opponent();
        let base = mover.index() as u64 * self.size;
        retro::predecessors(self.ix, w % self.size, mover, |q| {
            f(base + q);
        });
    }

    fn chase_targets(&self, winner: Color) -> Vec<u8> {
        chase_targets(self.ix, winner)
    }

    fn moves_not_chasing(&self, v: u64, targets: u8, into: impl Fn(u64) -> bool) -> u8 {
        let turn = self.turn(v);
        let mut found = 0;
        self.any_quiet_move(v, into, |pos, m| {
            // The targets not yet found, with their squares.
            let mut open = [None; Kind::ALL.len()];
            for (slot, kind) in open.iter_mut().zip(Kind::ALL) {
                let bit = 1 << kind as u8;
                if targets & !found & bit != 0 {
                    match pos.pieces(Piece::new(turn.opponent(), kind)).first() {
                        Some(target) => *slot = Some((bit, target)),
                        None => found |= bit,
                    }
                }
            }
            if open.iter().all(Option::is_none) {
                return found == targets;
            }
            pos.make_move(m);
            // No attack on a target after the move: certainly no chase of it.
            for slot in &mut open {
                if let Some((bit, target)) = *slot
                    && pos.attackers(target, turn).is_empty()
                {
                    found |= bit;
                    *slot = None;
                }
            }
            pos.unmake_move();
            if open.iter().any(Option::is_some) {
                let chased = chased(pos, m);
                for &(bit, target) in open.iter().flatten() {
                    if !chased.contains(target) {
                        found |= bit;
                    }
                }
            }
            found == targets
        });
        found
    }

    fn has_idle_move(&self, v: u64, into: impl Fn(u64) -> bool) -> bool {
        let turn = self.turn(v);
        self.any_quiet_move(v, into, |pos, m| {
            pos.make_move(m);
            let check = pos.in_check();
            // Attacks nothing but the general: certainly no chase.
            let king = pos.king(turn.opponent());
            let attacks = !check
                && pos
                    .occupied_by(turn.opponent())
                    .into_iter()
                    .any(|sq| sq != king && !pos.attackers(sq, turn).is_empty());
            pos.unmake_move();
            !check && (!attacks || chased(pos, m).is_empty())
        })
    }
}

impl TableGraph<'_> {
    /// Whether some quiet move of node `v` leads to a node that `into` accepts and passes
    /// `test`, which is given the position before the move (and must leave it so) and the move;
    /// `false` for an unused index. `into` is asked first, so the move's own test (check,
    /// chase) is made only for moves that stay where the caller looks.
    ///
    /// The node a move leads to is found without encoding the position: a chariot, horse,
    /// cannon or soldier changes one digit of the index ([`Indexer::piece_step`], as the
    /// unmoves do); a general, advisor or elephant the placement's slot, then
    /// [`Indexer::encode`] (which takes the mirror).
    fn any_quiet_move(
        &self,
        v: u64,
        mut into: impl FnMut(u64) -> bool,
        mut test: impl FnMut(&mut Position, Move) -> bool,
    ) -> bool {
        let idx = v % self.size;
        let turn = self.turn(v);
        let p = self.ix.decode(idx);
        let Ok(mut pos) = self.ix.position(&p, turn, state::LEGAL_ONLY) else {
            return false;
        };
        let base = turn.opponent().index() as u64 * self.size;
        let pieces = self.ix.slot_pieces();
        // The step of the slot that moved last (a piece's moves come together).
        let mut last: Option<(usize, Option<PieceStep<'_>>)> = None;
        let moves = pos.legal_move_list();
        moves.iter().any(|&m| {
            if pos.is_capture(m) {
                return false;
            }
            let (from, to) = (m.from().index() as u8, m.to().index() as u8);
            let Some(slot) = p.slots().iter().position(|&s| s == from) else {
                return false;
            };
            let step = match last {
                Some((s, step)) if s == slot => step,
                _ => {
                    let step = match pieces[slot].kind() {
                        Kind::Chariot | Kind::Horse | Kind::Cannon | Kind::Soldier => {
                            self.ix.piece_step(idx, &p, slot)
                        }
                        _ => None,
                    };
                    last = Some((slot, step));
                    step
                }
            };
            let w = match step {
                Some(step) => step.index_with(&p, to),
                None => {
                    let mut q = p;
                    q.squares[slot] = to;
                    self.ix.encode(&q)
                }
            };
            debug_assert_eq!(
                w,
                {
                    pos.make_move(m);
                    let i = self.ix.index_of(&pos).ok().map(|(_, i)| i);
                    pos.unmake_move();
                    i
                },
                "the index after {m:?}"
            );
            w.is_some_and(|w| into(base + w)) && test(&mut pos, m)
        })
    }
}

/// The kinds of the winner's pieces whose perpetual chase the table's game judges: those the
/// winner has exactly one of (so "the same piece" is the piece of that kind), when both sides
/// have attacking pieces. A side with only advisors and elephants can chase (an elephant
/// attacking a chariot) but is never made to: see `docs/egtb.md`.
#[must_use]
pub fn chase_targets(ix: &Indexer, winner: Color) -> Vec<u8> {
    let sig = ix.signature();
    if !sig.side(Color::Red).has_attackers() || !sig.side(Color::Black).has_attackers() {
        return Vec::new();
    }
    let own = sig.side(winner);
    NAME_ORDER
        .into_iter()
        .filter(|&k| own.count(k) == 1)
        .map(|k| k as u8)
        .collect()
}

/// The positions of a table the rule decides: the two games' solutions.
pub struct RuleValues {
    solutions: Vec<Solution>,
}

impl RuleValues {
    /// The rule value of entry `e`, if the rule decides it.
    #[must_use]
    pub fn value(&self, e: u64) -> Option<Value> {
        for s in &self.solutions {
            if let Some(r) = s.rank(e) {
                let rank = RuleRank {
                    stage: u32::from(r.stage),
                    plies: u32::from(r.plies),
                };
                // The winner's plies are odd: the side to move wins exactly then.
                return Some(if r.plies % 2 == 1 {
                    Value::RuleWin(rank)
                } else {
                    Value::RuleLoss(rank)
                });
            }
        }
        None
    }

    /// Per winner (Red, Black, in the table's frame), the stages that are chase cores: bit `s`
    /// for stage `s`. What the file header keeps, so that the prober plays a chase core's win
    /// with moves that neither check nor chase.
    ///
    /// # Errors
    /// [`GameError::TooDeep`] when a chase core's stage is 128 or more (the header has 128
    /// bits per winner).
    pub fn chase_stages(&self) -> Result<[u128; 2], GameError> {
        let mut bits = [0u128; 2];
        for s in &self.solutions {
            for (level, k) in s.kinds.iter().enumerate() {
                if matches!(k, CoreKind::Chase(_)) {
                    let stage = 2 * level + 1;
                    if stage >= 128 {
                        return Err(GameError::TooDeep);
                    }
                    bits[s.winner.index()] |= 1 << stage;
                }
            }
        }
        Ok(bits)
    }

    /// The number of positions won by the rule by each colour (as the winner), Red first.
    #[must_use]
    pub fn counts(&self) -> [usize; 2] {
        let mut out = [0; 2];
        for s in &self.solutions {
            out[s.winner.index()] = s.count();
        }
        out
    }
}

/// Solves the rule for a table whose retrograde passes are done. `out` and `quiet` are, per
/// entry, the moves of every position of the region into the region, all and those that give no
/// check (the generator's counters of unrefuted moves: every other move of such a position is
/// refuted); the game keeps them for its region only.
///
/// # Errors
/// [`GameError`] when the game's stages or plies exceed 16 bits.
pub fn judge(
    ix: &Indexer,
    state: &[u16],
    check: &[u8],
    out: Vec<u8>,
    quiet: Vec<u8>,
) -> Result<RuleValues, GameError> {
    let sig = ix.signature();
    // The loser must be able to check, or the winner could only win by exits, which need a
    // rule value in a smaller table, which needs the loser's attacking pieces there too.
    let winners: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|w| sig.side(w.opponent()).has_attackers())
        .collect();
    if winners.is_empty() {
        // No side can lose by the rule: no game to build.
        return Ok(RuleValues {
            solutions: Vec::new(),
        });
    }
    let g = TableGraph::new(ix, state, check);
    let region = std::sync::Arc::new(perpetual_game::region_of(&g));
    let degrees = Degrees::new(out, quiet, &region);
    // The counts the retrograde passes left must be the region's moves; debug builds (and the
    // tests) count them again by generating the moves.
    #[cfg(debug_assertions)]
    {
        let fresh = perpetual_game::prepare(&g, &region);
        for r in 0..region.len() {
            assert_eq!(
                degrees.of(r),
                fresh.of(r),
                "moves into the region of its node {r}"
            );
        }
    }
    let mut solutions = Vec::new();
    let mut degrees = Some(degrees);
    for (i, &winner) in winners.iter().enumerate() {
        // The last game takes the counts themselves, an earlier one a copy.
        let d = if i + 1 == winners.len() {
            degrees.take()
        } else {
            degrees.clone()
        };
        let Some(d) = d else { break };
        solutions.push(perpetual_game::solve(&g, &region, d, winner)?);
    }
    Ok(RuleValues { solutions })
}
