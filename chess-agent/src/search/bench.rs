//! The bench signature (after Stockfish's `bench`): fixed positions searched to a fixed depth
//! with a fresh table; the total node count identifies the search's behaviour. A change that
//! alters the search says the new number in its commit message; one that should not, keeps it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use super::{Limits, Searcher};

/// Opening, middlegame and endgame positions, including the well-known perft test positions
/// ("Kiwipete" and positions 3-5 of the Chess Programming Wiki's perft page) and two endings.
pub const POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// The bench result.
#[derive(Debug, Clone, Copy)]
pub struct Bench {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Total search time.
    pub elapsed: Duration,
}

/// Searches every position of [`POSITIONS`] to `depth` with a fresh 16 MiB table each.
///
/// # Panics
///
/// Never for the built-in positions (they are legal FENs).
#[must_use]
pub fn run(depth: i32) -> Bench {
    let start = Instant::now();
    let mut nodes = 0;
    for fen in POSITIONS {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("bench FEN")
            .into_position(CastlingMode::Standard)
            .expect("bench position");
        let mut searcher = Searcher::new(16);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let _ = searcher.think(&pos, &[], limits, &[], stop, &mut |_| {});
        nodes += searcher.nodes();
    }
    Bench {
        nodes,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn bench_is_deterministic() {
        assert_eq!(super::run(4).nodes, super::run(4).nodes);
    }
}
