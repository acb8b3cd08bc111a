//! Move notation: examples from the standards, the round trip format -> parse over every legal
//! move of every test position, crowded positions with tandem pieces, a corpus of bad and
//! ambiguous texts, and random input.

use std::path::PathBuf;

use chariot_rules::Move;
use chariot_rules::notation::{
    ChineseStyle, Description, MoveText, MoveTextError, Notation, Tandem, detect, format_chinese,
    format_move, parse_chinese, parse_move, parse_move_as, parse_text, parse_wxf,
};
use chariot_rules::{Color, Kind, Piece, Position, Setup, Square, Waivers};
use proptest::prelude::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn iccs(text: &str) -> Move {
    let (from, to) = text.split_at(2);
    Move::new(
        from.parse::<Square>().unwrap(),
        to.parse::<Square>().unwrap(),
    )
}

/// Every text must read as `expected` in `pos`.
fn reads_as(pos: &Position, texts: &[&str], expected: &str) {
    for text in texts {
        match parse_move(pos, text) {
            Ok(m) => assert_eq!(m.to_string(), expected, "{text:?} in {}", pos.fen()),
            Err(e) => panic!("{text:?} in {}: {e}", pos.fen()),
        }
    }
}

#[test]
fn the_same_move_in_every_notation() {
    let mut start = Position::start();
    reads_as(
        &start,
        &[
            "h2e2",
            "H2E2",
            "h2-e2",
            "H2-E2",
            "ｈ２ｅ２",
            "C2.5",
            "C2=5",
            "c2.5",
            "C25",
            "Ｃ２＝５",
            "Ｃ２．５",
            "炮二平五",
            "炮2平5",
            "砲二平五",
            "包２平５",
            " 炮二平五 ",
        ],
        "h2e2",
    );
    reads_as(
        &start,
        &["H8+7", "马八进七", "馬八進七", "傌八進七", "h0g2"][..4],
        "b0c2",
    );
    reads_as(&start, &["R1+1", "车一进一", "車一進一", "俥1進1"], "i0i1");
    reads_as(&start, &["E3+5", "B3+5", "相三进五", "象三進五"], "g0e2");
    reads_as(&start, &["A4+5", "仕四进五", "士四進五"], "f0e1");
    reads_as(
        &start,
        &["K5+1", "帅五进一", "帥五進一", "將五進一"],
        "e0e1",
    );
    reads_as(&start, &["P7+1", "兵七进一", "卒七進一"], "c3c4");
    reads_as(&start, &["C8-1", "炮八退一"], "b2b1");
    start.make_move(iccs("h2e2"));
    reads_as(
        &start,
        &[
            "H8+7",
            "h8+7",
            "马8进7",
            "馬８進７",
            "马八进七",
            "Ｈ８＋７",
            "h9g7",
        ],
        "h9g7",
    );
    reads_as(&start, &["R1+1", "车１进１", "車1進1"], "a9a8");
    reads_as(&start, &["C2.5", "炮２平５", "砲２平５"], "b7e7");
    reads_as(&start, &["P3+1", "卒３进１"], "c6c5");
}

#[test]
fn start_position_output() {
    let mut p = Position::start();
    let cases = [
        ("h2e2", "C2.5", "炮二平五", "炮二平五"),
        ("b0c2", "H8+7", "马八进七", "傌八進七"),
        ("g0e2", "E3+5", "相三进五", "相三進五"),
        ("i0i1", "R1+1", "车一进一", "俥一進一"),
        ("e0e1", "K5+1", "帅五进一", "帥五進一"),
        ("b2b1", "C8-1", "炮八退一", "炮八退一"),
    ];
    for (m, wxf, simplified, traditional) in cases {
        let m = iccs(m);
        assert_eq!(format_move(&p, m, Notation::Iccs).unwrap(), m.to_string());
        assert_eq!(format_move(&p, m, Notation::Wxf).unwrap(), wxf);
        assert_eq!(format_move(&p, m, Notation::Chinese).unwrap(), simplified);
        assert_eq!(
            format_chinese(&p, m, ChineseStyle::Traditional).unwrap(),
            traditional
        );
    }
    p.make_move(iccs("h2e2"));
    let cases = [
        ("h9g7", "H8+7", "马８进７", "馬８進７"),
        ("b9c7", "H2+3", "马２进３", "馬２進３"),
        ("g9e7", "E7+5", "象７进５", "象７進５"),
        ("f9e8", "A6+5", "士６进５", "士６進５"),
        ("e9e8", "K5+1", "将５进１", "將５進１"),
        ("h7e7", "C8.5", "炮８平５", "砲８平５"),
        ("a6a5", "P1+1", "卒１进１", "卒１進１"),
    ];
    for (m, wxf, simplified, traditional) in cases {
        let m = iccs(m);
        assert_eq!(format_move(&p, m, Notation::Wxf).unwrap(), wxf);
        assert_eq!(format_move(&p, m, Notation::Chinese).unwrap(), simplified);
        assert_eq!(
            format_chinese(&p, m, ChineseStyle::Traditional).unwrap(),
            traditional
        );
    }
}

