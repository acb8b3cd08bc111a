//! Quiet positions: where the static evaluation can be taken at its word.
//!
//! A position in the middle of an exchange (a chariot just captured, the recapture pending)
//! has a static evaluation that is off by a piece, whatever the weights; fitting weights to such
//! positions teaches them noise. Texel tuning therefore keeps quiet positions only. Here a
//! position is quiet when its side to move is not in check and no sequence of captures (a
//! quiescence search) does better than the static evaluation: the evaluation is then what the
//! engine's own quiescence search would return there.
//!
//! The search is a plain alpha-beta over captures (all moves when in check) with its own small
//! move ordering, independent of the engine's search, so that tuning data does not change when
//! the search's pruning does. A node budget bounds it: a position whose search does not finish
//! within it counts as not quiet.

use crate::evaluate;
use chariot_rules::{Kind, Move, MoveList, Position};

/// A score beyond any evaluation: the side to move is mated.
const MATE: i32 = 30_000;

/// Nodes a quietness test may search before giving up.
pub const NODE_BUDGET: u64 = 20_000;

/// Whether `pos` is quiet (see the module documentation). `pos` is returned unchanged.
#[must_use]
pub fn is_quiet(pos: &mut Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let eval = evaluate(pos);
    let mut nodes = 0;
    // A null window above the static evaluation: does any capture line beat it?
    matches!(quiescence(pos, eval, eval + 1, 0, &mut nodes), Some(v) if v <= eval)
}

/// The quiescence value of `pos` for the side to move within `(alpha, beta)` (fail-hard), `None`
/// when the node budget ran out.
///
/// Not in check, the side to move may stand pat on the static evaluation or capture; in check,
/// it must answer with any legal move, and has lost when it has none.
pub fn quiescence(
    pos: &mut Position,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    nodes: &mut u64,
) -> Option<i32> {
    *nodes += 1;
    if *nodes > NODE_BUDGET {
        return None;
    }
    let in_check = pos.in_check();
    let mut moves = MoveList::new();
    if in_check {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return Some((-MATE + ply as i32).max(alpha).min(beta));
        }
    } else {
        let stand = evaluate(pos);
        if stand >= beta {
            return Some(beta);
        }
        alpha = alpha.max(stand);
        pos.legal_captures(&mut moves);
    }
    let mut ordered: Vec<(i32, Move)> = moves.iter().map(|&m| (order(pos, m), m)).collect();
    ordered.sort_by_key(|o| std::cmp::Reverse(o.0));
    for (_, m) in ordered {
        pos.make_move(m);
        let v = quiescence(pos, -beta, -alpha, ply + 1, nodes).map(|v| -v);
        pos.unmake_move();
        let v = v?;
        if v >= beta {
            return Some(beta);
        }
        alpha = alpha.max(v);
    }
    Some(alpha)
}

/// Most valuable victim first, least valuable attacker among equals.
fn order(pos: &Position, m: Move) -> i32 {
    let value = |kind: Kind| match kind {
        Kind::General => 10,
        Kind::Chariot => 9,
        Kind::Horse | Kind::Cannon => 4,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Soldier => 1,
    };
    let victim = pos.piece_at(m.to()).map_or(0, |p| value(p.kind()));
    let attacker = pos.piece_at(m.from()).map_or(0, |p| value(p.kind()));
    victim * 16 - attacker
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::START_FEN;

    #[test]
    fn the_start_is_quiet() {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        assert!(is_quiet(&mut pos));
        assert_eq!(pos.fen(), START_FEN);
    }

    #[test]
    fn a_hanging_chariot_is_not_quiet() {
        // The chariots on a0 and a9 face each other on an open file: whoever moves takes.
        let open = "r2akab2/9/9/4p4/9/9/4P4/9/9/R2AKAB2";
        for side in ["w", "b"] {
            let mut pos = Position::from_fen(&format!("{open} {side} - - 0 1")).unwrap();
            assert!(!is_quiet(&mut pos), "{side}");
        }
        // With the file blocked by soldiers no capture gains.
        let mut pos =
            Position::from_fen("r2akab2/9/9/p3p4/9/9/P3P4/9/9/R2AKAB2 w - - 0 1").unwrap();
        assert!(is_quiet(&mut pos));
    }

    #[test]
    fn check_is_not_quiet() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/4R4/9/3K5 b - - 0 1").unwrap();
        assert!(pos.in_check());
        assert!(!is_quiet(&mut pos));
    }

    #[test]
    fn quiescence_wins_the_piece() {
        let mut pos = Position::from_fen("r2akab2/9/9/4p4/9/9/4P4/9/9/R2AKAB2 w - - 0 1").unwrap();
        let eval = evaluate(&pos);
        let mut nodes = 0;
        let v = quiescence(&mut pos, -MATE, MATE, 0, &mut nodes).unwrap();
        assert!(v > eval + 500, "{v} vs {eval}");
    }
}
