//! net10a's architecture, the piece-square network (file versions 1 and 2): a first layer of
//! `hidden` neurons per perspective over the 1,260 [`features`],
//! kept as an accumulator that moves update by adding and subtracting one weight row per piece,
//! a clipped ReLU, and one output neuron over both perspectives (the side to move's first). The
//! output neuron may come in several buckets, one of which is chosen by the number of pieces on
//! the board ([`output_bucket`]): an endgame is then read by other weights than an opening.
//!
//! Quantisation (as the trainer exports): first-layer weights and biases × [`QA`], output
//! weights × [`QB`], output bias × `QA × QB`; the activation is clipped to `0..=QA`, so the output
//! sum is `QA × QB` times the float network's, and the evaluation in centipawns is that sum ×
//! [`SCALE`] / (`QA × QB`). Integer arithmetic throughout: every build and CPU gives the same
//! number, whichever of the [`kernels`](super::kernels) (AVX2 or portable) does the work.

use super::board::Change;
use super::features::{self, INPUTS};
use super::kernels::Kernel;
use super::output::{MAX_BUCKETS, SCALE, output_bucket};
use chariot_rules::{Color, Piece, Position, Square};

/// First-layer quantisation: an activation of 1.0 is `QA`.
pub const QA: i16 = 255;
/// Output-layer quantisation: a weight of 1.0 is `QB`.
pub const QB: i16 = 256;

/// A quantised piece-square network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PsqNet {
    hidden: usize,
    /// First-layer weights, one row of `hidden` per feature.
    pub(super) w1: Vec<i16>,
    /// First-layer biases.
    pub(super) b1: Vec<i16>,
    /// Output weights, bucket by bucket: `hidden` for the side to move, then `hidden` for the
    /// other side.
    pub(super) w2: Vec<i16>,
    /// Output biases, one per bucket.
    pub(super) b2: Vec<i32>,
    /// The vector kernels the arithmetic runs on (the same results whichever).
    kernel: Kernel,
}

/// The first layer's sums for both perspectives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    red: Vec<i16>,
    black: Vec<i16>,
}

impl PsqNet {
    /// A network from its quantised parts; the output biases' count is the number of buckets.
    ///
    /// # Panics
    ///
    /// When the lengths do not fit one hidden size `h` and bucket count `b` (`w1`: `INPUTS ×
    /// h`, `b1`: `h`, `w2`: `2h × b`, `b2`: `b` from 1 to [`MAX_BUCKETS`]).
    #[must_use]
    pub fn from_parts(w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: Vec<i32>) -> PsqNet {
        let hidden = b1.len();
        let buckets = b2.len();
        assert!(
            w1.len() == INPUTS * hidden
                && w2.len() == 2 * hidden * buckets
                && (1..=MAX_BUCKETS).contains(&buckets),
            "inconsistent network sizes"
        );
        PsqNet {
            hidden,
            w1,
            b1,
            w2,
            b2,
            kernel: Kernel::detect(),
        }
    }

