//! Move ordering: the transposition-table move first, then winning and equal captures by
//! MVV-LVA (most valuable victim, least valuable attacker), queen promotions, the two killer
//! moves of the ply, quiet moves by history, and losing captures (by SEE) last.

use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use super::score::MAX_PLY;
use super::see::see;
use crate::eval::value;
use crate::packed_move;

const TT_MOVE: i32 = 2_000_000;
const GOOD_CAPTURE: i32 = 1_000_000;
const KILLER: [i32; 2] = [900_000, 800_000];
const BAD_CAPTURE: i32 = -1_000_000;
/// History scores stay within ±HISTORY_MAX.
const HISTORY_MAX: i32 = 16_384;

/// Killer moves and the history table, kept between iterations of one search.
#[derive(Debug, Clone)]
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

/// MVV-LVA order of a capture or promotion.
#[must_use]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = m.capture().map_or(0, value);
    let promotion = m.promotion().map_or(0, value);
    victim * 10 + promotion * 10 - value(m.role()) / 10
}

impl Heuristics {
    /// Forgets the killers and ages the history for a new search.
    pub fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
    }

    /// Whether `m` is a killer at `ply`.
    #[must_use]
    pub fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply].contains(&Some(m))
    }

    fn history(&self, color: Color, m: Move) -> &i32 {
        let from = m.from().map_or(0, |s| s as usize);
        &self.history[color as usize][from][m.to() as usize]
    }

    fn history_mut(&mut self, color: Color, m: Move) -> &mut i32 {
        let from = m.from().map_or(0, |s| s as usize);
        &mut self.history[color as usize][from][m.to() as usize]
    }

    /// Records a quiet move that caused a beta cutoff at `ply`, and punishes the quiet moves
    /// tried before it.
    pub fn cutoff(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        m: Move,
        tried: &[Option<Move>],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let h = self.history_mut(color, m);
        *h += 32 * bonus - *h * bonus / 512;
        for &q in tried.iter().flatten() {
            if q != m {
                let h = self.history_mut(color, q);
                *h -= 32 * bonus + *h * bonus / 512;
            }
        }
        for q in tried.iter().flatten().copied().chain([m]) {
            let h = self.history_mut(color, q);
            *h = (*h).clamp(-HISTORY_MAX * 32, HISTORY_MAX * 32);
        }
    }

    /// Scores every move of `moves` for the order in which to search them.
    pub fn score(
        &self,
        pos: &Chess,
        moves: &MoveList,
        tt_packed: u16,
        ply: usize,
        out: &mut [i32],
    ) {
        let color = pos.turn();
        for (m, s) in moves.iter().zip(out.iter_mut()) {
            *s = if tt_packed != 0 && packed_move::pack(*m) == tt_packed {
                TT_MOVE
            } else if m.is_capture() || m.promotion() == Some(Role::Queen) {
                let base = if see(pos, *m) >= 0 {
                    GOOD_CAPTURE
                } else {
                    BAD_CAPTURE
                };
                base + mvv_lva(*m)
            } else if m.is_promotion() {
                // Under-promotions: rarely right, searched last among the quiet moves.
                BAD_CAPTURE / 2
            } else if self.killers[ply][0] == Some(*m) {
                KILLER[0]
            } else if self.killers[ply][1] == Some(*m) {
                KILLER[1]
            } else {
                *self.history(color, *m)
            };
        }
    }
}

/// Moves the highest-scored of `moves[i..]` to `i` (selection sort, one step per move tried,
/// since a cutoff usually comes early).
pub fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
