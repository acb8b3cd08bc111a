//! Finished games kept in a game database (`chariot serve --games DB`): the record of play the
//! design theses ask for (记录棋谱), in the same SQLite database `book-builder` imports into, so
//! the games can be searched, exported and built into a book like any other.

use std::sync::Mutex;

use chariot_gamedb::db::{DbError, GameDb};
use chariot_games::checked::check;
use chariot_games::read::read_all;

/// The database finished games go into.
pub struct Archive {
    db: Mutex<GameDb>,
}

impl Archive {
    /// Opens the database at `path`, creating it when it does not exist.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a game database.
    pub fn open(path: &std::path::Path) -> Result<Archive, DbError> {
        Ok(Archive {
            db: Mutex::new(GameDb::create_or_open(path)?),
        })
    }

    /// Stores the game `id` given as PGN (as the server writes it). A game without a move is
    /// not stored; the same game stored twice is stored once. Returns whether it was stored.
    ///
    /// # Errors
    /// When the database cannot be written (the game is then not stored at all).
    pub fn keep(&self, id: &str, pgn: &str) -> Result<bool, DbError> {
        let (_, records) = read_all(pgn.as_bytes());
        let games: Vec<_> = records.iter().filter_map(|r| check(r).ok()).collect();
        if games.is_empty() {
            return Ok(false);
        }
        let mut db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        let import = db.begin_import(
            &format!("chariot serve: game {id}"),
            pgn.len() as u64,
            concat!("chariot serve ", env!("CARGO_PKG_VERSION")),
        )?;
        let outcome = db.insert_batch(import, records.len(), &games, &[])?;
        db.finish_import(import)?;
        Ok(outcome.imported > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_is_stored_once() {
        let dir = tempfile::tempdir().unwrap();
        let archive = Archive::open(&dir.path().join("g.sqlite")).unwrap();
        let pgn = "[Game \"Chinese Chess\"]\n[Event \"Chariot web game\"]\n[Red \"You\"]\n[Black \"Chariot (level 1)\"]\n[Result \"1-0\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n\n1. 车五平六 1-0\n";
        assert!(archive.keep("a", pgn).unwrap());
        assert!(!archive.keep("a", pgn).unwrap());
        assert!(!archive.keep("b", "[Event \"x\"]\n\n*\n").unwrap());
    }
}
