//! The search through its public API: mates, root move restrictions, stopping, determinism.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use chariot_engine::search::{
    Control, Info, Level, Limits, Options, Report, Score, SearchResult, Searcher, bench,
};
use chariot_rules::{Move, Position};

fn searcher() -> Searcher {
    Searcher::new(Options {
        hash_mb: 4,
        ..Options::default()
    })
}

fn go(pos: &Position, limits: &Limits) -> SearchResult {
    searcher().search(pos, limits, &Arc::new(Control::default()), &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn mv(pos: &Position, text: &str) -> Move {
    pos.legal_move_list()
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal"))
}

/// `true` when the side to move in `pos` (the defender) is mated within `plies` plies whatever
/// it does: it has no legal move, or every reply allows a mate in `plies - 2`.
fn defender_lost(pos: &mut Position, plies: usize) -> bool {
    let replies = pos.legal_move_list();
    if replies.is_empty() {
        return true;
    }
    if plies < 2 {
        return false;
    }
    replies.iter().all(|&r| {
        pos.make_move(r);
        let attacker = pos.legal_move_list();
        let won = attacker.iter().any(|&m| {
            pos.make_move(m);
            let lost = defender_lost(pos, plies - 2);
            pos.unmake_move();
            lost
        });
        pos.unmake_move();
        won
    })
}

/// Searches a mate problem and checks, by brute force, that the chosen move really mates within
/// `plies` and that the score says so exactly.
fn check_mate(fen: &str, plies: i32) {
    let mut pos = Position::from_fen(fen).unwrap();
    let r = go(&pos, &depth(plies as u32 + 2));
    assert_eq!(r.score, Score::Mate(plies), "{fen}: {r:?}");
    let best = r.best.unwrap();
    pos.make_move(best);
    assert!(
        defender_lost(&mut pos, plies as usize - 1),
        "{fen}: {best} does not mate in {plies}"
    );
}

/// Red mates at once with the chariot on the e-file (or on rank 9): the soldiers on d8 and f8
/// guard every flight square.
const MATE_IN_ONE: &str = "4k4/3P1P3/9/9/R8/9/9/9/9/3K5 w - - 0 1";

#[test]
fn finds_mate_in_one() {
    check_mate(MATE_IN_ONE, 1);
}

#[test]
fn finds_mate_in_two() {
    check_mate("3k5/6R1C/3c5/6N2/6b2/9/9/9/2r1p1p2/5K3 w", 3);
}

#[test]
fn finds_mate_in_three() {
    check_mate("1RN1k4/3P3rC/6n2/9/9/9/9/4p4/3p5/c1rAK4 w", 5);
}

#[test]
fn mate_limit_stops_at_the_mate() {
    let mut pos = Position::from_fen(MATE_IN_ONE).unwrap();
    let r = go(
        &pos,
        &Limits {
            mate: Some(1),
            ..Limits::default()
        },
    );
    assert_eq!(r.score, Score::Mate(1));
    pos.make_move(r.best.unwrap());
    assert!(!pos.has_legal_move());
}

#[test]
fn no_legal_move_is_a_loss_even_without_check() {
    // Checkmate: after the mating move of the mate-in-one problem.
    let mut mated = Position::from_fen(MATE_IN_ONE).unwrap();
    mated.make_move(mv(&mated, "a5e5"));
    let r = go(&mated, &depth(5));
    assert_eq!((r.best, r.score), (None, Score::Mate(0)));
    // Stalemate: Black is not in check but cannot move; in Xiangqi that loses too.
    let stalemate = Position::from_fen("3k5/2P6/4R4/9/9/9/9/9/9/5K3 b - - 0 1").unwrap();
    assert!(!stalemate.in_check() && !stalemate.has_legal_move());
    let r = go(&stalemate, &depth(5));
    assert_eq!((r.best, r.score), (None, Score::Mate(0)));
    // And the search scores stalemating the opponent as a mate: here the rook's move to e7 is
    // the only way to stalemate Black at once.
    let before = Position::from_fen("3k5/2P6/9/4R4/9/9/9/9/9/5K3 w - - 0 1").unwrap();
    let r = go(&before, &depth(3));
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
}

#[test]
fn depth_zero_returns_no_move() {
    let r = go(&Position::start(), &depth(0));
    assert_eq!(r.best, None);
    assert!(matches!(r.score, Score::Cp(_)));
}

#[test]
fn banned_moves_are_never_played() {
    let pos = Position::start();
    let free = go(&pos, &depth(4)).best.unwrap();
    let banned = Limits {
        banmoves: vec![free],
        ..depth(4)
    };
    let r = go(&pos, &banned);
    assert!(
        r.best.is_some_and(|m| m != free && pos.is_legal(m)),
        "{r:?}"
    );
    // Banning all moves but one leaves that one; banning all leaves none.
    let all = pos.legal_move_list().to_vec();
    let keep = all[17];
    let r = go(
        &pos,
        &Limits {
            banmoves: all.iter().copied().filter(|&m| m != keep).collect(),
            ..depth(4)
        },
    );
    assert_eq!(r.best, Some(keep));
    let r = go(
        &pos,
        &Limits {
            banmoves: all,
            ..depth(4)
        },
    );
    assert_eq!(r.best, None);
}

#[test]
fn searchmoves_restrict_the_root() {
    let pos = Position::start();
    let allowed = vec![mv(&pos, "a3a4"), mv(&pos, "i0i1")];
    let r = go(
        &pos,
        &Limits {
            searchmoves: allowed.clone(),
            ..depth(5)
        },
    );
    assert!(allowed.contains(&r.best.unwrap()), "{r:?}");
    // In the mate-in-two problem, a restriction to another move hides the mate.
    let mate = Position::from_fen("3k5/6R1C/3c5/6N2/6b2/9/9/9/2r1p1p2/5K3 w").unwrap();
    let other = mate
        .legal_move_list()
        .iter()
        .copied()
        .find(|m| m.to_string() != "g6f8")
        .unwrap();
    let r = go(
        &mate,
        &Limits {
            searchmoves: vec![other],
            ..depth(4)
        },
    );
    assert_eq!(r.best, Some(other));
    assert_ne!(r.score, Score::Mate(3));
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let pos = Position::start();
    let control = Arc::new(Control::default());
    let stopper = {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            control.stop.store(true, Ordering::Relaxed);
        })
    };
    let r = searcher().search(
        &pos,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &control,
        &mut |_| {},
    );
    stopper.join().unwrap();
    assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{r:?}");
}