    /// The quantised parts, as [`PsqNet::from_parts`] takes them: first-layer weights and
    /// biases, output weights and biases.
    #[must_use]
    pub fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (&self.w1, &self.b1, &self.w2, &self.b2)
    }

    /// The network computing with `kernel` (the fastest this CPU has by default; the others
    /// give the same numbers, more slowly: for measuring). A kernel the CPU lacks falls back to
    /// the portable one.
    #[must_use]
    pub fn with_kernel(mut self, kernel: Kernel) -> PsqNet {
        self.kernel = if kernel.available() {
            kernel
        } else {
            Kernel::Portable
        };
        self
    }

    /// The vector kernels in use.
    #[must_use]
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Neurons per perspective in the first layer.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (1 for a single output).
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    fn row(&self, feature: usize) -> &[i16] {
        &self.w1[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The accumulator of the pieces `placed`, computed afresh.
    pub fn refresh(&self, placed: impl Iterator<Item = (Piece, Square)>) -> Accumulator {
        let mut acc = Accumulator {
            red: self.b1.clone(),
            black: self.b1.clone(),
        };
        for (piece, sq) in placed {
            self.add(&mut acc, piece, sq);
        }
        acc
    }

    /// The accumulator of a position.
    #[must_use]
    pub fn refresh_position(&self, pos: &Position) -> Accumulator {
        self.refresh(Square::all().filter_map(|s| pos.piece_at(s).map(|p| (p, s))))
    }

    /// Adds `piece` on `sq` to the accumulator.
    pub fn add(&self, acc: &mut Accumulator, piece: Piece, sq: Square) {
        self.add_to(&mut acc.red, &mut acc.black, piece, sq);
    }

    /// Takes `piece` on `sq` off the accumulator.
    pub fn remove(&self, acc: &mut Accumulator, piece: Piece, sq: Square) {
        self.remove_from(&mut acc.red, &mut acc.black, piece, sq);
    }

    /// The first-layer biases: the sums of an empty board, for each perspective.
    #[must_use]
    pub fn biases(&self) -> &[i16] {
        &self.b1
    }

    /// Adds `piece` on `sq` to first-layer sums kept elsewhere (the search's stack of them):
    /// `red` and `black` are the two perspectives', `hidden` long each.
    pub fn add_to(&self, red: &mut [i16], black: &mut [i16], piece: Piece, sq: Square) {
        let k = self.kernel;
        k.add_row(red, self.row(features::index(Color::Red, piece, sq)));
        k.add_row(black, self.row(features::index(Color::Black, piece, sq)));
    }

    /// Takes `piece` on `sq` off first-layer sums kept elsewhere (see [`PsqNet::add_to`]).
    pub fn remove_from(&self, red: &mut [i16], black: &mut [i16], piece: Piece, sq: Square) {
        let k = self.kernel;
        k.sub_row(red, self.row(features::index(Color::Red, piece, sq)));
        k.sub_row(black, self.row(features::index(Color::Black, piece, sq)));
    }

    /// `perspective`'s sums of the pieces `placed`, computed afresh into `out`.
    pub fn refresh_side(
        &self,
        perspective: Color,
        placed: impl Iterator<Item = (Piece, Square)>,
        out: &mut [i16],
    ) {
        out.copy_from_slice(&self.b1);
        for (piece, sq) in placed {
            self.kernel
                .add_row(out, self.row(features::index(perspective, piece, sq)));
        }
    }

    /// `perspective`'s sums after `change` (into `child`) from those before it (`parent`), in
    /// one pass: the moved piece's row added on its new square, taken off its old one, and a
    /// captured piece's taken off.
    pub fn update_side(
        &self,
        perspective: Color,
        parent: &[i16],
        child: &mut [i16],
        change: &Change,
    ) {
        let row = |piece: Piece, sq: Square| self.row(features::index(perspective, piece, sq));
        let add = [row(change.mover, change.to)];
        let from = row(change.mover, change.from);
        match change.captured {
            Some(c) => self
                .kernel
                .update(child, parent, &add, &[from, row(c, change.to)]),
            None => self.kernel.update(child, parent, &add, &[from]),
        }
    }

    /// The evaluation in centipawns from the side to move's view, of a position with `pieces`
    /// pieces on the board (which picks the output bucket).
    #[must_use]
    pub fn evaluate(&self, acc: &Accumulator, to_move: Color, pieces: u32) -> i32 {
        self.output(&acc.red, &acc.black, to_move, pieces)
    }

    /// The evaluation in centipawns from the side to move's view, of first-layer sums kept
    /// elsewhere (see [`PsqNet::add_to`]) for a position with `pieces` pieces on the board.
    #[must_use]
    pub fn output(&self, red: &[i16], black: &[i16], to_move: Color, pieces: u32) -> i32 {
        let (us, them) = if to_move.is_red() {
            (red, black)
        } else {
            (black, red)
        };
        let bucket = output_bucket(self.b2.len(), pieces);
        let h = self.hidden;
        let (w_us, w_them) = self.w2[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h);
        let k = self.kernel;
        let sum = k
            .dot_crelu(us, w_us, QA)
            .wrapping_add(k.dot_crelu(them, w_them, QA))
            .wrapping_add(self.b2[bucket]);
        sum * SCALE / (i32::from(QA) * i32::from(QB))
    }

    /// The evaluation of a position, from its side to move's view (a full refresh).
    #[must_use]
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&self.refresh_position(pos), pos.turn(), pos.piece_count())
    }
}

