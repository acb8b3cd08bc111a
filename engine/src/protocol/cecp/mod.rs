//! CECP, XBoard's and WinBoard's own protocol (the Chess Engine Communication Protocol, version
//! 2, by Tim Mann and H. G. Muller), with `variant xiangqi`: XBoard users need no adapter.
//!
//! [`command`] turns a line into a [`command::Command`]; [`game`] keeps the game and turns
//! commands into engine calls; [`output`] writes the `feature` handshake (the options from the
//! engine's registry), thinking output, moves and result claims. The session starts when the
//! first command is `xboard` (`super::stdio` hands the engine over). Moves are ICCS coordinates
//! with ranks 0-9 from Red's side (`h2e2`), which is how XBoard numbers the ranks of a board of
//! ten; FENs may use XBoard's letters H and E for horse and elephant. See `docs/protocol.md`.

pub mod command;
pub mod game;
pub mod output;

pub use game::{Game, Waker};
