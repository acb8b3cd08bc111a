//! Feeds arbitrary bytes to the tablebase reader: opening, reading every block and probing must
//! give values or typed errors, never a panic. Both format versions go through it (version 2
//! adds a longer header and the codes of rule values); a version 2 table such as
//! `data/egtb/KRKN.egtb` makes a good seed.
//!
//! Run with `cargo +nightly fuzz run egtb_reader` from `engine/`. The same property runs in
//! `cargo test` as a proptest (`egtb::file::tests::arbitrary_bytes_never_panic`).

#![no_main]

use chariot::egtb::TableFile;
use chariot::Color;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = TableFile::from_bytes(data.to_vec()) {
        let _ = t.all_codes();
        let n = t.header().entries_per_half;
        for i in [0, 1, n / 2, n.saturating_sub(1), n] {
            let _ = t.value(Color::Red, i);
            let _ = t.value(Color::Black, i);
        }
    }
});
