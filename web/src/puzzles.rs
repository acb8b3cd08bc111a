//! The puzzles (`docs/web-api.md`, "Puzzles"): the shipped puzzles listed and filtered, one
//! puzzle with its solution, a solver's move judged and the opponent's reply, and the rest of a
//! winning line for a hint or the solution played out.
//!
//! The page keeps the solver's progress; the server is asked only what it alone can answer:
//! whether a move other than the stored one also wins (a search or the tables,
//! `chariot_puzzles::judge`). Every request carries the moves played so far, so the server
//! holds no state per solver. Judging searches run on blocking threads, at most
//! [`MAX_SEARCHES`] at once (503 `too-many-searches` beyond), within [`JUDGE_NODES`] nodes. The
//! puzzles themselves are held by [`crate::puzzle_shelf`].

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use chariot_puzzles::{Difficulty, Goal, Judge, JudgeError, Prover, Puzzle, Theme, Verdict};
use chariot_rules::notation::parse_move;
use chariot_rules::{Move, Position, forbidden_moves};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, query};
use crate::explorer::no_unknown;
use crate::movetext::{MoveText, describe, play_out};
pub use crate::puzzle_shelf::MAX_SEARCHES;
use crate::sides::side_name;
use crate::state::AppState;

/// The nodes a search may spend to prove that a move other than the stored one mates in time
/// (the generator proved every shipped mate within 200,000).
pub const JUDGE_NODES: u64 = 500_000;

/// The most puzzles one page of the list holds.
pub const MAX_PAGE: usize = 5_000;

/// A puzzle as the list shows it.
#[derive(Debug, Serialize)]
pub(crate) struct Summary {
    id: String,
    /// Where it came from: `classic`, `ccpd-mates`, `ccpd-tactics`, `masters`, `tables`.
    source: &'static str,
    /// `mate`, `endgame`, `tactic` (one or more).
    themes: Vec<&'static str>,
    /// The solver's moves to mate, for a mate.
    mate_in: Option<u32>,
    /// `easy`, `medium`, `hard`.
    difficulty: &'static str,
    title: String,
    /// The solver's side: `red` or `black`.
    side: &'static str,
    /// The solver's moves in the solution.
    solver_moves: usize,
}

fn summary(p: &Puzzle) -> Summary {
    Summary {
        id: p.id.clone(),
        source: p.source.name(),
        themes: p.themes().into_iter().map(Theme::name).collect(),
        mate_in: match p.goal {
            Goal::Mate(n) => Some(n),
            Goal::Win => None,
        },
        difficulty: p.difficulty.name(),
        title: p.title.clone(),
        side: side_name(p.solver()),
        solver_moves: p.solver_moves(),
    }
}

