//! ChessDB's numbers from this server's knowledge: a book move's score from its games, a
//! table value's score, the search's score, the win rate and the `rank` of a move
//! (`docs/web-api.md`, "The ChessDB endpoint", says the same in prose).
//!
//! ChessDB scores are centipawn-like and for the side to move; a position decided by mate is
//! 30000 less the plies to mate (negated when the side to move is mated), and its win rate is
//! the logistic `100 / (1 + e^(-score / 330))`, given only for scores under 10000 in size.
//! Book scores here are that logistic turned round: a move whose games scored `p` for the side
//! that played it gets `330 ln(p / (1 - p))`, so that its win rate is `p` itself. `p` counts a
//! win 1 and a draw (or a game without a result) ½, and adds [`PRIOR_DRAWS`] drawn games to
//! every move's own: a move won in its only 4 games is no better than a draw proved in
//! thousands of games, and its score grows with the evidence (`(points + 50) / (games + 100)`).

use chariot_engine::search::Score;
use chariot_formats::book::MoveStats;
use chariot_formats::egtb::{Metric, Value, Wdl};
use chariot_rules::Color;

use crate::chessdb_reply::NoteBody;

/// The scale of ChessDB's win rate: a score of 330 wins 73 % of the time.
const LOGISTIC_SCALE: f64 = 330.0;

/// The drawn games added to every book move's own before its score is taken: the weight of
/// the prior belief that a book move holds the balance. Fewer let a handful of won games put a
/// sideline above the main line (with 2, Laplace's rule, the start position's best move would
/// be an advisor's move that won 3 and drew 1 of its 4 games).
pub const PRIOR_DRAWS: f64 = 100.0;

/// A position decided by mate scores `MATE - plies` for the winner.
pub const MATE: i32 = 30_000;

/// A position won or lost without a mate distance (a value decided by the perpetual-check
/// rule, a table win the search came upon) scores this, for the winner.
pub const NO_DISTANCE_WIN: i32 = 20_000;

/// Scores at least this large (in size) are wins or losses: they get no win rate.
const DECIDED: i32 = 10_000;

/// Book scores stay below [`DECIDED`]: no number of games makes a book move a certain win.
const BOOK_LIMIT: i32 = DECIDED - 1;

/// The side to move's chance of winning in percent for a score, `None` for a decided one.
#[must_use]
pub fn winrate(score: i32) -> Option<f64> {
    (score.abs() < DECIDED).then(|| 100.0 / (1.0 + (-f64::from(score) / LOGISTIC_SCALE).exp()))
}

/// The score of a book move from its games, for `mover` (who plays it): see the module notes.
/// A move without games scores 0.
#[must_use]
pub fn book_score(stats: &MoveStats, mover: Color) -> i32 {
    let (wins, losses) = stats.wins_losses(mover);
    let draws = stats.games.saturating_sub(wins.saturating_add(losses));
    let points = f64::from(wins) + f64::from(draws) / 2.0;
    let p = (points + PRIOR_DRAWS / 2.0) / (f64::from(stats.games) + PRIOR_DRAWS);
    let cp = LOGISTIC_SCALE * (p / (1.0 - p)).ln();
    // `p` lies strictly between 0 and 1, so `cp` is finite; the clamp keeps it a book score.
    (cp.round() as i32).clamp(-BOOK_LIMIT, BOOK_LIMIT)
}

/// ChessDB's margin for a good move: moves scoring at least this, given the best move's score,
/// are `rank` 1 or better.
fn good_margin(best: i32) -> i32 {
    if best >= 50 {
        best
    } else if best >= -30 {
        let best = f64::from(best);
        (best - 20.0 / (1.0 + (-best.abs() / 10.0).exp())) as i32
    } else {
        -50
    }
}

/// ChessDB's margin for a best move: moves scoring at least this (and the good margin) are
/// `rank` 2.
fn best_margin(best: i32) -> i32 {
    if (-30..50).contains(&best) {
        let best = f64::from(best);
        (best - 10.0 / (1.0 + (-best.abs() / 20.0).exp())) as i32
    } else {
        best
    }
}

/// ChessDB's `rank` of a move scoring `score` where the best move scores `best`: 2 for the
/// best moves (within a few points of the best when the position is about level), 1 for the
/// good ones, 0 for the others. A clear advantage leaves only the best move good.
#[must_use]
pub fn rank(score: i32, best: i32) -> u8 {
    let good = good_margin(best);
    if score >= good && score >= best_margin(best) {
        2
    } else if score >= good {
        1
    } else {
        0
    }
}

/// How many of `scores` (a position's book moves) are good: `rank` 1 or 2.
#[must_use]
pub fn good_count(scores: &[i32]) -> usize {
    let Some(&best) = scores.iter().max() else {
        return 0;
    };
    scores.iter().filter(|&&s| rank(s, best) >= 1).count()
}

/// The score of a table value for the side to move: `MATE - plies` for a win by mate (the plies
/// counted from the position queried, the move included), `plies - MATE` for a loss, 0 for a
/// draw, and ±[`NO_DISTANCE_WIN`] for a value the perpetual-check rule decides.
#[must_use]
pub fn table_score(value: Value) -> i32 {
    let plies = |d: u32| i32::try_from(d).unwrap_or(MATE).min(MATE);
    match value {
        Value::Win(d) => MATE - plies(d),
        Value::Loss(d) => plies(d) - MATE,
        Value::Draw => 0,
        Value::RuleWin(_) => NO_DISTANCE_WIN,
        Value::RuleLoss(_) => -NO_DISTANCE_WIN,
    }
}

