//! The Xiangqi endgame tablebase generator behind the `egtb-gen` binary.
//!
//! Stages, as in Syzygy's `tbgen`/`tbver`: [`generate`] (retrograde analysis of one table, with
//! [`retro`] unmoves and the [`perpetual`] check rule), [`run`] (dependencies, skipping finished
//! tables, compression and atomic writes), [`tools`] (`info`, `probe` and `verify`, which read
//! tables only through the library's reader) and [`crosscheck`] (tables against a plain mate
//! search). The file format, the index and the prober live in the library: `chariot::egtb`.

pub mod cli;
pub mod crosscheck;
pub mod game;
pub mod generate;
pub mod perpetual;
pub mod retro;
pub mod run;
pub mod sets;
pub mod tools;
pub mod verify;
