//! Finished games kept in a game database (`chariot serve --games DB`, else `played.sqlite` in
//! the user's data directory): the record of play the design theses ask for (记录棋谱), in the
//! same SQLite database `book-builder` imports into, so the games can be searched, exported and
//! built into a book like any other. `crate::past_games` lists them for the page.

use std::path::PathBuf;
use std::sync::Mutex;

use chariot_gamedb::db::{DbError, FullGame, GameDb};
use chariot_gamedb::filter::Filter;
use chariot_games::checked::check;
use chariot_games::read::read_all;

/// The `Site` tag of the games the web app writes: what tells them from the other games of a
/// database named by `--games`.
pub const SITE: &str = "chariot serve";

/// The database finished games go into.
pub struct Archive {
    db: Mutex<GameDb>,
}

impl Archive {
    /// Where the games are kept when `chariot serve` is given no `--games`: `played.sqlite` in
    /// the user's data directory, beside the explorer's `games.sqlite`.
    #[must_use]
    pub fn default_path() -> PathBuf {
        chariot_formats::data::user_data_dir().join("played.sqlite")
    }

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

    /// Every game played here (its `Site` is [`SITE`]), newest first.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn played(&self) -> Result<Vec<FullGame>, DbError> {
        // The web app's events all name Chariot, in either language: the database selects
        // those, the `Site` tag tells the games played here.
        let filter = Filter {
            events: vec!["Chariot".to_owned()],
            setups: true,
            ..Filter::default()
        };
        let mut games = Vec::new();
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        db.for_each_game(&filter, &mut |g| {
            if is_played_here(&g) {
                games.push(g);
            }
            true
        })?;
        games.reverse();
        Ok(games)
    }

    /// The game `id` if it was played here.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn game(&self, id: i64) -> Result<Option<FullGame>, DbError> {
        let db = self.db.lock().unwrap_or_else(|e| e.into_inner());
        Ok(db.game(id)?.filter(is_played_here))
    }
}

fn is_played_here(g: &FullGame) -> bool {
    g.tags.iter().any(|(k, v)| k == "Site" && v == SITE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_game_is_stored_once() {
        let dir = tempfile::tempdir().unwrap();
        let archive = Archive::open(&dir.path().join("g.sqlite")).unwrap();
        let pgn = "[Game \"Chinese Chess\"]\n[Event \"Chariot web game\"]\n[Site \"chariot serve\"]\n[Red \"You\"]\n[Black \"Chariot (level 1)\"]\n[Result \"1-0\"]\n[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"]\n\n1. 车五平六 1-0\n";
        assert!(archive.keep("a", pgn).unwrap());
        assert!(!archive.keep("a", pgn).unwrap());
        assert!(!archive.keep("b", "[Event \"x\"]\n\n*\n").unwrap());
        // Listed as played here; a game of another site is not.
        let other = pgn
            .replace("chariot serve", "elsewhere")
            .replace("车五平六", "车五平四");
        assert!(archive.keep("c", &other).unwrap());
        let played = archive.played().unwrap();
        assert_eq!(played.len(), 1);
        assert_eq!(played[0].red.as_deref(), Some("You"));
        assert!(archive.game(played[0].id).unwrap().is_some());
    }
}
