//! The table file: header, block index and zstd-compressed blocks. Reader and writer together.
//!
//! The byte layout is documented in `docs/formats/egtb.md`; in short:
//!
//! ```text
//! header (192 bytes in version 1, 256 in     magic, version, signature, key scheme, metric,
//!   version 2; CRC-32 in its last 4)        value width, entries, block size, statistics,
//!                                           (version 2) the coding of rule values
//! block index (16 bytes per block)          offset, compressed length, CRC-32 of the block
//! blocks                                    zstd frames of `block_entries` values each
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
//! Version 2 exists only for tables where the perpetual-check rule decides positions: the
//! writer emits version 1 whenever a table has no rule value, so such tables stay readable by
//! older readers and unchanged byte for byte.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::index::Indexer;
use super::signature::Signature;
use super::{Coding, Metric, Value, ValueError};
use crate::rules::Color;

/// The file magic.
pub const MAGIC: [u8; 8] = *b"CHXQEGTB";
/// The newest format version this module reads and writes (tables with rule values).
pub const VERSION: u16 = 2;
/// The format version of tables without rule values.
pub const VERSION_PLAIN: u16 = 1;
/// The header length in bytes of version 1.
pub const HEADER_LEN: usize = 192;
/// The header length in bytes of version 2.
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
    #[error("table format version {0} is not supported (this reader knows versions 1 and 2)")]
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

    /// The format version: 2 when the table holds rule values, else 1.
    #[must_use]
    pub fn version(&self) -> u16 {
        if self.coding.has_rule_values() {
            VERSION
        } else {
            VERSION_PLAIN
        }
    }

    /// The header's length in bytes (it depends on the version).
    #[must_use]
    pub fn header_len(&self) -> usize {
        if self.coding.has_rule_values() {
            HEADER_LEN_V2
        } else {
            HEADER_LEN
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

    fn to_bytes(&self, index_crc: u32) -> Vec<u8> {
        let len = self.header_len();
        let mut h = vec![0u8; len];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&self.version().to_le_bytes());
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
        let crc = crc32fast::hash(&h[..len - 4]);
        h[len - 4..].copy_from_slice(&crc.to_le_bytes());
        h
    }

    /// Reads and checks a header; returns it with the block index's checksum.
    fn from_bytes(b: &[u8]) -> Result<(Header, u32), FileError> {
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
            VERSION => HEADER_LEN_V2,
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
        let header = Header {
            signature,
            key_scheme: h[12],
            value_width: h[14],
            flags: h[15],
            coding: if version == VERSION {
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
                    rule_wins: if version == VERSION {
                        u64_at(176 + 16 * i)
                    } else {
                        0
                    },
                    rule_losses: if version == VERSION {
                        u64_at(184 + 16 * i)
                    } else {
                        0
                    },
                    unused: u64_at(o + 24),
                    max_dtm: u32_at(o + 32),
                    max_dtm_index: u64_at(o + 40),
                }
            }),
        };
        if !super::index::is_known_scheme(header.key_scheme) {
            return bad(format!("unknown key scheme {}", header.key_scheme));
        }
        if version == VERSION {
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
        if header.block_entries == 0 {
            return bad("zero entries per block".into());
        }
        let blocks = header.entries().div_ceil(u64::from(header.block_entries));
        if u64::from(header.blocks) != blocks {
            return bad(format!("{} blocks, {blocks} expected", header.blocks));
        }
        Ok((header, u32_at(160)))
    }
}

/// Where a block lies in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BlockEntry {
    offset: u64,
    len: u32,
    crc: u32,
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
        let (header, index_crc) = Header::from_bytes(b)?;
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
        let start = e.offset as usize;
        let raw = &self.data.bytes()[start..start + e.len as usize];
        if crc32fast::hash(raw) != e.crc {
            return Err(FileError::BlockChecksum(b));
        }
        let expected = self.header.entries_in_block(b) * usize::from(self.header.value_width);
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
        let mut out = Vec::with_capacity(self.header.entries() as usize);
        for b in 0..self.header.blocks {
            let block = self.read_block(b)?;
            let n = self.header.entries_in_block(b);
            out.extend((0..n).map(|i| code_at(&block, i, self.header.value_width)));
        }
        Ok(out)
    }

    /// The compressed size of the blocks in bytes.
    #[must_use]
    pub fn compressed_len(&self) -> u64 {
        self.index.iter().map(|e| u64::from(e.len)).sum()
    }
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

/// Compresses block `b` of `codes` (the whole table) for [`write_table`].
///
/// # Errors
/// [`FileError::Compress`] when zstd fails.
pub fn compress_block(
    codes: &[u16],
    b: u32,
    block_entries: u32,
    width: u8,
    level: i32,
) -> Result<Vec<u8>, FileError> {
    let start = b as usize * block_entries as usize;
    let end = (start + block_entries as usize).min(codes.len());
    let mut raw = Vec::with_capacity((end - start) * usize::from(width));
    for &c in &codes[start..end] {
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
    Ok(out)
}

/// Writes a table: the header, the block index and the compressed blocks (from
/// [`compress_block`], in order), to a temporary file in the same directory that is synced and
/// then renamed to `path`, so that `path` never holds a partial table.
///
/// # Errors
/// [`FileError::Io`] when writing fails (the temporary file is removed).
pub fn write_table(path: &Path, header: &Header, blocks: &[Vec<u8>]) -> Result<(), FileError> {
    let mut index = Vec::with_capacity(16 * blocks.len());
    let mut offset = (header.header_len() + 16 * blocks.len()) as u64;
    for b in blocks {
        index.extend_from_slice(&offset.to_le_bytes());
        index.extend_from_slice(&(b.len() as u32).to_le_bytes());
        index.extend_from_slice(&crc32fast::hash(b).to_le_bytes());
        offset += b.len() as u64;
    }
    let head = header.to_bytes(crc32fast::hash(&index));
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
            f.write_all(b).map_err(plain)?;
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

/// The header for a table with these codes (both halves, Red to move first). Its version
/// follows from `coding`: 2 when it has rule values, else 1.
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
            assert_eq!(t.header().version(), VERSION_PLAIN);
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
        let crc = crc32fast::hash(&b[..HEADER_LEN - 4]);
        b[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
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
        assert_eq!((h.version(), h.header_len()), (2, HEADER_LEN_V2));
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
        // A version 1 table keeps its 192-byte header.
        let plain = TableFile::from_bytes(bytes_of(sig, &sample().1)).unwrap();
        assert_eq!(plain.header().version(), 1);
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
        for len in [0, 5, 100, HEADER_LEN, HEADER_LEN + 8, good.len() - 1] {
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
        bad[HEADER_LEN + 3] ^= 1;
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
