//! The `.xqb` book file: reader and writer in one place (layout in `docs/formats/book.md`).
//!
//! ```text
//! header (64 bytes, little-endian)
//!   0  magic "CHXQBOOK"            8  format version u32     12 key scheme u32
//!   16 entry count u64              24 flags u32 (bit 0: mirror-merged)
//!   28 weight formula u32 (1: 2 per win + 1 per draw, for the side to move)
//!   32 max ply u32                  36 min games u32          40 min score u32 (per mille)
//!   44 metadata length u32          48 games used u64
//!   56 body CRC-32 u32 (metadata + entries)                   60 header CRC-32 u32 (bytes 0..60)
//! metadata: UTF-8 text, `key: value` lines (filters, sources), padded with zeros to 8 bytes
//! entries (32 bytes each), sorted by key, then by weight (highest first), then by move
//!   0 key u64  8 move u16  10 mean Elo u16  12 games u32  16 red wins u32  20 draws u32
//!   24 black wins u32  28 weight u32
//! ```
//!
//! A file is untrusted: opening checks the magic, versions, header checksum and that the size
//! matches the entry count exactly; [`Book::verify`] also checks the body checksum and the
//! order. Probing never panics, whatever the bytes: moves that are not legal in the probed
//! position are dropped.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::{BookMove, MoveStats};
use chariot_rules::zobrist::KEY_SCHEME;
use chariot_rules::{Move, Position};

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"CHXQBOOK";
/// The layout version this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_SIZE: usize = 64;
/// Entry size in bytes.
pub const ENTRY_SIZE: usize = 32;
/// The weight formula: 2 per win and 1 per draw of the side to move.
pub const WEIGHT_POLYGLOT: u32 = 1;
const FLAG_MIRROR: u32 = 1;

/// Why a book file cannot be used. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// Not a Chariot book, a different version, a damaged header or a truncated file.
    #[error("{path}: not a usable book: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

fn corrupt(path: &Path, reason: impl Into<String>) -> BookError {
    BookError::Corrupt {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

/// How a book was built (stored in its header and metadata).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildInfo {
    /// Positions and their mirrors share entries.
    pub mirror: bool,
    /// Positions deeper than this many plies were not counted.
    pub max_ply: u32,
    /// Moves played in fewer games were left out.
    pub min_games: u32,
    /// Moves scoring less than this for their player (per mille) were left out.
    pub min_score_permille: u32,
    /// Games the statistics come from.
    pub games: u64,
    /// Free-form `key: value` lines: filters, sources, the tool version.
    pub metadata: String,
}

/// One record: a move of a position (in canonical orientation) with its statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The canonical key (see [`super::canonical`]).
    pub key: u64,
    /// The move, in the canonical orientation.
    pub mv: Move,
    /// Its statistics.
    pub stats: MoveStats,
    /// Its weight.
    pub weight: u32,
}

impl Entry {
    fn encode(&self) -> [u8; ENTRY_SIZE] {
        let mut b = [0u8; ENTRY_SIZE];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..10].copy_from_slice(&self.mv.to_u16().to_le_bytes());
        b[10..12].copy_from_slice(&self.stats.mean_elo.to_le_bytes());
        b[12..16].copy_from_slice(&self.stats.games.to_le_bytes());
        b[16..20].copy_from_slice(&self.stats.red_wins.to_le_bytes());
        b[20..24].copy_from_slice(&self.stats.draws.to_le_bytes());
        b[24..28].copy_from_slice(&self.stats.black_wins.to_le_bytes());
        b[28..32].copy_from_slice(&self.weight.to_le_bytes());
        b
    }

    /// Decodes a record; `None` when its move field is not a move.
    fn decode(b: &[u8]) -> Option<Entry> {
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Some(Entry {
            key: key_at(b),
            mv: Move::from_u16(u16::from_le_bytes([b[8], b[9]]))?,
            stats: MoveStats {
                mean_elo: u16::from_le_bytes([b[10], b[11]]),
                games: u32_at(12),
                red_wins: u32_at(16),
                draws: u32_at(20),
                black_wins: u32_at(24),
            },
            weight: u32_at(28),
        })
    }
}

fn key_at(b: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    k.copy_from_slice(&b[0..8]);
    u64::from_le_bytes(k)
}

/// Where a book's bytes live: a memory-mapped file, or bytes in memory (a book built into the
/// program, or read by a fuzzer).
enum Storage {
    Map(Mmap),
    Bytes(Cow<'static, [u8]>),
}

impl std::ops::Deref for Storage {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Storage::Map(m) => m,
            Storage::Bytes(b) => b,
        }
    }
}

