//! The king-bucketed network (file version 3): a first layer of `hidden` neurons per perspective
//! over the 7,560 [`king_features`](super::king_features), kept incrementally as the
//! piece-square network's is; a pairwise clipped ReLU that multiplies each neuron of the first
//! half by its partner in the second (both clipped to `[0, 1]`), giving `hidden / 2` bytes per
//! perspective; then, in the layer stack of the position's output bucket (chosen by the number of
//! pieces on the board, [`output_bucket`]), a hidden layer of [`HIDDEN1`] neurons over both
//! perspectives' products (the side to move's first), one of [`HIDDEN2`], each with a clipped
//! ReLU, and one output.
//!
//! Why pairwise products (as Stockfish's networks since 2022): the first hidden layer reads
//! `hidden` bytes instead of `2 × hidden`, which halves the evaluation's largest cost, and a
//! product of two neurons is a richer feature than either.
//!
//! Quantisation (as the trainer exports): first-layer weights and biases × [`QA`] (255); a
//! product of two clipped sums is kept as `a × b / 512`, rounded, so 1.0 is 127 ([`QH`], the unit of every
//! hidden activation: byte products of at most 127 never saturate); hidden weights × [`QW`] as
//! `i8` (±1.98 at most) and their biases × `QH × QW` as `i32`, each layer's sum divided by `QW`
//! (rounded, a shift by 6) and clipped to `0..=QH`; output weights × [`QO`] as `i16`, the output
//! bias × `QH × QO`, and the evaluation in centipawns is the output sum × [`SCALE`] / (`QH ×
//! QO`), kept within ±[`EVAL_LIMIT`] so that a network never speaks of mates. Integer
//! arithmetic throughout, on the vector [`kernels`](super::kernels): every build and CPU gives
//! the same number.
//!
//! A move adds and takes off at most three rows per perspective, except for the side whose
//! general moves: its bucket changes, and its sums are rebuilt, cheaply through a
//! [`RefreshCache`](super::refresh::RefreshCache).

use std::sync::atomic::{AtomicU64, Ordering};

use chariot_rules::{Color, Kind, Piece, Position, Square};

use super::board::{Change, placed};
use super::kernels::Kernel;
use super::king_features::{INPUTS, Orientation};
use super::output::{MAX_BUCKETS, SCALE, output_bucket};

/// First-layer quantisation: a sum of 1.0 is `QA`.
pub const QA: i16 = 255;
/// Hidden activations' quantisation: 1.0 is `QH` (a product of two first-layer neurons at 1.0
/// is `255 × 255 / 512`, 127 as near as makes no difference).
pub const QH: i32 = 127;
/// Hidden-layer weight quantisation: a weight of 1.0 is `QW` (a shift by [`QW_SHIFT`]).
pub const QW: i32 = 64;
/// `QW` as a shift.
pub const QW_SHIFT: u32 = 6;
/// Output-weight quantisation: a weight of 1.0 is `QO`.
pub const QO: i32 = 256;
/// Neurons of the first hidden layer after the first layer.
pub const HIDDEN1: usize = 16;
/// Neurons of the second hidden layer.
pub const HIDDEN2: usize = 32;
/// The first layer's size is a multiple of this (the kernels' byte vectors).
pub const HIDDEN_STEP: usize = 32;
/// The largest first layer read.
pub const MAX_HIDDEN: usize = 1024;
/// The largest evaluation the network gives, in centipawns: below every mate score.
pub const EVAL_LIMIT: i32 = 20_000;

