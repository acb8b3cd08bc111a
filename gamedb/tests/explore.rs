//! The position index: the games through a position, their next moves and filters, and the
//! schema-1 database that gets its index when opened for writing.

use chariot_gamedb::db::GameDb;
use chariot_gamedb::filter::Filter;
use chariot_gamedb::index::Order;
use chariot_games::checked::check;
use chariot_games::read::read_all;
use chariot_rules::{Color, Position};

/// Four games: two open with the central cannon, one with the elephant, one from a set-up
/// position.
const GAMES: &str = r#"[Event "A"]
[Date "2001.01.01"]
[Red "Lü Qin"]
[Black "Xu Yinchuan"]
[Result "1-0"]

1. h2e2 h9g7 2. h0g2 i9h9 1-0

[Event "B"]
[Date "2003.05.06"]
[Red "Xu Yinchuan"]
[Black "Lü Qin"]
[Result "1/2-1/2"]

1. h2e2 b9c7 2. h0g2 1/2-1/2

[Event "A"]
[Date "2002.03.04"]
[Red "Zhao Guorong"]
[Black "Lü Qin"]
[Result "0-1"]

1. c0e2 h9g7 0-1

[Event "C"]
[Red "Someone"]
[Black "Else"]
[FEN "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"]
[Result "1-0"]

1. e1d1 1-0
"#;

fn database(dir: &std::path::Path) -> GameDb {
    let mut db = GameDb::create_or_open(dir.join("g.sqlite")).unwrap();
    let (_, records) = read_all(GAMES.as_bytes());
    let games: Vec<_> = records.iter().map(|r| check(r).unwrap()).collect();
    let import = db
        .begin_import("test.pgn", GAMES.len() as u64, "test")
        .unwrap();
    db.insert_batch(import, games.len(), &games, &[]).unwrap();
    db.finish_import(import).unwrap();
    db
}

fn played(moves: &[&str]) -> Position {
    let mut pos = Position::start();
    for m in moves {
        let mv = chariot_rules::notation::parse_move(&pos, m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn the_games_through_a_position_and_what_they_played_next() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let every = Filter {
        setups: true,
        ..Filter::default()
    };
    let start = db
        .explore(&Position::start(), &every, Order::Newest, 0, 10)
        .unwrap();
    assert_eq!(start.total, 3);
    let moves: Vec<(String, u64)> = start
        .moves
        .iter()
        .map(|m| (m.mv.unwrap().to_string(), m.games))
        .collect();
    assert_eq!(moves, [("h2e2".to_owned(), 2), ("c0e2".to_owned(), 1)]);
    assert_eq!(
        (
            start.moves[0].red_wins,
            start.moves[0].draws,
            start.moves[0].black_wins
        ),
        (1, 1, 0)
    );
    // Newest first.
    let dates: Vec<_> = start
        .games
        .iter()
        .map(|g| g.date.clone().unwrap())
        .collect();
    assert_eq!(dates, ["2003-05-06", "2002-03-04", "2001-01-01"]);
    // Paged.
    let page = db
        .explore(&Position::start(), &every, Order::Newest, 2, 10)
        .unwrap();
    assert_eq!(page.games.len(), 1);
    assert_eq!(page.total, 3);
    // Two plies in: the position of game 1 after h2e2 h9g7; game 2 ended at 3 plies.
    let after = db
        .explore(&played(&["h2e2", "h9g7"]), &every, Order::Newest, 0, 10)
        .unwrap();
    assert_eq!(after.total, 1);
    assert_eq!(after.moves[0].mv.unwrap().to_string(), "h0g2");
    let end = db
        .explore(
            &played(&["h2e2", "b9c7", "h0g2"]),
            &every,
            Order::Newest,
            0,
            10,
        )
        .unwrap();
    assert_eq!((end.total, end.moves[0].mv), (1, None));
    // A player as Black only.
    let as_black = Filter {
        players: vec!["lü qin".into()],
        player_color: Some(Color::Black),
        ..Filter::default()
    };
    let black = db
        .explore(&Position::start(), &as_black, Order::Newest, 0, 10)
        .unwrap();
    assert_eq!(black.total, 2);
    assert!(
        black
            .games
            .iter()
            .all(|g| g.black.as_deref() == Some("Lü Qin"))
    );
    // The set-up game is found from its own start.
    let setup = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
    let found = db.explore(&setup, &every, Order::Newest, 0, 10).unwrap();
    assert_eq!(found.total, 1);
    assert_eq!(found.games[0].result, Some("1-0"));
}

#[test]
fn a_schema_1_database_gets_its_index_when_opened_for_writing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.sqlite");
    drop(database(dir.path()));
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("DROP TABLE positions; PRAGMA user_version = 1;")
            .unwrap();
    }
    let e = GameDb::open(&path)
        .unwrap()
        .explore(&Position::start(), &Filter::default(), Order::Newest, 0, 10)
        .unwrap_err();
    assert!(e.to_string().contains("no position index"), "{e}");
    let db = GameDb::create_or_open(&path).unwrap();
    let start = db
        .explore(&Position::start(), &Filter::default(), Order::Newest, 0, 10)
        .unwrap();
    assert_eq!(start.total, 3);
}

