//! `chariot train`: trains a network of either architecture and writes a checkpoint after every
//! epoch (`NAME.epochN.nnue` beside the output) and the final network. The piece-square network
//! (`--arch psq`, net10a's) is trained by `chariot_training::nnue::train` on data read into
//! memory; the king-bucketed one (`--arch king`) by `chariot_training::nnue::king_train` on data
//! streamed from the files.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use chariot_engine::resources;
use chariot_eval::nnue::king::{HIDDEN_STEP, MAX_HIDDEN};
use chariot_eval::nnue::network::MAX_BUCKETS;
use chariot_eval::nnue::{Architecture, Network, file};
use chariot_formats::training_data as format;
use chariot_training::nnue::king_net::FloatKingNet;
use chariot_training::nnue::stream::{self, DataSet};
use chariot_training::nnue::{king_train, train};

/// Trains on `data`, measuring on the positions of `validation` besides the ones held out of
/// `data`, from the network in `start` when given (random weights otherwise), and writes the
/// network to `out`.
pub fn train(
    data: &[PathBuf],
    validation: &[PathBuf],
    out: &Path,
    max_positions: Option<usize>,
    settings: &train::Settings,
    start: Option<train::FloatNet>,
) -> anyhow::Result<()> {
    // Refused before any file is read (a data file may take minutes to load).
    refuse_training_data_as_validation(data, validation)?;
    let mut records = Vec::new();
    for path in data {
        let mut more = format::read_all(path)?;
        records.append(&mut more);
        if max_positions.is_some_and(|m| records.len() >= m) {
            break;
        }
    }
    if let Some(m) = max_positions {
        records.truncate(m);
    }
    if records.is_empty() {
        return Err(chariot_cli::usage("the data files hold no positions"));
    }
    let mut held_out = Vec::new();
    for path in validation {
        let mut more = format::read_all(path)?;
        if more.is_empty() {
            return Err(chariot_cli::usage(format!(
                "--validation {}: the file holds no positions",
                path.display()
            )));
        }
        held_out.append(&mut more);
    }
    let held = records
        .len()
        .checked_div(settings.validation_every)
        .unwrap_or(0);
    println!(
        "training on {} positions, measuring on {} ({}), {} hidden neurons{}, {} epochs, from {}",
        records.len() - held,
        held + held_out.len(),
        if !held_out.is_empty() {
            "the --validation positions".to_owned()
        } else if held == 0 {
            "none held out".to_owned()
        } else {
            format!("one in {} held out", settings.validation_every)
        },
        settings.hidden,
        if settings.buckets > 1 {
            format!(", {} output buckets", settings.buckets)
        } else {
            String::new()
        },
        settings.epochs,
        if start.is_some() {
            "the starting network"
        } else {
            "random weights"
        }
    );
    let started = Instant::now();
    let mut failed: Option<anyhow::Error> = None;
    let net = train::train(&records, &held_out, settings, start, |report, net| {
        if report.epoch == 0 {
            println!(
                "start      train loss {:.6}  validation loss {:.6}",
                report.train_loss, report.validation_loss
            );
            return;
        }
        let checkpoint = checkpoint_path(out, report.epoch);
        if let Err(e) = file::write(&checkpoint, &net.quantise().into()) {
            failed.get_or_insert(e.into());
        }
        println!(
            "epoch {:>3}  train loss {:.6}  validation loss {:.6}  lr {:.6}  {:.0} s  -> {}",
            report.epoch,
            report.train_loss,
            report.validation_loss,
            report.learning_rate,
            started.elapsed().as_secs_f64(),
            checkpoint.display()
        );
    });
    if let Some(e) = failed {
        return Err(e.context("writing a checkpoint"));
    }
    file::write(out, &net.quantise().into())
        .with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Trains a king-bucketed network on `data` streamed from its files, measuring on the records
/// of `validation` besides those held out of `data`, from `start` when given, and writes it to
/// `out`; each epoch's line gives its speed in positions a second.
fn train_king(
    data: &[PathBuf],
    validation: &[PathBuf],
    out: &Path,
    max_positions: Option<usize>,
    settings: &train::Settings,
    start: Option<FloatKingNet>,
) -> anyhow::Result<()> {
    let set = DataSet::open(
        data,
        max_positions.map(|m| m as u64),
        settings.validation_every,
    )?;
    if set.records() == 0 {
        return Err(chariot_cli::usage("the data files hold no positions"));
    }
    let mut held_out = Vec::new();
    for path in validation {
        // Every record of a validation file is held out (every 1st).
        let apart = DataSet::open(std::slice::from_ref(path), None, 1)?;
        if apart.records() == 0 {
            return Err(chariot_cli::usage(format!(
                "--validation {}: the file holds no positions",
                path.display()
            )));
        }
        held_out.extend_from_slice(apart.held());
    }
    let held = set.held().len();
    println!(
        "training on {} positions of {} files (streamed), measuring on {} ({}), king-bucketed, \
         {} hidden neurons, {} output buckets, {} epochs, {} threads, from {}",
        set.training_records(),
        data.len(),
        held + held_out.len(),
        if !held_out.is_empty() {
            "the --validation positions".to_owned()
        } else if held == 0 {
            "none held out".to_owned()
        } else {
            format!("one in {} held out", settings.validation_every)
        },
        settings.hidden,
        settings.buckets,
        settings.epochs,
        settings.threads,
        if start.is_some() {
            "the starting network"
        } else {
            "random weights"
        }
    );
    let started = Instant::now();
    let mut epoch_started = Instant::now();
    let mut failed: Option<anyhow::Error> = None;
    let net = king_train::train(&set, &held_out, settings, start, |report, net| {
        if report.epoch == 0 {
            println!(
                "start      train loss {:.6}  validation loss {:.6}",
                report.train_loss, report.validation_loss
            );
            epoch_started = Instant::now();
            return;
        }
        let seconds = epoch_started.elapsed().as_secs_f64();
        let checkpoint = checkpoint_path(out, report.epoch);
        if let Err(e) = file::write(&checkpoint, &net.quantise().into()) {
            failed.get_or_insert(e.into());
        }
        println!(
            "epoch {:>3}  train loss {:.6}  validation loss {:.6}  lr {:.6}  {:.0} s  \
             {:.0} positions/s  -> {}",
            report.epoch,
            report.train_loss,
            report.validation_loss,
            report.learning_rate,
            started.elapsed().as_secs_f64(),
            set.training_records() as f64 / seconds.max(1e-9),
            checkpoint.display()
        );
        epoch_started = Instant::now();
    })?;
    if let Some(e) = failed {
        return Err(e.context("writing a checkpoint"));
    }
    let net: Network = net.quantise().into();
    file::write(out, &net).with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// A usage error when a `--validation` file is also training data.
fn refuse_training_data_as_validation(
    data: &[PathBuf],
    validation: &[PathBuf],
) -> anyhow::Result<()> {
    for path in validation {
        if data.iter().any(|d| same_file(d, path)) {
            return Err(chariot_cli::usage(format!(
                "--validation {}: the file is also training data",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Whether two paths name the same file (as far as the file system says).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `net.nnue` -> `net.epoch3.nnue`.
fn checkpoint_path(out: &Path, epoch: usize) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "net".into(), |s| s.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}.epoch{epoch}.nnue"))
}

// The arguments of `chariot train` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Training-data files from `chariot datagen`; a directory stands for its `.bin` files
    /// (the shards of a plan).
    #[arg(required = true, value_name = "DATA")]
    data: Vec<std::path::PathBuf>,
    /// The architecture: `psq`, net10a's piece-square network (data read into memory), or
    /// `king`, the king-bucketed network (data streamed from the files) [default: psq, or the
    /// --init network's].
    #[arg(long, value_name = "ARCH", value_parser = parse_arch)]
    arch: Option<Architecture>,
    /// The network file to write.
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
    /// First-layer neurons per perspective [default: 128 (psq), 512 (king; a multiple of 32 up
    /// to 1024), or the --init network's].
    #[arg(long, value_name = "N")]
    hidden: Option<usize>,
    /// Output buckets, chosen by the number of pieces on the board, 1 to 16 [default: 1 (psq), 8
    /// (king), or the --init network's]. A --init piece-square network of one output is split:
    /// each bucket starts as its output.
    #[arg(long, value_name = "N")]
    buckets: Option<usize>,
    /// Start from this network's weights instead of random ones: a checkpoint to resume,
    /// or a network to refine on new data.
    #[arg(long, value_name = "FILE")]
    init: Option<std::path::PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 10, value_name = "N")]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384, value_name = "N")]
    batch: usize,
    /// Adam's starting learning rate.
    #[arg(long, default_value_t = 0.001, value_name = "RATE")]
    learning_rate: f32,
    /// Epochs after which the learning rate is multiplied by 0.3 (comma-separated).
    #[arg(long, default_value = "6,9", value_name = "LIST")]
    drop_at: String,
    /// Weight of the search score in the target; the rest is the game result.
    #[arg(long, default_value_t = 0.75, value_name = "X")]
    lambda: f32,
    /// Hold out every N-th position for validation (0: none).
    #[arg(long, default_value_t = 50, value_name = "N")]
    validation_every: usize,
    /// Measure on the positions of this file (`datagen` data of other games, repeatable)
    /// instead of holding out every N-th: the same positions for networks trained on
    /// different data, and none of them seen in training.
    #[arg(long, value_name = "FILE", conflicts_with = "validation_every")]
    validation: Vec<std::path::PathBuf>,
    /// Use at most N positions (the first ones of the files).
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Threads for the gradient.
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
    /// Seed for the initial weights and the shuffles.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
}

/// The settings both architectures share, as given.
struct Common {
    epochs: usize,
    batch: usize,
    learning_rate: f32,
    drop_at: String,
    lambda: f32,
    validation_every: usize,
    threads: usize,
    seed: u64,
}

impl Common {
    /// The trainer's settings with `hidden` neurons and `buckets` output buckets, or a usage
    /// error naming the setting that is out of range.
    fn settings(&self, hidden: usize, buckets: usize) -> anyhow::Result<train::Settings> {
        if hidden == 0 || self.batch == 0 || self.epochs == 0 {
            return Err(chariot_cli::usage(
                "--hidden, --batch and --epochs must be at least 1",
            ));
        }
        let (learning_rate, lambda) = (self.learning_rate, self.lambda);
        if !(learning_rate > 0.0 && learning_rate.is_finite() && (0.0..=1.0).contains(&lambda)) {
            return Err(chariot_cli::usage(
                "--learning-rate must be positive and --lambda between 0 and 1",
            ));
        }
        let drop_at = self
            .drop_at
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                s.trim().parse::<usize>().map_err(|_| {
                    chariot_cli::usage(format!("--drop-at: {s:?} is not an epoch number"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(train::Settings {
            hidden,
            buckets,
            epochs: self.epochs,
            batch_size: self.batch,
            learning_rate,
            drop_at,
            lambda,
            validation_every: self.validation_every,
            threads: self.threads.max(1),
            seed: self.seed,
            ..train::Settings::default()
        })
    }
}

/// Runs `chariot train`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        data,
        arch,
        out,
        hidden,
        buckets,
        init,
        epochs,
        batch,
        learning_rate,
        drop_at,
        lambda,
        validation_every,
        validation,
        max_positions,
        threads,
        seed,
    } = args;
    let data = stream::expand(&data)?;
    let validation = stream::expand(&validation)?;
    let init = match &init {
        Some(path) => Some(resources::load_network_file(path)?),
        None => None,
    };
    let arch = match (arch, &init) {
        (Some(a), Some(net)) if a != net.architecture() => {
            return Err(chariot_cli::usage(format!(
                "--arch {}: the --init network is {}",
                a.name(),
                net.architecture().name()
            )));
        }
        (_, Some(net)) => net.architecture(),
        (a, None) => a.unwrap_or(Architecture::PieceSquare),
    };
    let common = Common {
        epochs,
        batch,
        learning_rate,
        drop_at,
        lambda,
        validation_every: if validation.is_empty() {
            validation_every
        } else {
            0
        },
        threads,
        seed,
    };
    if arch == Architecture::KingBucketed {
        let start = match init.as_deref() {
            Some(Network::KingBucketed(net)) => Some(FloatKingNet::from_network(net)),
            _ => None,
        };
        let shape = start.as_ref().map(|n| (n.hidden(), n.buckets()));
        let hidden = match (hidden, shape) {
            (Some(h), Some((was, _))) if h != was => {
                return Err(chariot_cli::usage(format!(
                    "--hidden {h}: the --init network has {was} neurons per perspective"
                )));
            }
            (h, shape) => h.or(shape.map(|s| s.0)).unwrap_or(512),
        };
        if hidden % HIDDEN_STEP != 0 || !(HIDDEN_STEP..=MAX_HIDDEN).contains(&hidden) {
            return Err(chariot_cli::usage(format!(
                "--hidden {hidden}: a king-bucketed network's first layer is a multiple of \
                 {HIDDEN_STEP} up to {MAX_HIDDEN}"
            )));
        }
        let buckets = match (buckets, shape) {
            (Some(b), Some((_, was))) if b != was => {
                return Err(chariot_cli::usage(format!(
                    "--buckets {b}: the --init network has {was} output buckets"
                )));
            }
            (b, shape) => b.or(shape.map(|s| s.1)).unwrap_or(8),
        };
        check_buckets(buckets)?;
        let settings = common.settings(hidden, buckets)?;
        refuse_training_data_as_validation(&data, &validation)?;
        return train_king(&data, &validation, &out, max_positions, &settings, start);
    }
    let start = match init.as_deref() {
        Some(Network::PieceSquare(net)) => Some(train::FloatNet::from_network(net)),
        _ => None,
    };
    let hidden = match (hidden, &start) {
        (Some(h), Some(net)) if h != net.hidden() => {
            return Err(chariot_cli::usage(format!(
                "--hidden {h}: the --init network has {} neurons per perspective",
                net.hidden()
            )));
        }
        (_, Some(net)) => net.hidden(),
        (h, None) => h.unwrap_or(128),
    };
    let buckets = match (buckets, &start) {
        (Some(b), Some(net)) if b != net.buckets() && net.buckets() > 1 => {
            return Err(chariot_cli::usage(format!(
                "--buckets {b}: the --init network has {} output buckets (only a \
                 network of one output can be split into buckets)",
                net.buckets(),
            )));
        }
        (b, Some(net)) => b.unwrap_or(net.buckets()),
        (b, None) => b.unwrap_or(1),
    };
    check_buckets(buckets)?;
    // A network of one output given more buckets starts with its output in each.
    let start = match start {
        Some(net) if net.buckets() != buckets => net.split_output(buckets),
        start => start,
    };
    let settings = common.settings(hidden, buckets)?;
    train(&data, &validation, &out, max_positions, &settings, start)
}

fn check_buckets(buckets: usize) -> anyhow::Result<()> {
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(chariot_cli::usage(format!(
            "--buckets {buckets}: from 1 to {MAX_BUCKETS}"
        )));
    }
    Ok(())
}

/// Reads `--arch`.
fn parse_arch(s: &str) -> Result<Architecture, String> {
    match s {
        "psq" => Ok(Architecture::PieceSquare),
        "king" => Ok(Architecture::KingBucketed),
        _ => Err(format!("{s:?} is not an architecture (psq, king)")),
    }
}
