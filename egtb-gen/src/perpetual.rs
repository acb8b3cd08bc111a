//! The perpetual-check rule, for tables where only one side can give check.
//!
//! Under the Asian rules a side that can avoid losing only by checking forever loses. Suppose
//! only side S (the side with attacking pieces) can ever give check; the other side, W, has only
//! its general, advisors and elephants and can never give check (see `docs/egtb.md`). After the
//! retrograde passes every undecided position is a draw in which both sides can keep the game
//! going forever. W wins such a draw by the rule exactly when W can force S, from some point on,
//! to give check on every move (otherwise S loses outright). That region is the largest pair of
//! sets `Y_S` (S to move) and `Y_W` (W to move) of drawn positions such that
//!
//! - from a position in `Y_S`, every move of S either loses outright or is a check that leads
//!   into `Y_W`;
//! - from a position in `Y_W`, W has a move into `Y_S`.
//!
//! This module computes that greatest fixed point (starting from the drawn positions of S that
//! pass the first condition locally) and reports how many positions it decides. An empty
//! region proves that every draw of the table is a true draw under the rule; the tables of the
//! first and second sets all come out empty. A non-empty one stops the generation with
//! [`GenError::PerpetualCheckDecides`], since this format version has no code for such wins.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use chariot::egtb::{Indexer, Signature, Value};
use chariot::{Color, Position};
use rayon::prelude::*;

use crate::generate::{GenError, Subtables, state, sub_value};
use crate::retro;

/// Header flag: the perpetual-check rule was judged for this table.
pub const FLAG_PERPETUAL_JUDGED: u8 = 1;

/// Checks the rule for a table whose retrograde passes are done (undecided = drawn).
///
/// # Errors
/// [`GenError::PerpetualCheckDecides`] when the rule decides positions.
pub fn check(
    ix: &Indexer,
    sig: Signature,
    val: &[AtomicU16],
    subs: &Subtables,
) -> Result<u8, GenError> {
    if !sig.strong.has_attackers() {
        // Nobody can give check: the rule never applies.
        return Ok(FLAG_PERPETUAL_JUDGED);
    }
    let size = ix.size();
    let state_of =
        |turn: Color, idx: u64| val[(turn.index() as u64 * size + idx) as usize].load(Relaxed);
    let position = |idx: u64| {
        let p = ix.decode(idx);
        Position::from_setup(&ix.setup(&p, Color::Red), chariot::rules::Waivers::ALL).ok()
    };
    // S (Red in the table's frame) to move: may S only check, or lose?
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
        .filter(|&i| state::is_draw(state_of(Color::Red, i)) && only_checks(i, None))
        .collect();
    while !ys.is_empty() {
        let mut yw = HashSet::new();
        for &i in &ys {
            retro::predecessors(ix, &ix.decode(i), Color::Black, |q| {
                if state::is_draw(state_of(Color::Black, q)) {
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
    Ok(FLAG_PERPETUAL_JUDGED)
}
