//! The malformed-input corpus (tests/data/malformed, described in tests/data/README.md): each file
//! gives the expected, clearly worded problem, the good games around a bad one are still read,
//! and nothing panics.

use std::path::Path;

use chariot_games::{ProblemKind, Severity, read_all};

/// (file, games read, expected problems as (game, line, severity, message fragment)).
type Case = (
    &'static str,
    usize,
    &'static [(Option<usize>, Option<usize>, Severity, &'static str)],
);

const CASES: &[Case] = &[
    (
        "empty.pgn",
        0,
        &[(None, None, Severity::Error, "empty file")],
    ),
    (
        "truncated-tag.pgn",
        0,
        &[(Some(1), Some(1), Severity::Error, "tag not terminated")],
    ),
    (
        "truncated-tags-then-game.pgn",
        1,
        &[(Some(1), Some(1), Severity::Error, "tag not terminated")],
    ),
    (
        "unclosed-brace.pgn",
        1,
        &[(
            Some(1),
            Some(4),
            Severity::Error,
            "comment opened at line 3 is not closed",
        )],
    ),
    (
        "unbalanced-parentheses.pgn",
        1,
        &[
            (
                Some(1),
                Some(4),
                Severity::Error,
                "variation opened at line 3 is not closed",
            ),
            (
                Some(2),
                Some(8),
                Severity::Error,
                "')' without a matching '('",
            ),
        ],
    ),
    (
        "garbage.bin",
        0,
        &[(
            None,
            None,
            Severity::Error,
            "binary data, not a game file (NUL byte at offset",
        )],
    ),
    (
        "garbage-no-nul.txt",
        0,
        &[(
            None,
            None,
            Severity::Error,
            "binary data, not a game file (",
        )],
    ),
    (
        "header-only-short.xqf",
        0,
        &[(
            Some(1),
            None,
            Severity::Error,
            "600 bytes, shorter than its 1024-byte header",
        )],
    ),
    (
        "truncated.xqf",
        0,
        &[(
            Some(1),
            None,
            Severity::Error,
            "comment length 315 at byte 1028 does not fit",
        )],
    ),
    (
        "truncated-moves.xqf",
        0,
        &[(
            Some(1),
            None,
            Severity::Error,
            "XQF move data ends at byte 1050, inside record 6",
        )],
    ),
    (
        "unknown-version.xqf",
        0,
        &[(Some(1), None, Severity::Error, "unsupported XQF version 99")],
    ),
    (
        "wrong-frame.zst",
        0,
        &[(
            None,
            None,
            Severity::Error,
            "corrupt or truncated zstd data",
        )],
    ),
    (
        "truncated.zst",
        0,
        &[(
            None,
            None,
            Severity::Error,
            "corrupt or truncated zstd data",
        )],
    ),
    (
        "bad-movelist.ubb",
        0,
        &[(
            Some(1),
            Some(1),
            Severity::Error,
            "move list has 9 digits, not a multiple of 4",
        )],
    ),
    (
        "bad-binit.ubb",
        0,
        &[(
            Some(1),
            Some(1),
            Severity::Error,
            "binit \"09192939\" is not 64 digits",
        )],
    ),
];

#[test]
fn corpus_gives_clear_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/malformed");
    let mut listed: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        .collect();
    listed.sort();
    let mut expected: Vec<String> = CASES.iter().map(|c| c.0.to_owned()).collect();
    expected.sort();
    assert_eq!(listed, expected, "every corpus file has an expectation");

    for &(name, games, problems) in CASES {
        let data = std::fs::read(dir.join(name)).unwrap();
        let (summary, read) = read_all(&data);
        assert_eq!(read.len(), games, "{name}");
        let got: Vec<_> = summary
            .problems
            .iter()
            .map(|p| (p.game, p.line, p.severity, p.kind.to_string()))
            .collect();
        assert_eq!(got.len(), problems.len(), "{name}: {got:?}");
        for (g, w) in got.iter().zip(problems) {
            assert_eq!((g.0, g.1, g.2), (w.0, w.1, w.2), "{name}: {got:?}");
            assert!(
                g.3.contains(w.3),
                "{name}: {:?} does not contain {:?}",
                g.3,
                w.3
            );
        }
        // Whole-file failures leave no format guess behind.
        if summary.failed() {
            assert_eq!(summary.games, 0, "{name}");
        }
    }
}

