//! Tables written in earlier key schemes are still read: two files of key scheme 1 (the first
//! index) and two of key scheme 2 (the pair digit with free ranks), kept in
//! `tests/data/egtb-scheme1` and `tests/data/egtb-scheme2` (`KCAKA`, and `KRKN` with positions
//! decided by the perpetual-check rule), give the same value as the shipped key-scheme-3 tables
//! for every legal position.

use std::path::Path;

use chariot_formats::egtb::Tablebases;
use chariot_formats::egtb::index::Indexer;
use chariot_rules::{Color, Position, Waivers};

fn dir(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn scheme_1_files_read_as_the_scheme_3_tables() {
    read_as_the_shipped_tables(1);
}

#[test]
fn scheme_2_files_read_as_the_scheme_3_tables() {
    read_as_the_shipped_tables(2);
}

fn read_as_the_shipped_tables(scheme: u8) {
    for name in ["KCAKA", "KRKN"] {
        let old = dir(&format!("tests/data/egtb-scheme{scheme}/{name}.egtb"));
        let new = dir(&format!("../data/egtb/{name}.egtb"));
        let old_tb = Tablebases::open(&[old.as_path()]).unwrap();
        let new_tb = Tablebases::open(&[new.as_path()]).unwrap();
        let ix = Indexer::new(name.parse().unwrap()).unwrap();
        assert_eq!(ix.scheme(), 3);
        let old_ix = Indexer::with_scheme(name.parse().unwrap(), scheme).unwrap();
        assert_eq!(old_ix.scheme(), scheme);
        assert_eq!(
            chariot_formats::egtb::TableFile::open(&old)
                .unwrap()
                .header()
                .key_scheme,
            scheme,
            "{name}"
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
