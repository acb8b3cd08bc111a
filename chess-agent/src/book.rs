//! Polyglot opening books (`.bin`): the reader the agent uses and the writer tests use.
//!
//! A book is a sequence of 16-byte big-endian entries sorted by key: `key: u64` (the position's
//! Polyglot Zobrist key, which is shakmaty's [`Zobrist64`] with [`EnPassantMode::Legal`]),
//! `move: u16` (see [`crate::packed_move`]), `weight: u16`, `learn: u32` (ignored). A position's
//! moves are the entries sharing its key.
//!
//! The file is untrusted (lesson 7): a length that is not a multiple of 16 or keys out of order
//! are a typed [`BookError::Corrupted`], and an entry whose move is not legal in the position is
//! skipped, never played.

use std::io::Write;
use std::path::{Path, PathBuf};

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

/// Writes `entries` as a Polyglot book, sorted by key, to a temporary file renamed into place.
///
/// # Errors
///
/// Any I/O error.
pub fn write(path: &Path, entries: &[Entry]) -> std::io::Result<()> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight)));
    let tmp = path.with_extension("bin.tmp");
    {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
        for e in &sorted {
            file.write_all(&e.key.to_be_bytes())?;
            file.write_all(&e.packed.to_be_bytes())?;
            file.write_all(&e.weight.to_be_bytes())?;
            file.write_all(&e.learn.to_be_bytes())?;
        }
        file.flush()?;
    }
    std::fs::rename(&tmp, path)
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

    #[test]
    fn corrupted_books_are_errors() {
        assert!(Book::from_bytes(&[0; 17]).is_err());
        let mut bytes = vec![0u8; 32];
        bytes[0] = 1;
        assert!(Book::from_bytes(&bytes).is_err());
        assert!(Book::from_bytes(&[]).unwrap().is_empty());
    }
}
