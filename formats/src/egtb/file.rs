//! The table file: header, block index and zstd-compressed blocks. Reader and writer together.
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
//! Every entry is a value code ([`Coding`]) of 1 or 2 bytes, little endian; the Red
//! (strong side) to move half comes first, then the Black half. A file is untrusted: opening
//! checks the magic, version, header checksum, sizes against the signature's index, the block
//! index checksum and that every block lies inside the file; a block's checksum and size are
//! checked when it is decompressed. Any fault is a [`FileError`], never a panic.
//!
//! Files are read through a memory map. The map is only valid while the file keeps its length:
//! truncating a table that is open is the one fault that cannot be caught (the OS raises
//! SIGBUS), as with every memory-mapped table format. Writers never truncate in place: they
//! write a temporary file and rename it.
//!
//! The writer emits version 3. Versions 1 (no rule values) and 2 (rule values) are read as
//! before: their block index lists each block's offset, and every block is a zstd frame, even a
//! block of one code (some 34 bytes with its index entry, most of a nearly drawn table).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::index::Indexer;
use super::signature::Signature;
use super::{Coding, Metric, Value, ValueError};
use chariot_rules::Color;

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
/// The zstd level of version 3's block index.
const INDEX_LEVEL: i32 = 12;
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
/// Blocks kept decompressed per open table.
const CACHE_BLOCKS: usize = 16;

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

/// Counts for one half of a table (one side to move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HalfStats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Positions won by the perpetual-check rule (not counted in `wins`; version 2).
    pub rule_wins: u64,
    /// Positions lost by the perpetual-check rule (not counted in `losses`; version 2).
    pub rule_losses: u64,
    /// Indices that are no legal position (shared squares, generals facing, side not to move in check).
    pub unused: u64,
    /// The longest distance to mate in plies (won or lost), 0 when there is none.
    pub max_dtm: u32,
    /// An index whose distance is `max_dtm` (meaningful when `max_dtm > 0`).
    pub max_dtm_index: u64,
}

/// What a table's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The format version of the file read ([`VERSION`] for a header to be written: the writer
    /// writes nothing else).
    pub version: u16,
    /// The table's material.
    pub signature: Signature,
    /// The key scheme ([`KEY_SCHEME`]).
    pub key_scheme: u8,
    /// Bytes per entry: 1 or 2.
    pub value_width: u8,
    /// Flags: [`FLAG_RULE_JUDGED`], [`FLAG_RULE_DECIDES`].
    pub flags: u8,
    /// How codes map to values, the metric included (no rule values in version 1).
    pub coding: Coding,
    /// Entries per half.
    pub entries_per_half: u64,
    /// Entries per block (the last block may be shorter).
    pub block_entries: u32,
    /// Number of blocks.
    pub blocks: u32,
    /// Statistics, Red (strong side) to move first.
    pub stats: [HalfStats; 2],
}

impl Header {
    /// The number of entries in the file (both halves).
    #[must_use]
    pub fn entries(&self) -> u64 {
        2 * self.entries_per_half
    }

    /// The format version of the file read (see [`Header::version`]'s field).
    #[must_use]
    pub fn version(&self) -> u16 {
        self.version
    }

    /// The header's length in bytes (it depends on the version).
    #[must_use]
    pub fn header_len(&self) -> usize {
        if self.version == VERSION_PLAIN {
            HEADER_LEN
        } else {
            HEADER_LEN_V2
        }
    }

    /// The value of `code` in this table.
    ///
    /// # Errors
    /// [`ValueError`] for a code that is no value.
    pub fn decode(&self, code: u16) -> Result<Value, ValueError> {
        self.coding.decode(code)
    }

    /// The number of entries in block `b`.
    #[must_use]
    pub fn entries_in_block(&self, b: u32) -> usize {
        let start = u64::from(b) * u64::from(self.block_entries);
        (self.entries() - start).min(u64::from(self.block_entries)) as usize
    }