/// A move in ICCS, WXF and Chinese.
type Example = (&'static str, &'static str, &'static str);

/// The examples of the WXF's official notation page (tandem pieces and tandem soldiers), and
/// the Chinese forms for the same moves, both ways.
#[test]
fn tandem_examples() {
    // (FEN, ICCS, WXF, Chinese)
    let cases: &[(&str, &[Example])] = &[
        // Three soldiers on Red's file 3 (the g-file) traverse to file 4.
        (
            "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g7f7", "P+.4", "前兵平四"),
                ("g6f6", "P3.4", "中兵平四"),
                ("g5f5", "P-.4", "后兵平四"),
                ("g7g8", "P++1", "前兵进一"),
            ],
        ),
        // Five soldiers on file 3.
        (
            "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g9f9", "++.4", "一兵平四"),
                ("g8f8", "P+.4", "二兵平四"),
                ("g7f7", "P3.4", "三兵平四"),
                ("g6f6", "P-.4", "四兵平四"),
                ("g5f5", "--.4", "五兵平四"),
            ],
        ),
        // Four soldiers on file 3.
        (
            "3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g8f8", "++.4", "一兵平四"),
                ("g7f7", "P+.4", "二兵平四"),
                ("g6f6", "P-.4", "三兵平四"),
                ("g5f5", "--.4", "四兵平四"),
                ("g8g9", "+++1", "一兵进一"),
            ],
        ),
        // Three soldiers on file 3 and two on file 7.
        (
            "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
            &[
                ("g7f7", "3+.4", "前兵三平四"),
                ("g6f6", "33.4", "中兵三平四"),
                ("g5f5", "3-.4", "后兵三平四"),
                ("c6d6", "7+.6", "前兵七平六"),
                ("c5d5", "7-.6", "后兵七平六"),
                ("c6c7", "7++1", "前兵七进一"),
            ],
        ),
        // Black's three soldiers on its file 3 (the c-file), front = lower rank.
        (
            "4k4/9/9/9/9/2p6/2p6/2p6/9/3K5 b - - 0 1",
            &[
                ("c2d2", "P+.4", "前卒平４"),
                ("c3d3", "P3.4", "中卒平４"),
                ("c4d4", "P-.4", "后卒平４"),
                ("c2c1", "P++1", "前卒进１"),
            ],
        ),
        // Two chariots on Red's file 7 (車前平三 R+.3 on the WXF page) and two cannons on file 2.
        (
            "3k5/9/9/2R6/9/9/2R4C1/7C1/9/4K4 w - - 0 1",
            &[
                ("c6g6", "R+.3", "前车平三"),
                ("c3c1", "R--2", "后车退二"),
                ("h3h5", "C++2", "前炮进二"),
                ("h2h1", "C--1", "后炮退一"),
                ("h3i3", "C+.1", "前炮平一"),
            ],
        ),
        // Advisors and elephants two on a file keep their file: the direction tells them apart.
        (
            "3k5/9/9/9/9/2B6/9/5A3/9/2B1KA3 w - - 0 1",
            &[
                ("f2e1", "A4-5", "仕四退五"),
                ("f0e1", "A4+5", "仕四进五"),
                ("c0e2", "E7+5", "相七进五"),
                ("c4e2", "E7-5", "相七退五"),
            ],
        ),
    ];
    for (fen, moves) in cases {
        let p = pos(fen);
        for (m, wxf, chinese) in moves.iter() {
            let m = iccs(m);
            assert!(p.is_legal(m), "{fen} {m}");
            assert_eq!(
                format_move(&p, m, Notation::Wxf).unwrap(),
                *wxf,
                "{fen} {m}"
            );
            assert_eq!(
                format_move(&p, m, Notation::Chinese).unwrap(),
                *chinese,
                "{fen} {m}"
            );
            assert_eq!(parse_move(&p, wxf), Ok(m), "{fen} {wxf}");
            assert_eq!(parse_move(&p, chinese), Ok(m), "{fen} {chinese}");
        }
    }
}

