//! Polyglot opening books (`.bin`): the reader the agent uses, the writer `chess-book` uses, and
//! the small book that ships inside the agent ([`Book::embedded`], `chess-agent/data/book.bin`).
//!
//! A book is a sequence of 16-byte big-endian entries sorted by key: `key: u64` (the position's
//! Polyglot Zobrist key, which is shakmaty's [`Zobrist64`] with [`EnPassantMode::Legal`]),
//! `move: u16` (see [`crate::packed_move`]), `weight: u16`, `learn: u32` (ignored). A position's
//! moves are the entries sharing its key; the writer puts the heaviest first, as Polyglot does.
//!
//! The file is untrusted (lesson 7): a length that is not a multiple of 16 or keys out of order
//! are a typed [`BookError::Corrupted`], and an entry whose move is not legal in the position is
//! skipped, never played. The writer goes through a temporary file in the book's directory that
//! is renamed into place, so a crash never leaves a half-written book under the real name.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{Chess, EnPassantMode, Move, Position};
use thiserror::Error;

use crate::packed_move;

/// The size of one book entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// A problem opening a book file.
#[derive(Debug, Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read book {path}")]
    Io {
        /// The book's path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a well-formed Polyglot book.
    #[error("book {path} is corrupted: {reason}")]
    Corrupted {
        /// The book's path.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// One book entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The packed move.
    pub packed: u16,
    /// The move's weight (higher is played more often).
    pub weight: u16,
    /// Learning data, unused.
    pub learn: u32,
}

/// How the agent picks among a position's book moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Choice {
    /// At random, in proportion to the weights (the usual Polyglot behaviour; varies the games).
    #[default]
    Weighted,
    /// Always the move of highest weight (reproducible games).
    Best,
}

/// An opening book held in memory.
#[derive(Debug, Clone, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

/// The Polyglot key of a position.
#[must_use]
pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The bytes of the book that ships with the agent (see `chess-agent/data/README.md` for how it
/// was made).
pub const EMBEDDED: &[u8] = include_bytes!("../data/book.bin");

impl Entry {
    /// The entry for move `m` (legal in `pos`) with `weight`, learn 0.
    #[must_use]
    pub fn new(pos: &Chess, m: Move, weight: u16) -> Entry {
        Entry {
            key: key(pos),
            packed: packed_move::pack(m),
            weight,
            learn: 0,
        }
    }
}

/// Turns move scores into book entries, as Polyglot's `make-book` does: a move whose score is 0
/// is dropped (it only lost), and the moves of a position whose best score does not fit in a
/// `u16` are scaled together by `65535 / best`, rounding down but never below 1, so no move
/// changes places with another and none disappears. `scores` holds `(key, packed move, score)`;
/// a repeated `(key, move)` has its scores added. The result is sorted as [`write()`] writes it.
#[must_use]
pub fn compile(scores: impl IntoIterator<Item = (u64, u16, u64)>) -> Vec<Entry> {
    let mut merged: BTreeMap<(u64, u16), u64> = BTreeMap::new();
    for (key, packed, score) in scores {
        let s = merged.entry((key, packed)).or_default();
        *s = s.saturating_add(score);
    }
    let mut best: BTreeMap<u64, u64> = BTreeMap::new();
    for (&(key, _), &score) in &merged {
        let b = best.entry(key).or_default();
        *b = (*b).max(score);
    }
    let mut entries: Vec<Entry> = merged
        .into_iter()
        .filter(|&(_, score)| score > 0)
        .map(|((key, packed), score)| {
            let top = best[&key];
            let weight = if top <= u64::from(u16::MAX) {
                score
            } else {
                // u128: score * 65535 cannot overflow.
                (u128::from(score) * u128::from(u16::MAX) / u128::from(top)).max(1) as u64
            };
            Entry {
                key,
                packed,
                weight: u16::try_from(weight).expect("scaled to fit"),
                learn: 0,
            }
        })
        .collect();
    sort(&mut entries);
    entries
}

/// The order of a written book: by key, then heaviest first, then by move (so equal weights
/// come out the same way every time).
fn sort(entries: &mut [Entry]) {
    entries.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight), e.packed));
}

