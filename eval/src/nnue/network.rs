//! A network of either architecture, as a file holds it and the search evaluates with it: the
//! piece-square network of net10a ([`PsqNet`], file versions 1 and 2) or the king-bucketed one
//! ([`KingNet`], version 3). Both keep two perspectives' first-layer sums that a move updates;
//! the caller keeps the sums (the search one pair per ply) and a [`RefreshCache`], and asks the
//! network to refresh, update and read them.

use chariot_rules::{Color, Move, Position, Square};

use super::kernels::Kernel;
use super::king::KingNet;
use super::king_features::Orientation;
use super::psq::PsqNet;
use super::refresh::RefreshCache;

pub use super::board::{Change, placed, placed_after};
pub use super::output::{MAX_BUCKETS, SCALE, output_bucket};

/// The two architectures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Architecture {
    /// 1,260 piece-square features, one first layer, one output (net10a; file versions 1, 2).
    PieceSquare,
    /// 7,560 king-bucketed features, a first layer, two hidden layers (file version 3).
    KingBucketed,
}

impl Architecture {
    /// The name in messages and on the command line: `psq`, `king`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Architecture::PieceSquare => "psq",
            Architecture::KingBucketed => "king",
        }
    }
}

/// A quantised network of either architecture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Network {
    /// net10a's architecture.
    PieceSquare(PsqNet),
    /// The king-bucketed architecture.
    KingBucketed(KingNet),
}

impl From<PsqNet> for Network {
    fn from(net: PsqNet) -> Network {
        Network::PieceSquare(net)
    }
}

impl From<KingNet> for Network {
    fn from(net: KingNet) -> Network {
        Network::KingBucketed(net)
    }
}

impl Network {
    /// Which architecture the network has.
    #[must_use]
    pub fn architecture(&self) -> Architecture {
        match self {
            Network::PieceSquare(_) => Architecture::PieceSquare,
            Network::KingBucketed(_) => Architecture::KingBucketed,
        }
    }

    /// Neurons per perspective in the first layer (the length of each perspective's sums).
    #[must_use]
    pub fn hidden(&self) -> usize {
        match self {
            Network::PieceSquare(n) => n.hidden(),
            Network::KingBucketed(n) => n.hidden(),
        }
    }

    /// Output buckets (1 for a single output).
    #[must_use]
    pub fn buckets(&self) -> usize {
        match self {
            Network::PieceSquare(n) => n.buckets(),
            Network::KingBucketed(n) => n.buckets(),
        }
    }

    /// The vector kernels in use.
    #[must_use]
    pub fn kernel(&self) -> Kernel {
        match self {
            Network::PieceSquare(n) => n.kernel(),
            Network::KingBucketed(n) => n.kernel(),
        }
    }

    /// The network computing with `kernel` (the fastest this CPU has by default; the others
    /// give the same numbers, more slowly: for measuring). A kernel the CPU lacks falls back to
    /// the portable one.
    #[must_use]
    pub fn with_kernel(self, kernel: Kernel) -> Network {
        match self {
            Network::PieceSquare(n) => n.with_kernel(kernel).into(),
            Network::KingBucketed(n) => n.with_kernel(kernel).into(),
        }
    }

    /// Computes both perspectives' sums of `pos` into `red` and `black` (`hidden` long each).
    pub fn refresh(
        &self,
        pos: &Position,
        red: &mut [i16],
        black: &mut [i16],
        cache: &mut RefreshCache,
    ) {
        self.refresh_side(Color::Red, pos, red, cache);
        self.refresh_side(Color::Black, pos, black, cache);
    }

    /// Computes `perspective`'s sums of `pos` into `out` (`hidden` long): the king-bucketed
    /// network through `cache`.
    pub fn refresh_side(
        &self,
        perspective: Color,
        pos: &Position,
        out: &mut [i16],
        cache: &mut RefreshCache,
    ) {
        match self {
            Network::PieceSquare(n) => n.refresh_side(perspective, placed(pos), out),
            Network::KingBucketed(n) => cache.refresh_position(n, perspective, pos, out),
        }
    }

