//! Known endgame results, table consistency and tables against search, on small tables that
//! are generated here (a few seconds in the test profile).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chariot_formats::egtb::{
    Indexer, Metric, RuleRank, Signature, TableFile, Tablebases, Value, Wdl,
};
use chariot_rules::Waivers;
use chariot_rules::{Color, Kind, Position};
use egtb_gen::crosscheck::{crosscheck_table, expected_within, mate_search};
use egtb_gen::pipeline::{build_all, table_path};
use egtb_gen::retro;

/// Tables generated once for all tests of this file, with everything they depend on.
const TABLES: [&str; 9] = [
    "KRK", "KCK", "KPK", "KNK", "KRKA", "KNKA", "KCKB", "KCKP", "KRKN",
];

fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // Generated once for all the tests of this file, in Cargo's directory for integration
        // tests' scratch files (inside target/), under a fixed name that each run replaces.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("egtb-known");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let wanted: Vec<Signature> = TABLES.iter().map(|n| n.parse().unwrap()).collect();
        build_all(&wanted, &dir, 3, 4096, &Metric::ALL).unwrap();
        dir
    })
}

/// Every legal position of a table (in its frame), with its stored value.
fn positions(name: &str) -> Vec<(Position, Value)> {
    let sig: Signature = name.parse().unwrap();
    let t = TableFile::open(&table_path(dir(), sig)).unwrap();
    // The file's own order of entries (key scheme 3 or 4, whichever compressed better).
    let ix = Indexer::with_scheme(sig, t.header().key_scheme).unwrap();
    let mut out = Vec::new();
    for turn in Color::ALL {
        for i in 0..ix.size() {
            let p = ix.decode(i);
            if p.has_overlap() {
                continue;
            }
            let w = Waivers {
                placement: true,
                counts: true,
                opposite_check: false,
            };
            if let Ok(pos) = Position::from_setup(&ix.setup(&p, turn), w) {
                out.push((pos, t.value(turn, i).unwrap()));
            }
        }
    }
    out
}

fn king_can_take_attacker(pos: &Position) -> bool {
    pos.legal_move_list().iter().any(|&m| {
        pos.piece_at(m.to())
            .is_some_and(|p| p.kind() != Kind::General && p.color() != pos.turn())
    })
}

#[test]
fn rook_against_bare_general_wins_unless_taken_at_once() {
    let all = positions("KRK");
    assert!(all.len() > 4000);
    for (pos, v) in &all {
        if pos.turn() == Color::Red {
            assert_eq!(v.wdl(), Wdl::Win, "{}", pos.fen());
        } else if king_can_take_attacker(pos) {
            assert_eq!(*v, Value::Draw, "{}", pos.fen());
        } else {
            assert_eq!(v.wdl(), Wdl::Loss, "{}", pos.fen());
        }
    }
}

#[test]
fn lone_cannon_cannot_win() {
    for (pos, v) in positions("KCK") {
        assert_eq!(v, Value::Draw, "{}", pos.fen());
    }
}

#[test]
fn soldier_on_the_last_rank_cannot_win_but_a_fresh_one_can() {
    let all = positions("KPK");
    for (pos, v) in &all {
        let pawn = pos
            .pieces(chariot_rules::Piece::new(Color::Red, Kind::Soldier))
            .first()
            .unwrap();
        if pawn.rank() == 9 {
            assert_eq!(*v, Value::Draw, "{}", pos.fen());
        }
    }
    // A soldier that has just crossed the river wins with the general's help.
    let pos = Position::from_fen("4k4/9/9/9/4P4/9/9/9/9/3K5 w").unwrap();
    let tb = Tablebases::open(&[dir()]).unwrap();
    assert_eq!(tb.probe_wdl(&pos).unwrap(), Some(Wdl::Win));
}

