//! The king-bucketed network in floats, as the trainer fits it: the same layers as the engine's
//! [`KingNet`] without the rounding (first layer summed over the active features of each
//! perspective, clipped to `[0, 1]`, each neuron of the first half multiplied by its partner in
//! the second; per output bucket a hidden layer of [`HIDDEN1`] over both perspectives' products,
//! the side to move's first, one of [`HIDDEN2`], each clipped to `[0, 1]`, and one output `o`,
//! read as the win probability `sigmoid(o)` and as `400 × o` centipawns). Its
//! gradient, exported weights and the way back from a quantised network live here; the training
//! loop is [`super::king_train`].
//!
//! The weights are kept within what quantisation can hold: first-layer weights and biases within
//! ±1.98 (33 rows of them stay inside an `i16` at 255 to 1.0), hidden weights within ±127/64
//! (an `i8` at 64 to 1.0), output weights within ±127 (an `i16` at 256 to 1.0).

use chariot_eval::nnue::king::{self, HIDDEN1, HIDDEN2, KingNet, KingParts, QH, QO, QW};
use chariot_eval::nnue::king_features::{INPUTS, Orientation};
use chariot_eval::nnue::network::{SCALE, output_bucket};
use chariot_formats::training_data::Record;
use chariot_rules::random::Rng;
use chariot_rules::{Color, Kind, Piece, Square};

use super::loss::{Targets, sigmoid};
use super::stream::Raw;
use super::vector::{add, axpy, dot, vectorised};
use chariot_formats::training_data::DataError;

/// The most active features of a perspective (pieces on the board).
pub const MAX_ACTIVE: usize = 32;
/// Bound of the first layer's weights and biases.
pub const W1_CLIP: f32 = 1.98;
/// Bound of the hidden layers' weights: the largest `i8` over [`QW`].
pub const HIDDEN_CLIP: f32 = 127.0 / QW as f32;
/// Bound of the output weights.
pub const OUT_CLIP: f32 = 127.0;

/// A record as the trainer uses it: each perspective's active features, the bucket, the target.
#[derive(Clone, Debug)]
pub struct Sample {
    us: [u16; MAX_ACTIVE],
    them: [u16; MAX_ACTIVE],
    active: [u8; 2],
    bucket: u8,
    /// The blended target (see [`super::loss`]).
    pub target: f32,
}

impl Sample {
    /// The sample of a record for a network of `buckets` output buckets, its target blended
    /// with `lambda`. A record without a general (no position from a game) is read as if it
    /// stood on its home square.
    #[must_use]
    pub fn new(r: &Record, lambda: f32, buckets: usize) -> Sample {
        let general = |c: Color| {
            Square::all()
                .find(|&s| r.setup.piece_at(s) == Some(Piece::new(c, Kind::General)))
                .unwrap_or(if c.is_red() {
                    Square::new(4, 0)
                } else {
                    Square::new(4, 9)
                })
        };
        let turn = r.setup.turn;
        let orient = |c: Color| Orientation::of(c, general(c));
        let (o_us, o_them) = (orient(turn), orient(turn.opponent()));
        let mut s = Sample {
            us: [0; MAX_ACTIVE],
            them: [0; MAX_ACTIVE],
            active: [0; 2],
            bucket: 0,
            target: Targets::of(r).blend(lambda),
        };
        let mut n = 0;
        for sq in Square::all() {
            let Some(piece) = r.setup.piece_at(sq) else {
                continue;
            };
            if n == MAX_ACTIVE {
                break;
            }
            s.us[n] = o_us.index(turn, piece, sq) as u16;
            s.them[n] = o_them.index(turn.opponent(), piece, sq) as u16;
            n += 1;
        }
        s.active = [n as u8; 2];
        s.bucket = output_bucket(buckets, n as u32) as u8;
        s
    }