#[test]
fn ponder_hit_starts_the_clock() {
    // While pondering, a 20 ms movetime does not stop the search; after the ponder hit it does.
    let pos = Position::start();
    let control = Arc::new(Control::default());
    control.pondering.store(true, Ordering::Relaxed);
    let hitter = {
        let control = Arc::clone(&control);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            control.pondering.store(false, Ordering::Relaxed);
        })
    };
    let limits = Limits {
        movetime: Some(Duration::from_millis(20)),
        ..Limits::default()
    };
    let r = searcher().search(&pos, &limits, &control, &mut |_| {});
    hitter.join().unwrap();
    assert!(
        !control.pondering.load(Ordering::Relaxed),
        "returned before the ponder hit"
    );
    assert!(r.best.is_some_and(|m| pos.is_legal(m)), "{r:?}");
}

#[test]
fn node_limit_is_respected() {
    // Small budgets hold too (the weakest playing level's): the search polls more often under
    // a node budget and ends even its first iteration once one root move has been searched.
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1rb1ka3/4a3r/1C2b4/p1p1n3p/3N5/6p2/P1P3ncP/N4R3/4A4/1RB1KAB2 b - - 9 17",
        "2bak1r2/n3a3c/4b1n2/p1p2c2p/4C1p2/PN7/2C1N1P1P/9/4A2R1/2BAK1B2 w - - 1 23",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for budget in [50, 300, 1_000, 5_000, 20_000] {
            let r = go(
                &pos,
                &Limits {
                    nodes: Some(budget),
                    ..Limits::default()
                },
            );
            let best = r
                .best
                .unwrap_or_else(|| panic!("no move at {budget} nodes in {fen}"));
            assert!(pos.is_legal(best), "{best} at {budget} nodes in {fen}");
            assert!(
                budget - budget / 1024 <= r.nodes && r.nodes <= budget,
                "{} nodes for a budget of {budget} in {fen}",
                r.nodes
            );
        }
    }
}

