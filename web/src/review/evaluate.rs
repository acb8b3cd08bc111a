//! One position of a reviewed game valued, in this order: by the rules when the game is over
//! there (a mate on the board, a loss by perpetual check, a draw by repetition); exactly by the
//! endgame tables when they cover it (a distance to mate, or a draw); else by a search of a
//! fixed number of nodes on one thread, so that a review says the same on every machine. The
//! engine's best move and its line come from the same engine (from the tables' line where
//! they decide the position), never a forbidden repetition.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use chariot_engine::api::{Engine, Event, GoRequest, Source as AnswerSource};
use chariot_engine::search::score::TB_BOUND;
use chariot_engine::search::{Limits, Options, Report, Score};
use chariot_formats::book::BookSet;
use chariot_formats::egtb::{Metric, Tablebases, Value};
use chariot_rules::{Ending, JudgeConfig, Move, Position, forbidden_moves, judge};
use serde::Serialize;

use super::judge::RedScore;

/// The most plies of the engine's line a review keeps for each position.
pub const LINE_PLIES: usize = 12;

/// The hash table of a review's engine (MiB), kept from one position to the next.
const HASH_MB: usize = 16;

/// Where a position's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The game is over in it by the rules.
    End,
    /// The endgame tables (exact).
    Tables,
    /// The search.
    Search,
}

/// A position valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Its value from Red's side.
    pub score: RedScore,
    /// Where the value came from.
    pub source: Source,
    /// The engine's move, `None` when the game is over.
    pub best: Option<Move>,
    /// The engine's line from the best move (at most [`LINE_PLIES`]).
    pub line: Vec<Move>,
    /// The search's depth (0 when it did not search).
    pub depth: u32,
    /// The nodes it searched.
    pub nodes: u64,
    /// How many moves the side to move may play (legal and not forbidden).
    pub choices: usize,
}

/// Why a position has no value.
#[derive(Debug, thiserror::Error)]
pub enum EvaluateError {
    /// The review was cancelled while the position was searched.
    #[error("cancelled")]
    Cancelled,
    /// The engine could not search.
    #[error("the engine failed: {0}")]
    Engine(String),
}

/// Values the positions of one game, one after the other, with one engine whose hash table
/// carries over from a position to the next.
pub struct Evaluator {
    engine: Engine,
    tables: Arc<Tablebases>,
    limits: Limits,
    /// Whether a search may have been ended by the time cap rather than its node budget.
    timed: bool,
}

impl Evaluator {
    /// An evaluator searching `nodes` a position (at most `cap` long on a slow machine), with
    /// these tables (and books, which it does not play from: a book move has no value).
    #[must_use]
    pub fn new(
        books: Arc<BookSet>,
        tables: Arc<Tablebases>,
        nodes: u64,
        cap: Duration,
    ) -> Evaluator {
        let options = Options {
            hash_mb: HASH_MB,
            threads: 1,
            ..Options::default()
        };
        let mut engine = Engine::sharing(books, Arc::clone(&tables), options);
        engine.set_use_book(false);
        engine.set_use_egtb(true);
        Evaluator {
            engine,
            tables,
            limits: Limits {
                nodes: Some(nodes),
                movetime: Some(cap),
                ..Limits::default()
            },
            timed: false,
        }
    }

    /// Whether every search so far ended by its node budget (or by the position: one move, a
    /// mate proved), never by the clock, so that the values are the same on any machine. The
    /// cap (`movetime`) stops a search between iterations once about half of it has gone (the
    /// engine's soft budget, scaled by at least 0.525) and inside one at the whole of it: a
    /// search that took less than half the cap was never stopped by it.
    #[must_use]
    pub fn untimed(&self) -> bool {
        !self.timed
    }

