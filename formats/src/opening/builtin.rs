//! The ECCO file built into every Chariot binary: `data/openings.ecco`, derived from the master
//! games in `data/games/` by `book-builder ecco` (see `data/README.md`).

use std::sync::OnceLock;

use super::{EccoError, EccoTable};

/// The file's bytes, as compiled into the binary.
pub static BYTES: &[u8] = include_bytes!("../../../data/openings.ecco");

/// The name the built-in file goes by in messages.
pub const NAME: &str = "built-in ECCO file";

/// The built-in table, checked like any file.
///
/// # Errors
/// The file's [`EccoError`], should the compiled-in bytes ever be damaged.
pub fn load() -> Result<EccoTable, EccoError> {
    EccoTable::from_bytes(NAME, BYTES)
}

/// The built-in table, read once; `None` if its bytes are damaged (lines then have names but
/// no codes, rather than no program).
#[must_use]
pub fn table() -> Option<&'static EccoTable> {
    static TABLE: OnceLock<Option<EccoTable>> = OnceLock::new();
    TABLE.get_or_init(|| load().ok()).as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opening::Ecco;
    use chariot_rules::notation::parse_iccs;

    fn classify(moves: &str) -> Option<Ecco> {
        let moves: Vec<_> = moves
            .split_whitespace()
            .map(|m| parse_iccs(m).unwrap())
            .collect();
        table().unwrap().classify(&moves)
    }

    #[test]
    fn the_built_in_file_opens_and_classifies_the_main_lines() {
        let t = load().unwrap();
        assert!(t.entries().len() > 1000);
        assert_eq!(t.info().max_plies, 16);
        assert!(t.info().metadata.contains("CC BY 4.0"));
        // A line of each family, as the masters' games through it are coded.
        let code = |moves: &str| classify(moves).map(|c| c.to_string());
        for (moves, expected) in [
            ("g0e2 h7e7", "A28"),
            ("h2e2 b9c7 h0g2 h7f7 i0h0 h9g7 c3c4 g6g5 b0c2", "B31"),
            (
                "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b0c2 d9e8",
                "C45",
            ),
            (
                "b2e2 b9c7 b0c2 a9b9 a0b0 h9g7 g3g4 c6c5 b0b6 b7a7 b6c6 a7a8 h0g2 f9e8",
                "C45",
            ),
            ("h2e2 h7e7 h0g2 h9g7 i0h0 i9i8 b0c2 i8d8 g3g4 b9c7", "D29"),
            ("c3c4 b7c7 h2e2 c9e7 h0g2 c6c5 b0a2 c5c4 i0h0", "E36"),
        ] {
            assert_eq!(code(moves).as_deref(), Some(expected), "{moves}");
        }
        // Short lines through which the masters' games go on to many codes have none yet.
        assert_eq!(code("h2e2 h9g7 h0g2 b9c7"), None);
        // The game that ends at once has no code.
        assert_eq!(classify(""), None);
    }
}
