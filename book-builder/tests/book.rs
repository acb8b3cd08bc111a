//! The game database and the book: import, filters, compile, probe, tree, stats, BOOK.DAT
//! conversion and the shipped default book. Counts are checked against
//! `tests/data/book/tiny.pgn`, whose games are listed in that folder's README.

mod common;

use common::{run, stdout};
use std::path::{Path, PathBuf};
use std::process::Output;

use book_builder::compile::{CompileOptions, compile};
use book_builder::import::{DEFAULT_BATCH, import_file};
use chariot_formats::book::{Book, eleeye};
use chariot_gamedb::db::GameDb;
use chariot_gamedb::filter::{Filter, ResultFilter};
use chariot_games::checked::RejectKind;
use chariot_games::record::GameResult;
use chariot_rules::Position;
use chariot_rules::notation::parse_iccs;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tiny() -> PathBuf {
    manifest().join("tests/data/book/tiny.pgn")
}

/// A fresh directory for one test, removed when it is dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("chariot-bookdb-{name}-"))
        .tempdir()
        .unwrap()
}

/// The output of a run that finished with some input left out (exit 3: rejected games).
fn partial(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(3),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A database holding tiny.pgn.
fn tiny_db(dir: &Path) -> GameDb {
    let mut db = GameDb::create_or_open(dir.join("games.db")).unwrap();
    import_file(&mut db, &tiny(), "tiny.pgn", DEFAULT_BATCH, &mut |_| {}).unwrap();
    db
}

fn mv(text: &str) -> chariot_rules::Move {
    parse_iccs(text).unwrap()
}

fn after(moves: &[&str]) -> Position {
    let mut pos = Position::start();
    for m in moves {
        pos.make_move(mv(m));
    }
    pos
}

/// (games, red wins, draws, black wins, weight, mean Elo) of `m` in `pos`.
fn counts(book: &Book, pos: &Position, m: &str) -> Option<(u32, u32, u32, u32, u32, u16)> {
    book.probe(pos)
        .into_iter()
        .find(|b| b.mv == mv(m))
        .map(|b| {
            let st = b.stats;
            (
                st.games,
                st.red_wins,
                st.draws,
                st.black_wins,
                b.weight,
                st.mean_elo,
            )
        })
}

#[test]
fn import_is_idempotent_and_names_rejected_games() {
    let dir_tmp = scratch("import");
    let dir = dir_tmp.path();
    let db = dir.join("games.db");
    let first = partial(&run(&["import", s(&tiny()), "--db", s(&db)]));
    assert!(
        first.contains("7 games read: 5 imported, 1 duplicates, 1 rejected"),
        "{first}"
    );
    assert!(
        first.contains("tiny.pgn: game 4 (line 27), ply 3: illegal move: move \"e2e9\""),
        "{first}"
    );
    assert!(
        first.contains("(1 with a conflicting result), 1 rejected"),
        "{first}"
    );
    assert!(first.contains("rejected: illegal move 1"), "{first}");
    assert!(
        first.contains("games.db: 5 games, 5 players, 4 events"),
        "{first}"
    );
    // The second run stores nothing and changes no result.
    let second = partial(&run(&["import", s(&tiny()), "--db", s(&db)]));
    assert!(
        second.contains("7 games read: 0 imported, 6 duplicates, 1 rejected"),
        "{second}"
    );
    assert!(second.contains("(0 with a conflicting result)"), "{second}");
    assert!(
        second.contains("games.db: 5 games, 5 players, 4 events"),
        "{second}"
    );
    let gdb = GameDb::open(&db).unwrap();
    let imports = gdb.imports().unwrap();
    assert_eq!(imports.len(), 2);
    assert!(imports.iter().all(|i| i.finished.is_some()));
    assert_eq!(
        (
            imports[1].games_read,
            imports[1].imported,
            imports[1].duplicates,
            imports[1].rejected
        ),
        (7, 0, 6, 1)
    );
    // The rejected game is recorded once, however often its file is imported, and the summary
    // lists the file once, with its latest run, and totals that agree with the imports.
    assert_eq!(gdb.rejection_count().unwrap(), 1);
    let summary = stdout(&run(&["summary", "--db", s(&db)]));
    assert!(summary.contains("1 file imported in 2 runs"), "{summary}");
    assert!(summary.contains("imported 2 times"), "{summary}");
    assert!(
        summary.contains("database: 5 games, 1 rejected game"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "(1 game of the database left out by the filters; games from set-up positions"
        ),
        "{summary}"
    );
    assert_eq!(summary.matches("tiny.pgn").count(), 1, "{summary}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["summary", "--db", s(&db), "--json"]))).unwrap();
    assert_eq!(json["games_in_database"], 5);
    assert_eq!(json["rejected_games"], 1);
    assert_eq!(json["import_runs"], 2);
    assert_eq!(json["files"][0]["runs"], 2);
    assert_eq!(
        json["selection"]["games"], 4,
        "set-up games are left out by default"
    );
}

#[test]
fn reading_commands_open_the_database_read_only_and_change_nothing() {
    let dir_tmp = scratch("readonly");
    let dir = dir_tmp.path();
    drop(tiny_db(dir));
    let db = dir.join("games.db");
    // Checkpointed and closed: the file alone holds everything.
    let before = std::fs::read(&db).unwrap();
    let modified = std::fs::metadata(&db).unwrap().modified().unwrap();
    // A read-only connection: any write through it fails.
    let mut gdb = GameDb::open(&db).unwrap();
    let e = gdb
        .begin_import("x.pgn", 1, "test")
        .unwrap_err()
        .to_string();
    assert!(e.contains("readonly") || e.contains("read-only"), "{e}");
    drop(gdb);
    stdout(&run(&["summary", "--db", s(&db)]));
    let book = dir.join("out.xqb");
    stdout(&run(&["compile", "--db", s(&db), "-o", s(&book)]));
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the database's bytes are unchanged"
    );
    assert_eq!(
        std::fs::metadata(&db).unwrap().modified().unwrap(),
        modified
    );
    // A directory given as the database says so.
    let out = run(&["summary", "--db", s(dir)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is a directory"), "{err}");
    // A database that does not exist is said so once, with what makes one.
    let missing = dir.join("missing.db");
    let out = run(&["export", "--db", s(&missing)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "missing.db: no such game database (book-builder import --db FILE creates one)"
        ) && err.matches("missing.db").count() == 1,
        "{err}"
    );
    assert!(!missing.exists());
}

#[test]
fn rejections_carry_game_ply_and_reason() {
    let dir_tmp = scratch("rejections");
    let dir = dir_tmp.path();
    let mut db = GameDb::create_or_open(dir.join("games.db")).unwrap();
    let report = import_file(&mut db, &tiny(), "tiny.pgn", 2, &mut |_| {}).unwrap();
    assert_eq!(report.read, 7);
    assert_eq!(report.rejections.len(), 1);
    let r = &report.rejections[0];
    assert_eq!(
        (r.game, r.ply, r.kind),
        (Some(4), Some(3), RejectKind::IllegalMove)
    );
    assert!(r.message.contains("e2e9"), "{}", r.message);
    // Batches of two gave the same result as one batch.
    assert_eq!(
        (
            report.outcome.imported,
            report.outcome.duplicates,
            report.outcome.conflicts
        ),
        (5, 1, 1)
    );
}

#[test]
fn filters_select_games() {
    let dir_tmp = scratch("filters");
    let dir = dir_tmp.path();
    let db = tiny_db(dir);
    let count = |f: Filter| db.summary(&f).unwrap().games;
    let all = db.summary(&Filter::default()).unwrap();
    // Games 1, 2, 3, 6 from the usual start; game 1's result is unknown after its duplicate.
    assert_eq!(
        (
            all.games,
            all.red_wins,
            all.draws,
            all.black_wins,
            all.unknown,
            all.conflicts
        ),
        (4, 0, 1, 1, 2, 1)
    );
    assert_eq!(
        count(Filter {
            setups: true,
            ..Filter::default()
        }),
        5
    );
    let player = |p: &str| Filter {
        players: vec![p.into()],
        ..Filter::default()
    };
    assert_eq!(count(player("alpha")), 2);
    assert_eq!(count(player("Gamma")), 2);
    assert_eq!(count(player("Alpha (Team)")), 0);
    assert_eq!(
        count(Filter {
            events: vec!["spring".into(), "friendly".into()],
            ..Filter::default()
        }),
        3
    );
    let dates = |from: Option<&str>, to: Option<&str>| {
        count(Filter {
            from: from.map(|d| d.parse().unwrap()),
            to: to.map(|d| d.parse().unwrap()),
            ..Filter::default()
        })
    };
    assert_eq!(dates(Some("1991"), None), 2);
    assert_eq!(dates(None, Some("1990")), 1);
    assert_eq!(dates(Some("1990-06"), None), 1); // 2001 (year only) cannot be placed
    assert_eq!(dates(Some("1990-05-01"), Some("1991-06-02")), 2);
    let results = |r: Vec<ResultFilter>, setups: bool| {
        count(Filter {
            results: r,
            setups,
            ..Filter::default()
        })
    };
    let draw = ResultFilter::Known(GameResult::Draw);
    assert_eq!(results(vec![draw], false), 1);
    assert_eq!(results(vec![draw], true), 2);
    assert_eq!(results(vec![ResultFilter::Unknown], false), 2);
    assert_eq!(
        results(
            vec![
                ResultFilter::Known(GameResult::BlackWins),
                ResultFilter::Unknown
            ],
            false
        ),
        3
    );
    let elo = |e| {
        count(Filter {
            min_elo: Some(e),
            ..Filter::default()
        })
    };
    assert_eq!(elo(2300), 1);
    assert_eq!(elo(2301), 0);
}

#[test]
fn compiled_counts_match_the_games() {
    let dir_tmp = scratch("compile");
    let dir = dir_tmp.path();
    let db = tiny_db(dir);
    let path = dir.join("book.xqb");
    let report = compile(&db, &CompileOptions::default(), &path).unwrap();
    assert_eq!((report.games, report.broken), (4, 0));
    let book = Book::open(&path).unwrap();
    book.verify().unwrap();
    assert_eq!(book.info().games, 4);
    let start = Position::start();
    // h2e2: game 1 (result unknown after its duplicate) and game 2 (draw).
    assert_eq!(counts(&book, &start, "h2e2"), Some((2, 0, 1, 0, 1, 2400)));
    assert_eq!(counts(&book, &start, "b2e2"), Some((1, 0, 0, 1, 0, 0)));
    assert_eq!(counts(&book, &start, "c3c4"), Some((1, 0, 0, 0, 0, 0)));
    assert_eq!(book.probe(&start).len(), 3);
    // After h2e2, game 3 (b2e2 b9c7, 0-1) joins as a mirror: 2 x 1 win + 1 draw for Black.
    let pos = after(&["h2e2"]);
    assert_eq!(counts(&book, &pos, "h9g7"), Some((3, 0, 1, 1, 3, 2300)));
    // The mirrored position answers with mirrored moves.
    assert_eq!(
        counts(&book, &after(&["b2e2"]), "b9c7"),
        Some((3, 0, 1, 1, 3, 2300))
    );
    assert_eq!(
        counts(&book, &after(&["h2e2", "h9g7"]), "h0g2"),
        Some((3, 0, 1, 1, 1, 2400))
    );
    assert_eq!(
        counts(&book, &after(&["h2e2", "h9g7", "h0g2"]), "i9h9"),
        Some((1, 0, 0, 0, 0, 0))
    );

    // Without mirror merging the two sides stay apart.
    let apart = dir.join("apart.xqb");
    let opts = CompileOptions {
        mirror: false,
        ..CompileOptions::default()
    };
    compile(&db, &opts, &apart).unwrap();
    let book = Book::open(&apart).unwrap();
    assert!(!book.info().mirror);
    assert_eq!(counts(&book, &pos, "h9g7"), Some((2, 0, 1, 0, 1, 2300)));
    assert_eq!(
        counts(&book, &after(&["b2e2"]), "b9c7"),
        Some((1, 0, 0, 1, 2, 0))
    );

    // Thresholds and the ply limit.
    let small = dir.join("small.xqb");
    let opts = CompileOptions {
        max_ply: 2,
        min_games: 2,
        ..CompileOptions::default()
    };
    compile(&db, &opts, &small).unwrap();
    let book = Book::open(&small).unwrap();
    assert_eq!(book.len(), 2); // h2e2 and h9g7
    assert!(book.probe(&after(&["h2e2", "h9g7"])).is_empty());
    let scored = dir.join("scored.xqb");
    let opts = CompileOptions {
        min_score: 0.5,
        ..CompileOptions::default()
    };
    compile(&db, &opts, &scored).unwrap();
    let book = Book::open(&scored).unwrap();
    // h2e2 scores 0.5 for Red (unknown counts as a draw); b2e2 lost.
    assert!(counts(&book, &start, "h2e2").is_some());
    assert!(counts(&book, &start, "b2e2").is_none());
    assert_eq!(book.info().min_score_permille, 500);

    // A set-up game counts only when asked for.
    let setup = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
    assert!(Book::open(&path).unwrap().probe(&setup).is_empty());
    let with = dir.join("setups.xqb");
    let opts = CompileOptions {
        filter: Filter {
            setups: true,
            ..Filter::default()
        },
        ..CompileOptions::default()
    };
    compile(&db, &opts, &with).unwrap();
    let book = Book::open(&with).unwrap();
    assert_eq!(counts(&book, &setup, "e1f2"), Some((1, 0, 1, 0, 1, 0)));
    assert!(book.info().metadata.contains("filter-setups: included"));
}

#[test]
fn probe_tree_and_stats_on_the_command_line() {
    let dir_tmp = scratch("cli");
    let dir = dir_tmp.path();
    let db = dir.join("games.db");
    let book = dir.join("book.xqb");
    partial(&run(&["import", s(&tiny()), "--db", s(&db)]));
    let out = stdout(&run(&[
        "compile",
        "--db",
        s(&db),
        "-o",
        s(&book),
        "--player",
        "alpha",
    ]));
    assert!(out.contains("from 2 games"), "{out}");

    // JSON: one object per move, each with the required fields.
    let json = stdout(&run(&[
        "probe",
        "--book",
        s(&book),
        "--json",
        "--moves",
        "h2e2",
    ]));
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{json}");
    let m = &lines[0];
    assert_eq!(m["move"], "h9g7");
    assert_eq!(m["games"], 2);
    assert_eq!(m["red_wins"], 0);
    assert_eq!(m["draws"], 1);
    assert_eq!(m["black_wins"], 0);
    assert_eq!(m["weight"], 1);
    assert_eq!(m["wxf"], "H8+7");
    assert_eq!(m["chinese"], "马８进７");
    assert_eq!(m["mean_elo"], 2300);
    assert_eq!(m["probability"], 1.0);

    // Text: the board and a row per move; moves may be given in any notation.
    let text = stdout(&run(&["probe", "--book", s(&book), "--moves", "炮二平五"]));
    assert!(
        text.contains("fen rnbakab1r/") || text.contains("fen rnbakabnr/"),
        "{text}"
    );
    assert!(text.contains("h9g7  H8+7"), "{text}");
    assert!(
        text.contains("win/draw/loss in % of each move's games for black"),
        "{text}"
    );
    assert!(
        text.contains("马") && !text.contains("馬"),
        "simplified board beside simplified moves: {text}"
    );
    let fen = stdout(&run(&[
        "probe",
        "--book",
        s(&book),
        "--fen",
        "3k5/9/9/9/9/9/9/9/9/4K4 w",
    ]));
    assert!(fen.contains("not in the book"), "{fen}");

    let tree = stdout(&run(&["tree", "--book", s(&book), "--depth", "3"]));
    // Only games 1 and 2 have a player called Alpha: one line, half the games drawn.
    let expected = [
        "└─ h2e2 炮二平五 2 games (100%), win/draw/loss 0/50/0%, 50% without a result\n",
        "\n   └─ h9g7 ",
        "\n      └─ h0g2 ",
    ];
    for e in expected {
        assert!(tree.contains(e), "{e} missing in\n{tree}");
    }

    let stats = stdout(&run(&["stats", "--book", s(&book)]));
    for e in [
        "verified",
        "entries: 4; positions: 4",
        "built from 2 games: max ply 40, min games 1",
        "mirrored positions merged",
        "filter-player: alpha",
        "plies 0 to 3",
    ] {
        assert!(stats.contains(e), "{e} missing in\n{stats}");
    }

    // JSON for the tree and the stats.
    let tree: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["tree", "--book", s(&book), "--json"]))).unwrap();
    assert_eq!(tree[0]["move"], "h2e2");
    assert_eq!(tree[0]["children"][0]["move"], "h9g7");
    let st: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["stats", "--book", s(&book), "--json"]))).unwrap();
    assert_eq!(st["verified"], true);
    assert_eq!(st["entries"], 4);

    // A damaged book: probe refuses it (exit 1, the reason said), stats reports it (exit 1).
    let damaged = dir.join("damaged.xqb");
    let mut bytes = std::fs::read(&book).unwrap();
    let n = bytes.len();
    bytes[n - 4] ^= 0x10;
    std::fs::write(&damaged, &bytes).unwrap();
    let out = run(&["probe", "--book", s(&damaged)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("damaged.xqb") && err.contains("checksum"),
        "{err}"
    );
    let out = run(&["stats", "--book", s(&damaged)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("VERIFY FAILED"));
    // A directory is said to be one.
    let out = run(&["probe", "--book", s(dir)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is a directory") && err.matches("is a directory").count() == 1,
        "{err}"
    );
    // Without --book: the built-in book.
    let builtin = stdout(&run(&["probe", "--json"]));
    assert!(builtin.lines().count() > 3, "{builtin}");
    assert!(stdout(&run(&["stats"])).contains("verified"));

    // Errors name what is wrong.
    let bad = run(&["probe", "--book", s(&book), "--moves", "h2e2", "h2e2"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("move 2"));
    let bad = run(&[
        "compile",
        "--db",
        s(&dir.join("missing.db")),
        "-o",
        s(&book),
    ]);
    assert!(!bad.status.success());
    let bad = run(&[
        "compile",
        "--db",
        s(&db),
        "-o",
        s(&book),
        "--from",
        "1990-13",
    ]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("YYYY-MM-DD"));
}

#[test]
fn foreign_files_are_not_taken_for_databases() {
    let dir_tmp = scratch("foreign");
    let dir = dir_tmp.path();
    let text = dir.join("notes.db");
    std::fs::write(
        &text,
        "not a database at all, just some words to fill a page",
    )
    .unwrap();
    let err = GameDb::create_or_open(&text).err().expect("refused");
    assert!(err.to_string().contains("notes.db"), "{err}");
    let other = dir.join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x INTEGER)")
        .unwrap();
    let err = GameDb::open(&other).err().expect("refused");
    assert!(
        err.to_string().contains("not a Chariot game database"),
        "{err}"
    );
    let newer = dir.join("newer.db");
    drop(GameDb::create_or_open(&newer).unwrap());
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let err = GameDb::open(&newer).err().expect("refused");
    assert!(err.to_string().contains("schema version 99"), "{err}");
    // Opening without creating does not make a file.
    assert!(GameDb::open(dir.join("missing.db")).is_err());
    assert!(!dir.join("missing.db").exists());
}

#[test]
fn elephanteye_books_convert_both_ways() {
    let dir_tmp = scratch("dat");
    let dir = dir_tmp.path();
    let dat = manifest().join("../formats/tests/data/eleeye/BOOK.DAT");
    let book = dir.join("eleeye.xqb");
    let out = stdout(&run(&[
        "import-dat",
        s(&dat),
        "-o",
        s(&book),
        "--max-ply",
        "12",
    ]));
    assert!(out.contains("12081 records"), "{out}");
    let b = Book::open(&book).unwrap();
    b.verify().unwrap();
    let weights = |moves: Vec<(chariot_rules::Move, u32)>, m: &str| {
        moves.iter().find(|x| x.0 == mv(m)).map(|x| x.1)
    };
    let start: Vec<(chariot_rules::Move, u32)> = b
        .probe(&Position::start())
        .iter()
        .map(|m| (m.mv, m.weight))
        .collect();
    assert_eq!(weights(start.clone(), "h2e2"), Some(1473));
    assert_eq!(weights(start, "c3c4"), Some(546));

    let back = dir.join("BOOK.DAT");
    let out = stdout(&run(&[
        "export-dat",
        "--book",
        s(&book),
        "-o",
        s(&back),
        "--max-ply",
        "12",
    ]));
    assert!(out.contains("records from"), "{out}");
    let records = eleeye::read(&std::fs::read(&back).unwrap()).unwrap();
    let moves = eleeye::probe(&records, &Position::start());
    let w = |m: &str| moves.iter().find(|x| x.0 == mv(m)).map(|x| x.1);
    assert_eq!(w("h2e2"), Some(1473));
    assert_eq!(w("b2e2"), Some(1473));
    assert_eq!(w("c3c4"), Some(546));
}

#[test]
fn the_shipped_default_book_is_sound_and_attributed() {
    let path = manifest().join("../data/book.xqb");
    let book = Book::open(&path).unwrap();
    book.verify().unwrap();
    let opts = book_builder::defaults::options();
    let info = book.info();
    assert_eq!(
        (info.mirror, info.max_ply, info.min_games),
        (opts.mirror, opts.max_ply, opts.min_games)
    );
    for source in book_builder::defaults::SOURCES {
        let line = format!("source: {} ({})", source.file, source.attribution);
        assert!(info.metadata.contains(&line), "{line} missing");
        assert!(
            manifest().join("../data/games").join(source.file).is_file(),
            "{} missing",
            source.file
        );
    }
    assert!(info.metadata.contains("CC BY 4.0"));
    assert!(info.games > 28_000);
    // Every position the book leads to from the start has legal moves with games behind them.
    let moves = book.probe(&Position::start());
    assert!(moves.len() >= 10);
    assert_eq!(moves[0].mv, mv("h2e2"));
    assert!(moves.iter().all(|m| m.stats.games >= 3));
}

#[test]
fn master_sample_imports_compiles_and_benches() {
    let dir_tmp = scratch("sample");
    let dir = dir_tmp.path();
    let sample = manifest().join("../data/games/samples/ccpd-masters-sample.pgn");
    let mut db = GameDb::create_or_open(dir.join("games.db")).unwrap();
    let r = import_file(&mut db, &sample, "sample", 32, &mut |_| {}).unwrap();
    assert_eq!(
        (r.read, r.outcome.imported, r.rejections.len()),
        (110, 110, 0)
    );
    let path = dir.join("sample.xqb");
    let report = compile(&db, &CompileOptions::default(), &path).unwrap();
    assert_eq!(report.games, 110);
    let book = Book::open(&path).unwrap();
    let total: u32 = book
        .probe(&Position::start())
        .iter()
        .map(|m| m.stats.games)
        .sum();
    assert_eq!(total, 110);
    let bench = book_builder::bench::bench(&book, 200, 2);
    assert_eq!(bench.positions, 200);
    assert_eq!(bench.hits, 200);
    assert!(bench.probe_ns > 0.0 && bench.movegen_ns > 0.0);
    let stats = book_builder::inspect::stats(&book);
    assert!(stats.contains("built from 110 games"), "{stats}");
}

#[test]
fn an_interrupted_import_is_finished_by_running_it_again() {
    let dir_tmp = scratch("interrupted");
    let dir = dir_tmp.path();
    // What an import killed after its first batch leaves behind: one committed batch, and an
    // imports row without a finish time.
    let mut db = GameDb::create_or_open(dir.join("games.db")).unwrap();
    let mut records = Vec::new();
    chariot_games::read_file(&tiny(), &mut |g| records.push(g));
    let first: Vec<_> = records[..3]
        .iter()
        .map(|r| chariot_games::checked::check(r).unwrap())
        .collect();
    let id = db.begin_import("tiny.pgn", 0, "test").unwrap();
    db.insert_batch(id, 3, &first, &[]).unwrap();
    assert!(db.imports().unwrap()[0].finished.is_none());
    // Running it again stores the rest and ends where a clean import ends.
    import_file(&mut db, &tiny(), "tiny.pgn", DEFAULT_BATCH, &mut |_| {}).unwrap();
    let clean_tmp = scratch("interrupted-clean");
    let clean = tiny_db(clean_tmp.path());
    let all = Filter {
        setups: true,
        ..Filter::default()
    };
    assert_eq!(db.summary(&all).unwrap(), clean.summary(&all).unwrap());
    assert_eq!(db.name_counts().unwrap(), clean.name_counts().unwrap());
}