/// A network of random weights (first layer within ±120, output within ±60), `buckets` outputs.
#[cfg(test)]
pub(crate) fn random_net(
    rng: &mut chariot_rules::random::Rng,
    hidden: usize,
    buckets: usize,
) -> PsqNet {
    let mut w = |n: usize, span: usize| -> Vec<i16> {
        (0..n)
            .map(|_| rng.below(2 * span + 1) as i16 - span as i16)
            .collect()
    };
    let w1 = w(INPUTS * hidden, 120);
    let b1 = w(hidden, 200);
    let w2 = w(2 * hidden * buckets, 60);
    PsqNet::from_parts(
        w1,
        b1,
        w2,
        (0..buckets as i32).map(|b| 1234 - 500 * b).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::random::Rng;
    use chariot_rules::testing::{ROOTS, random_games};

    fn random_net(rng: &mut Rng, hidden: usize) -> PsqNet {
        super::random_net(rng, hidden, 1)
    }

    fn random_bucketed(rng: &mut Rng, hidden: usize, buckets: usize) -> PsqNet {
        super::random_net(rng, hidden, buckets)
    }

    #[test]
    fn updating_the_accumulator_move_by_move_equals_a_refresh() {
        let mut rng = Rng::seeded(3);
        let net = random_net(&mut rng, 16);
        let mut checked = 0;
        random_games(&ROOTS, 20, 60, &mut rng, |pos| {
            let acc = net.refresh_position(pos);
            for m in pos.legal_move_list().iter().take(6) {
                let mut inc = acc.clone();
                let mover = pos.piece_at(m.from()).expect("a piece moves");
                if let Some(captured) = pos.piece_at(m.to()) {
                    net.remove(&mut inc, captured, m.to());
                }
                net.remove(&mut inc, mover, m.from());
                net.add(&mut inc, mover, m.to());
                let mut after = pos.clone();
                after.make_move(*m);
                assert_eq!(inc, net.refresh_position(&after));
                // And back (unmake).
                net.remove(&mut inc, mover, m.to());
                net.add(&mut inc, mover, m.from());
                if let Some(captured) = pos.piece_at(m.to()) {
                    net.add(&mut inc, captured, m.to());
                }
                assert_eq!(inc, acc);
                checked += 1;
            }
        });
        assert!(checked > 1000);
    }

    #[test]
    fn colours_swapped_give_the_same_evaluation() {
        // The features are symmetric between the colours, so a position and its colour-flipped
        // twin (board reflected top to bottom, colours and side to move swapped) evaluate alike.
        let mut rng = Rng::seeded(9);
        let net = random_net(&mut rng, 8);
        random_games(&ROOTS, 5, 40, &mut rng, |pos| {
            let placed: Vec<(Piece, Square)> = Square::all()
                .filter_map(|s| pos.piece_at(s).map(|p| (p, s)))
                .collect();
            let flipped = placed
                .iter()
                .map(|&(p, s)| (Piece::new(p.color().opponent(), p.kind()), s.flip()));
            let n = pos.piece_count();
            let a = net.evaluate(&net.refresh(placed.iter().copied()), pos.turn(), n);
            let b = net.evaluate(&net.refresh(flipped), pos.turn().opponent(), n);
            assert_eq!(a, b);
        });
    }

    #[test]
    fn each_position_reads_the_output_of_its_bucket() {
        let mut rng = Rng::seeded(5);
        let net = random_bucketed(&mut rng, 8, 4);
        // The same first layer and bucket 2's output alone, as a one-bucket network.
        let h = net.hidden();
        let single = |b: usize| {
            PsqNet::from_parts(
                net.w1.clone(),
                net.b1.clone(),
                net.w2[b * 2 * h..(b + 1) * 2 * h].to_vec(),
                vec![net.b2[b]],
            )
        };
        let mut seen = [false; 4];
        random_games(&ROOTS, 30, 200, &mut rng, |pos| {
            let b = output_bucket(4, pos.piece_count());
            seen[b] = true;
            assert_eq!(net.evaluate_position(pos), single(b).evaluate_position(pos));
        });
        assert!(seen.iter().filter(|&&s| s).count() >= 2, "{seen:?}");
    }
}
