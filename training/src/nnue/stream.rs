//! Training data streamed from its files, for data sets larger than memory: the records are read
//! a window at a time, in an order shuffled each epoch, by a thread that reads the next window
//! while the trainer works on the current one.
//!
//! The files (a directory stands for its `.bin` files, in name order) are cut into blocks of
//! [`BLOCK`] consecutive records. Each epoch shuffles the blocks, reads them [`WINDOW`] blocks at
//! a time, shuffles the records of the window and hands them on; so a batch mixes records of
//! some 64 places in the data rather than of one stretch of games, and memory holds two windows
//! (32 MiB each) whatever the data's size. A data set of one window is shuffled whole, as the
//! in-memory trainer does. Every `every`-th record (counted through the files in order) is held
//! out for validation: those are kept in memory (decoded when measured) and never trained on.
//! Opening the data set reads every record once, checking that each decodes, so that a bad record
//! is reported by file and number before training starts.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, sync_channel};
use std::thread::JoinHandle;

use chariot_formats::training_data::{DataError, DataReader, RECORD_SIZE, Record};
use chariot_rules::random::Rng;

/// Records per block: consecutive records read together.
pub const BLOCK: u64 = 1 << 14;
/// Blocks per window: read together and shuffled together (a million records, 32 MiB).
pub const WINDOW: usize = 64;

/// A record's bytes, undecoded.
pub type Raw = [u8; RECORD_SIZE];

/// Why training data cannot be streamed.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// A file could not be opened or read, or is not training data.
    #[error(transparent)]
    Data(#[from] DataError),
    /// A directory could not be listed.
    #[error("{path}: {source}")]
    Directory {
        /// The directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A record does not decode.
    #[error("{path}: {source}")]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// What is wrong, with the record's number.
        source: DataError,
    },
    /// A record decoded when the data set was opened but no longer does.
    #[error("a data file changed while training (a record no longer decodes: {0})")]
    Changed(DataError),
}

/// The files named: a directory stands for the `.bin` files in it, in name order.
///
/// # Errors
///
/// [`StreamError::Directory`] when a directory cannot be listed.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, StreamError> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let listing = |source| StreamError::Directory {
            path: path.clone(),
            source,
        };
        let mut inside = Vec::new();
        for entry in std::fs::read_dir(path).map_err(listing)? {
            let p = entry.map_err(listing)?.path();
            if p.is_file() && p.extension().is_some_and(|e| e == "bin") {
                inside.push(p);
            }
        }
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// The training records of some files, streamed, with the held-out ones kept apart.
#[derive(Debug)]
pub struct DataSet {
    /// Each file and the records used of it.
    files: Vec<(PathBuf, u64)>,
    /// Records in all, the held-out ones included.
    total: u64,
    /// Every `every`-th record is held out (0: none).
    every: u64,
    /// The held-out records.
    held: Vec<Raw>,
}

impl DataSet {
    /// Opens `files` (see [`expand`] for directories), using at most `max` records (the first
    /// ones) and holding out every `every`-th (0: none); reads every record once to check it.
    ///
    /// # Errors
    ///
    /// [`StreamError`] naming the file that cannot be read or the first record that does not
    /// decode.
    pub fn open(files: &[PathBuf], max: Option<u64>, every: usize) -> Result<DataSet, StreamError> {
        let every = every as u64;
        let mut set = DataSet {
            files: Vec::new(),
            total: 0,
            every,
            held: Vec::new(),
        };
        let mut left = max.unwrap_or(u64::MAX);
        let mut buffer = Vec::new();
        for path in files {
            if left == 0 {
                break;
            }
            let mut reader = DataReader::open(path)?;
            let used = reader.records().min(left);
            left -= used;
            let mut first = 0;
            while first < used {
                buffer.clear();
                let count = (used - first).min(BLOCK * WINDOW as u64);
                reader.read_raw(first, count, &mut buffer)?;
                for (i, raw) in buffer.iter().enumerate() {
                    let index = first + i as u64;
                    Record::decode(raw, index).map_err(|source| StreamError::BadRecord {
                        path: path.clone(),
                        source,
                    })?;
                    if set.held_out(set.total + index) {
                        set.held.push(*raw);
                    }
                }
                first += count;
            }
            set.total += used;
            set.files.push((path.clone(), used));
        }
        Ok(set)
    }