#[test]
fn reports_iterations_and_multipv_lines() {
    let pos = Position::start();
    let mut s = Searcher::new(Options {
        hash_mb: 4,
        multipv: 3,
        ..Options::default()
    });
    let mut infos: Vec<Info> = Vec::new();
    let r = s.search(&pos, &depth(5), &Arc::new(Control::default()), &mut |rep| {
        if let Report::Iteration(info) = rep {
            infos.push(info.clone());
        }
    });
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(last.len(), 3, "{infos:?}");
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: Vec<Move> = last.iter().map(|i| i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(Some(firsts[0]), r.best);
    // Each line is a legal sequence of moves.
    for info in last {
        let mut p = pos.clone();
        for &m in &info.pv {
            assert!(p.is_legal(m), "{info:?}");
            p.make_move(m);
        }
    }
}

#[test]
fn hash_probe_knows_the_root_after_a_search() {
    let pos = Position::start();
    let mut s = searcher();
    let r = s.search(&pos, &depth(5), &Arc::new(Control::default()), &mut |_| {});
    let probe = s.probe(&pos).expect("the root is stored");
    assert_eq!(probe.best, r.best);
    assert!(probe.lower.is_some() && probe.upper.is_some());
    s.clear();
    assert_eq!(s.probe(&pos), None);
}

#[test]
fn threads_search_and_agree_on_a_legal_move() {
    let pos = Position::from_fen(bench::POSITIONS[7]).unwrap();
    let mut s = Searcher::new(Options {
        hash_mb: 4,
        threads: 2,
        ..Options::default()
    });
    let r = s.search(&pos, &depth(7), &Arc::new(Control::default()), &mut |_| {});
    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
    assert_eq!(r.depth, 7);
}

#[test]
fn bench_signature_is_deterministic() {
    let a = bench::run(5, |_, _, _| {});
    let b = bench::run(5, |_, _, _| {});
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes > 0);
}

#[test]
fn bench_with_less_pruning_searches_more_nodes() {
    // The default is `large`; `small` keeps only the null move, `none` nothing.
    let default = bench::run(5, |_, _, _| {});
    assert_eq!(
        bench::run_with(5, Level::Large, None, |_, _, _| {}).nodes,
        default.nodes
    );
    let small = bench::run_with(5, Level::Small, None, |_, _, _| {});
    let none = bench::run_with(5, Level::None, None, |_, _, _| {});
    assert!(
        default.nodes < small.nodes,
        "{} {}",
        default.nodes,
        small.nodes
    );
    assert!(small.nodes < none.nodes, "{} {}", small.nodes, none.nodes);
}

#[test]
fn endgame_tables_score_nodes_and_count_tbhits() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/egtb");
    let tables = chariot_formats::egtb::Tablebases::open(&[dir]).unwrap();
    assert!(!tables.is_empty());
    let mut s = searcher();
    s.set_tablebases(Some(Arc::new(tables)));
    // Rook against a bare general: every child of the root is in a table.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
    let mut hits = 0;
    let r = s.search(&pos, &depth(3), &Arc::new(Control::default()), &mut |rep| {
        if let Report::Iteration(info) = rep {
            hits = hits.max(info.tbhits);
        }
    });
    assert!(hits > 0, "no table hits");
    // a0a8 and a0d0 leave Black without a move (a loss): mate in one ply, from the tables.
    assert_eq!(r.score, Score::Mate(1));
    assert!(["a0a8", "a0d0"].contains(&r.best.unwrap().to_string().as_str()));
    // Rook against horse, won by the perpetual-check rule (the horse can only check forever):
    // every child is a table hit scored as a rule win, below any table mate.
    use chariot_engine::search::score::tb_rule_win_at;
    let pos = Position::from_fen("9/4k4/9/9/8R/9/2n6/9/3K5/9 w - - 0 1").unwrap();
    let r = s.search(&pos, &depth(3), &Arc::new(Control::default()), &mut |_| {});
    assert_eq!(r.score, Score::Cp(tb_rule_win_at(1)));
    // The losing side: its only check keeps the rule loss, every other move is mated.
    let pos = Position::from_fen("9/4k4/9/9/9/9/9/3n5/9/3K2R2 b - - 0 1").unwrap();
    let r = s.search(&pos, &depth(3), &Arc::new(Control::default()), &mut |_| {});
    assert_eq!(r.score, Score::Cp(-tb_rule_win_at(1)));
    assert_eq!(r.best.unwrap().to_string(), "d2b1");
    // With a cannon instead the tables say draw: no move scores as a win.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/C3K4 w - - 0 1").unwrap();
    let r = s.search(&pos, &depth(3), &Arc::new(Control::default()), &mut |_| {});
    match r.score {
        Score::Cp(cp) => assert!(cp.abs() < 1000, "{cp}"),
        Score::Mate(m) => panic!("mate {m} in a drawn table position"),
    }
}

