//! A finished table read whole into memory, as the generation of a bigger table and the
//! verifier read the tables captures lead to.

use std::collections::HashMap;
use std::sync::Arc;

use chariot::Position;
use chariot::egtb::file::FileError;
use chariot::egtb::{Coding, IndexError, Indexer, Metric, Signature, TableFile, Value};

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
    pub codes: Vec<u16>,
    /// How the codes map to values.
    pub coding: Coding,
}

impl Loaded {
    /// Reads a whole table file into memory.
    ///
    /// # Errors
    /// When the file is corrupt.
    pub fn from_file(file: &TableFile) -> Result<Loaded, LoadError> {
        Ok(Loaded {
            indexer: Indexer::with_scheme(file.header().signature, file.header().key_scheme)?,
            codes: file.all_codes()?,
            coding: file.header().coding,
        })
    }

    /// The value of a legal position of this table, as the retrograde passes read a capture.
    ///
    /// A DTC table's distances are given DTM's parity, as `2d - 1` for a win and `2d` for a
    /// loss (the order within wins and within losses kept): the results of a table built on
    /// them are exact, its distances are not distances to mate, and `build_one` then writes no
    /// DTM file.
    pub(crate) fn value(&self, pos: &Position) -> Option<Value> {
        let (turn, idx) = self.indexer.index_of(pos).ok()?;
        let code = self.codes[(turn.index() as u64 * self.indexer.size() + idx) as usize];
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
