//! Arbitrary bytes as a tablebase file: opening, reading blocks and entries and decoding their
//! values must never panic (nor allocate beyond the format's bounds); a block that reads holds
//! the header's number of entries.

#![no_main]

use chariot_formats::egtb::TableFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(t) = TableFile::from_bytes(data.to_vec()) else {
        return;
    };
    let h = t.header().clone();
    let _ = t.compressed_len();
    for b in 0..h.blocks.min(4) {
        if let Ok(codes) = t.block_codes(b) {
            assert_eq!(codes.len(), h.entries_in_block(b), "block {b}");
            for &c in codes.iter().take(256) {
                let _ = h.decode(c);
            }
        }
    }
    let last = h.entries().saturating_sub(1);
    for e in [0, last / 2, last, h.entries()] {
        if let Ok(c) = t.code(e) {
            let _ = h.decode(c);
        }
    }
});
