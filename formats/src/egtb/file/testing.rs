//! Small tables for the tests of the header, the reader and the writer: sample codes and the
//! bytes of the files written from them.

use super::{DEFAULT_BLOCK_ENTRIES, HalfStats, write_codes};
use crate::egtb::index::Indexer;
use crate::egtb::signature::Signature;
use crate::egtb::{Coding, Metric};

/// A small table (KRK) of one-byte codes, both halves.
pub(super) fn sample() -> (Signature, Vec<u16>) {
    let sig: Signature = "KRK".parse().unwrap();
    let n = Indexer::new(sig).unwrap().size() as usize;
    let codes = (0..2 * n).map(|i| (i % 7) as u16 * 2).collect();
    (sig, codes)
}

/// The bytes of a table file of `codes` without rule values.
pub(super) fn bytes_of(sig: Signature, codes: &[u16]) -> Vec<u8> {
    bytes_with(sig, codes, Coding::PLAIN)
}

/// The bytes of a table file of `codes` in `coding`, as [`write_codes`] writes it.
pub(super) fn bytes_with(sig: Signature, codes: &[u16], coding: Coding) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{sig}.egtb"));
    write_codes(&path, sig, codes, [HalfStats::default(); 2], 0, coding).unwrap();
    std::fs::read(&path).unwrap()
}

/// A version 2 table: rule codes above the mate codes.
pub(super) fn sample_v2() -> (Signature, Vec<u16>, Coding) {
    let (sig, mut codes) = sample();
    let coding = Coding::for_table(Metric::Dtm, 12, 5, 3).unwrap();
    for (i, c) in codes.iter_mut().enumerate() {
        if i % 11 == 3 {
            *c = coding.rule_base + (i % 18) as u16;
        }
    }
    (sig, codes, coding)
}

/// Codes with runs: blocks of one code (stored as the code alone) among mixed ones.
pub(super) fn runs() -> (Signature, Vec<u16>) {
    let sig: Signature = "KRKN".parse().unwrap();
    let n = Indexer::new(sig).unwrap().size() as usize;
    let mut codes: Vec<u16> = (0..2 * n).map(|i| (i % 7) as u16 * 2).collect();
    let be = DEFAULT_BLOCK_ENTRIES as usize;
    for (i, c) in codes.iter_mut().enumerate() {
        match (i / be) % 3 {
            0 => *c = 0,
            1 => *c = 9,
            _ => {}
        }
    }
    (sig, codes)
}
