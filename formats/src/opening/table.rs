//! The ECCO file (`.ecco`): the lines of master games whose code differs from the code of the
//! line one move shorter, reader and writer in one place (layout in `docs/formats/ecco.md`).
//!
//! ```text
//! header (40 bytes, little-endian)
//!   0  magic "CHXQECCO"        8  format version u32      12 max plies u32
//!   16 min games u32           20 games counted u32       24 entry count u32
//!   28 metadata length u32     32 body CRC-32 u32 (metadata + entries)
//!   36 header CRC-32 u32 (bytes 0..36)
//! metadata: UTF-8 text, `key: value` lines (tool, source, licence)
//! entries (10 bytes each), sorted by key, no key twice
//!   0 line key u64 (super::line_keys)   8 code u16 (family × 100 + number)
//! ```
//!
//! The file is small (a few thousand entries) and read whole into memory. It is untrusted:
//! reading checks the magic, the version, both checksums, the size, the key order and every
//! code, and a damaged file is an [`EccoError::Corrupt`] naming it, never a panic.

use std::path::{Path, PathBuf};

use chariot_rules::Move;

use super::{Ecco, line_keys};

/// The first eight bytes of every ECCO file.
pub const MAGIC: [u8; 8] = *b"CHXQECCO";
/// The layout version this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 40;
/// Entry size in bytes.
pub const ENTRY_SIZE: usize = 10;

/// Why an ECCO file cannot be used. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum EccoError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// Not an ECCO file, a different version, damaged or truncated.
    #[error("{path}: not a usable ECCO file: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

fn corrupt(path: &Path, reason: impl Into<String>) -> EccoError {
    EccoError::Corrupt {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

/// How a table was derived (stored in its header and metadata).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EccoInfo {
    /// Lines were counted to this many plies; a longer line is classified by its first ones.
    pub max_plies: u32,
    /// A line needed this many games to be classified.
    pub min_games: u32,
    /// Games with a code that were counted.
    pub games: u32,
    /// `key: value` lines: the tool, the source and its licence.
    pub metadata: String,
}

/// The lines of an ECCO file and how they were derived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EccoTable {
    info: EccoInfo,
    /// Sorted by key, keys distinct.
    entries: Vec<(u64, Ecco)>,
}

impl EccoTable {
    /// A table of `entries` (line key and code), sorted here; of two entries with one key the
    /// smaller code is kept.
    #[must_use]
    pub fn new(info: EccoInfo, mut entries: Vec<(u64, Ecco)>) -> EccoTable {
        entries.sort_unstable();
        entries.dedup_by_key(|e| e.0);
        EccoTable { info, entries }
    }

    /// How it was derived.
    #[must_use]
    pub fn info(&self) -> &EccoInfo {
        &self.info
    }

    /// The entries, by key.
    #[must_use]
    pub fn entries(&self) -> &[(u64, Ecco)] {
        &self.entries
    }

    /// The code stored for the line of key `key`, if any.
    #[must_use]
    pub fn get(&self, key: u64) -> Option<Ecco> {
        self.entries
            .binary_search_by_key(&key, |e| e.0)
            .ok()
            .map(|i| self.entries[i].1)
    }

