//! Writing a table file, always in version 3: each block compressed on its own
//! ([`compress_block`]; a block of one code is stored as the code alone), then the header, the
//! compressed block index and the blocks written through a temporary file that is renamed into
//! place ([`write_table`]), so that a crash never leaves half a table under the real name.
//! [`write_codes`] does both for a table held whole.

use std::io::Write;
use std::path::Path;

use super::header::{HalfStats, Header};
use super::{DEFAULT_BLOCK_ENTRIES, FileError, KEY_SCHEME, MAX_BLOCK_ENTRIES, MAX_BLOCKS, VERSION};
use crate::egtb::Coding;
use crate::egtb::signature::Signature;

/// The zstd level of version 3's block index.
const INDEX_LEVEL: i32 = 12;

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
    use super::super::testing::{bytes_of, runs, sample, sample_v2};
    use super::super::{FLAG_RULE_DECIDES, FLAG_RULE_JUDGED, HEADER_LEN_V2, TableFile};
    use super::*;
    use crate::egtb::Value;
    use chariot_rules::Color;

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
    fn wide_values_round_trip() {
        let (sig, mut codes) = sample();
        codes[17] = 700;
        let t = TableFile::from_bytes(bytes_of(sig, &codes)).unwrap();
        assert_eq!(t.header().value_width, 2);
        assert_eq!(t.all_codes().unwrap(), codes);
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
            Value::RuleWin(crate::egtb::RuleRank { stage: 0, plies: 3 })
        );
        assert_eq!(t.value(Color::Red, 2).unwrap(), Value::Loss(2));
        // A table without rule values is version 3 too, its rule coding zero.
        let plain = TableFile::from_bytes(bytes_of(sig, &sample().1)).unwrap();
        assert_eq!(plain.header().version(), 3);
        assert_eq!(plain.header().coding, Coding::PLAIN);
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
}
