//! Repetitions and the natural move limit inside the search.

use crate::rules::Position;

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
/// For now every repetition scores `draw` (the draw score from the side to move's view, which
/// includes contempt). Xiangqi's rules are stricter: a side that repeats by perpetual check or
/// perpetual chase loses. The rules core is getting
/// `chariot::rules::judge::repetition_verdict(pos, cycle_start) -> Option<Verdict>`, which names
/// the side at fault in the cycle that starts at history index `cycle_start`; this function then
/// only has to map that verdict to a loss for that side (`mated_in(ply)` or its negation), and
/// to `draw` when nobody is at fault. `cycle_start` below is that index: the history entry whose
/// key is the position that recurs.
#[inline]
pub(crate) fn repetition_score(pos: &Position, draw: i32) -> Option<i32> {
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
            let _cycle_start = len - back;
            return Some(draw);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;

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
        assert_eq!(repetition_score(&pos, 7), None);
        play(&mut pos, &["g7h9"]);
        assert_eq!(repetition_score(&pos, 7), Some(7));
    }

    #[test]
    fn a_null_move_ends_the_scan() {
        let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        play(&mut pos, &["a0a1", "d9d8", "a1a0", "d8d9"]);
        assert_eq!(repetition_score(&pos, 0), Some(0));
        // Passing twice also restores the start position, but not by real moves.
        let mut fresh = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        play(&mut fresh, &["a0a1"]);
        fresh.make_null();
        play(&mut fresh, &["a1a0"]);
        fresh.make_null();
        assert_eq!(fresh.key(), fresh.history()[0].key);
        assert_eq!(repetition_score(&fresh, 0), None);
    }
}
