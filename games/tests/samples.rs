//! Every sample collection in tests/data is read, and what is read is checked against an
//! independent source: the same games in another notation or format, the rules (moves given as
//! squares must be legal), or counts taken from the files with other tools (noted where used).

use std::path::{Path, PathBuf};

use chariot_games::{
    FileFormat, FileSummary, GameRecord, GameResult, MoveToken, NotationGuess, TextEncoding,
    read_all,
};
use chariot_rules::{Move, Position, Setup, Square, Waivers};

/// A test file: `repo:NAME` is in the repository's data/games/samples (shared with the notation
/// tests), anything else in games/tests/data.
fn data(rel: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match rel.strip_prefix("repo:") {
        Some(name) => root.join("../data/games/samples").join(name),
        None => root.join("tests/data").join(rel),
    }
}

fn read(rel: &str) -> (FileSummary, Vec<GameRecord>) {
    let bytes = std::fs::read(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    read_all(&bytes)
}

/// Reads a file that must read cleanly: no problems at all.
fn read_clean(rel: &str) -> (FileSummary, Vec<GameRecord>) {
    let (summary, games) = read(rel);
    assert!(summary.problems.is_empty(), "{rel}: {:?}", summary.problems);
    assert_eq!(summary.games, games.len());
    (summary, games)
}

fn files(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(data(dir))
        .unwrap()
        .map(|e| format!("{dir}/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    v.sort();
    v
}

fn texts(g: &GameRecord) -> Vec<String> {
    g.moves.iter().map(ToString::to_string).collect()
}

/// Replays a game whose moves are squares or ICCS text; `Err(ply)` at the first illegal move.
fn replay(g: &GameRecord) -> Result<usize, usize> {
    let mut pos = match &g.fen {
        None => Position::start(),
        Some(fen) => {
            let setup: Setup = fen.parse().expect("FEN from the reader parses");
            Position::from_setup(&setup, Waivers::NONE)
                .or_else(|_| Position::from_setup(&setup, Waivers::ALL))
                .expect("start position is a position")
        }
    };
    for (i, m) in g.moves.iter().enumerate() {
        let mv = match m {
            MoveToken::Squares { from, to } => Move::new(*from, *to),
            MoveToken::Text(t) => {
                let (a, b) = t.split_at(2);
                Move::new(
                    a.parse::<Square>().map_err(|_| i + 1)?,
                    b.parse::<Square>().map_err(|_| i + 1)?,
                )
            }
        };
        if !pos.is_legal(mv) {
            return Err(i + 1);
        }
        pos.make_move(mv);
    }
    Ok(g.moves.len())
}

#[test]
fn master_collection_slice_big5_zstd() {
    let (s, games) = read_clean("pgn/ccpd-masters-slice.big5.pgn.zst");
    assert!(s.zstd);
    assert_eq!(
        (s.format, s.encoding),
        (Some(FileFormat::Pgn), Some(TextEncoding::Big5))
    );
    // Counted on the uncompressed slice with grep (Result tags) and a regex for 4-character
    // CJK move tokens: 51 games, 25 / 12 / 12 / 2, 4630 plies.
    assert_eq!(games.len(), 51);
    let count = |r| games.iter().filter(|g| g.result == Some(r)).count();
    assert_eq!(
        [
            count(GameResult::RedWins),
            count(GameResult::BlackWins),
            count(GameResult::Draw),
            count(GameResult::Unfinished)
        ],
        [25, 12, 12, 2]
    );
    assert_eq!(games.iter().map(|g| g.moves.len()).sum::<usize>(), 4630);
    assert!(
        games
            .iter()
            .flat_map(|g| &g.moves)
            .all(|m| m.notation() == NotationGuess::Chinese)
    );
    assert!(
        games
            .iter()
            .all(|g| g.fen.is_none() && !g.black_moves_first)
    );

    let g = &games[0];
    assert_eq!(g.event.as_deref(), Some("友誼賽 中炮對屏風馬"));
    assert_eq!(
        (g.red.as_deref(), g.black.as_deref()),
        (Some("柳大華"), Some("吳貴臨"))
    );
    assert_eq!(g.date.as_ref().unwrap().raw, "4/17/1996");
    assert_eq!(
        g.date.as_ref().unwrap().normalized.as_deref(),
        Some("1996-04-17")
    );
    assert_eq!(
        texts(g)[..4],
        ["炮二平五", "馬８進７", "馬二進三", "車９平８"]
    );
    assert_eq!(g.moves.len(), 51);

    // Quirks picked into the slice (see tests/data/README.md).
    let event = |prefix: &str| {
        games
            .iter()
            .find(|g| g.event.as_deref().is_some_and(|e| e.starts_with(prefix)))
    };
    let q = event("1999年\"中視股份杯\"").expect("unescaped quotes kept in the value");
    assert_eq!(
        q.event.as_deref(),
        Some("1999年\"中視股份杯\"象棋年度總決賽 (半決賽)廣東呂欽先勝黑龍江趙國榮")
    );
    assert_eq!((q.number, q.red.as_deref()), (21, Some("廣東呂欽")));
    assert!(event("\"百民杯“全國象棋精英賽").is_some());
    assert_eq!(games.iter().filter(|g| g.moves.is_empty()).count(), 1);
    let dates: Vec<(&str, Option<&str>)> = games
        .iter()
        .filter_map(|g| g.date.as_ref())
        .map(|d| (d.raw.as_str(), d.normalized.as_deref()))
        .collect();
    for want in [
        ("１９９２年５月８日", Some("1992-05-08")),
        ("97-11-19", Some("1997-11-19")),
        ("20/12/2001", Some("2001-12-20")),
        ("10/12/2001", Some("2001")),
        ("26.5.01", None),
        ("0000-00-00", None),
    ] {
        assert!(dates.contains(&want), "{want:?} not in {dates:?}");
    }
    // `[Date "&nbsp;"]` decodes to a blank: no date.
    let nbsp = games
        .iter()
        .find(|g| g.event.as_deref() == Some("全國個人賽") && g.red.as_deref() == Some("王曉華"));
    let nbsp = nbsp.expect("the &nbsp; game");
    assert_eq!((nbsp.tag("Date"), &nbsp.date), (Some(""), &None));
}

#[test]
fn gbk_championship_files() {
    let names = files("pgn/gbk-ccgc");
    assert_eq!(names.len(), 20);
    for name in names {
        let (s, games) = read_clean(&name);
        assert_eq!(s.encoding, Some(TextEncoding::Gb18030), "{name}");
        assert_eq!(games.len(), 1, "{name}");
        let g = &games[0];
        // The file name says how the game ended for Red: 先胜 / 先负 / 先和.
        let want = if name.contains("先胜") {
            GameResult::RedWins
        } else if name.contains("先负") {
            GameResult::BlackWins
        } else {
            assert!(name.contains("先和"), "{name}");
            GameResult::Draw
        };
        assert_eq!(g.result, Some(want), "{name}");
        assert_eq!(
            g.event.as_deref(),
            Some("1st Chinese Computer Games Championship, Beijing 2006")
        );
        assert!(
            g.date
                .as_ref()
                .unwrap()
                .normalized
                .as_deref()
                .unwrap()
                .starts_with("2006-08-0")
        );
        assert!(g.moves.len() > 20, "{name}");
        assert!(
            g.moves
                .iter()
                .all(|m| m.notation() == NotationGuess::Chinese),
            "{name}: {:?}",
            texts(g)
        );
        // The red player's name is in the file name.
        assert!(name.contains(g.red.as_deref().unwrap()), "{name}");
    }
}

#[test]
fn same_games_in_iccs_wxf_and_chinese() {
    let (_, iccs) = read_clean("repo:bulk_games_uci.pgn");
    let (_, wxf) = read_clean("repo:xqdb_international.pgn");
    let (s, chinese) = read_clean("repo:xqdb_traditional.pgn");
    assert_eq!(s.encoding, Some(TextEncoding::Utf8));
    assert_eq!((iccs.len(), wxf.len(), chinese.len()), (15, 15, 15));
    for ((a, b), c) in iccs.iter().zip(&wxf).zip(&chinese) {
        assert_eq!((&a.red, &a.event), (&b.red, &b.event));
        assert_eq!((&a.red, &a.event), (&c.red, &c.event));
        assert_eq!(a.moves.len(), b.moves.len(), "{:?}", a.event);
        assert_eq!(a.moves.len(), c.moves.len(), "{:?}", a.event);
        assert!(a.moves.iter().all(|m| m.notation() == NotationGuess::Iccs));
        assert!(
            b.moves.iter().all(|m| m.notation() == NotationGuess::Wxf),
            "{:?}",
            texts(b)
        );
        assert!(
            c.moves
                .iter()
                .all(|m| m.notation() == NotationGuess::Chinese)
        );
        assert_eq!(replay(a), Ok(a.moves.len()), "{:?}", a.event);
    }
    assert_eq!(texts(&wxf[0])[..2], ["Ｃ２＝５", "Ｈ８＋７"]);
    assert_eq!(texts(&chinese[0])[..2], ["炮二平五", "马８进７"]);
}

#[test]
fn dhtmlxq_pages_match_the_iccs_games() {
    let (_, iccs) = read_clean("repo:bulk_games_uci.pgn");
    let pages: Vec<String> = files("dhtmlxq")
        .into_iter()
        .filter(|f| f.ends_with(".html"))
        .collect();
    assert_eq!(pages.len(), 15);
    let mut matched = 0;
    for page in pages {
        let (s, games) = read_clean(&page);
        assert_eq!(s.format, Some(FileFormat::DhtmlXq));
        let g = &games[0];
        assert!(g.result.is_some(), "{page}");
        assert_eq!(replay(g), Ok(g.moves.len()), "{page}");
        // The ICCS file has the same game under the same players: same moves, square by square.
        let twin = iccs
            .iter()
            .find(|a| a.red == g.red && a.black == g.black && a.moves.len() == g.moves.len())
            .unwrap_or_else(|| panic!("{page}: no ICCS twin"));
        let diffs: Vec<(usize, String, String)> = texts(g)
            .into_iter()
            .zip(texts(twin))
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| (i + 1, a, b))
            .collect();
        // One real discrepancy between the two sources: in 45.html (LIU DianZhong - LIU DaHua)
        // ply 71 is e3e4 in the page but e5e6 in the ICCS file; both are legal there, and the
        // WXF and Chinese files agree with the page (see data/games/samples/README.md).
        let known: &[(usize, &str, &str)] = if page.ends_with("/45.html") {
            &[(71, "e3e4", "e5e6")]
        } else {
            &[]
        };
        let diffs: Vec<(usize, &str, &str)> = diffs
            .iter()
            .map(|(i, a, b)| (*i, a.as_str(), b.as_str()))
            .collect();
        assert_eq!(diffs, known, "{page}");
        matched += 1;
    }
    assert_eq!(matched, 15);
}

#[test]
fn dhtmlxq_ubb_with_variations_and_binit() {
    let (_, games) = read_clean("dhtmlxq/game.ubb");
    let g = &games[0];
    assert_eq!(
        texts(g),
        [
            "h2e2", "h7e7", "h0g2", "h9g7", "c3c4", "g6g5", "b2b4", "i9h9", "g3g4"
        ]
    );
    assert_eq!(g.fen, None, "the binit is the start position");
    assert_eq!(g.result, None, "未知 is no result");
    assert_eq!(g.event.as_deref(), Some("无标题"));
    assert_eq!(replay(g), Ok(9));
}

#[test]
fn winboard_san_games() {
    for name in files("pgn/winboard-san") {
        let (_, games) = read_clean(&name);
        let g = &games[0];
        let want = if name.contains("(1-0)") {
            GameResult::RedWins
        } else {
            GameResult::Draw
        };
        assert_eq!(g.result, Some(want), "{name}");
        assert!(g.moves.len() > 50);
        assert_eq!(texts(g)[0], "Che2", "{name}");
        assert!(g.moves.iter().all(|m| !m.to_string().contains(['{', '}'])));
        // Every SAN move resolves to a legal move (they were rejected as unreadable before).
        let mut pos = Position::start();
        for t in texts(g) {
            let m = chariot_rules::notation::parse_move(&pos, &t)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            pos.make_move(m);
        }
    }
}

#[test]
fn xqf_versions_agree_with_each_other_and_the_rules() {
    // test1.xqf is version 1.0 (plain), test.xqf version 1.8 (obfuscated): the same game.
    let (_, plain) = read_clean("xqf/test1.xqf");
    let (s, obf) = read_clean("xqf/test.xqf");
    assert_eq!(s.format, Some(FileFormat::Xqf));
    assert_eq!(texts(&plain[0]), texts(&obf[0]));
    assert_eq!(obf[0].moves.len(), 110);
    assert_eq!(
        texts(&obf[0])[..6],
        ["c3c4", "h9g7", "g3g4", "b7c7", "c0e2", "b9a7"]
    );
    assert_eq!(obf[0].result, Some(GameResult::BlackWins));
    assert_eq!(obf[0].red.as_deref(), Some("柳大华"));
    assert_eq!(obf[0].event.as_deref(), Some("\"中立杯\"象棋电视快棋赛"));
    assert_eq!(
        obf[0].date.as_ref().unwrap().normalized.as_deref(),
        Some("1997-11-16")
    );

    // Every main line (except the deliberately broken ones) is legal from its start position.
    for name in files("xqf")
        .into_iter()
        .filter(|f| !f.ends_with(".PGN") && !f.contains("BadMove"))
    {
        let (_, games) = read_clean(&name);
        assert_eq!(replay(&games[0]), Ok(games[0].moves.len()), "{name}");
    }
}

#[test]
fn xqf_set_up_positions_and_variations() {
    // Version 1.6: an endgame position; FEN and first move from cchess's ucci_test1_move.txt.
    let (_, g) = read_clean("xqf/ucci_test1.xqf");
    assert_eq!(
        g[0].fen.as_deref(),
        Some("2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1")
    );
    assert_eq!(texts(&g[0])[..2], ["e2e6", "e8f7"]);
    assert_eq!(g[0].result, Some(GameResult::RedWins));

    // The ElephantEye sample: the XQF and its PGN conversion agree on start and length.
    let (_, x) = read_clean("xqf/SAMPLE.XQF");
    let (_, p) = read_clean("xqf/SAMPLE.PGN");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1";
    assert_eq!(
        (x[0].fen.as_deref(), p[0].fen.as_deref()),
        (Some(fen), Some(fen))
    );
    assert_eq!((x[0].moves.len(), p[0].moves.len()), (75, 75));
    assert_eq!(
        texts(&x[0])[..6],
        ["b2e2", "h7e7", "e2e7", "g9e7", "h2e2", "h9g7"]
    );
    assert_eq!(
        texts(&p[0])[..6],
        [
            "炮八平五",
            "炮８平５",
            "炮五进五",
            "象７进５",
            "炮二平五",
            "马８进７"
        ]
    );
    assert_eq!(x[0].result, p[0].result);

    // Main lines of files with variations, as cchess's tests list them (炮二平五 ... = ICCS here).
    let (_, g) = read_clean("xqf/game_varations.xqf");
    assert_eq!(
        texts(&g[0]),
        [
            "h2e2", "h7e7", "h0g2", "h9g7", "i0h0", "i9i8", "b0c2", "b9c7"
        ]
    );
    let (_, g) = read_clean("xqf/test_5_variations.xqf");
    assert_eq!(
        texts(&g[0]),
        ["h2e2", "h7e7", "h0g2", "h9g7", "g3g4", "i9h9"]
    );

    for empty in ["xqf/EmptyTest.xqf", "xqf/NoMove.xqf"] {
        let (_, g) = read_clean(empty);
        assert!(g[0].moves.is_empty(), "{empty}");
    }
}

#[test]
fn xqf_bad_moves_are_read_not_judged() {
    // The reader gives the squares as stored; the importer will reject the illegal move.
    for (name, bad_ply) in [
        ("xqf/BadMoveTest2.xqf", None),
        ("xqf/BadMoveTest3.xqf", Some(10)),
    ] {
        let (_, g) = read_clean(name);
        match bad_ply {
            Some(ply) => assert_eq!(replay(&g[0]), Err(ply), "{name}"),
            None => assert!(!g[0].moves.is_empty(), "{name}"),
        }
    }
}