    /// The header's bytes in version 3 (whatever version it was read from), with the block
    /// index's checksum and length.
    fn to_bytes(&self, index_crc: u32, index_len: u64) -> Vec<u8> {
        let len = HEADER_LEN_V2;
        let mut h = vec![0u8; len];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&(len as u16).to_le_bytes());
        h[12] = self.key_scheme;
        h[13] = self.coding.metric.code();
        h[14] = self.value_width;
        h[15] = self.flags;
        let name = self.signature.to_string();
        h[16..16 + name.len()].copy_from_slice(name.as_bytes());
        h[48..56].copy_from_slice(&self.entries_per_half.to_le_bytes());
        h[56..60].copy_from_slice(&self.block_entries.to_le_bytes());
        h[60..64].copy_from_slice(&self.blocks.to_le_bytes());
        for (i, s) in self.stats.iter().enumerate() {
            let o = 64 + 48 * i;
            h[o..o + 8].copy_from_slice(&s.wins.to_le_bytes());
            h[o + 8..o + 16].copy_from_slice(&s.draws.to_le_bytes());
            h[o + 16..o + 24].copy_from_slice(&s.losses.to_le_bytes());
            h[o + 24..o + 32].copy_from_slice(&s.unused.to_le_bytes());
            h[o + 32..o + 36].copy_from_slice(&s.max_dtm.to_le_bytes());
            h[o + 40..o + 48].copy_from_slice(&s.max_dtm_index.to_le_bytes());
        }
        h[160..164].copy_from_slice(&index_crc.to_le_bytes());
        if self.coding.has_rule_values() {
            h[164..166].copy_from_slice(&self.coding.rule_base.to_le_bytes());
            h[166..168].copy_from_slice(&self.coding.rule_stride.to_le_bytes());
            h[168..170].copy_from_slice(&self.coding.rule_stages.to_le_bytes());
            h[208..224].copy_from_slice(&self.coding.chase_stages[0].to_le_bytes());
            h[224..240].copy_from_slice(&self.coding.chase_stages[1].to_le_bytes());
            for (i, s) in self.stats.iter().enumerate() {
                let o = 176 + 16 * i;
                h[o..o + 8].copy_from_slice(&s.rule_wins.to_le_bytes());
                h[o + 8..o + 16].copy_from_slice(&s.rule_losses.to_le_bytes());
            }
        }
        h[240..248].copy_from_slice(&index_len.to_le_bytes());
        let crc = crc32fast::hash(&h[..len - 4]);
        h[len - 4..].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// Reads and checks a header; returns it with the block index's checksum and (version 3)
    /// its length in bytes.
    fn from_bytes(b: &[u8]) -> Result<(Header, u32, u64), FileError> {
        if b.len() >= 8 && b[..8] != MAGIC {
            return Err(FileError::BadMagic);
        }
        if b.len() < 10 {
            return Err(FileError::Truncated {
                len: b.len() as u64,
                need: HEADER_LEN as u64,
            });
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        let len = match version {
            VERSION_PLAIN => HEADER_LEN,
            VERSION_RULES | VERSION => HEADER_LEN_V2,
            v => return Err(FileError::UnsupportedVersion(v)),
        };
        if b.len() < len {
            return Err(FileError::Truncated {
                len: b.len() as u64,
                need: len as u64,
            });
        }
        let h = &b[..len];
        let crc = u32::from_le_bytes(h[len - 4..].try_into().unwrap_or_default());
        if crc32fast::hash(&h[..len - 4]) != crc {
            return Err(FileError::HeaderChecksum);
        }
        let bad = |what: String| Err(FileError::BadHeader(what));
        let u64_at = |o: usize| u64::from_le_bytes(h[o..o + 8].try_into().unwrap_or_default());
        let u32_at = |o: usize| u32::from_le_bytes(h[o..o + 4].try_into().unwrap_or_default());
        let u16_at = |o: usize| u16::from_le_bytes([h[o], h[o + 1]]);
        if usize::from(u16_at(10)) != len {
            return bad("header length".into());
        }
        let name_bytes: Vec<u8> = h[16..48].iter().copied().take_while(|&c| c != 0).collect();
        let name = String::from_utf8_lossy(&name_bytes).into_owned();
        let signature: Signature = match name.parse() {
            Ok(s) => s,
            Err(e) => return bad(format!("signature: {e}")),
        };
        if signature.to_string() != name {
            return bad(format!("signature {name:?} is not in canonical form"));
        }
        let Some(metric) = Metric::from_code(h[13]) else {
            return bad(format!("unknown metric {}", h[13]));
        };
        // Rule values: always in version 2, in version 3 when it gives them stages.
        let rules = version == VERSION_RULES || (version == VERSION && u16_at(168) != 0);
        let header = Header {
            version,
            signature,
            key_scheme: h[12],
            value_width: h[14],
            flags: h[15],
            coding: if rules {
                Coding {
                    metric,
                    rule_base: u16_at(164),
                    rule_stride: u16_at(166),
                    rule_stages: u16_at(168),
                    chase_stages: [
                        u128::from_le_bytes(h[208..224].try_into().expect("16 bytes")),
                        u128::from_le_bytes(h[224..240].try_into().expect("16 bytes")),
                    ],
                }
            } else {
                Coding::plain(metric)
            },
            entries_per_half: u64_at(48),
            block_entries: u32_at(56),
            blocks: u32_at(60),
            stats: [0, 1].map(|i| {
                let o = 64 + 48 * i;
                HalfStats {
                    wins: u64_at(o),
                    draws: u64_at(o + 8),
                    losses: u64_at(o + 16),
                    rule_wins: if rules { u64_at(176 + 16 * i) } else { 0 },
                    rule_losses: if rules { u64_at(184 + 16 * i) } else { 0 },
                    unused: u64_at(o + 24),
                    max_dtm: u32_at(o + 32),
                    max_dtm_index: u64_at(o + 40),
                }
            }),
        };
        if !super::index::is_known_scheme(header.key_scheme) {
            return bad(format!("unknown key scheme {}", header.key_scheme));
        }
        if version == VERSION && !rules {
            // No rule values: the coding's fields and the rule counts are zero.
            let zero = h[164..168].iter().chain(&h[176..208]).all(|&x| x == 0);
            if !zero {
                return bad("rule coding without rule stages".into());
            }
        }
        if rules {
            let c = header.coding;
            let top = u64::from(c.rule_base) + u64::from(c.rule_stride) * u64::from(c.rule_stages);
            if c.rule_base < 3
                || c.rule_stride < 2
                || c.rule_stride % 2 == 1
                || c.rule_stages == 0
                || top > 1 << 16
            {
                return bad(format!(
                    "rule coding (base {}, stride {}, stages {})",
                    c.rule_base, c.rule_stride, c.rule_stages
                ));
            }
        }
        let c = header.coding;
        for (side, bits) in c.chase_stages.iter().enumerate() {
            let odd = 0xAAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAA_AAAAu128;
            let stages = u32::from(c.rule_stages);
            let beyond = if stages >= 128 { 0 } else { !0u128 << stages };
            if bits & !odd != 0 || bits & beyond != 0 {
                return bad(format!(
                    "chase stages {bits:#x} of side {side} (only odd stages below {stages})"
                ));
            }
        }
        if !matches!(header.value_width, 1 | 2) {
            return bad(format!("value width {}", header.value_width));
        }
        let size = Indexer::with_scheme(signature, header.key_scheme)
            .map_err(|e| FileError::BadHeader(e.to_string()))?
            .size();
        if header.entries_per_half != size {
            return bad(format!(
                "{} entries per half, the index of {signature} has {size}",
                header.entries_per_half
            ));
        }
        if header.block_entries == 0 || header.block_entries > MAX_BLOCK_ENTRIES {
            return bad(format!(
                "{} entries per block (1 to {MAX_BLOCK_ENTRIES} are read)",
                header.block_entries
            ));
        }
        let blocks = header.entries().div_ceil(u64::from(header.block_entries));
        if u64::from(header.blocks) != blocks {
            return bad(format!("{} blocks, {blocks} expected", header.blocks));
        }
        if header.blocks > MAX_BLOCKS {
            return bad(format!(
                "{} blocks (at most {MAX_BLOCKS} are read)",
                header.blocks
            ));
        }
        let index_len = if version == VERSION { u64_at(240) } else { 0 };
        Ok((header, u32_at(160), index_len))
    }
}

/// Where a block lies in the file: its offset, its compressed length and the CRC-32 of its
/// bytes; in version 3 a block of length 0 is constant, its code in `crc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BlockEntry {
    offset: u64,
    len: u32,
    crc: u32,
}

