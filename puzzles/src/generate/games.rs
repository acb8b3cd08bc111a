//! Puzzles from played games: positions where the side to move has a decisive gain that one
//! move alone achieves, checked by the search with a clear margin
//! ([`verify::only_decisive`]).
//!
//! Searching every position of thousands of games would cost hours, so the search looks only
//! where the game itself points:
//!
//! - a *gain*: the side to move was not a piece up (material balance at most
//!   [`MATERIAL_AHEAD`]) and is at least [`MATERIAL_GAIN`] better off three and four plies on,
//!   in the game as played (a blunder punished, a combination played out);
//! - a *mating attack*: the game ends in mate, and the position is one to
//!   [`Settings::max_mate`] of the winner's moves before it.
//!
//! From such a position the line follows the search: the one decisive move, the defender's best
//! reply, and on while the solver's move is again the only decisive one (up to
//! [`Settings::max_solver_moves`]); a position with several ends the line before the reply
//! that led there. A mate must be seen through: each mating move is the only one that mates
//! within the moves left (but the last, where any mate will do), or the position is dropped.
//! Once a puzzle is taken, the game's next candidates within its line are skipped.

use chariot_games::checked::Game;
use chariot_rules::{Color, Kind, Move, Position};

use super::{Rejected, Settings};
use crate::prover::Prover;
use crate::record::{Difficulty, Goal, Puzzle, Source};
use crate::verify::{self, centipawns};

/// A side's material balance (centipawns) at or above which it is already ahead by a piece:
/// no gain to find.
pub const MATERIAL_AHEAD: i32 = 200;

/// The gain of material balance (centipawns) in the game's next plies that marks a position
/// for the search.
pub const MATERIAL_GAIN: i32 = 300;

/// The material balance of `pos` for `side`, in centipawns (chariot 900, cannon 450, horse
/// 400, advisor and elephant 200, soldier 100).
#[must_use]
pub fn balance(pos: &Position, side: Color) -> i32 {
    let value = |k: Kind| match k {
        Kind::General => 0,
        Kind::Advisor | Kind::Elephant => 200,
        Kind::Horse => 400,
        Kind::Chariot => 900,
        Kind::Cannon => 450,
        Kind::Soldier => 100,
    };
    let mut sum = 0;
    for sq in 0..90 {
        if let Some(p) = chariot_rules::Square::from_index(sq).and_then(|s| pos.piece_at(s)) {
            let v = value(p.kind());
            sum += if p.color() == side { v } else { -v };
        }
    }
    sum
}

/// The plies of a game (positions before a move) worth a search, in order.
fn candidates(positions: &[Position], settings: &Settings) -> Vec<usize> {
    let last = positions.len() - 1;
    let mut plies = Vec::new();
    for (i, pos) in positions.iter().enumerate().take(last) {
        let side = pos.turn();
        let now = balance(pos, side);
        let later = |k: usize| balance(&positions[(i + k).min(last)], side);
        if now <= MATERIAL_AHEAD && later(3).min(later(4)) - now >= MATERIAL_GAIN {
            plies.push(i);
        }
    }
    if !positions[last].has_legal_move() {
        for n in (1..=settings.max_mate as usize).rev() {
            if let Some(i) = last.checked_sub(2 * n - 1) {
                plies.push(i);
            }
        }
    }
    plies.sort_unstable();
    plies.dedup();
    plies
}

/// The title of a game's puzzle: the players, the event and the date, as the game has them.
fn title(game: &Game) -> String {
    let players = match (&game.red, &game.black) {
        (Some(r), Some(b)) => Some(format!("{r} – {b}")),
        (Some(p), None) | (None, Some(p)) => Some(p.clone()),
        (None, None) => None,
    };
    let parts: Vec<String> = [players, game.event.clone(), game.date.clone()]
        .into_iter()
        .flatten()
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect();
    if parts.is_empty() {
        format!("game {}", game.number)
    } else {
        parts.join(" · ")
    }
}

