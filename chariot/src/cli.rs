//! Command-line interface of the `chariot` binary.

use std::io::{self, Write};
use std::process::ExitCode;

use chariot_cli::Exit;
use std::time::Instant;

use anyhow::{Context, bail};
use chariot_engine::resources;
use chariot_engine::search::puzzle::Puzzle;
use chariot_engine::search::{Level, Limits, Options, Searcher, bench};
use chariot_eval::nnue::kernels::Kernel;
use chariot_eval::{EvalConfig, breakdown};
use chariot_rules::perft::{divide, perft};
use chariot_rules::{Position, START_FEN};
use clap::{Parser, Subcommand};

/// Chariot: a Xiangqi engine for UCCI and UCI GUIs, with tools for its rules.
///
/// Without a subcommand, chariot is the engine: it reads UCCI or UCI commands on standard input
/// (the first command, `ucci` or `uci`, decides) and answers on standard output. At a terminal,
/// type `ucci`, `position startpos`, `go depth 10`, `d` to see the board, `quit` to leave.
#[derive(Parser, Debug)]
#[command(name = "chariot", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaf nodes of the legal move tree (the move generator's self-test).
    ///
    /// Prints the node count, or with --divide one `move: count` line per root move in ICCS,
    /// followed by the total. The total is always the last line.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// The position (UCCI FEN); the start position when absent.
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// List each root move with its count.
        #[arg(long)]
        divide: bool,
        /// Also print the time taken and nodes per second (on stderr).
        #[arg(long)]
        time: bool,
    },
    /// Search the bench positions to a fixed depth and print the node count (the search's
    /// signature) and the speed.
    ///
    /// Single-threaded, a fresh 16 MiB table per position, default options: the node count is
    /// deterministic. The last three lines are `Total nodes`, `Time` and `Nodes/second`.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// The `pruning` option's level: none, tiny, small, medium, large (the default, whose
        /// node count is the search's signature) or huge. Less pruning makes a tree of mostly
        /// cheap quiescence nodes, like ElephantEye's, for comparing the speed of the code on
        /// similar trees.
        #[arg(long, default_value = "large", value_parser = parse_pruning)]
        pruning: Level,
        /// Evaluate with the built-in network (the engine's default evaluation) instead of the
        /// hand-written evaluation, whose node count is the signature.
        #[arg(long)]
        nnue: bool,
        /// With --nnue: the network's vector kernels, `avx2` (where the CPU has it, the default
        /// there) or `portable`; the same node count, for measuring the speed of each.
        #[arg(long, requires = "nnue", value_parser = parse_kernel)]
        kernel: Option<Kernel>,
    },
    /// Print the static evaluation of a position: the hand-written evaluation term by term,
    /// then the built-in network's (the engine's default evaluation).
    Eval {
        /// The position (UCCI FEN); the start position when absent.
        #[arg(long, default_value = START_FEN)]
        fen: String,
    },
    /// Generate training data by self-play: positions with their search scores and game results
    /// (`docs/formats/training-data.md`); appends to FILE and resumes where it stopped.
    Datagen {
        /// The data file (created if missing, appended to otherwise).
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// Stop once the file holds this many positions.
        #[arg(long, default_value_t = 1_000_000, value_name = "N")]
        positions: u64,
        /// Search nodes per move.
        #[arg(long, default_value_t = 5_000, value_name = "N")]
        nodes: u64,
        /// Game threads (one search thread each).
        #[arg(long, default_value_t = 1, value_name = "N")]
        threads: usize,
        /// Seed of the run (the same seed and file give the same games).
        #[arg(long, default_value_t = 1, value_name = "N")]
        seed: u64,
        /// Opening book for the opening walks (default: the built-in book).
        #[arg(long, value_name = "FILE")]
        book: Option<std::path::PathBuf>,
        /// No book walk: openings are random plies only.
        #[arg(long, conflicts_with = "book")]
        no_book: bool,
        /// Book plies at most per opening.
        #[arg(long, default_value_t = 12, value_name = "N")]
        book_plies: usize,
        /// Random plies after the book walk.
        #[arg(long, default_value_t = 6, value_name = "N")]
        random_plies: usize,
        /// Search with this network (`.nnue`) instead of the built-in one.
        #[arg(long, value_name = "FILE")]
        evalfile: Option<std::path::PathBuf>,
        /// Search with the hand-written evaluation instead of a network.
        #[arg(long, conflicts_with = "evalfile")]
        no_nnue: bool,
        /// Hide the progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Train a neural evaluation on `datagen` data and write it as a `.nnue` file (checkpoints
    /// after every epoch beside it).
    Train {
        /// Training-data files from `chariot datagen`.
        #[arg(required = true, value_name = "DATA")]
        data: Vec<std::path::PathBuf>,
        /// The network file to write.
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// First-layer neurons per perspective [default: 128, or the --init network's].
        #[arg(long, value_name = "N")]
        hidden: Option<usize>,
        /// Output buckets, chosen by the number of pieces on the board, 1 to 16 [default: 1, or
        /// the --init network's]. A --init network of one output is split: each bucket starts
        /// as its output.
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
    },
    /// Measure evaluations on `datagen` data without training: the trainer's loss of each
    /// network as the engine evaluates it, and of the hand-written evaluation with --hand, on
    /// the same positions. Lower is better; this ranks networks before a match (use games none
    /// of them was trained on: docs/tuning.md).
    ///
    /// Prints one line per evaluation: the loss against the blended target (what `train`
    /// reports), and against the search scores alone and the game results alone.
    Loss {
        /// Network files (.nnue) to measure.
        #[arg(value_name = "NET")]
        nets: Vec<std::path::PathBuf>,
        /// The positions to measure on: `datagen` files (repeatable).
        #[arg(long, required = true, value_name = "FILE")]
        data: Vec<std::path::PathBuf>,
        /// Also measure the built-in network (the engine's default evaluation).
        #[arg(long)]
        builtin: bool,
        /// Also measure the hand-written evaluation.
        #[arg(long)]
        hand: bool,
        /// Weight of the search score in the target; the rest is the game result (as `train`).
        #[arg(long, default_value_t = 0.75, value_name = "X")]
        lambda: f32,
        /// Use at most N positions (the first ones of the files).
        #[arg(long, value_name = "N")]
        max_positions: Option<usize>,
        /// Also the losses on N ranges of the number of pieces on the board (those of N output
        /// buckets, 2 to 16): where an evaluation is weak, openings or endgames.
        #[arg(long, value_name = "N")]
        by_pieces: Option<usize>,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Search every mate problem of a file (`title|FEN|solution in ICCS` per line) and report
    /// how many are solved: the first solution move is found, or an equally fast mate.
    Tactics {
        /// The problem file.
        file: std::path::PathBuf,
        /// Nodes per problem (the default limit: 1,000,000).
        #[arg(long, conflicts_with = "depth")]
        nodes: Option<u64>,
        /// Depth per problem instead of a node limit.
        #[arg(long)]
        depth: Option<u32>,
        /// Hash table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// List every problem, not only the failures.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Serve the web app: play against Chariot and analyse positions in the browser.
    ///
    /// Open the printed address (or pass --open). The pages and their JSON API
    /// (docs/web-api.md) come from this one binary. Listens on the loopback address unless told
    /// otherwise. Each game has its own engine at its own level; games are bounded in number
    /// (an idle one makes room for a new one) and every move's thinking in time.
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// The port (0: any free port, printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// An opening book (.xqb); repeat for several [default: the built-in book].
        #[arg(long = "book", value_name = "FILE")]
        books: Vec<std::path::PathBuf>,
        /// A directory of endgame tables; repeat for several [default: the data-location
        /// order, docs/protocol.md].
        #[arg(long = "egtb", value_name = "DIR")]
        egtb: Vec<std::path::PathBuf>,
        /// Games open at once.
        #[arg(long, default_value_t = 64, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000))]
        max_games: u64,
        /// The game database to explore, where every finished game is kept too (SQLite, as
        /// `book-builder import` writes; created when missing) [default: one built from the
        /// shipped collections on first start, in the cache directory; games are not kept].
        #[arg(long, value_name = "DB")]
        games: Option<std::path::PathBuf>,
        /// Open the app in the default web browser once the server listens.
        #[arg(long)]
        open: bool,
    },
    /// Tune the evaluation's weights on positions with game results (Texel tuning).
    ///
    /// Reads a positions file (`FEN;result` lines, as `book-builder positions` writes them;
    /// docs/formats/positions.md), holds out one position in --holdout, fits the scale K of the
    /// logistic curve to the built-in weights, then minimises the mean squared error between
    /// results and expected scores with Adam. Prints the errors before and after (training and
    /// held out) and what changed; with --out, writes params.rs and pst.rs with the tuned
    /// numbers. See docs/tuning.md.
    Tune {
        /// The positions file.
        positions: std::path::PathBuf,
        /// Adam iterations (each a pass over all training positions).
        #[arg(long, default_value_t = 1000, value_name = "N")]
        iterations: usize,
        /// The first step size in centipawns (it decays to a tenth over the run).
        #[arg(long, default_value_t = 1.0, value_name = "LR")]
        learning_rate: f64,
        /// Weight groups to tune, comma-separated: material, pst, mobility, horse-legs,
        /// cannons, king-safety, soldiers, tempo; or all.
        #[arg(long, default_value = "all", value_name = "LIST")]
        groups: String,
        /// Measure on the positions of this file (e.g. from held-out games, see `book-builder
        /// positions --held-out`) instead of holding out part of POSITIONS.
        #[arg(long, value_name = "FILE")]
        held_out: Option<std::path::PathBuf>,
        /// Without --held-out: hold out the positions whose Zobrist key is divisible by N (0:
        /// none).
        #[arg(
            long,
            default_value_t = 10,
            value_name = "N",
            conflicts_with = "held_out"
        )]
        holdout: u64,
        /// Leave table cells alone on which fewer than N pieces stood in the training positions.
        #[arg(long, default_value_t = 1000, value_name = "N")]
        min_uses: u64,
        /// Keep every piece-square table cell within -CP..=CP.
        #[arg(long, default_value_t = 150, value_name = "CP")]
        table_bound: u32,
        /// Ridge penalty: L2 * ((w - start) / 100)^2 per tuned weight is added to the error.
        #[arg(long, default_value_t = 0.0, value_name = "L2")]
        l2: f64,
        /// Read at most N positions.
        #[arg(long, value_name = "N")]
        max_positions: Option<usize>,
        /// Threads for the gradient.
        #[arg(long, default_value_t = 1, value_name = "N")]
        threads: usize,
        /// Write the tuned params.rs and pst.rs into this directory.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

/// Runs the command line and returns the process exit code (the table is in `chariot_cli`).
pub fn run() -> ExitCode {
    match chariot_cli::parse::<Cli>() {
        Ok(cli) => chariot_cli::run("chariot", || execute(cli).map(|()| Exit::Success)),
        Err(code) => code,
    }
}

fn execute(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        chariot_engine::protocol::run_stdio();
        return Ok(());
    };
    match command {
        Command::Perft {
            depth,
            fen,
            divide: split,
            time,
        } => {
            let mut pos = Position::from_fen(&fen)
                .map_err(|e| chariot_cli::usage(format!("invalid --fen {fen:?}: {e}")))?;
            let start = Instant::now();
            let mut out = io::stdout().lock();
            let total = if split {
                let rows = divide(&mut pos, depth);
                for (m, n) in &rows {
                    writeln!(out, "{m}: {n}")?;
                }
                rows.iter().map(|r| r.1).sum()
            } else {
                perft(&mut pos, depth)
            };
            writeln!(out, "{total}")?;
            if time {
                let secs = start.elapsed().as_secs_f64();
                eprintln!("time {secs:.3} s, {:.1} Mnps", total as f64 / secs / 1e6);
            }
            Ok(())
        }
        Command::Bench {
            depth,
            pruning,
            nnue,
            kernel,
        } => {
            let network = if nnue {
                let net =
                    chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?;
                let net = match kernel {
                    Some(k) if !k.available() => {
                        return Err(chariot_cli::usage(format!(
                            "--kernel {}: this CPU does not have it",
                            k.name()
                        )));
                    }
                    Some(k) => (*net).clone().with_kernel(k),
                    None => (*net).clone(),
                };
                Some(std::sync::Arc::new(net))
            } else {
                None
            };
            run_bench(depth, pruning, network)
        }
        Command::Serve {
            host,
            port,
            books,
            egtb,
            max_games,
            games,
            open,
        } => crate::serve::serve(&crate::serve::Settings {
            host,
            port,
            books,
            egtb,
            max_games: usize::try_from(max_games).unwrap_or(usize::MAX),
            games,
            open,
        }),
        Command::Eval { fen } => {
            let pos = Position::from_fen(&fen)
                .map_err(|e| chariot_cli::usage(format!("invalid --fen {fen:?}: {e}")))?;
            let config = EvalConfig {
                engine: pos.turn(),
                ..EvalConfig::FULL
            };
            let mut out = io::stdout().lock();
            writeln!(out, "hand-written evaluation:")?;
            writeln!(out, "{}", breakdown(&pos, &config))?;
            match chariot_eval::nnue::builtin::network() {
                Ok(net) => {
                    let v = net.evaluate_position(&pos);
                    let red = if pos.turn().is_red() { v } else { -v };
                    writeln!(out, "{}:", chariot_eval::nnue::builtin::NAME)?;
                    writeln!(out, "evaluation (red): {red}")?;
                    writeln!(out, "evaluation (side to move): {v}")?;
                }
                Err(e) => writeln!(out, "{e}")?,
            }
            Ok(())
        }
        Command::Datagen {
            out,
            positions,
            nodes,
            threads,
            seed,
            book,
            no_book,
            book_plies,
            random_plies,
            evalfile,
            no_nnue,
            quiet,
        } => {
            if nodes == 0 || threads == 0 {
                return Err(chariot_cli::usage(
                    "--nodes and --threads must be at least 1",
                ));
            }
            let network = match (&evalfile, no_nnue) {
                (_, true) => None,
                (Some(path), false) => {
                    Some(resources::load_network_file(path).context("--evalfile")?)
                }
                (None, false) => Some(
                    chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?,
                ),
            };
            let settings = chariot_training::datagen::Settings {
                network,
                target_records: positions,
                nodes,
                threads,
                seed,
                book_plies,
                random_plies,
                ..chariot_training::datagen::Settings::default()
            };
            crate::selfplay::run(&out, &settings, book.as_deref(), no_book, quiet)
        }
        Command::Train {
            data,
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
        } => {
            let start = match &init {
                Some(path) => Some(chariot_training::nnue::train::FloatNet::from_network(
                    &*resources::load_network_file(path)?,
                )),
                None => None,
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
            if !(1..=chariot_eval::nnue::network::MAX_BUCKETS).contains(&buckets) {
                return Err(chariot_cli::usage(format!(
                    "--buckets {buckets}: from 1 to {}",
                    chariot_eval::nnue::network::MAX_BUCKETS
                )));
            }
            // A network of one output given more buckets starts with its output in each.
            let start = match start {
                Some(net) if net.buckets() != buckets => net.split_output(buckets),
                start => start,
            };
            if hidden == 0 || batch == 0 || epochs == 0 {
                return Err(chariot_cli::usage(
                    "--hidden, --batch and --epochs must be at least 1",
                ));
            }
            if !(learning_rate > 0.0 && learning_rate.is_finite() && (0.0..=1.0).contains(&lambda))
            {
                return Err(chariot_cli::usage(
                    "--learning-rate must be positive and --lambda between 0 and 1",
                ));
            }
            let drop_at = drop_at
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .map(|s| {
                    s.trim().parse::<usize>().map_err(|_| {
                        chariot_cli::usage(format!("--drop-at: {s:?} is not an epoch number"))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let settings = chariot_training::nnue::train::Settings {
                hidden,
                buckets,
                epochs,
                batch_size: batch,
                learning_rate,
                drop_at,
                lambda,
                validation_every: if validation.is_empty() {
                    validation_every
                } else {
                    0
                },
                threads: threads.max(1),
                seed,
                ..chariot_training::nnue::train::Settings::default()
            };
            crate::nnue_training::run(&data, &validation, &out, max_positions, &settings, start)
        }
        Command::Loss {
            nets,
            data,
            builtin,
            hand,
            lambda,
            max_positions,
            by_pieces,
            json,
            quiet,
        } => {
            if !(0.0..=1.0).contains(&lambda) {
                return Err(chariot_cli::usage("--lambda must be between 0 and 1"));
            }
            let max = chariot_eval::nnue::network::MAX_BUCKETS;
            if by_pieces.is_some_and(|n| !(2..=max).contains(&n)) {
                return Err(chariot_cli::usage(format!(
                    "--by-pieces must be between 2 and {max}"
                )));
            }
            let mut evaluators = Vec::new();
            for path in &nets {
                evaluators.push(crate::evaluation_loss::Evaluator::Network(
                    path.display().to_string(),
                    resources::load_network_file(path)?,
                ));
            }
            if builtin {
                let net =
                    chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?;
                evaluators.push(crate::evaluation_loss::Evaluator::Network(
                    "built-in".to_owned(),
                    net,
                ));
            }
            if hand {
                evaluators.push(crate::evaluation_loss::Evaluator::Hand);
            }
            if evaluators.is_empty() {
                return Err(chariot_cli::usage(
                    "nothing to measure: name network files, --builtin or --hand",
                ));
            }
            crate::evaluation_loss::run(&crate::evaluation_loss::Settings {
                evaluators,
                data,
                lambda,
                max_positions,
                by_pieces: by_pieces.unwrap_or(1),
                json,
                quiet,
            })
        }
        Command::Tactics {
            file,
            nodes,
            depth,
            hash,
            verbose,
        } => run_tactics(&file, nodes, depth, hash, verbose),
        Command::Tune {
            positions,
            iterations,
            learning_rate,
            groups,
            held_out,
            holdout,
            min_uses,
            table_bound,
            l2,
            max_positions,
            threads,
            out,
        } => {
            if !(learning_rate > 0.0 && learning_rate.is_finite()) {
                return Err(chariot_cli::usage(format!(
                    "--learning-rate must be a positive number, not {learning_rate}"
                )));
            }
            if !(l2 >= 0.0 && l2.is_finite()) {
                return Err(chariot_cli::usage(format!(
                    "--l2 must be a number of at least 0, not {l2}"
                )));
            }
            let args = crate::tuning::TuneArgs {
                positions,
                max_positions: max_positions.unwrap_or(usize::MAX),
                held_out,
                holdout,
                settings: chariot_training::tune::optimize::Settings {
                    iterations,
                    learning_rate,
                    groups: crate::tuning::parse_groups(&groups)?,
                    threads: threads.max(1),
                    min_uses,
                    table_bound: f64::from(table_bound),
                    l2,
                },
                out,
            };
            crate::tuning::run(&args)
        }
    }
}

/// Reads `--pruning` as the UCCI option's levels are read.
fn parse_pruning(s: &str) -> Result<Level, String> {
    chariot_engine::protocol::options::level("pruning", Some(s))
}

fn parse_kernel(s: &str) -> Result<Kernel, String> {
    match s {
        "avx2" => Ok(Kernel::Avx2),
        "portable" => Ok(Kernel::Portable),
        _ => Err(format!("{s:?} is not a kernel (avx2, portable)")),
    }
}

fn run_bench(
    depth: u32,
    pruning: Level,
    network: Option<std::sync::Arc<chariot_eval::nnue::Network>>,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match &network {
        Some(net) => writeln!(
            out,
            "Evaluation: {} ({} kernels)",
            chariot_eval::nnue::builtin::NAME,
            net.kernel().name()
        )?,
        None => writeln!(out, "Evaluation: hand-written")?,
    }
    let mut failure = None;
    let result = bench::run_with(depth, pruning, network, |i, fen, r| {
        let best = r
            .best
            .map_or_else(|| "(none)".to_owned(), |m| m.to_string());
        if let Err(e) = writeln!(
            out,
            "Position {:>2}: {:>10} nodes  best {best:<5} {:<9}  {fen}",
            i + 1,
            r.nodes,
            r.score.to_string()
        ) {
            failure.get_or_insert(e);
        }
    });
    if let Some(e) = failure {
        return Err(e.into());
    }
    let ms = result.time.as_millis().max(1);
    writeln!(out, "===========================")?;
    writeln!(out, "Total nodes: {}", result.nodes)?;
    writeln!(out, "Time: {ms} ms")?;
    writeln!(
        out,
        "Nodes/second: {}",
        u128::from(result.nodes) * 1000 / ms
    )?;
    Ok(())
}

fn run_tactics(
    file: &std::path::Path,
    nodes: Option<u64>,
    depth: Option<u32>,
    hash: usize,
    verbose: bool,
) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let limits = match depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => Limits {
            nodes: Some(nodes.unwrap_or(1_000_000)),
            ..Limits::default()
        },
    };
    let mut searcher = Searcher::new(Options {
        hash_mb: hash,
        ..Options::default()
    });
    let mut out = io::stdout().lock();
    let (mut solved, mut total, mut invalid) = (0, 0, 0);
    let start = Instant::now();
    for (line, puzzle) in Puzzle::parse_all(&text) {
        let puzzle = match puzzle {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "line {line}: skipped: {e}")?;
                invalid += 1;
                continue;
            }
        };
        total += 1;
        let (ok, r) = puzzle.solve(&mut searcher, &limits);
        if ok {
            solved += 1;
        }
        if verbose || !ok {
            let best = r
                .best
                .map_or_else(|| "(none)".to_owned(), |m| m.to_string());
            let verdict = if ok { "solved" } else { "FAILED" };
            writeln!(
                out,
                "line {line}: {verdict} {}: expected {} (mate in {} plies), got {best} {} depth {} nodes {}",
                puzzle.title,
                puzzle.solution[0],
                puzzle.mate_plies(),
                r.score,
                r.depth,
                r.nodes
            )?;
        }
    }
    if total == 0 {
        bail!("{}: no problems found", file.display());
    }
    writeln!(
        out,
        "Solved {solved} of {total} ({invalid} lines skipped) in {} ms",
        start.elapsed().as_millis()
    )?;
    Ok(())
}
