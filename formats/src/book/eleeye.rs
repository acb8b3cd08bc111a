//! ElephantEye's `BOOK.DAT`: reading it into a Chariot book and writing one from a Chariot book,
//! so that existing UCCI engines and tools can use our books and we can read theirs.
//!
//! The layout is ElephantEye's (described in its documentation, re-implemented here from the
//! description): 8-byte little-endian records `{u32 lock, u16 move, u16 weight}` sorted by lock.
//! `lock` is the 32-bit "lock1" Zobrist word of the position. The Zobrist words come from an RC4
//! keystream with a key of four zero bytes; each table entry draws three 32-bit words in turn
//! (key, lock0, lock1): first the side-to-move entry, then 14 piece kinds × 256 squares of a
//! 16 × 16 board (kinds 0-6 Red's general, advisor, elephant, horse, chariot, cannon, soldier;
//! 7-13 Black's). Black to move XORs the side entry. Squares: file f, rank r →
//! `(3 + f) + ((12 - r) << 4)`; a move is `from | to << 8`.
//!
//! A `BOOK.DAT` stores no positions, only 32-bit locks, so it is converted by walking the game
//! tree from the start position through the book's own moves (and ElephantEye's probing rule:
//! on a miss, try the mirrored position and mirror its moves back).

use std::collections::HashSet;
use std::sync::OnceLock;

use super::file::Entry;
use super::{Book, MoveStats, canonical};
use chariot_rules::{Color, Move, Position, Square};

/// One `BOOK.DAT` record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's lock1 word.
    pub lock: u32,
    /// The move on ElephantEye's 16 × 16 board.
    pub mv: u16,
    /// Its weight.
    pub weight: u16,
}

/// Why a `BOOK.DAT` cannot be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum DatError {
    /// The size is not a multiple of the 8-byte record.
    #[error("{0} bytes is not a whole number of 8-byte records")]
    Size(usize),
    /// The records are not sorted by lock, so binary search cannot work.
    #[error("record {0} is out of order")]
    Order(usize),
}

struct Locks {
    side: u32,
    table: Vec<[u32; 256]>,
}

fn locks() -> &'static Locks {
    static LOCKS: OnceLock<Locks> = OnceLock::new();
    LOCKS.get_or_init(|| {
        // RC4 with a four-byte all-zero key.
        let mut s: [u8; 256] = std::array::from_fn(|i| i as u8);
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]);
            s.swap(i, j as usize);
        }
        let (mut i, mut j) = (0u8, 0u8);
        let mut byte = || {
            i = i.wrapping_add(1);
            j = j.wrapping_add(s[i as usize]);
            s.swap(i as usize, j as usize);
            s[s[i as usize].wrapping_add(s[j as usize]) as usize]
        };
        let mut word = || u32::from_le_bytes([byte(), byte(), byte(), byte()]);
        // Each entry draws key, lock0, lock1; only lock1 is used.
        let mut lock1 = || {
            word();
            word();
            word()
        };
        let side = lock1();
        let table = (0..14).map(|_| std::array::from_fn(|_| lock1())).collect();
        Locks { side, table }
    })
}

fn board_square(sq: Square) -> usize {
    (3 + sq.file() as usize) + ((12 - sq.rank() as usize) << 4)
}

fn from_board_square(s: u8) -> Option<Square> {
    let (x, y) = (i32::from(s & 15), i32::from(s >> 4));
    Square::try_new(x - 3, 12 - y)
}

/// The lock1 word ElephantEye files a position under.
#[must_use]
pub fn lock(pos: &Position) -> u32 {
    lock_with(pos, |sq| sq)
}

/// The lock1 word of the left-right mirror of `pos`, without building it.
#[must_use]
pub fn mirror_lock(pos: &Position) -> u32 {
    lock_with(pos, Square::mirror)
}

/// The lock1 word with every piece's square mapped by `square` first.
fn lock_with(pos: &Position, square: impl Fn(Square) -> Square) -> u32 {
    let t = locks();
    let mut lock = if pos.turn() == Color::Black {
        t.side
    } else {
        0
    };
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_at(sq) {
            lock ^= t.table[p.index()][board_square(square(sq))];
        }
    }
    lock
}

/// A move in ElephantEye's encoding.
#[must_use]
pub fn encode_move(m: Move) -> u16 {
    board_square(m.from()) as u16 | (board_square(m.to()) as u16) << 8
}

