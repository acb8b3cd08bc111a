//! Arbitrary bytes, read lossily as UTF-8, as a FEN: parsing must never panic, and a FEN that
//! parses must write back to text that parses to the same setup (and position).

#![no_main]

use chariot_rules::{Position, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(setup) = text.parse::<Setup>() {
        let fen = setup.fen();
        let again: Setup = fen
            .parse()
            .unwrap_or_else(|e| panic!("{fen:?} written from {text:?} does not parse: {e}"));
        assert_eq!(again, setup, "{text:?} -> {fen:?}");
        assert_eq!(again.fen(), fen);
    }
    if let Ok(pos) = Position::from_fen(&text) {
        let fen = pos.fen();
        let again = Position::from_fen(&fen)
            .unwrap_or_else(|e| panic!("{fen:?} written from {text:?} is refused: {e}"));
        assert_eq!(again, pos, "{text:?} -> {fen:?}");
        assert_eq!(again.key(), pos.key());
    }
});
