//! The Xiangqi game database: checked games (`chariot-games`) kept in SQLite.
//!
//! [`db`] keeps games deduplicated by content, with their players, events, dates and results,
//! imported transactionally and idempotently; [`filter`] selects from it (players in either
//! script, colour, event, dates, result, rating); [`index`] finds the games through a position
//! (the explorer) by its Zobrist key; [`moves`] is how a game's moves are stored. The schema
//! is `docs/formats/game-db.md`.
//!
//! A crate of its own so that tools that only read game files (the league, the engine's tests)
//! compile no database.

pub mod db;
pub mod filter;
pub mod fold;
pub mod index;
pub mod moves;
