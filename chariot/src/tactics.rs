//! `chariot tactics`: searches every mate problem of a file (`title|FEN|solution in ICCS` per
//! line) and reports how many are solved.

use std::io::{self, Write};
use std::time::Instant;

use anyhow::{Context, bail};
use chariot_engine::search::puzzle::Puzzle;
use chariot_engine::search::{Limits, Options, Searcher};

// The arguments of `chariot tactics` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
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
}

/// Runs `chariot tactics`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        file,
        nodes,
        depth,
        hash,
        verbose,
    } = args;
    run_tactics(&file, nodes, depth, hash, verbose)
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
