//! The rule game's moves for `verify`, generated when they are needed rather than stored: a
//! table's drawn and rule-decided positions are most of a large table (`KRABKRAB`: 229 M of
//! 350 M positions), and their moves stored both ways took some 200 bytes a position.
//!
//! Successors come from the rules core's move generation. Predecessors are found without the
//! generator's unmoves: every square a piece of the side that just moved could have come from
//! (a superset: the lines of a chariot or cannon, the points a horse, advisor, elephant, general
//! or soldier steps from) is tried by putting the piece back there and asking the rules core
//! whether that position is legal and the move from it legal. The forward rules decide; the
//! geometry only keeps the tries few.

use chariot::egtb::Indexer;
use chariot::rules::chase::chased;
use chariot::rules::{Kind, Move, Square, Waivers};
use chariot::{Color, Position};

use crate::region::Region;

/// A quiet move into the region: the entry it leads to, whether it gives check, and (when the
/// table judges chases) whether it chases anything and the kinds it chases (bit per
/// [`Kind`] index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The entry of the position after the move.
    pub to: u64,
    /// The move gives check.
    pub check: bool,
    /// The move chases some piece.
    pub chase: bool,
    /// The kinds of the pieces it chases.
    pub kinds: u8,
}

/// The moves of a table's positions inside its rule game's region.
pub struct Moves<'a> {
    ix: &'a Indexer,
    size: u64,
    region: &'a Region,
    waivers: Waivers,
}

