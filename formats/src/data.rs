//! Where Chariot finds the data it ships and the data a user adds: one rule for the engine,
//! `egtb-gen` and the web server, so that an installed binary finds its tables as a source
//! checkout does. (The default opening book needs no search: it is built into the binary.)
//!
//! Endgame tables are looked for, in this order, and every directory that exists is used (a
//! table found in an earlier one wins):
//!
//! 1. `CHARIOT_EGTB`: directories separated as in `PATH` (`:` on Unix, `;` on Windows);
//! 2. `egtb/` next to the executable, then `../share/chariot/egtb/` from it (an installed layout:
//!    `/usr/local/bin/chariot` finds `/usr/local/share/chariot/egtb`);
//! 3. the user's data directory: `$XDG_DATA_HOME/chariot/egtb` or `~/.local/share/chariot/egtb`
//!    on Linux, `~/Library/Application Support/chariot/egtb` on macOS,
//!    `%APPDATA%\chariot\egtb` on Windows;
//! 4. `data/egtb` of the source tree the binary was built from, as a fallback for development
//!    (a `cargo run` in a fresh clone uses the shipped tables).
//!
//! Tables a user generates go to [`user_table_dir`] unless told otherwise: the first directory of
//! `CHARIOT_EGTB`, or else the user's data directory, both of which the lookup above reads.

use std::path::{Path, PathBuf};

/// The environment variable that names table directories ahead of every other place.
pub const EGTB_ENV: &str = "CHARIOT_EGTB";

/// Every existing table directory, in the order of the module documentation, without repeats.
#[must_use]
pub fn table_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for dir in table_dir_candidates() {
        if dir.is_dir() && !dirs.iter().any(|d| same_dir(d, &dir)) {
            dirs.push(dir);
        }
    }
    dirs
}

/// Every place [`table_dirs`] looks, whether it exists or not (for messages that say where
/// tables were looked for).
#[must_use]
pub fn table_dir_candidates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os(EGTB_ENV)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    if let Some(exe_dir) = std::env::current_exe().ok().and_then(|e| parent(&e)) {
        dirs.push(exe_dir.join("egtb"));
        dirs.push(
            exe_dir
                .join("..")
                .join("share")
                .join("chariot")
                .join("egtb"),
        );
    }
    if let Some(data) = dirs::data_dir() {
        dirs.push(data.join("chariot").join("egtb"));
    }
    dirs.push(source_tree_tables());
    dirs
}

/// Where newly generated tables go by default: the first directory of `CHARIOT_EGTB`, else the
/// user's data directory (`~/.local/share/chariot/egtb` on Linux), else `data/egtb` of the source
/// tree when there is no home directory at all.
#[must_use]
pub fn user_table_dir() -> PathBuf {
    if let Some(first) = std::env::var_os(EGTB_ENV)
        .and_then(|v| std::env::split_paths(&v).find(|p| !p.as_os_str().is_empty()))
    {
        return first;
    }
    dirs::data_dir()
        .map(|d| d.join("chariot").join("egtb"))
        .unwrap_or_else(source_tree_tables)
}

/// The directory of the game collections Chariot ships (`*.pgn.zst`, from which the default
/// book and the web explorer's default game database are built): `games/` next to the
/// executable, `../share/chariot/games/` from it, or `data/games` of the source tree; the first
/// that exists.
#[must_use]
pub fn games_dir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::current_exe()
        .ok()
        .as_deref()
        .and_then(Path::parent)
    {
        candidates.push(dir.join("games"));
        if let Some(up) = parent(dir) {
            candidates.push(up.join("share").join("chariot").join("games"));
        }
    }
    candidates.push(source_tree_tables().with_file_name("games"));
    candidates.into_iter().find(|d| d.is_dir())
}

/// Where Chariot keeps what a user makes that it cannot rebuild (the web app's game database
/// with the games uploaded to it, the books compiled in the browser): `$XDG_DATA_HOME/chariot` or
/// `~/.local/share/chariot` on Linux, `~/Library/Application Support/chariot` on macOS,
/// `%APPDATA%\chariot` on Windows; the system's temporary directory without a home.
#[must_use]
pub fn user_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("chariot")
}

/// `data/egtb` of the source tree this binary was built from.
#[must_use]
pub fn source_tree_tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join("data")
        .join("egtb")
}

fn parent(path: &Path) -> Option<PathBuf> {
    path.parent().map(Path::to_path_buf)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_tree_tables_are_found_last_and_exist() {
        let dirs = table_dir_candidates();
        assert_eq!(dirs.last(), Some(&source_tree_tables()));
        assert!(source_tree_tables().join("KRK.egtb").is_file());
        assert!(
            table_dirs()
                .iter()
                .any(|d| same_dir(d, &source_tree_tables()))
        );
    }
}