/// A block of a table as written: a zstd frame, or (a block of one code) the code alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// The block's entries compressed as one zstd frame.
    Frame(Vec<u8>),
    /// Every entry of the block holds this code.
    Constant(u16),
}

impl Block {
    /// The bytes the block takes in the file after the block index (0 for a constant block).
    #[must_use]
    pub fn stored_len(&self) -> usize {
        match self {
            Block::Frame(f) => f.len(),
            Block::Constant(_) => 0,
        }
    }
}

enum Data {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Data {
    fn bytes(&self) -> &[u8] {
        match self {
            Data::Mapped(m) => m,
            Data::Owned(v) => v,
        }
    }
}

/// The last few blocks a table decompressed, replaced in turn (first in, first out).
#[derive(Default)]
struct BlockCache {
    slots: Vec<(u32, Arc<[u8]>)>,
    next: usize,
}

/// An open table file.
pub struct TableFile {
    data: Data,
    header: Header,
    index: Vec<BlockEntry>,
    cache: Mutex<BlockCache>,
    dctx: Mutex<Option<zstd::bulk::Decompressor<'static>>>,
}

impl std::fmt::Debug for TableFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableFile")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl TableFile {
    /// Opens and checks a table file (memory-mapped).
    ///
    /// # Errors
    /// [`FileError::Io`] when it cannot be read, otherwise the first fault found.
    pub fn open(path: &Path) -> Result<TableFile, FileError> {
        let io = |source| FileError::Io {
            path: path.to_owned(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        // SAFETY: the map is read-only and the file is never written in place (writers rename a
        // finished temporary file over it); every length is checked against the map's length
        // before use. Truncation by another process remains undetectable (see the module notes).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        TableFile::from_data(Data::Mapped(map))
    }

    /// Reads a table from bytes in memory (tests and fuzzing).
    ///
    /// # Errors
    /// The first fault found, as for [`TableFile::open`].
    pub fn from_bytes(bytes: Vec<u8>) -> Result<TableFile, FileError> {
        TableFile::from_data(Data::Owned(bytes))
    }

    fn from_data(data: Data) -> Result<TableFile, FileError> {
        let b = data.bytes();
        let (header, index_crc, index_len) = Header::from_bytes(b)?;
        let index = if header.version == VERSION {
            compact_index(b, &header, index_crc, index_len)?
        } else {
            listed_index(b, &header, index_crc)?
        };
        Ok(TableFile {
            data,
            header,
            index,
            cache: Mutex::new(BlockCache::default()),
            dctx: Mutex::new(None),
        })
    }

    /// The header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's length in bytes.
    #[must_use]
    pub fn file_len(&self) -> u64 {
        self.data.bytes().len() as u64
    }

    /// Decompresses block `b` (bypassing the cache) and checks it.
    ///
    /// # Errors
    /// [`FileError::BlockChecksum`] or [`FileError::BlockDecompress`].
    pub fn read_block(&self, b: u32) -> Result<Vec<u8>, FileError> {
        let e = self
            .index
            .get(b as usize)
            .ok_or(FileError::BlockOutOfBounds(b))?;
        let expected = self.header.entries_in_block(b) * usize::from(self.header.value_width);
        if e.len == 0 && self.header.version == VERSION {
            // A constant block: its code, checked against the value width when opened.
            let code = e.crc as u16;
            return Ok(if self.header.value_width == 1 {
                vec![code as u8; expected]
            } else {
                code.to_le_bytes().repeat(expected / 2)
            });
        }
        let start = e.offset as usize;
        let raw = &self.data.bytes()[start..start + e.len as usize];
        if crc32fast::hash(raw) != e.crc {
            return Err(FileError::BlockChecksum(b));
        }
        let fault = |err: std::io::Error| FileError::BlockDecompress {
            block: b,
            reason: err.to_string(),
        };
        // A decompression context is costly to set up (more than a small block takes to
        // decompress), so each table keeps one.
        let out = {
            let mut ctx = self.dctx.lock().unwrap_or_else(|p| p.into_inner());
            if ctx.is_none() {
                *ctx = Some(zstd::bulk::Decompressor::new().map_err(fault)?);
            }
            match ctx.as_mut() {
                Some(d) => d.decompress(raw, expected).map_err(fault)?,
                None => unreachable!("the context was just created"),
            }
        };
        if out.len() != expected {
            return Err(FileError::BlockDecompress {
                block: b,
                reason: format!("{} bytes, {expected} expected", out.len()),
            });
        }
        Ok(out)
    }

    fn cached_block(&self, b: u32) -> Result<Arc<[u8]>, FileError> {
        {
            let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((_, data)) = cache.slots.iter().find(|(n, _)| *n == b) {
                return Ok(Arc::clone(data));
            }
        }
        let data: Arc<[u8]> = self.read_block(b)?.into();
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.slots.len() < CACHE_BLOCKS {
            cache.slots.push((b, Arc::clone(&data)));
        } else {
            let i = cache.next;
            cache.slots[i] = (b, Arc::clone(&data));
            cache.next = (i + 1) % CACHE_BLOCKS;
        }
        Ok(data)
    }

    /// The raw code of entry `entry` (0..[`Header::entries`]).
    ///
    /// # Errors
    /// [`FileError::OutOfRange`] or a block fault.
    pub fn code(&self, entry: u64) -> Result<u16, FileError> {
        let entries = self.header.entries();
        if entry >= entries {
            return Err(FileError::OutOfRange { entry, entries });
        }
        let per = u64::from(self.header.block_entries);
        let block = self.cached_block((entry / per) as u32)?;
        let i = (entry % per) as usize;
        Ok(code_at(&block, i, self.header.value_width))
    }

    /// The value of position `idx` with `turn` to move (in the table's frame).
    ///
    /// # Errors
    /// As [`TableFile::code`], or [`FileError::BadValue`] for a code that is no value.
    pub fn value(&self, turn: Color, idx: u64) -> Result<Value, FileError> {
        let entry = turn.index() as u64 * self.header.entries_per_half + idx;
        let code = self.code(entry)?;
        self.header
            .decode(code)
            .map_err(|source| FileError::BadValue { entry, source })
    }

    /// Every code of the table, decompressed (for the generator and `verify`).
    ///
    /// # Errors
    /// The first block fault.
    pub fn all_codes(&self) -> Result<Vec<u16>, FileError> {
        let entries = self.header.entries();
        let mut out = Vec::new();
        usize::try_from(entries)
            .ok()
            .and_then(|n| out.try_reserve_exact(n).ok())
            .ok_or(FileError::TooLarge(entries))?;
        for b in 0..self.header.blocks {
            out.extend(self.block_codes(b)?);
        }
        Ok(out)
    }

    /// The codes of block `b`, decompressed (bypassing the cache).
    ///
    /// # Errors
    /// As [`TableFile::read_block`].
    pub fn block_codes(&self, b: u32) -> Result<Vec<u16>, FileError> {
        let block = self.read_block(b)?;
        let n = self.header.entries_in_block(b);
        Ok((0..n)
            .map(|i| code_at(&block, i, self.header.value_width))
            .collect())
    }

    /// The compressed size of the blocks in bytes.
    #[must_use]
    pub fn compressed_len(&self) -> u64 {
        self.index.iter().map(|e| u64::from(e.len)).sum()
    }
}

/// The block index of versions 1 and 2: 16 bytes a block after the header (offset, length,
/// CRC-32), every block inside the file.
fn listed_index(b: &[u8], header: &Header, index_crc: u32) -> Result<Vec<BlockEntry>, FileError> {
    let index_len = 16 * header.blocks as usize;
    let head = header.header_len();
    let need = (head + index_len) as u64;
    if (b.len() as u64) < need {
        return Err(FileError::Truncated {
            len: b.len() as u64,
            need,
        });
    }
    let raw = &b[head..head + index_len];
    if crc32fast::hash(raw) != index_crc {
        return Err(FileError::BlockIndexChecksum);
    }
    let mut index = Vec::with_capacity(header.blocks as usize);
    for (i, e) in raw.chunks_exact(16).enumerate() {
        let entry = BlockEntry {
            offset: u64::from_le_bytes(e[0..8].try_into().unwrap_or_default()),
            len: u32::from_le_bytes(e[8..12].try_into().unwrap_or_default()),
            crc: u32::from_le_bytes(e[12..16].try_into().unwrap_or_default()),
        };
        let end = entry.offset.checked_add(u64::from(entry.len));
        if entry.offset < need || end.is_none_or(|end| end > b.len() as u64) {
            return Err(FileError::BlockOutOfBounds(i as u32));
        }
        index.push(entry);
    }
    Ok(index)
}

/// The block index of version 3: `index_len` bytes after the header, one zstd frame of the
/// blocks' lengths (u32 each) followed by their words (u32 each: the CRC-32 of a block's bytes,
/// or a constant block's code); the blocks follow it in order and end where the file does.
fn compact_index(
    b: &[u8],
    header: &Header,
    index_crc: u32,
    index_len: u64,
) -> Result<Vec<BlockEntry>, FileError> {
    let head = header.header_len() as u64;
    let need = head.saturating_add(index_len);
    if (b.len() as u64) < need {
        return Err(FileError::Truncated {
            len: b.len() as u64,
            need,
        });
    }
    let raw = &b[head as usize..need as usize];
    if crc32fast::hash(raw) != index_crc {
        return Err(FileError::BlockIndexChecksum);
    }
    let blocks = header.blocks as usize;
    let size = 8 * blocks;
    let plain = zstd::bulk::decompress(raw, size)
        .map_err(|e| FileError::BadBlockIndex(format!("does not decompress: {e}")))?;
    if plain.len() != size {
        return Err(FileError::BadBlockIndex(format!(
            "{} bytes, {size} expected for {blocks} blocks",
            plain.len()
        )));
    }
    let word =
        |i: usize| u32::from_le_bytes(plain[4 * i..4 * i + 4].try_into().unwrap_or_default());
    let mut index = Vec::with_capacity(blocks);
    let mut offset = need;
    for i in 0..blocks {
        let (len, crc) = (word(i), word(blocks + i));
        let widest: u32 = if header.value_width == 1 {
            0xff
        } else {
            0xffff
        };
        if len == 0 && crc > widest {
            return Err(FileError::BadBlockIndex(format!(
                "constant block {i} holds code {crc}, wider than {} bytes",
                header.value_width
            )));
        }
        index.push(BlockEntry { offset, len, crc });
        offset += u64::from(len);
        if offset > b.len() as u64 {
            return Err(FileError::BlockOutOfBounds(i as u32));
        }
    }
    if offset != b.len() as u64 {
        return Err(FileError::BadBlockIndex(format!(
            "the blocks end at byte {offset}, the file at {}",
            b.len()
        )));
    }
    Ok(index)
}

#[inline]
fn code_at(block: &[u8], i: usize, width: u8) -> u16 {
    if width == 1 {
        u16::from(block[i])
    } else {
        u16::from_le_bytes([block[2 * i], block[2 * i + 1]])
    }
}

/// The value width a table needs: 1 byte when every code fits.
#[must_use]
pub fn value_width(codes: &[u16]) -> u8 {
    if codes.iter().all(|&c| c <= 0xff) {
        1
    } else {
        2
    }
}

/// Compresses block `b` of `codes` (the whole table) for [`write_table`]: a block of one code
/// is [`Block::Constant`], any other a zstd frame at `level`.
///
/// # Errors
/// [`FileError::Compress`] when zstd fails.
pub fn compress_block(
    codes: &[u16],
    b: u32,
    block_entries: u32,
    width: u8,
    level: i32,
) -> Result<Block, FileError> {
    let start = b as usize * block_entries as usize;
    let end = (start + block_entries as usize).min(codes.len());
    let block = &codes[start..end];
    if let Some(&first) = block.first()
        && block.iter().all(|&c| c == first)
    {
        return Ok(Block::Constant(first));
    }
    let mut raw = Vec::with_capacity((end - start) * usize::from(width));
    for &c in block {
        if width == 1 {
            raw.push(c as u8);
        } else {
            raw.extend_from_slice(&c.to_le_bytes());
        }
    }
    let mut out = zstd::bulk::compress(&raw, level).map_err(|e| FileError::Compress {
        block: b,
        reason: e.to_string(),
    })?;
    // The output comes with room for the worst case (the raw size and more); a table's blocks are
    // all held until the file is written, so they keep only what they use.
    out.shrink_to_fit();
    Ok(Block::Frame(out))
}

/// Writes a table in version 3 (whatever version `header` was read from): the header, the
/// block index and the compressed blocks (from [`compress_block`], in order), to a temporary
/// file in the same directory that is synced and then renamed to `path`, so that `path` never
/// holds a partial table.
///
/// # Errors
/// [`FileError::Io`] when writing fails (the temporary file is removed),
/// [`FileError::CompressIndex`] when the block index cannot be compressed.
pub fn write_table(path: &Path, header: &Header, blocks: &[Block]) -> Result<(), FileError> {
    // Never a file the readers refuse.
    if header.block_entries == 0
        || header.block_entries > MAX_BLOCK_ENTRIES
        || header.blocks > MAX_BLOCKS
    {
        return Err(FileError::BadHeader(format!(
            "{} blocks of {} entries (readers take 1 to {MAX_BLOCK_ENTRIES} entries a block, \
             at most {MAX_BLOCKS} blocks)",
            header.blocks, header.block_entries
        )));
    }
    // The lengths, then the words: lengths repeat and compress to little, CRCs do not.
    let mut words = Vec::with_capacity(8 * blocks.len());
    for b in blocks {
        words.extend_from_slice(&(b.stored_len() as u32).to_le_bytes());
    }
    for b in blocks {
        let word = match b {
            Block::Frame(f) => crc32fast::hash(f),
            Block::Constant(code) => u32::from(*code),
        };
        words.extend_from_slice(&word.to_le_bytes());
    }
    let index = zstd::bulk::compress(&words, INDEX_LEVEL)
        .map_err(|e| FileError::CompressIndex(e.to_string()))?;
    let head = header.to_bytes(crc32fast::hash(&index), index.len() as u64);
    // Through a temporary file renamed into place: a crash never leaves half a table under
    // the real name; errors name the table, not the temporary file.
    let io = |e: crate::atomic::WriteError| FileError::Io {
        path: e.path,
        source: e.source,
    };
    let mut file = crate::atomic::AtomicFile::create(path).map_err(io)?;
    let plain = |source| FileError::Io {
        path: path.to_owned(),
        source,
    };
    {
        let mut f = std::io::BufWriter::new(&mut file);
        f.write_all(&head).map_err(plain)?;
        f.write_all(&index).map_err(plain)?;
        for b in blocks {
            if let Block::Frame(bytes) = b {
                f.write_all(bytes).map_err(plain)?;
            }
        }
        f.flush().map_err(plain)?;
    }
    file.commit().map_err(io)
}

/// Builds the header of a table whose codes are `codes` (both halves) and writes the file,
/// compressing the blocks one after another. The generator compresses in parallel and calls
/// [`write_table`] itself; this is the simple path for tests and small tables.
///
/// # Errors
/// As [`write_table`] and [`compress_block`].
pub fn write_codes(
    path: &Path,
    signature: Signature,
    codes: &[u16],
    stats: [HalfStats; 2],
    flags: u8,
    coding: Coding,
) -> Result<Header, FileError> {
    let header = make_header(
        signature,
        codes,
        stats,
        flags,
        coding,
        DEFAULT_BLOCK_ENTRIES,
    );
    let blocks = (0..header.blocks)
        .map(|b| compress_block(codes, b, header.block_entries, header.value_width, 9))
        .collect::<Result<Vec<_>, _>>()?;
    write_table(path, &header, &blocks)?;
    Ok(header)
}

/// The header for a table with these codes (both halves, Red to move first), in version 3.
#[must_use]
pub fn make_header(
    signature: Signature,
    codes: &[u16],
    stats: [HalfStats; 2],
    flags: u8,
    coding: Coding,
    block_entries: u32,
) -> Header {
    Header {
        version: VERSION,
        signature,
        key_scheme: KEY_SCHEME,
        value_width: value_width(codes),
        flags,
        coding,
        entries_per_half: codes.len() as u64 / 2,
        block_entries,
        blocks: (codes.len() as u64).div_ceil(u64::from(block_entries)) as u32,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Signature, Vec<u16>) {
        let sig: Signature = "KRK".parse().unwrap();
        let n = Indexer::new(sig).unwrap().size() as usize;
        let codes = (0..2 * n).map(|i| (i % 7) as u16 * 2).collect();
        (sig, codes)
    }

    fn bytes_of(sig: Signature, codes: &[u16]) -> Vec<u8> {
        bytes_with(sig, codes, Coding::PLAIN)
    }

    fn bytes_with(sig: Signature, codes: &[u16], coding: Coding) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{sig}.egtb"));
        write_codes(&path, sig, codes, [HalfStats::default(); 2], 0, coding).unwrap();
        std::fs::read(&path).unwrap()
    }

    #[test]
    fn round_trip() {
        let (sig, codes) = sample();
        let t = TableFile::from_bytes(bytes_of(sig, &codes)).unwrap();
        assert_eq!(t.header().signature, sig);
        assert_eq!(t.header().value_width, 1);
        assert_eq!(t.all_codes().unwrap(), codes);
        let half = t.header().entries_per_half;
        for e in [0u64, 1, half - 1, half, 2 * half - 1] {
            assert_eq!(t.code(e).unwrap(), codes[e as usize]);
        }
        assert!(matches!(
            t.code(2 * half),
            Err(FileError::OutOfRange { .. })
        ));
    }

    #[test]
    fn the_metric_round_trips_and_an_unknown_one_is_refused() {
        let (sig, codes) = sample();
        for metric in Metric::ALL {
            let t = TableFile::from_bytes(bytes_with(sig, &codes, Coding::plain(metric))).unwrap();
            assert_eq!(t.header().coding.metric, metric);
            assert_eq!(t.header().version(), VERSION);
            // Code 4: a loss in 2 plies to mate, a loss in 1 ply to conversion.
            let v = t.header().decode(4).unwrap();
            assert_eq!(
                v,
                match metric {
                    Metric::Dtm => Value::Loss(2),
                    Metric::Dtc => Value::Loss(1),
                }
            );
        }
        let mut b = bytes_of(sig, &codes);
        b[13] = 3;
        let crc = crc32fast::hash(&b[..HEADER_LEN_V2 - 4]);
        b[HEADER_LEN_V2 - 4..HEADER_LEN_V2].copy_from_slice(&crc.to_le_bytes());
        let err = TableFile::from_bytes(b).unwrap_err();
        assert!(err.to_string().contains("unknown metric 3"), "{err}");
    }

    #[test]
    fn wide_values_round_trip() {
        let (sig, mut codes) = sample();
        codes[17] = 700;
        let t = TableFile::from_bytes(bytes_of(sig, &codes)).unwrap();
        assert_eq!(t.header().value_width, 2);
        assert_eq!(t.all_codes().unwrap(), codes);
    }

    /// A version 2 table: rule codes above the mate codes.
    fn sample_v2() -> (Signature, Vec<u16>, Coding) {
        let (sig, mut codes) = sample();
        let coding = Coding::for_table(Metric::Dtm, 12, 5, 3).unwrap();
        for (i, c) in codes.iter_mut().enumerate() {
            if i % 11 == 3 {
                *c = coding.rule_base + (i % 18) as u16;
            }
        }
        (sig, codes, coding)
    }

    #[test]
    fn version_2_round_trip() {
        let (sig, codes, coding) = sample_v2();
        let stats = [
            HalfStats {
                wins: 5,
                rule_wins: 7,
                rule_losses: 9,
                ..HalfStats::default()
            },
            HalfStats {
                rule_losses: 2,
                ..HalfStats::default()
            },
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("KRK.egtb");
        let flags = FLAG_RULE_JUDGED | FLAG_RULE_DECIDES;
        write_codes(&path, sig, &codes, stats, flags, coding).unwrap();
        let t = TableFile::open(&path).unwrap();
        let h = t.header();
        assert_eq!((h.version(), h.header_len()), (3, HEADER_LEN_V2));
        assert_eq!(h.coding, coding);
        assert_eq!(h.stats, stats);
        assert_eq!(h.flags, flags);
        assert_eq!(t.all_codes().unwrap(), codes);
        // Entry 3: rule_base + 3 = stage 0, 3 plies: a win by the rule.
        assert_eq!(
            t.value(Color::Red, 3).unwrap(),
            Value::RuleWin(super::super::RuleRank { stage: 0, plies: 3 })
        );
        assert_eq!(t.value(Color::Red, 2).unwrap(), Value::Loss(2));
        // A table without rule values is version 3 too, its rule coding zero.
        let plain = TableFile::from_bytes(bytes_of(sig, &sample().1)).unwrap();
        assert_eq!(plain.header().version(), 3);
        assert_eq!(plain.header().coding, Coding::PLAIN);
    }

    #[test]
    fn chase_stages_round_trip_and_are_checked() {
        let (sig, codes, mut coding) = sample_v2();
        // Three stages: stage 1 is the only core; a chase core in the weak side's game.
        coding.chase_stages = [0, 1 << 1];
        let t = TableFile::from_bytes(bytes_with(sig, &codes, coding)).unwrap();
        assert_eq!(t.header().coding, coding);
        assert!(t.header().coding.is_chase_core(Color::Black, 1));
        assert!(!t.header().coding.is_chase_core(Color::Red, 1));
        // An even stage, or one past the last, cannot be a core.
        for bad in [[1u128 << 2, 0], [0, 1 << 3]] {
            let mut bytes = bytes_with(sig, &codes, coding);
            bytes[208..224].copy_from_slice(&bad[0].to_le_bytes());
            bytes[224..240].copy_from_slice(&bad[1].to_le_bytes());
            let crc = crc32fast::hash(&bytes[..252]);
            bytes[252..256].copy_from_slice(&crc.to_le_bytes());
            let err = TableFile::from_bytes(bytes).err().unwrap();
            assert!(err.to_string().contains("chase stages"), "{err}");
        }
    }

    #[test]
    fn version_2_codes_beyond_the_stages_are_corrupt() {
        let (sig, mut codes, coding) = sample_v2();
        codes[0] = coding.rule_base + 3 * coding.rule_stride;
        let t = TableFile::from_bytes(bytes_with(sig, &codes, coding)).unwrap();
        assert!(matches!(
            t.value(Color::Red, 0),
            Err(FileError::BadValue { entry: 0, .. })
        ));
    }

    #[test]
    fn version_2_single_byte_flips_are_caught() {
        let (sig, codes, coding) = sample_v2();
        let good = bytes_with(sig, &codes, coding);
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            let r = TableFile::from_bytes(bad).and_then(|t| t.all_codes());
            assert!(r.is_err(), "flip of byte {i} went unnoticed");
        }
    }

    #[test]
    fn corruption_is_a_typed_error() {
        let (sig, codes) = sample();
        let good = bytes_of(sig, &codes);
        for len in [0, 5, 100, HEADER_LEN_V2, HEADER_LEN_V2 + 8, good.len() - 1] {
            let r = TableFile::from_bytes(good[..len].to_vec()).and_then(|t| t.all_codes());
            assert!(r.is_err(), "truncated to {len}");
        }
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(matches!(
            TableFile::from_bytes(bad),
            Err(FileError::BadMagic)
        ));
        let mut bad = good.clone();
        bad[20] ^= 1;
        assert!(matches!(
            TableFile::from_bytes(bad),
            Err(FileError::HeaderChecksum)
        ));
        let mut bad = good.clone();
        bad[HEADER_LEN_V2 + 3] ^= 1;
        assert!(matches!(
            TableFile::from_bytes(bad),
            Err(FileError::BlockIndexChecksum)
        ));
        let mut bad = good.clone();
        let last = bad.len() - 2;
        bad[last] ^= 0x55;
        let t = TableFile::from_bytes(bad).unwrap();
        assert!(matches!(t.all_codes(), Err(FileError::BlockChecksum(_))));
    }

    #[test]
    fn every_single_byte_flip_is_caught() {
        let (sig, codes) = sample();
        let good = bytes_of(sig, &codes);
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            let r = TableFile::from_bytes(bad).and_then(|t| t.all_codes());
            // Bytes in the unused tail of the header's signature field are covered by the CRC too.
            assert!(
                r.is_err() || r.as_ref().is_ok_and(|c| *c == codes),
                "byte {i}"
            );
            assert!(r.is_err(), "flip of byte {i} went unnoticed");
        }
    }