    fn features(&self, side: usize) -> &[u16] {
        let n = usize::from(self.active[side]);
        if side == 0 {
            &self.us[..n]
        } else {
            &self.them[..n]
        }
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatKingNet {
    hidden: usize,
    buckets: usize,
    /// The weights in [`KingParts`]'s layout.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
    b3: Vec<f32>,
    w4: Vec<f32>,
    b4: Vec<f32>,
}

/// What a forward pass keeps for the backward one.
pub(crate) struct Scratch {
    acc: [Vec<f32>; 2],
    x: Vec<f32>,
    dx: Vec<f32>,
    dacc: Vec<f32>,
    z2: [f32; HIDDEN1],
    h2: [f32; HIDDEN1],
    z3: [f32; HIDDEN2],
    h3: [f32; HIDDEN2],
}

impl Scratch {
    pub(crate) fn new(hidden: usize) -> Scratch {
        Scratch {
            acc: [vec![0.0; hidden], vec![0.0; hidden]],
            x: vec![0.0; hidden],
            dx: vec![0.0; hidden],
            dacc: vec![0.0; hidden],
            z2: [0.0; HIDDEN1],
            h2: [0.0; HIDDEN1],
            z3: [0.0; HIDDEN2],
            h3: [0.0; HIDDEN2],
        }
    }
}

/// The gradient of a batch (a thread's share of it), the first layer's rows marked when a
/// sample touched them so that only those are added, stepped and cleared.
pub(crate) struct Grad {
    pub(crate) net: FloatKingNet,
    /// One bit per first-layer row (feature).
    pub(crate) touched: Vec<u64>,
    pub(crate) loss: f64,
}

impl Grad {
    pub(crate) fn zero(hidden: usize, buckets: usize) -> Grad {
        Grad {
            net: FloatKingNet::zeros(hidden, buckets),
            touched: vec![0; INPUTS.div_ceil(64)],
            loss: 0.0,
        }
    }

    pub(crate) fn is_touched(touched: &[u64], f: usize) -> bool {
        touched[f / 64] >> (f % 64) & 1 == 1
    }

    /// Back to zero: the touched rows and every dense weight.
    pub(crate) fn clear(&mut self) {
        let h = self.net.hidden;
        for (w, &bits) in self.touched.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let f = w * 64 + bits.trailing_zeros() as usize;
                self.net.w1[f * h..(f + 1) * h].fill(0.0);
                bits &= bits - 1;
            }
        }
        self.touched.fill(0);
        for v in self.net.dense_mut() {
            v.fill(0.0);
        }
        self.loss = 0.0;
    }
}

