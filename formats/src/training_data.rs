//! The training-data file: positions from self-play, each with its search score and the game's
//! result, in fixed 32-byte records (`docs/formats/training-data.md` gives the byte layout).
//!
//! A file is a 16-byte header and then records, appended a game at a time. Records have a fixed
//! size so that a trainer can memory-map a file and pick any record, and so that a file cut short
//! by a crash loses at most its last, partial record ([`DataFile::open_for_append`] cuts it off).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use chariot_rules::{Color, DecidedResult, Kind, Piece, Position, Setup, Square, Waivers};

/// The file's first 8 bytes.
pub const MAGIC: [u8; 8] = *b"CHRTDATA";
/// The format version this module reads and writes.
pub const VERSION: u32 = 1;
/// Bytes per record.
pub const RECORD_SIZE: usize = 32;
/// Bytes of the header (magic, version, record size).
pub const HEADER_SIZE: usize = 16;

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The placement of the pieces (at most 32) and the side to move.
    pub setup: Setup,
    /// The search's score in centipawns from the side to move's view.
    pub score: i16,
    /// The game's result (a record is of a finished game).
    pub outcome: DecidedResult,
    /// The ply of the game at which the position stood (capped at 255).
    pub ply: u8,
}

/// Why a training-data file or record cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The file does not start with the format's header.
    #[error("{path}: not a Chariot training-data file (bad magic, version or record size)")]
    BadHeader {
        /// The file.
        path: PathBuf,
    },
    /// A record's bytes do not describe a position.
    #[error("record {index}: {what}")]
    BadRecord {
        /// The record's number, from 0.
        index: u64,
        /// What is wrong.
        what: &'static str,
    },
    /// A position with more pieces than a record holds.
    #[error("a position with {0} pieces does not fit a record (at most 32)")]
    TooManyPieces(u32),
}

impl Record {
    /// The record's 32 bytes.
    ///
    /// # Errors
    ///
    /// [`DataError::TooManyPieces`] for a setup with more than 32 pieces.
    pub fn encode(&self) -> Result<[u8; RECORD_SIZE], DataError> {
        let mut out = [0u8; RECORD_SIZE];
        let mut occupancy: u128 = 0;
        let mut count = 0usize;
        for sq in Square::all() {
            if let Some(piece) = self.setup.piece_at(sq) {
                if count == 32 {
                    let total = Square::all()
                        .filter(|&s| self.setup.piece_at(s).is_some())
                        .count();
                    return Err(DataError::TooManyPieces(total as u32));
                }
                occupancy |= 1 << sq.index();
                let code = piece.index() as u8;
                out[12 + count / 2] |= if count.is_multiple_of(2) {
                    code
                } else {
                    code << 4
                };
                count += 1;
            }
        }
        out[..12].copy_from_slice(&occupancy.to_le_bytes()[..12]);
        let black = u8::from(!self.setup.turn.is_red());
        out[28] = black | (self.outcome.code() << 1);
        out[29] = self.ply;
        out[30..32].copy_from_slice(&self.score.to_le_bytes());
        Ok(out)
    }