    /// Whether `change` makes `perspective`'s sums be refreshed rather than updated: a move of
    /// its own general to another bucket of the king-bucketed network.
    #[must_use]
    pub fn needs_refresh(&self, perspective: Color, change: &Change) -> bool {
        match self {
            Network::PieceSquare(_) => false,
            Network::KingBucketed(_) => KingNet::needs_refresh(perspective, change),
        }
    }

    /// `perspective`'s sums after `change` (into `child`) from those before it (`parent`),
    /// its general standing on `general` (which the king-bucketed network's features depend
    /// on; a change that [`Network::needs_refresh`] is not for this).
    pub fn update_side(
        &self,
        perspective: Color,
        general: Square,
        parent: &[i16],
        child: &mut [i16],
        change: &Change,
    ) {
        match self {
            Network::PieceSquare(n) => n.update_side(perspective, parent, child, change),
            Network::KingBucketed(n) => {
                n.update_side(perspective, general, parent, child, change);
            }
        }
    }

    /// Both perspectives' sums after `m` is played in `pos` (into `child`) from those of `pos`
    /// (`parent`), red's first in each pair: updated, or refreshed through `cache` for the side
    /// whose general changes bucket.
    pub fn update(
        &self,
        parent: (&[i16], &[i16]),
        child: (&mut [i16], &mut [i16]),
        pos: &Position,
        m: Move,
        cache: &mut RefreshCache,
    ) {
        let Some(change) = Change::of(pos, m) else {
            child.0.copy_from_slice(parent.0);
            child.1.copy_from_slice(parent.1);
            return;
        };
        for (perspective, base, out) in [
            (Color::Red, parent.0, child.0),
            (Color::Black, parent.1, child.1),
        ] {
            if self.needs_refresh(perspective, &change) {
                if let Network::KingBucketed(n) = self {
                    let o = Orientation::of(perspective, change.to);
                    cache.refresh(n, perspective, o, placed_after(pos, m), out);
                }
            } else {
                self.update_side(perspective, pos.king(perspective), base, out, &change);
            }
        }
    }

    /// The evaluation in centipawns from the side to move's view, of the sums `red` and `black`
    /// of a position with `pieces` pieces on the board.
    #[must_use]
    pub fn output(&self, red: &[i16], black: &[i16], to_move: Color, pieces: u32) -> i32 {
        match self {
            Network::PieceSquare(n) => n.output(red, black, to_move, pieces),
            Network::KingBucketed(n) => n.output(red, black, to_move, pieces),
        }
    }

    /// The evaluation of a position, from its side to move's view (a full refresh).
    #[must_use]
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        match self {
            Network::PieceSquare(n) => n.evaluate_position(pos),
            Network::KingBucketed(n) => n.evaluate_position(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::random::Rng;
    use chariot_rules::testing::{ROOTS, random_games};

    /// Both architectures' sums, kept move by move through [`Network::update`] with one cache,
    /// equal a refresh, and their readings the position's evaluation.
    #[test]
    fn both_architectures_update_and_read_their_sums_alike() {
        let mut rng = Rng::seeded(21);
        let nets: [Network; 2] = [
            crate::nnue::psq::random_net(&mut rng, 32, 3).into(),
            crate::nnue::king::random_net(&mut rng, 32, 3).into(),
        ];
        let mut cache = RefreshCache::new();
        for net in &nets {
            let h = net.hidden();
            random_games(&ROOTS, 10, 60, &mut rng, |pos| {
                let (mut red, mut black) = (vec![0; h], vec![0; h]);
                net.refresh(pos, &mut red, &mut black, &mut cache);
                for m in pos.legal_move_list().iter().take(8) {
                    let (mut r, mut b) = (vec![0; h], vec![0; h]);
                    net.update((&red, &black), (&mut r, &mut b), pos, *m, &mut cache);
                    let mut after = pos.clone();
                    after.make_move(*m);
                    let v = net.output(&r, &b, after.turn(), after.piece_count());
                    assert_eq!(
                        v,
                        net.evaluate_position(&after),
                        "{}",
                        net.architecture().name()
                    );
                    let (mut fr, mut fb) = (vec![0; h], vec![0; h]);
                    net.refresh(&after, &mut fr, &mut fb, &mut cache);
                    assert_eq!((r, b), (fr, fb));
                }
            });
        }
    }
}