/// A move from ElephantEye's encoding, if both squares are on the board.
#[must_use]
pub fn decode_move(mv: u16) -> Option<Move> {
    Some(Move::new(
        from_board_square(mv as u8)?,
        from_board_square((mv >> 8) as u8)?,
    ))
}

/// Reads the records of a `BOOK.DAT`.
///
/// # Errors
/// [`DatError`] when the size or the order is wrong.
pub fn read(bytes: &[u8]) -> Result<Vec<Record>, DatError> {
    if !bytes.len().is_multiple_of(8) {
        return Err(DatError::Size(bytes.len()));
    }
    let records: Vec<Record> = bytes
        .chunks_exact(8)
        .map(|c| Record {
            lock: u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
            mv: u16::from_le_bytes([c[4], c[5]]),
            weight: u16::from_le_bytes([c[6], c[7]]),
        })
        .collect();
    if let Some(i) = records.windows(2).position(|w| w[1].lock < w[0].lock) {
        return Err(DatError::Order(i + 1));
    }
    Ok(records)
}

/// The moves ElephantEye would find for `pos`: the records under its lock or, failing that,
/// under its mirror's lock mirrored back; only legal moves are kept.
#[must_use]
pub fn probe(records: &[Record], pos: &Position) -> Vec<(Move, u16)> {
    let find = |lock: u32| {
        let start = records.partition_point(|r| r.lock < lock);
        records[start..].iter().take_while(move |r| r.lock == lock)
    };
    let direct: Vec<(Move, u16)> = find(lock(pos))
        .filter_map(|r| decode_move(r.mv).map(|m| (m, r.weight)))
        .filter(|(m, _)| pos.is_legal(*m))
        .collect();
    if !direct.is_empty() {
        return direct;
    }
    find(mirror_lock(pos))
        .filter_map(|r| decode_move(r.mv).map(|m| (m.mirror(), r.weight)))
        .filter(|(m, _)| pos.is_legal(*m))
        .collect()
}

/// Converts a `BOOK.DAT` into Chariot book entries by walking the tree from the start
/// position, at most `max_ply` plies deep. The walk follows every legal move that leads to a
/// position the file knows (directly or mirrored), not only the book moves, since ElephantEye's
/// builder drops rare moves whose positions it keeps. The weights are kept; the statistics are
/// unknown (zero), since the file has none. With `bridge` 1 the walk also crosses one position
/// the file does not know (a move the builder dropped on both sides), at about forty times the
/// cost. Returns the entries (mirror-merged keys when `mirror`) and the number of positions found.
#[must_use]
pub fn import(records: &[Record], max_ply: u32, mirror: bool, bridge: u32) -> (Vec<Entry>, usize) {
    let known: HashSet<u32> = records.iter().map(|r| r.lock).collect();
    let in_file = |pos: &Position| known.contains(&lock(pos)) || known.contains(&mirror_lock(pos));
    let mut seen = HashSet::new();
    let mut found = 0;
    let mut entries = Vec::new();
    // (position, ply, gaps crossed on the way to it)
    let mut stack = vec![(Position::start(), 0u32, 0u32)];
    while let Some((pos, ply, gaps)) = stack.pop() {
        let (key, _) = canonical(&pos, Move::NONE, mirror);
        if ply >= max_ply || !seen.insert((key, gaps)) {
            continue;
        }
        let moves = probe(records, &pos);
        if !moves.is_empty() && gaps == 0 {
            found += 1;
        }
        for (m, weight) in moves.iter().copied().filter(|_| gaps == 0) {
            let (key, mv) = canonical(&pos, m, mirror);
            entries.push(Entry {
                key,
                mv,
                stats: MoveStats::default(),
                weight: u32::from(weight),
            });
        }
        let mut next = pos.clone();
        next.clear_history();
        for &m in pos.legal_move_list().iter() {
            next.make_move(m);
            let gap = if in_file(&next) { 0 } else { gaps + 1 };
            if gap <= bridge {
                let mut child = next.clone();
                child.clear_history();
                stack.push((child, ply + 1, gap));
            }
            next.unmake_move();
        }
    }
    // A position reached through its mirror is stored once under the canonical key.
    entries.sort_by_key(|e| (e.key, e.mv));
    entries.dedup_by_key(|e| (e.key, e.mv));
    (entries, found)
}