/// `GET /api/puzzles?theme=&mate_in=&difficulty=&source=&offset=&limit=`.
#[derive(Debug, Deserialize)]
pub(crate) struct ListQuery {
    /// `mate`, `endgame` or `tactic`.
    theme: Option<String>,
    /// `N` (a mate in N moves) or `N+` (in N moves or more).
    mate_in: Option<String>,
    /// `easy`, `medium` or `hard`.
    difficulty: Option<String>,
    /// A source's name.
    source: Option<String>,
    offset: Option<String>,
    limit: Option<String>,
    /// Anything else (a 400).
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

/// The list: how many puzzles the filter selects and a page of them, easiest first.
#[derive(Debug, Serialize)]
pub(crate) struct List {
    total: usize,
    offset: usize,
    puzzles: Vec<Summary>,
}

/// A 400 `bad-filter` naming the parameter.
fn bad_filter(name: &str, value: &str, expected: &str) -> ApiError {
    ApiError::bad_request(format!("{name} {value:?}: expected {expected}"))
        .with_code("bad-filter")
        .with("name", name)
}

/// A filter's value parsed, or a 400 naming it; `None` when absent or empty.
fn parsed<T: std::str::FromStr>(
    name: &str,
    value: Option<&str>,
    expected: &str,
) -> Result<Option<T>, ApiError> {
    value
        .filter(|v| !v.is_empty())
        .map(|v| v.parse().map_err(|_| bad_filter(name, v, expected)))
        .transpose()
}

/// `GET /api/puzzles`.
pub(crate) async fn list(
    State(state): State<Arc<AppState>>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<List>, ApiError> {
    let q = query(q)?;
    no_unknown(&q.rest)?;
    let theme: Option<Theme> = parsed("theme", q.theme.as_deref(), "mate, endgame or tactic")?;
    let difficulty: Option<Difficulty> = parsed(
        "difficulty",
        q.difficulty.as_deref(),
        "easy, medium or hard",
    )?;
    let source: Option<chariot_puzzles::Source> = parsed(
        "source",
        q.source.as_deref(),
        "classic, ccpd-mates, ccpd-tactics, masters or tables",
    )?;
    let mate_in = match q.mate_in.as_deref().filter(|v| !v.is_empty()) {
        None => None,
        Some(v) => {
            let (digits, more) = v.strip_suffix('+').map_or((v, false), |d| (d, true));
            match digits.parse::<u32>() {
                Ok(n) if n >= 1 => Some((n, more)),
                _ => return Err(bad_filter("mate_in", v, "a number from 1, or N+")),
            }
        }
    };
    let offset: usize = parsed("offset", q.offset.as_deref(), "a number")?.unwrap_or(0);
    let limit: usize = parsed("limit", q.limit.as_deref(), "a number")?.unwrap_or(100);
    if limit > MAX_PAGE {
        return Err(bad_filter("limit", &limit.to_string(), "at most 5000"));
    }
    let shelf = state.puzzles.shelf()?;
    let chosen: Vec<&Arc<Puzzle>> = shelf
        .puzzles
        .iter()
        .filter(|p| theme.is_none_or(|t| p.themes().contains(&t)))
        .filter(|p| difficulty.is_none_or(|d| p.difficulty == d))
        .filter(|p| source.is_none_or(|s| p.source == s))
        .filter(|p| match (mate_in, p.goal) {
            (None, _) => true,
            (Some((n, more)), Goal::Mate(m)) => m == n || (more && m > n),
            (Some(_), Goal::Win) => false,
        })
        .collect();
    Ok(Json(List {
        total: chosen.len(),
        offset,
        puzzles: chosen
            .iter()
            .skip(offset)
            .take(limit)
            .map(|p| summary(p))
            .collect(),
    }))
}

/// One puzzle with its solution and the solver's legal moves.
#[derive(Debug, Serialize)]
pub(crate) struct PuzzleView {
    #[serde(flatten)]
    summary: Summary,
    /// `mate3` or `win`.
    goal: String,
    fen: String,
    /// The side to move is in check.
    check: bool,
    /// The solver's legal moves (ICCS), forbidden repetitions left out.
    legal: Vec<String>,
    /// The stored solution, each move in three notations with the FEN after it.
    solution: Vec<MoveText>,
}

/// The moves of `pos` the solver may make: legal, and no forbidden repetition.
fn legal_moves(pos: &Position) -> Vec<String> {
    let banned = forbidden_moves(&mut pos.clone());
    pos.legal_move_list()
        .iter()
        .filter(|m| !banned.contains(m))
        .map(ToString::to_string)
        .collect()
}

/// `GET /api/puzzles/{id}`.
pub(crate) async fn one(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    let p = state.puzzles.get(&id)?;
    Ok(Json(PuzzleView {
        summary: summary(&p),
        goal: p.goal.to_string(),
        fen: p.position.fen(),
        check: p.position.in_check(),
        legal: legal_moves(&p.position),
        solution: describe(&p.position, &p.line),
    }))
}

/// `POST /api/puzzles/{id}/move`: the moves played so far and the solver's move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    /// The moves from the puzzle's position so far (any notation), the solver's first.
    #[serde(default)]
    moves: Vec<String>,
    /// The solver's move (any notation).
    #[serde(rename = "move")]
    candidate: String,
}

/// What the judge says of a move.
#[derive(Debug, Serialize)]
pub(crate) struct MoveAnswer {
    /// `correct` (go on), `solved` or `wrong` (try again).
    verdict: &'static str,
    /// The solver's move.
    #[serde(rename = "move")]
    played: MoveText,
    /// The opponent's reply, after a correct move of an unsolved puzzle.
    reply: Option<MoveText>,
    /// Whether the moves so far (this one and the reply too) are the stored solution's.
    on_line: bool,
    /// The position the solver faces now: after the reply, after the solving move, or as
    /// before a wrong move.
    fen: String,
    check: bool,
    /// The solver's legal moves there (none once solved).
    legal: Vec<String>,
}

/// `POST /api/puzzles/{id}/solution`: the moves played so far.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolutionRequest {
    #[serde(default)]
    moves: Vec<String>,
}

