//! Arbitrary text as a move in any notation, against a few positions: parsing must never panic;
//! a move that is read must be legal, and writing it in each notation must read back as itself.

#![no_main]

use std::sync::OnceLock;

use chariot_rules::Position;
use chariot_rules::notation::{Notation, format_move, parse_move, parse_text};
use libfuzzer_sys::fuzz_target;

/// The start position, one with tandem soldiers on two files and two chariots and two cannons
/// sharing files, Black's stacked soldiers, and five soldiers on one file.
const FENS: [&str; 5] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/2R6/9/9/2R4C1/7C1/9/4K4 w - - 0 1",
    "4k4/9/9/9/9/2p6/2p6/2p6/9/3K5 b - - 0 1",
    "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
];

fn positions() -> &'static [Position] {
    static POSITIONS: OnceLock<Vec<Position>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FENS.iter()
            .map(|f| Position::from_fen(f).expect("fuzz position"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = parse_text(&text) {
        assert_eq!(e.text(), text);
    }
    for pos in positions() {
        match parse_move(pos, &text) {
            Ok(m) => {
                assert!(
                    pos.is_legal(m),
                    "{text:?} gave the illegal move {m} in {}",
                    pos.fen()
                );
                for notation in Notation::ALL {
                    let written =
                        format_move(pos, m, notation).expect("a legal move can be written");
                    assert_eq!(
                        parse_move(pos, &written),
                        Ok(m),
                        "{written:?} in {}",
                        pos.fen()
                    );
                }
            }
            Err(e) => assert_eq!(e.text(), text),
        }
    }
});