#[test]
fn tables_agree_with_a_mate_search() {
    // KRK mates within 4 plies everywhere, so a 5-ply search must agree on every position.
    let all = positions("KRK");
    for (mut pos, v) in all.into_iter().step_by(7) {
        let found = mate_search(&mut pos, 5);
        assert_eq!(found, expected_within(v, 5), "{}", pos.fen());
    }
    for name in TABLES {
        let path = table_path(dir(), name.parse().unwrap());
        let checked = crosscheck_table(&path, 30, 3).unwrap();
        assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}

#[test]
fn every_table_verifies_through_the_reader() {
    for name in TABLES {
        let path = table_path(dir(), name.parse().unwrap());
        assert_eq!(
            egtb_gen::verify::verify_table(&path).unwrap(),
            None,
            "{name}"
        );
    }
}

#[test]
fn prober_gives_the_shortest_win_and_a_line_to_mate() {
    let tb = Tablebases::open(&[dir()]).unwrap();
    // Black (the weaker side) is Red here: the prober must flip colours.
    let pos = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/3K5 b").unwrap();
    let v = tb.probe(&pos).unwrap().unwrap();
    assert_eq!(v.wdl(), Wdl::Win);
    let line = tb.line(&pos, 100).unwrap();
    assert_eq!(line.len() as u32, v.dtm().unwrap());
    let mut p = pos.clone();
    for m in &line {
        assert!(p.is_legal(*m));
        p.make_move(*m);
    }
    assert!(!p.has_legal_move(), "the line ends in mate");
    let (best, after) = tb.best_move(&pos).unwrap().unwrap();
    assert_eq!(best, line[0]);
    assert_eq!(after, v);
    // No table for this material.
    assert_eq!(tb.probe(&Position::start()).unwrap(), None);
}

/// Rook against horse: the horse's side can sometimes avoid mate only by checking forever, which
/// the perpetual-check rule forbids. Here every move of the horse that gives no check is mated,
/// its checks lead only to more such positions (the horse shuttles between b1 and c3 around the
/// red general), so the position is lost for Black by the rule; the rook's side never has to
/// check to keep it so.
#[test]
fn a_horse_that_can_only_check_forever_loses_by_the_rule() {
    let tb = Tablebases::open(&[dir()]).unwrap();
    let pos = Position::from_fen("9/4k4/9/9/9/9/9/3n5/9/3K2R2 b - - 0 1").unwrap();
    let v = tb.probe(&pos).unwrap().unwrap();
    assert!(matches!(v, Value::RuleLoss(_)), "{v}");
    assert_eq!(v.wdl(), Wdl::Loss);
    let mut p = pos.clone();
    for (m, after) in tb.move_values(&pos).unwrap().unwrap() {
        p.make_move(m);
        let check = p.in_check();
        p.unmake_move();
        match after {
            Value::Loss(_) => {}
            Value::RuleLoss(_) => assert!(check, "{m} gives no check but escapes mate"),
            other => panic!("{m}: {other}"),
        }
    }
    // The line ends when a position repeats: the horse checked on every move, the general never.
    let line = tb.line(&pos, 40).unwrap();
    assert!(line.len() < 40, "{line:?}");
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        p.make_move(m);
        assert_eq!(p.in_check(), i % 2 == 0, "ply {i}: {m}");
    }
    assert!(p.history().iter().any(|u| u.key == p.key()));
    // Its counts: only the rook's side wins by the rule in this table.
    let t = TableFile::open(&table_path(dir(), "KRKN".parse().unwrap())).unwrap();
    let h = t.header();
    assert_eq!(h.version(), chariot_formats::egtb::file::VERSION);
    assert!(h.coding.has_rule_values());
    assert_eq!((h.stats[0].rule_losses, h.stats[1].rule_wins), (0, 0));
    assert!(h.stats[0].rule_wins > 100 && h.stats[1].rule_losses > 1000);
    // The rule values agree with the mate search too (no mate within its horizon).
    // The DTC file: a mate the search finds is a result by mate there.
    let dtc = egtb_gen::pipeline::table_path_in(dir(), "KRKN".parse().unwrap(), Metric::Dtc);
    assert!(crosscheck_table(&dtc, 30, 3).unwrap().is_ok());
    let checked = crosscheck_table(&table_path(dir(), "KRKN".parse().unwrap()), 30, 3).unwrap();
    assert!(checked.is_ok(), "{}", checked.unwrap_err());
}

