//! A book's moves as the API answers them, the same at `/api/book` and `/api/position`: the web
//! app's own response type, with the explorer's field names (lichess's `white`/`draws`/`black`
//! become `red_wins`/`draws`/`black_wins`), whatever the book builder's report looks like.

use chariot_formats::book::{Book, BookSet};
use chariot_rules::Position;
use serde::Serialize;

/// One book move in a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BookMoveView {
    /// ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    /// WXF.
    pub wxf: String,
    /// Chinese (simplified).
    pub chinese: String,
    /// Games with the move.
    pub games: u32,
    /// Of those, won by Red.
    pub red_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by Black.
    pub black_wins: u32,
    /// Mean Elo of the players who made the move, `null` when unknown.
    pub mean_elo: Option<u16>,
    /// The book's weight.
    pub weight: u32,
    /// Share of the position's total weight (0 to 1).
    pub probability: f64,
    /// Score for the side to move (win 1, draw ½) over the games with a result.
    pub score: f64,
}

/// The moves `book` has for `pos`, best weight first.
#[must_use]
pub fn book_moves(book: &Book, pos: &Position) -> Vec<BookMoveView> {
    book_builder::inspect::probe_moves(book, pos)
        .into_iter()
        .map(|p| BookMoveView {
            mv: p.mv,
            wxf: p.wxf,
            chinese: p.chinese,
            games: p.games,
            red_wins: p.red_wins,
            draws: p.draws,
            black_wins: p.black_wins,
            mean_elo: p.mean_elo,
            weight: p.weight,
            probability: p.probability,
            score: p.score,
        })
        .collect()
}

/// The moves of the first book of `books` that knows `pos` (the one the engine plays from).
#[must_use]
pub fn engine_book_moves(books: &BookSet, pos: &Position) -> Vec<BookMoveView> {
    books
        .books()
        .iter()
        .map(|b| book_moves(b, pos))
        .find(|moves| !moves.is_empty())
        .unwrap_or_default()
}
