//! End to end: every move token read from the text collections resolves, with the engine's
//! notation module, to a legal move in its position. This checks that the readers hand over the
//! move text intact (nothing cut, glued or dropped) and the start positions right.

use std::path::Path;

use chariot_games::{GameRecord, MoveToken, read_all};
use chariot_rules::notation::parse_move;
use chariot_rules::{Move, Position};

/// Replays a game; `Err` names the first move that does not resolve.
fn replay(g: &GameRecord) -> Result<(), String> {
    let mut pos = match &g.fen {
        None => Position::start(),
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("FEN {fen}: {e}"))?,
    };
    for (i, m) in g.moves.iter().enumerate() {
        let mv = match m {
            MoveToken::Text(text) => {
                parse_move(&pos, text).map_err(|e| format!("ply {}: {e}", i + 1))?
            }
            MoveToken::Squares { from, to } => {
                let mv = Move::new(*from, *to);
                if !pos.is_legal(mv) {
                    return Err(format!("ply {}: {mv} is not legal", i + 1));
                }
                mv
            }
        };
        pos.make_move(mv);
    }
    Ok(())
}

#[test]
fn text_collections_resolve_completely() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![
        root.join("tests/data/pgn/ccpd-masters-slice.big5.pgn.zst"),
        root.join("tests/data/xqf/SAMPLE.PGN"),
        root.join("../data/games/samples/xqdb_international.pgn"),
        root.join("../data/games/samples/xqdb_traditional.pgn"),
        root.join("../data/games/samples/bulk_games_uci.pgn"),
    ];
    let mut gbk: Vec<_> = std::fs::read_dir(root.join("tests/data/pgn/gbk-ccgc"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    gbk.sort();
    files.extend(gbk);
    let mut games = 0;
    for file in files {
        let (summary, read) = read_all(&std::fs::read(&file).unwrap());
        assert!(
            summary.problems.is_empty(),
            "{}: {:?}",
            file.display(),
            summary.problems
        );
        for g in &read {
            if let Err(e) = replay(g) {
                panic!("{} game {}: {e}", file.display(), g.number);
            }
        }
        games += read.len();
    }
    assert_eq!(games, 51 + 1 + 15 * 3 + 20);
}