    fn held_out(&self, index: u64) -> bool {
        self.every > 0 && index % self.every == self.every - 1
    }

    /// Records in the files used, the held-out ones included.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.total
    }

    /// Records trained on.
    #[must_use]
    pub fn training_records(&self) -> u64 {
        self.total - self.held.len() as u64
    }

    /// The held-out records' bytes.
    #[must_use]
    pub fn held(&self) -> &[Raw] {
        &self.held
    }

    /// The training records in this epoch's order, in batches of `batch` (the last may be
    /// shorter), read by a thread of their own. `seed` and `epoch` fix the order.
    #[must_use]
    pub fn epoch(&self, seed: u64, epoch: usize, batch: usize) -> Batches {
        let mut rng = Rng::seeded(seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        // (file, first record of the file's block, its global index, count)
        let mut blocks = Vec::new();
        let mut start = 0;
        for (f, &(_, used)) in self.files.iter().enumerate() {
            let mut first = 0;
            while first < used {
                let count = (used - first).min(BLOCK);
                blocks.push((f, first, start + first, count));
                first += count;
            }
            start += used;
        }
        shuffle(&mut blocks, &mut rng);
        let (send, receive) = sync_channel(1);
        let files: Vec<PathBuf> = self.files.iter().map(|(p, _)| p.clone()).collect();
        let every = self.every;
        let reader = std::thread::spawn(move || {
            let mut readers: Vec<Option<DataReader>> = files.iter().map(|_| None).collect();
            for window in blocks.chunks(WINDOW) {
                let records = read_window(&files, &mut readers, window, every, &mut rng);
                let failed = records.is_err();
                if send.send(records).is_err() || failed {
                    return;
                }
            }
        });
        Batches {
            windows: receive,
            reader: Some(reader),
            pending: Vec::new(),
            at: 0,
            batch: batch.max(1),
        }
    }
}

/// Reads one window's blocks, leaving out the held-out records, and shuffles them.
fn read_window(
    files: &[PathBuf],
    readers: &mut [Option<DataReader>],
    window: &[(usize, u64, u64, u64)],
    every: u64,
    rng: &mut Rng,
) -> Result<Vec<Raw>, StreamError> {
    let mut records = Vec::with_capacity(window.len() * BLOCK as usize);
    let mut block = Vec::with_capacity(BLOCK as usize);
    for &(f, first, global, count) in window {
        let reader = match &mut readers[f] {
            Some(r) => r,
            slot => slot.insert(DataReader::open(&files[f])?),
        };
        block.clear();
        reader.read_raw(first, count, &mut block)?;
        if block.len() as u64 != count {
            return Err(StreamError::Changed(DataError::Io {
                path: files[f].clone(),
                source: std::io::ErrorKind::UnexpectedEof.into(),
            }));
        }
        records.extend(
            block
                .iter()
                .enumerate()
                .filter(|&(i, _)| every == 0 || (global + i as u64) % every != every - 1)
                .map(|(_, r)| *r),
        );
    }
    shuffle(&mut records, rng);
    Ok(records)
}

/// Fisher-Yates with the one generator.
fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// An epoch's batches, as [`DataSet::epoch`] makes them.
pub struct Batches {
    windows: Receiver<Result<Vec<Raw>, StreamError>>,
    reader: Option<JoinHandle<()>>,
    /// The current window and how far it is used.
    pending: Vec<Raw>,
    at: usize,
    batch: usize,
}

impl Iterator for Batches {
    type Item = Result<Vec<Raw>, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut out = Vec::with_capacity(self.batch);
        while out.len() < self.batch {
            if self.at == self.pending.len() {
                match self.windows.recv() {
                    Ok(Ok(window)) => {
                        self.pending = window;
                        self.at = 0;
                        continue;
                    }
                    Ok(Err(e)) => return Some(Err(e)),
                    // The reader is done: the epoch's last batch, if anything is left.
                    Err(_) => break,
                }
            }
            let take = (self.batch - out.len()).min(self.pending.len() - self.at);
            out.extend_from_slice(&self.pending[self.at..self.at + take]);
            self.at += take;
        }
        (!out.is_empty()).then_some(Ok(out))
    }
}

