//! Chariot's league runner: engine-vs-engine Xiangqi matches and tournaments, a thin user of
//! the match kit (`chariot-matchkit`: processes, clocks, statistics, standings, pairings,
//! reports, interrupts).
//!
//! Engines are spoken to over UCCI or UCI ([`engine`]); a [`game`] is refereed by the rules
//! ([`referee`]: mate, stalemate, perpetual check and chase under the Asian rules, the 60-move
//! rule) with the kit's clocks, openings from files ([`openings`]), and written as Xiangqi PGN
//! ([`pgn`]). The match kit's paired runner schedules the games (match, round robin, Swiss,
//! gauntlet), runs them in parallel, stops cleanly on Ctrl-C and carries on an interrupted run
//! from the games [`resume`] reads back from its PGN; [`tournament`] is the league's side of it
//! (a Xiangqi game of the schedule), and [`report`] writes each finished game's line;
//! [`ratings`] rates the players of game files jointly (`--ratings`). The command line is the
//! `chariot-league` binary's.

pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod ratings;
pub mod referee;
pub mod report;
pub mod resume;
pub mod tournament;
