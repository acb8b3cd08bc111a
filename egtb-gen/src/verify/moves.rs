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

use chariot_formats::egtb::Indexer;
use chariot_formats::egtb::index::{DefenceKey, Placement, mirror_square};
use chariot_rules::chase::chased;
use chariot_rules::{Color, Position};
use chariot_rules::{Kind, Move, Square, Waivers};

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
        self.legal_at(e).map(|(pos, _)| pos)
    }

    /// The position of entry `e` and its placement, if it is a legal one.
    fn legal_at(&self, e: u64) -> Option<(Position, Placement)> {
        let p = self.ix.decode(e % self.size);
        if p.has_overlap() {
            return None;
        }
        let pos = self.ix.position(&p, self.mover(e), self.waivers).ok()?;
        Some((pos, p))
    }

    /// The first entry of the half with `turn` to move.
    fn half(&self, turn: Color) -> u64 {
        if turn == Color::Red { 0 } else { self.size }
    }

    /// The entry of the placement `q` (the table's frame) with `turn` to move.
    fn entry(&self, q: &Placement, turn: Color) -> Option<u64> {
        Some(self.half(turn) + self.ix.encode(q)?)
    }

    /// Calls `f` with every quiet move of entry `e` into the region, in move-generation order;
    /// what the moves chase only when `chases` is set (else `chase` and `kinds` are unset). The
    /// position a move leads to is its placement with the moved piece's square changed, encoded
    /// afresh ([`quiet_successor`]).
    pub fn successors(&self, e: u64, chases: bool, mut f: impl FnMut(Edge)) {
        let Some((pos, placement)) = self.legal_at(e) else {
            return;
        };
        let turn = self.mover(e).opponent();
        let key = self.ix.defence_key(&placement);
        for &m in pos.legal_move_list().iter() {
            if pos.is_capture(m) {
                continue;
            }
            let Some(to) = quiet_successor(self.ix, key.as_ref(), &placement, m)
                .map(|i| self.half(turn) + i)
                .filter(|&w| self.region.contains(w))
            else {
                continue;
            };
            // Whether it checks and what it chases, only for a move into the region.
            let check = pos.gives_check(m);
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

    /// Calls `f` with the entry of every position of the region that has a quiet move into
    /// entry `w` (a predecessor may come more than once).
    ///
    /// An entry stands for its position and, when the index keeps one of the two, its mirror
    /// image: the moves into either are tried backwards. Each try is a placement with one piece
    /// put back; its entry is asked first (most tries lead outside the region or off the
    /// index), then the rules core whether the position is legal and the move from it legal.
    /// A position found so is stored as itself or as its mirror image. The image has the
    /// mirrored move (the rules are symmetric), into the mirror image of the position tried
    /// from, so it is a predecessor when that image is stored at `w` too; when it is not, the
    /// image's own moves into `w`, if any, are found as tries of their own.
    pub fn predecessors(&self, w: u64, mut f: impl FnMut(u64)) {
        let turn = self.mover(w);
        let mover = turn.opponent();
        let stored = self.ix.decode(w % self.size);
        if stored.has_overlap() {
            return;
        }
        let image = mirrored(&stored);
        let board = |q: &Placement, turn: Color| self.ix.setup(q, turn).board;
        let image_at_w = self.entry(&image, turn) == Some(w);
        // The positions stored at `w`, each with whether its mirror image is stored there too.
        let mut afters = vec![(stored, image_at_w)];
        if image_at_w && board(&image, turn) != board(&stored, turn) {
            afters.push((image, true));
        }
        let pieces = self.ix.slot_pieces();
        for (after, image_at_w) in &afters {
            let occupied: u128 = after.slots().iter().fold(0, |o, &s| o | 1 << s);
            for (slot, piece) in pieces.iter().enumerate() {
                if piece.color() != mover {
                    continue;
                }
                let to = Square::from_index(usize::from(after.squares[slot]))
                    .unwrap_or_else(|| unreachable!("a decoded square"));
                for from in origins(piece.kind(), to, |s| occupied >> s.index() & 1 != 0) {
                    let mut before = *after;
                    before.squares[slot] = from.index() as u8;
                    let Some(v) = self
                        .entry(&before, mover)
                        .filter(|&v| self.region.contains(v))
                    else {
                        continue;
                    };
                    let Ok(pos) = self.ix.position(&before, mover, self.waivers) else {
                        continue;
                    };
                    if !pos.is_legal(Move::new(from, to)) {
                        continue;
                    }
                    // Stored as found, or as its image, whose mirrored move leads to the
                    // image of `after`.
                    if *image_at_w
                        || board(&self.ix.decode(v % self.size), mover) == board(&before, mover)
                    {
                        f(v);
                    }
                }
            }
        }
    }
}

/// The placement reflected left to right (slot by slot).
fn mirrored(p: &Placement) -> Placement {
    let mut q = *p;
    for s in &mut q.squares[..q.len as usize] {
        *s = mirror_square(*s);
    }
    q
}

/// The entry (within its side to move's half) of the position that the quiet move `m` leads to
/// from the placement `p` (the table's frame, as decoded), or `None` where the moved piece's
/// group cannot stand: the placement with the piece's square changed, encoded afresh. (Not the
/// generator's steps, which derive the new index from the old one; [`Indexer::encode`] knows
/// no order within a group and applies the mirror itself.) `key`, `p`'s
/// [`Indexer::defence_key`] when the caller has it, spares encoding the generals' and
/// defenders' part again when a chariot, horse, cannon or soldier moves.
#[must_use]
pub fn quiet_successor(
    ix: &Indexer,
    key: Option<&DefenceKey>,
    p: &Placement,
    m: Move,
) -> Option<u64> {
    let mut q = *p;
    let from = m.from().index() as u8;
    let slot = q.slots().iter().position(|&s| s == from)?;
    q.squares[slot] = m.to().index() as u8;
    match key {
        Some(key)
            if !matches!(
                ix.slot_pieces()[slot].kind(),
                Kind::General | Kind::Advisor | Kind::Elephant
            ) =>
        {
            ix.encode_pieces(key, &q)
        }
        _ => ix.encode(&q),
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
    use chariot_formats::egtb::Signature;

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
