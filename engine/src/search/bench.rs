//! The bench: a fixed set of positions searched to a fixed depth, whose total node count is the
//! search's signature.
//!
//! Every position is searched single-threaded from a fresh [`Searcher`] (empty 16 MiB table,
//! empty history) with the default options, which involve no randomness and no time, so the node
//! count depends only on the code. A change that alters the search changes the signature; a pure
//! refactoring or speed-up must not (commit messages say which).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Control, Level, Limits, Options, SearchResult, Searcher};
use chariot_rules::{Position, START_FEN};

/// The default bench depth: about 7 million nodes, 6 to 7 s of one core in a release build.
pub const DEFAULT_DEPTH: u32 = 14;

/// The bench positions: the start position and positions from master games
/// (`data/vectors/positions-from-games.tsv`), openings to endgames.
pub const POSITIONS: [&str; 16] = [
    START_FEN,
    "rn1akabnr/9/1c2b2c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w - - 2 2",
    "r1bakabr1/9/1cn3nc1/p1p1p3p/6p2/9/P1P1P1P1P/N1C1C1N2/9/R1BAKABR1 b - - 9 5",
    "r1b1kabr1/4a4/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/2C1C1N2/9/RNBAKABR1 w - - 10 6",
    "2baka1r1/9/2ncb1nc1/p3p1p1p/2p6/5NP2/PrP1P3P/C1N1B1C2/9/1RBAKA1R1 b - - 17 9",
    "3akabn1/3C5/2c1b2c1/p2rp1p1p/9/2p4R1/P3P1P1P/4C1N2/4A4/1NB1KAB2 b - - 0 11",
    "1rb1ka3/4a3r/1C2b4/p1p1n3p/3N5/6p2/P1P3ncP/N4R3/4A4/1RB1KAB2 b - - 9 17",
    "2bak1r2/n3a3c/4b1n2/p1p2c2p/4C1p2/PN7/2C1N1P1P/9/4A2R1/2BAK1B2 w - - 1 23",
    "2bak4/4a4/4b1n2/2CC4p/3P5/4P1p1P/2p2cc2/4B1N2/4A4/2BAK4 b - - 6 24",
    "4kab2/3na4/c3b2c1/1R7/3r3np/C1P3N2/P3P3P/2N1B1C2/4A4/4KAB2 b - - 6 26",
    "4ka3/4a4/1c2b2cb/p1p3C1p/6P2/1Rn6/P5CN1/4B4/4Ar3/4KAB2 b - - 0 21",
    "4kab2/4a1n2/2c1b3c/2n5p/p4R3/4C1P2/P1N1P3P/3CB1N2/3rA4/2BAK4 b - - 20 29",
    "3aka2C/9/4b2r1/p7p/6p2/9/P2ppnP1P/1R7/4C4/2BAKAB2 b - - 4 29",
    "4ka3/4a4/4b4/p5p1p/2b1Nr3/5c1R1/P1N3P1P/3C1A3/2n1K4/3A2B2 w - - 2 33",
    "4kab2/1n2a4/4b2c1/p3R2Cp/1r2c1P2/2N6/P3C4/4B4/4A4/2BAK4 b - - 27 37",
    "3ak1b2/2n1a4/8b/4P4/9/2B3R2/9/9/5K3/3A1AB2 w - - 5 70",
];

/// The outcome of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Wall time of all searches.
    pub time: Duration,
}

/// Runs the bench to `depth`, calling `each(index, fen, result)` after every position.
///
/// # Panics
/// Never for the built-in positions (they are legal).
pub fn run(depth: u32, each: impl FnMut(usize, &str, &SearchResult)) -> BenchResult {
    run_with(depth, Level::Large, None, each)
}

/// [`run`] with the `pruning` option at `pruning` (the default is [`Level::Large`]): with less
/// pruning the tree holds more of the cheap quiescence nodes, as ElephantEye's does, so that the
/// speed of the code can be compared with another engine's on trees of a similar kind (see
/// `docs/PERFORMANCE.md`). With a `network` the searches evaluate with it (the engine's default
/// evaluation, the built-in network, has its own node count; the hand-written evaluation's is
/// the signature, kept from before the network). Only the default pruning's node count is a
/// signature.
///
/// # Panics
/// Never for the built-in positions (they are legal).
pub fn run_with(
    depth: u32,
    pruning: Level,
    network: Option<Arc<chariot_eval::nnue::Network>>,
    mut each: impl FnMut(usize, &str, &SearchResult),
) -> BenchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = Arc::new(Control::default());
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen)
            .unwrap_or_else(|e| unreachable!("bench position {i} is illegal: {e}"));
        let mut searcher = Searcher::new(Options {
            hash_mb: 16,
            threads: 1,
            pruning,
            ..Options::default()
        });
        searcher.set_network(network.clone());
        let start = Instant::now();
        let result = searcher.search(&pos, &limits, &control, &mut |_| {});
        time += start.elapsed();
        nodes += result.nodes;
        each(i, fen, &result);
    }
    BenchResult { nodes, time }
}