/// Plays the tables' plan (`Tablebases::best_move`) for the winner from positions won by the
/// rule, against every reply of the loser, and checks the outcome: every line ends in a position
/// the winner wins by mate, or in a capture into a smaller table's win, or runs into a cycle in
/// which the loser checked on every move and the winner did not, or (chase rule) in which the
/// loser checked or chased on every move and the winner made a move that did neither. Returns
/// the positions visited.
fn plan_wins_against_every_reply(tb: &Tablebases, starts: Vec<Position>) -> usize {
    let winner = starts[0].turn();
    // Per position (by key): its moves inside the plan, as (child, check, by the winner,
    // chases something).
    let mut graph: HashMap<u64, Vec<(u64, bool, bool, bool)>> = HashMap::new();
    let mut stack = starts;
    while let Some(pos) = stack.pop() {
        if graph.contains_key(&pos.key()) {
            continue;
        }
        let v = tb.probe(&pos).unwrap().unwrap();
        let ours = pos.turn() == winner;
        let good = if ours {
            matches!(v, Value::Win(_) | Value::RuleWin(_))
        } else {
            matches!(v, Value::Loss(_) | Value::RuleLoss(_))
        };
        assert!(good, "{}: {v}", pos.fen());
        let mut edges = Vec::new();
        if v.by_rule() {
            let moves = if ours {
                vec![tb.best_move(&pos).unwrap().unwrap().0]
            } else {
                pos.legal_move_list().to_vec()
            };
            for m in moves {
                let mut p = pos.clone();
                let capture = p.is_capture(m);
                let chases = !chariot_rules::chase::chased(&pos, m).is_empty();
                p.make_move(m);
                if capture {
                    let after = tb.probe(&p).unwrap().unwrap();
                    assert_eq!(after.wdl(), if ours { Wdl::Loss } else { Wdl::Win });
                    continue;
                }
                edges.push((p.key(), p.in_check(), ours, chases));
                stack.push(p);
            }
        }
        graph.insert(pos.key(), edges);
    }
    type Edge = (u64, bool, bool, bool);
    let reaches = |from: u64, to: u64, allowed: &dyn Fn(&Edge) -> bool| {
        let mut seen = std::collections::HashSet::from([from]);
        let mut todo = vec![from];
        while let Some(u) = todo.pop() {
            if u == to {
                return true;
            }
            for e in &graph[&u] {
                if allowed(e) && seen.insert(e.0) {
                    todo.push(e.0);
                }
            }
        }
        false
    };
    let cyclic = graph
        .iter()
        .any(|(&u, edges)| edges.iter().any(|e| reaches(e.0, u, &|_| true)));
    assert!(
        cyclic,
        "the plan should run into repetitions, not only into mates"
    );
    for (&u, edges) in &graph {
        for e in edges {
            // No cycle through a move of the loser that neither checks nor chases.
            if !e.2 && !e.1 && !e.3 {
                assert!(
                    !reaches(e.0, u, &|_| true),
                    "the loser escapes by an idle move"
                );
            }
            // A cycle through a move of the loser that gives no check must be a chase cycle:
            // the winner makes an idle move in it, so it does not check or chase forever.
            if !e.2 && !e.1 {
                assert!(
                    !reaches(e.0, u, &|x| !x.2 || x.1 || x.3),
                    "the loser neither checks forever nor faces a winner that stays idle"
                );
            }
            // No cycle in which the winner checks on every move.
            if !e.2 || e.1 {
                assert!(
                    !reaches(e.0, u, &|x| !x.2 || x.1),
                    "the winner checks forever"
                );
            }
        }
    }
    graph.len()
}

