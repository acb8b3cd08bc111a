//! The trainer: fits a network to self-play data on the CPU.
//!
//! The float network mirrors the quantised one ([`chariot_eval::nnue::psq`]): for each perspective the
//! first layer sums one weight row per active feature plus a bias, a clipped ReLU keeps it in
//! `[0, 1]`, and one output neuron reads both halves (the side to move's first; with output
//! buckets, the neuron of the position's bucket by its piece count). Its output `o`
//! is a win probability through `sigmoid(o)`; the target blends the search score's probability
//! `sigmoid(score / 400)` with the game's result (1, ½, 0 for the side to move) as
//! `λ × score + (1 − λ) × result`, and the loss is the mean squared difference.
//!
//! Optimisation is Adam over mini-batches in an order shuffled each epoch, the learning rate
//! multiplied by `lr_drop` at each epoch listed in `drop_at`; every `validation_every`-th record
//! is held out, together with any records given apart (from other games, so that networks
//! trained on different data are measured on the same positions), and the loss on them is
//! reported after each epoch. Mini-batches are split into fixed chunks,
//! one per thread, and the chunks' gradients are added in order, so a run is the same for a
//! given seed and thread count. The hidden-layer sparse inputs are why no dense-matrix crate is
//! used: a sample touches at most 64 of the 1,260 × `hidden` first-layer weights, which plain
//! loops over those rows do better than dense products.

use super::loss::{Targets, sigmoid};
use crate::adam::Adam;
use chariot_eval::nnue::PsqNet;
use chariot_eval::nnue::features::{self, INPUTS};
use chariot_eval::nnue::network::output_bucket;
use chariot_eval::nnue::psq::{QA, QB};
use chariot_formats::training_data::Record;
use chariot_rules::random::Rng;
use chariot_rules::{Color, Square};

/// Largest float weight that quantises without overflow in the accumulator (33 rows of at
/// most `1.98 × QA` stay inside an `i16`).
const WEIGHT_CLIP: f32 = 1.98;

/// Training settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// First-layer neurons per perspective.
    pub hidden: usize,
    /// Output buckets, chosen by the number of pieces on the board (1: a single output).
    pub buckets: usize,
    /// Passes over the training records.
    pub epochs: usize,
    /// Records per Adam step.
    pub batch_size: usize,
    /// Adam's learning rate at the start.
    pub learning_rate: f32,
    /// The learning rate is multiplied by this at each epoch of `drop_at`.
    pub lr_drop: f32,
    /// Epochs (from 1) after which the learning rate drops.
    pub drop_at: Vec<usize>,
    /// Weight of the search score in the target (the rest is the game's result).
    pub lambda: f32,
    /// Every N-th record is held out for validation (0: none).
    pub validation_every: usize,
    /// Threads for the gradient.
    pub threads: usize,
    /// Seed for the initial weights and the shuffles.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hidden: 128,
            buckets: 1,
            epochs: 10,
            batch_size: 16_384,
            learning_rate: 0.001,
            lr_drop: 0.3,
            drop_at: vec![6, 9],
            lambda: 0.75,
            validation_every: 50,
            threads: 1,
            seed: 1,
        }
    }
}

/// A record as the trainer uses it.
#[derive(Clone, Debug)]
struct Sample {
    /// Active features: the side to move's perspective, then the other's.
    us: Vec<u16>,
    them: Vec<u16>,
    /// The output bucket.
    bucket: u8,
    target: f32,
}

impl Sample {
    fn new(r: &Record, lambda: f32, buckets: usize) -> Sample {
        let placed: Vec<_> = Square::all()
            .filter_map(|s| r.setup.piece_at(s).map(|p| (p, s)))
            .collect();
        let pieces = placed.len() as u32;
        let (red, black) = features::active(placed.into_iter());
        let to_u16 = |v: Vec<usize>| v.into_iter().map(|f| f as u16).collect::<Vec<u16>>();
        let (us, them) = if r.setup.turn == Color::Red {
            (to_u16(red), to_u16(black))
        } else {
            (to_u16(black), to_u16(red))
        };
        Sample {
            us,
            them,
            bucket: output_bucket(buckets, pieces) as u8,
            target: Targets::of(r).blend(lambda),
        }
    }
}