impl Drop for Batches {
    fn drop(&mut self) {
        // Unblock the reader (its next send fails) and wait for it.
        let (_, closed) = sync_channel(1);
        drop(std::mem::replace(&mut self.windows, closed));
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_formats::training_data::DataFile;
    use chariot_rules::DecidedResult;
    use chariot_rules::testing::{ROOTS, random_games};
    use std::path::Path;

    /// Writes `n` records, the i-th with score i, into `path`.
    fn write(path: &Path, from: i16, n: i16) {
        let mut rng = Rng::seeded(from as u64);
        let mut positions = Vec::new();
        random_games(&ROOTS, 200, 40, &mut rng, |pos| {
            positions.push(pos.to_setup())
        });
        let records: Vec<Record> = (0..n)
            .map(|i| Record {
                setup: positions[i as usize % positions.len()].clone(),
                score: from + i,
                outcome: DecidedResult::DRAW,
                ply: 0,
            })
            .collect();
        let mut f = DataFile::open_for_append(path).unwrap();
        f.append(&records).unwrap();
    }

    fn scores(batch: &[Raw]) -> Vec<i16> {
        batch
            .iter()
            .map(|r| Record::decode(r, 0).unwrap().score)
            .collect()
    }

    #[test]
    fn an_epoch_gives_every_training_record_once_in_a_seeded_order() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("b.bin"), 1000, 700);
        write(&dir.path().join("a.bin"), 0, 300);
        std::fs::write(dir.path().join("notes.txt"), "not data").unwrap();
        let files = expand(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(files.len(), 2);
        assert!(files[0].ends_with("a.bin"), "in name order");
        let set = DataSet::open(&files, None, 10).unwrap();
        assert_eq!((set.records(), set.training_records()), (1000, 900));
        // Held out: every 10th record through the files in order.
        let held = scores(set.held());
        assert_eq!(held[..3], [9, 19, 29]);
        assert_eq!(held[30..32], [1009, 1019]);
        let epoch = |e: usize| -> Vec<Vec<i16>> {
            set.epoch(7, e, 128).map(|b| scores(&b.unwrap())).collect()
        };
        let first = epoch(1);
        assert_eq!(first.len(), 8, "900 in batches of 128");
        assert!(first[..7].iter().all(|b| b.len() == 128));
        let mut all: Vec<i16> = first.concat();
        assert_ne!(all[..20], (0..20).collect::<Vec<_>>()[..], "shuffled");
        all.sort_unstable();
        let mut expected: Vec<i16> = (0..300).chain(1000..1700).collect();
        expected.retain(|s| !held.contains(s));
        assert_eq!(all, expected);
        assert_eq!(first, epoch(1), "the same seed and epoch, the same order");
        assert_ne!(first, epoch(2));
        // At most `max` records: the first ones.
        let part = DataSet::open(&files, Some(350), 0).unwrap();
        assert_eq!((part.records(), part.held().len()), (350, 0));
        let mut seen: Vec<i16> = part
            .epoch(1, 1, 1000)
            .flat_map(|b| scores(&b.unwrap()))
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..300).chain(1000..1050).collect::<Vec<_>>());
        // A batch stream dropped early stops its reader.
        let mut batches = set.epoch(3, 1, 10);
        assert!(batches.next().is_some());
        drop(batches);
    }

    #[test]
    fn bad_files_and_records_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.bin");
        write(&path, 0, 20);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[16 + 32 * 5 + 28] = 0xf8; // stray flag bits in record 5
        std::fs::write(&path, &bytes).unwrap();
        let e = DataSet::open(std::slice::from_ref(&path), None, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad.bin") && e.contains("record 5"), "{e}");
        let e = DataSet::open(&[dir.path().join("none.bin")], None, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("none.bin"), "{e}");
    }
}