    /// Values `pos` (with its history, for the rules' repetitions); `cancelled` is asked while
    /// the engine searches, and stops it.
    ///
    /// # Errors
    /// [`EvaluateError::Cancelled`] when `cancelled` said so; [`EvaluateError::Engine`] when the
    /// engine could not search.
    pub fn evaluate(
        &mut self,
        pos: &Position,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Evaluation, EvaluateError> {
        let turn = pos.turn();
        if let Some(ending) = Ending::from_state(judge(pos, &JudgeConfig::default())) {
            return Ok(Evaluation {
                score: ending.winner().map_or(RedScore::Cp(0), RedScore::Win),
                source: Source::End,
                best: None,
                line: Vec::new(),
                depth: 0,
                nodes: 0,
                choices: 0,
            });
        }
        let banned = forbidden_moves(&mut pos.clone());
        let choices = pos
            .legal_move_list()
            .iter()
            .filter(|m| !banned.contains(m))
            .count();
        // A table that cannot be read is no value: the search values the position then.
        let exact = match self.tables.probe_with_metric(pos) {
            Ok(Some((value, metric))) => Some(table_score(turn, value, metric)),
            _ => None,
        };
        self.engine.set_position(pos.clone());
        self.engine.ban_moves(banned);
        let searched = self.search(cancelled)?;
        let (score, source) = match exact {
            Some(score) => (score, Source::Tables),
            None => (search_score(turn, searched.score), Source::Search),
        };
        Ok(Evaluation {
            score,
            source,
            best: searched.best,
            line: searched.line,
            depth: searched.depth,
            nodes: searched.nodes,
            choices,
        })
    }

    /// Runs the engine on its position to the node budget (the tables answer at once where they
    /// decide it).
    fn search(&mut self, cancelled: &dyn Fn() -> bool) -> Result<Searched, EvaluateError> {
        let (tx, rx) = mpsc::channel();
        let mut pv: Vec<Move> = Vec::new();
        let listen = Box::new(move |e: Event<'_>| match e {
            Event::Search(Report::Iteration(info)) if info.multipv == 1 => {
                pv.clone_from(&info.pv);
            }
            Event::Done(answer) => {
                let line = match &answer.source {
                    AnswerSource::Tables { line, .. } => line.clone(),
                    _ => pv.clone(),
                };
                let _ = tx.send(Searched {
                    best: answer.result.best,
                    score: answer.result.score,
                    line,
                    depth: answer.result.depth,
                    nodes: answer.result.nodes,
                });
            }
            _ => {}
        });
        let go = GoRequest {
            limits: self.limits.clone(),
            ..GoRequest::default()
        };
        let started = Instant::now();
        self.engine
            .go(go, listen)
            .map_err(|e| EvaluateError::Engine(e.to_string()))?;
        let mut stopped = false;
        let answer = loop {
            if !stopped && cancelled() {
                self.engine.stop();
                stopped = true;
            }
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(answer) => break Some(answer),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
            }
        };
        self.engine.join();
        let cap = self.limits.movetime.unwrap_or(Duration::MAX);
        if started.elapsed() >= cap / 2 {
            self.timed = true;
        }
        if stopped {
            return Err(EvaluateError::Cancelled);
        }
        let mut searched =
            answer.ok_or_else(|| EvaluateError::Engine("no answer from the search".into()))?;
        // The line starts with the move chosen (an iteration cut short may have reported
        // another), and is as long as a page shows.
        match searched.best {
            Some(best) if searched.line.first() != Some(&best) => searched.line = vec![best],
            None => searched.line.clear(),
            Some(_) => searched.line.truncate(LINE_PLIES),
        }
        Ok(searched)
    }
}

/// What the engine answered.
struct Searched {
    best: Option<Move>,
    score: Score,
    line: Vec<Move>,
    depth: u32,
    nodes: u64,
}

/// The tables' value of a position with `turn` to move, from Red's side: a mate distance where
/// the table counts one, a win without one where it counts conversions or the win is by the
/// perpetual-check rule.
fn table_score(turn: chariot_rules::Color, value: Value, metric: Metric) -> RedScore {
    match (value, metric) {
        (Value::Draw, _) => RedScore::Cp(0),
        (Value::Win(d), Metric::Dtm) => RedScore::mate_for(turn, i32::try_from(d).unwrap_or(1)),
        (Value::Loss(d), Metric::Dtm) => RedScore::mate_for(turn, -i32::try_from(d).unwrap_or(0)),
        (Value::Win(_) | Value::RuleWin(_), _) => RedScore::Win(turn),
        (Value::Loss(_) | Value::RuleLoss(_), _) => RedScore::Win(turn.opponent()),
    }
}

