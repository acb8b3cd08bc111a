//! The opening namer on known lines: `data/vectors/opening-names.tsv`.

use chariot_formats::opening::{Family, name_line};
use chariot_rules::Position;
use chariot_rules::notation::parse_move;

#[test]
fn known_lines_have_their_names() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/vectors/opening-names.tsv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "line {}: four columns", n + 1);
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for text in cols[0].split_whitespace() {
            let m =
                parse_move(&pos, text).unwrap_or_else(|e| panic!("line {}: {text}: {e}", n + 1));
            pos.make_move(m);
            moves.push(m);
        }
        let name = name_line(&moves).unwrap_or_else(|| panic!("line {}: no name", n + 1));
        let family = Family::from_letter(cols[3].chars().next().unwrap()).unwrap();
        let got = (name.zh(), name.en(), name.family());
        if got != (cols[1].to_owned(), cols[2].to_owned(), family) {
            wrong.push(format!("line {}: {} gives {got:?}", n + 1, cols[0]));
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 40, "{checked} lines");
}

#[test]
fn no_move_no_name() {
    assert_eq!(name_line(&[]), None);
}
