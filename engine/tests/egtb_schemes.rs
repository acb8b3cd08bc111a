//! Tables written in key scheme 1 (before the compact index of key scheme 2) are still read:
//! two scheme-1 files kept in `tests/data/egtb-scheme1` (`KCAKA`, and `KRKN` with positions
//! decided by the perpetual-check rule) give the same value as the shipped scheme-2 tables for
//! every legal position.

use std::path::Path;

use chariot::egtb::Tablebases;
use chariot::egtb::index::Indexer;
use chariot::rules::{Color, Position, Waivers};

fn dir(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn scheme_1_files_read_as_the_scheme_2_tables() {
    for name in ["KCAKA", "KRKN"] {
        let old = dir(&format!("tests/data/egtb-scheme1/{name}.egtb"));
        let new = dir(&format!("../data/egtb/{name}.egtb"));
        let old_tb = Tablebases::open(&[old.as_path()]).unwrap();
        let new_tb = Tablebases::open(&[new.as_path()]).unwrap();
        let ix = Indexer::new(name.parse().unwrap()).unwrap();
        assert_eq!(ix.scheme(), 2);
        let old_ix = Indexer::with_scheme(name.parse().unwrap(), 1).unwrap();
        assert!(
            old_ix.size() > ix.size(),
            "{name}: the compact index is smaller"
        );
        let mut compared = 0;
        for i in 0..ix.size() {
            let p = ix.decode(i);
            if p.has_overlap() {
                continue;
            }
            for turn in Color::ALL {
                let Ok(pos) = Position::from_setup(&ix.setup(&p, turn), Waivers::NONE) else {
                    continue;
                };
                let a = old_tb.probe(&pos).unwrap();
                let b = new_tb.probe(&pos).unwrap();
                assert!(b.is_some(), "{name}: {}", pos.fen());
                assert_eq!(a, b, "{name}: {}", pos.fen());
                compared += 1;
            }
        }
        assert!(compared > 100_000, "{name}: {compared} positions");
    }
}