/// A book opened from a file (memory-mapped) or from bytes.
pub struct Book {
    path: PathBuf,
    map: Storage,
    info: BuildInfo,
    entries_at: usize,
    count: usize,
    body_crc: u32,
}

impl Book {
    /// Opens a book file and checks it whole ([`Book::verify`]: the checksums, the key order
    /// and the moves), so that a damaged book is refused rather than used. The check reads the
    /// file once, as probing it would (about 1 ms per megabyte).
    ///
    /// # Errors
    /// [`BookError::Io`] when it cannot be read, [`BookError::Corrupt`] when the header is wrong,
    /// does not match the file's size, or the body is damaged.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let book = Book::open_unverified(path)?;
        book.verify()?;
        Ok(book)
    }

    /// Opens a book file checking only its header and size, for tools that report on damaged
    /// books (`book-builder stats`) rather than use them.
    ///
    /// # Errors
    /// As [`Book::open`], but for the body's checksum, key order and moves.
    pub fn open_unverified(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let io_err = |source| BookError::Io {
            path: path.to_owned(),
            source,
        };
        if path.is_dir() {
            return Err(io_err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            )));
        }
        let file = File::open(path).map_err(io_err)?;
        // SAFETY: the map is read-only. Another process truncating the file while it is mapped
        // could fault on access; books are written to a temporary name and renamed into place,
        // so Chariot's own tools never do that.
        let map = unsafe { Mmap::map(&file) }.map_err(io_err)?;
        Book::parse(path, Storage::Map(map))
    }

    /// Reads a book from bytes in memory and checks it whole; `name` stands for the file in
    /// messages.
    ///
    /// # Errors
    /// [`BookError::Corrupt`] as for [`Book::open`].
    pub fn from_bytes(
        name: impl AsRef<Path>,
        bytes: impl Into<Cow<'static, [u8]>>,
    ) -> Result<Book, BookError> {
        let book = Book::parse(name.as_ref(), Storage::Bytes(bytes.into()))?;
        book.verify()?;
        Ok(book)
    }

    fn parse(path: &Path, map: Storage) -> Result<Book, BookError> {
        let b = &map[..];
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
            return Err(corrupt(path, "wrong magic (not a Chariot .xqb book)"));
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| key_at(&b[i..i + 8]);
        if crc32fast::hash(&b[0..60]) != u32_at(60) {
            return Err(corrupt(path, "header checksum mismatch"));
        }
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(corrupt(
                path,
                format!("format version {version}, this program reads {FORMAT_VERSION}"),
            ));
        }
        let scheme = u32_at(12);
        if scheme != KEY_SCHEME {
            return Err(corrupt(
                path,
                format!("key scheme {scheme}, this program uses {KEY_SCHEME}"),
            ));
        }
        if u32_at(28) != WEIGHT_POLYGLOT {
            return Err(corrupt(
                path,
                format!("unknown weight formula {}", u32_at(28)),
            ));
        }
        let count = u64_at(16);
        let meta_len = u32_at(44) as usize;
        let entries_at = HEADER_SIZE + meta_len.div_ceil(8) * 8;
        let expected = (count as u128) * ENTRY_SIZE as u128 + entries_at as u128;
        if expected != b.len() as u128 {
            return Err(corrupt(
                path,
                format!(
                    "{} bytes, but the header describes {expected} ({count} entries)",
                    b.len()
                ),
            ));
        }
        let metadata =
            String::from_utf8_lossy(&b[HEADER_SIZE..HEADER_SIZE + meta_len]).into_owned();
        let info = BuildInfo {
            mirror: u32_at(24) & FLAG_MIRROR != 0,
            max_ply: u32_at(32),
            min_games: u32_at(36),
            min_score_permille: u32_at(40),
            games: u64_at(48),
            metadata,
        };
        let body_crc = u32_at(56);
        Ok(Book {
            path: path.to_owned(),
            map,
            info,
            entries_at,
            count: count as usize,
            body_crc,
        })
    }

    /// Checks the body checksum and the order of the entries.
    ///
    /// # Errors
    /// [`BookError::Corrupt`] naming the first problem.
    pub fn verify(&self) -> Result<(), BookError> {
        if crc32fast::hash(&self.map[HEADER_SIZE..]) != self.body_crc {
            return Err(corrupt(&self.path, "body checksum mismatch"));
        }
        let mut last = 0u64;
        for i in 0..self.count {
            let b = self.record(i);
            let key = key_at(b);
            if key < last {
                return Err(corrupt(
                    &self.path,
                    format!("entry {i} is out of key order"),
                ));
            }
            if Move::from_u16(u16::from_le_bytes([b[8], b[9]])).is_none() {
                return Err(corrupt(
                    &self.path,
                    format!("entry {i} has an invalid move"),
                ));
            }
            last = key;
        }
        Ok(())
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How the book was built.
    #[must_use]
    pub fn info(&self) -> &BuildInfo {
        &self.info
    }

    /// The number of entries (position-move pairs).
    #[must_use]
    pub fn len(&self) -> usize {
        self.count
    }

    /// `true` when the book has no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The file size in bytes.
    #[must_use]
    pub fn file_size(&self) -> usize {
        self.map.len()
    }

    fn record(&self, i: usize) -> &[u8] {
        let at = self.entries_at + i * ENTRY_SIZE;
        &self.map[at..at + ENTRY_SIZE]
    }

    /// Every entry in file order (for statistics and export). Records with an invalid move are
    /// skipped.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.count).filter_map(|i| Entry::decode(self.record(i)))
    }

    /// The entries stored under `key`, in file order.
    #[must_use]
    pub fn entries_for(&self, key: u64) -> Vec<Entry> {
        // Binary search for the first record with this key.
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if key_at(self.record(mid)) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..self.count)
            .map(|i| self.record(i))
            .take_while(|b| key_at(b) == key)
            .filter_map(Entry::decode)
            .collect()
    }

    /// The book moves of `pos` (legal there, in its orientation), highest weight first.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        let (key, flip) = if self.info.mirror {
            let mirrored = pos.mirror_key();
            if mirrored < key {
                (mirrored, true)
            } else {
                (key, false)
            }
        } else {
            (key, false)
        };
        let mut moves: Vec<BookMove> = self
            .entries_for(key)
            .into_iter()
            .map(|e| BookMove {
                mv: if flip { e.mv.mirror() } else { e.mv },
                stats: e.stats,
                weight: e.weight,
            })
            .filter(|m| pos.is_legal(m.mv))
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }
}