#[test]
fn the_rule_plan_wins_against_every_defence() {
    let tb = Tablebases::open(&[dir()]).unwrap();
    let starts: Vec<Position> = positions("KRKN")
        .into_iter()
        .filter(|(_, v)| matches!(v, Value::RuleWin(_)))
        .map(|(p, _)| p)
        .collect();
    assert!(starts.len() > 100);
    let seen = plan_wins_against_every_reply(&tb, starts);
    assert!(seen > 1000, "{seen}");
}

/// The same on tables with several stages (levels of the rule, and cores where the winner has
/// to check on the way), where following the ranks matters: the hardest path of the rule, so it
/// runs in CI (about 21 s on 2 cores with the test profile's optimisation).
#[test]
fn the_rule_plan_wins_in_tables_with_several_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let wanted: Vec<Signature> = ["KRKCA", "KCAKN", "KRAKR"]
        .iter()
        .map(|n| n.parse().unwrap())
        .collect();
    build_all(&wanted, dir, 3, 4096, &Metric::ALL).unwrap();
    let tb = Tablebases::open(&[&dir]).unwrap();
    for name in ["KRKCA", "KCAKN", "KRAKR"] {
        let sig: Signature = name.parse().unwrap();
        let t = TableFile::open(&table_path(dir, sig)).unwrap();
        assert!(t.header().coding.rule_stages >= 3, "{name}");
        let ix = Indexer::with_scheme(sig, t.header().key_scheme).unwrap();
        for winner in Color::ALL {
            let mut starts = Vec::new();
            for i in 0..ix.size() {
                if let Ok(Value::RuleWin(_)) = t.value(winner, i) {
                    let w = Waivers {
                        placement: true,
                        counts: true,
                        opposite_check: false,
                    };
                    let p = ix.decode(i);
                    if p.has_overlap() {
                        continue;
                    }
                    if let Ok(p) = Position::from_setup(&ix.setup(&p, winner), w) {
                        starts.push(p);
                    }
                }
            }
            if !starts.is_empty() {
                plan_wins_against_every_reply(&tb, starts);
            }
        }
    }
}

/// A table whose rule values are tampered with fails `verify`, though every position stays
/// locally consistent: a cycle of rule losses turned into draws (and the winners' positions
/// into draws too) can only be caught by solving the game again.
#[test]
fn verify_solves_the_rule_again() {
    let src = table_path(dir(), "KRKN".parse().unwrap());
    let t = TableFile::open(&src).unwrap();
    let h = t.header().clone();
    let codes = t.all_codes().unwrap();
    let tampered: Vec<u16> = codes
        .iter()
        .map(|&c| {
            if h.coding.decode(c).unwrap().by_rule() {
                0
            } else {
                c
            }
        })
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for dep in ["KRK", "KNK", "KK"] {
        let name = format!("{dep}.egtb");
        std::fs::copy(self::dir().join(&name), dir.join(&name)).unwrap();
    }
    let mut stats = h.stats;
    for s in &mut stats {
        s.draws += s.rule_wins + s.rule_losses;
        s.rule_wins = 0;
        s.rule_losses = 0;
    }
    let path = dir.join("KRKN.egtb");
    chariot_formats::egtb::file::write_codes(
        &path,
        h.signature,
        &tampered,
        stats,
        chariot_formats::egtb::file::FLAG_RULE_JUDGED,
        chariot_formats::egtb::Coding::PLAIN,
    )
    .unwrap();
    let bad = egtb_gen::verify::verify_table(&path).unwrap();
    let (_, fen, stored, expected) = bad.expect("the tampered table must fail");
    assert_eq!(stored, Value::Draw, "{fen}");
    assert!(expected.by_rule(), "{fen}: {expected}");
}

