//! What can go wrong building, loading, verifying or cross-checking a table, named with the file.

use std::path::PathBuf;

use chariot_formats::egtb::{FileError, IndexError, Signature};

use crate::dtm::GenError;
use crate::loaded::LoadError;

/// A table could not be built, read or checked.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// A table file cannot be opened or read.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: FileError,
    },
    /// A table file cannot be loaded into memory.
    #[error("{}: {source}", path.display())]
    Load {
        /// The file.
        path: PathBuf,
        /// Why.
        source: LoadError,
    },
    /// A signature cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// The retrograde analysis failed.
    #[error("generating {signature}: {source}")]
    Generate {
        /// The table.
        signature: Signature,
        /// Why.
        source: GenError,
    },
    /// A file's header does not match its contents.
    #[error("{}: {reason}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// Blocks of no entries, or of more than readers take, were asked for.
    #[error(
        "--block-entries must be from 1 to {}",
        chariot_formats::egtb::file::MAX_BLOCK_ENTRIES
    )]
    BlockEntries,
    /// A file could not be measured after writing.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
