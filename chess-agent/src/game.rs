//! A game in progress: the current position, the moves that led to it (for undo, as the retry
//! signal needs) and the Zobrist keys of every earlier position (for repetition detection).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

use crate::book;

/// A game from a start position, with undo.
#[derive(Debug, Clone, Default)]
pub struct Game {
    /// Positions before each move played; `positions.len() == moves.len()`.
    positions: Vec<Chess>,
    moves: Vec<Move>,
    current: Chess,
}

/// Why a game cannot continue with a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameOver {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
}

impl Game {
    /// A game from the standard start position.
    #[must_use]
    pub fn new() -> Game {
        Game::default()
    }

    /// A game from a FEN position.
    ///
    /// # Errors
    ///
    /// A description when the FEN is unreadable or the position illegal.
    pub fn from_fen(fen: &str) -> Result<Game, String> {
        let setup: Fen = fen
            .trim()
            .parse()
            .map_err(|e| format!("bad FEN {fen:?}: {e}"))?;
        let current = setup
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("illegal position {fen:?}: {e}"))?;
        Ok(Game {
            current,
            ..Game::default()
        })
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.current
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a move.
    ///
    /// # Panics
    ///
    /// In debug builds, when `m` is not legal in the current position.
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.current.is_legal(m), "illegal move {m:?}");
        let before = self.current.clone();
        self.current.play_unchecked(m);
        self.positions.push(before);
        self.moves.push(m);
    }

    /// Takes back the last move and returns it, if there was one.
    pub fn undo(&mut self) -> Option<Move> {
        let before = self.positions.pop()?;
        self.current = before;
        self.moves.pop()
    }

    /// The keys of the positions before the current one, oldest first.
    #[must_use]
    pub fn history_keys(&self) -> Vec<u64> {
        self.positions.iter().map(book::key).collect()
    }

    /// Whether the side to move is mated or stalemated.
    #[must_use]
    pub fn over(&self) -> Option<GameOver> {
        if !self.current.legal_moves().is_empty() {
            return None;
        }
        Some(if self.current.is_check() {
            GameOver::Checkmate
        } else {
            GameOver::Stalemate
        })
    }
}

/// The position of `fen`, for tests (panics on a bad FEN).
#[cfg(test)]
pub(crate) fn test_position(fen: &str) -> Chess {
    Game::from_fen(fen).expect("a valid FEN").position().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_and_undo() {
        let mut game = Game::new();
        let m = game.position().legal_moves()[0];
        game.play(m);
        assert_eq!(game.history_keys(), vec![0x463b_9618_1691_fc9c]);
        assert_eq!(game.undo(), Some(m));
        assert_eq!(game.position(), &Chess::default());
        assert_eq!(game.undo(), None);
    }

    #[test]
    fn mate_and_stalemate() {
        let mate = Game::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(mate.over(), Some(GameOver::Checkmate));
        let stale = Game::from_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(stale.over(), Some(GameOver::Stalemate));
        assert_eq!(Game::new().over(), None);
    }
}