/// A rule value whose plies are changed (the kind kept, so every position stays locally
/// consistent and the header's counts agree) fails `verify`: only the game solved again knows
/// the distances.
#[test]
fn verify_finds_a_rule_value_with_the_wrong_plies() {
    let src = table_path(dir(), "KRKN".parse().unwrap());
    let t = TableFile::open(&src).unwrap();
    let h = t.header().clone();
    let mut codes = t.all_codes().unwrap();
    let (e, value) = codes
        .iter()
        .enumerate()
        .find_map(|(e, &c)| match h.coding.decode(c).unwrap() {
            Value::RuleWin(r) => Some((
                e,
                Value::RuleWin(RuleRank {
                    plies: r.plies + 2,
                    ..r
                }),
            )),
            _ => None,
        })
        .expect("KRKN has rule wins");
    codes[e] = h.coding.encode(value).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for dep in ["KRK", "KNK", "KK"] {
        let name = format!("{dep}.egtb");
        std::fs::copy(self::dir().join(&name), dir.join(&name)).unwrap();
    }
    let path = dir.join("KRKN.egtb");
    chariot_formats::egtb::file::write_codes(
        &path,
        h.signature,
        &codes,
        h.stats,
        h.flags,
        h.coding,
    )
    .unwrap();
    let (bad, fen, stored, expected) = egtb_gen::verify::verify_table(&path)
        .unwrap()
        .expect("the tampered table must fail");
    assert_eq!(bad, e as u64, "{fen}");
    assert_eq!(stored, value, "{fen}");
    assert!(
        matches!(expected, Value::RuleWin(_)) && expected != value,
        "{fen}: {expected}"
    );
}

/// Unmoves are the exact reverse of quiet legal moves: for every legal position, each quiet
/// move's target lists the position among its predecessors exactly as often as it is reached.
/// (Tables with one and with two like pieces a group, for the indices derived from a move.)
#[test]
fn unmoves_reverse_quiet_moves() {
    for name in ["KNKA", "KPKB", "KCBKA", "KRKAA", "KNNK", "KPPKA"] {
        let sig: Signature = name.parse().unwrap();
        let ix = Indexer::new(sig).unwrap();
        let w = Waivers {
            placement: true,
            counts: true,
            opposite_check: false,
        };
        let legal = |turn: Color, i: u64| {
            let p = ix.decode(i);
            (!p.has_overlap())
                .then(|| Position::from_setup(&ix.setup(&p, turn), w).ok())
                .flatten()
        };
        let mut forward: HashMap<(Color, u64), Vec<u64>> = HashMap::new();
        for turn in Color::ALL {
            for q in 0..ix.size() {
                let Some(mut pos) = legal(turn, q) else {
                    continue;
                };
                for &m in pos.legal_move_list().iter() {
                    if pos.is_capture(m) {
                        continue;
                    }
                    pos.make_move(m);
                    let (t, p) = ix.index_of(&pos).unwrap();
                    pos.unmake_move();
                    forward.entry((t, p)).or_default().push(q);
                }
            }
        }
        for turn in Color::ALL {
            for p in 0..ix.size() {
                if legal(turn, p).is_none() {
                    continue;
                }
                let mut back = Vec::new();
                retro::predecessors(&ix, p, turn.opponent(), |q| {
                    if legal(turn.opponent(), q).is_some() {
                        back.push(q);
                    }
                });
                let mut fwd = forward.remove(&(turn, p)).unwrap_or_default();
                back.sort_unstable();
                fwd.sort_unstable();
                assert_eq!(back, fwd, "{name}: predecessors of {turn} to move at {p}");
            }
        }
    }
}

/// The tables shipped in `data/egtb`.
fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb")
}

#[test]
fn shipped_tables_open() {
    let tb = Tablebases::open(&[shipped()]).unwrap();
    assert!(tb.len() >= 150, "{} tables", tb.len());
    assert_eq!(tb.max_pieces(), 7);
    fn send_sync<T: Send + Sync>(_: &T) {}
    send_sync(&tb);
}

