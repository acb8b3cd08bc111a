//! The match kit: what a runner of engine-against-engine games needs, whatever the game. Both
//! of Chariot's runners are thin users of it: `chariot-league` (Xiangqi, with its Asian-rules
//! referee) and `chess-board` (the chess contest's referee, its Swiss tournament and its UCI
//! matches).
//!
//! - [`process`]: an engine as a child process, a reader thread per engine, every wait a
//!   channel wait with a deadline;
//! - [`client`]: the one UCCI/UCI engine client: the handshake with protocol detection, the
//!   options, positions and `go` within a game's clocks ([`client::Engine::think`]), its
//!   handshake apart (`handshake`);
//! - [`search`]: one search as a GUI asks for it: `go` with depth, nodes, a time for the move
//!   or no limit, `stop` on request, every `info` line to the caller;
//! - [`engine`]: what every client shares: failures, reported scores, the UCI `go` line,
//!   default waits, engine names;
//! - [`info`]: the one parser of `info` lines;
//! - [`options`]: the options an engine declares and the check of a value against one;
//! - [`settings`]: the `KEY=VALUE` engine settings of the command lines;
//! - [`clock`]: time controls and clocks;
//! - [`stats`]: Elo, LOS, the pentanomial model and the SPRT;
//! - [`rating`]: the ratings of a pool fitted jointly over all its games (maximum likelihood,
//!   as Ordo and BayesElo), with an anchor and intervals;
//! - [`standings`]: results so far, by game and by game pair;
//! - [`pairing`]: round-robin order, Swiss pairs and rules, the seeded shuffle;
//! - [`schedule`]: tournament kinds and their games, paired on one opening with the seats
//!   swapped;
//! - [`runner`]: the paired runner: a pool of game threads over the schedule, resume, the SPRT
//!   stop, behind the small [`runner::GamePlayer`] trait each game implements;
//! - [`ending`]: how a game ended, as the runner reads it ([`ending::GameEnding`]);
//! - [`report`]: the score line, the table, the Elo and SPRT lines and the results JSON;
//! - [`interrupt`]: stopping a run cleanly on Ctrl-C or SIGTERM.
//!
//! It depends on no Xiangqi engine, database or async runtime: the chess referee builds with
//! it alone (the rules crate comes along for the workspace's one seeded generator, and for
//! Xiangqi's ending, which [`ending::GameEnding`] is implemented for here).

pub mod client;
pub mod clock;
pub mod ending;
pub mod engine;
mod handshake;
pub mod info;
pub mod interrupt;
pub mod options;
pub mod pairing;
pub mod process;
pub mod rating;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod search;
pub mod settings;
pub mod standings;
pub mod stats;