/// The integer weights of a king-bucketed network, layer by layer, each layer's output buckets
/// one after another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingParts {
    /// First-layer weights: one row of `hidden` per feature.
    pub w1: Vec<i16>,
    /// First-layer biases.
    pub b1: Vec<i16>,
    /// First hidden layer: per bucket, [`HIDDEN1`] rows of `hidden` (the side to move's
    /// `hidden / 2` products, then the other side's).
    pub w2: Vec<i8>,
    /// Its biases: per bucket, [`HIDDEN1`].
    pub b2: Vec<i32>,
    /// Second hidden layer: per bucket, [`HIDDEN2`] rows of [`HIDDEN1`].
    pub w3: Vec<i8>,
    /// Its biases: per bucket, [`HIDDEN2`].
    pub b3: Vec<i32>,
    /// Output weights: per bucket, [`HIDDEN2`].
    pub w4: Vec<i16>,
    /// Output biases: one per bucket.
    pub b4: Vec<i32>,
}

impl KingParts {
    /// The first layer's size and the bucket count the lengths describe, or `None` when they do
    /// not fit one such network (a size that is not a positive multiple of [`HIDDEN_STEP`] up
    /// to [`MAX_HIDDEN`], or 0 or more than [`MAX_BUCKETS`] buckets).
    #[must_use]
    pub fn shape(&self) -> Option<(usize, usize)> {
        let (h, b) = (self.b1.len(), self.b4.len());
        let fits = h % HIDDEN_STEP == 0
            && (HIDDEN_STEP..=MAX_HIDDEN).contains(&h)
            && (1..=MAX_BUCKETS).contains(&b)
            && self.w1.len() == INPUTS * h
            && self.w2.len() == b * HIDDEN1 * h
            && self.b2.len() == b * HIDDEN1
            && self.w3.len() == b * HIDDEN2 * HIDDEN1
            && self.b3.len() == b * HIDDEN2
            && self.w4.len() == b * HIDDEN2;
        fits.then_some((h, b))
    }
}

/// Identities of networks, for the refresh caches: each network built gets the next.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A quantised king-bucketed network.
#[derive(Clone, Debug)]
pub struct KingNet {
    parts: KingParts,
    /// The first hidden layer's weights of each bucket [`packed`](super::packed::pack) for
    /// the kernels.
    w2_packed: Vec<i8>,
    /// The second hidden layer's, packed alike.
    w3_packed: Vec<i8>,
    hidden: usize,
    buckets: usize,
    kernel: Kernel,
    /// Tells a refresh cache whether its entries are this network's (clones share it: they
    /// compute the same sums).
    id: u64,
}

impl PartialEq for KingNet {
    fn eq(&self, other: &KingNet) -> bool {
        self.parts == other.parts
    }
}

impl Eq for KingNet {}