/// The index's numbers under many filters (which take different query plans: by player or
/// event the games come first, else the position's entries) are those of replaying the games
/// the same filter selects.
#[test]
fn every_filter_agrees_with_replaying_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let filters = [
        Filter::default(),
        Filter {
            players: vec!["lü qin".into()],
            ..Filter::default()
        },
        Filter {
            players: vec!["xu".into(), "zhao".into()],
            player_color: Some(Color::Red),
            ..Filter::default()
        },
        Filter {
            events: vec!["a".into()],
            ..Filter::default()
        },
        Filter {
            events: vec!["b".into()],
            players: vec!["lü qin".into()],
            player_color: Some(Color::Black),
            ..Filter::default()
        },
        Filter {
            results: vec!["1-0".parse().unwrap(), "0-1".parse().unwrap()],
            ..Filter::default()
        },
    ];
    let lines: [&[&str]; 3] = [&[], &["h2e2"], &["h2e2", "h9g7"]];
    for filter in &filters {
        let games = db.games(filter, 200).unwrap();
        for line in lines {
            let pos = played(line);
            let mut expected: Vec<(Option<String>, u64)> = Vec::new();
            for g in &games {
                let mut p = Position::start();
                for ply in 0..=g.moves.len() {
                    if p.key() == pos.key() {
                        let next = g.moves.get(ply).map(ToString::to_string);
                        match expected.iter_mut().find(|(m, _)| *m == next) {
                            Some((_, n)) => *n += 1,
                            None => expected.push((next, 1)),
                        }
                        break;
                    }
                    if let Some(&m) = g.moves.get(ply) {
                        p.make_move(m);
                    }
                }
            }
            let found = db.explore(&pos, filter, Order::Newest, 0, 50).unwrap();
            let mut got: Vec<(Option<String>, u64)> = found
                .moves
                .iter()
                .map(|m| (m.mv.map(|m| m.to_string()), m.games))
                .collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{filter:?} after {line:?}");
            assert_eq!(found.games.len() as u64, found.total, "{filter:?}");
        }
    }
}

#[test]
fn simplified_and_traditional_names_find_each_other() {
    const TRADITIONAL: &str = r#"[Event "第二屆全國象棋個人賽"]
[Date "2004.01.01"]
[Red "胡榮華"]
[Black "呂欽"]
[Result "1-0"]

1. b2e2 b9c7 1-0
"#;
    let dir = tempfile::tempdir().unwrap();
    let mut db = GameDb::create_or_open(dir.path().join("g.sqlite")).unwrap();
    let (_, records) = read_all(TRADITIONAL.as_bytes());
    let games: Vec<_> = records.iter().map(|r| check(r).unwrap()).collect();
    let import = db
        .begin_import("t.pgn", TRADITIONAL.len() as u64, "test")
        .unwrap();
    db.insert_batch(import, games.len(), &games, &[]).unwrap();
    db.finish_import(import).unwrap();
    // Names and events typed in simplified find those written in traditional, and the other
    // way round (the page's script is simplified, the master games' headers traditional).
    for (players, events, found) in [
        (vec!["胡荣华"], vec![], 1),
        (vec!["胡榮華"], vec![], 1),
        (vec!["吕钦"], vec![], 1),
        (vec![], vec!["全国象棋"], 1),
        (vec!["许银川"], vec![], 0),
    ] {
        let f = Filter {
            players: players.iter().map(|s| (*s).to_owned()).collect(),
            events: events.iter().map(|s| (*s).to_owned()).collect(),
            ..Filter::default()
        };
        let r = db
            .explore(&Position::start(), &f, Order::Newest, 0, 10)
            .unwrap();
        assert_eq!(r.total, found, "{players:?} {events:?}");
    }
}
