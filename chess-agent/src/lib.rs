//! `chess-agent`: an international-chess player for the 2018 AI contest's protocol (moves in a
//! modified SAN over standard input and output, see `docs/chess-agent.md`) and for UCI.
//!
//! The rules, SAN and Zobrist keys come from [`shakmaty`]; this crate adds what a player needs on
//! top of them: a tolerant move-text reader ([`san`]), an evaluation ([`eval`]), a search
//! ([`search`]), time management ([`timeman`]), a Polyglot opening book ([`book`]), a game record
//! with undo ([`game`]), a threaded engine API ([`engine`]) and the two text protocols
//! ([`protocol`]).
//!
//! The arrows point down: protocols call the engine, the engine calls search and book, and
//! everything uses shakmaty's rules.

pub mod book;
pub mod engine;
pub mod eval;
pub mod game;
pub mod packed_move;
pub mod protocol;
pub mod san;
pub mod search;
pub mod timeman;