impl FloatKingNet {
    /// A network with small random weights drawn from `seed`.
    #[must_use]
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> FloatKingNet {
        let mut rng = Rng::seeded(seed);
        let mut uniform = |n: usize, span: f32| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.unit() as f32 * 2.0 - 1.0) * span)
                .collect()
        };
        let fan_in = |n: usize| 1.0 / (n as f32).sqrt();
        FloatKingNet {
            hidden,
            buckets,
            w1: uniform(INPUTS * hidden, 0.1),
            b1: uniform(hidden, 0.1),
            w2: uniform(buckets * HIDDEN1 * hidden, fan_in(hidden)),
            b2: vec![0.0; buckets * HIDDEN1],
            w3: uniform(buckets * HIDDEN2 * HIDDEN1, fan_in(HIDDEN1)),
            b3: vec![0.0; buckets * HIDDEN2],
            w4: uniform(buckets * HIDDEN2, fan_in(HIDDEN2)),
            b4: vec![0.0; buckets],
        }
    }

    /// All zeros (a gradient, Adam's moments).
    pub(crate) fn zeros(hidden: usize, buckets: usize) -> FloatKingNet {
        FloatKingNet {
            hidden,
            buckets,
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; buckets * HIDDEN1 * hidden],
            b2: vec![0.0; buckets * HIDDEN1],
            w3: vec![0.0; buckets * HIDDEN2 * HIDDEN1],
            b3: vec![0.0; buckets * HIDDEN2],
            w4: vec![0.0; buckets * HIDDEN2],
            b4: vec![0.0; buckets],
        }
    }

    /// Neurons per perspective in the first layer.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The first layer's weights, one row of `hidden` per feature.
    pub(crate) fn first_layer_mut(&mut self) -> &mut [f32] {
        &mut self.w1
    }

    /// The first layer's weights.
    pub(crate) fn first_layer(&self) -> &[f32] {
        &self.w1
    }

    /// Every weight but the first layer's, with the bound each is kept within.
    pub(crate) fn dense_mut(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
            &mut self.w3,
            &mut self.b3,
            &mut self.w4,
            &mut self.b4,
        ]
    }

    /// The `k`-th of [`FloatKingNet::dense_mut`]'s weights, read only.
    pub(crate) fn dense(&self, k: usize) -> &[f32] {
        [
            &self.b1, &self.w2, &self.b2, &self.w3, &self.b3, &self.w4, &self.b4,
        ][k]
    }

    /// The bounds of [`FloatKingNet::dense_mut`]'s weights, in its order (biases of the hidden
    /// layers and the output are not bounded: an `i32` holds them).
    pub(crate) const DENSE_CLIPS: [f32; 7] = [
        W1_CLIP,
        HIDDEN_CLIP,
        f32::INFINITY,
        HIDDEN_CLIP,
        f32::INFINITY,
        OUT_CLIP,
        f32::INFINITY,
    ];

    #[inline(always)]
    fn accumulate(&self, active: &[u16], out: &mut [f32]) {
        out.copy_from_slice(&self.b1);
        let h = self.hidden;
        for &f in active {
            add(out, &self.w1[usize::from(f) * h..][..h]);
        }
    }

    /// The output for a sample (before the sigmoid), keeping what the backward pass needs.
    #[inline(always)]
    pub(crate) fn forward(&self, s: &Sample, sc: &mut Scratch) -> f32 {
        let h = self.hidden;
        self.accumulate(s.features(0), &mut sc.acc[0]);
        self.accumulate(s.features(1), &mut sc.acc[1]);
        let half = h / 2;
        for (side, acc) in sc.acc.iter().enumerate() {
            let (first, second) = acc.split_at(half);
            let x = &mut sc.x[side * half..(side + 1) * half];
            for ((x, a), b) in x.iter_mut().zip(first).zip(second) {
                *x = a.clamp(0.0, 1.0) * b.clamp(0.0, 1.0);
            }
        }
        let b = usize::from(s.bucket);
        for j in 0..HIDDEN1 {
            let row = b * HIDDEN1 + j;
            sc.z2[j] = self.b2[row] + dot(&self.w2[row * h..][..h], &sc.x);
            sc.h2[j] = sc.z2[j].clamp(0.0, 1.0);
        }
        for j in 0..HIDDEN2 {
            let row = b * HIDDEN2 + j;
            sc.z3[j] = self.b3[row] + dot(&self.w3[row * HIDDEN1..][..HIDDEN1], &sc.h2);
            sc.h3[j] = sc.z3[j].clamp(0.0, 1.0);
        }
        self.b4[b] + dot(&self.w4[b * HIDDEN2..][..HIDDEN2], &sc.h3)
    }

    /// Adds the sample's loss and its gradient to `g` (inlined into [`backward_chunk`], which is
    /// compiled for AVX2 too).
    #[inline(always)]
    pub(crate) fn backward(&self, s: &Sample, sc: &mut Scratch, g: &mut Grad) {
        let out = self.forward(s, sc);
        let p = sigmoid(out);
        let err = p - s.target;
        g.loss += f64::from(err * err);
        let d_out = 2.0 * err * p * (1.0 - p);
        let (h, b) = (self.hidden, usize::from(s.bucket));
        let gn = &mut g.net;

        gn.b4[b] += d_out;
        axpy(&mut gn.w4[b * HIDDEN2..][..HIDDEN2], d_out, &sc.h3);
        let mut d_h2 = [0f32; HIDDEN1];
        for j in 0..HIDDEN2 {
            let row = b * HIDDEN2 + j;
            if sc.z3[j] <= 0.0 || sc.z3[j] >= 1.0 {
                continue;
            }
            let d = d_out * self.w4[b * HIDDEN2 + j];
            gn.b3[row] += d;
            axpy(&mut gn.w3[row * HIDDEN1..][..HIDDEN1], d, &sc.h2);
            axpy(&mut d_h2, d, &self.w3[row * HIDDEN1..][..HIDDEN1]);
        }
        sc.dx.fill(0.0);
        for (j, &dh) in d_h2.iter().enumerate() {
            if sc.z2[j] <= 0.0 || sc.z2[j] >= 1.0 || dh == 0.0 {
                continue;
            }
            let row = b * HIDDEN1 + j;
            gn.b2[row] += dh;
            axpy(&mut gn.w2[row * h..][..h], dh, &sc.x);
            axpy(&mut sc.dx, dh, &self.w2[row * h..][..h]);
        }
        // Through each perspective's products and clipped ReLUs into its first-layer rows:
        // `x = a × b` gives `a` the gradient × `b` and `b` the gradient × `a`, where neither
        // is clipped.
        let half = h / 2;
        for (side, acc) in sc.acc.iter().enumerate() {
            let dx = &sc.dx[side * half..(side + 1) * half];
            let d = &mut sc.dacc;
            let (first, second) = acc.split_at(half);
            let (d_first, d_second) = d.split_at_mut(half);
            for i in 0..half {
                let (a, b) = (first[i], second[i]);
                let inside = |v: f32| v > 0.0 && v < 1.0;
                d_first[i] = if inside(a) {
                    dx[i] * b.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                d_second[i] = if inside(b) {
                    dx[i] * a.clamp(0.0, 1.0)
                } else {
                    0.0
                };
            }
            add(&mut gn.b1, d);
            for &f in s.features(side) {
                let f = usize::from(f);
                add(&mut gn.w1[f * h..(f + 1) * h], d);
                g.touched[f / 64] |= 1 << (f % 64);
            }
        }
    }

    /// The squared error of the sample's win probability against its target.
    #[inline(always)]
    pub(crate) fn sample_loss(&self, s: &Sample, sc: &mut Scratch) -> f64 {
        let e = sigmoid(self.forward(s, sc)) - s.target;
        f64::from(e * e)
    }

    /// The evaluation in centipawns of a record's position, from its side to move's view (float
    /// arithmetic).
    #[must_use]
    pub fn evaluate(&self, r: &Record) -> f32 {
        let s = Sample::new(r, 1.0, self.buckets);
        self.forward(&s, &mut Scratch::new(self.hidden)) * SCALE as f32
    }

    /// The quantised network for the engine.
    #[must_use]
    pub fn quantise(&self) -> KingNet {
        let qa = f32::from(king::QA);
        let (qh, qw, qo) = (QH as f32, QW as f32, QO as f32);
        let i16s = |v: &[f32], bound: f32, scale: f32| -> Vec<i16> {
            v.iter()
                .map(|w| (w.clamp(-bound, bound) * scale).round() as i16)
                .collect()
        };
        let i8s = |v: &[f32]| -> Vec<i8> {
            v.iter()
                .map(|w| (w.clamp(-HIDDEN_CLIP, HIDDEN_CLIP) * qw).round() as i8)
                .collect()
        };
        let i32s = |v: &[f32], scale: f32| -> Vec<i32> {
            v.iter().map(|b| (b * scale).round() as i32).collect()
        };
        KingNet::from_parts(KingParts {
            w1: i16s(&self.w1, W1_CLIP, qa),
            b1: i16s(&self.b1, W1_CLIP, qa),
            w2: i8s(&self.w2),
            b2: i32s(&self.b2, qh * qw),
            w3: i8s(&self.w3),
            b3: i32s(&self.b3, qh * qw),
            w4: i16s(&self.w4, OUT_CLIP, qo),
            b4: i32s(&self.b4, qh * qo),
        })
    }

    /// The float network a quantised one came from, as near as the quantisation keeps it:
    /// quantising it gives `net` back exactly, so training can go on from a checkpoint.
    #[must_use]
    pub fn from_network(net: &KingNet) -> FloatKingNet {
        let qa = f32::from(king::QA);
        let (qh, qw, qo) = (QH as f32, QW as f32, QO as f32);
        let p = net.parts();
        let f16 = |v: &[i16], s: f32| v.iter().map(|&w| f32::from(w) / s).collect();
        let f8 = |v: &[i8]| v.iter().map(|&w| f32::from(w) / qw).collect();
        let f32s = |v: &[i32], s: f32| v.iter().map(|&b| b as f32 / s).collect();
        FloatKingNet {
            hidden: net.hidden(),
            buckets: net.buckets(),
            w1: f16(&p.w1, qa),
            b1: f16(&p.b1, qa),
            w2: f8(&p.w2),
            b2: f32s(&p.b2, qh * qw),
            w3: f8(&p.w3),
            b3: f32s(&p.b3, qh * qw),
            w4: f16(&p.w4, qo),
            b4: f32s(&p.b4, qh * qo),
        }
    }
}

