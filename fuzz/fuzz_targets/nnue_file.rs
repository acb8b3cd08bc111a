//! Arbitrary bytes as a network file: reading must never panic (nor allocate beyond the
//! header's sizes once they are checked against the length); a network that reads writes back
//! to the same bytes when it is version 2 or 3 (either architecture), and evaluates a position.

#![no_main]

use chariot_rules::Position;
use chariot_eval::nnue::file::{from_bytes, to_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(net) = from_bytes("fuzz.nnue", data) else {
        return;
    };
    let version = data.get(8..12);
    if version == Some(&2u32.to_le_bytes()[..]) || version == Some(&3u32.to_le_bytes()[..]) {
        assert_eq!(to_bytes(&net), data, "a version 2 or 3 file round-trips");
    }
    let _ = net.evaluate_position(&Position::start());
});
