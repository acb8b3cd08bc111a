//! The king-bucketed network's trainer: [`FloatKingNet`] fitted to streamed data
//! ([`super::stream`]) with Adam, on a pool of threads.
//!
//! Each batch is split into one fixed chunk per thread; each thread decodes its records, runs
//! them forward and back and adds their gradient to its own buffers; the buffers are then added
//! in thread order, so a run is the same for a given seed and thread count. The first layer is
//! most of the weights (7,560 rows of `hidden`) and a sample touches at most 64 of its rows, so
//! its gradient is sparse: each thread marks the rows it touched, and only the rows some thread
//! touched are added, stepped by Adam (their moments alone decay, as in PyTorch's `SparseAdam`)
//! and cleared, in parallel over rows. The other layers are small and stepped whole.
//!
//! The target, loss, learning-rate schedule, held-out records and reports are the piece-square
//! trainer's ([`super::train`]).

use chariot_formats::training_data::DataError;
use rayon::prelude::*;

use super::king_net::{FloatKingNet, Grad, W1_CLIP, backward_chunk, chunk_loss};
use super::stream::{DataSet, Raw, StreamError};
use super::train::{EpochReport, Settings};
use crate::adam::Adam;

/// Why training stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The data could not be read.
    #[error(transparent)]
    Data(#[from] StreamError),
    /// The thread pool could not be started.
    #[error("starting {threads} training threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The cause.
        source: rayon::ThreadPoolBuildError,
    },
}

/// Records measured per task when only the loss is wanted.
const MEASURE_CHUNK: usize = 4096;

/// Adam's moment estimates, shaped as the network.
struct Moments {
    m: FloatKingNet,
    v: FloatKingNet,
    adam: Adam<f32>,
}

/// Trains a king-bucketed network on `data` (measuring on its held-out records and on
/// `validation`, records of other games), starting from `start` (random weights from the seed
/// when `None`), calling `after_epoch` with each epoch's report and the network as it stands. A
/// given starting network is reported first, as epoch 0. Returns the final float network.
///
/// # Errors
///
/// [`TrainError`] when the data cannot be read or the threads cannot be started.
///
/// # Panics
///
/// When `settings.batch_size` is 0, or `start` has another size or bucket count than
/// `settings` asks for.
pub fn train(
    data: &DataSet,
    validation: &[Raw],
    settings: &Settings,
    start: Option<FloatKingNet>,
    mut after_epoch: impl FnMut(&EpochReport, &FloatKingNet),
) -> Result<FloatKingNet, TrainError> {
    assert!(settings.batch_size > 0, "empty batch");
    let (h, buckets) = (settings.hidden, settings.buckets);
    assert!(
        start
            .as_ref()
            .is_none_or(|n| n.hidden() == h && n.buckets() == buckets),
        "the starting network has another hidden size or bucket count"
    );
    let threads = settings.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| TrainError::Threads { threads, source })?;
    let measured: Vec<Raw> = data.held().iter().chain(validation).copied().collect();
    let start_given = start.is_some();
    let mut net = start.unwrap_or_else(|| FloatKingNet::new(h, buckets, settings.seed));
    let mut moments = Moments {
        m: FloatKingNet::zeros(h, buckets),
        v: FloatKingNet::zeros(h, buckets),
        adam: Adam::new(),
    };
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::zero(h, buckets)).collect();
    let training = data.training_records();
    let loss = |net: &FloatKingNet, records: &[Raw]| -> Result<f64, StreamError> {
        Ok(pool.install(|| measure(net, records, settings))? / records.len().max(1) as f64)
    };
    if start_given {
        let mut total = 0.0;
        for batch in data.epoch(settings.seed, 0, MEASURE_CHUNK * threads * 4) {
            total += pool.install(|| measure(&net, &batch?, settings))?;
        }
        let report = EpochReport {
            epoch: 0,
            train_loss: total / training.max(1) as f64,
            validation_loss: loss(&net, &measured)?,
            learning_rate: 0.0,
        };
        after_epoch(&report, &net);
    }
    let mut lr = settings.learning_rate;
    for epoch in 1..=settings.epochs {
        let mut epoch_loss = 0.0;
        for batch in data.epoch(settings.seed, epoch, settings.batch_size) {
            let batch = batch?;
            let per = batch.len().div_ceil(threads);
            let used = batch.len().div_ceil(per);
            let failures: Vec<Option<DataError>> = pool.install(|| {
                grads
                    .par_iter_mut()
                    .zip(batch.par_chunks(per))
                    .map(|(g, chunk)| backward_chunk(&net, chunk, settings.lambda, g).err())
                    .collect()
            });
            if let Some(e) = failures.into_iter().flatten().next() {
                return Err(StreamError::Changed(e).into());
            }
            let grads = &grads[..used];
            epoch_loss += grads.iter().map(|g| g.loss).sum::<f64>();
            pool.install(|| step(&mut net, &mut moments, grads, lr, batch.len()));
        }
        let report = EpochReport {
            epoch,
            train_loss: epoch_loss / training.max(1) as f64,
            validation_loss: loss(&net, &measured)?,
            learning_rate: lr,
        };
        after_epoch(&report, &net);
        if settings.drop_at.contains(&epoch) {
            lr *= settings.lr_drop;
        }
    }
    Ok(net)
}

