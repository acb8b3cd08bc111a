//! How a reviewed game's moves are judged: pure functions of the values of the positions before
//! and after each move (`crate::review`, `docs/web-app.md` "Game review").
//!
//! A move is judged by what it costs its player in **winning chances**, as lichess judges chess
//! moves: a score becomes chances from -1 (lost) to +1 (won) through the logistic
//! `2 / (1 + e^(-cp / SCALE)) - 1`, so that a hundred centipawns lost in a level position
//! weigh more than a hundred lost in a position won or lost already. [`SCALE`] is 400
//! centipawns, the scale the engine's network learns win probabilities on
//! (`chariot_eval::nnue::network::SCALE`: a position scored `cp` wins with probability
//! `1 / (1 + e^(-cp / 400))`); lichess's chess scale is about 270 (0.00368 a centipawn), and
//! Xiangqi's pieces are worth about one and a half times chess's in centipawns (a chariot 900).
//! A mate, or a position the rules or the tables call won, is ±1.
//!
//! A drop of [`INACCURACY`] (0.1), [`MISTAKE`] (0.2) or [`BLUNDER`] (0.3) marks the move `?!`,
//! `?` or `??`: lichess's thresholds, which are 5, 10 and 15 points of the expected score in
//! percent (the chances' scale is twice as wide). From a level position they are about 80, 160
//! and 250 centipawns (a soldier, two, most of a horse); hanging a chariot is a blunder in any
//! position not already decided. A move with no other legal move (forced) or the move the
//! engine chose itself is never judged, whatever the two searches around it say.

use chariot_rules::Color;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// The centipawns of a position whose winning chance is e^-1 of the way from even to won: see
/// the module's note.
pub const SCALE: f64 = 400.0;

/// The drop in winning chances (on the -1 to +1 scale) that makes a move an inaccuracy.
pub const INACCURACY: f64 = 0.1;
/// The drop that makes it a mistake.
pub const MISTAKE: f64 = 0.2;
/// The drop that makes it a blunder.
pub const BLUNDER: f64 = 0.3;

/// The largest score counted in the average loss (centipawns), as lichess caps its average
/// centipawn loss: a move from +2500 to +1500 loses nothing that matters, and a mate counts as
/// this much.
pub const CAP: i32 = 1000;

/// A position's value from Red's side (positive: Red is better), as the review shows it:
/// `{"cp": 31}`, `{"mate": 5}` (plies, positive when Red mates, never 0) or `{"win": "red"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedScore {
    /// Centipawns.
    Cp(i32),
    /// Plies to mate: positive when Red mates, negative when Black mates; never 0.
    Mate(i32),
    /// Won for this side with no distance to mate: the game is over (mate on the board, a loss
    /// by the rules) or the tables win it by conversion or by the perpetual-check rule.
    Win(Color),
}

impl Serialize for RedScore {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        match *self {
            RedScore::Cp(cp) => map.serialize_entry("cp", &cp)?,
            RedScore::Mate(plies) => map.serialize_entry("mate", &plies)?,
            RedScore::Win(side) => map.serialize_entry("win", crate::sides::side_name(side))?,
        }
        map.end()
    }
}

/// +1 for Red, -1 for Black: the sign that turns a value from Red's side into `side`'s.
fn sign(side: Color) -> i32 {
    match side {
        Color::Red => 1,
        Color::Black => -1,
    }
}

impl RedScore {
    /// The value `cp` centipawns has for `side` (its own view), from Red's side.
    #[must_use]
    pub fn cp_for(side: Color, cp: i32) -> RedScore {
        RedScore::Cp(cp * sign(side))
    }

    /// `side` mates in `plies` (negative: it is mated in `-plies`), from Red's side; a mate in 0
    /// (mated now) is the other side's win.
    #[must_use]
    pub fn mate_for(side: Color, plies: i32) -> RedScore {
        if plies == 0 {
            RedScore::Win(side.opponent())
        } else {
            RedScore::Mate(plies * sign(side))
        }
    }

