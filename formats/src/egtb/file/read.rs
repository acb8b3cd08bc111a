//! Reading a table file: [`TableFile`] opens and checks a file, then decompresses its blocks on
//! demand, keeping the last few.
//!
//! A file is untrusted: opening checks the magic, version, header checksum, sizes against the
//! signature's index, the block index checksum and that every block lies inside the file; a
//! block's checksum and size are checked when it is decompressed. Any fault is a [`FileError`],
//! never a panic.
//!
//! Files are read through a memory map. The map is only valid while the file keeps its length:
//! truncating a table that is open is the one fault that cannot be caught (the OS raises
//! SIGBUS), as with every memory-mapped table format. Writers never truncate in place: they
//! write a temporary file and rename it.

use std::fs::File;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::header::Header;
use super::{FileError, VERSION};
use crate::egtb::Value;
use chariot_rules::Color;

/// Blocks kept decompressed per open table.
const CACHE_BLOCKS: usize = 16;

/// Where a block lies in the file: its offset, its compressed length and the CRC-32 of its
/// bytes; in version 3 a block of length 0 is constant, its code in `crc`.
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

#[cfg(test)]
mod tests {
    use super::super::HEADER_LEN_V2;
    use super::super::testing::{bytes_of, bytes_with, runs, sample, sample_v2};
    use super::*;

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
