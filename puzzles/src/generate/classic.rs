//! The classical composed mate problems (`title|FEN|solution` lines, `data/puzzles/classic/`):
//! each whose composer's main line is a mate within [`super::Settings::max_mate`] moves that the
//! search proves forced becomes a puzzle, its main line the solution.

use chariot_engine::search::puzzle::Puzzle as Problem;

use super::{Rejected, Settings};
use crate::prover::Prover;
use crate::record::{Difficulty, Goal, Puzzle, Source};
use crate::verify;

/// The puzzles of one collection's text, `collection` naming it in their titles; the lines not
/// taken are counted in `rejected`.
pub fn puzzles(
    collection: &str,
    text: &str,
    settings: &Settings,
    prover: &mut Prover,
    rejected: &mut Rejected,
) -> Vec<Puzzle> {
    let mut out = Vec::new();
    for (_, problem) in Problem::parse_all(text) {
        let Ok(problem) = problem else {
            rejected.count("unreadable or illegal line");
            continue;
        };
        let plies = problem.solution.len();
        if plies % 2 == 0 {
            rejected.count("main line ends with the defender's move");
            continue;
        }
        let moves = plies.div_ceil(2) as u32;
        if moves > settings.max_mate {
            rejected.count("mate longer than the longest taken");
            continue;
        }
        let puzzle = Puzzle {
            id: Puzzle::id_of(&problem.position),
            source: Source::Classic,
            goal: Goal::Mate(moves),
            difficulty: Difficulty::Medium,
            title: format!("{collection} · {}", problem.title),
            position: problem.position,
            line: problem.solution,
        };
        if puzzle.after(plies).has_legal_move() {
            rejected.count("main line does not end in mate");
            continue;
        }
        if verify::forced_mate(&puzzle, prover).is_err() {
            rejected.count("mate not proved forced by the search");
            continue;
        }
        out.push(puzzle);
    }
    out
}
