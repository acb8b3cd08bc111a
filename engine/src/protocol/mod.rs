//! The UCCI 3.0, UCI and CECP (XBoard) front ends: text over the engine API ([`crate::api`]).
//!
//! [`command`] is the typed command set of UCCI and UCI; [`ucci`] and [`uci`] turn lines into
//! commands; [`options`] prints the engine's options ([`crate::api::options`]) in each
//! protocol's words; [`session`] is the state machine that turns commands into engine calls;
//! [`output`] writes the engine's reports and answers in each protocol's words. [`cecp`] is
//! XBoard's protocol, which keeps the game itself and so has its own commands, state machine and
//! words. [`stdio`] runs a session on a byte stream. See `docs/protocol.md`.

pub mod cecp;
pub mod command;
pub mod options;
pub mod output;
pub mod session;
pub mod stdio;
pub mod ucci;
pub mod uci;

pub use stdio::{run, run_stdio};

/// Which protocol a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCCI.
    Ucci,
    /// UCI.
    Uci,
}