    /// Reads a record from its 32 bytes (`index` names it in errors).
    ///
    /// # Errors
    ///
    /// [`DataError::BadRecord`] when the bytes are no position: squares past the board, more
    /// than 32 pieces, an unknown piece code, stray bits in the flags.
    pub fn decode(bytes: &[u8; RECORD_SIZE], index: u64) -> Result<Record, DataError> {
        let bad = |what| DataError::BadRecord { index, what };
        let mut occ = [0u8; 16];
        occ[..12].copy_from_slice(&bytes[..12]);
        let occupancy = u128::from_le_bytes(occ);
        if occupancy >> 90 != 0 {
            return Err(bad("a piece on a square past the board"));
        }
        if occupancy.count_ones() > 32 {
            return Err(bad("more than 32 pieces"));
        }
        let mut setup = Setup::empty();
        for (count, i) in (0..90).filter(|i| occupancy >> i & 1 == 1).enumerate() {
            let byte = bytes[12 + count / 2];
            let code = if count % 2 == 0 { byte & 15 } else { byte >> 4 };
            if code >= 14 {
                return Err(bad("unknown piece code"));
            }
            let color = if code < 7 { Color::Red } else { Color::Black };
            let piece = Piece::new(color, Kind::ALL[usize::from(code % 7)]);
            let sq = Square::from_index(i).ok_or_else(|| bad("a square past the board"))?;
            setup.board[sq.index()] = Some(piece);
        }
        let flags = bytes[28];
        if flags >> 3 != 0 {
            return Err(bad("unknown flag bits"));
        }
        setup.turn = if flags & 1 == 1 {
            Color::Black
        } else {
            Color::Red
        };
        let outcome =
            DecidedResult::from_code((flags >> 1) & 3).ok_or_else(|| bad("result code 3"))?;
        Ok(Record {
            setup,
            score: i16::from_le_bytes([bytes[30], bytes[31]]),
            outcome,
            ply: bytes[29],
        })
    }

    /// The record's position, checked as a legal position (records come from legal games).
    ///
    /// # Errors
    ///
    /// The position's validation error, as text.
    pub fn position(&self) -> Result<Position, String> {
        Position::from_setup(&self.setup, Waivers::NONE).map_err(|e| e.to_string())
    }
}

/// An open training-data file for appending whole games.
#[derive(Debug)]
pub struct DataFile {
    path: PathBuf,
    out: BufWriter<File>,
    records: u64,
}

impl DataFile {
    /// Opens `path` for appending, creating it with a header if it does not exist; a partial
    /// last record (a crash while writing) is cut off.
    ///
    /// # Errors
    ///
    /// [`DataError::Io`] when the file cannot be opened, [`DataError::BadHeader`] when an
    /// existing file is not in this format.
    pub fn open_for_append(path: &Path) -> Result<DataFile, DataError> {
        let io = |source| DataError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            file.write_all(&header()).map_err(io)?;
        } else {
            let mut head = [0u8; HEADER_SIZE];
            if len < HEADER_SIZE as u64 || file.read_exact(&mut head).is_err() || head != header() {
                return Err(DataError::BadHeader {
                    path: path.to_path_buf(),
                });
            }
        }
        let len = len.max(HEADER_SIZE as u64);
        let records = (len - HEADER_SIZE as u64) / RECORD_SIZE as u64;
        let whole = HEADER_SIZE as u64 + records * RECORD_SIZE as u64;
        if whole != len {
            file.set_len(whole).map_err(io)?;
        }
        file.seek(SeekFrom::Start(whole)).map_err(io)?;
        Ok(DataFile {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            records,
        })
    }

    /// Creates `path` anew (an existing file is emptied) with the header and no records: the
    /// start of a file that must hold exactly what one run writes, such as a shard of a plan.
    ///
    /// # Errors
    ///
    /// [`DataError::Io`] when the file cannot be created or written.
    pub fn create(path: &Path) -> Result<DataFile, DataError> {
        let io = |source| DataError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::create(path).map_err(io)?;
        file.write_all(&header()).map_err(io)?;
        Ok(DataFile {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            records: 0,
        })
    }

    /// Flushes the file and waits until its bytes are on the disk, so that a rename that
    /// follows never publishes a file the system may still lose.
    ///
    /// # Errors
    ///
    /// [`DataError::Io`] when flushing or syncing fails.
    pub fn finish(self) -> Result<(), DataError> {
        let path = self.path;
        let io = |source| DataError::Io {
            path: path.clone(),
            source,
        };
        let file = self.out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)
    }

    /// Records in the file, those written through this handle included.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Appends a game's records and flushes them to the file, so that a stop loses no finished
    /// game.
    ///
    /// # Errors
    ///
    /// [`DataError::Io`] when writing fails; [`DataError::TooManyPieces`] for a bad record (none
    /// of the game is written then).
    pub fn append(&mut self, records: &[Record]) -> Result<(), DataError> {
        let bytes: Vec<[u8; RECORD_SIZE]> = records
            .iter()
            .map(Record::encode)
            .collect::<Result<_, _>>()?;
        let io = |source| DataError::Io {
            path: self.path.clone(),
            source,
        };
        for b in &bytes {
            self.out.write_all(b).map_err(io)?;
        }
        self.out.flush().map_err(io)?;
        self.records += records.len() as u64;
        Ok(())
    }
}

