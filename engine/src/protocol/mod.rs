//! The UCCI 3.0 and UCI front ends over one typed engine driver.
//!
//! [`command`] is the typed command set; [`ucci`] and [`uci`] turn lines into commands;
//! [`options`] lists the options with their names in each protocol; [`session`] is the driver
//! that owns the position, the searcher and the search thread. See `docs/protocol.md`.

pub mod command;
pub mod options;
pub mod session;
pub mod ucci;
pub mod uci;

pub use session::{run, run_stdio};