    /// Codes with runs: blocks of one code (stored as the code alone) among mixed ones.
    fn runs() -> (Signature, Vec<u16>) {
        let sig: Signature = "KRKN".parse().unwrap();
        let n = Indexer::new(sig).unwrap().size() as usize;
        let mut codes: Vec<u16> = (0..2 * n).map(|i| (i % 7) as u16 * 2).collect();
        let be = DEFAULT_BLOCK_ENTRIES as usize;
        for (i, c) in codes.iter_mut().enumerate() {
            match (i / be) % 3 {
                0 => *c = 0,
                1 => *c = 9,
                _ => {}
            }
        }
        (sig, codes)
    }

    #[test]
    fn constant_blocks_are_stored_as_their_code_and_read_back() {
        let (sig, codes) = runs();
        let bytes = bytes_of(sig, &codes);
        let t = TableFile::from_bytes(bytes.clone()).unwrap();
        assert_eq!(t.all_codes().unwrap(), codes);
        let be = DEFAULT_BLOCK_ENTRIES as u64;
        for e in [0, be - 1, be, 2 * be + 5, codes.len() as u64 - 1] {
            assert_eq!(t.code(e).unwrap(), codes[e as usize], "entry {e}");
        }
        // Two thirds of the blocks take no bytes: the file is the header, the index and the
        // third of the blocks that are not constant.
        let frames = (0..t.header().blocks)
            .filter(|&b| {
                matches!(
                    compress_block(&codes, b, DEFAULT_BLOCK_ENTRIES, 1, 9).unwrap(),
                    Block::Frame(_)
                )
            })
            .count();
        assert_eq!(frames, t.header().blocks as usize / 3);
        assert!(frames >= 5, "{frames}");
        let mixed: Vec<u16> = (0..codes.len()).map(|i| (i % 7) as u16 * 2).collect();
        assert!(bytes.len() * 2 < bytes_of(sig, &mixed).len());
        // Two-byte codes too.
        let mut wide = codes.clone();
        wide.iter_mut()
            .take(DEFAULT_BLOCK_ENTRIES as usize)
            .for_each(|c| *c = 700);
        let t = TableFile::from_bytes(bytes_of(sig, &wide)).unwrap();
        assert_eq!(t.header().value_width, 2);
        assert_eq!(t.all_codes().unwrap(), wide);
    }

