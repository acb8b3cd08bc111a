//! The incrementally kept part of the evaluation: material, piece-square sums, piece counts and
//! the attackers in each side's king zone.
//!
//! Summing the piece-square tables over 32 pieces at every evaluated node costs more than all the
//! other cheap terms together, and a move changes at most three entries (the mover leaves its
//! square and arrives on another, a captured piece disappears). The search therefore keeps an
//! [`Accumulator`] per ply and derives the child's from the parent's with
//! [`Accumulator::after_move`]. The sums are exactly those a scan of the board gives
//! ([`Accumulator::new`]); debug builds check that at every evaluation, and a test checks it over
//! random games.

use super::{NO_ZONE_SLOT, Tables, ZONE_OF, ZONE_SLOT, default_tables, zone_slot};
use chariot_rules::{Color, Move, Piece, Position};

/// Material and piece-square sums of each side, and the number of pieces of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Per side: material plus piece-square values, (midgame, endgame).
    pub(super) psq: [(i32, i32); 2],
    /// Pieces on the board by raw piece byte (`Piece::slot`).
    pub(super) counts: [u8; 16],
    /// Per side: the enemy chariots, horses, cannons and soldiers in that side's king zone.
    pub(super) zone: [[u8; 4]; 2],
}

impl Accumulator {
    /// The sums of `pos`, computed from scratch (with the default weights).
    #[must_use]
    pub fn new(pos: &Position) -> Accumulator {
        Accumulator::with_tables(pos, default_tables())
    }

    pub(super) fn with_tables(pos: &Position, tables: &Tables) -> Accumulator {
        let mut acc = Accumulator {
            psq: [(0, 0); 2],
            counts: [0; 16],
            zone: [[0; 4]; 2],
        };
        for sq in pos.occupied() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let c = piece.color().index();
            let (m, e) = tables.psq[piece.slot()][sq.index()];
            acc.psq[c].0 += m;
            acc.psq[c].1 += e;
            acc.counts[piece.slot()] += 1;
            let defender = piece.color().opponent().index();
            if let Some(slot) = zone_slot(piece.kind())
                && ZONE_OF[sq.index()] >> defender & 1 != 0
            {
                acc.zone[defender][slot] += 1;
            }
        }
        acc
    }

    /// The sums after the legal move `m` is made in `pos` (the position before the move).
    #[inline]
    #[must_use]
    pub fn after_move(&self, pos: &Position, m: Move) -> Accumulator {
        let tables = default_tables();
        let mut acc = *self;
        let (from, to) = (m.from().index(), m.to().index());
        // Raw piece bytes index the tables (the board holds them; the mask keeps the index
        // inside the tables without a bounds test).
        let moving = usize::from(pos.board()[from] & 15);
        debug_assert!(moving != 0, "no piece to move for {m} in {pos}");
        let c = moving >> 3;
        let row = &tables.psq[moving];
        acc.psq[c].0 += row[to].0 - row[from].0;
        acc.psq[c].1 += row[to].1 - row[from].1;
        let slot = ZONE_SLOT[moving];
        if slot != NO_ZONE_SLOT {
            // The mover attacks the other side's zone.
            let zone = &mut acc.zone[c ^ 1][usize::from(slot & 3)];
            *zone = *zone + (ZONE_OF[to] >> (c ^ 1) & 1) - (ZONE_OF[from] >> (c ^ 1) & 1);
        }
        let v = usize::from(pos.board()[to] & 15);
        if v != 0 {
            let slot = ZONE_SLOT[v];
            if slot != NO_ZONE_SLOT {
                acc.zone[c][usize::from(slot & 3)] -= ZONE_OF[to] >> c & 1;
            }
            let (m, e) = tables.psq[v][to];
            let o = c ^ 1;
            acc.psq[o].0 -= m;
            acc.psq[o].1 -= e;
            acc.counts[v] -= 1;
        }
        acc
    }

    /// Per side: material alone, (midgame, endgame), from the piece counts.
    pub(super) fn material(&self, tables: &Tables) -> [(i32, i32); 2] {
        let mut out = [(0, 0); 2];
        for (byte, &n) in self.counts.iter().enumerate() {
            let (m, e) = tables.material[byte];
            let side = &mut out[byte >> 3];
            side.0 += i32::from(n) * m;
            side.1 += i32::from(n) * e;
        }
        out
    }

    /// The number of `piece`s on the board.
    #[inline]
    #[must_use]
    pub fn count(&self, piece: Piece) -> i32 {
        i32::from(self.counts[piece.slot()])
    }

    /// The number of pieces of `color` and the kind with index `kind` (see [`chariot_rules::Kind::index`]).
    #[inline]
    pub(super) fn count_of(&self, color: Color, kind: usize) -> i32 {
        i32::from(self.counts[(color.index() << 3 | (kind + 1)) & 15])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Position;
    use chariot_rules::testing::Rng;

    #[test]
    fn incremental_sums_match_a_scan_over_random_games() {
        let roots = [
            chariot_rules::START_FEN,
            "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ];
        let mut rng = Rng::seeded(0x9e37_79b9_7f4a_7c15);
        for fen in roots {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut acc = Accumulator::new(&pos);
                let mut stack = vec![acc];
                for _ in 0..150 {
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.next_u64() as usize % moves.len()];
                    acc = acc.after_move(&pos, m);
                    pos.make_move(m);
                    assert_eq!(acc, Accumulator::new(&pos), "after {m}: {pos}");
                    assert_eq!(
                        super::super::evaluate_incremental(
                            &pos,
                            &super::super::EvalConfig::FULL,
                            &acc
                        ),
                        super::super::evaluate(&pos)
                    );
                    stack.push(acc);
                }
                // Unwinding returns to the stacked sums.
                while !pos.history().is_empty() {
                    pos.unmake_move();
                    stack.pop();
                    assert_eq!(*stack.last().unwrap(), Accumulator::new(&pos));
                }
            }
        }
    }
}
