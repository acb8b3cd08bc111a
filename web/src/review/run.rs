//! A review's work on its own thread: every position of the game valued in order
//! ([`super::evaluate`]), each move judged once the positions on both sides of it are
//! ([`super::judge`]), and the review so far published in the job after every position, so
//! that a page draws the graph as it grows. A cancelled job stops within the position under
//! way.

use chariot_rules::notation::Notation;
use chariot_rules::{Color, Move, Position};
use serde::Serialize;

use super::evaluate::{EvaluateError, Evaluation, Evaluator, Source};
use super::judge::{Judgement, Played, RedScore, Summary, Verdict, judge, summarise};
use crate::jobs::Job;
use crate::movetext::{MoveText, describe, names};
use crate::sides::side_name;

/// A game to review: where it starts and its moves (legal, checked by the caller).
pub struct Game {
    /// The start position.
    pub start: Position,
    /// The moves.
    pub moves: Vec<Move>,
}

/// A review as the job's `result` holds it (growing while it runs).
#[derive(Debug, Serialize)]
pub struct Review {
    /// The game's start position.
    pub fen: String,
    /// The game's moves in ICCS.
    pub played: Vec<String>,
    /// The nodes searched in each position not decided by the rules or the tables.
    pub nodes: u64,
    /// The positions valued so far, from the start (ply 0).
    pub positions: Vec<PositionView>,
    /// The moves judged so far.
    pub moves: Vec<MoveView>,
    /// Each side's counts, average loss and accuracy over the moves judged so far.
    pub summary: Summary,
}

/// A position of the game, valued.
#[derive(Debug, Serialize)]
pub struct PositionView {
    /// Plies played to it.
    pub ply: usize,
    /// Its value from Red's side.
    pub score: RedScore,
    /// Red's winning chances, -1 to +1 (the judging's logistic of the score).
    pub red_chances: f64,
    /// `end`, `tables` or `search`.
    pub source: Source,
    /// The search's depth (0 without a search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A move of the game, judged.
#[derive(Debug, Serialize)]
pub struct MoveView {
    /// Its ply, from 1.
    pub ply: usize,
    /// Who played it: `red` or `black`.
    pub side: &'static str,
    /// The move, in three notations, with the position after it.
    #[serde(rename = "move")]
    pub played: MoveText,
    /// The value before it, from Red's side.
    pub before: RedScore,
    /// The value after it, from Red's side.
    pub after: RedScore,
    /// The engine's move in the position before it (ICCS), when it has one.
    pub best: Option<String>,
    /// The engine's line from there, in ICCS.
    pub line: Vec<String>,
    /// The same line in WXF notation.
    pub line_wxf: Vec<String>,
    /// The same line in Chinese notation.
    pub line_chinese: Vec<String>,
    /// Centipawns the mover lost (scores capped at ±1000).
    pub loss: i32,
    /// Winning chances the mover lost (0 to 2).
    pub drop: f64,
    /// `inaccuracy`, `mistake`, `blunder`, or `null`.
    pub judgement: Option<Judgement>,
    /// `?!`, `?`, `??`, or `null`.
    pub glyph: Option<&'static str>,
    /// lichess's accuracy of the move, 0 to 100.
    pub accuracy: f64,
    /// The mover had no other move (not judged, not counted).
    pub forced: bool,
}

impl Review {
    /// The review of `game` before its first position is valued.
    #[must_use]
    pub fn new(game: &Game, nodes: u64) -> Review {
        Review {
            fen: game.start.fen(),
            played: game.moves.iter().map(ToString::to_string).collect(),
            nodes,
            positions: Vec::with_capacity(game.moves.len() + 1),
            moves: Vec::with_capacity(game.moves.len()),
            summary: Summary::default(),
        }
    }
}

/// Rounds to a thousandth (winning chances and drops in the JSON).
fn thousandths(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Reviews `game` in `job` with `evaluator` (searching `nodes` a position), publishing the
/// review so far after each position, until every position is valued (the whole review is
/// returned: the caller keeps it and ends the job with it) or the job is cancelled or fails
/// (`None`).
#[must_use]
pub fn run(
    job: &Job,
    game: &Game,
    evaluator: &mut Evaluator,
    nodes: u64,
) -> Option<serde_json::Value> {
    let texts = describe(&game.start, &game.moves);
    let mut positions = Vec::with_capacity(game.moves.len() + 1);
    let mut pos = game.start.clone();
    positions.push(pos.clone());
    for &m in &game.moves {
        pos.make_move(m);
        positions.push(pos.clone());
    }
    let total = positions.len() as u64;
    let mut review = Review::new(game, nodes);
    let mut verdicts: Vec<(Color, Verdict)> = Vec::with_capacity(game.moves.len());
    let mut previous: Option<Evaluation> = None;
    let cancelled = || job.is_cancelled();
    for (ply, pos) in positions.iter().enumerate() {
        let evaluation = match evaluator.evaluate(pos, &cancelled) {
            Ok(e) => e,
            Err(EvaluateError::Cancelled) => return None,
            Err(e) => {
                job.fail(format!("position {ply} of the review: {e}"));
                return None;
            }
        };
        review.positions.push(PositionView {
            ply,
            score: evaluation.score,
            red_chances: thousandths(evaluation.score.red_chances()),
            source: evaluation.source,
            depth: evaluation.depth,
            nodes: evaluation.nodes,
        });
        if let Some(before) = previous {
            let mover = positions[ply - 1].turn();
            let played_move = game.moves[ply - 1];
            let played = if before.choices <= 1 {
                Played::Forced
            } else if before.best == Some(played_move) {
                Played::Best
            } else {
                Played::Other
            };
            let verdict = judge(before.score, evaluation.score, mover, played);
            let from = &positions[ply - 1];
            review.moves.push(MoveView {
                ply,
                side: side_name(mover),
                played: texts[ply - 1].clone(),
                before: before.score,
                after: evaluation.score,
                best: before.best.map(|m| m.to_string()),
                line: before.line.iter().map(ToString::to_string).collect(),
                line_wxf: names(from, &before.line, Notation::Wxf),
                line_chinese: names(from, &before.line, Notation::Chinese),
                loss: verdict.loss,
                drop: thousandths(verdict.drop),
                judgement: verdict.judgement,
                glyph: verdict.judgement.map(Judgement::glyph),
                accuracy: (verdict.accuracy * 10.0).round() / 10.0,
                forced: played == Played::Forced,
            });
            verdicts.push((mover, verdict));
            review.summary = summarise(verdicts.iter().map(|(c, v)| (*c, v)));
        }
        previous = Some(evaluation);
        let value = serde_json::to_value(&review).unwrap_or_default();
        if ply + 1 == positions.len() {
            job.progress(total, Some(total));
            return Some(value);
        }
        job.report(ply as u64 + 1, Some(total), value);
    }
    None
}