    /// `bytes` (a version 3 file) with its block index replaced by `words` (lengths, then
    /// CRCs or codes), the checksums mended.
    fn with_index(bytes: &[u8], words: &[u32]) -> Vec<u8> {
        let head = HEADER_LEN_V2;
        let old_len = u64::from_le_bytes(bytes[240..248].try_into().unwrap()) as usize;
        let plain: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let index = zstd::bulk::compress(&plain, 3).unwrap();
        let mut out = bytes[..head].to_vec();
        out.extend_from_slice(&index);
        out.extend_from_slice(&bytes[head + old_len..]);
        out[160..164].copy_from_slice(&crc32fast::hash(&index).to_le_bytes());
        out[240..248].copy_from_slice(&(index.len() as u64).to_le_bytes());
        let crc = crc32fast::hash(&out[..head - 4]);
        out[head - 4..head].copy_from_slice(&crc.to_le_bytes());
        out
    }

    /// The block index's words of a version 3 file.
    fn index_words(bytes: &[u8]) -> Vec<u32> {
        let len = u64::from_le_bytes(bytes[240..248].try_into().unwrap()) as usize;
        let blocks = u32::from_le_bytes(bytes[60..64].try_into().unwrap()) as usize;
        let plain =
            zstd::bulk::decompress(&bytes[HEADER_LEN_V2..HEADER_LEN_V2 + len], 8 * blocks).unwrap();
        plain
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect()
    }

