//! Reading ElephantEye's own BOOK.DAT (LGPL-2.1 test data, see tests/data/eleeye/README.md).

use chariot_formats::book::eleeye;
use chariot_rules::Position;
use chariot_rules::notation::parse_iccs;

fn records() -> Vec<eleeye::Record> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/eleeye/BOOK.DAT");
    eleeye::read(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn the_start_position_has_elephanteyes_moves() {
    let records = records();
    assert_eq!(records.len(), 12_081);
    let moves = eleeye::probe(&records, &Position::start());
    assert_eq!(moves.len(), 16);
    let weight = |m: &str| {
        moves
            .iter()
            .find(|(mv, _)| *mv == parse_iccs(m).unwrap())
            .map(|x| x.1)
    };
    assert_eq!(weight("b2e2"), Some(1473));
    assert_eq!(weight("h2e2"), Some(1473));
    assert_eq!(weight("c3c4"), Some(546));
    assert_eq!(weight("g3g4"), Some(546));
}

#[test]
fn the_whole_book_converts_and_back() {
    let records = records();
    // Without bridging, the walk reaches the positions connected to the start through positions
    // the file knows: 3,685 of its 10,841 (ElephantEye's builder drops rare moves but keeps the
    // positions after them). `bridge` 1 reaches 8,001 but takes seconds; the CLI offers it.
    let (entries, positions) = eleeye::import(&records, 200, true, 0);
    assert!(positions > 3_500, "{positions} positions");
    assert!(entries.len() > 4_500, "{} entries", entries.len());
    let mut w = chariot_formats::book::BookWriter::new(chariot_formats::book::BuildInfo {
        mirror: true,
        ..Default::default()
    });
    for e in entries {
        w.push(e);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eleeye-full.xqb");
    w.write(&path).unwrap();
    let book = chariot_formats::book::Book::open(&path).unwrap();
    let back = eleeye::read(&eleeye::to_bytes(&eleeye::export(&book, 200))).unwrap();
    // The exported book answers the start position as the original does.
    let mut a = eleeye::probe(&records, &Position::start());
    let mut b = eleeye::probe(&back, &Position::start());
    a.sort();
    b.sort();
    assert_eq!(a, b);
}
