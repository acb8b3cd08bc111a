//! The Xiangqi endgame tablebase generator behind the `egtb-gen` binary.
//!
//! Stages, as in Syzygy's `tbgen`/`tbver`: [`dtm`] (the retrograde analysis of one table to
//! mate, over the working [`state`] codes, with [`retro`] unmoves, then the perpetual-check
//! rule: [`perpetual`] builds the table's game for [`perpetual_game`], which solves it over its
//! [`region`]), [`dtc`] (distances to conversion from the finished values), [`pipeline`]
//! (subtables [`loaded`]
//! into memory, compression in the better [`layout`] and atomic writes), [`verify`] (an
//! independent re-check, the rule's game included, reading tables only through the library's
//! reader), [`crosscheck`] (tables against a plain mate search) and [`repack`] (older files
//! rewritten in the current format); [`sets`] names the sets of
//! tables and [`plan`] writes a set's dependency graph for `make` or Snakemake.
//! Errors are typed ([`error::TableError`]); progress is reported through
//! [`dtm::Progress`]. The commands (argument parsing, progress bars, output, exit codes)
//! are the binary's. The file format, the index and the prober live in `chariot_formats::egtb`.

pub mod crosscheck;
pub mod dtc;
pub mod dtm;
pub mod error;
pub mod layout;
pub mod level_chunks;
pub mod loaded;
pub mod perpetual;
pub mod perpetual_game;
pub mod pipeline;
pub mod plan;
pub mod region;
pub mod repack;
pub mod retro;
pub mod sets;
pub mod state;
pub mod verify;