    /// Red's winning chances, from -1 (Black wins) to +1 (Red wins).
    #[must_use]
    pub fn red_chances(self) -> f64 {
        match self {
            RedScore::Cp(cp) => 2.0 / (1.0 + (-f64::from(cp) / SCALE).exp()) - 1.0,
            RedScore::Mate(plies) => f64::from(plies.signum()),
            RedScore::Win(side) => f64::from(sign(side)),
        }
    }

    /// The centipawns counted in an average loss, from Red's side: within ±[`CAP`], mates and
    /// wins at the cap.
    #[must_use]
    pub fn capped(self) -> i32 {
        match self {
            RedScore::Cp(cp) => cp.clamp(-CAP, CAP),
            RedScore::Mate(plies) => CAP * plies.signum(),
            RedScore::Win(side) => CAP * sign(side),
        }
    }
}

/// What a move is judged to be when it costs its player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// `?!`: a drop of at least [`INACCURACY`].
    Inaccuracy,
    /// `?`: at least [`MISTAKE`].
    Mistake,
    /// `??`: at least [`BLUNDER`].
    Blunder,
}

impl Judgement {
    /// The judgement of a drop in winning chances, `None` below [`INACCURACY`].
    #[must_use]
    pub fn of_drop(drop: f64) -> Option<Judgement> {
        if drop >= BLUNDER {
            Some(Judgement::Blunder)
        } else if drop >= MISTAKE {
            Some(Judgement::Mistake)
        } else if drop >= INACCURACY {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// Its mark in the move list: `?!`, `?` or `??`.
    #[must_use]
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

/// What kind of move was played, as far as judging goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// The only move the player had (every other was illegal or forbidden).
    Forced,
    /// The move the engine chose in the position before it.
    Best,
    /// Another move.
    Other,
}

/// A move judged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Centipawns the player lost (0 or more), scores capped at ±[`CAP`].
    pub loss: i32,
    /// Winning chances the player lost, 0 to 2.
    pub drop: f64,
    /// `None` for a move that costs less than an inaccuracy (and for every forced or best move).
    pub judgement: Option<Judgement>,
    /// lichess's accuracy of the move, 0 to 100 ([`accuracy`]).
    pub accuracy: f64,
    /// Whether the move counts in its side's average loss and accuracy (a forced move does not).
    pub counted: bool,
}

/// lichess's accuracy of a move that loses `drop` winning chances (on the -1 to +1 scale):
/// `103.1668 e^(-0.04354 d) - 3.1669` for a drop of `d` points of the win percentage
/// (`d = 50 drop`), within 0 to 100: 100 for a move that loses nothing, about 80 for an
/// inaccuracy, 64 for a mistake and 51 for a blunder at the thresholds.
#[must_use]
pub fn accuracy(drop: f64) -> f64 {
    let points = 50.0 * drop.max(0.0);
    (103.166_8 * (-0.043_54 * points).exp() - 3.166_9).clamp(0.0, 100.0)
}

/// Judges a move of `mover` from a position valued `before` to one valued `after` (both from
/// Red's side).
#[must_use]
pub fn judge(before: RedScore, after: RedScore, mover: Color, played: Played) -> Verdict {
    if played != Played::Other {
        return Verdict {
            loss: 0,
            drop: 0.0,
            judgement: None,
            accuracy: 100.0,
            counted: played == Played::Best,
        };
    }
    let s = sign(mover);
    let drop = (f64::from(s) * (before.red_chances() - after.red_chances())).max(0.0);
    let loss = (s * (before.capped() - after.capped())).max(0);
    Verdict {
        loss,
        drop,
        judgement: Judgement::of_drop(drop),
        accuracy: accuracy(drop),
        counted: true,
    }
}

/// One side's moves in a review, summed up.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Moves judged so far (forced moves included).
    pub moves: usize,
    /// Inaccuracies (`?!`).
    pub inaccuracies: usize,
    /// Mistakes (`?`).
    pub mistakes: usize,
    /// Blunders (`??`).
    pub blunders: usize,
    /// The mean centipawn loss of the counted moves (forced moves are not), rounded; `None`
    /// before the first.
    pub average_loss: Option<i32>,
    /// The mean of the counted moves' [`accuracy`], to a tenth; `None` before the first.
    pub accuracy: Option<f64>,
}