#[test]
fn tandem_input_variants() {
    // Three soldiers on file 3 and two on file 7 (as above).
    let p = pos("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    reads_as(
        &p,
        &[
            "3+.4",
            "前兵三平四",
            "前三平四",
            "三前平四",
            "前兵3平4",
            "兵三前平四",
        ][..5],
        "g7f7",
    );
    reads_as(
        &p,
        &["33.4", "中兵三平四", "中三平四", "P3.4", "兵三平四"],
        "g6f6",
    );
    reads_as(
        &p,
        &["7-.6", "后兵七平六", "後兵七平六", "后七平六", "七后平六"],
        "c5d5",
    );
    // Only file 3 can take its front soldier to file 4: no file needed.
    reads_as(&p, &["前兵平四", "+P.4", "P+.4"], "g7f7");
    // The leading-sign placement of real files, full width.
    let p = pos("3k5/9/9/2R6/9/9/2R4C1/7C1/9/4K4 w - - 0 1");
    reads_as(
        &p,
        &[
            "+R.3",
            "R+.3",
            "＋Ｒ＝３",
            "Ｒ＋＝３",
            "前车平三",
            "车前平三",
            "車前平三",
            "前俥平三",
        ],
        "c6g6",
    );
    reads_as(
        &p,
        &[
            "-C-1",
            "C--1",
            "－Ｃ－１",
            "后炮退一",
            "後砲退一",
            "炮後退一",
        ],
        "h2h1",
    );
    // A plain file with two like pieces is read when only one of them can make the move.
    let p = pos("3k5/9/9/6P1P/6P1P/9/9/8R/9/4K3R w - - 0 1");
    reads_as(&p, &["兵一进一", "P1+1"], "i6i7");
    reads_as(&p, &["车一退一", "R1-1"], "i2i1");
    // Five soldiers: the numbered forms and the extremes by 前/后.
    let p = pos("3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1");
    reads_as(
        &p,
        &["一兵平四", "前兵平四", "++.4", "+P.4", "1兵平4"],
        "g9f9",
    );
    reads_as(&p, &["二兵平四", "P+.4"], "g8f8");
    reads_as(&p, &["三兵平四", "中兵平四", "P3.4"], "g7f7");
    reads_as(&p, &["五兵平四", "后兵平四", "--.4", "-P.4"], "g5f5");
}

