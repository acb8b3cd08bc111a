//! Files of format versions 1 and 2 are still read, and rewritten in version 3 (the writer's
//! only version) they hold the same header and entries in fewer bytes. The files of
//! `tests/data/egtb-scheme1` were written before version 3: `KCAKA` in version 1 (no rule
//! values), `KRKN` in version 2 (positions decided by the perpetual-check rule).

use std::path::Path;

use chariot_formats::egtb::TableFile;
use chariot_formats::egtb::file::{self, Block};

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/egtb-scheme1/{name}.egtb"))
}

/// Per side to move, the entries that hold a rule win or a rule loss (unused entries included:
/// they repeat a neighbour's code).
fn decided(t: &TableFile) -> [[u64; 2]; 2] {
    let h = t.header();
    let codes = t.all_codes().unwrap();
    let half = h.entries_per_half as usize;
    let mut out = [[0u64; 2]; 2];
    for (side, chunk) in codes.chunks(half).enumerate() {
        for &c in chunk {
            match h.decode(c).unwrap() {
                chariot_formats::egtb::Value::RuleWin(_) => out[side][0] += 1,
                chariot_formats::egtb::Value::RuleLoss(_) => out[side][1] += 1,
                _ => {}
            }
        }
    }
    out
}

#[test]
fn old_versions_read_and_rewrite_in_version_3_with_the_same_entries() {
    let dir = tempfile::tempdir().unwrap();
    for (name, version) in [("KCAKA", 1), ("KRKN", 2)] {
        let old = TableFile::open(&fixture(name)).unwrap();
        assert_eq!(old.header().version(), version, "{name}");
        let codes = old.all_codes().unwrap();
        // Rule values only in version 2, and there at least as many as the header counts.
        let rules = decided(&old);
        for (side, s) in old.header().stats.iter().enumerate() {
            assert!(rules[side][0] >= s.rule_wins, "{name}");
            assert!(rules[side][1] >= s.rule_losses, "{name}");
        }
        let counted: u64 = old
            .header()
            .stats
            .iter()
            .map(|s| s.rule_wins + s.rule_losses)
            .sum();
        assert_eq!(counted > 0, version == 2, "{name}");
        assert_eq!(rules != [[0; 2]; 2], version == 2, "{name}");

        let h = old.header();
        let blocks: Vec<Block> = (0..h.blocks)
            .map(|b| file::compress_block(&codes, b, h.block_entries, h.value_width, 12).unwrap())
            .collect();
        let constant = blocks
            .iter()
            .filter(|b| matches!(b, Block::Constant(_)))
            .count();
        let path = dir.path().join(format!("{name}.egtb"));
        file::write_table(&path, h, &blocks).unwrap();
        let new = TableFile::open(&path).unwrap();
        assert_eq!(new.header().version(), file::VERSION);
        let mut expected = h.clone();
        expected.version = file::VERSION;
        assert_eq!(*new.header(), expected, "{name}");
        assert_eq!(new.all_codes().unwrap(), codes, "{name}");
        for e in (0..codes.len() as u64).step_by(97) {
            assert_eq!(new.code(e).unwrap(), codes[e as usize], "{name} entry {e}");
        }
        // Smaller, by at least the bytes of its constant blocks' frames (9 or more each).
        assert!(
            new.file_len() + 9 * constant as u64 <= old.file_len(),
            "{name}: {} bytes against {}, {constant} constant blocks",
            new.file_len(),
            old.file_len()
        );
    }
}
