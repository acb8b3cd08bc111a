//! Xiangqi game files: reading the collections people actually have, writing PGN and checking
//! games against the rules. The SQLite game database over them is `chariot-gamedb`, so that
//! a tool that only reads game files (the league) compiles no database.
//!
//! [`read_file`] and [`read_bytes`] take one file of any supported kind and hand over its games as
//! [`GameRecord`]s, reporting every problem with its game number and line instead of stopping:
//!
//! - [`pgn`]: Xiangqi PGN with ICCS, WXF, Chinese or WinBoard SAN moves;
//! - [`dhtmlxq`]: DhtmlXQ/UBB blocks in `.ubb` files and web pages;
//! - [`xqf`]: XQStudio's binary XQF, including the obfuscated later versions;
//! - any of these zstd-compressed; text in UTF-8, UTF-16, GBK/GB18030 or Big5 ([`encoding`]).
//!
//! Moves stay as written (text) or as squares; [`checked::check`] resolves them into legal moves
//! with the position at hand, or rejects the game with its ply and reason.
//! [`write`](mod@write) writes games as Xiangqi PGN in any of the three notations, in UTF-8 or
//! GBK. The byte layouts and quirks are described in `docs/formats/game-files.md`.

pub mod checked;
pub mod date;
pub mod dhtmlxq;
pub mod encoding;
pub mod lines;
pub mod pgn;
pub mod problem;
pub mod read;
pub mod record;
pub mod text;
pub mod write;
pub mod xqf;

pub use date::GameDate;
pub use encoding::TextEncoding;
pub use problem::{Problem, ProblemKind, Severity};
pub use read::{FileFormat, FileSummary, read_all, read_bytes, read_file};
pub use record::{GameRecord, GameResult, MoveToken, NotationGuess, ReadEvent, parse_result};
