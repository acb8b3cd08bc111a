//! `chess-board`: the referee ("The Chess Board") of the 2018 AI chess contest
//! (`../shared/reference/chess-agent-contest-2018.zh.txt`, described in `docs/chess-board.md`).
//!
//! It starts two agent programs ([`agent`]), tells each its colour and passes moves between
//! them in the contest's modified SAN ([`words`] for the Board's own words), judges the game by
//! the contest rules with shakmaty's move generation and the agent crate's tolerant SAN reader
//! ([`game`]; [`ending`] says how a game ended, there and in matches), writes it as PGN
//! ([`pgn`]), and runs the contest's Swiss tournament ([`swiss`]: the contest's pairing rule;
//! the tournament is played by the match kit's paired runner, `chariot_matchkit::runner`,
//! with [`game::Agents`] as its game). [`colour`] holds the per-side helpers both referees use;
//! [`cli`] is the command line.
//!
//! It also measures UCI chess engines against each other (`chess-board match`): [`uci`] is the
//! client, [`matches`](mod@matches) the referee under FIDE's rules, one game of the match kit
//! runner's schedule at a time.

pub mod agent;
pub mod cli;
pub mod colour;
pub mod ending;
pub mod game;
pub mod matches;
pub mod pgn;
pub mod swiss;
pub mod uci;
pub mod words;