impl KingNet {
    /// A network from its quantised parts.
    ///
    /// # Panics
    ///
    /// When the lengths do not fit one network ([`KingParts::shape`] is `None`).
    #[must_use]
    pub fn from_parts(parts: KingParts) -> KingNet {
        let Some((hidden, buckets)) = parts.shape() else {
            panic!("inconsistent network sizes");
        };
        let w2_packed = parts
            .w2
            .chunks_exact(HIDDEN1 * hidden)
            .flat_map(|bucket| super::packed::pack(bucket, hidden, HIDDEN1))
            .collect();
        let w3_packed = parts
            .w3
            .chunks_exact(HIDDEN2 * HIDDEN1)
            .flat_map(|bucket| super::packed::pack(bucket, HIDDEN1, HIDDEN2))
            .collect();
        KingNet {
            parts,
            w2_packed,
            w3_packed,
            hidden,
            buckets,
            kernel: Kernel::detect(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The quantised parts, as [`KingNet::from_parts`] takes them.
    #[must_use]
    pub fn parts(&self) -> &KingParts {
        &self.parts
    }

    /// The network computing with `kernel` (see [`super::Network::with_kernel`]).
    #[must_use]
    pub fn with_kernel(mut self, kernel: Kernel) -> KingNet {
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

    /// Output buckets (layer stacks).
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The identity refresh caches know the network by.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The first-layer biases: the sums of an empty board.
    #[must_use]
    pub fn biases(&self) -> &[i16] {
        &self.parts.b1
    }

    /// The first-layer row of feature `f`.
    #[must_use]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.parts.w1[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Computes `perspective`'s sums for the pieces `placed` afresh, its general on `general`.
    pub fn refresh_side(
        &self,
        perspective: Color,
        general: Square,
        placed: impl Iterator<Item = (Piece, Square)>,
        out: &mut [i16],
    ) {
        let o = Orientation::of(perspective, general);
        out.copy_from_slice(&self.parts.b1);
        for (piece, sq) in placed {
            self.kernel
                .add_row(out, self.row(o.index(perspective, piece, sq)));
        }
    }

    /// Whether `change` moves `perspective`'s own general to another orientation (bucket or
    /// mirror), which changes every feature of that side: its sums are then refreshed.
    #[must_use]
    pub fn needs_refresh(perspective: Color, change: &Change) -> bool {
        change.mover == Piece::new(perspective, Kind::General)
            && Orientation::of(perspective, change.from) != Orientation::of(perspective, change.to)
    }

    /// `perspective`'s sums after `change` (into `child`) from those before it (`parent`), its
    /// general on `general` after the change: the rows of the moved and captured pieces, in one
    /// pass (for a change that does not [`KingNet::needs_refresh`]).
    pub fn update_side(
        &self,
        perspective: Color,
        general: Square,
        parent: &[i16],
        child: &mut [i16],
        change: &Change,
    ) {
        let o = Orientation::of(perspective, general);
        let row = |piece: Piece, sq: Square| self.row(o.index(perspective, piece, sq));
        let (to, from) = (row(change.mover, change.to), row(change.mover, change.from));
        match change.captured {
            Some(c) => self
                .kernel
                .update_rows(child, parent, [to], [from, row(c, change.to)]),
            None => self.kernel.update_rows(child, parent, [to], [from]),
        }
    }

    /// The evaluation in centipawns from the side to move's view, of first-layer sums `red`
    /// and `black` for a position with `pieces` pieces on the board (which picks the bucket).
    #[must_use]
    pub fn output(&self, red: &[i16], black: &[i16], to_move: Color, pieces: u32) -> i32 {
        let (us, them) = if to_move.is_red() {
            (red, black)
        } else {
            (black, red)
        };
        let h = self.hidden;
        let k = self.kernel;
        let p = &self.parts;
        let mut x = [0u8; MAX_HIDDEN];
        k.pairwise_bytes(us, &mut x[..h / 2]);
        k.pairwise_bytes(them, &mut x[h / 2..h]);
        let b = output_bucket(self.buckets, pieces);

        let mut s2 = [0i32; HIDDEN1];
        k.affine_packed(&x[..h], &self.w2_packed[b * HIDDEN1 * h..], &mut s2);
        let mut h2 = [0u8; HIDDEN1];
        activate(&s2, &p.b2[b * HIDDEN1..(b + 1) * HIDDEN1], &mut h2);

        let mut s3 = [0i32; HIDDEN2];
        k.affine_packed(&h2, &self.w3_packed[b * HIDDEN2 * HIDDEN1..], &mut s3);
        let mut h3 = [0u8; HIDDEN2];
        activate(&s3, &p.b3[b * HIDDEN2..(b + 1) * HIDDEN2], &mut h3);

        let w4 = &p.w4[b * HIDDEN2..(b + 1) * HIDDEN2];
        let sum = h3.iter().zip(w4).fold(p.b4[b], |sum, (&x, &w)| {
            sum.wrapping_add(i32::from(x) * i32::from(w))
        });
        let cp = i64::from(sum) * i64::from(SCALE) / (i64::from(QH) * i64::from(QO));
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// The evaluation of a position, from its side to move's view (a full refresh, no cache).
    #[must_use]
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        let h = self.hidden;
        let (mut red, mut black) = (vec![0; h], vec![0; h]);
        self.refresh_side(Color::Red, pos.king(Color::Red), placed(pos), &mut red);
        self.refresh_side(
            Color::Black,
            pos.king(Color::Black),
            placed(pos),
            &mut black,
        );
        self.output(&red, &black, pos.turn(), pos.piece_count())
    }
}

/// A hidden layer's activation: `(sum + bias) / QW`, rounded, clipped to `0..=QH`.
#[inline]
fn activate(sums: &[i32], biases: &[i32], out: &mut [u8]) {
    for ((o, &s), &b) in out.iter_mut().zip(sums).zip(biases) {
        let v = s.wrapping_add(b).wrapping_add(QW / 2) >> QW_SHIFT;
        *o = v.clamp(0, QH) as u8;
    }
}

/// A network of random weights within the trainer's bounds, at their extremes often.
#[cfg(test)]
pub(crate) fn random_net(
    rng: &mut chariot_rules::random::Rng,
    hidden: usize,
    buckets: usize,
) -> KingNet {
    let mut i16s = |n: usize, span: usize| -> Vec<i16> {
        (0..n)
            .map(|_| rng.below(2 * span + 1) as i16 - span as i16)
            .collect()
    };
    let w1 = i16s(INPUTS * hidden, 100);
    let b1 = i16s(hidden, 300);
    let w4 = i16s(buckets * HIDDEN2, 600);
    let mut i8s = |n: usize| -> Vec<i8> { (0..n).map(|_| rng.below(256) as i8).collect() };
    let w2 = i8s(buckets * HIDDEN1 * hidden);
    let w3 = i8s(buckets * HIDDEN2 * HIDDEN1);
    let mut i32s = |n: usize, span: usize| -> Vec<i32> {
        (0..n)
            .map(|_| rng.below(2 * span + 1) as i32 - span as i32)
            .collect()
    };
    KingNet::from_parts(KingParts {
        w1,
        b1,
        w2,
        b2: i32s(buckets * HIDDEN1, 8000),
        w3,
        b3: i32s(buckets * HIDDEN2, 8000),
        w4,
        b4: i32s(buckets, 50_000),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Network;
    use crate::nnue::refresh::RefreshCache;
    use chariot_rules::Move;
    use chariot_rules::random::Rng;
    use chariot_rules::testing::{ROOTS, random_games};

    /// Plays `m` on the sums of `pos` kept in `red`/`black`, as the search does.
    fn step(
        net: &Network,
        sums: &(Vec<i16>, Vec<i16>),
        pos: &Position,
        m: Move,
        cache: &mut RefreshCache,
    ) -> (Vec<i16>, Vec<i16>) {
        let h = net.hidden();
        let (mut red, mut black) = (vec![0; h], vec![0; h]);
        net.update((&sums.0, &sums.1), (&mut red, &mut black), pos, m, cache);
        (red, black)
    }

    fn fresh(net: &KingNet, pos: &Position) -> (Vec<i16>, Vec<i16>) {
        let h = net.hidden();
        let (mut red, mut black) = (vec![0; h], vec![0; h]);
        net.refresh_side(Color::Red, pos.king(Color::Red), placed(pos), &mut red);
        net.refresh_side(
            Color::Black,
            pos.king(Color::Black),
            placed(pos),
            &mut black,
        );
        (red, black)
    }

    #[test]
    fn updating_move_by_move_through_the_cache_equals_a_refresh() {
        let mut rng = Rng::seeded(3);
        let net = random_net(&mut rng, 64, 3);
        let whole = Network::from(net.clone());
        let mut cache = RefreshCache::new();
        let (mut checked, mut general_moves) = (0, 0);
        random_games(&ROOTS, 30, 80, &mut rng, |pos| {
            let sums = fresh(&net, pos);
            for m in pos.legal_move_list().iter() {
                let after_sums = step(&whole, &sums, pos, *m, &mut cache);
                let mut after = pos.clone();
                after.make_move(*m);
                assert_eq!(after_sums, fresh(&net, &after), "{} {m}", pos.fen());
                let v = net.output(
                    &after_sums.0,
                    &after_sums.1,
                    after.turn(),
                    after.piece_count(),
                );
                assert_eq!(v, net.evaluate_position(&after));
                if pos
                    .piece_at(m.from())
                    .is_some_and(|p| p.kind() == Kind::General)
                {
                    general_moves += 1;
                }
                checked += 1;
            }
        });
        assert!(
            checked > 10_000 && general_moves > 200,
            "{checked} {general_moves}"
        );
        // The cache's own refresh of whole positions agrees too.
        random_games(&ROOTS, 5, 60, &mut rng, |pos| {
            let h = net.hidden();
            let (mut red, mut black) = (vec![0; h], vec![0; h]);
            whole.refresh(pos, &mut red, &mut black, &mut cache);
            assert_eq!((red, black), fresh(&net, pos));
        });
    }

    #[test]
    fn a_cache_follows_the_network_that_uses_it() {
        let mut rng = Rng::seeded(4);
        let (a, b) = (random_net(&mut rng, 32, 1), random_net(&mut rng, 32, 1));
        let mut cache = RefreshCache::new();
        let pos = Position::start();
        let (mut red, mut black) = (vec![0; 32], vec![0; 32]);
        for net in [&a, &b, &a] {
            cache.refresh_position(net, Color::Red, &pos, &mut red);
            cache.refresh_position(net, Color::Black, &pos, &mut black);
            assert_eq!((red.clone(), black.clone()), fresh(net, &pos));
        }
    }

    #[test]
    fn colours_swapped_and_mirrored_positions_evaluate_alike() {
        // Colour-flipped twin: board reflected top to bottom, colours and side to move swapped.
        // Mirrored twin: reflected left to right; it reads the same when both generals stand
        // off the centre file (the mirror then folds both perspectives).
        let mut rng = Rng::seeded(9);
        let net = random_net(&mut rng, 32, 4);
        let mut mirrored_checked = 0;
        random_games(&ROOTS, 20, 80, &mut rng, |pos| {
            let all: Vec<(Piece, Square)> = placed(pos).collect();
            let n = pos.piece_count();
            let eval = |pieces: &[(Piece, Square)], turn: Color| {
                let general = |c: Color| {
                    pieces
                        .iter()
                        .find(|(p, _)| *p == Piece::new(c, Kind::General))
                        .map(|&(_, s)| s)
                        .unwrap()
                };
                let h = net.hidden();
                let (mut red, mut black) = (vec![0; h], vec![0; h]);
                let it = || pieces.iter().copied();
                net.refresh_side(Color::Red, general(Color::Red), it(), &mut red);
                net.refresh_side(Color::Black, general(Color::Black), it(), &mut black);
                net.output(&red, &black, turn, n)
            };
            let flipped: Vec<_> = all
                .iter()
                .map(|&(p, s)| (Piece::new(p.color().opponent(), p.kind()), s.flip()))
                .collect();
            let v = eval(&all, pos.turn());
            assert_eq!(v, net.evaluate_position(pos));
            assert_eq!(v, eval(&flipped, pos.turn().opponent()));
            let off_centre = Color::ALL.iter().all(|&c| pos.king(c).file() != 4);
            if off_centre {
                let mirrored: Vec<_> = all.iter().map(|&(p, s)| (p, s.mirror())).collect();
                assert_eq!(v, eval(&mirrored, pos.turn()));
                mirrored_checked += 1;
            }
        });
        assert!(mirrored_checked > 20, "{mirrored_checked}");
    }

    #[test]
    fn the_layers_compute_what_their_weights_say() {
        // A network whose evaluation is worked out by hand: the first neuron of each
        // perspective's first layer counts the own chariots (0.5 each, 128 of 255), its partner
        // in the second half is 1.0 always (its bias), so their product is the count, clipped
        // at 1.0; the first hidden neuron reads the side to move's product minus the other's,
        // the second layer passes it on and the output weighs it by 2.
        let (h, b) = (32, 1);
        let mut w1 = vec![0i16; INPUTS * h];
        for bucket in 0..6 {
            for sq in 0..90 {
                let f = bucket * 1260 + 4 * 90 + sq; // own chariot
                w1[f * h] = 128;
            }
        }
        let mut b1 = vec![0i16; h];
        b1[h / 2] = 255;
        let mut w2 = vec![0i8; b * HIDDEN1 * h];
        w2[0] = 64; // 1.0 × the side to move's product 0
        w2[h / 2] = -64; // −1.0 × the other side's
        let mut w3 = vec![0i8; b * HIDDEN2 * HIDDEN1];
        w3[0] = 64;
        let mut w4 = vec![0i16; b * HIDDEN2];
        w4[0] = 512; // 2.0
        let net = KingNet::from_parts(KingParts {
            w1,
            b1,
            w2,
            b2: vec![0; HIDDEN1],
            w3,
            b3: vec![0; HIDDEN2],
            w4,
            b4: vec![0],
        });
        // Red has both chariots, Black one: Red's neuron is 256, clipped to 255, its product
        // 255 × 255 / 512 = 127; Black's 128, its product 128 × 255 / 512 = 63.75, 64.
        let pos = Position::from_fen("r1bakab2/9/9/9/9/9/4P4/9/9/R1BAKABR1 w - - 0 1").unwrap();
        // (127 − 64) × 64 = 4,032 → 63 → 63 → × 512 = 32,256 → × 400 / (127 × 256) = 396.
        assert_eq!(net.evaluate_position(&pos), 32_256 * 400 / (127 * 256));
        let black_to_move = Position::from_fen(&pos.fen().replace(" w ", " b ")).unwrap();
        assert_eq!(net.evaluate_position(&black_to_move), 0, "clipped at 0");
    }

    /// The VNNI, AVX2 and portable kernels give the same sums and evaluations, move by move
    /// through the cache, of random positions with random weights of the real size.
    #[test]
    fn every_kernel_gives_the_same_evaluations() {
        let mut rng = Rng::seeded(15);
        let portable = random_net(&mut rng, 512, 8).with_kernel(Kernel::Portable);
        assert_eq!(portable.kernel(), Kernel::Portable);
        let portable_whole = Network::from(portable.clone());
        let fast: Vec<KingNet> = [Kernel::Vnni, Kernel::Avx2]
            .into_iter()
            .filter(|k| k.available())
            .map(|k| portable.clone().with_kernel(k))
            .collect();
        let mut portable_cache = RefreshCache::new();
        let mut caches = vec![RefreshCache::new(); fast.len()];
        let mut compared = 0;
        random_games(&ROOTS, 20, 100, &mut rng, |pos| {
            let v = portable.evaluate_position(pos);
            for (net, cache) in fast.iter().zip(&mut caches) {
                let name = net.kernel().name();
                assert_eq!(net.evaluate_position(pos), v, "{name} {}", pos.fen());
                let whole = Network::from(net.clone());
                for m in pos.legal_move_list().iter().take(4) {
                    let a = step(&whole, &fresh(net, pos), pos, *m, cache);
                    let b = step(
                        &portable_whole,
                        &fresh(&portable, pos),
                        pos,
                        *m,
                        &mut portable_cache,
                    );
                    assert_eq!(a, b, "{name}");
                    let mut after = pos.clone();
                    after.make_move(*m);
                    let (n, turn) = (after.piece_count(), after.turn());
                    assert_eq!(
                        net.output(&a.0, &a.1, turn, n),
                        portable.output(&b.0, &b.1, turn, n),
                        "{name}"
                    );
                }
            }
            compared += 1;
        });
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(!fast.is_empty(), "the AVX2 kernels were compared");
        }
        assert!(compared > 1000, "{compared}");
    }
}