impl Book {
    /// Reads and checks a book file.
    ///
    /// # Errors
    ///
    /// [`BookError::Io`] when the file cannot be read, [`BookError::Corrupted`] when its length is
    /// not a multiple of 16 or its keys are not sorted.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = std::fs::read(path).map_err(|source| BookError::Io {
            path: path.to_owned(),
            source,
        })?;
        Book::from_bytes(&bytes).map_err(|reason| BookError::Corrupted {
            path: path.to_owned(),
            reason,
        })
    }

    /// Reads a book from its bytes.
    ///
    /// # Errors
    ///
    /// A description of the fault when the bytes are not a well-formed book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() % ENTRY_SIZE != 0 {
            return Err(format!(
                "length {} is not a multiple of {ENTRY_SIZE}",
                bytes.len()
            ));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_SIZE)
            .map(|c| Entry {
                key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
                packed: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
                learn: u32::from_be_bytes(c[12..16].try_into().expect("4 bytes")),
            })
            .collect();
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(format!("keys out of order at entry {}", i + 1));
        }
        Ok(Book { entries })
    }

    /// The book that ships with the agent ([`EMBEDDED`]), parsed on first use.
    ///
    /// # Panics
    ///
    /// If the shipped file is not a well-formed book (a unit test reads it).
    #[must_use]
    pub fn embedded() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_bytes(EMBEDDED).expect("the shipped book is well formed"))
    }

    /// The entries in file order.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal book moves of `pos` with their weights, highest weight first.
    #[must_use]
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let key = key(pos);
        let start = self.entries.partition_point(|e| e.key < key);
        let legal = pos.legal_moves();
        let mut out: Vec<(Move, u16)> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == key)
            .filter_map(|e| packed_move::unpack(e.packed, &legal).map(|m| (m, e.weight)))
            .collect();
        out.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        out
    }

    /// Picks a book move for `pos`, skipping `excluded` moves; `random` is a uniform number in
    /// `0..u64::MAX` for [`Choice::Weighted`].
    #[must_use]
    pub fn pick(
        &self,
        pos: &Chess,
        choice: Choice,
        random: u64,
        excluded: &[Move],
    ) -> Option<Move> {
        let moves: Vec<(Move, u16)> = self
            .moves(pos)
            .into_iter()
            .filter(|(m, _)| !excluded.contains(m))
            .collect();
        match choice {
            Choice::Best => moves.first().map(|&(m, _)| m),
            Choice::Weighted => {
                let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
                if total == 0 {
                    return moves.first().map(|&(m, _)| m);
                }
                let mut r = random % total;
                for &(m, w) in &moves {
                    if r < u64::from(w) {
                        return Some(m);
                    }
                    r -= u64::from(w);
                }
                None
            }
        }
    }
}