/// The rest of a winning line.
#[derive(Debug, Serialize)]
pub(crate) struct SolutionAnswer {
    /// From the position after the moves given, the solver's move first.
    line: Vec<MoveText>,
}

impl From<JudgeError> for ApiError {
    fn from(e: JudgeError) -> ApiError {
        let message = e.to_string();
        match e {
            JudgeError::Illegal { number, text } => ApiError::unprocessable(message)
                .with_code("illegal-line")
                .with("n", number)
                .with("move", text)
                .with("reason", "illegal"),
            JudgeError::NotSolversTurn(n) => ApiError::unprocessable(message)
                .with_code("not-solvers-turn")
                .with("n", n),
            JudgeError::Over(n) => ApiError::conflict(message)
                .with_code("puzzle-over")
                .with("n", n),
            JudgeError::IllegalMove(m) => ApiError::unprocessable(message)
                .with_code("illegal-move")
                .with("move", m)
                .with("reason", "illegal"),
            JudgeError::NoLine => ApiError::unprocessable(message).with_code("no-line"),
        }
    }
}

/// Runs `work` with a judge on a blocking thread, within the server's limit of searches.
async fn judging<T: Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce(&mut Judge<'_>) -> Result<T, JudgeError> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = Arc::clone(&state.puzzles.searches)
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::busy(format!(
                "{MAX_SEARCHES} puzzle searches are running, the server's limit; try again"
            ))
            .with_code("too-many-searches")
            .with("max", MAX_SEARCHES)
        })?;
    let tables = Arc::clone(&state.tables);
    let answer = tokio::task::spawn_blocking(move || {
        let mut prover = Prover::new(Some(Arc::clone(&tables)), JUDGE_NODES);
        let mut judge = Judge::new(&mut prover, &tables);
        let answer = work(&mut judge);
        drop(permit);
        answer
    })
    .await
    .map_err(|e| ApiError::internal(format!("the judging search failed: {e}")))?;
    answer.map_err(ApiError::from)
}

/// The puzzle's position and the moves given played on it, or a 422 `illegal-line`.
fn played(p: &Puzzle, moves: &[String]) -> Result<(Position, Vec<Move>), ApiError> {
    Ok(play_out(p.position.clone(), moves)?)
}

/// `POST /api/puzzles/{id}/move`.
pub(crate) async fn judge_move(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let Json(request) = body?;
    let p = state.puzzles.get(&id)?;
    let (pos, moves) = played(&p, &request.moves)?;
    let candidate = parse_move(&pos, &request.candidate).map_err(|e| {
        ApiError::unprocessable(e.to_string())
            .with_code("illegal-move")
            .with_all(crate::error_codes::move_error(&e))
    })?;
    let puzzle = Arc::clone(&p);
    let line = moves.clone();
    let verdict = judging(&state, move |judge| judge.judge(&puzzle, &line, candidate)).await?;
    let played_text = describe(&pos, &[candidate]).remove(0);
    let mut now = pos.clone();
    let mut so_far = moves;
    let (word, reply) = match verdict {
        Verdict::Wrong => ("wrong", None),
        Verdict::Correct { reply, solved } => {
            now.make_move(candidate);
            so_far.push(candidate);
            let reply_text = reply.map(|r| {
                let text = describe(&now, &[r]).remove(0);
                now.make_move(r);
                so_far.push(r);
                text
            });
            (if solved { "solved" } else { "correct" }, reply_text)
        }
    };
    Ok(Json(MoveAnswer {
        verdict: word,
        played: played_text,
        reply,
        on_line: p.line.starts_with(&so_far),
        fen: now.fen(),
        check: now.in_check(),
        legal: if word == "solved" {
            Vec::new()
        } else {
            legal_moves(&now)
        },
    }))
}

/// `POST /api/puzzles/{id}/solution`.
pub(crate) async fn solution(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<SolutionRequest>, JsonRejection>,
) -> Result<Json<SolutionAnswer>, ApiError> {
    let Json(request) = body?;
    let p = state.puzzles.get(&id)?;
    let (pos, moves) = played(&p, &request.moves)?;
    let puzzle = Arc::clone(&p);
    let line = judging(&state, move |judge| judge.continuation(&puzzle, &moves)).await?;
    Ok(Json(SolutionAnswer {
        line: describe(&pos, &line),
    }))
}
