//! How fast a probe is: the time of [`Book::probe`] on positions from the book itself, measured
//! against the time of generating the legal moves of the same positions in the same run.
//!
//! The machines this runs on are shared and noisy, so an absolute figure means little alone;
//! the ratio to move generation (a fixed amount of work) in the same run says whether a probe
//! got slower or the machine did.

use std::hint::black_box;
use std::time::Instant;

use chariot_formats::book::Book;
use chariot_rules::Position;

use crate::inspect::walk;

/// The result of [`fn@bench`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeBench {
    /// Positions probed (each `rounds` times).
    pub positions: usize,
    /// How many of them have book moves (all, unless the book is tiny).
    pub hits: usize,
    /// Rounds over all positions.
    pub rounds: usize,
    /// Mean time of one probe, in nanoseconds.
    pub probe_ns: f64,
    /// Mean time of one `legal_move_list` on the same positions, in nanoseconds.
    pub movegen_ns: f64,
}

/// Times `rounds` probes of up to `positions` positions of the book (those reachable from the
/// start, nearest first), after one warm-up round that brings the memory map in.
#[must_use]
pub fn bench(book: &Book, positions: usize, rounds: usize) -> ProbeBench {
    let rounds = rounds.max(1);
    let mut set: Vec<Position> = Vec::new();
    walk(book, positions, &mut |_, p| set.push(p.clone()));
    if set.is_empty() {
        set.push(Position::start());
    }
    let hits = set.iter().filter(|p| !book.probe(p).is_empty()).count();
    let time = |f: &dyn Fn(&Position) -> usize| {
        let mut sink = 0usize;
        for p in &set {
            sink += f(p);
        }
        let t = Instant::now();
        for _ in 0..rounds {
            for p in &set {
                sink += f(black_box(p));
            }
        }
        black_box(sink);
        t.elapsed().as_secs_f64() * 1e9 / (rounds * set.len()) as f64
    };
    let probe_ns = time(&|p| book.probe(p).len());
    let movegen_ns = time(&|p| p.legal_move_list().len());
    ProbeBench {
        positions: set.len(),
        hits,
        rounds,
        probe_ns,
        movegen_ns,
    }
}
