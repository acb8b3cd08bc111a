//! The writer stores each table in the order of its entries that compresses better (key scheme
//! 3 or 4, `egtb_gen::layout`): whichever it picks, every legal position reads back as the
//! generator computed it, and both orders occur.

use chariot_formats::egtb::{Indexer, Metric, Signature, TableFile, Tablebases};
use chariot_rules::Waivers;
use chariot_rules::{Color, Position};
use egtb_gen::dtm::generate;
use egtb_gen::pipeline::{build_all, generation_order, load_subtables, table_path_in};

#[test]
fn tables_read_back_as_generated_in_either_order() {
    let dir = tempfile::tempdir().unwrap();
    let wanted: Vec<Signature> = ["KRKA", "KNKA", "KPKB"]
        .iter()
        .map(|n| n.parse().unwrap())
        .collect();
    let order = generation_order(&wanted);
    build_all(&wanted, dir.path(), 3, 4096, &Metric::ALL).unwrap();
    let tb = Tablebases::open(&[dir.path()]).unwrap();
    let legal = Waivers {
        placement: true,
        counts: true,
        opposite_check: false,
    };
    let mut schemes = Vec::new();
    for &sig in &order {
        let file = TableFile::open(&table_path_in(dir.path(), sig, Metric::Dtm)).unwrap();
        let dtc = TableFile::open(&table_path_in(dir.path(), sig, Metric::Dtc)).unwrap();
        let scheme = file.header().key_scheme;
        assert_eq!(
            dtc.header().key_scheme,
            scheme,
            "{sig}: one order for both files"
        );
        schemes.push(scheme);
        // The generator's values, in the order it computed them (key scheme 3).
        let (g, _) = generate(sig, load_subtables(sig, dir.path(), true).unwrap(), &()).unwrap();
        let ix = Indexer::new(sig).unwrap();
        let size = ix.size();
        for turn in Color::ALL {
            for i in 0..size {
                let p = ix.decode(i);
                if p.has_overlap() {
                    continue;
                }
                let Ok(pos) = Position::from_setup(&ix.setup(&p, turn), legal) else {
                    continue;
                };
                let e = turn.index() as u64 * size + i;
                let want = g.coding.decode(g.codes[e as usize]).unwrap();
                assert_eq!(tb.probe(&pos).unwrap(), Some(want), "{sig} {}", pos.fen());
            }
        }
    }
    assert!(schemes.contains(&3) && schemes.contains(&4), "{schemes:?}");
}
