//! Arbitrary bytes as an opening book: opening, verifying, listing and probing must never panic,
//! and every move a probe returns must be legal in the probed position.

#![no_main]

use chariot_rules::Position;
use chariot_formats::book::Book;
use chariot_rules::notation::parse_iccs;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(book) = Book::from_bytes("fuzz.xqb", data.to_vec()) else {
        return;
    };
    let _ = book.verify();
    let _ = book.entries().count();
    let mut pos = Position::start();
    for text in ["", "h2e2", "h9g7"] {
        if let Ok(m) = parse_iccs(text) {
            pos.make_move(m);
        }
        for m in book.probe(&pos) {
            assert!(pos.is_legal(m.mv), "probe returned illegal {}", m.mv);
        }
    }
});
