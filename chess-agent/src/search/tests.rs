//! Search tests on small tactical positions.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Position};

use super::score::MATE;
use super::{Limits, Searcher};
use crate::san::format_move;

use crate::game::test_position as pos;

fn best(fen: &str, depth: i32) -> (String, i32) {
    let p = pos(fen);
    let mut s = Searcher::new(4);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let out = s.think(
        &p,
        &[],
        limits,
        &[],
        Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    let m = out.best.expect("a move");
    (format_move(&p, m), out.last.expect("an iteration").score)
}

#[test]
fn mate_in_one() {
    let (m, score) = best("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 4);
    assert_eq!(m, "Ra8#");
    assert_eq!(score, MATE - 1);
}

#[test]
fn mate_in_two() {
    // The rook ladder: 1. Rb7 (or Ra7) and 2. Ra8# (Rb8#); no mate in one exists.
    let (m, score) = best("4k3/8/8/8/8/8/R7/1R5K w - - 0 1", 6);
    assert_eq!(score, MATE - 3, "{m}");
    assert!(m == "Rb7" || m == "Ra7", "{m}");
}

#[test]
fn takes_a_hanging_queen_and_keeps_its_own() {
    let (m, _) = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 5);
    assert_eq!(m, "Rxd5");
    // The queen is attacked by a pawn: it must move, not stay en prise.
    let (m, _) = best("4k3/8/8/8/2p5/3Q4/8/4K3 w - - 0 1", 5);
    assert_ne!(m, "Qd4");
    assert!(m.starts_with('Q'), "{m}");
}

#[test]
fn stalemate_and_mate_roots_have_no_move() {
    let mut s = Searcher::new(1);
    for fen in [
        "7k/8/6QK/8/8/8/8/8 b - - 0 1",
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let out = s.think(
            &pos(fen),
            &[],
            Limits::default(),
            &[],
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        assert!(out.best.is_none());
    }
}

#[test]
fn avoids_stalemating_when_winning() {
    // Qg6 stalemates; anything reasonable keeps winning.
    let (m, score) = best("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", 6);
    assert_ne!(m, "Qg6");
    assert!(score > 500, "{m} {score}");
}

#[test]
fn excluded_moves_are_not_chosen() {
    let p = Chess::default();
    let mut s = Searcher::new(1);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let first = s
        .think(
            &p,
            &[],
            limits,
            &[],
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        )
        .best
        .unwrap();
    let second = s
        .think(
            &p,
            &[],
            limits,
            &[first],
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        )
        .best
        .unwrap();
    assert_ne!(first, second);
    assert!(p.is_legal(second));
}

#[test]
fn repetition_is_a_draw_in_search() {
    // Down a queen, but the history lets Black's checks repeat: a perpetual scores near 0.
    let p = pos("6k1/5ppp/8/8/8/8/q4PPP/1Q4K1 w - - 0 1");
    let mut s = Searcher::new(1);
    let out = s.think(
        &p,
        &[],
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        &[],
        Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert!(out.best.is_some());
}
