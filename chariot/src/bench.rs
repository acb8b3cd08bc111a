//! `chariot bench`: searches the bench positions to a fixed depth and prints the node count
//! (the search's signature) and the speed.

use std::io::{self, Write};

use chariot_engine::resources;
use chariot_engine::search::{Level, bench};
use chariot_eval::nnue::kernels::Kernel;

// The arguments of `chariot bench` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
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
    #[arg(long, conflicts_with = "evalfile")]
    nnue: bool,
    /// Evaluate with the network in FILE (`.nnue`, either architecture) instead of the
    /// hand-written evaluation.
    #[arg(long, value_name = "FILE")]
    evalfile: Option<std::path::PathBuf>,
    /// With --nnue or --evalfile: the network's vector kernels, `vnni` (AVX2 with AVX-512
    /// VNNI's byte dot products), `avx2` or `portable` (the fastest the CPU has is the
    /// default); the same node count, for measuring the speed of each.
    #[arg(long, value_parser = parse_kernel)]
    kernel: Option<Kernel>,
}

/// Runs `chariot bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        depth,
        pruning,
        nnue,
        evalfile,
        kernel,
    } = args;
    if kernel.is_some() && !nnue && evalfile.is_none() {
        return Err(chariot_cli::usage(
            "--kernel: the kernels are the network's; give --nnue or --evalfile",
        ));
    }
    let network = if let Some(path) = &evalfile {
        Some((
            format!("the network of {}", path.display()),
            resources::load_network_file(path)?,
        ))
    } else if nnue {
        let net = chariot_eval::nnue::builtin::network().map_err(|e| anyhow::anyhow!("{e}"))?;
        Some((chariot_eval::nnue::builtin::NAME.to_owned(), net))
    } else {
        None
    };
    let network = if let Some((name, net)) = network {
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
        Some((name, std::sync::Arc::new(net)))
    } else {
        None
    };
    run_bench(depth, pruning, network)
}

/// Reads `--pruning` as the UCCI option's levels are read.
fn parse_pruning(s: &str) -> Result<Level, String> {
    chariot_engine::api::options::level("pruning", Some(s)).map_err(|e| e.to_string())
}

fn parse_kernel(s: &str) -> Result<Kernel, String> {
    Kernel::ALL
        .into_iter()
        .find(|k| k.name() == s)
        .ok_or_else(|| format!("{s:?} is not a kernel (vnni, avx2, portable)"))
}

fn run_bench(
    depth: u32,
    pruning: Level,
    network: Option<(String, std::sync::Arc<chariot_eval::nnue::Network>)>,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    let network = match network {
        Some((name, net)) => {
            writeln!(out, "Evaluation: {name} ({} kernels)", net.kernel().name())?;
            Some(net)
        }
        None => {
            writeln!(out, "Evaluation: hand-written")?;
            None
        }
    };
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
