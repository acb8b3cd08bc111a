//! Resigning, offering and accepting draws: what the engine adds to its move in a game.
//!
//! The engine remembers the score of each of its searches in the game. It resigns when it has
//! been lost (at or below [`RESIGN_SCORE`], or mated) for [`RESIGN_MOVES`] moves in a row, or
//! when it sees itself mated and the last two scores were lost. It accepts an offered draw when
//! it is not better (score at most [`DRAW_MARGIN`]), and offers one when the score is dead even
//! and either nobody has a piece that can cross the river or the game has gone 40 plies without
//! a capture with the scores near zero for [`DRAW_OFFER_MOVES`] moves.

use chariot_rules::{Color, Kind, Piece, Position};

/// Scores within this many centipawns of zero are "dead even" for draw offers.
pub const DRAW_MARGIN: i32 = 20;
/// A side this far behind (or mated) on consecutive moves resigns.
pub const RESIGN_SCORE: i32 = -1500;
/// How many consecutive own moves the resign condition must hold.
pub const RESIGN_MOVES: usize = 4;
/// How many consecutive own moves the scores must stay near zero for a draw offer.
pub const DRAW_OFFER_MOVES: usize = 10;

/// What the engine remembers of the game between its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameMemory {
    /// Scores of its searches, in centipawns from its side (mates as ±10,000 less the plies).
    scores: Vec<i32>,
}

/// What goes with the move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Resign instead of playing on.
    pub resign: bool,
    /// Offer a draw, or accept the one offered.
    pub draw: bool,
}

impl GameMemory {
    /// Records the score of a search (centipawns from the engine's side; `mated` when the
    /// search sees itself mated) and says whether to resign or offer or accept a draw in `pos`,
    /// the position the move is played from.
    pub fn after_search(
        &mut self,
        score: i32,
        mated: bool,
        pos: &Position,
        draw_offered: bool,
    ) -> Verdict {
        self.scores.push(score);
        let recent = |n: usize, f: &dyn Fn(i32) -> bool| {
            self.scores.len() >= n && self.scores[self.scores.len() - n..].iter().all(|&s| f(s))
        };
        let lost = recent(RESIGN_MOVES, &|s| s <= RESIGN_SCORE) || (mated && score <= RESIGN_SCORE);
        if lost && recent(2, &|s| s <= RESIGN_SCORE) {
            return Verdict {
                resign: true,
                draw: false,
            };
        }
        let dead_even = score.abs() <= DRAW_MARGIN;
        let draw = (draw_offered && score <= DRAW_MARGIN)
            || (dead_even
                && (no_attackers(pos)
                    || (recent(DRAW_OFFER_MOVES, &|s| s.abs() <= DRAW_MARGIN / 2)
                        && pos.halfmoves() >= 40)));
        Verdict {
            resign: false,
            draw,
        }
    }
}

/// `true` when neither side has a piece that can cross the river: nobody can ever win.
#[must_use]
pub fn no_attackers(pos: &Position) -> bool {
    Color::ALL.iter().all(|&c| {
        [Kind::Horse, Kind::Chariot, Kind::Cannon, Kind::Soldier]
            .iter()
            .all(|&k| pos.pieces(Piece::new(c, k)).is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position {
        Position::start()
    }

    #[test]
    fn resigns_after_four_lost_moves_or_when_mated_after_two() {
        let mut m = GameMemory::default();
        for _ in 0..3 {
            assert!(!m.after_search(-1600, false, &start(), false).resign);
        }
        assert!(m.after_search(-1600, false, &start(), false).resign);
        // One better score resets the count.
        let mut m = GameMemory::default();
        for s in [-1600, -1600, -1600, -200] {
            assert!(!m.after_search(s, false, &start(), false).resign);
        }
        // Mated: two lost scores suffice.
        let mut m = GameMemory::default();
        assert!(!m.after_search(-9990, true, &start(), false).resign);
        assert!(m.after_search(-9988, true, &start(), false).resign);
        // Just above the threshold never resigns.
        let mut m = GameMemory::default();
        for _ in 0..10 {
            assert!(
                !m.after_search(RESIGN_SCORE + 1, false, &start(), false)
                    .resign
            );
        }
    }

    #[test]
    fn accepts_a_draw_unless_better_and_offers_one_only_when_nothing_can_win() {
        let mut m = GameMemory::default();
        assert!(m.after_search(DRAW_MARGIN, false, &start(), true).draw);
        assert!(
            m.after_search(-300, false, &start(), true).draw,
            "worse: accept"
        );
        assert!(
            !m.after_search(DRAW_MARGIN + 1, false, &start(), true).draw,
            "better: play on"
        );
        // Dead even from the start: no offer (both sides can still win).
        let mut m = GameMemory::default();
        assert!(!m.after_search(0, false, &start(), false).draw);
        // Generals, advisors and elephants only: offered at once.
        let bare = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1").unwrap();
        assert!(no_attackers(&bare));
        assert!(m.after_search(0, false, &bare, false).draw);
        assert!(!m.after_search(DRAW_MARGIN + 1, false, &bare, false).draw);
    }

    #[test]
    fn offers_a_draw_after_ten_quiet_even_moves_without_a_capture() {
        let quiet = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 40 30",
        )
        .unwrap();
        let mut m = GameMemory::default();
        for _ in 0..DRAW_OFFER_MOVES - 1 {
            assert!(!m.after_search(5, false, &quiet, false).draw);
        }
        assert!(m.after_search(5, false, &quiet, false).draw);
        // The same scores with a capture 39 plies ago: no offer.
        let recent = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 39 30",
        )
        .unwrap();
        let mut m = GameMemory::default();
        for _ in 0..DRAW_OFFER_MOVES + 2 {
            assert!(!m.after_search(5, false, &recent, false).draw);
        }
    }
}