#[test]
fn descriptions_are_read_without_a_position() {
    let d = |kind, file, tandem, action, target| Description {
        kind,
        file,
        tandem,
        action,
        target,
    };
    use chariot_rules::notation::Action::{Backward, Forward, Sideways};
    assert_eq!(
        parse_wxf("C2.5"),
        Ok(d(Kind::Cannon, Some(2), None, Sideways, 5))
    );
    assert_eq!(
        parse_wxf("+R.4"),
        Ok(d(Kind::Chariot, None, Some(Tandem::Front), Sideways, 4))
    );
    assert_eq!(
        parse_wxf("R+.4"),
        Ok(d(Kind::Chariot, None, Some(Tandem::WxfFront), Sideways, 4))
    );
    assert_eq!(
        parse_wxf("C-+1"),
        Ok(d(Kind::Cannon, None, Some(Tandem::WxfRear), Forward, 1))
    );
    assert_eq!(
        parse_wxf("--.4"),
        Ok(d(Kind::Soldier, None, Some(Tandem::Rear), Sideways, 4))
    );
    assert_eq!(
        parse_wxf("33.4"),
        Ok(d(Kind::Soldier, Some(3), Some(Tandem::Middle), Sideways, 4))
    );
    assert_eq!(
        parse_wxf("7-.6"),
        Ok(d(
            Kind::Soldier,
            Some(7),
            Some(Tandem::WxfRear),
            Sideways,
            6
        ))
    );
    assert_eq!(
        parse_chinese("马８进７"),
        Ok(d(Kind::Horse, Some(8), None, Forward, 7))
    );
    assert_eq!(
        parse_chinese("后炮退一"),
        Ok(d(Kind::Cannon, None, Some(Tandem::Rear), Backward, 1))
    );
    assert_eq!(
        parse_chinese("二兵平三"),
        Ok(d(Kind::Soldier, None, Some(Tandem::Nth(2)), Sideways, 3))
    );
    assert_eq!(
        parse_chinese("前兵五平四"),
        Ok(d(Kind::Soldier, Some(5), Some(Tandem::Front), Sideways, 4))
    );
    let (n, t) = parse_text("H2-E2").unwrap();
    assert_eq!((n, t), (Notation::Iccs, MoveText::Iccs(iccs("h2e2"))));
    assert_eq!(detect("炮二平五"), Notation::Chinese);
    assert_eq!(detect("Ｃ２＝５"), Notation::Wxf);
    assert_eq!(detect("h2e2"), Notation::Iccs);
    // The English rendering used when a description names no move.
    let e = d(Kind::Chariot, Some(3), Some(Tandem::Front), Forward, 1)
        .to_move(&Position::start())
        .unwrap_err();
    assert!(
        e.to_string().contains("front chariot on file 3 forward 1"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Round trips

/// Checks format -> parse for every legal move of `p` in every notation, and that tandem marks
/// appear exactly when several like pieces share the file. Returns the number of moves.
fn round_trip(p: &Position) -> usize {
    let moves = p.legal_move_list();
    for &m in moves.iter() {
        for notation in Notation::ALL {
            let text = format_move(p, m, notation)
                .unwrap_or_else(|e| panic!("{} {m} {notation}: {e}", p.fen()));
            assert_eq!(detect(&text), notation, "{} {m}: {text:?}", p.fen());
            assert_eq!(
                parse_move(p, &text),
                Ok(m),
                "{} {m}: {notation} {text:?}",
                p.fen()
            );
            assert_eq!(
                parse_move_as(p, &text, notation),
                Ok(m),
                "{} {m}: {text:?}",
                p.fen()
            );
            if notation != Notation::Iccs {
                check_tandem_usage(p, m, notation, &text);
            }
        }
        let text = format_chinese(p, m, ChineseStyle::Traditional).unwrap();
        assert_eq!(parse_move(p, &text), Ok(m), "{} {m}: {text:?}", p.fen());
    }
    moves.len()
}

/// Tandem marks are used exactly when two or more like pieces share the moving piece's file
/// (not for advisors and elephants), and the file is given exactly when there is no mark or
/// another file also holds several like pieces.
fn check_tandem_usage(p: &Position, m: Move, notation: Notation, text: &str) {
    let piece = p.piece_at(m.from()).unwrap();
    let on_file = |file: u8| {
        p.pieces(piece)
            .into_iter()
            .filter(|sq| sq.file() == file)
            .count()
    };
    let count = on_file(m.from().file());
    let other_files = (0..9)
        .filter(|&f| f != m.from().file() && on_file(f) >= 2)
        .count();
    let d = match notation {
        Notation::Wxf => parse_wxf(text),
        _ => parse_chinese(text),
    }
    .unwrap();
    let plain = count == 1 || matches!(piece.kind(), Kind::Advisor | Kind::Elephant);
    let wxf_middle = notation == Notation::Wxf && count % 2 == 1 && {
        let mut squares: Vec<Square> = p
            .pieces(piece)
            .into_iter()
            .filter(|sq| sq.file() == m.from().file())
            .collect();
        squares.sort_by_key(|sq| sq.rank());
        squares[count / 2] == m.from()
    };
    let at = format!("{} {m} {text:?}", p.fen());
    if plain || (wxf_middle && other_files == 0) {
        assert_eq!(d.tandem, None, "{at}: needs no tandem mark");
        assert!(d.file.is_some(), "{at}: needs its file");
    } else {
        assert!(d.tandem.is_some(), "{at}: needs a tandem mark");
        assert_eq!(
            d.file.is_some(),
            other_files > 0,
            "{at}: file given iff another file has tandem pieces"
        );
    }
}

fn vector_fens() -> Vec<String> {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "data", "vectors"]
        .iter()
        .collect();
    let mut fens = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "tsv") {
            let text = std::fs::read_to_string(&path).unwrap();
            fens.extend(
                text.lines()
                    .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                    .map(|l| l.split('\t').next().unwrap().to_owned()),
            );
        }
    }
    fens
}

