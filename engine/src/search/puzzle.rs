//! Mate problems as test data: reading them and checking the search against them.
//!
//! The format is one problem per line, `title|FEN|solution`, the solution being the main line in
//! ICCS moves separated by commas (`h2e2,h9g7,...`), the attacker's mating move last. Blank lines
//! and lines starting with `#` are skipped. This is the format of the classical problem
//! collections in `data/puzzles/`.

use std::sync::Arc;

use super::{Control, Limits, Score, SearchResult, Searcher};
use chariot_rules::{Move, Position, PositionError};

/// A mate problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its title.
    pub title: String,
    /// The position.
    pub position: Position,
    /// The main line, attacker's moves first and last.
    pub solution: Vec<Move>,
}

/// Why a problem line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// Not three `|`-separated fields.
    #[error("expected `title|FEN|solution`, found {0} field(s)")]
    Fields(usize),
    /// The FEN is not a legal position.
    #[error("invalid FEN: {0}")]
    Position(#[from] PositionError),
    /// The solution is empty.
    #[error("the solution is empty")]
    EmptySolution,
    /// A solution move is not a legal move where it is played.
    #[error("solution move {number} ({text:?}) is not legal in its position")]
    IllegalMove {
        /// Its number in the solution, from 1.
        number: usize,
        /// The text.
        text: String,
    },
}

impl Puzzle {
    /// Reads one line.
    ///
    /// # Errors
    /// A [`PuzzleError`] naming what is wrong with the line.
    pub fn parse(line: &str) -> Result<Puzzle, PuzzleError> {
        let fields: Vec<&str> = line.trim().split('|').collect();
        let [title, fen, moves] = fields[..] else {
            return Err(PuzzleError::Fields(fields.len()));
        };
        let position = Position::from_fen(fen.trim())?;
        let mut pos = position.clone();
        let mut solution = Vec::new();
        for (i, text) in moves
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .enumerate()
        {
            let m = pos
                .legal_move_list()
                .iter()
                .copied()
                .find(|m| m.to_string().eq_ignore_ascii_case(text))
                .ok_or_else(|| PuzzleError::IllegalMove {
                    number: i + 1,
                    text: text.to_owned(),
                })?;
            pos.make_move(m);
            solution.push(m);
        }
        if solution.is_empty() {
            return Err(PuzzleError::EmptySolution);
        }
        Ok(Puzzle {
            title: title.trim().to_owned(),
            position,
            solution,
        })
    }

    /// Reads every problem of a file's text, with its line number (from 1).
    pub fn parse_all(text: &str) -> Vec<(usize, Result<Puzzle, PuzzleError>)> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, l)| (i + 1, Puzzle::parse(l)))
            .collect()
    }

    /// The plies to mate in the main line.
    #[must_use]
    pub fn mate_plies(&self) -> usize {
        self.solution.len()
    }

    /// Searches the problem with `searcher` (cleared first) within `limits` and says whether the
    /// search solved it: it plays the solution's first move, or it proves a mate at least as
    /// fast as the main line's (problems often have such alternatives).
    pub fn solve(&self, searcher: &mut Searcher, limits: &Limits) -> (bool, SearchResult) {
        searcher.clear();
        let control = Arc::new(Control::default());
        let result = searcher.search(&self.position, limits, &control, &mut |_| {});
        let fast_mate =
            matches!(result.score, Score::Mate(n) if n > 0 && n as usize <= self.mate_plies());
        (result.best == Some(self.solution[0]) || fast_mate, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_problem_line() {
        let p = Puzzle::parse("当头一喝|9/3ka4/4Pa3/2p2C3/4N4/9/9/9/3pp2p1/5K3 w|f6d6").unwrap();
        assert_eq!(p.title, "当头一喝");
        assert_eq!(p.solution.len(), 1);
        assert_eq!(p.solution[0].to_string(), "f6d6");
    }

    #[test]
    fn rejects_bad_lines() {
        assert_eq!(Puzzle::parse("a|b"), Err(PuzzleError::Fields(2)));
        assert!(matches!(
            Puzzle::parse("t|9/9 w|a0a1"),
            Err(PuzzleError::Position(_))
        ));
        let illegal = Puzzle::parse("t|9/3ka4/4Pa3/2p2C3/4N4/9/9/9/3pp2p1/5K3 w|f6d6,a0a1");
        assert_eq!(
            illegal,
            Err(PuzzleError::IllegalMove {
                number: 2,
                text: "a0a1".to_owned()
            })
        );
        assert_eq!(
            Puzzle::parse("t|9/3ka4/4Pa3/2p2C3/4N4/9/9/9/3pp2p1/5K3 w|"),
            Err(PuzzleError::EmptySolution)
        );
    }
}
