//! Arbitrary input never panics the readers, and what they report stays consistent.

use chariot_games::{FileSummary, GameRecord, Severity, read_all};
use proptest::prelude::*;

fn check(data: &[u8]) -> (FileSummary, Vec<GameRecord>) {
    let (summary, games) = read_all(data);
    assert_eq!(summary.games, games.len());
    // Game numbers increase, and problems with a game number point at games in range.
    for pair in games.windows(2) {
        assert!(pair[0].number < pair[1].number);
    }
    for p in &summary.problems {
        assert!(!p.kind.to_string().is_empty());
        match (p.game, p.severity) {
            // Warnings belong to games that were read; errors to games that were not.
            (Some(n), Severity::Warning) => assert!(games.iter().any(|g| g.number == n), "{p:?}"),
            (Some(n), Severity::Error) => {
                assert!(n >= 1 && games.iter().all(|g| g.number != n), "{p:?}")
            }
            (None, _) => {}
        }
    }
    (summary, games)
}

/// Pieces of PGN and DhtmlXQ syntax, so that random strings reach deep into the readers.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "[",
        "]",
        "\"",
        "{",
        "}",
        "(",
        ")",
        ";",
        "\n",
        "\r\n",
        "\r",
        " ",
        "  ",
        "1.",
        "1...",
        "12.",
        "...",
        "１．",
        "$3",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        "h2e2",
        "炮二平五",
        "馬８進７",
        "Ｃ２＝５",
        "[Event \"",
        "[FEN \"",
        "[Result \"",
        "\"]",
        "&nbsp;",
        "&#x4e2d;",
        "&",
        "%",
        "!?",
        "[DhtmlXQ]",
        "[/DhtmlXQ]",
        "[DhtmlXQ_movelist]",
        "[/DhtmlXQ_movelist]",
        "[DhtmlXQ_binit]",
        "7747",
        "99",
        "0919293949596979891777062646668600102030405060708012720323436383",
        "\u{feff}",
        "\u{3000}",
        "\u{fffd}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        check(&data);
    }

    #[test]
    fn arbitrary_xqf(version in 0u8..=20, key in any::<[u8; 13]>(), body in prop::collection::vec(any::<u8>(), 0..1600)) {
        let mut data = b"XQ".to_vec();
        data.push(version);
        data.extend_from_slice(&key);
        data.extend_from_slice(&body);
        check(&data);
    }

    #[test]
    fn arbitrary_zstd(body in prop::collection::vec(any::<u8>(), 0..512)) {
        let mut data = vec![0x28, 0xb5, 0x2f, 0xfd];
        data.extend_from_slice(&body);
        check(&data);
    }

    #[test]
    fn syntax_soup(tokens in prop::collection::vec(token(), 0..80)) {
        check(tokens.concat().as_bytes());
    }

    #[test]
    fn mutated_real_files(which in 0usize..3, flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let files: [&[u8]; 3] = [
            include_bytes!("data/xqf/FiveGoatsTest.xqf"),
            include_bytes!("../../data/games/samples/xqdb_traditional.pgn"),
            include_bytes!("data/dhtmlxq/game.ubb"),
        ];
        let mut data = files[which].to_vec();
        for (at, byte) in flips {
            let i = at.index(data.len());
            data[i] = byte;
        }
        check(&data);
    }
}