/// Both sides' summaries.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Red's moves.
    pub red: SideSummary,
    /// Black's moves.
    pub black: SideSummary,
}

/// Sums up the verdicts of the moves, each with its mover.
#[must_use]
pub fn summarise<'a>(verdicts: impl IntoIterator<Item = (Color, &'a Verdict)>) -> Summary {
    #[derive(Default)]
    struct Sums {
        summary: SideSummary,
        counted: u32,
        loss: i64,
        accuracy: f64,
    }
    let mut red = Sums::default();
    let mut black = Sums::default();
    for (mover, v) in verdicts {
        let sums = match mover {
            Color::Red => &mut red,
            Color::Black => &mut black,
        };
        sums.summary.moves += 1;
        match v.judgement {
            Some(Judgement::Inaccuracy) => sums.summary.inaccuracies += 1,
            Some(Judgement::Mistake) => sums.summary.mistakes += 1,
            Some(Judgement::Blunder) => sums.summary.blunders += 1,
            None => {}
        }
        if v.counted {
            sums.counted += 1;
            sums.loss += i64::from(v.loss);
            sums.accuracy += v.accuracy;
        }
    }
    let finish = |sums: Sums| {
        let n = f64::from(sums.counted);
        SideSummary {
            average_loss: (sums.counted > 0)
                .then(|| i32::try_from((sums.loss as f64 / n).round() as i64).unwrap_or(CAP)),
            accuracy: (sums.counted > 0).then(|| (10.0 * sums.accuracy / n).round() / 10.0),
            ..sums.summary
        }
    };
    Summary {
        red: finish(red),
        black: finish(black),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED: Color = Color::Red;
    const BLACK: Color = Color::Black;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-3
    }

    #[test]
    fn chances_are_a_logistic_of_the_score_symmetric_and_bounded_by_mates() {
        assert!(close(RedScore::Cp(0).red_chances(), 0.0));
        // 400 cp is e to one against, as the network's scale says: 2 / (1 + 1/e) - 1.
        assert!(close(RedScore::Cp(400).red_chances(), 0.462_117));
        assert!(close(
            RedScore::Cp(-250).red_chances(),
            -RedScore::Cp(250).red_chances()
        ));
        assert!(RedScore::Cp(5000).red_chances() < 1.0);
        assert!(close(RedScore::Mate(7).red_chances(), 1.0));
        assert!(close(RedScore::Mate(-2).red_chances(), -1.0));
        assert!(close(RedScore::Win(BLACK).red_chances(), -1.0));
        // Mated now is the other side's win; a side's score turns with its colour.
        assert_eq!(RedScore::mate_for(RED, 0), RedScore::Win(BLACK));
        assert_eq!(RedScore::mate_for(BLACK, 3), RedScore::Mate(-3));
        assert_eq!(RedScore::cp_for(BLACK, 120), RedScore::Cp(-120));
        assert_eq!(RedScore::Mate(-9).capped(), -CAP);
        assert_eq!(RedScore::Cp(1800).capped(), CAP);
    }

    #[test]
    fn the_thresholds_from_a_level_position_in_centipawns() {
        // The scores a move from 0 must fall to for each judgement (the module's note).
        let lost = |cp: i32| judge(RedScore::Cp(0), RedScore::Cp(-cp), RED, Played::Other);
        assert_eq!(lost(70).judgement, None);
        assert_eq!(lost(85).judgement, Some(Judgement::Inaccuracy));
        assert_eq!(lost(155).judgement, Some(Judgement::Inaccuracy));
        assert_eq!(lost(170).judgement, Some(Judgement::Mistake));
        assert_eq!(lost(240).judgement, Some(Judgement::Mistake));
        assert_eq!(lost(255).judgement, Some(Judgement::Blunder));
        assert_eq!(lost(255).loss, 255);
    }

    #[test]
    fn hanging_a_chariot_is_a_blunder_for_either_side_and_a_gain_is_no_loss() {
        // Black's move: from Black's side -0.3 to +9 for Red is Black's loss.
        let v = judge(RedScore::Cp(-30), RedScore::Cp(880), BLACK, Played::Other);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
        assert_eq!(v.loss, 910);
        assert!(v.drop > 0.8 && v.accuracy < 20.0, "{v:?}");
        // The same swing is Red's gain when Red moved: nothing lost.
        let v = judge(RedScore::Cp(-30), RedScore::Cp(880), RED, Played::Other);
        assert_eq!((v.loss, v.judgement), (0, None));
        assert!(close(v.accuracy, 100.0) && v.drop == 0.0);
    }

    #[test]
    fn a_decided_position_loses_little_in_centipawns_but_a_mate_walked_into_is_a_blunder() {
        // Won either way: a thousand centipawns less is no mistake.
        let v = judge(RedScore::Cp(2600), RedScore::Cp(1600), RED, Played::Other);
        assert_eq!(v.judgement, None, "{v:?}");
        // Lost either way: the same.
        let v = judge(RedScore::Cp(-1500), RedScore::Mate(-9), RED, Played::Other);
        assert_eq!(v.judgement, None, "{v:?}");
        // From level into a forced mate: the whole chance.
        let v = judge(RedScore::Cp(20), RedScore::Mate(-5), RED, Played::Other);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
        assert_eq!(v.loss, 20 + CAP);
        // A won game thrown away by a move into the opponent's win by the rules.
        let v = judge(RedScore::Mate(3), RedScore::Win(BLACK), RED, Played::Other);
        assert!(close(v.drop, 2.0) && v.accuracy == 0.0, "{v:?}");
    }

    #[test]
    fn forced_and_best_moves_are_never_judged() {
        // The searches around them may disagree; the move is still not the player's fault.
        let forced = judge(RedScore::Cp(0), RedScore::Mate(-3), RED, Played::Forced);
        assert_eq!(
            (forced.judgement, forced.loss, forced.counted),
            (None, 0, false)
        );
        let best = judge(RedScore::Cp(40), RedScore::Cp(-200), RED, Played::Best);
        assert_eq!((best.judgement, best.loss, best.counted), (None, 0, true));
        assert!(close(best.accuracy, 100.0));
    }

    #[test]
    fn lichess_accuracy_at_the_thresholds() {
        assert!(close(accuracy(0.0), 100.0));
        assert!(
            (accuracy(INACCURACY) - 79.8).abs() < 0.05,
            "{}",
            accuracy(0.1)
        );
        assert!((accuracy(MISTAKE) - 63.6).abs() < 0.05, "{}", accuracy(0.2));
        assert!((accuracy(BLUNDER) - 50.5).abs() < 0.05, "{}", accuracy(0.3));
        assert!(close(accuracy(2.0), 0.0));
    }

    #[test]
    fn a_summary_counts_each_sides_marks_and_averages_the_counted_moves() {
        let moves = [
            (
                RED,
                judge(RedScore::Cp(0), RedScore::Cp(0), RED, Played::Best),
            ),
            (
                BLACK,
                judge(RedScore::Cp(0), RedScore::Cp(900), BLACK, Played::Other),
            ),
            (
                RED,
                judge(RedScore::Cp(900), RedScore::Cp(800), RED, Played::Other),
            ),
            (
                BLACK,
                judge(RedScore::Cp(800), RedScore::Cp(800), BLACK, Played::Forced),
            ),
        ];
        let s = summarise(moves.iter().map(|(c, v)| (*c, v)));
        assert_eq!(
            (
                s.red.moves,
                s.red.inaccuracies + s.red.mistakes,
                s.red.blunders
            ),
            (2, 0, 0),
            "{s:?}"
        );
        assert_eq!(s.red.average_loss, Some(50));
        assert_eq!((s.black.moves, s.black.blunders), (2, 1));
        // The forced move is not counted: Black's one counted move lost 900.
        assert_eq!(s.black.average_loss, Some(900));
        assert!(s.black.accuracy.unwrap() < 20.0);
        assert_eq!(summarise([]).red.accuracy, None);
        assert_eq!(
            serde_json::to_string(&RedScore::Win(BLACK)).unwrap(),
            r#"{"win":"black"}"#
        );
        assert_eq!(
            serde_json::to_string(&RedScore::Mate(-4)).unwrap(),
            r#"{"mate":-4}"#
        );
    }
}