/// The search's score for `turn`, from Red's side. A table win the search found inside its tree
/// (a score between the tables' bound and mate) has no mate distance: a win.
fn search_score(turn: chariot_rules::Color, score: Score) -> RedScore {
    match score {
        Score::Mate(plies) => RedScore::mate_for(turn, plies),
        Score::Cp(cp) if cp >= TB_BOUND => RedScore::Win(turn),
        Score::Cp(cp) if cp <= -TB_BOUND => RedScore::Win(turn.opponent()),
        Score::Cp(cp) => RedScore::cp_for(turn, cp),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Color;
    use chariot_rules::notation::parse_iccs;

    fn evaluator(nodes: u64) -> Evaluator {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
        Evaluator::new(
            Arc::new(chariot_formats::book::builtin::book_set()),
            Arc::new(Tablebases::open(&[dir]).unwrap()),
            nodes,
            Duration::from_secs(10),
        )
    }

    #[test]
    fn a_search_stopped_by_the_time_cap_is_told() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
        let mut e = Evaluator::new(
            Arc::new(chariot_formats::book::builtin::book_set()),
            Arc::new(Tablebases::open(&[dir]).unwrap()),
            1_000_000_000,
            Duration::from_millis(30),
        );
        assert!(e.untimed());
        e.evaluate(&Position::start(), &|| false).unwrap();
        assert!(!e.untimed());
    }

    #[test]
    fn scores_turn_to_reds_side() {
        assert_eq!(search_score(Color::Black, Score::Cp(50)), RedScore::Cp(-50));
        assert_eq!(
            search_score(Color::Black, Score::Mate(3)),
            RedScore::Mate(-3)
        );
        assert_eq!(
            search_score(Color::Red, Score::Mate(0)),
            RedScore::Win(Color::Black)
        );
        assert_eq!(
            search_score(Color::Red, Score::Cp(TB_BOUND + 3)),
            RedScore::Win(Color::Red)
        );
        assert_eq!(
            table_score(Color::Black, Value::Loss(4), Metric::Dtm),
            RedScore::Mate(4)
        );
        assert_eq!(
            table_score(Color::Red, Value::Win(9), Metric::Dtc),
            RedScore::Win(Color::Red)
        );
    }

    #[test]
    fn a_covered_position_is_valued_exactly_and_a_mate_on_the_board_by_the_rules() {
        let mut e = evaluator(20_000);
        let never = || false;
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        let v = e.evaluate(&pos, &never).unwrap();
        assert_eq!((v.score, v.source), (RedScore::Mate(1), Source::Tables));
        let best = v.best.unwrap();
        assert_eq!(v.line.first(), Some(&best));
        let mut mated = pos.clone();
        mated.make_move(best);
        let v = e.evaluate(&mated, &never).unwrap();
        assert_eq!(
            (v.score, v.source, v.best),
            (RedScore::Win(Color::Red), Source::End, None)
        );
    }

    #[test]
    fn a_search_values_the_middle_game_and_a_cancel_stops_it() {
        let mut e = evaluator(30_000);
        let mut pos = Position::start();
        pos.make_move(parse_iccs("h2e2").unwrap());
        let v = e.evaluate(&pos, &|| false).unwrap();
        assert_eq!(v.source, Source::Search);
        assert!(
            matches!(v.score, RedScore::Cp(cp) if cp.abs() < 200),
            "{v:?}"
        );
        assert!(v.depth > 0 && v.nodes > 0, "{v:?}");
        // Every legal move may be played here: none repeats a position.
        assert_eq!(v.choices, pos.legal_move_list().len());
        assert!(pos.is_legal(v.best.unwrap()));
        assert!(e.untimed(), "30,000 nodes took half of 10 s");
        assert!(matches!(
            e.evaluate(&pos, &|| true),
            Err(EvaluateError::Cancelled)
        ));
    }
}