/// The puzzles of one game (checked against the rules) from `source`, none with an id in
/// `taken` (which they are added to).
pub fn puzzles(
    game: &Game,
    source: Source,
    settings: &Settings,
    prover: &mut Prover,
    taken: &mut std::collections::HashSet<String>,
    rejected: &mut Rejected,
) -> Vec<Puzzle> {
    let start = match &game.start {
        Some(fen) => match Position::from_fen(&format!("{fen} - - 0 1")) {
            Ok(p) => p,
            Err(_) => return Vec::new(),
        },
        None => Position::start(),
    };
    let mut positions = vec![start.clone()];
    let mut pos = start;
    for &m in &game.moves {
        pos.make_move(m);
        positions.push(pos.clone());
    }
    let mut out = Vec::new();
    let mut free_from = 0;
    for i in candidates(&positions, settings) {
        if i < free_from {
            continue;
        }
        // The position with the game's history, so that the search sees its repetitions.
        let mut here = positions[0].clone();
        for &m in &game.moves[..i] {
            here.make_move(m);
        }
        let id = Puzzle::id_of(&here);
        if taken.contains(&id) {
            continue;
        }
        let (goal, line) = match line_from(&here, settings, prover) {
            Ok(found) => found,
            Err(why) => {
                rejected.count(why);
                continue;
            }
        };
        let puzzle = Puzzle {
            id,
            source,
            goal,
            difficulty: Difficulty::Medium,
            // The position without the game's history, as the file gives it.
            position: Position::from_fen(&here.fen()).unwrap_or(here),
            line,
            title: title(game),
        };
        // A mate is checked as `chariot puzzles verify` checks it (its first move was chosen
        // by a search of the two best lines, which may miss a second mate the mate search finds).
        if matches!(goal, Goal::Mate(_)) && verify::game_line(&puzzle, prover).is_err() {
            rejected.count("mate not confirmed move by move");
            continue;
        }
        free_from = i + puzzle.line.len();
        taken.insert(puzzle.id.clone());
        out.push(puzzle);
    }
    out
}

/// The goal and line of a position whose side to move has one decisive move, or why not.
fn line_from(
    start: &Position,
    settings: &Settings,
    prover: &mut Prover,
) -> Result<(Goal, Vec<Move>), &'static str> {
    let first = verify::only_decisive(prover, start).ok_or("no move alone decisive")?;
    let mate = match first.score {
        chariot_engine::search::Score::Mate(p) if p > 0 => Some((p as u32).div_ceil(2)),
        _ => None,
    };
    if mate.is_some_and(|n| n > settings.max_mate) {
        return Err("mate longer than the longest taken");
    }
    let mut pos = start.clone();
    let mut line: Vec<Move> = Vec::new();
    let mut next = first.first().ok_or("no move")?;
    loop {
        pos.make_move(next);
        line.push(next);
        let made = line.len().div_ceil(2);
        if !pos.has_legal_move() {
            // A tactic that ends in mate stays a tactic: its first move was chosen for its gain.
            let goal = mate.map_or(Goal::Win, |_| Goal::Mate(made as u32));
            return Ok((goal, line));
        }
        if mate.is_none() && made == settings.max_solver_moves {
            break;
        }
        let reply = prover
            .best(&pos)
            .and_then(|l| l.first())
            .ok_or("no reply found")?;
        pos.make_move(reply);
        line.push(reply);
        match mate {
            Some(n) => {
                let left = n - made as u32;
                if left == 0 {
                    return Err("mate not reached in the moves the search promised");
                }
                let proof = prover
                    .mate(&pos, None, left)
                    .ok_or("mate not proved on the way")?;
                let m = proof.first().ok_or("no move")?;
                if left > 1 && prover.other_mate(&pos, m, left).is_some() {
                    return Err("a later mating move is not the only one");
                }
                next = m;
            }
            None => match verify::only_decisive(prover, &pos) {
                Some(l) if centipawns(l.score) >= verify::DECISIVE => {
                    next = l.first().ok_or("no move")?;
                }
                _ => {
                    line.pop();
                    break;
                }
            },
        }
    }
    Ok((Goal::Win, line))
}