#[test]
fn every_legal_move_of_every_test_position_round_trips() {
    let (mut positions, mut moves) = (0, 0);
    for fen in vector_fens() {
        // The vector files hold one published position that breaks the rules (see vectors.rs).
        let Ok(p) = Position::from_fen(&fen) else {
            continue;
        };
        moves += round_trip(&p);
        moves += round_trip(&p.mirror());
        positions += 1;
    }
    assert!(positions > 400, "only {positions} positions");
    assert!(moves > 10_000, "only {moves} moves");
}

/// Positions crowded with tandem pieces: soldiers stacked on one or two files (up to five),
/// chariots, horses and cannons sharing files, advisors and elephants two on a file.
fn crowded_positions(count: usize) -> Vec<Position> {
    let mut rng = chariot_rules::random::Rng::seeded(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::new();
    while out.len() < count {
        let mut setup = Setup::empty();
        let put = |setup: &mut Setup, piece: Piece, file: usize, rank: usize| {
            let sq = Square::new(file as u8, rank as u8);
            if setup.board[sq.index()].is_none() {
                setup.board[sq.index()] = Some(piece);
            }
        };
        for color in Color::ALL {
            let own = |r: usize| if color.is_red() { r } else { 9 - r };
            put(
                &mut setup,
                Piece::new(color, Kind::General),
                3 + rng.below(3),
                own(rng.below(3)),
            );
            // Soldiers beyond the river, on one or two files.
            let files = [rng.below(9), rng.below(9)];
            for _ in 0..5 {
                let file = files[rng.below(2)];
                put(
                    &mut setup,
                    Piece::new(color, Kind::Soldier),
                    file,
                    own(5 + rng.below(5)),
                );
            }
            // Two each of chariots, horses and cannons, often on one file.
            for kind in [Kind::Chariot, Kind::Horse, Kind::Cannon] {
                let file = rng.below(9);
                for _ in 0..2 {
                    let f = if rng.below(3) == 0 {
                        rng.below(9)
                    } else {
                        file
                    };
                    put(&mut setup, Piece::new(color, kind), f, rng.below(10));
                }
            }
            // Advisors on d0/d2 or f0/f2 and elephants on c0/c4 or g0/g4 now and then.
            if rng.below(2) == 0 {
                let f = if rng.below(2) == 0 { 3 } else { 5 };
                put(&mut setup, Piece::new(color, Kind::Advisor), f, own(0));
                put(&mut setup, Piece::new(color, Kind::Advisor), f, own(2));
            }
            if rng.below(2) == 0 {
                let f = if rng.below(2) == 0 { 2 } else { 6 };
                put(&mut setup, Piece::new(color, Kind::Elephant), f, own(0));
                put(&mut setup, Piece::new(color, Kind::Elephant), f, own(4));
            }
        }
        setup.turn = if rng.below(2) == 0 {
            Color::Red
        } else {
            Color::Black
        };
        if let Ok(p) = Position::from_setup(&setup, Waivers::NONE) {
            out.push(p);
        }
    }
    out
}

#[test]
fn crowded_positions_round_trip() {
    let positions = crowded_positions(500);
    let mut moves = 0;
    let mut tandem = [0usize; 3];
    for p in &positions {
        moves += round_trip(p);
        for &m in p.legal_move_list().iter() {
            let d = parse_chinese(&format_move(p, m, Notation::Chinese).unwrap()).unwrap();
            match (d.tandem, d.file) {
                (Some(Tandem::Nth(_)), _) => tandem[0] += 1,
                (Some(_), Some(_)) => tandem[1] += 1,
                (Some(_), None) => tandem[2] += 1,
                _ => {}
            }
        }
    }
    assert!(moves > 10_000, "only {moves} moves");
    // The generator must reach the rare forms: numbered soldiers, two tandem files, 前/后.
    assert!(
        tandem.iter().all(|&n| n > 20),
        "tandem forms written (numbered, with file, plain): {tandem:?}"
    );
}

#[test]
fn waived_positions_without_words_say_so() {
    // Six chariots on one file (counts waived): WXF marks only four of six; Chinese numbers all.
    let setup: Setup = "3k5/4R4/4R4/4R4/4R4/4R4/4R4/9/9/3K5 w - - 0 1"
        .parse()
        .unwrap();
    let p = Position::from_setup(&setup, Waivers::ALL).unwrap();
    let third = iccs("e6d6");
    assert_eq!(
        format_move(&p, third, Notation::Chinese).unwrap(),
        "三车平六"
    );
    assert!(matches!(
        format_move(&p, third, Notation::Wxf),
        Err(MoveTextError::Inexpressible { .. })
    ));
    assert_eq!(
        format_move(&p, iccs("e8d8"), Notation::Wxf).unwrap(),
        "+R.6"
    );
    assert_eq!(
        format_move(&p, iccs("e7d7"), Notation::Wxf).unwrap(),
        "R+.6"
    );
    round_trip_where_expressible(&p);
}

fn round_trip_where_expressible(p: &Position) {
    for &m in p.legal_move_list().iter() {
        for notation in Notation::ALL {
            if let Ok(text) = format_move(p, m, notation) {
                assert_eq!(parse_move(p, &text), Ok(m), "{text}");
            }
        }
    }
}

#[test]
fn formatting_an_illegal_move_is_an_error() {
    let p = Position::start();
    for m in ["h2h8", "e3e5", "a9a8", "e5e6"] {
        for notation in Notation::ALL {
            let e = format_move(&p, iccs(m), notation).unwrap_err();
            assert!(
                matches!(e, MoveTextError::Illegal { .. }),
                "{m} {notation}: {e}"
            );
            assert_eq!(e.text(), m);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad text

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Malformed,
    NoPiece,
    Illegal,
    Ambiguous,
}

fn kind_of(e: &MoveTextError) -> Want {
    match e {
        MoveTextError::Malformed { .. } => Want::Malformed,
        MoveTextError::NoSuchPiece { .. } => Want::NoPiece,
        MoveTextError::Illegal { .. } => Want::Illegal,
        MoveTextError::Ambiguous { .. } => Want::Ambiguous,
        MoveTextError::Inexpressible { .. } => panic!("parsing never gives Inexpressible: {e}"),
    }
}

#[test]
fn bad_text_gives_a_clear_error() {
    use Want::*;
    let start = Position::start();
    // Two chariots on Red's file 1 that can both go forward one; soldiers two on each of two files.
    let doubled = pos("3k5/9/9/6P1P/6P1P/9/9/8R/9/4K3R w - - 0 1");
    let cases: &[(&Position, &str, Want, &str)] = &[
        (&start, "", Malformed, "empty"),
        (&start, "   ", Malformed, "empty"),
        (&start, "h2", Malformed, "four characters"),
        (&start, "h2e", Malformed, "not a number 1-9"),
        (&start, "h2e2e2", Malformed, "four characters"),
        (&start, "j2e2", Malformed, "does not name a piece"),
        (&start, "h2h2", Malformed, "starts and ends on h2"),
        (&start, "h2e10", Malformed, "four characters"),
        (&start, "C2.0", Malformed, "not a number 1-9"),
        (&start, "C0.5", Malformed, "does not name a piece"),
        (&start, "X2.5", Malformed, "does not name a piece"),
        (&start, "C2*5", Malformed, "not a direction"),
        (&start, "C2.55", Malformed, "four characters"),
        (&start, "+-.4", Malformed, "does not name a piece"),
        (&start, "34.4", Malformed, "does not name a piece"),
        (&start, "R+", Malformed, "four characters"),
        (&start, "炮", Malformed, "expected a piece"),
        (&start, "炮二", Malformed, "expected a piece"),
        (&start, "炮二平", Malformed, "without a number"),
        (&start, "炮二平十", Malformed, "'十'"),
        (&start, "炮十平五", Malformed, "'十'"),
        (&start, "炮二走五", Malformed, "'走'"),
        (&start, "二平五", Malformed, "does not name a piece"),
        (&start, "炮炮平五", Malformed, "does not name a piece"),
        (&start, "前后炮平五", Malformed, "does not name a piece"),
        (&start, "炮二平五炮", Malformed, "expected a piece"),
        (&start, "炮二平五!", Malformed, "'!'"),
        (&start, "🙂", Malformed, "four characters"),
        (&start, "\0\0\0\0", Malformed, "does not name a piece"),
        (&start, "C5.4", NoPiece, "red has no cannon on file 5"),
        (&start, "炮五平四", NoPiece, "red has no cannon on file 5"),
        (
            &start,
            "前炮平五",
            NoPiece,
            "no file holds two or more red cannons",
        ),
        (
            &start,
            "++.4",
            NoPiece,
            "no file holds two or more red soldiers",
        ),
        (&start, "中兵进一", NoPiece, "three or five"),
        (&start, "3+.4", NoPiece, "file 3 holds 1 red soldier"),
        (&start, "h2h8", Illegal, "cannot move to h8"),
        (&start, "h9g7", Illegal, "black horse, but red is to move"),
        (&start, "e5e6", Illegal, "no piece on e5"),
        (&start, "i0h0", Illegal, "cannot take its own piece on h0"),
        (&start, "R1.2", Illegal, "cannot take its own piece"),
        (&start, "H2.3", Illegal, "never moves sideways"),
        (&start, "马二平三", Illegal, "never moves sideways"),
        (&start, "H2+5", Illegal, "cannot reach file 5"),
        (&start, "C2+8", Illegal, "off the board"),
        (&start, "C2.2", Illegal, "already stands on file 2"),
        (&start, "P7-1", Illegal, "cannot move to c2"),
        (&start, "K5.4", Illegal, "cannot take its own piece"),
        (
            &pos("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"),
            "A5+4",
            Illegal,
            "general in check or facing",
        ),
        (&doubled, "R1+1", Ambiguous, "fits i2i3, i0i1"),
        (&doubled, "车一进一", Ambiguous, "fits i2i3, i0i1"),
        (&doubled, "前兵平二", Ambiguous, "g6h6, i6h6"),
        (&doubled, "兵三平二", Ambiguous, "g6h6, g5h5"),
        (&doubled, "P3.2", Ambiguous, "g6h6, g5h5"),
    ];
    for (p, text, want, detail) in cases {
        let e = match parse_move(p, text) {
            Ok(m) => panic!("{text:?} read as {m}"),
            Err(e) => e,
        };
        let message = e.to_string();
        assert_eq!(kind_of(&e), *want, "{text:?}: {message}");
        assert_eq!(e.text(), *text);
        assert!(
            message.contains(&format!("{text:?}")),
            "{message} does not name the text"
        );
        assert!(
            message.contains(detail),
            "{text:?}: {message:?} does not say {detail:?}"
        );
    }
}

#[test]
fn each_parser_rejects_the_other_notations() {
    let p = Position::start();
    for (text, notation) in [
        ("h2e2", Notation::Wxf),
        ("h2e2", Notation::Chinese),
        ("C2.5", Notation::Iccs),
        ("C2.5", Notation::Chinese),
        ("炮二平五", Notation::Iccs),
        ("炮二平五", Notation::Wxf),
    ] {
        let e = parse_move_as(&p, text, notation).unwrap_err();
        assert!(
            matches!(e, MoveTextError::Malformed { .. }),
            "{text} as {notation}: {e}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Random input

fn fuzz_positions() -> Vec<Position> {
    vec![
        Position::start(),
        pos("3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1"),
        pos("4k4/9/9/9/9/2p6/2p6/2p6/9/3K5 b - - 0 1"),
        pos("3k5/9/9/2R6/9/9/2R4C1/7C1/9/4K4 w - - 0 1"),
    ]
}

/// Whatever the text, parsing gives a legal move or an error naming the text; never a panic.
fn check_any_text(positions: &[Position], text: &str) -> Result<(), TestCaseError> {
    prop_assert!(parse_text(text).is_ok() || parse_text(text).unwrap_err().text() == text);
    for p in positions {
        match parse_move(p, text) {
            Ok(m) => {
                prop_assert!(p.is_legal(m), "{:?} gave illegal {}", text, m);
                // What was read writes back to something that reads the same.
                for notation in Notation::ALL {
                    let again = format_move(p, m, notation).unwrap();
                    prop_assert_eq!(parse_move(p, &again), Ok(m));
                }
            }
            Err(e) => prop_assert_eq!(e.text(), text),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_strings_never_panic(text in "\\PC{0,10}") {
        check_any_text(&fuzz_positions(), &text)?;
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..16)) {
        check_any_text(&fuzz_positions(), &String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn notation_alphabet_never_panics(
        text in "[炮砲包车車俥马馬傌相象仕士帅帥将將兵卒前后後中一二三四五六七八九１２３４５进進退平0-9+\\-.=＋－＝KAEHRCPBNa-i ]{0,6}"
    ) {
        check_any_text(&fuzz_positions(), &text)?;
    }
}