/// Writes `entries` as a Polyglot book, sorted by key and then heaviest first, to a temporary
/// file in the same directory (`<name>.tmp`) that is then renamed to `path`. A book that cannot
/// be written completely leaves `path` as it was and removes the temporary file.
///
/// # Errors
///
/// Any I/O error creating, writing, syncing or renaming the file.
pub fn write(path: &Path, entries: &[Entry]) -> std::io::Result<()> {
    let mut sorted = entries.to_vec();
    sort(&mut sorted);
    let mut tmp_name = path.file_name().unwrap_or_default().to_owned();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    let written = (|| {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for e in &sorted {
            file.write_all(&e.key.to_be_bytes())?;
            file.write_all(&e.packed.to_be_bytes())?;
            file.write_all(&e.weight.to_be_bytes())?;
            file.write_all(&e.learn.to_be_bytes())?;
        }
        file.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::test_position as pos;

    /// Source: the Polyglot book format description (`book_format.html`, H.G. Muller's copy of
    /// Michel Van den Bergh's page), "Test keys".
    #[test]
    fn published_polyglot_keys() {
        for (fen, want) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0x463b_9618_1691_fc9c,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                0x823c_9b50_fd11_4196,
            ),
            (
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
                0x0756_b944_61c5_0fb0,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                0x22a4_8b5a_8e47_ff78,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
                0x3c81_23ea_7b06_7637,
            ),
            (
                "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
                0x5c3f_9b82_9b27_9560,
            ),
        ] {
            assert_eq!(key(&pos(fen)), want, "{fen}");
        }
    }

    #[test]
    fn round_trip_and_choice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tiny.bin");
        let start = Chess::default();
        let k = key(&start);
        let legal = start.legal_moves();
        let find = |to: u8| legal.iter().copied().find(|m| m.to() as u8 == to).unwrap();
        let (e4, d4) = (find(28), find(27));
        let entries = [
            Entry {
                key: k,
                packed: packed_move::pack(d4),
                weight: 1,
                learn: 0,
            },
            Entry {
                key: k,
                packed: packed_move::pack(e4),
                weight: 3,
                learn: 0,
            },
            Entry {
                key: 1,
                packed: 0,
                weight: 1,
                learn: 0,
            },
            // An illegal move for the start position: skipped.
            Entry {
                key: k,
                packed: 0x0fff,
                weight: 9,
                learn: 0,
            },
        ];
        write(&path, &entries).unwrap();
        let book = Book::open(&path).unwrap();
        assert_eq!(book.len(), 4);
        assert_eq!(book.moves(&start), vec![(e4, 3), (d4, 1)]);
        assert_eq!(book.pick(&start, Choice::Best, 0, &[]), Some(e4));
        assert_eq!(book.pick(&start, Choice::Best, 0, &[e4]), Some(d4));
        assert_eq!(book.pick(&start, Choice::Weighted, 3, &[]), Some(d4));
        assert_eq!(book.pick(&start, Choice::Weighted, 2, &[]), Some(e4));
        assert!(book.moves(&pos("8/8/8/8/8/8/8/K6k w - - 0 1")).is_empty());
    }

    /// Plays `san` moves from the start (or `fen`) and returns the position before the last
    /// move and that move.
    fn before_last(fen: Option<&str>, sans: &[&str]) -> (Chess, Move) {
        let mut p = fen.map_or_else(Chess::default, pos);
        let (last, first) = sans.split_last().unwrap();
        for san in first {
            let m = crate::san::parse_move(&p, san).unwrap();
            p.play_unchecked(m);
        }
        let m = crate::san::parse_move(&p, last).unwrap();
        (p, m)
    }

    #[test]
    fn special_moves_round_trip_through_a_file() {
        let cases = [
            // White and Black castle both ways: written as king takes rook (e1h1, e8a8, ...).
            before_last(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &["O-O"]),
            before_last(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), &["O-O-O"]),
            before_last(Some("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), &["O-O"]),
            before_last(Some("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), &["O-O-O"]),
            // Promotions to each piece, one with a capture.
            before_last(Some("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"), &["a8=Q"]),
            before_last(Some("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"), &["a8=N"]),
            before_last(Some("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"), &["axb8=R"]),
            before_last(Some("1n5k/P7/8/8/8/8/8/K7 w - - 0 1"), &["axb8=B"]),
            before_last(Some("k7/8/8/8/8/8/6p1/K6N b - - 0 1"), &["gxh1=Q"]),
            // En passant, for both sides (the key of the position before it has the e.p. file).
            before_last(None, &["e4", "a6", "e5", "d5", "exd6"]),
            before_last(None, &["a3", "e5", "a4", "e4", "d4", "exd3"]),
        ];
        let entries: Vec<Entry> = cases
            .iter()
            .enumerate()
            .map(|(i, (p, m))| Entry::new(p, *m, 100 + i as u16))
            .collect();
        assert_eq!(
            packed_move::pack(cases[0].1),
            7 | (4 << 6),
            "castling is e1h1"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("special.bin");
        write(&path, &entries).unwrap();
        let book = Book::open(&path).unwrap();
        assert_eq!(book.len(), cases.len());
        for (i, (p, m)) in cases.iter().enumerate() {
            let moves = book.moves(p);
            assert!(moves.contains(&(*m, 100 + i as u16)), "case {i}: {moves:?}");
        }
        // Nothing but the book is left in the directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn compile_drops_losses_and_scales_without_reordering() {
        let start = Chess::default();
        let legal = start.legal_moves();
        let packed: Vec<u16> = legal.iter().map(|&m| packed_move::pack(m)).collect();
        let k = key(&start);
        let entries = compile([
            (k, packed[0], 200_000),
            (k, packed[1], 100_000),
            (k, packed[2], 100_000),
            (k, packed[3], 10),
            (k, packed[4], 0),
            (k, packed[5], 3),
            (k, packed[5], 4),
            (k, packed[6], 1),
            (7, packed[0], 5),
            (7, packed[1], 9),
        ]);
        let weights: Vec<(u64, u16, u16)> = entries
            .iter()
            .map(|e| (e.key, e.packed, e.weight))
            .collect();
        // Key 7 sorts first; its weights fit and are kept as they are.
        assert_eq!(weights[0], (7, packed[1], 9));
        assert_eq!(weights[1], (7, packed[0], 5));
        let start_weights: Vec<u16> = weights[2..].iter().map(|w| w.2).collect();
        // x 65535 / 200000, rounded down: 200000 -> 65535, 100000 -> 32767 (twice), 10 -> 3,
        // 3 + 4 = 7 -> 2, and 1 -> 1 rather than 0; the 0 is gone.
        assert_eq!(start_weights, [65535, 32767, 32767, 3, 2, 1]);
        assert!(!weights.iter().any(|w| w.1 == packed[4]));
        // The written and re-read book gives the same moves in the same order.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("scaled.bin");
        write(&path, &entries).unwrap();
        let book = Book::open(&path).unwrap();
        assert_eq!(book.entries(), &entries[..]);
        let read: Vec<u16> = book.moves(&start).iter().map(|&(_, w)| w).collect();
        assert_eq!(read, start_weights);
    }

    #[test]
    fn a_failed_write_leaves_the_old_book() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.bin");
        std::fs::write(&path, [0u8; 16]).unwrap();
        // The temporary file's name is taken by a directory, so the write fails early.
        std::fs::create_dir(dir.path().join("book.bin.tmp")).unwrap();
        assert!(write(&path, &[]).is_err());
        assert_eq!(std::fs::read(&path).unwrap(), [0u8; 16]);
    }

    #[test]
    fn the_shipped_book_is_well_formed_and_knows_the_start() {
        let book = Book::embedded();
        assert!(!book.is_empty());
        assert!(EMBEDDED.len() < 200 * 1024);
        let moves = book.moves(&Chess::default());
        assert!(moves.len() >= 3, "{moves:?}");
        assert!(moves.iter().all(|&(_, w)| w > 0));
        // Every entry's move is legal in some position: at least the start's are.
        assert!(book.entries().iter().all(|e| e.weight > 0));
    }

    #[test]
    fn corrupted_books_are_errors() {
        assert!(Book::from_bytes(&[0; 17]).is_err());
        let mut bytes = vec![0u8; 32];
        bytes[0] = 1;
        assert!(Book::from_bytes(&bytes).is_err());
        assert!(Book::from_bytes(&[]).unwrap().is_empty());
    }
}
