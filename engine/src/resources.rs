//! The engine's resources, loaded in one place whoever asks: the opening books, the endgame
//! tables and the neural network, with their defaults (the built-in book, the tables of the
//! data directories, the built-in network) and the way users write them (`;` lists, `<empty>`).
//!
//! The UCCI/UCI options (`bookfiles`, `egtbpaths`, `evalfile`), `chariot serve`, `chariot
//! datagen` and the engine's own defaults all come here, so a book list means the same
//! everywhere and a protocol front end only turns words into calls (Stockfish's `Engine` loads
//! its network the same way, whoever sets `EvalFile`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chariot_eval::nnue::file::NetError;
use chariot_eval::nnue::{Architecture, Network, builtin};
use chariot_formats::book::{Book, BookError, BookSet};
use chariot_formats::data;
use chariot_formats::egtb::{ProbeError, Tablebases};
use thiserror::Error;

/// The value a GUI sends for an empty string option (the UCCI specification's `<empty>`).
pub const EMPTY: &str = "<empty>";

/// A resource that could not be loaded. The message names the file and what is wrong with it.
#[derive(Debug, Error)]
pub enum ResourceError {
    /// An opening book could not be opened.
    #[error(transparent)]
    Book(#[from] BookError),
    /// A network file could not be read.
    #[error(transparent)]
    Network(#[from] NetError),
}

/// The paths of a list setting as users write it: `;`-separated, each trimmed, empty entries
/// left out; empty or [`EMPTY`] is no path (the default).
#[must_use]
pub fn parse_list(value: &str) -> Vec<PathBuf> {
    let value = value.trim();
    if value == EMPTY {
        return Vec::new();
    }
    value
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// The path of a file setting: trimmed; empty or [`EMPTY`] is none (the default).
#[must_use]
pub fn parse_path(value: &str) -> Option<PathBuf> {
    let value = value.trim();
    (!value.is_empty() && value != EMPTY).then(|| PathBuf::from(value))
}

/// The opening books at `paths`, in order; the built-in book when `paths` is empty.
///
/// # Errors
///
/// The first book that cannot be opened ([`ResourceError::Book`], naming it): none is loaded
/// then, so a caller keeps what it had.
pub fn load_books<P: AsRef<Path>>(paths: &[P]) -> Result<BookSet, ResourceError> {
    if paths.is_empty() {
        return Ok(default_books());
    }
    let books = paths
        .iter()
        .map(|p| Book::open(p.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(BookSet::from_books(books))
}

/// The default opening books: the built-in book, compiled into the binary.
#[must_use]
pub fn default_books() -> BookSet {
    chariot_formats::book::builtin::book_set()
}

/// The endgame tables in the directories (or files) `dirs`; in the data directories
/// ([`data::table_dirs`]) when `dirs` is empty. A table that cannot be read is left out and
/// reported in the second value: the others still serve.
#[must_use]
pub fn load_tables<P: AsRef<Path>>(dirs: &[P]) -> (Tablebases, Vec<ProbeError>) {
    if dirs.is_empty() {
        Tablebases::open_skipping(&data::table_dirs())
    } else {
        Tablebases::open_skipping(dirs)
    }
}

/// The built-in network. Its bytes are checked like a file's; if they were damaged this is
/// `None` (the hand-written evaluation), so that a program plays rather than not at all.
#[must_use]
pub fn default_network() -> Option<Arc<Network>> {
    builtin::default_network()
}

/// The network in the file at `path`.
///
/// # Errors
///
/// [`ResourceError::Network`] when the file cannot be read or is not a valid network.
pub fn load_network_file(path: &Path) -> Result<Arc<Network>, ResourceError> {
    Ok(Arc::new(chariot_eval::nnue::file::read(path)?))
}

/// How an evaluation is described to users: `the built-in network chariot-net10a (128 neurons
/// a side, 8 output buckets)`, `the network of evalfile PATH (king-bucketed, 512 neurons a side,
/// 8 output buckets)`, or `the hand-written evaluation` when there is no network.
#[must_use]
pub fn describe_evaluation(network: Option<&Network>, file: Option<&Path>) -> String {
    let Some(net) = network else {
        return "the hand-written evaluation".to_owned();
    };
    let kind = match net.architecture() {
        Architecture::PieceSquare => "",
        Architecture::KingBucketed => "king-bucketed, ",
    };
    let shape = match net.buckets() {
        1 => format!("{kind}{} neurons a side", net.hidden()),
        b => format!("{kind}{} neurons a side, {b} output buckets", net.hidden()),
    };
    match file {
        Some(path) => format!("the network of evalfile {} ({shape})", path.display()),
        None => format!("the {} ({shape})", builtin::NAME),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_paths_read_as_users_write_them() {
        assert!(parse_list("").is_empty());
        assert!(parse_list("  <empty> ").is_empty());
        assert_eq!(
            parse_list(" a.xqb ;; b dir/c.xqb ;"),
            [PathBuf::from("a.xqb"), PathBuf::from("b dir/c.xqb")]
        );
        assert_eq!(parse_path(" <empty>"), None);
        assert_eq!(parse_path(""), None);
        assert_eq!(parse_path(" x.nnue "), Some(PathBuf::from("x.nnue")));
    }

    #[test]
    fn defaults_are_the_built_in_book_and_network() {
        let books = load_books::<PathBuf>(&[]).unwrap();
        assert_eq!(books.books().len(), 1);
        let net = default_network().expect("the built-in network loads");
        assert!(
            describe_evaluation(Some(&net), None).starts_with(&format!("the {}", builtin::NAME))
        );
        assert_eq!(
            describe_evaluation(None, None),
            "the hand-written evaluation"
        );
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nothing.xqb");
        let Err(e) = load_books(&[&missing]) else {
            panic!("a missing book loaded");
        };
        assert!(matches!(e, ResourceError::Book(_)));
        assert!(e.to_string().contains("nothing.xqb"), "{e}");
        let Err(e) = load_network_file(&dir.path().join("nothing.nnue")) else {
            panic!("a missing network loaded");
        };
        assert!(e.to_string().contains("nothing.nnue"), "{e}");
        let (tables, problems) = load_tables(&[dir.path().join("no-such-dir")]);
        assert_eq!((tables.len(), problems.len()), (0, 1));
    }
}