/// A search stopped in the middle of a MultiPV iteration answers with the best line it last
/// reported: `bestmove` and `ponder` are the first two moves of the last `multipv 1` line.
#[test]
fn a_multipv_search_stopped_mid_iteration_answers_with_its_last_reported_line() {
    let positions = [
        Position::start(),
        Position::from_fen(
            "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
        )
        .unwrap(),
    ];
    let mut mismatches = Vec::new();
    for pos in &positions {
        for nodes in (20_000..200_000).step_by(9_000) {
            let mut s = Searcher::new(Options {
                hash_mb: 4,
                multipv: 3,
                ..Options::default()
            });
            let mut last: Option<Vec<Move>> = None;
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let r = s.search(pos, &limits, &Arc::new(Control::default()), &mut |rep| {
                if let Report::Iteration(info) = rep
                    && info.multipv == 1
                {
                    last = Some(info.pv.clone());
                }
            });
            let pv = last.expect("a reported line");
            if r.best != pv.first().copied() || (pv.len() > 1 && r.ponder != pv.get(1).copied()) {
                mismatches.push(format!(
                    "{} nodes: bestmove {:?} ponder {:?}, last line {:?}",
                    nodes, r.best, r.ponder, pv
                ));
            }
        }
    }
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn blunders_overlook_captures_but_never_see_a_false_mate() {
    // Red's chariot can take the cannon on d7, which the horse defends: a sound search never
    // does; one that overlooks captures sometimes misses the recapture and takes.
    let pos = Position::from_fen("5k3/9/3c5/9/4n4/9/9/9/3R5/4K4 w - - 0 1").unwrap();
    let greedy = mv(&pos, "d1d7");
    assert_ne!(go(&pos, &depth(2)).best, Some(greedy));
    let blind = |level: Level| {
        let mut searcher = Searcher::new(Options {
            hash_mb: 1,
            blunders: level,
            ..Options::default()
        });
        (0..40)
            .map(|_| {
                searcher.clear();
                let r =
                    searcher.search(&pos, &depth(2), &Arc::new(Control::default()), &mut |_| {});
                assert!(matches!(r.score, Score::Cp(_)), "{:?}", r.score);
                r.best
            })
            .filter(|&b| b == Some(greedy))
            .count()
    };
    assert_eq!(blind(Level::None), 0);
    let taken = blind(Level::Huge);
    assert!(
        0 < taken && taken < 40,
        "took the defended cannon in {taken} of 40 searches"
    );
    // Check evasions are never overlooked: Black's only escape from the chariot's check is to
    // take it, and no search may take that for a mate.
    let check = Position::from_fen("4k4/4a4/9/9/9/9/9/9/9/3RK4 w - - 0 1").unwrap();
    let mut searcher = Searcher::new(Options {
        hash_mb: 1,
        blunders: Level::Huge,
        ..Options::default()
    });
    for _ in 0..40 {
        searcher.clear();
        let r = searcher.search(
            &check,
            &depth(3),
            &Arc::new(Control::default()),
            &mut |_| {},
        );
        assert!(matches!(r.score, Score::Cp(_)), "{:?}", r.score);
    }
}
