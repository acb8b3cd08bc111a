//! The perpetual-check rule: a side that can avoid losing only by checking forever loses.
//!
//! After the retrograde passes every undecided position is a draw in which both sides can keep
//! the game going forever. For a side S that has attacking pieces (the only pieces that can give
//! check, see `docs/egtb.md`), its opponent W wins such a draw by the rule when W can force S,
//! from some point on, to give check on every move (otherwise S loses outright). Play is then
//! confined to the largest pair of sets `Y_S` (S to move) and `Y_W` (W to move) of drawn
//! positions such that
//!
//! - from a position in `Y_S`, every move of S either loses outright or is a check that leads
//!   into `Y_W`;
//! - from a position in `Y_W`, W has a move into `Y_S`.
//!
//! This module computes that greatest fixed point (starting from the drawn positions of S that
//! pass the first condition locally), for each side that can check. When only S can check it is
//! exactly what the rule decides. When W can check too, W's moves into `Y_S` may be checks, and a
//! cycle where both sides check forever is a draw, so the region is an upper bound. Either way an
//! empty region proves that every draw of the table is a true draw under the rule; a non-empty
//! one stops the generation with [`GenError::PerpetualCheckDecides`], since this format version
//! has no code for wins by rule.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use chariot::egtb::{Indexer, Signature, Value};
use chariot::{Color, Position};
use rayon::prelude::*;

use crate::generate::{GenError, Subtables, state, sub_value};
use crate::retro;

/// Header flag: the perpetual-check rule was judged for this table.
pub const FLAG_PERPETUAL_JUDGED: u8 = 1;

/// Checks the rule for a table whose retrograde passes are done (undecided = drawn): for each
/// side that has attacking pieces, as the side that might be forced to check forever.
///
/// # Errors
/// [`GenError::PerpetualCheckDecides`] when the rule may decide positions.
pub fn check(
    ix: &Indexer,
    sig: Signature,
    val: &[AtomicU16],
    subs: &Subtables,
) -> Result<u8, GenError> {
    for checker in Color::ALL {
        if sig.side(checker).has_attackers() {
            check_side(ix, sig, val, subs, checker)?;
        }
    }
    // With no attacking piece on a side, that side never checks and the rule never applies.
    Ok(FLAG_PERPETUAL_JUDGED)
}

/// The region in which `checker` (S) must check on every move or lose. For the other side (W)
/// any move into it counts, checks included: when W checks forever too, the rule calls it a
/// draw, so this region is a superset of what the rule decides, and an empty one proves that
/// the rule decides nothing.
fn check_side(
    ix: &Indexer,
    sig: Signature,
    val: &[AtomicU16],
    subs: &Subtables,
    checker: Color,
) -> Result<(), GenError> {
    let defender = checker.opponent();
    let size = ix.size();
    let state_of =
        |turn: Color, idx: u64| val[(turn.index() as u64 * size + idx) as usize].load(Relaxed);
    let position = |idx: u64| {
        let p = ix.decode(idx);
        Position::from_setup(&ix.setup(&p, checker), chariot::rules::Waivers::ALL).ok()
    };
    // S to move: may S only check, or lose?
    let only_checks = |idx: u64, yw: Option<&HashSet<u64>>| -> bool {
        let Some(mut pos) = position(idx) else {
            return false;
        };
        for &m in pos.legal_move_list().iter() {
            let check = pos.gives_check(m);
            let capture = pos.is_capture(m);
            pos.make_move(m);
            let ok = if capture {
                // A capture that loses is no escape; one that draws is (the smaller table's
                // draws are true draws, or its generation would have stopped).
                matches!(sub_value(subs, &pos), Some(Value::Win(_)))
            } else {
                match ix.index_of(&pos) {
                    Ok((turn, child)) => {
                        let s = state_of(turn, child);
                        state::is_win(s)
                            || (check && state::is_draw(s) && yw.is_none_or(|y| y.contains(&child)))
                    }
                    Err(_) => false,
                }
            };
            pos.unmake_move();
            if !ok {
                return false;
            }
        }
        true
    };
    let mut ys: HashSet<u64> = (0..size)
        .into_par_iter()
        .filter(|&i| state::is_draw(state_of(checker, i)) && only_checks(i, None))
        .collect();
    while !ys.is_empty() {
        let mut yw = HashSet::new();
        for &i in &ys {
            retro::predecessors(ix, &ix.decode(i), defender, |q| {
                if state::is_draw(state_of(defender, q)) {
                    yw.insert(q);
                }
            });
        }
        let kept: HashSet<u64> = ys
            .par_iter()
            .copied()
            .filter(|&i| only_checks(i, Some(&yw)))
            .collect();
        if kept.len() == ys.len() {
            return Err(GenError::PerpetualCheckDecides {
                table: sig,
                positions: ys.len() + yw.len(),
            });
        }
        ys = kept;
    }
    Ok(())
}
