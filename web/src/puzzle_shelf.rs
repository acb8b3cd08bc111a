//! The shipped puzzles as the server holds them: read once, on first use, easiest first, with
//! an index by id; and the permits of the searches that judge a solver's moves. The handlers
//! are `crate::puzzles`'s.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use chariot_puzzles::Puzzle;

use crate::error::ApiError;

/// Judging searches running at once; more are answered 503.
pub const MAX_SEARCHES: usize = 2;

/// The shipped puzzles, read on first use, and the searches judging moves.
pub struct Puzzles {
    shelf: OnceLock<Result<Arc<Shelf>, String>>,
    /// The judging searches' permits.
    pub(crate) searches: Arc<tokio::sync::Semaphore>,
}

impl Default for Puzzles {
    fn default() -> Puzzles {
        Puzzles {
            shelf: OnceLock::new(),
            searches: Arc::new(tokio::sync::Semaphore::new(MAX_SEARCHES)),
        }
    }
}

/// The puzzles, easiest first (then by id), and where each id is.
pub(crate) struct Shelf {
    /// Easiest first, then by id.
    pub(crate) puzzles: Vec<Arc<Puzzle>>,
    by_id: HashMap<String, usize>,
}

impl Puzzles {
    /// The puzzles, read on first use; a 500 when the shipped file is damaged (the tests read
    /// it, so a release never has one).
    pub(crate) fn shelf(&self) -> Result<Arc<Shelf>, ApiError> {
        self.shelf
            .get_or_init(|| {
                let mut puzzles = chariot_puzzles::shipped().map_err(|e| e.to_string())?;
                puzzles.sort_by(|a, b| (a.difficulty, &a.id).cmp(&(b.difficulty, &b.id)));
                let by_id = puzzles
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.id.clone(), i))
                    .collect();
                Ok(Arc::new(Shelf {
                    puzzles: puzzles.into_iter().map(Arc::new).collect(),
                    by_id,
                }))
            })
            .clone()
            .map_err(|e| ApiError::internal(format!("the shipped puzzles are damaged: {e}")))
    }

    /// Puzzle `id`, or a 404 `no-puzzle`.
    pub(crate) fn get(&self, id: &str) -> Result<Arc<Puzzle>, ApiError> {
        let shelf = self.shelf()?;
        shelf
            .by_id
            .get(id)
            .map(|&i| Arc::clone(&shelf.puzzles[i]))
            .ok_or_else(|| {
                ApiError::not_found(format!("no puzzle {id:?}"))
                    .with_code("no-puzzle")
                    .with("id", id)
            })
    }
}