    /// A header whose blocks a reader would have to allocate beyond the bounds is refused
    /// before anything is allocated (the checksum mended: the bounds are what is tested).
    #[test]
    fn a_header_asking_too_large_or_too_many_blocks_is_refused() {
        let (sig, codes) = sample();
        let good = bytes_of(sig, &codes);
        let with = |name: &str, block_entries: u32| {
            let sig: Signature = name.parse().unwrap();
            let entries = 2 * Indexer::new(sig).unwrap().size();
            let blocks = entries.div_ceil(u64::from(block_entries)) as u32;
            let mut b = good.clone();
            b[16..48].fill(0);
            b[16..16 + name.len()].copy_from_slice(name.as_bytes());
            b[48..56].copy_from_slice(&(entries / 2).to_le_bytes());
            b[56..60].copy_from_slice(&block_entries.to_le_bytes());
            b[60..64].copy_from_slice(&blocks.to_le_bytes());
            let head = HEADER_LEN_V2;
            let crc = crc32fast::hash(&b[..head - 4]);
            b[head - 4..head].copy_from_slice(&crc.to_le_bytes());
            TableFile::from_bytes(b).err().map(|e| e.to_string())
        };
        let e = with("KRK", MAX_BLOCK_ENTRIES + 1).unwrap();
        assert!(e.contains("entries per block"), "{e}");
        // 613 M entries in blocks of 32: 19 M blocks.
        let e = with("KRABKRAB", 32).unwrap();
        assert!(e.contains("blocks (at most"), "{e}");
        // At the bound the file reads (KRK's 8,100 entries are one block either way).
        assert_eq!(with("KRK", MAX_BLOCK_ENTRIES), None);
        // The writer refuses to write what the readers refuse.
        let dir = tempfile::tempdir().unwrap();
        let mut header = TableFile::from_bytes(good).unwrap().header().clone();
        header.block_entries = MAX_BLOCK_ENTRIES + 1;
        let refused = write_table(&dir.path().join("KRK.egtb"), &header, &[]);
        assert!(
            matches!(refused, Err(FileError::BadHeader(_))),
            "{refused:?}"
        );
        assert!(!dir.path().join("KRK.egtb").exists());
    }

