//! How well an evaluation predicts training data: the trainer's loss, for any evaluation.
//!
//! An evaluation of `cp` centipawns (side to move's view) is read as the win probability
//! `sigmoid(cp / 400)`, the scale the network's output is trained on and the one the search
//! scores of the training data are turned into. A record's target blends its score's
//! probability with the game's result (1, ½, 0 for the side to move) as `λ × score + (1 − λ) ×
//! result`, and the loss is the mean squared difference: what [`super::train`] minimises and
//! reports. The same measure applied to the quantised network as the engine evaluates it, or to
//! the hand-written evaluation, ranks evaluations on positions none of them was trained on.

use chariot_eval::nnue::network::SCALE;
use chariot_formats::training_data::Record;
use chariot_rules::Color;

/// The logistic function.
#[inline]
#[must_use]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The win probability an evaluation of `cp` centipawns stands for.
#[inline]
#[must_use]
pub fn win_probability(cp: f32) -> f32 {
    sigmoid(cp / SCALE as f32)
}

/// What a record asks an evaluation to predict, from its side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Targets {
    /// The search score's win probability.
    pub score: f32,
    /// The game's result: 1 won, ½ drawn, 0 lost.
    pub result: f32,
}

impl Targets {
    /// The targets of a record.
    #[must_use]
    pub fn of(r: &Record) -> Targets {
        let red = r.outcome.score() as f32;
        Targets {
            score: win_probability(f32::from(r.score)),
            result: if r.setup.turn == Color::Red {
                red
            } else {
                1.0 - red
            },
        }
    }

    /// The blended target: `lambda` of the score's probability, the rest of the result.
    #[inline]
    #[must_use]
    pub fn blend(&self, lambda: f32) -> f32 {
        lambda * self.score + (1.0 - lambda) * self.result
    }
}

/// Mean squared errors of an evaluation over records, against the blended target and against
/// each of its two parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    lambda: f32,
    positions: u64,
    blended: f64,
    score: f64,
    result: f64,
}

impl Loss {
    /// An empty sum for targets blended with `lambda`.
    #[must_use]
    pub fn new(lambda: f32) -> Loss {
        Loss {
            lambda,
            positions: 0,
            blended: 0.0,
            score: 0.0,
            result: 0.0,
        }
    }

    /// Counts one record, whose targets are `t`, evaluated at `cp` centipawns.
    pub fn add(&mut self, t: &Targets, cp: i32) {
        let p = win_probability(cp as f32);
        let sq = |target: f32| f64::from((p - target) * (p - target));
        self.positions += 1;
        self.blended += sq(t.blend(self.lambda));
        self.score += sq(t.score);
        self.result += sq(t.result);
    }

    /// Adds the records counted by `other` (with the same `lambda`).
    pub fn merge(&mut self, other: &Loss) {
        debug_assert_eq!(self.lambda, other.lambda);
        self.positions += other.positions;
        self.blended += other.blended;
        self.score += other.score;
        self.result += other.result;
    }

    /// The records counted.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The mean loss against the blended target (the trainer's loss); 0 when empty.
    #[must_use]
    pub fn loss(&self) -> f64 {
        self.mean(self.blended)
    }

    /// The mean loss against the search scores alone (`lambda` 1).
    #[must_use]
    pub fn score_loss(&self) -> f64 {
        self.mean(self.score)
    }

    /// The mean loss against the game results alone (`lambda` 0).
    #[must_use]
    pub fn result_loss(&self) -> f64 {
        self.mean(self.result)
    }

    fn mean(&self, total: f64) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            total / self.positions as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::DecidedResult;
    use chariot_rules::Position;

    fn record(score: i16, outcome: DecidedResult, turn_black: bool) -> Record {
        let fen = if turn_black {
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b"
        } else {
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
        };
        Record {
            setup: Position::from_fen(fen).unwrap().to_setup(),
            score,
            outcome,
            ply: 0,
        }
    }

    #[test]
    fn the_targets_are_from_the_side_to_move() {
        let red_win = Targets::of(&record(0, DecidedResult::RED_WINS, false));
        assert_eq!(
            red_win,
            Targets {
                score: 0.5,
                result: 1.0
            }
        );
        let seen_by_black = Targets::of(&record(400, DecidedResult::RED_WINS, true));
        assert_eq!(seen_by_black.result, 0.0);
        assert!((seen_by_black.score - sigmoid(1.0)).abs() < 1e-6);
        assert!((seen_by_black.blend(0.75) - 0.75 * sigmoid(1.0)).abs() < 1e-6);
    }

    #[test]
    fn the_loss_is_the_mean_squared_error_of_each_target() {
        let mut loss = Loss::new(0.5);
        assert_eq!(loss.loss(), 0.0);
        // A score of 0 (probability ½) and a won game, evaluated at 0 and at 400 centipawns.
        let t = Targets::of(&record(0, DecidedResult::RED_WINS, false));
        loss.add(&t, 0);
        loss.add(&t, 400);
        let p = f64::from(sigmoid(1.0));
        let mean = |a: f64, b: f64| (a * a + b * b) / 2.0;
        assert_eq!(loss.positions(), 2);
        assert!((loss.score_loss() - mean(0.0, p - 0.5)).abs() < 1e-7);
        assert!((loss.result_loss() - mean(0.5, 1.0 - p)).abs() < 1e-7);
        assert!((loss.loss() - mean(0.25, 0.75 - p)).abs() < 1e-7);
        // Two sums merged are the sum of their records.
        let (mut a, mut b) = (Loss::new(0.5), Loss::new(0.5));
        a.add(&t, 0);
        b.add(&t, 400);
        a.merge(&b);
        assert_eq!(a, loss);
    }
}