#[test]
fn truncating_a_good_file_anywhere_never_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for rel in [
        "xqf/SAMPLE.XQF",
        "xqf/game_varations.xqf",
        "pgn/gbk-ccgc/23.相眼竞技(先和)天机(D2-F2).PGN",
        "dhtmlxq/game.ubb",
    ] {
        let data = std::fs::read(dir.join(rel)).unwrap();
        for cut in 0..data.len() {
            let (summary, games) = read_all(&data[..cut]);
            assert_eq!(summary.games, games.len());
            // A cut XQF file inside its move records is an error, never a shorter game.
            if rel.ends_with(".XQF") && cut >= 1024 && cut < data.len() {
                assert!(games.is_empty(), "{rel} cut at {cut} read as a game");
                assert!(
                    summary.problems.iter().any(|p| matches!(
                        p.kind,
                        ProblemKind::XqfTruncated { .. } | ProblemKind::XqfCommentLength { .. }
                    )),
                    "{rel} cut at {cut}: {:?}",
                    summary.problems
                );
            }
        }
    }
}

/// The test collection slice (12 master games, Big5), decompressed.
fn master_slice() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pgn/ccpd-masters-slice.big5.pgn.zst");
    zstd::decode_all(&std::fs::read(path).unwrap()[..]).unwrap()
}

#[test]
fn a_truncated_zstd_collection_keeps_the_games_before_the_cut() {
    let text = master_slice();
    let (_, all) = read_all(&text);
    // As a large collection is: many zstd blocks (here frames, one per quarter of the text).
    let quarter = text.len() / 4;
    let mut compressed = Vec::new();
    for part in text.chunks(quarter) {
        compressed.extend(zstd::encode_all(part, 3).unwrap());
    }
    let cut = &compressed[..compressed.len() * 2 / 3];
    let (summary, games) = read_all(cut);
    assert!(
        !games.is_empty() && games.len() < all.len(),
        "{} of {} games",
        games.len(),
        all.len()
    );
    assert_eq!(
        games[..],
        all[..games.len()],
        "the games kept are the first ones, whole"
    );
    let p = summary
        .problems
        .iter()
        .find(|p| matches!(p.kind, ProblemKind::ZstdTruncated { .. }))
        .expect("the damage is reported");
    assert_eq!(p.severity, Severity::Error);
    assert!(p.line.is_some(), "with the line where the lost games start");
    assert!(!summary.failed());
}

#[test]
fn random_bytes_inside_a_pgn_lose_only_the_game_they_hit() {
    let text = master_slice();
    let (_, all) = read_all(&text);
    // 300 bytes of noise, NUL bytes included, in the middle of the file.
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..300)
        .map(|_| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % 256) as u8
        })
        .chain([0u8])
        .collect();
    let at = text.len() / 2;
    let mut damaged = text[..at].to_vec();
    damaged.extend_from_slice(&noise);
    damaged.extend_from_slice(&text[at..]);
    let (summary, games) = read_all(&damaged);
    assert!(
        games.len() >= all.len() - 2 && games.len() < all.len(),
        "{} of {} games kept",
        games.len(),
        all.len()
    );
    let p = summary
        .problems
        .iter()
        .find(|p| matches!(p.kind, ProblemKind::DamagedRegion { .. }))
        .expect("the damage is reported");
    let ProblemKind::DamagedRegion { offset, .. } = p.kind else {
        unreachable!()
    };
    assert!(
        offset >= at.saturating_sub(300) && offset <= at + 300,
        "offset {offset} near {at}"
    );
    assert!(p.line.is_some());
    // Every game kept is one of the originals, unchanged (but for its line and number in the
    // file: the noise holds line breaks, and the game it hit is not counted).
    let unplaced = |g: &chariot_games::GameRecord| {
        let mut g = g.clone();
        g.line = None;
        g.number = 0;
        g
    };
    let originals: Vec<_> = all.iter().map(unplaced).collect();
    for g in &games {
        assert!(
            originals.contains(&unplaced(g)),
            "a game was spliced: {:?}",
            g.tags
        );
    }
}