/// The header every file of this format and version starts with.
#[must_use]
pub fn header() -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    h
}

/// Reads every record of a training-data file.
///
/// # Errors
///
/// [`DataError::Io`], [`DataError::BadHeader`], or [`DataError::BadRecord`] naming the first bad
/// record; a partial last record is ignored, as appending would cut it off.
pub fn read_all(path: &Path) -> Result<Vec<Record>, DataError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|source| DataError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() < HEADER_SIZE || bytes[..HEADER_SIZE] != header() {
        return Err(DataError::BadHeader {
            path: path.to_path_buf(),
        });
    }
    bytes[HEADER_SIZE..]
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .map(|(i, chunk)| {
            let chunk: &[u8; RECORD_SIZE] = chunk.try_into().unwrap_or_else(|_| unreachable!());
            Record::decode(chunk, i as u64)
        })
        .collect()
}

/// A training-data file opened for reading its records by number, a range at a time, so that a
/// trainer can stream files larger than memory (and in any order it likes).
#[derive(Debug)]
pub struct DataReader {
    path: PathBuf,
    file: File,
    records: u64,
}

impl DataReader {
    /// Opens `path` and checks its header; a partial last record is not counted.
    ///
    /// # Errors
    ///
    /// [`DataError::Io`] when the file cannot be opened, [`DataError::BadHeader`] when it is not
    /// in this format.
    pub fn open(path: &Path) -> Result<DataReader, DataError> {
        let io = |source| DataError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut head = [0u8; HEADER_SIZE];
        if len < HEADER_SIZE as u64 || file.read_exact(&mut head).is_err() || head != header() {
            return Err(DataError::BadHeader {
                path: path.to_path_buf(),
            });
        }
        Ok(DataReader {
            path: path.to_path_buf(),
            file,
            records: (len - HEADER_SIZE as u64) / RECORD_SIZE as u64,
        })
    }