/// Writes a Chariot book as `BOOK.DAT` records by walking its tree from the start position, at
/// most `max_ply` plies deep. Weights above 65535 are scaled down per position, keeping their
/// ratios. Each position is written in one orientation (ElephantEye's probing tries the mirror).
#[must_use]
pub fn export(book: &Book, max_ply: u32) -> Vec<Record> {
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    let mut stack = vec![(Position::start(), 0u32)];
    while let Some((pos, ply)) = stack.pop() {
        let (lk, mirror_lk) = (lock(&pos), mirror_lock(&pos));
        if ply >= max_ply || seen.contains(&lk) || seen.contains(&mirror_lk) {
            continue;
        }
        seen.insert(lk);
        let moves = book.probe(&pos);
        let top = moves.iter().map(|m| m.weight).max().unwrap_or(0);
        let scale = if top > u32::from(u16::MAX) {
            f64::from(u16::MAX) / f64::from(top)
        } else {
            1.0
        };
        for m in &moves {
            let weight = (f64::from(m.weight) * scale).round() as u16;
            if weight == 0 {
                continue;
            }
            records.push(Record {
                lock: lk,
                mv: encode_move(m.mv),
                weight,
            });
            let mut next = pos.clone();
            next.make_move(m.mv);
            next.clear_history();
            stack.push((next, ply + 1));
        }
    }
    records.sort_by_key(|r| (r.lock, std::cmp::Reverse(r.weight), r.mv));
    records
}

/// The bytes of a `BOOK.DAT` holding `records` (which must be sorted by lock).
#[must_use]
pub fn to_bytes(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(records.len() * 8);
    for r in records {
        out.extend_from_slice(&r.lock.to_le_bytes());
        out.extend_from_slice(&r.mv.to_le_bytes());
        out.extend_from_slice(&r.weight.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{BookWriter, BuildInfo};
    use chariot_rules::notation::parse_iccs;

    #[test]
    fn start_position_lock_matches_elephanteye() {
        // The value ElephantEye's own BOOK.DAT files the start position under.
        assert_eq!(lock(&Position::start()), 0x0526_56d5);
        let mut pos = Position::start();
        pos.make_move(parse_iccs("h2e2").unwrap());
        assert_eq!(mirror_lock(&pos), lock(&pos.mirror()));
        let m = parse_iccs("h2e2").unwrap();
        assert_eq!(decode_move(encode_move(m)), Some(m));
        assert_eq!(decode_move(0), None);
    }

    #[test]
    fn round_trip_through_chariot_books() {
        // A tiny BOOK.DAT: from the start h2e2 (weight 10) and c3c4 (3); after h2e2, h9g7 (5).
        let start = Position::start();
        let mut after = start.clone();
        after.make_move(parse_iccs("h2e2").unwrap());
        let mut records = vec![
            Record {
                lock: lock(&start),
                mv: encode_move(parse_iccs("h2e2").unwrap()),
                weight: 10,
            },
            Record {
                lock: lock(&start),
                mv: encode_move(parse_iccs("c3c4").unwrap()),
                weight: 3,
            },
            Record {
                lock: lock(&after),
                mv: encode_move(parse_iccs("h9g7").unwrap()),
                weight: 5,
            },
        ];
        records.sort_by_key(|r| r.lock);
        let bytes = to_bytes(&records);
        let read_back = read(&bytes).unwrap();
        assert_eq!(read_back, records);
        let (entries, positions) = import(&read_back, 10, true, 0);
        assert_eq!(entries.len(), 3);
        assert!(positions >= 2);
        let mut w = BookWriter::new(BuildInfo {
            mirror: true,
            ..BuildInfo::default()
        });
        for e in entries {
            w.push(e);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eleeye.xqb");
        w.write(&path).unwrap();
        let book = Book::open(&path).unwrap();
        // Mirror probing: after b2e2 the mirrored reply b9c7 is found.
        let mut mirrored = Position::start();
        mirrored.make_move(parse_iccs("b2e2").unwrap());
        assert_eq!(book.probe(&mirrored)[0].mv.to_string(), "b9c7");
        let exported = export(&book, 10);
        assert_eq!(exported.len(), 3);
        let again = read(&to_bytes(&exported)).unwrap();
        assert_eq!(probe(&again, &start).len(), 2);
        assert_eq!(
            probe(&again, &after),
            vec![(parse_iccs("h9g7").unwrap(), 5)]
        );
        assert!(matches!(read(&bytes[..7]), Err(DatError::Size(7))));
        let mut unsorted = records.clone();
        unsorted.reverse();
        if unsorted[0].lock != unsorted[1].lock {
            assert!(matches!(
                read(&to_bytes(&unsorted)),
                Err(DatError::Order(_))
            ));
        }
    }
}