/// "A lone rook cannot break full advisors and elephants": with the defence set up, almost every
/// placement of the rook and its general is a draw.
#[test]
fn rook_against_full_defence_is_a_draw_in_general() {
    let tb = Tablebases::open(&[shipped()]).unwrap();
    let (mut draws, mut total) = (0, 0);
    for king in ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"] {
        for rook in chariot_rules::Square::all().filter(|s| s.rank() <= 6) {
            let king: chariot_rules::Square = king.parse().unwrap();
            if rook == king {
                continue;
            }
            let mut setup: chariot_rules::Setup = "2bak4/4a4/4b4/9/9/9/9/9/9/9 w".parse().unwrap();
            setup.board[king.index()] = Some(chariot_rules::Piece::new(Color::Red, Kind::General));
            setup.board[rook.index()] = Some(chariot_rules::Piece::new(Color::Red, Kind::Chariot));
            let Ok(pos) = Position::from_setup(&setup, Waivers::NONE) else {
                continue;
            };
            total += 1;
            if tb.probe_wdl(&pos).unwrap() == Some(Wdl::Draw) {
                draws += 1;
            }
        }
    }
    assert!(total > 500);
    assert!(draws * 10 > total * 9, "{draws} draws of {total}");
    // But the table does hold wins when the defence is scattered.
    let sig: Signature = "KRKAABB".parse().unwrap();
    let t = TableFile::open(&shipped().join("KRKAABB.egtb")).unwrap();
    let h = t.header();
    assert_eq!(h.signature, sig);
    assert!(h.stats[0].wins > h.stats[0].draws);
    assert!(h.stats[0].max_dtm > 30);
}

/// The perpetual-chase rule in a table: in `KRKNP` the rook's side can, in some positions, avoid
/// mate only by attacking the unprotected horse on every move, and loses by the rule. The
/// example `9/9/3k5/9/9/9/3p5/4R4/3K5/5n3 w` is in the chase core (the rules core's judge
/// agrees: `judge::tests::a_rook_that_can_only_chase_the_horse_loses_as_the_tables_say`);
/// verify solves the game again and agrees, and the winner's plan wins against every defence.
/// Generates a 38 M-entry table (about 2 minutes in a release build on 2 cores, far more in
/// the test profile), so it runs by hand:
/// `cargo test --release -p egtb-gen --test known_results -- --ignored chase`.
#[test]
#[ignore = "generates KRKNP (38 M entries); run with --release -- --ignored"]
fn a_rook_that_can_only_chase_the_horse_loses_by_the_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let sig: Signature = "KRKNP".parse().unwrap();
    build_all(&[sig], dir, 3, 4096, &Metric::ALL).unwrap();
    let t = TableFile::open(&table_path(dir, sig)).unwrap();
    let coding = t.header().coding;
    // The weak side (horse and soldier, Black in the table) wins by the chase rule somewhere.
    assert_ne!(coding.chase_stages[1], 0, "{coding:?}");
    let tb = Tablebases::open(&[dir]).unwrap();
    let pos = Position::from_fen("9/9/3k5/9/9/9/3p5/4R4/3K5/5n3 w - - 0 1").unwrap();
    let Some(Value::RuleLoss(rank)) = tb.probe(&pos).unwrap() else {
        panic!("{:?}", tb.probe(&pos));
    };
    assert!(coding.is_chase_core(Color::Black, rank.stage), "{rank:?}");
    assert!(
        egtb_gen::verify::verify_table(&table_path(dir, sig))
            .unwrap()
            .is_none()
    );
    // The plan of the chase cores' winner, against every defence.
    let ix = Indexer::with_scheme(sig, t.header().key_scheme).unwrap();
    let mut starts = Vec::new();
    for i in 0..ix.size() {
        if let Ok(Value::RuleWin(r)) = t.value(Color::Black, i) {
            let p = ix.decode(i);
            if coding.is_chase_core(Color::Black, r.stage)
                && !p.has_overlap()
                && let Ok(p) = Position::from_setup(&ix.setup(&p, Color::Black), Waivers::NONE)
            {
                starts.push(p);
            }
        }
    }
    assert!(!starts.is_empty());
    plan_wins_against_every_reply(&tb, starts);
}