    /// The file's whole records.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.records
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends to `out` the bytes of records `first..first + count` (cut at the end of the
    /// file), undecoded: [`Record::decode`] reads each, naming its number.
    ///
    /// # Errors
    ///
    /// [`DataError::Io`] when reading fails (the file shrank, a disk error).
    pub fn read_raw(
        &mut self,
        first: u64,
        count: u64,
        out: &mut Vec<[u8; RECORD_SIZE]>,
    ) -> Result<(), DataError> {
        let count = count.min(self.records.saturating_sub(first));
        if count == 0 {
            return Ok(());
        }
        let io = |source| DataError::Io {
            path: self.path.clone(),
            source,
        };
        let offset = HEADER_SIZE as u64 + first * RECORD_SIZE as u64;
        self.file.seek(SeekFrom::Start(offset)).map_err(io)?;
        let mut bytes = vec![0u8; count as usize * RECORD_SIZE];
        self.file.read_exact(&mut bytes).map_err(io)?;
        out.extend(bytes.chunks_exact(RECORD_SIZE).map(|c| {
            let mut r = [0u8; RECORD_SIZE];
            r.copy_from_slice(c);
            r
        }));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::random::Rng;
    use chariot_rules::testing::{ROOTS, random_games};

    #[test]
    fn records_round_trip_through_bytes() {
        let mut rng = Rng::seeded(11);
        let mut n = 0;
        random_games(&ROOTS, 30, 80, &mut rng.clone(), |pos| {
            let record = Record {
                setup: pos.to_setup(),
                score: (rng.below(4000) as i16) - 2000,
                outcome: DecidedResult::ALL[rng.below(3)],
                ply: rng.below(256) as u8,
            };
            let bytes = record.encode().unwrap();
            let back = Record::decode(&bytes, 0).unwrap();
            assert_eq!(back.setup.board, record.setup.board);
            assert_eq!(back.setup.turn, record.setup.turn);
            assert_eq!(
                (back.score, back.outcome, back.ply),
                (record.score, record.outcome, record.ply)
            );
            assert_eq!(
                back.position().unwrap().fen(),
                pos.fen().split(' ').take(2).collect::<Vec<_>>().join(" ") + " - - 0 1"
            );
            n += 1;
        });
        assert!(n > 1000);
    }

    #[test]
    fn bad_bytes_are_errors_not_panics() {
        let mut bytes = [0xffu8; RECORD_SIZE];
        assert!(Record::decode(&bytes, 3).is_err());
        bytes = [0; RECORD_SIZE];
        bytes[28] = 6; // result code 3
        assert!(matches!(
            Record::decode(&bytes, 3),
            Err(DataError::BadRecord { index: 3, .. })
        ));
    }

    #[test]
    fn appending_keeps_whole_records_and_cuts_a_partial_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        let record = Record {
            setup: Position::start().to_setup(),
            score: 17,
            outcome: DecidedResult::DRAW,
            ply: 0,
        };
        let mut f = DataFile::open_for_append(&path).unwrap();
        f.append(&[record.clone(), record.clone()]).unwrap();
        drop(f);
        // A crash in the middle of a record.
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(&[1, 2, 3]).unwrap();
        drop(raw);
        let mut f = DataFile::open_for_append(&path).unwrap();
        assert_eq!(f.records(), 2);
        f.append(std::slice::from_ref(&record)).unwrap();
        drop(f);
        let all = read_all(&path).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[2], record);
        // Created anew, the file starts empty again.
        let mut f = DataFile::create(&path).unwrap();
        assert_eq!(f.records(), 0);
        f.append(std::slice::from_ref(&record)).unwrap();
        f.finish().unwrap();
        assert_eq!(read_all(&path).unwrap(), std::slice::from_ref(&record));
        std::fs::write(&path, b"not a data file at all").unwrap();
        assert!(matches!(
            DataFile::open_for_append(&path),
            Err(DataError::BadHeader { .. })
        ));
    }

    #[test]
    fn a_reader_reads_any_range_of_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.bin");
        let records: Vec<Record> = (0..10)
            .map(|i| Record {
                setup: Position::start().to_setup(),
                score: i * 7,
                outcome: DecidedResult::DRAW,
                ply: i as u8,
            })
            .collect();
        let mut f = DataFile::open_for_append(&path).unwrap();
        f.append(&records).unwrap();
        drop(f);
        // A partial record at the end is not counted.
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(&[1, 2, 3]).unwrap();
        drop(raw);
        let mut reader = DataReader::open(&path).unwrap();
        assert_eq!(reader.records(), 10);
        let mut out = Vec::new();
        reader.read_raw(3, 4, &mut out).unwrap();
        reader.read_raw(8, 100, &mut out).unwrap();
        reader.read_raw(50, 1, &mut out).unwrap();
        let back: Vec<Record> = out
            .iter()
            .enumerate()
            .map(|(i, b)| Record::decode(b, i as u64).unwrap())
            .collect();
        assert_eq!(back, [&records[3..7], &records[8..]].concat());
        std::fs::write(&path, b"not a data file at all").unwrap();
        assert!(matches!(
            DataReader::open(&path),
            Err(DataError::BadHeader { .. })
        ));
    }
}