/// The note of a table move: `W`/`D`/`L`, the metric (`M` to mate, `C` to conversion, `R` by
/// the perpetual-check rule) and the plies.
#[must_use]
pub fn table_note(value: Value, metric: Metric) -> NoteBody {
    let wdl = match value.wdl() {
        Wdl::Win => 'W',
        Wdl::Draw => 'D',
        Wdl::Loss => 'L',
    };
    let (metric, plies) = match value {
        Value::Win(d) | Value::Loss(d) => (
            match metric {
                Metric::Dtm => 'M',
                Metric::Dtc => 'C',
            },
            d,
        ),
        Value::Draw => ('M', 0),
        Value::RuleWin(_) | Value::RuleLoss(_) => ('R', 0),
    };
    NoteBody::Table { wdl, metric, plies }
}

/// The rank of a table move of value `value` where the best is `best`: 2 for the best value,
/// 1 for a move with the same result (a slower win, a drawing move when the best draws too, a
/// quicker loss), 0 for a worse result.
#[must_use]
pub fn table_rank(value: Value, best: Value) -> u8 {
    if value == best {
        2
    } else if value.wdl() == best.wdl() {
        1
    } else {
        0
    }
}

/// The search's score on ChessDB's scale: centipawns as they are (a table win the search came
/// upon as ±[`NO_DISTANCE_WIN`]), a mate as `MATE - plies`.
#[must_use]
pub fn search_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-NO_DISTANCE_WIN, NO_DISTANCE_WIN),
        Score::Mate(p) if p > 0 => MATE - p.min(MATE),
        Score::Mate(p) => -MATE - p.max(-MATE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(games: u32, red_wins: u32, draws: u32, black_wins: u32) -> MoveStats {
        MoveStats {
            games,
            red_wins,
            draws,
            black_wins,
            mean_elo: 0,
        }
    }

    #[test]
    fn a_book_score_is_the_logistic_of_its_games_and_its_winrate_their_score() {
        // Even games score 0 and win half the time.
        assert_eq!(book_score(&stats(10, 3, 4, 3), Color::Red), 0);
        assert_eq!(winrate(0), Some(50.0));
        // No games: nothing known, 0.
        assert_eq!(book_score(&stats(0, 0, 0, 0), Color::Black), 0);
        // 8 wins in 8 games: p = (8 + 50) / 108, 330 ln(58 / 50) = 49.
        let s = book_score(&stats(8, 8, 0, 0), Color::Red);
        assert_eq!(s, 49);
        assert!((winrate(s).unwrap() - 5800.0 / 108.0).abs() < 0.01);
        // The same games seen by Black, who lost them all.
        assert_eq!(book_score(&stats(8, 8, 0, 0), Color::Black), -49);
        // Many games never make a certain win: 330 ln((2^30 + 50) / 50) = 5571.
        assert_eq!(
            book_score(&stats(1 << 30, 1 << 30, 0, 0), Color::Red),
            5_571
        );
        assert!(winrate(BOOK_LIMIT).is_some());
        assert_eq!(winrate(MATE - 3), None);
    }

    #[test]
    fn ranks_follow_chessdb_margins() {
        // A level position: the best and those within its margin are best, a few points more
        // are good, the rest not.
        assert_eq!(rank(5, 5), 2);
        assert_eq!(rank(0, 5), 2);
        assert_eq!(rank(-2, 5), 1);
        assert_eq!(rank(-10, 5), 0);
        // A clear advantage: only the best score is best, and nothing else is good.
        assert_eq!(rank(120, 120), 2);
        assert_eq!(rank(119, 120), 0);
        // A bad position: only moves of -50 or better are good, so a best move worse than
        // that is no good either (ChessDB marks it `?`).
        assert_eq!(rank(-100, -100), 0);
        assert_eq!(rank(-49, -200), 2);
        assert_eq!(rank(-45, -40), 1);
        assert_eq!(rank(-60, -40), 0);
        assert_eq!(good_count(&[5, 0, -2, -10]), 3);
        assert_eq!(good_count(&[]), 0);
    }

    #[test]
    fn table_and_search_scores() {
        assert_eq!(table_score(Value::Win(3)), 29_997);
        assert_eq!(table_score(Value::Loss(4)), -29_996);
        assert_eq!(table_score(Value::Draw), 0);
        assert_eq!(
            table_note(Value::Win(11), Metric::Dtm),
            NoteBody::Table {
                wdl: 'W',
                metric: 'M',
                plies: 11
            }
        );
        assert_eq!(table_rank(Value::Win(5), Value::Win(3)), 1);
        assert_eq!(table_rank(Value::Draw, Value::Win(3)), 0);
        assert_eq!(table_rank(Value::Loss(2), Value::Loss(8)), 1);
        assert_eq!(search_score(Score::Cp(37)), 37);
        assert_eq!(search_score(Score::Mate(5)), 29_995);
        assert_eq!(search_score(Score::Mate(-4)), -29_996);
        assert_eq!(search_score(Score::Mate(0)), -30_000);
        assert_eq!(search_score(Score::Cp(31_500)), NO_DISTANCE_WIN);
    }
}