/// The summed loss of `net` on `records` (in parallel, in fixed chunks added in order).
fn measure(net: &FloatKingNet, records: &[Raw], settings: &Settings) -> Result<f64, StreamError> {
    let sums: Vec<Result<f64, StreamError>> = records
        .par_chunks(MEASURE_CHUNK)
        .map(|chunk| chunk_loss(net, chunk, settings.lambda).map_err(StreamError::Changed))
        .collect();
    sums.into_iter().sum()
}

/// One Adam step from the threads' gradients of a batch of `batch` records: the first layer's
/// touched rows in parallel, the rest whole.
fn step(net: &mut FloatKingNet, moments: &mut Moments, grads: &[Grad], lr: f32, batch: usize) {
    moments.adam.next_step();
    let n = batch as f32;
    let adam = moments.adam;
    let h = net.hidden();
    let mut touched = vec![0u64; grads[0].touched.len()];
    for g in grads {
        for (t, &bits) in touched.iter_mut().zip(&g.touched) {
            *t |= bits;
        }
    }
    net.first_layer_mut()
        .par_chunks_mut(h)
        .zip(moments.m.first_layer_mut().par_chunks_mut(h))
        .zip(moments.v.first_layer_mut().par_chunks_mut(h))
        .enumerate()
        .filter(|(f, _)| Grad::is_touched(&touched, *f))
        .for_each(|(f, ((w, m), v))| {
            for i in 0..h {
                let g: f32 = grads.iter().map(|g| g.net.first_layer()[f * h + i]).sum();
                let x = w[i] - adam.delta(g / n, &mut m[i], &mut v[i], lr);
                w[i] = x.clamp(-W1_CLIP, W1_CLIP);
            }
        });
    let (mut ms, mut vs) = (moments.m.dense_mut(), moments.v.dense_mut());
    for (k, w) in net.dense_mut().into_iter().enumerate() {
        let bound = FloatKingNet::DENSE_CLIPS[k];
        let (m, v) = (&mut ms[k], &mut vs[k]);
        for i in 0..w.len() {
            let g: f32 = grads.iter().map(|g| g.net.dense(k)[i]).sum();
            let x = w[i] - adam.delta(g / n, &mut m[i], &mut v[i], lr);
            w[i] = x.clamp(-bound, bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::stream::expand;
    use chariot_formats::training_data::{DataFile, Record};
    use chariot_rules::random::Rng;
    use chariot_rules::testing::{ROOTS, random_games};
    use chariot_rules::{DecidedResult, Square};

    /// Records whose score is a simple function of material (as the piece-square trainer's
    /// tests), written to a data file in `dir`.
    fn material_file(dir: &std::path::Path, games: usize) -> std::path::PathBuf {
        let mut rng = Rng::seeded(21);
        let mut out = Vec::new();
        random_games(&ROOTS, games, 60, &mut rng, |pos| {
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
        let path = dir.join("material.bin");
        DataFile::open_for_append(&path)
            .unwrap()
            .append(&out)
            .unwrap();
        path
    }

    fn small(epochs: usize, threads: usize) -> Settings {
        Settings {
            hidden: 32,
            buckets: 2,
            epochs,
            batch_size: 256,
            learning_rate: 0.005,
            drop_at: vec![],
            lambda: 1.0,
            validation_every: 10,
            threads,
            ..Settings::default()
        }
    }

    #[test]
    fn training_reduces_the_loss_and_is_repeatable() {
        let dir = tempfile::tempdir().unwrap();
        let file = material_file(dir.path(), 60);
        let data = DataSet::open(&expand(&[file]).unwrap(), None, 10).unwrap();
        let settings = small(5, 2);
        let mut reports = Vec::new();
        let net = train(&data, &[], &settings, None, |r, _| reports.push(*r)).unwrap();
        assert_eq!(reports.len(), 5);
        let (first, last) = (reports[0].validation_loss, reports[4].validation_loss);
        assert!(last < first * 0.7, "validation loss {first} -> {last}");
        let again = train(&data, &[], &settings, None, |_, _| {}).unwrap();
        assert_eq!(
            net, again,
            "the same seed and threads give the same network"
        );
        // Going on from the network: reported first as it is.
        let mut resumed = Vec::new();
        let one = Settings {
            epochs: 1,
            ..settings.clone()
        };
        train(&data, &[], &one, Some(net), |r, _| resumed.push(*r)).unwrap();
        assert_eq!(resumed[0].epoch, 0);
        assert!((resumed[0].validation_loss - last).abs() < 1e-9);
    }

    /// The engine's evaluation of the exported network is the trainer's float evaluation within
    /// the quantisation's error. Two parts: the engine's integer arithmetic on the exported
    /// weights is the float network of those same weights (`from_network`) but for rounding the
    /// products and hidden activations to 1/127 and the last division (measured: 1.1 cp on
    /// average, 6.5 at worst); and rounding the weights themselves (to 1/255 in the first layer,
    /// 1/64 in the hidden ones, 1/256 at the output) moves this small network's evaluations by
    /// 4.5 cp on average and 25 at worst (they average 344 cp).
    #[test]
    fn the_quantised_network_agrees_with_the_float_one() {
        let dir = tempfile::tempdir().unwrap();
        let file = material_file(dir.path(), 30);
        let data = DataSet::open(std::slice::from_ref(&file), None, 0).unwrap();
        let settings = Settings {
            hidden: 64,
            ..small(3, 2)
        };
        let float = train(&data, &[], &settings, None, |_, _| {}).unwrap();
        let quantised = float.quantise();
        let exported = FloatKingNet::from_network(&quantised);
        assert_eq!(exported.quantise(), quantised);
        let records = chariot_formats::training_data::read_all(&file).unwrap();
        let differences = |net: &FloatKingNet| {
            let d: Vec<f32> = records
                .iter()
                .map(|r| {
                    (net.evaluate(r) - quantised.evaluate_position(&r.position().unwrap()) as f32)
                        .abs()
                })
                .collect();
            let mean = d.iter().sum::<f32>() / d.len() as f32;
            (mean, d.into_iter().fold(0.0, f32::max))
        };
        let (mean, worst) = differences(&exported);
        assert!(
            mean < 2.0 && worst < 8.0,
            "activations: mean {mean} cp, worst {worst}"
        );
        let (mean, worst) = differences(&float);
        assert!(
            mean < 15.0 && worst < 50.0,
            "weights: mean {mean} cp, worst {worst}"
        );
    }
}
