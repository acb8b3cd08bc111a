//! The book builder's library: from game collections to Chariot's opening book.
//!
//! The games themselves (reading every kind of game file, checking them against the rules, the
//! SQLite game database and its filters) are the `chariot_games` crate's; from there the book
//! is built in stages (`docs/formats/game-db.md`, `docs/formats/book.md`):
//!
//! - [`import`]: game files into the database, in transactional batches;
//! - [`compile`]: the selected games counted per position and move into a `.xqb` book;
//! - [`inspect`] and [`mod@bench`]: probing, trees, statistics and probe timing of a book;
//!   [`defaults`]: the engine's built-in book.
//!
//! [`positions`] takes quiet positions with their games' results from the same collections, for
//! tuning the engine's evaluation (`docs/tuning.md`).

pub mod bench;
pub mod compile;
pub mod defaults;
pub mod ecco;
pub mod import;
pub mod inspect;
pub mod positions;
