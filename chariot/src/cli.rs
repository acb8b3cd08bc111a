//! Command-line interface of the `chariot` binary.

use std::process::ExitCode;

use chariot_cli::Exit;

use clap::{Parser, Subcommand};

use crate::VERSION;

/// Chariot: a Xiangqi engine for UCCI, UCI and XBoard (CECP) GUIs, with tools for its rules.
///
/// Without a subcommand, chariot is the engine: it reads UCCI, UCI or CECP commands on standard
/// input (the first command, `ucci`, `uci` or `xboard`, decides) and answers on standard output. At a terminal,
/// type `ucci`, `position startpos`, `go depth 10`, `d` to see the board, `quit` to leave.
#[derive(Parser, Debug)]
#[command(name = "chariot", version = VERSION, about, long_about)]
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
    Perft(crate::perft::Args),
    /// Search the bench positions to a fixed depth and print the node count (the search's
    /// signature) and the speed.
    ///
    /// Single-threaded, a fresh 16 MiB table per position, default options: the node count is
    /// deterministic. The last three lines are `Total nodes`, `Time` and `Nodes/second`.
    Bench(crate::bench::Args),
    /// Print the static evaluation of a position: the hand-written evaluation term by term,
    /// then the built-in network's (the engine's default evaluation).
    Eval(crate::eval::Args),
    /// Generate training data by self-play: positions with their search scores and game results
    /// (`docs/formats/training-data.md`); appends to FILE and resumes where it stopped, or with
    /// --shard writes one shard of a plan (`datagen-plan`) whole.
    Datagen(crate::datagen::Args),
    /// Plan a large data set as shards: a manifest (DIR/manifest.json: each shard's file, seed,
    /// settings and command) and a workflow file whose jobs are the shards.
    ///
    /// Each shard is one `chariot datagen --shard` job on one thread, so the same seed and
    /// settings give the same bytes and a lost shard is generated again. With --format make,
    /// `make -C DIR -j N` generates them on one machine; with --format snakemake, `snakemake -d
    /// DIR --cores N`, or a Snakemake cluster executor (SLURM, Kubernetes) on many
    /// (docs/tuning.md). The workflow's last job is `datagen-verify --record DIR`.
    DatagenPlan(crate::datagen_plan::Args),
    /// Check the shards of a plan against its manifest: say which are missing, truncated,
    /// damaged or different from the size and SHA-256 recorded, with the command that generates
    /// each again.
    ///
    /// Exits 1 when any shard must be generated again. --record writes the size and SHA-256 of
    /// each whole shard not yet recorded into the manifest.
    DatagenVerify(crate::datagen_verify::Args),
    /// Train a neural evaluation on `datagen` data and write it as a `.nnue` file (checkpoints
    /// after every epoch beside it).
    Train(crate::train::Args),
    /// Measure evaluations on `datagen` data without training: the trainer's loss of each
    /// network as the engine evaluates it, and of the hand-written evaluation with --hand, on
    /// the same positions. Lower is better; this ranks networks before a match (use games none
    /// of them was trained on: docs/tuning.md).
    ///
    /// Prints one line per evaluation: the loss against the blended target (what `train`
    /// reports), and against the search scores alone and the game results alone.
    Loss(crate::loss::Args),
    /// Search every mate problem of a file (`title|FEN|solution in ICCS` per line) and report
    /// how many are solved: the first solution move is found, or an equally fast mate.
    Tactics(crate::tactics::Args),
    /// Make the puzzles the web app offers (`build`), or check a puzzle file with the search and
    /// the endgame tables (`verify`): docs/formats/puzzles.md.
    Puzzles(crate::puzzles::Args),
    /// Serve the web app: play against Chariot and analyse positions in the browser.
    ///
    /// Open the printed address (or pass --open). The pages and their JSON API
    /// (docs/web-api.md) come from this one binary. Listens on the loopback address unless told
    /// otherwise. Each game has its own engine at its own level; games are bounded in number
    /// (an idle one makes room for a new one) and every move's thinking in time.
    Serve(crate::serve::Args),
    /// Tune the evaluation's weights on positions with game results (Texel tuning).
    ///
    /// Reads a positions file (`FEN;result` lines, as `book-builder positions` writes them;
    /// docs/formats/positions.md), holds out one position in --holdout, fits the scale K of the
    /// logistic curve to the built-in weights, then minimises the mean squared error between
    /// results and expected scores with Adam. Prints the errors before and after (training and
    /// held out) and what changed; with --out, writes params.rs and pst.rs with the tuned
    /// numbers. See docs/tuning.md.
    Tune(crate::tune::Args),
}

/// Runs the command line and returns the process exit code (the table is in `chariot_cli`).
pub fn run() -> ExitCode {
    match chariot_cli::parse::<Cli>() {
        Ok(cli) => chariot_cli::run("chariot", || execute(cli)),
        Err(code) => code,
    }
}

fn execute(cli: Cli) -> anyhow::Result<Exit> {
    let Some(command) = cli.command else {
        chariot_engine::protocol::run_stdio();
        return Ok(Exit::Success);
    };
    match command {
        Command::Perft(args) => crate::perft::run(args),
        Command::Bench(args) => crate::bench::run(args),
        Command::Eval(args) => crate::eval::run(args),
        Command::Datagen(args) => crate::datagen::run(args),
        Command::DatagenPlan(args) => crate::datagen_plan::run(args),
        Command::DatagenVerify(args) => return crate::datagen_verify::run(args),
        Command::Train(args) => crate::train::run(args),
        Command::Loss(args) => crate::loss::run(args),
        Command::Tactics(args) => crate::tactics::run(args),
        Command::Puzzles(args) => return crate::puzzles::run(args),
        Command::Serve(args) => crate::serve::run(args),
        Command::Tune(args) => crate::tune::run(args),
    }
    .map(|()| Exit::Success)
}
