//! Command-line arguments and dispatch. Plain arguments are parsed first; tables are opened and
//! memory is taken only by the subcommand that needs them.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use chariot_cli::Exit;
use chariot_formats::egtb::Metric;

use clap::{Parser, Subcommand};

/// Xiangqi endgame tablebases: generate, inspect, probe and verify.
#[derive(Parser, Debug)]
#[command(name = "egtb-gen", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Generate tables (and every smaller table they need) by retrograde analysis.
    ///
    /// Each table is written as KRKAABB.egtb (distance to mate) and KRKAABB.dtc.egtb (distance
    /// to conversion: to the next capture or soldier's move), or one of them (--metric), each
    /// in the order of its entries that compresses better (key scheme 3 or 4).
    ///
    /// Uses every core (rayon; set RAYON_NUM_THREADS to limit). Finished tables are written
    /// atomically (a temporary file renamed into place), so the run can be interrupted at any
    /// time; a re-run skips the tables that are already there and valid.
    ///
    /// Memory: at most about 16 bytes per entry of the table being generated (5 during the
    /// retrograde passes, 11 while the perpetual check/chase game is solved, 16 when both
    /// sides have attacking pieces and so two games with chases; the DTC pass needs 8) plus 2 bytes per
    /// entry of the tables its captures lead to (held in memory). The largest table of the
    /// third set (36 M entries) stays under 1 GiB;
    /// `--max-memory` refuses a table whose estimate exceeds the limit before starting it.
    #[command(verbatim_doc_comment)]
    Gen {
        /// Table names, e.g. KRKAABB (any piece order; WXF's E and H accepted).
        signatures: Vec<String>,
        /// A named set: first (324 tables), second (90 tables), third (78 tables), small (see `egtb-gen sets`).
        #[arg(long)]
        set: Option<String>,
        /// Where tables are read from and written to [default: the first directory of
        /// $CHARIOT_EGTB, else the user data directory, e.g. ~/.local/share/chariot/egtb,
        /// where the engine finds them too].
        #[arg(long)]
        dir: Option<PathBuf>,
        /// zstd compression level of the blocks.
        #[arg(long, default_value_t = 12)]
        level: i32,
        /// Entries per compressed block, 1 to 1048576: smaller blocks make a cold probe
        /// cheaper, larger ones compress better.
        #[arg(
            long,
            default_value_t = chariot_formats::egtb::file::DEFAULT_BLOCK_ENTRIES,
            value_parser = clap::value_parser!(u32)
                .range(1..=i64::from(chariot_formats::egtb::file::MAX_BLOCK_ENTRIES))
        )]
        block_entries: u32,
        /// Refuse a table whose estimated memory exceeds this many GiB.
        #[arg(long, default_value_t = 16.0)]
        max_memory: f64,
        /// Regenerate the named tables even if they exist (their dependencies are still reused).
        #[arg(long)]
        force: bool,
        /// Report a table that cannot be generated and go on with the others.
        #[arg(long)]
        keep_going: bool,
        /// The files to write per table: `dtm` (distance to mate, `KRKAABB.egtb`), `dtc`
        /// (distance to conversion, `KRKAABB.dtc.egtb`; smaller) or `both`. A DTM file needs
        /// the DTM files of the tables captures lead to; a DTC file needs either.
        #[arg(long, default_value = "both", value_parser = ["dtm", "dtc", "both"])]
        metric: String,
    },
    /// Show a table's header: material, positions, results per side, longest mate, size.
    Info {
        /// Table files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object per table.
        #[arg(long)]
        json: bool,
        /// Also read every entry: the positions at each distance to mate (in plies) per side to
        /// move, and the longest mates (`--longest`).
        #[arg(long)]
        distances: bool,
        /// With `--distances`: how many of the longest mates to list per side to move.
        #[arg(long, default_value_t = 10, requires = "distances")]
        longest: usize,
    },
    /// Probe positions: value, distance to mate, best move and the line to mate.
    Probe {
        /// Directories or files with tables [default: every directory of the data-location order:
        /// $CHARIOT_EGTB, egtb/ next to the executable, the user data directory, the source
        /// tree's data/egtb]. A damaged table is skipped with a warning.
        #[arg(long)]
        dir: Vec<PathBuf>,
        /// Positions in FEN; read from standard input, one per line, when none are given.
        fens: Vec<String>,
        /// One JSON object per line: fen, wdl, dtm, by_rule, rule_rank, best, line, moves (or
        /// fen and error).
        #[arg(long)]
        json: bool,
        /// Leave out the line to mate (faster).
        #[arg(long)]
        no_line: bool,
        /// Only each position's own value: no best move, line or moves (the fastest, for probing
        /// many positions; JSON leaves out `moves`, `best` and `line` are null).
        #[arg(long)]
        value_only: bool,
        /// Answer in this metric: `dtm` (distance to mate) or `dtc` (distance to conversion)
        /// [default: DTM where its table is open, else DTC].
        #[arg(long, value_parser = ["dtm", "dtc"])]
        metric: Option<String>,
    },
    /// Re-check tables through the reader: every position against its successors.
    ///
    /// A table's DTM and DTC files given together (`KRKN.egtb KRKN.dtc.egtb`) are checked in
    /// one pass over the moves and one solution of the rule game, about half the time of
    /// checking them apart; each file still gets its own verdict (with the pair's time).
    Verify {
        /// Table files; the tables their captures lead to are looked up in the same directory.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// One JSON object per table: file, ok, seconds, and the first inconsistency or error.
        #[arg(long)]
        json: bool,
    },
    /// Cross-check sampled positions against a plain depth-limited mate search.
    Crosscheck {
        /// Table files.
        files: Vec<PathBuf>,
        /// Positions per table (half of them with a stored mate within the depth).
        #[arg(long, default_value_t = 40)]
        samples: usize,
        /// Search depth in plies.
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// One JSON object per file: file, ok, positions, seconds, and the mismatch or error.
        #[arg(long)]
        json: bool,
    },
    /// Rewrite table files of an older format version (1 or 2) in the current one (3).
    ///
    /// Version 3 stores a block of one value without a zstd frame and compresses the block
    /// index: the same entries in fewer bytes (nearly drawn tables shrink most). Each new file
    /// is read back and compared entry by entry with the old one before it replaces it (the
    /// old file is kept on any error); files in version 3 are left as they are. Exit 1 when a
    /// file could not be rewritten.
    Repack {
        /// Table files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// zstd compression level of the blocks (as for `gen`).
        #[arg(long, default_value_t = 12)]
        level: i32,
        /// One JSON object per file: file, version, rewritten, before, after (bytes), error.
        #[arg(long)]
        json: bool,
    },
    /// Measure probe speed: a probe that decompresses its block (cold) and one that finds it
    /// cached (warm), on random legal positions of one table.
    BenchProbe {
        /// The table file (its directory must hold the tables it depends on).
        file: PathBuf,
        /// Positions to probe.
        #[arg(long, default_value_t = 2000)]
        positions: usize,
    },
    /// List the named sets.
    Sets,
    /// Write the generation of tables as a workflow for `make -j` (one machine) or Snakemake
    /// (a cluster): one `egtb-gen gen SIG` job per table, each after the tables it needs; its
    /// target `check` also verifies and cross-checks every table (`TABLE.verify.json`, ...).
    Plan {
        /// Table names, e.g. KRKAABB.
        signatures: Vec<String>,
        /// A named set (see `egtb-gen sets`).
        #[arg(long)]
        set: Option<String>,
        /// The tables' directory written into the plan [default: as for `gen`].
        #[arg(long)]
        dir: Option<PathBuf>,
        /// `make` (a Makefile) or `snakemake` (a Snakefile).
        #[arg(long, default_value = "make", value_parser = ["make", "snakemake"])]
        format: String,
        /// The files each job writes, as `gen --metric`: `dtm`, `dtc` or `both`. A job counts as
        /// done when its DTC file (with `both`, written last) or its DTM file is there.
        #[arg(long, default_value = "both", value_parser = ["dtm", "dtc", "both"])]
        metric: String,
        /// Write the plan here instead of to standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// The metrics of a `--metric dtm|dtc|both` argument.
fn metrics_of(arg: &str) -> Vec<Metric> {
    match arg {
        "dtm" => vec![Metric::Dtm],
        "dtc" => vec![Metric::Dtc],
        _ => Metric::ALL.to_vec(),
    }
}

/// Runs the command line; errors are printed with their causes.
pub fn main() -> ExitCode {
    match chariot_cli::parse::<Cli>() {
        Ok(cli) => chariot_cli::run("egtb-gen", || execute(cli)),
        Err(code) => code,
    }
}

fn execute(cli: Cli) -> anyhow::Result<Exit> {
    let result = match cli.command {
        Command::Gen {
            signatures,
            set,
            dir,
            level,
            block_entries,
            max_memory,
            force,
            keep_going,
            metric,
        } => crate::gen_command::gen_command(
            &signatures,
            set.as_deref(),
            &dir.unwrap_or_else(chariot_formats::data::user_table_dir),
            &crate::gen_command::Options {
                level,
                block_entries,
                max_memory_gib: max_memory,
                force,
                keep_going,
                metrics: metrics_of(&metric),
            },
        ),
        Command::Info {
            files,
            json,
            distances,
            longest,
        } => crate::tools::info(&files, json, distances.then_some(longest)),
        Command::Probe {
            dir,
            fens,
            json,
            no_line,
            value_only,
            metric,
        } => {
            let dirs = if dir.is_empty() {
                chariot_formats::data::table_dirs()
            } else {
                dir
            };
            // Lines that could not be answered make the run partial (exit 3).
            let metric = metric.and_then(|m| m.parse::<Metric>().ok());
            let detail = if value_only {
                crate::tools::Detail::Value
            } else if no_line {
                crate::tools::Detail::Moves
            } else {
                crate::tools::Detail::Line
            };
            return crate::tools::probe(&dirs, &fens, json, detail, metric)
                .map(|ok| Exit::from_ok(ok, Exit::Partial));
        }
        Command::Verify { files, json } => crate::tools::verify(&files, json),
        Command::Crosscheck {
            files,
            samples,
            depth,
            json,
        } => crate::tools::crosscheck(&files, samples, depth, json),
        Command::Repack { files, level, json } => crate::upgrade::repack(&files, level, json),
        Command::BenchProbe { file, positions } => crate::tools::bench_probe(&file, positions),
        Command::Plan {
            signatures,
            set,
            dir,
            format,
            metric,
            out,
        } => crate::gen_command::plan_command(
            &signatures,
            set.as_deref(),
            &dir.unwrap_or_else(chariot_formats::data::user_table_dir),
            format == "snakemake",
            &metrics_of(&metric),
            out.as_deref(),
        ),
        Command::Sets => {
            let mut out = std::io::stdout().lock();
            for (name, what) in egtb_gen::sets::SETS {
                let _ = writeln!(out, "{name:8} {what}");
            }
            Ok(true)
        }
    };
    // Commands report "all good" as true; false is a failed check (exit 1).
    result.map(|ok| Exit::from_ok(ok, Exit::Failure))
}
