//! Unmoves: the positions one quiet move before a given one (captures lead out of a table, so
//! inside it every predecessor is reached by un-moving a piece without un-capturing).
//!
//! Works on [`Placement`]s in the table's frame. Each unmove is the exact reverse of one legal
//! quiet move: the origin must be empty, rook and cannon slide back over empty squares, a horse's
//! leg is next to its origin (so it is checked there, not next to its target), a soldier steps
//! back towards its own side or, across the river, sideways. Origins a piece can never stand on
//! are dropped by [`Indexer::encode`], and predecessors that are no legal position (the side not
//! to move in check, generals facing) by the caller, which knows them from the first pass.

use chariot_formats::egtb::Indexer;
use chariot_formats::egtb::index::{DefenceStep, PieceStep, Placement, mirror_square};
use chariot_rules::{Color, Kind};

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const HORSE: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

#[inline]
fn at(file: i32, rank: i32) -> Option<u8> {
    ((0..9).contains(&file) && (0..10).contains(&rank)).then(|| (file + 9 * rank) as u8)
}

/// Calls `emit(index)` once for every (predecessor, move) pair whose move leads from a position
/// stored at `index` (with `mover` to move) to the position stored at `idx` (with the other side
/// to move).
pub fn predecessors(ix: &Indexer, idx: u64, mover: Color, emit: impl FnMut(u64)) {
    predecessors_by(ix, idx, mover, Unmoves::All, emit);
}

/// Which pieces' unmoves [`predecessors_by`] follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unmoves {
    /// Every piece's.
    All,
    /// Every piece's but the soldiers' (distance to conversion counts a soldier's move as a
    /// conversion, not as a move inside the table).
    NoSoldiers,
    /// The soldiers' only (the conversions by a soldier's move).
    SoldiersOnly,
}

impl Unmoves {
    fn follows(self, kind: Kind) -> bool {
        match self {
            Unmoves::All => true,
            Unmoves::NoSoldiers => kind != Kind::Soldier,
            Unmoves::SoldiersOnly => kind == Kind::Soldier,
        }
    }
}

/// [`predecessors`] by the unmoves of the pieces `which` names.
pub fn predecessors_by(
    ix: &Indexer,
    idx: u64,
    mover: Color,
    which: Unmoves,
    mut emit: impl FnMut(u64),
) {
    let p = ix.decode(idx);
    unmoves(ix, &p, Some(idx), mover, which, &mut emit);
    // A placement stands for its mirror image too, unless the image has its own index (both
    // generals on the e-file, and in key schemes 2 and 3 a symmetric weak defence): then it has its
    // own predecessors.
    if ix.covers_mirror(&p) {
        let mut m = p;
        for s in &mut m.squares[..m.len as usize] {
            *s = mirror_square(*s);
        }
        unmoves(ix, &m, None, mover, which, &mut emit);
    }
}