impl<'a> Moves<'a> {
    /// The moves of `ix`'s table within `region` (a region of entries, both halves: Red to move
    /// first), positions checked against the rules except for `waivers`.
    #[must_use]
    pub fn new(ix: &'a Indexer, region: &'a Region, waivers: Waivers) -> Moves<'a> {
        Moves {
            ix,
            size: ix.size(),
            region,
            waivers,
        }
    }

    /// The side to move in entry `e`.
    #[must_use]
    pub fn mover(&self, e: u64) -> Color {
        if e < self.size {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The position of entry `e`, if it is a legal one.
    #[must_use]
    pub fn position(&self, e: u64) -> Option<Position> {
        let p = self.ix.decode(e % self.size);
        if p.has_overlap() {
            return None;
        }
        self.ix.position(&p, self.mover(e), self.waivers).ok()
    }

    /// The entry of a position of this table.
    fn entry(&self, pos: &Position) -> Option<u64> {
        let (t, i) = self.ix.index_of(pos).ok()?;
        Some(t.index() as u64 * self.size + i)
    }

    /// Calls `f` with every quiet move of entry `e` into the region, in move-generation order;
    /// what the moves chase only when `chases` is set (else `chase` and `kinds` are unset).
    pub fn successors(&self, e: u64, chases: bool, mut f: impl FnMut(Edge)) {
        let Some(mut pos) = self.position(e) else {
            return;
        };
        for &m in pos.legal_move_list().iter() {
            if pos.is_capture(m) {
                continue;
            }
            pos.make_move(m);
            let to = self.entry(&pos).filter(|&w| self.region.contains(w));
            let check = pos.in_check();
            pos.unmake_move();
            if let Some(to) = to {
                // What it chases, only for a move into the region (read before the move).
                let (chase, kinds) = if chases {
                    chased_kinds(&pos, m)
                } else {
                    (false, 0)
                };
                f(Edge {
                    to,
                    check,
                    chase,
                    kinds,
                });
            }
        }
    }

    /// Calls `f` with the entry of every position of the region that has a quiet move into
    /// entry `w` (a predecessor may come more than once).
    ///
    /// An entry stands for its position and, when the index keeps one of the two, its mirror
    /// image: the moves into either are tried backwards. A position found so is stored as
    /// itself or as its mirror image, whose move may lead to an entry of its own; such a
    /// predecessor is kept only when its own moves, generated forwards, reach `w`.
    pub fn predecessors(&self, w: u64, mut f: impl FnMut(u64)) {
        let turn = self.mover(w);
        let mover = turn.opponent();
        let p = self.ix.decode(w % self.size);
        if p.has_overlap() {
            return;
        }
        let stored = self.ix.setup(&p, turn);
        let image = stored.mirror();
        let mut afters = vec![stored];
        if image != afters[0]
            && Position::from_setup(&image, self.waivers)
                .ok()
                .and_then(|pos| self.entry(&pos))
                == Some(w)
        {
            afters.push(image);
        }
        for after in &afters {
            for to in Square::all() {
                let Some(piece) = after.piece_at(to).filter(|p| p.color() == mover) else {
                    continue;
                };
                for from in origins(piece.kind(), to, |s| after.piece_at(s).is_some()) {
                    let mut before = after.clone();
                    before.board[to.index()] = None;
                    before.board[from.index()] = Some(piece);
                    before.turn = mover;
                    let Ok(pos) = Position::from_setup(&before, self.waivers) else {
                        continue;
                    };
                    if !pos.is_legal(Move::new(from, to)) {
                        continue;
                    }
                    let Some(v) = self.entry(&pos).filter(|&v| self.region.contains(v)) else {
                        continue;
                    };
                    // Stored as found (a position of the region is legal, so its board is
                    // its placement's), or its own moves reach `w`.
                    if self.ix.setup(&self.ix.decode(v % self.size), mover).board == before.board
                        || self.reaches(v, w)
                    {
                        f(v);
                    }
                }
            }
        }
    }

    /// Whether entry `v` has a quiet move into entry `w`.
    fn reaches(&self, v: u64, w: u64) -> bool {
        let mut found = false;
        self.successors(v, false, |x| found |= x.to == w);
        found
    }
}

/// Whether the legal move `m` of `pos` chases anything, and the kinds of the pieces it chases
/// (bit per [`Kind`] index).
#[must_use]
pub fn chased_kinds(pos: &Position, m: Move) -> (bool, u8) {
    let mut kinds = 0u8;
    let squares = chased(pos, m);
    for sq in squares {
        if let Some(piece) = pos.piece_at(sq) {
            kinds |= 1 << piece.kind() as u8;
        }
    }
    (!squares.is_empty(), kinds)
}

/// The empty squares a piece of `kind` could have come from to `to` by a quiet move, a superset
/// the rules core narrows down: for a chariot or cannon the empty squares along the file and
/// rank up to the first piece (a quiet move slides); for the others the squares of their step's
/// shape (a horse's eight, without its leg; an elephant's or advisor's four diagonals; a
/// general's or soldier's four neighbours, whatever its palace or direction). `occupied` tells
/// which squares hold a piece after the move.
fn origins(kind: Kind, to: Square, occupied: impl Fn(Square) -> bool) -> Vec<Square> {
    let at = |df: i8, dr: i8| {
        let (f, r) = (to.file() as i8 + df, to.rank() as i8 + dr);
        ((0..9).contains(&f) && (0..10).contains(&r)).then(|| Square::new(f as u8, r as u8))
    };
    // A step's shape by its squared length: 1 for a general's or soldier's, 2 for an
    // advisor's, 5 for a horse's, 8 for an elephant's.
    let length = match kind {
        Kind::Chariot | Kind::Cannon => {
            let mut out = Vec::new();
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut k = 1;
                while let Some(s) = at(df * k, dr * k).filter(|&s| !occupied(s)) {
                    out.push(s);
                    k += 1;
                }
            }
            return out;
        }
        Kind::General | Kind::Soldier => 1,
        Kind::Advisor => 2,
        Kind::Horse => 5,
        Kind::Elephant => 8,
    };
    (-2..=2)
        .flat_map(|df| (-2..=2).map(move |dr| (df, dr)))
        .filter(|&(df, dr)| df * df + dr * dr == length)
        .filter_map(|(df, dr)| at(df, dr))
        .filter(|&s| !occupied(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot::egtb::Signature;

    /// Every quiet move of every position of a region into the region is found again from
    /// the other end: the position is among its target's predecessors, and nothing else is.
    #[test]
    fn predecessors_are_the_quiet_moves_turned_round() {
        for name in ["KRAKN", "KRAKR", "KNPKAB", "KCKAA", "KPPKB"] {
            let sig: Signature = name.parse().unwrap();
            let ix = Indexer::new(sig).unwrap();
            let waivers = Waivers {
                placement: true,
                counts: true,
                opposite_check: false,
            };
            let total = 2 * ix.size();
            let all = Region::new(total, |_| true);
            let probe = Moves::new(&ix, &all, waivers);
            let region = Region::new(total, |e| probe.position(e).is_some());
            let moves = Moves::new(&ix, &region, waivers);
            // A sample of the entries, spread over both halves.
            let step = (total / 1000).max(1) | 1;
            for v in (0..total).step_by(step as usize) {
                if !region.contains(v) {
                    continue;
                }
                let mut succ = Vec::new();
                moves.successors(v, false, |x| succ.push(x.to));
                for w in succ {
                    let mut preds = Vec::new();
                    moves.predecessors(w, |u| preds.push(u));
                    assert!(
                        preds.contains(&v),
                        "{name}: {v} -> {w}, predecessors {preds:?}"
                    );
                    for u in preds {
                        let mut back = Vec::new();
                        moves.successors(u, false, |x| back.push(x.to));
                        assert!(back.contains(&w), "{name}: {u} is no predecessor of {w}");
                    }
                }
            }
        }
    }
}
