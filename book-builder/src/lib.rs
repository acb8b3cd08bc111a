//! The book builder's library: reading the Xiangqi game collections people actually have.
//!
//! [`read_file`] and [`read_bytes`] take one file of any supported kind and hand over its games as
//! [`GameRecord`]s, reporting every problem with its game number and line instead of stopping:
//!
//! - [`pgn`]: Xiangqi PGN with ICCS, WXF, Chinese or WinBoard SAN moves;
//! - [`dhtmlxq`]: DhtmlXQ/UBB blocks in `.ubb` files and web pages;
//! - [`xqf`]: XQStudio's binary XQF, including the obfuscated later versions;
//! - any of these zstd-compressed; text in UTF-8, UTF-16, GBK/GB18030 or Big5 ([`encoding`]).
//!
//! Moves stay as written (text) or as squares; resolving them into legal moves is the importer's
//! job, with the position at hand. The byte layouts and quirks are described in
//! `docs/formats/game-files.md`.
//!
//! From there the book is built in stages (`docs/formats/game-db.md`, `docs/formats/book.md`):
//!
//! - [`game`]: every move of a record checked against the rules, or the game rejected with its
//!   ply and reason;
//! - [`db`] and [`import`]: checked games stored in a SQLite database, deduplicated by content,
//!   in transactional batches;
//! - [`filter`] and [`compile`]: the selected games counted per position and move into a
//!   `.xqb` book;
//! - [`inspect`] and [`mod@bench`]: probing, trees, statistics and probe timing of a book;
//!   [`defaults`]: the engine's built-in book.
//!
//! [`positions`] takes quiet positions with their games' results from the same collections, for
//! tuning the engine's evaluation (`docs/tuning.md`).

pub mod bench;
pub mod compile;
pub mod date;
pub mod db;
pub mod defaults;
pub mod dhtmlxq;
pub mod encoding;
pub mod filter;
pub mod game;
pub mod import;
pub mod inspect;
pub mod lines;
pub mod pgn;
pub mod positions;
pub mod problem;
pub mod read;
pub mod record;
pub mod text;
pub mod xqf;

pub use date::GameDate;
pub use encoding::TextEncoding;
pub use problem::{Problem, ProblemKind, Severity};
pub use read::{FileFormat, FileSummary, ReadEvent, read_all, read_bytes, read_file};
pub use record::{GameRecord, GameResult, MoveToken, Notation};
