//! A finished table read whole into memory, as the generation of a bigger table and the
//! verifier read the tables captures lead to.

use std::collections::HashMap;
use std::sync::Arc;

use chariot_formats::egtb::file::FileError;
use chariot_formats::egtb::{Coding, IndexError, Indexer, Metric, Signature, TableFile, Value};
use chariot_rules::Position;

/// Why a table cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Its signature cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// A block cannot be read (corrupt or truncated).
    #[error(transparent)]
    Read(#[from] FileError),
}

/// A finished table held in memory: its indexer and codes (both halves).
pub struct Loaded {
    /// The index.
    pub indexer: Indexer,
    /// The value codes, Red to move first.
    codes: Codes,
    /// How the codes map to values.
    pub coding: Coding,
}

/// A loaded table's codes: one byte each when the file stores one byte an entry (most tables
/// whose distances are short), which halves what the subtables of a generation take.
enum Codes {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

impl Loaded {
    /// Reads a whole table file into memory.
    ///
    /// # Errors
    /// When the file is corrupt.
    pub fn from_file(file: &TableFile) -> Result<Loaded, LoadError> {
        let h = file.header();
        let codes = if h.value_width == 1 {
            let mut out = Vec::with_capacity(h.entries() as usize);
            for b in 0..h.blocks {
                let block = file.read_block(b)?;
                out.extend_from_slice(&block[..h.entries_in_block(b)]);
            }
            Codes::Narrow(out)
        } else {
            Codes::Wide(file.all_codes()?)
        };
        Ok(Loaded {
            indexer: Indexer::with_scheme(h.signature, h.key_scheme)?,
            codes,
            coding: h.coding,
        })
    }

    /// The code of entry `e` (both halves, Red to move first).
    #[inline]
    #[must_use]
    pub fn code(&self, e: u64) -> u16 {
        match &self.codes {
            Codes::Narrow(c) => u16::from(c[e as usize]),
            Codes::Wide(c) => c[e as usize],
        }
    }

    /// The value of a legal position of this table, as the retrograde passes read a capture.
    ///
    /// A DTC table's distances are given DTM's parity, as `2d - 1` for a win and `2d` for a
    /// loss (the order within wins and within losses kept): the results of a table built on
    /// them are exact, its distances are not distances to mate, and `build_one` then writes no
    /// DTM file.
    pub(crate) fn value(&self, pos: &Position) -> Option<Value> {
        let (turn, idx) = self.indexer.index_of(pos).ok()?;
        let code = self.code(turn.index() as u64 * self.indexer.size() + idx);
        let v = self.coding.decode(code).ok()?;
        Some(match (self.coding.metric, v) {
            (Metric::Dtc, Value::Win(d)) => Value::Win((2 * d).saturating_sub(1).max(1)),
            (Metric::Dtc, Value::Loss(d)) => Value::Loss(2 * d),
            _ => v,
        })
    }
}

/// The tables a generation may read, by signature.
pub type Subtables = HashMap<Signature, Arc<Loaded>>;
