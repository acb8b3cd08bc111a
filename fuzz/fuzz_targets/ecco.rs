//! Arbitrary bytes as an ECCO file: reading and classifying must never panic, and a file that
//! reads writes back to the same bytes.

#![no_main]

use chariot_formats::opening::EccoTable;
use chariot_rules::notation::parse_iccs;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(table) = EccoTable::from_bytes("fuzz.ecco", data) else {
        return;
    };
    assert_eq!(table.to_bytes(), data, "a file that reads writes back the same");
    let moves: Vec<_> = ["h2e2", "h9g7", "h0g2", "i9h9"]
        .iter()
        .map(|m| parse_iccs(m).unwrap())
        .collect();
    let _ = table.classify(&moves);
});
