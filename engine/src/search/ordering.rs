//! Move ordering: which move to try next.
//!
//! Alpha-beta prunes best when the best move comes first. The order is:
//! 1. the transposition table's move (tried before any generation: it often refutes at once);
//! 2. captures that do not lose material by static exchange (SEE), most valuable victim first,
//!    least valuable attacker next (MVV/LVA);
//! 3. the two killer moves of this ply (quiet moves that refuted a sibling), then the counter
//!    move (the quiet move that last refuted the opponent's previous move);
//! 4. the other quiet moves by their history score (how often they caused cutoffs);
//! 5. captures that lose material by SEE.
//!
//! Moves are generated once (all legal moves, or only captures in quiescence) and picked by a
//! lazy selection sort, so a cutoff after a few moves never pays for sorting the rest.

use super::see::{SEE_VALUE, see};
use crate::rules::{Color, Move, MoveList, Piece, Position};

/// History scores stay within this bound (the "gravity" update keeps them there).
const HISTORY_MAX: i32 = 16_384;

const SCORE_GOOD_CAPTURE: i32 = 30_000_000;
const SCORE_KILLER_1: i32 = 20_000_002;
const SCORE_KILLER_2: i32 = 20_000_001;
const SCORE_COUNTER: i32 = 20_000_000;
const SCORE_BAD_CAPTURE: i32 = -30_000_000;

/// Quiet-move statistics of one thread, kept between searches of a game.
pub(crate) struct History {
    /// Butterfly history: `[colour][from][to]`.
    butterfly: Vec<i16>,
    /// Counter moves: `[piece that moved][its target]` -> the quiet reply that refuted it.
    counter: Vec<Move>,
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * 90 * 90],
            counter: vec![Move::NONE; 16 * 90],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.counter.fill(Move::NONE);
    }

    #[inline]
    fn index(color: Color, m: Move) -> usize {
        color.index() * 8100 + m.from().index() * 90 + m.to().index()
    }

    /// The history score of a quiet move by `color`.
    #[inline]
    pub fn score(&self, color: Color, m: Move) -> i32 {
        i32::from(self.butterfly[History::index(color, m)])
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move. The update shrinks as the score nears the
    /// bound, so recent results count more than old ones.
    #[inline]
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let slot = &mut self.butterfly[History::index(color, m)];
        let h = i32::from(*slot);
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *slot = (h + b - h * b.abs() / HISTORY_MAX) as i16;
    }

    /// The counter move to the opponent's `prev` (by `piece`, a raw piece byte).
    #[inline]
    pub fn counter(&self, piece: u8, prev: Move) -> Move {
        if prev.is_none() {
            Move::NONE
        } else {
            self.counter[usize::from(piece) * 90 + prev.to().index()]
        }
    }

    /// Records `m` as the counter to the opponent's `prev`.
    #[inline]
    pub fn set_counter(&mut self, piece: u8, prev: Move, m: Move) {
        if !prev.is_none() {
            self.counter[usize::from(piece) * 90 + prev.to().index()] = m;
        }
    }
}

/// The exchange value of the piece on the target of `m` (0 if none).
#[inline]
pub(crate) fn victim_value(pos: &Position, m: Move) -> i32 {
    pos.piece_at(m.to())
        .map_or(0, |p| SEE_VALUE[p.kind().index()])
}

#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| p.kind().index() as i32);
    victim_value(pos, m) * 8 - attacker
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    Generate,
    Pick,
}

/// Hands out the moves of one node, best first (see the module documentation).
pub(crate) struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Quiescence: captures only (unless in check, when all evasions are generated).
    captures_only: bool,
    skip_quiets: bool,
    next: usize,
}

/// The move list and scores of one node; kept per ply in the thread's data and reused, so that
/// no node pays for initialising them.
pub(crate) struct MoveBuffer {
    pub moves: MoveList,
    pub scores: [i32; MoveList::CAPACITY],
}

impl MoveBuffer {
    pub fn new() -> MoveBuffer {
        MoveBuffer {
            moves: MoveList::new(),
            scores: [0; MoveList::CAPACITY],
        }
    }
}