/// Collects entries and writes a book file atomically (temporary file, then rename).
#[derive(Default)]
pub struct BookWriter {
    info: BuildInfo,
    entries: Vec<Entry>,
}

impl BookWriter {
    /// A writer for a book built with `info`.
    #[must_use]
    pub fn new(info: BuildInfo) -> BookWriter {
        BookWriter {
            info,
            entries: Vec::new(),
        }
    }

    /// Adds an entry (keys in canonical form, see [`super::canonical`]).
    pub fn push(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    /// The number of entries so far.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when no entry was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Sorts the entries and writes the file to `path` through a temporary file in the same
    /// directory, renamed into place when complete.
    ///
    /// # Errors
    /// [`BookError::Io`] naming the file.
    pub fn write(mut self, path: impl AsRef<Path>) -> Result<(), BookError> {
        let path = path.as_ref();
        self.entries.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.mv.cmp(&b.mv))
        });
        let mut meta = self.info.metadata.clone().into_bytes();
        let meta_len = meta.len() as u32;
        meta.resize(meta.len().div_ceil(8) * 8, 0);
        let mut body_crc = crc32fast::Hasher::new();
        body_crc.update(&meta);
        let encoded: Vec<[u8; ENTRY_SIZE]> = self.entries.iter().map(Entry::encode).collect();
        for e in &encoded {
            body_crc.update(e);
        }
        let mut h = [0u8; HEADER_SIZE];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&KEY_SCHEME.to_le_bytes());
        h[16..24].copy_from_slice(&(self.entries.len() as u64).to_le_bytes());
        h[24..28].copy_from_slice(&(if self.info.mirror { FLAG_MIRROR } else { 0 }).to_le_bytes());
        h[28..32].copy_from_slice(&WEIGHT_POLYGLOT.to_le_bytes());
        h[32..36].copy_from_slice(&self.info.max_ply.to_le_bytes());
        h[36..40].copy_from_slice(&self.info.min_games.to_le_bytes());
        h[40..44].copy_from_slice(&self.info.min_score_permille.to_le_bytes());
        h[44..48].copy_from_slice(&meta_len.to_le_bytes());
        h[48..56].copy_from_slice(&self.info.games.to_le_bytes());
        h[56..60].copy_from_slice(&body_crc.finalize().to_le_bytes());
        let header_crc = crc32fast::hash(&h[0..60]);
        h[60..64].copy_from_slice(&header_crc.to_le_bytes());

        // Written through a temporary file renamed into place: a crash never leaves half a
        // book under the real name; errors name the book, not the temporary file.
        let write = || -> Result<(), crate::atomic::WriteError> {
            let mut file = crate::atomic::AtomicFile::create(path)?;
            let mut w = BufWriter::new(&mut file);
            let wrote = (|| -> io::Result<()> {
                w.write_all(&h)?;
                w.write_all(&meta)?;
                for e in &encoded {
                    w.write_all(e)?;
                }
                w.flush()
            })();
            drop(w);
            wrote.map_err(|source| crate::atomic::WriteError {
                path: path.to_owned(),
                source,
            })?;
            file.commit()
        };
        write().map_err(|e| BookError::Io {
            path: e.path,
            source: e.source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::canonical;
    use chariot_rules::Color;
    use chariot_rules::notation::parse_iccs;
    use std::fs;

    /// A fresh directory (removed when dropped) and a path named `name` in it.
    fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        (dir, path)
    }

    fn sample(mirror: bool) -> (BookWriter, Position) {
        let info = BuildInfo {
            mirror,
            max_ply: 20,
            min_games: 1,
            min_score_permille: 0,
            games: 3,
            metadata: "source: test".into(),
        };
        let mut w = BookWriter::new(info);
        let pos = Position::start();
        for (text, red_wins, draws, black_wins) in
            [("h2e2", 5, 2, 1), ("b2e2", 1, 0, 0), ("c3c4", 2, 2, 2)]
        {
            let (key, mv) = canonical(&pos, parse_iccs(text).unwrap(), mirror);
            let stats = MoveStats {
                games: red_wins + draws + black_wins,
                red_wins,
                draws,
                black_wins,
                mean_elo: 2400,
            };
            w.push(Entry {
                key,
                mv,
                stats,
                weight: stats.weight(Color::Red),
            });
        }
        (w, pos)
    }

    #[test]
    fn round_trip() {
        for mirror in [false, true] {
            let (w, pos) = sample(mirror);
            let (_dir, path) = temp(&format!("rt-{mirror}.xqb"));
            w.write(&path).unwrap();
            let book = Book::open(&path).unwrap();
            book.verify().unwrap();
            assert_eq!(book.len(), 3);
            assert_eq!(book.info().metadata, "source: test");
            assert_eq!(book.info().mirror, mirror);
            let moves = book.probe(&pos);
            let names: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
            assert_eq!(names, ["h2e2", "c3c4", "b2e2"]);
            assert_eq!(moves[0].stats.games, 8);
            assert_eq!(moves[0].weight, 12);
            let elsewhere = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w").unwrap();
            assert!(book.probe(&elsewhere).is_empty());
        }
    }

    #[test]
    fn mirrored_positions_share_entries() {
        let info = BuildInfo {
            mirror: true,
            ..BuildInfo::default()
        };
        let mut w = BookWriter::new(info);
        let mut pos = Position::start();
        pos.make_move(parse_iccs("h2e2").unwrap());
        let (key, mv) = canonical(&pos, parse_iccs("h9g7").unwrap(), true);
        w.push(Entry {
            key,
            mv,
            stats: MoveStats {
                games: 1,
                black_wins: 1,
                ..MoveStats::default()
            },
            weight: 2,
        });
        let (_dir, path) = temp("mirror.xqb");
        w.write(&path).unwrap();
        let book = Book::open(&path).unwrap();
        assert_eq!(book.probe(&pos)[0].mv.to_string(), "h9g7");
        let mut mirrored = Position::start();
        mirrored.make_move(parse_iccs("b2e2").unwrap());
        assert_eq!(book.probe(&mirrored)[0].mv.to_string(), "b9c7");
    }

    #[test]
    fn damaged_files_give_typed_errors() {
        let (w, pos) = sample(true);
        let (_dir, path) = temp("good.xqb");
        w.write(&path).unwrap();
        let good = fs::read(&path).unwrap();
        let check = |bytes: &[u8], expect: &str| {
            let (_dir, p) = temp("bad.xqb");
            fs::write(&p, bytes).unwrap();
            match Book::open(&p) {
                Err(BookError::Corrupt { reason, .. }) => {
                    assert!(reason.contains(expect), "{reason}")
                }
                Err(e) => panic!("unexpected {e}"),
                Ok(book) => {
                    let err = book.verify().expect_err("verify must fail");
                    assert!(err.to_string().contains(expect), "{err}");
                    // Probing a damaged book never panics.
                    let _ = book.probe(&pos);
                }
            }
        };
        check(&good[..10], "shorter than");
        check(&good[..good.len() - 1], "bytes, but the header");
        check(
            &[good.as_slice(), &[0u8; 32]].concat(),
            "bytes, but the header",
        );
        let mut bad = good.clone();
        bad[0] = b'X';
        check(&bad, "magic");
        let mut bad = good.clone();
        bad[33] ^= 1;
        check(&bad, "header checksum");
        let mut bad = good.clone();
        let last = bad.len() - 5;
        bad[last] ^= 0x40;
        check(&bad, "body checksum");
        assert!(matches!(
            Book::open(temp("missing.xqb").1),
            Err(BookError::Io { .. })
        ));
    }
}