    #[test]
    fn a_damaged_compact_index_is_refused() {
        let (sig, codes) = runs();
        let good = bytes_of(sig, &codes);
        let words = index_words(&good);
        let blocks = words.len() / 2;
        // Mended checksums alone make a file that reads.
        assert_eq!(
            TableFile::from_bytes(with_index(&good, &words))
                .unwrap()
                .all_codes()
                .unwrap(),
            codes
        );
        // A constant code wider than the value width.
        let mut w = words.clone();
        w[blocks] = 300;
        let err = TableFile::from_bytes(with_index(&good, &w)).unwrap_err();
        assert!(err.to_string().contains("wider than 1 bytes"), "{err}");
        // Lengths that do not add up to the file.
        let frame = (0..blocks).find(|&b| words[b] > 0).unwrap();
        for delta in [1i64, -1] {
            let mut w = words.clone();
            w[frame] = (i64::from(w[frame]) + delta) as u32;
            let err = TableFile::from_bytes(with_index(&good, &w)).unwrap_err();
            assert!(
                matches!(
                    err,
                    FileError::BadBlockIndex(_) | FileError::BlockOutOfBounds(_)
                ),
                "{err}"
            );
        }
        // A frame's length moved to a constant block: the blocks after it are misread, and
        // their checksums say so.
        let constant = (0..blocks).find(|&b| words[b] == 0).unwrap();
        let mut w = words.clone();
        w[constant] = w[frame];
        w[frame] = 0;
        w[blocks + frame] = 0;
        let read = TableFile::from_bytes(with_index(&good, &w)).and_then(|t| t.all_codes());
        assert!(read.is_err() || read.is_ok_and(|c| c != codes));
        // Too few words.
        let err = TableFile::from_bytes(with_index(&good, &words[..words.len() - 1])).unwrap_err();
        assert!(matches!(err, FileError::BadBlockIndex(_)), "{err}");
        // Bytes after the last block.
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(
            TableFile::from_bytes(long),
            Err(FileError::BadBlockIndex(_))
        ));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// The reader never panics, whatever the bytes (the fuzz target does the same at scale).
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            if let Ok(t) = TableFile::from_bytes(bytes) {
                let _ = t.all_codes();
            }
        }

        /// Nor do damaged copies of a good table: changed bytes and truncations.
        #[test]
        fn damaged_tables_never_panic(
            edits in proptest::collection::vec((0usize..2000, proptest::prelude::any::<u8>()), 0..6),
            cut in 0usize..2000,
        ) {
            let (sig, codes) = sample();
            let mut bytes = bytes_of(sig, &codes);
            for (i, b) in edits {
                let n = bytes.len();
                bytes[i % n] = b;
            }
            bytes.truncate(bytes.len().saturating_sub(cut % 3 * cut));
            if let Ok(t) = TableFile::from_bytes(bytes) {
                let _ = t.all_codes();
                let _ = t.value(Color::Black, 17);
            }
        }
    }
}
