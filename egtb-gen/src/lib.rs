//! The Xiangqi endgame tablebase generator behind the `egtb-gen` binary.
//!
//! Stages, as in Syzygy's `tbgen`/`tbver`: [`generate`] (retrograde analysis of one table, with
//! [`retro`] unmoves, then the perpetual-check rule: [`perpetual`] builds the table's game for
//! [`game`], which solves it), [`run`] (dependencies, skipping finished tables, compression and
//! atomic writes), [`tools`] (`info` and `probe`) and [`verify`] (an independent re-check,
//! the rule's game included), which read tables only through the library's reader, and
//! [`crosscheck`] (tables against a plain mate search). The file format, the index and the prober live in the library: `chariot::egtb`.

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
