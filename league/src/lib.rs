//! Chariot's league runner: engine-vs-engine Xiangqi matches and tournaments.
//!
//! Engines run as child processes spoken to over UCCI or UCI ([`engine`]); a [`game`] is
//! refereed by the rules ([`referee`]: mate, stalemate, perpetual check and chase under the
//! Asian rules, the 60-move rule) with clocks ([`clock`]), openings from files ([`openings`]),
//! and written as Xiangqi PGN ([`pgn`]). [`tournament`] pairs the engines (match, round robin,
//! Swiss, gauntlet) and runs games in parallel, stopping cleanly on Ctrl-C ([`interrupt`]) and
//! carrying on an interrupted run from its PGN ([`resume`]); [`stats`] turns results into Elo
//! with intervals and the SPRT; [`report`] prints the live table and the JSON lines. The command line is the `chariot-league` binary's; the
//! `KEY=VALUE` engine settings it shares with `chess-board match` are read by [`settings`].

pub mod clock;
pub mod engine;
pub mod game;
pub mod interrupt;
pub mod openings;
pub mod pgn;
pub mod referee;
pub mod report;
pub mod resume;
pub mod settings;
pub mod stats;
pub mod tournament;