impl MovePicker {
    /// The picker of a full-width node.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            captures_only: false,
            skip_quiets: false,
            next: 0,
        }
    }

    /// The picker of a quiescence node: captures only, or every evasion when in check.
    pub fn quiescence(tt_move: Move, in_check: bool) -> MovePicker {
        let mut p = MovePicker::new(tt_move, [Move::NONE; 2], Move::NONE);
        p.captures_only = !in_check;
        p
    }

    /// From now on, hand out no more quiet moves (late move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when all have been handed out.
    pub fn next(
        &mut self,
        pos: &Position,
        history: &History,
        buf: &mut MoveBuffer,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::Generate;
                    let m = self.tt_move;
                    if !m.is_none() && (!self.captures_only || pos.is_capture(m)) && pos.is_legal(m)
                    {
                        return Some(m);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::Generate => {
                    self.stage = Stage::Pick;
                    buf.moves.clear();
                    if self.captures_only {
                        pos.legal_captures(&mut buf.moves);
                    } else {
                        pos.legal_moves(&mut buf.moves);
                    }
                    self.score(pos, history, buf);
                }
                Stage::Pick => return self.pick(pos, buf),
            }
        }
    }

    fn score(&self, pos: &Position, history: &History, buf: &mut MoveBuffer) {
        let us = pos.turn();
        for (i, &m) in buf.moves.iter().enumerate() {
            buf.scores[i] = if m == self.tt_move {
                i32::MIN
            } else if pos.is_capture(m) {
                let v = mvv_lva(pos, m);
                // Capturing something worth at least the capturer never loses material.
                let attacker = pos
                    .piece_at(m.from())
                    .map_or(0, |p| SEE_VALUE[p.kind().index()]);
                if self.captures_only || attacker <= victim_value(pos, m) || see(pos, m) >= 0 {
                    SCORE_GOOD_CAPTURE + v
                } else {
                    SCORE_BAD_CAPTURE + v
                }
            } else if m == self.killers[0] {
                SCORE_KILLER_1
            } else if m == self.killers[1] {
                SCORE_KILLER_2
            } else if m == self.counter {
                SCORE_COUNTER
            } else {
                history.score(us, m)
            };
        }
    }

    fn pick(&mut self, pos: &Position, buf: &mut MoveBuffer) -> Option<Move> {
        let n = buf.moves.len();
        loop {
            if self.next >= n {
                return None;
            }
            let mut best = self.next;
            for i in self.next + 1..n {
                if buf.scores[i] > buf.scores[best] {
                    best = i;
                }
            }
            let slice = buf.moves.as_mut_slice();
            slice.swap(self.next, best);
            buf.scores.swap(self.next, best);
            let (m, s) = (slice[self.next], buf.scores[self.next]);
            self.next += 1;
            if s == i32::MIN {
                // The TT move, already handed out.
                continue;
            }
            if self.skip_quiets && !pos.is_capture(m) {
                continue;
            }
            return Some(m);
        }
    }
}

/// `true` when `m` is a quiet move (no capture).
#[inline]
pub(crate) fn is_quiet(pos: &Position, m: Move) -> bool {
    !pos.is_capture(m)
}

/// The raw byte of the piece that `m` moves (before it is made).
#[inline]
pub(crate) fn moving_piece(pos: &Position, m: Move) -> u8 {
    pos.piece_at(m.from()).map_or(0, Piece::to_u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picker_yields_every_legal_move_once_tt_first() {
        let pos =
            Position::from_fen("2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33")
                .unwrap();
        let legal = pos.legal_move_list();
        let tt = legal[7];
        let history = History::new();
        let mut buf = MoveBuffer::new();
        let mut picker = MovePicker::new(tt, [legal[3], Move::NONE], Move::NONE);
        let mut seen = Vec::new();
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            seen.push(m);
        }
        assert_eq!(seen[0], tt);
        assert_eq!(seen.len(), legal.len());
        let mut a = seen.clone();
        a.sort();
        let mut b = legal.to_vec();
        b.sort();
        assert_eq!(a, b);
        // Captures that win material come before quiet moves.
        let first_quiet = seen
            .iter()
            .skip(1)
            .position(|&m| !pos.is_capture(m))
            .unwrap();
        assert!(
            seen.iter()
                .skip(1 + first_quiet)
                .all(|&m| !pos.is_capture(m) || see(&pos, m) < 0)
        );
    }

    #[test]
    fn an_illegal_tt_move_is_ignored() {
        let pos = Position::start();
        let history = History::new();
        let mut buf = MoveBuffer::new();
        let bogus = Move::new("a0".parse().unwrap(), "a9".parse().unwrap());
        let mut picker = MovePicker::new(bogus, [Move::NONE; 2], Move::NONE);
        let mut n = 0;
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            assert_ne!(m, bogus);
            n += 1;
        }
        assert_eq!(n, 44);
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = History::new();
        let m = Move::new("h2".parse().unwrap(), "e2".parse().unwrap());
        for _ in 0..1000 {
            h.update(Color::Red, m, 5000);
        }
        assert!(h.score(Color::Red, m) <= HISTORY_MAX);
        assert!(h.score(Color::Red, m) > HISTORY_MAX / 2);
        assert_eq!(h.score(Color::Black, m), 0);
    }
}
