//! Chariot's engine: the search, the engine API and its UCCI/UCI/CECP front ends, over the rules
//! (`chariot-rules`), the file formats (`chariot-formats`) and the evaluations (`chariot-eval`).
//!
//! [`search`] is the engine's thinking (iterative deepening, PVS, the transposition table, move
//! ordering, time); [`api`] is the typed engine API over it (position, options, a non-blocking
//! `go`, the book, tablebase and draw/resign policies), and [`protocol`] holds the UCCI, UCI and
//! CECP (XBoard) front ends, text over that API.

pub mod api;
pub mod protocol;
pub mod resources;
pub mod search;