vectorised! {
    /// Adds the loss and gradient of the records `chunk` (as samples blended with `lambda`) to
    /// `g`, which it clears first.
    pub(crate) fn backward_chunk(
        net: &FloatKingNet,
        chunk: &[Raw],
        lambda: f32,
        g: &mut Grad,
    ) -> Result<(), DataError> {
        g.clear();
        let mut sc = Scratch::new(net.hidden);
        for raw in chunk {
            let s = Sample::new(&Record::decode(raw, 0)?, lambda, net.buckets);
            net.backward(&s, &mut sc, g);
        }
        Ok(())
    }
}

vectorised! {
    /// The summed loss of the records `chunk` (as samples blended with `lambda`).
    pub(crate) fn chunk_loss(net: &FloatKingNet, chunk: &[Raw], lambda: f32) -> Result<f64, DataError> {
        let mut sc = Scratch::new(net.hidden);
        let mut sum = 0.0;
        for raw in chunk {
            let s = Sample::new(&Record::decode(raw, 0)?, lambda, net.buckets);
            sum += net.sample_loss(&s, &mut sc);
        }
        Ok(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::DecidedResult;
    use chariot_rules::testing::{ROOTS, random_games};

    fn records(games: usize) -> Vec<Record> {
        let mut rng = Rng::seeded(8);
        let mut out = Vec::new();
        random_games(&ROOTS, games, 80, &mut rng, |pos| {
            out.push(Record {
                setup: pos.to_setup(),
                score: (pos.piece_count() as i16 - 20) * 30,
                outcome: DecidedResult::DRAW,
                ply: 0,
            });
        });
        out
    }

    /// The samples' features are the engine's: the first layer of a quantised random network
    /// summed over them is the engine's sums for the position.
    #[test]
    fn samples_hold_the_engines_features() {
        let net = FloatKingNet::new(32, 2, 5);
        for r in records(10).iter().step_by(7) {
            let pos = r.position().unwrap();
            let s = Sample::new(r, 1.0, 2);
            let turn = pos.turn();
            let o = Orientation::of(turn, pos.king(turn));
            let mut expected: Vec<u16> = Square::all()
                .filter_map(|sq| pos.piece_at(sq).map(|p| o.index(turn, p, sq) as u16))
                .collect();
            let mut got = s.features(0).to_vec();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected);
            assert_eq!(usize::from(s.bucket), output_bucket(2, pos.piece_count()));
        }
        assert_eq!(net.buckets(), 2);
    }

    /// The gradient is the loss's: each weight nudged by ε changes the loss by about ε × its
    /// gradient (checked on weights of every layer that the sample uses).
    #[test]
    fn the_gradient_matches_finite_differences() {
        let mut net = FloatKingNet::new(32, 1, 3);
        // Weights large enough that every layer passes something on.
        for w in net.w4.iter_mut() {
            *w *= 4.0;
        }
        for v in net.b2.iter_mut().chain(net.b3.iter_mut()) {
            *v = 0.3;
        }
        let r = &records(3)[20];
        let s = Sample::new(r, 1.0, 1);
        let mut sc = Scratch::new(32);
        let mut g = Grad::zero(32, 1);
        net.backward(&s, &mut sc, &mut g);
        let loss = |n: &FloatKingNet| n.sample_loss(&s, &mut Scratch::new(32));
        let f = usize::from(s.us[0]);
        let mut checked = 0;
        let params: Vec<(&str, usize)> = vec![
            ("w1", f * 32 + 5),
            ("w1", f * 32 + 17),
            ("b1", 3),
            ("w2", 4),
            ("w2", 16 + 7),
            ("b2", 2),
            ("w3", 16 + 3),
            ("b3", 6),
            ("w4", 9),
            ("b4", 0),
        ];
        fn param<'a>(n: &'a mut FloatKingNet, name: &str, i: usize) -> &'a mut f32 {
            match name {
                "w1" => &mut n.w1[i],
                "b1" => &mut n.b1[i],
                "w2" => &mut n.w2[i],
                "b2" => &mut n.b2[i],
                "w3" => &mut n.w3[i],
                "b3" => &mut n.b3[i],
                "w4" => &mut n.w4[i],
                _ => &mut n.b4[i],
            }
        }
        for (name, i) in params {
            let analytic = f64::from(*param(&mut g.net, name, i));
            if analytic.abs() > 1e-6 {
                checked += 1;
            }
            // Central differences in f32 at three step sizes: the largest may cross a kink of
            // a clipped ReLU, the smallest is noisy; the gradient must match one of them.
            let numeric: Vec<f64> = [1e-3f32, 3e-4, 1e-4]
                .iter()
                .map(|&eps| {
                    let (mut up, mut down) = (net.clone(), net.clone());
                    *param(&mut up, name, i) += eps;
                    *param(&mut down, name, i) -= eps;
                    (loss(&up) - loss(&down)) / (2.0 * f64::from(eps))
                })
                .collect();
            assert!(
                numeric
                    .iter()
                    .any(|n| (n - analytic).abs() <= 0.05 * analytic.abs() + 2e-5),
                "{name}[{i}]: numeric {numeric:?} analytic {analytic}"
            );
        }
        assert!(checked >= 6, "only {checked} weights had a gradient");
        assert!(Grad::is_touched(&g.touched, f));
    }

    #[test]
    fn a_quantised_network_comes_back_the_same() {
        let net = FloatKingNet::new(64, 3, 11);
        let q = net.quantise();
        assert_eq!((q.hidden(), q.buckets()), (64, 3));
        assert_eq!(FloatKingNet::from_network(&q).quantise(), q);
    }
}