/// How an unmove's predecessor gets its index.
enum Step<'a> {
    /// From `p`'s index, a chariot, horse, cannon or soldier's digit changed.
    Piece(PieceStep<'a>),
    /// From `p`'s index, an advisor or elephant's side's defence digit changed.
    Defence(DefenceStep<'a>),
    /// Encoded whole (a general, or a placement the steps do not cover), kept when stored as
    /// it is.
    Encode,
}

/// The unmoves of `p` itself, keeping only predecessors that are stored without the mirror.
/// `idx` is the index of `p` when `p` is stored as it is: the unmoves of chariots, horses,
/// cannons and soldiers then derive their index from it ([`Indexer::piece_step`]).
fn unmoves(
    ix: &Indexer,
    p: &Placement,
    idx: Option<u64>,
    mover: Color,
    which: Unmoves,
    emit: &mut impl FnMut(u64),
) {
    let mut occupied = 0u128;
    for &s in p.slots() {
        occupied |= 1 << s;
    }
    let empty = |s: u8| occupied >> s & 1 == 0;
    let pieces = ix.slot_pieces();
    // Whether a placement is stored as it is depends on the generals and the weak side's
    // defence only: moving any other piece keeps the answer.
    let canonical = ix.is_canonical(p);
    let mut q = *p;
    let mut try_origin = |slot: usize, from: u8, step: &Step<'_>, q: &mut Placement| {
        if let Step::Piece(step) = step {
            if let Some(i) = step.index_with(p, from) {
                emit(i);
            }
            return;
        }
        let old = q.squares[slot];
        q.squares[slot] = from;
        let i = match step {
            // Canonical like `p`: only that side's defence digit changes.
            Step::Defence(step) => step.index_of(q),
            _ if ix.is_canonical(q) => ix.encode(q),
            _ => None,
        };
        debug_assert_eq!(
            i,
            ix.is_canonical(q).then(|| ix.encode(q)).flatten(),
            "the predecessor's index"
        );
        if let Some(i) = i {
            emit(i);
        }
        q.squares[slot] = old;
    };
    for (slot, piece) in pieces.iter().enumerate() {
        if piece.color() != mover || !which.follows(piece.kind()) {
            continue;
        }
        let attacker = matches!(
            piece.kind(),
            Kind::Chariot | Kind::Horse | Kind::Cannon | Kind::Soldier
        );
        if attacker && !canonical {
            // Every predecessor is stored as its mirror image, found from the image's unmoves.
            continue;
        }
        let step = match idx {
            Some(i) if attacker => ix.piece_step(i, p, slot).map_or(Step::Encode, Step::Piece),
            Some(i) => ix
                .defence_step(i, p, slot)
                .map_or(Step::Encode, Step::Defence),
            None => Step::Encode,
        };
        let t = p.squares[slot];
        let (tf, tr) = (i32::from(t % 9), i32::from(t / 9));
        match piece.kind() {
            Kind::Chariot | Kind::Cannon => {
                for (df, dr) in ORTHO {
                    let (mut f, mut r) = (tf + df, tr + dr);
                    while let Some(s) = at(f, r) {
                        if !empty(s) {
                            break;
                        }
                        try_origin(slot, s, &step, &mut q);
                        f += df;
                        r += dr;
                    }
                }
            }
            Kind::Horse => {
                for (df, dr) in HORSE {
                    let Some(s) = at(tf + df, tr + dr) else {
                        continue;
                    };
                    // The leg is next to the origin, one step back towards the target along the
                    // long side of the jump.
                    let (lf, lr) = if df.abs() == 2 {
                        (tf + df - df.signum(), tr + dr)
                    } else {
                        (tf + df, tr + dr - dr.signum())
                    };
                    let leg = at(lf, lr).unwrap_or(t);
                    if empty(s) && empty(leg) {
                        try_origin(slot, s, &step, &mut q);
                    }
                }
            }
            Kind::General => {
                for (df, dr) in ORTHO {
                    if let Some(s) = at(tf + df, tr + dr).filter(|&s| empty(s)) {
                        try_origin(slot, s, &step, &mut q);
                    }
                }
            }
            Kind::Advisor => {
                for (df, dr) in DIAG {
                    if let Some(s) = at(tf + df, tr + dr).filter(|&s| empty(s)) {
                        try_origin(slot, s, &step, &mut q);
                    }
                }
            }
            Kind::Elephant => {
                for (df, dr) in DIAG {
                    let (Some(s), Some(eye)) = (at(tf + 2 * df, tr + 2 * dr), at(tf + df, tr + dr))
                    else {
                        continue;
                    };
                    // Elephants never cross the river: origin and target are on one half.
                    let same_half = (tr <= 4) == (tr + 2 * dr <= 4);
                    if same_half && empty(s) && empty(eye) {
                        try_origin(slot, s, &step, &mut q);
                    }
                }
            }
            Kind::Soldier => {
                let back = if mover == Color::Red { -1 } else { 1 };
                if let Some(s) = at(tf, tr + back).filter(|&s| empty(s)) {
                    try_origin(slot, s, &step, &mut q);
                }
                let crossed = if mover == Color::Red {
                    tr >= 5
                } else {
                    tr <= 4
                };
                if crossed {
                    for df in [-1, 1] {
                        if let Some(s) = at(tf + df, tr).filter(|&s| empty(s)) {
                            try_origin(slot, s, &step, &mut q);
                        }
                    }
                }
            }
        }
    }
}
