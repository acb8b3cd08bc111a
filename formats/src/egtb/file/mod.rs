//! The table file: header, block index and zstd-compressed blocks. Reader and writer together:
//! the header and its bytes in `header.rs`, opening, checking and reading a file
//! ([`TableFile`]) in `read.rs`, compressing blocks and writing a file in `write.rs`; the
//! constants and errors they share here.
//!
//! The byte layout is documented in `docs/formats/egtb.md`; in short:
//!
//! ```text
//! header (256 bytes; 192 in version 1;     magic, version, signature, key scheme, metric,
//!   CRC-32 in its last 4)                   value width, entries, block size, statistics,
//!                                           the coding of rule values
//! block index (version 3: one zstd frame;   per block its compressed length and the CRC-32
//!   versions 1 and 2: 16 bytes per block)   of its bytes, or the one code of a constant block
//! blocks                                    zstd frames of `block_entries` values each (none
//!                                           for a block of one code, version 3)
//! ```
//!
//! Every entry is a value code ([`Coding`](super::Coding)) of 1 or 2 bytes, little endian; the
//! Red (strong side) to move half comes first, then the Black half. A file is untrusted: any
//! fault the reader finds is a [`FileError`], never a panic.
//!
//! The writer emits version 3. Versions 1 (no rule values) and 2 (rule values) are read as
//! before: their block index lists each block's offset, and every block is a zstd frame, even a
//! block of one code (some 34 bytes with its index entry, most of a nearly drawn table).

mod header;
mod read;
#[cfg(test)]
mod testing;
mod write;

use std::path::PathBuf;

use super::ValueError;

pub use header::{HalfStats, Header};
pub use read::TableFile;
pub use write::{Block, compress_block, make_header, value_width, write_codes, write_table};

/// The file magic.
pub const MAGIC: [u8; 8] = *b"CHXQEGTB";
/// The format version this module writes (and the newest it reads): a compressed block index
/// and blocks of one code stored as the code alone.
pub const VERSION: u16 = 3;
/// The format version of tables with rule values written before version 3 (read only).
pub const VERSION_RULES: u16 = 2;
/// The format version of tables without rule values written before version 3 (read only).
pub const VERSION_PLAIN: u16 = 1;
/// The header length in bytes of version 1.
pub const HEADER_LEN: usize = 192;
/// The header length in bytes of versions 2 and 3.
pub const HEADER_LEN_V2: usize = 256;
/// Header flag: the perpetual-check rule was judged exactly for this table.
pub const FLAG_RULE_JUDGED: u8 = 1;
/// Header flag: the perpetual-check rule decides some positions (version 2 only).
pub const FLAG_RULE_DECIDES: u8 = 2;
/// The key scheme new files are generated in ([`super::index`]'s layout); files of the other
/// schemes are read too.
pub use super::index::KEY_SCHEME;
/// Default number of entries per block.
pub const DEFAULT_BLOCK_ENTRIES: u32 = 8 * 1024;
/// The most entries a block may hold (2 MiB decompressed at 2 bytes an entry): a reader decodes
/// a block whole, so a header asking more is refused rather than allocated.
pub const MAX_BLOCK_ENTRIES: u32 = 1 << 20;
/// The most blocks a table may have (version 3's block index then decompresses to 128 MiB at
/// most; with the default block size, tables of up to 137 G entries).
pub const MAX_BLOCKS: u32 = 1 << 24;

/// Why a table file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened, read or written.
    #[error("cannot access {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is shorter than its header or its block index says.
    #[error("table file truncated: {len} bytes, at least {need} expected")]
    Truncated {
        /// The file's length.
        len: u64,
        /// The length it should have at least.
        need: u64,
    },
    /// Not a table file.
    #[error("not a Chariot table file (bad magic)")]
    BadMagic,
    /// A version this reader does not know.
    #[error("table format version {0} is not supported (this reader knows versions 1 to 3)")]
    UnsupportedVersion(u16),
    /// The header's checksum does not match.
    #[error("corrupted table header (checksum mismatch)")]
    HeaderChecksum,
    /// A header field is invalid.
    #[error("corrupted table header: {0}")]
    BadHeader(String),
    /// The block index's checksum does not match.
    #[error("corrupted block index (checksum mismatch)")]
    BlockIndexChecksum,
    /// A block lies outside the file.
    #[error("corrupted block index: block {0} lies outside the file")]
    BlockOutOfBounds(u32),
    /// Version 3's block index does not decompress to its size, its blocks do not end where
    /// the file does, or a constant block's code does not fit the value width.
    #[error("corrupted block index: {0}")]
    BadBlockIndex(String),
    /// The table's codes do not fit in this machine's memory (reading it whole).
    #[error("{0} entries do not fit in memory (2 bytes each)")]
    TooLarge(u64),
    /// A block's checksum does not match.
    #[error("corrupted block {0} (checksum mismatch)")]
    BlockChecksum(u32),
    /// A block does not decompress to its size.
    #[error("corrupted block {block}: {reason}")]
    BlockDecompress {
        /// The block.
        block: u32,
        /// What went wrong.
        reason: String,
    },
    /// An entry holds a code that is no value.
    #[error("corrupted entry {entry}: {source}")]
    BadValue {
        /// The entry.
        entry: u64,
        /// The cause.
        source: ValueError,
    },
    /// An entry beyond the table.
    #[error("entry {entry} is beyond the table's {entries} entries")]
    OutOfRange {
        /// The entry asked for.
        entry: u64,
        /// The number of entries.
        entries: u64,
    },
    /// Compressing the block index failed while writing.
    #[error("compressing the block index: {0}")]
    CompressIndex(String),
    /// Compression failed while writing.
    #[error("compressing block {block}: {reason}")]
    Compress {
        /// The block.
        block: u32,
        /// What went wrong.
        reason: String,
    },
}
