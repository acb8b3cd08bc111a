//! Repetitions and the natural move limit inside the search.

use super::score::tb_rule_win_at;
use chariot_rules::Position;
use chariot_rules::judge::repetition_verdict;

/// Plies without a capture after which the game is drawn (the natural move limit: 60 moves each).
pub(crate) const NATURAL_LIMIT: u32 = 120;

/// The score of the side to move when the current position repeats an earlier one, or `None`.
///
/// The position's own history is searched backwards through the plies since the last capture
/// (`halfmoves`; no earlier position can recur), looking at every second entry (the same side to
/// move) from four plies back, for `pos.key()`. A null move ends the scan: positions before it
/// were not reached by real moves. The search's own moves and the game moves before the root
/// are treated alike.
///
/// The first repetition is judged by the rules core's [`repetition_verdict`] over the cycle: a
/// side that perpetually checks (or, failing that, perpetually chases) while the other does not
/// loses, scored as a win by the rule at this ply, the tablebases' score for wins by the
/// perpetual-check rule ([`tb_rule_win_at`]): a win below every mate, so that a GUI is never
/// told `mate 1` for a move that only completes the opponent's forbidden repetition; otherwise
/// it is a draw (`draw`, the draw score from the side to move's view, which includes contempt).
/// So the engine neither walks into a forbidden perpetual nor lets the opponent get away with
/// one.
#[inline]
pub(crate) fn repetition_score(pos: &Position, draw: i32, ply: usize) -> Option<i32> {
    let history = pos.history();
    let key = pos.key();
    let len = history.len();
    let reach = (pos.halfmoves() as usize).min(len);
    for back in 1..=reach {
        let undo = &history[len - back];
        // A null move breaks the chain of real moves: nothing before it counts.
        if undo.mv.is_none() {
            return None;
        }
        if back >= 4 && back % 2 == 0 && undo.key == key {
            let loser = repetition_verdict(pos, len - back).and_then(|v| v.loser());
            return Some(match loser {
                Some(c) if c == pos.turn() => -tb_rule_win_at(ply),
                Some(_) => tb_rule_win_at(ply),
                None => draw,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Move;

    fn play(pos: &mut Position, moves: &[&str]) {
        for m in moves {
            let mv: Move = pos
                .legal_move_list()
                .iter()
                .copied()
                .find(|x| x.to_string() == *m)
                .unwrap();
            pos.make_move(mv);
        }
    }

    #[test]
    fn detects_a_repetition_after_four_plies() {
        let mut pos = Position::start();
        play(&mut pos, &["h0g2", "h9g7", "g2h0"]);
        assert_eq!(repetition_score(&pos, 7, 4), None);
        play(&mut pos, &["g7h9"]);
        assert_eq!(repetition_score(&pos, 7, 4), Some(7));
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        play(&mut pos, &["a0a9", "d9d8", "a9a8", "d8d9"]);
        // Not yet: the position after a0a9 has not recurred.
        assert_eq!(repetition_score(&pos, 0, 4), None);
        play(&mut pos, &["a8a9"]);
        // Red checked with every move of the cycle, Black (to move) did not: Red loses.
        assert_eq!(repetition_score(&pos, 0, 5), Some(tb_rule_win_at(5)));
        play(&mut pos, &["d9d8"]);
        assert_eq!(repetition_score(&pos, 0, 6), Some(-tb_rule_win_at(6)));
    }

    #[test]
    fn a_null_move_ends_the_scan() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        play(&mut pos, &["a0a1", "d9d8", "a1a0", "d8d9"]);
        assert_eq!(repetition_score(&pos, 0, 4), Some(0));
        // Passing twice also restores the start position, but not by real moves.
        let mut fresh = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        play(&mut fresh, &["a0a1"]);
        fresh.make_null();
        play(&mut fresh, &["a1a0"]);
        fresh.make_null();
        assert_eq!(fresh.key(), fresh.history()[0].key);
        assert_eq!(repetition_score(&fresh, 0, 4), None);
    }
}