/// The float network being trained.
#[derive(Clone, Debug)]
pub struct FloatNet {
    hidden: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// Output weights, bucket by bucket (the side to move's `hidden`, then the other side's).
    w2: Vec<f32>,
    /// Output biases, one per bucket.
    b2: Vec<f32>,
}

/// Gradients of the float network's parameters (same layout).
#[derive(Clone, Debug)]
struct Grad {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    loss: f64,
}

impl Grad {
    fn zero(hidden: usize, buckets: usize) -> Grad {
        Grad {
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; 2 * hidden * buckets],
            b2: vec![0.0; buckets],
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
        self.loss = 0.0;
    }

    fn add(&mut self, other: &Grad) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&other.b2) {
            *a += b;
        }
        self.loss += other.loss;
    }
}

impl FloatNet {
    /// A network with small random weights, `buckets` output buckets (one network of one
    /// bucket draws the same weights from a seed as before buckets existed).
    #[must_use]
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::seeded(seed);
        let mut uniform = |n: usize, span: f32| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.unit() as f32 * 2.0 - 1.0) * span)
                .collect()
        };
        FloatNet {
            hidden,
            w1: uniform(INPUTS * hidden, 0.1),
            b1: uniform(hidden, 0.1),
            w2: uniform(2 * hidden * buckets, 1.0 / (2.0 * hidden as f32).sqrt()),
            b2: vec![0.0; buckets],
        }
    }

    fn accumulate(&self, active: &[u16], out: &mut [f32]) {
        out.copy_from_slice(&self.b1);
        for &f in active {
            let row = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            for (a, w) in out.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The output for a sample (before the sigmoid), with the two accumulators it used.
    fn forward(&self, s: &Sample, acc: &mut [Vec<f32>; 2]) -> f32 {
        self.accumulate(&s.us, &mut acc[0]);
        self.accumulate(&s.them, &mut acc[1]);
        let h = self.hidden;
        let b = usize::from(s.bucket);
        let w2 = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let mut out = self.b2[b];
        for (side, a) in acc.iter().enumerate() {
            for (x, w) in a.iter().zip(&w2[side * h..(side + 1) * h]) {
                out += x.clamp(0.0, 1.0) * w;
            }
        }
        out
    }

    /// Adds the sample's loss gradient to `g`.
    fn backward(&self, s: &Sample, acc: &mut [Vec<f32>; 2], g: &mut Grad) {
        let out = self.forward(s, acc);
        let p = sigmoid(out);
        let err = p - s.target;
        g.loss += f64::from(err * err);
        let d_out = 2.0 * err * p * (1.0 - p);
        let b = usize::from(s.bucket);
        g.b2[b] += d_out;
        let h = self.hidden;
        let out = b * 2 * h;
        for (side, (a, active)) in acc.iter().zip([&s.us, &s.them]).enumerate() {
            for (i, &x) in a.iter().enumerate() {
                g.w2[out + side * h + i] += d_out * x.clamp(0.0, 1.0);
                if x > 0.0 && x < 1.0 {
                    let d = d_out * self.w2[out + side * h + i];
                    g.b1[i] += d;
                    for &f in active.iter() {
                        g.w1[usize::from(f) * h + i] += d;
                    }
                }
            }
        }
    }

    /// Mean loss over `samples`.
    fn loss(&self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let mut acc = [vec![0.0; self.hidden], vec![0.0; self.hidden]];
        let total: f64 = samples
            .iter()
            .map(|s| {
                let e = sigmoid(self.forward(s, &mut acc)) - s.target;
                f64::from(e * e)
            })
            .sum();
        total / samples.len() as f64
    }

    /// The evaluation in centipawns of a record's position (float arithmetic).
    #[must_use]
    pub fn evaluate(&self, r: &Record) -> f32 {
        let s = Sample::new(r, 1.0, self.buckets());
        let mut acc = [vec![0.0; self.hidden], vec![0.0; self.hidden]];
        self.forward(&s, &mut acc) * chariot_eval::nnue::network::SCALE as f32
    }

    /// The float network a quantised one came from, as near as the quantisation keeps it: each
    /// weight divided by its scale. Quantising the result gives `net` back exactly, so training
    /// can go on from a checkpoint or refine a built-in network.
    #[must_use]
    pub fn from_network(net: &PsqNet) -> FloatNet {
        let qa = f32::from(QA);
        let qb = f32::from(QB);
        let f = |v: &[i16], scale: f32| -> Vec<f32> {
            v.iter().map(|&w| f32::from(w) / scale).collect()
        };
        let (w1, b1, w2, b2) = net.parts();
        FloatNet {
            hidden: net.hidden(),
            w1: f(w1, qa),
            b1: f(b1, qa),
            w2: f(w2, qb),
            b2: b2.iter().map(|&b| b as f32 / (qa * qb)).collect(),
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
        self.b2.len()
    }

    /// This network of one output with its output copied into `buckets` buckets: the same
    /// evaluation of every position, as a start for training buckets apart (a network trained
    /// on many positions refined into one that reads endgames with their own weights). `None`
    /// when the network already has several buckets (which of them would each new one copy?).
    #[must_use]
    pub fn split_output(&self, buckets: usize) -> Option<FloatNet> {
        if self.buckets() != 1 || buckets == 0 {
            return None;
        }
        Some(FloatNet {
            w2: self.w2.repeat(buckets),
            b2: self.b2.repeat(buckets),
            ..self.clone()
        })
    }

    /// The quantised network for the engine.
    #[must_use]
    pub fn quantise(&self) -> PsqNet {
        let q = |v: &[f32], scale: f32| -> Vec<i16> {
            v.iter()
                .map(|w| (w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale).round() as i16)
                .collect()
        };
        let qa = f32::from(QA);
        let qb = f32::from(QB);
        PsqNet::from_parts(
            q(&self.w1, qa),
            q(&self.b1, qa),
            q(&self.w2, qb),
            self.b2
                .iter()
                .map(|b| (b * qa * qb).round() as i32)
                .collect(),
        )
    }

    fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(&mut self.b1).chain(&mut self.w2) {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// Adam's moment estimates, one pair per weight, and its step ([`crate::adam`]).
struct Moments {
    m: Grad,
    v: Grad,
    adam: Adam<f32>,
}

impl Moments {
    fn update(&mut self, net: &mut FloatNet, g: &Grad, lr: f32, batch: usize) {
        self.adam.next_step();
        let n = batch as f32;
        let adam = &self.adam;
        let each = |w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]| {
            for (((w, g), m), v) in w.iter_mut().zip(g).zip(m).zip(v) {
                *w -= adam.delta(*g / n, m, v, lr);
            }
        };
        each(&mut net.w1, &g.w1, &mut self.m.w1, &mut self.v.w1);
        each(&mut net.b1, &g.b1, &mut self.m.b1, &mut self.v.b1);
        each(&mut net.w2, &g.w2, &mut self.m.w2, &mut self.v.w2);
        each(&mut net.b2, &g.b2, &mut self.m.b2, &mut self.v.b2);
        net.clip();
    }
}

/// What an epoch achieved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1 (0: the starting network, before any training).
    pub epoch: usize,
    /// Mean training loss over the epoch's batches (epoch 0: over the training records).
    pub train_loss: f64,
    /// Loss on the held-out records (0 when none are held out).
    pub validation_loss: f64,
    /// The learning rate used.
    pub learning_rate: f32,
}

/// Trains a network on `records`, measuring it on every `settings.validation_every`-th of them
/// and on `held_out` (records of other games, not trained on), starting from `start` (random
/// weights from the seed when `None`), calling `after_epoch` with each epoch's report and the network as it stands (to
/// write checkpoints). A given starting network is reported first, as epoch 0 with its losses
/// on the same training and held-out records, so that the new data's fit can be compared with
/// it. Returns the final float network.
///
/// # Panics
///
/// When `settings.hidden`, `settings.buckets` or `settings.batch_size` is 0, or `start` has
/// another hidden size or bucket count.
pub fn train(
    records: &[Record],
    held_out: &[Record],
    settings: &Settings,
    start: Option<FloatNet>,
    mut after_epoch: impl FnMut(&EpochReport, &FloatNet),
) -> FloatNet {
    assert!(
        settings.hidden > 0 && settings.buckets > 0 && settings.batch_size > 0,
        "empty network or batch"
    );
    assert!(
        start
            .as_ref()
            .is_none_or(|n| n.hidden == settings.hidden && n.buckets() == settings.buckets),
        "the starting network has another hidden size or bucket count"
    );
    let buckets = settings.buckets;
    let mut training = Vec::new();
    let mut validation = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let s = Sample::new(r, settings.lambda, buckets);
        if settings.validation_every > 0
            && i % settings.validation_every == settings.validation_every - 1
        {
            validation.push(s);
        } else {
            training.push(s);
        }
    }
    validation.extend(
        held_out
            .iter()
            .map(|r| Sample::new(r, settings.lambda, buckets)),
    );
    let h = settings.hidden;
    let start_given = start.is_some();
    let mut net = start.unwrap_or_else(|| FloatNet::new(h, buckets, settings.seed));
    let mut adam = Moments {
        m: Grad::zero(h, buckets),
        v: Grad::zero(h, buckets),
        adam: Adam::new(),
    };
    let threads = settings.threads.max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::zero(h, buckets)).collect();
    let mut total = Grad::zero(h, buckets);
    let mut order: Vec<usize> = (0..training.len()).collect();
    let mut rng = Rng::seeded(settings.seed ^ 0x5851_F42D_4C95_7F2D);
    let mut lr = settings.learning_rate;
    if start_given {
        let report = EpochReport {
            epoch: 0,
            train_loss: net.loss(&training),
            validation_loss: net.loss(&validation),
            learning_rate: 0.0,
        };
        after_epoch(&report, &net);
    }
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut epoch_loss = 0.0;
        for batch in order.chunks(settings.batch_size) {
            let per = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (chunk, g) in batch.chunks(per).zip(grads.iter_mut()) {
                    let net = &net;
                    let training = &training;
                    scope.spawn(move || {
                        g.clear();
                        let mut acc = [vec![0.0; h], vec![0.0; h]];
                        for &i in chunk {
                            net.backward(&training[i], &mut acc, g);
                        }
                    });
                }
            });
            total.clear();
            for g in grads.iter().take(batch.len().div_ceil(per)) {
                total.add(g);
            }
            epoch_loss += total.loss;
            adam.update(&mut net, &total, lr, batch.len());
        }
        let report = EpochReport {
            epoch,
            train_loss: epoch_loss / training.len().max(1) as f64,
            validation_loss: net.loss(&validation),
            learning_rate: lr,
        };
        after_epoch(&report, &net);
        if settings.drop_at.contains(&epoch) {
            lr *= settings.lr_drop;
        }
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::DecidedResult;
    use chariot_rules::testing::{ROOTS, random_games};

    /// Records whose score is a simple function of material, so a network can learn it.
    fn material_records(n_games: usize) -> Vec<Record> {
        let mut rng = Rng::seeded(21);
        let mut out = Vec::new();
        random_games(&ROOTS, n_games, 60, &mut rng, |pos| {
            let value = |k: usize| [0, 20, 20, 40, 90, 45, 10][k];
            let mut score = 0i32;
            for s in Square::all() {
                if let Some(p) = pos.piece_at(s) {
                    let v = value(p.kind().index()) * 10;
                    score += if p.color() == pos.turn() { v } else { -v };
                }
            }
            out.push(Record {
                setup: pos.to_setup(),
                score: score as i16,
                outcome: DecidedResult::DRAW,
                ply: 0,
            });
        });
        out
    }

    /// Settings for a small network on the material records, `epochs` long.
    fn small(epochs: usize) -> Settings {
        Settings {
            hidden: 8,
            epochs,
            batch_size: 256,
            learning_rate: 0.01,
            drop_at: vec![],
            lambda: 1.0,
            validation_every: 10,
            ..Settings::default()
        }
    }

    #[test]
    fn training_reduces_the_loss_and_is_repeatable() {
        let records = material_records(60);
        let settings = Settings {
            threads: 2,
            ..small(6)
        };
        let mut reports = Vec::new();
        let net = train(&records, &[], &settings, None, |r, _| reports.push(*r));
        assert_eq!(reports.len(), 6);
        let first = reports[0].validation_loss;
        let last = reports[5].validation_loss;
        assert!(last < first * 0.7, "validation loss {first} -> {last}");
        let again = train(&records, &[], &settings, None, |_, _| {});
        assert_eq!(
            net.w2, again.w2,
            "the same seed and threads give the same network"
        );
    }

    #[test]
    fn records_given_apart_are_measured_and_never_trained_on() {
        let records = material_records(60);
        let (games, apart) = records.split_at(records.len() / 2);
        let settings = small(2);
        // Measured on: every 10th record of `games`, then the ones given apart.
        let measured: Vec<Sample> = games
            .iter()
            .skip(9)
            .step_by(10)
            .chain(apart)
            .map(|r| Sample::new(r, 1.0, 1))
            .collect();
        let mut epochs = 0;
        let net = train(games, apart, &settings, None, |report, net| {
            assert!((report.validation_loss - net.loss(&measured)).abs() < 1e-12);
            epochs += 1;
        });
        assert_eq!(epochs, 2);
        let without = train(games, &[], &settings, None, |_, _| {});
        assert_eq!(
            net.w2, without.w2,
            "the records given apart are not trained on"
        );
        assert_eq!(net.w1, without.w1);
    }

    #[test]
    fn the_quantised_network_agrees_with_the_float_one_and_comes_back() {
        let records = material_records(10);
        for buckets in [1, 4] {
            let settings = Settings {
                hidden: 16,
                buckets,
                epochs: 2,
                batch_size: 128,
                learning_rate: 0.01,
                lambda: 1.0,
                validation_every: 0,
                ..Settings::default()
            };
            let float = train(&records, &[], &settings, None, |_, _| {});
            let quantised = float.quantise();
            assert_eq!(quantised.buckets(), buckets);
            for r in records.iter().step_by(7) {
                let pos = r.position().unwrap();
                let f = float.evaluate(r);
                let q = quantised.evaluate_position(&pos) as f32;
                assert!(
                    (f - q).abs() <= 8.0 + f.abs() * 0.02,
                    "float {f} quantised {q}"
                );
            }
            // Back to floats (a starting network for more training): the same file again.
            let back = FloatNet::from_network(&quantised);
            assert_eq!((back.hidden(), back.buckets()), (16, buckets));
            assert_eq!(back.quantise(), quantised);
        }
    }

    #[test]
    fn a_split_output_evaluates_as_the_network_it_came_from() {
        let records = material_records(10);
        let one = train(&records, &[], &small(1), None, |_, _| {});
        let split = one.split_output(5).unwrap();
        assert_eq!(split.buckets(), 5);
        for r in &records {
            assert_eq!(one.evaluate(r), split.evaluate(r));
        }
        let q = (one.quantise(), split.quantise());
        for r in records.iter().step_by(5) {
            let pos = r.position().unwrap();
            assert_eq!(q.0.evaluate_position(&pos), q.1.evaluate_position(&pos));
        }
        assert!(split.split_output(2).is_none(), "already split");
    }

    #[test]
    fn output_buckets_learn_what_one_output_cannot() {
        // Scores that flip sign with the number of pieces: material counts for the side to
        // move with more than 25 pieces on the board and against it with fewer. One output
        // over a piece-square first layer can hardly tell the two apart; a bucket for each
        // range of piece counts can.
        let records: Vec<Record> = material_records(60)
            .into_iter()
            .map(|mut r| {
                let pieces = Square::all()
                    .filter(|&s| r.setup.piece_at(s).is_some())
                    .count();
                if pieces <= 25 {
                    r.score = r.score.saturating_neg();
                }
                r
            })
            .collect();
        let loss = |buckets: usize| {
            let settings = Settings {
                buckets,
                ..small(6)
            };
            let mut last = 0.0;
            train(&records, &[], &settings, None, |r, _| {
                last = r.validation_loss;
            });
            last
        };
        let (one, four) = (loss(1), loss(4));
        assert!(four < one * 0.8, "one output {one}, four buckets {four}");
    }

    #[test]
    fn training_goes_on_from_the_starting_network() {
        let records = material_records(60);
        let settings = small(4);
        let mut fresh = Vec::new();
        let trained = train(&records, &[], &settings, None, |r, _| fresh.push(*r));
        let mut resumed = Vec::new();
        let one = Settings {
            epochs: 1,
            ..settings.clone()
        };
        train(&records, &[], &one, Some(trained), |r, _| resumed.push(*r));
        assert_eq!(resumed.len(), 2, "the start, then the epoch");
        assert_eq!(resumed[0].epoch, 0);
        assert!(
            (resumed[0].validation_loss - fresh[3].validation_loss).abs() < 1e-9,
            "the start is reported as the network it is"
        );
        assert!(
            resumed[1].validation_loss < fresh[0].validation_loss * 0.9,
            "resumed {} against a fresh first epoch {}",
            resumed[1].validation_loss,
            fresh[0].validation_loss
        );
    }
}