    /// The code of a line from the usual start: the code stored for its longest prefix (of at
    /// most `max_plies` moves) that the table has, `None` when it has none. The moves are not
    /// checked against the rules (see [`super::identify`]).
    #[must_use]
    pub fn classify(&self, moves: &[Move]) -> Option<Ecco> {
        let plies = moves.len().min(self.info.max_plies as usize);
        line_keys(&moves[..plies])
            .filter_map(|k| self.get(k))
            .last()
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let meta = self.info.metadata.as_bytes();
        let mut body = Vec::with_capacity(meta.len() + ENTRY_SIZE * self.entries.len());
        body.extend_from_slice(meta);
        for (key, code) in &self.entries {
            body.extend_from_slice(&key.to_le_bytes());
            body.extend_from_slice(&code.to_u16().to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_SIZE + body.len());
        out.extend_from_slice(&MAGIC);
        for v in [
            FORMAT_VERSION,
            self.info.max_plies,
            self.info.min_games,
            self.info.games,
            self.entries.len() as u32,
            meta.len() as u32,
            crc32fast::hash(&body),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let header_crc = crc32fast::hash(&out);
        out.extend_from_slice(&header_crc.to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Writes the file through a temporary file renamed into place.
    ///
    /// # Errors
    /// [`EccoError::Io`] naming `path` when it cannot be written.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), EccoError> {
        let path = path.as_ref();
        crate::atomic::write(path, &self.to_bytes()).map_err(|e| EccoError::Io {
            path: path.to_owned(),
            source: e.source,
        })
    }

    /// Reads an ECCO file.
    ///
    /// # Errors
    /// [`EccoError::Io`] when it cannot be read, [`EccoError::Corrupt`] when it is damaged.
    pub fn open(path: impl AsRef<Path>) -> Result<EccoTable, EccoError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| EccoError::Io {
            path: path.to_owned(),
            source,
        })?;
        EccoTable::from_bytes(path, &bytes)
    }

    /// Reads an ECCO file's bytes; `name` stands for the file in messages.
    ///
    /// # Errors
    /// [`EccoError::Corrupt`] naming it when the bytes are not a whole, undamaged ECCO file.
    pub fn from_bytes(name: impl AsRef<Path>, b: &[u8]) -> Result<EccoTable, EccoError> {
        let path = name.as_ref();
        if b.len() < HEADER_SIZE {
            return Err(corrupt(
                path,
                format!(
                    "{} bytes is shorter than the {HEADER_SIZE}-byte header",
                    b.len()
                ),
            ));
        }
        if b[0..8] != MAGIC {
            return Err(corrupt(path, "wrong magic (not a Chariot ECCO file)"));
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        if crc32fast::hash(&b[0..36]) != u32_at(36) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(corrupt(
                path,
                format!("format version {version}, this program reads {FORMAT_VERSION}"),
            ));
        }
        let count = u32_at(24) as usize;
        let meta_len = u32_at(28) as usize;
        let expected = (HEADER_SIZE as u64) + meta_len as u64 + (ENTRY_SIZE as u64) * count as u64;
        if b.len() as u64 != expected {
            return Err(corrupt(
                path,
                format!(
                    "{} bytes, but the header's {count} entries and {meta_len} bytes of metadata \
                     make {expected}",
                    b.len()
                ),
            ));
        }
        let body = &b[HEADER_SIZE..];
        if crc32fast::hash(body) != u32_at(32) {
            return Err(corrupt(path, "body checksum mismatch"));
        }
        let metadata = std::str::from_utf8(&body[..meta_len])
            .map_err(|_| corrupt(path, "the metadata is not UTF-8"))?
            .to_owned();
        let mut entries = Vec::with_capacity(count);
        for (i, e) in body[meta_len..].chunks_exact(ENTRY_SIZE).enumerate() {
            let mut k = [0u8; 8];
            k.copy_from_slice(&e[0..8]);
            let key = u64::from_le_bytes(k);
            let bits = u16::from_le_bytes([e[8], e[9]]);
            let code = Ecco::from_u16(bits)
                .ok_or_else(|| corrupt(path, format!("entry {i}: {bits} is not a code")))?;
            if entries.last().is_some_and(|&(last, _)| last >= key) {
                return Err(corrupt(path, format!("entry {i}: keys out of order")));
            }
            entries.push((key, code));
        }
        Ok(EccoTable {
            info: EccoInfo {
                max_plies: u32_at(12),
                min_games: u32_at(16),
                games: u32_at(20),
                metadata,
            },
            entries,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_iccs;
    use proptest::prelude::*;

    fn line(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| parse_iccs(m).unwrap())
            .collect()
    }

    fn key(text: &str) -> u64 {
        line_keys(&line(text)).last().unwrap()
    }

    fn code(text: &str) -> Ecco {
        text.parse().unwrap()
    }

    fn sample() -> EccoTable {
        EccoTable::new(
            EccoInfo {
                max_plies: 4,
                min_games: 1,
                games: 3,
                metadata: "source: a test\nlicence: 中文 too".into(),
            },
            vec![
                (key("h2e2 h9g7"), code("B05")),
                (key("g0e2"), code("A10")),
                (key("h2e2 h9g7 h0g2 b9c7"), code("C01")),
            ],
        )
    }

    #[test]
    fn round_trip() {
        let t = sample();
        let bytes = t.to_bytes();
        assert_eq!(
            bytes.len(),
            HEADER_SIZE + t.info().metadata.len() + 3 * ENTRY_SIZE
        );
        let back = EccoTable::from_bytes("t.ecco", &bytes).unwrap();
        assert_eq!(back, t);
        // Through a file too.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.ecco");
        t.write(&path).unwrap();
        assert_eq!(EccoTable::open(&path).unwrap(), t);
        // The same table, built from entries in another order, is the same bytes.
        let mut shuffled = t.entries().to_vec();
        shuffled.reverse();
        assert_eq!(EccoTable::new(t.info().clone(), shuffled).to_bytes(), bytes);
    }

    #[test]
    fn the_longest_known_prefix_classifies_a_line() {
        let t = sample();
        assert_eq!(t.classify(&line("h2e2")), None);
        assert_eq!(t.classify(&line("h2e2 h9g7")), Some(code("B05")));
        assert_eq!(t.classify(&line("h2e2 h9g7 h0g2")), Some(code("B05")));
        assert_eq!(t.classify(&line("h2e2 h9g7 h0g2 b9c7")), Some(code("C01")));
        // The mirror image of a line has its code.
        assert_eq!(t.classify(&line("b2e2 b9c7 b0c2 h9g7")), Some(code("C01")));
        // Beyond max plies nothing deeper counts.
        assert_eq!(
            t.classify(&line("h2e2 h9g7 h0g2 b9c7 i0h0")),
            Some(code("C01"))
        );
        assert_eq!(t.classify(&line("c0e2")), Some(code("A10")));
        assert_eq!(t.classify(&[]), None);
    }

    #[test]
    fn damage_is_refused_with_a_reason() {
        let bytes = sample().to_bytes();
        let reason = |b: &[u8]| match EccoTable::from_bytes("x.ecco", b) {
            Err(EccoError::Corrupt { path, reason }) => {
                assert_eq!(path, Path::new("x.ecco"));
                reason
            }
            other => panic!("{other:?}"),
        };
        assert!(reason(&bytes[..10]).contains("shorter"));
        assert!(reason(&bytes[..bytes.len() - 1]).contains("make"));
        let mut b = bytes.clone();
        b[0] = b'X';
        assert!(reason(&b).contains("magic"));
        let mut b = bytes.clone();
        b[12] ^= 1;
        assert!(reason(&b).contains("header checksum"));
        let mut b = bytes.clone();
        let last = b.len() - 1;
        b[last] ^= 0x40;
        assert!(reason(&b).contains("body checksum"));
        assert!(matches!(
            EccoTable::open("/nonexistent/x.ecco"),
            Err(EccoError::Io { .. })
        ));
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = EccoTable::from_bytes("fuzz.ecco", &bytes);
            let mut b = sample().to_bytes();
            let n = b.len();
            for (i, x) in bytes.iter().enumerate() {
                b[i % n] ^= x;
            }
            if let Ok(t) = EccoTable::from_bytes("fuzz.ecco", &b) {
                let _ = t.classify(&line("h2e2 h9g7 h0g2 b9c7"));
                prop_assert_eq!(t.to_bytes(), b);
            }
        }
    }
}
