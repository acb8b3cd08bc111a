//! The opening book built into every Chariot binary: `data/book.xqb`, compiled from the master
//! games in `data/games/` by `book-builder build-default` (see `data/README.md`). The engine plays
//! from it while `bookfiles` is empty; `chariot datagen` walks it for varied openings.

use super::{Book, BookError, BookSet};

/// The book's bytes, as compiled into the binary.
pub static BYTES: &[u8] = include_bytes!("../../../data/book.xqb");

/// The name the built-in book goes by in messages.
pub const NAME: &str = "built-in book";

/// The built-in book, checked like any file.
///
/// # Errors
///
/// The book's [`BookError`], should the compiled-in bytes ever be damaged.
pub fn book() -> Result<Book, BookError> {
    Book::from_bytes(NAME, BYTES)
}

/// The built-in book as a set of one, or an empty set if its bytes are damaged (so that a
/// program plays without a book rather than not at all).
#[must_use]
pub fn book_set() -> BookSet {
    book()
        .map(|b| BookSet::from_books(vec![b]))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_built_in_book_opens_and_knows_the_start_position() {
        let set = super::book_set();
        assert!(!set.is_empty());
        assert!(!set.probe(&chariot_rules::Position::start()).is_empty());
    }
}
