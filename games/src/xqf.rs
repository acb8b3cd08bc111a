//! XQF, the binary game format of XQStudio (象棋演播室), one game per file, including the
//! obfuscated versions 1.1 and later.
//!
//! Layout (all versions):
//! - `0x000` magic `XQ`, `0x002` version (10 = 1.0 ... 18 = 1.8);
//! - `0x003..0x010` key bytes (versions 11+): a mask at `0x03`, key bytes at `0x08..0x0c`, key
//!   bytes at `0x0c..0x10` (the last three also seed the offsets below);
//! - `0x010` the piece table: 32 bytes, one per piece in the order Red 车马相仕帅仕相马车炮炮兵×5,
//!   then Black in the same order; a byte `X*10+Y` (file X from Red's left, rank Y from Red's
//!   side, both from 0) or 255 for a captured piece;
//! - `0x033` result (0 unknown, 1 Red won, 2 Black won, 3 draw), `0x040` game type;
//! - length-prefixed GBK strings: title `0x050` (64 bytes), event `0x0d0` (64), date `0x110`,
//!   site `0x120`, Red `0x130`, Black `0x140` (16 each), time rule `0x150` (64), time used
//!   `0x190`/`0x1a0`, annotator `0x1d0`, author `0x1e0` (16 each);
//! - from `0x400` the move tree in pre-order: a record per node, the root (before the first move)
//!   first. A record is `from + 24`, `to + 32`, a flag byte and a spare byte; version 1.0 follows
//!   it with a 32-bit comment length always, later versions only when flag `0x20` is set. The
//!   flags say whether the node has a next move (`0xf0` in 1.0, `0x80` later) and a sibling
//!   variation (`0x0f` in 1.0, `0x40` later). Then come the comment's bytes.
//!
//! Because a node's continuation is written before its variations, the main line is simply the
//! records read in order until one has no next move. The reader still walks the rest of the tree
//! (counting open subtrees) so that a truncated file is noticed.
//!
//! Versions 11 and later obfuscate (this is not encryption in any serious sense):
//! - three offsets derived from key bytes `k12..k15` with `f(x) = 54x² + 221`, all mod 256:
//!   `piece = f(k13)·k13`, `from = f(k14)·piece`, `to = f(k15)·from`;
//!   the comment-length offset is `(256·k12 + k13) mod 32000 + 767`;
//! - piece table bytes are stored plus the piece offset, and from version 12 also rotated: stored
//!   byte `i` belongs to piece `(piece + 1 + i) mod 32`;
//! - move squares are stored plus the from/to offsets (on top of the +24/+32 of version 1.0);
//! - every byte from `0x400` on is stored plus a 32-byte key stream, byte `n` of the data using
//!   key `n mod 32`: key `i` is `(k[8 + i%4] | (k[12 + i%4] & k[3])) & M[i]`, where `M` is the
//!   ASCII text `[(C) Copyright Mr. Dong Shiwei.]`;
//! - comment lengths are stored plus the comment-length offset.

use chariot_rules::Square;
use encoding_rs::GB18030;

use crate::dhtmlxq::setup_fen;
use crate::problem::{Problem, ProblemKind};
use crate::record::{GameRecord, GameResult, MoveToken, ReadEvent};
use crate::text::clean_value;

/// The magic number at the start of every XQF file.
pub const MAGIC: &[u8; 2] = b"XQ";

/// The header's size; move records start here.
const HEADER_LEN: usize = 0x400;

/// The key stream's mask text.
const KEY_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Reads the one game of an XQF file, reporting it (or why it could not be read) through `emit`.
pub fn read(data: &[u8], emit: &mut dyn FnMut(ReadEvent)) {
    let mut warnings = Vec::new();
    match read_game(data, &mut warnings) {
        Ok(game) => {
            emit(ReadEvent::Game(game));
            for kind in warnings {
                emit(ReadEvent::Problem(Problem::warning(Some(1), None, kind)));
            }
        }
        Err(kind) => emit(ReadEvent::Problem(Problem::error(Some(1), None, kind))),
    }
}

/// The de-obfuscation parameters of one file (all zero for version 1.0).
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: i64,
    stream: [u8; 32],
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let version = h[2];
        if version <= 10 {
            return Keys {
                piece: 0,
                from: 0,
                to: 0,
                comment: 0,
                stream: [0; 32],
            };
        }
        let f = |x: u8| -> u32 {
            let x = u32::from(x);
            x * x * 54 + 221
        };
        let piece = f(h[13]).wrapping_mul(u32::from(h[13])) as u8;
        let from = f(h[14]).wrapping_mul(u32::from(piece)) as u8;
        let to = f(h[15]).wrapping_mul(u32::from(from)) as u8;
        let comment = i64::from((u32::from(h[12]) * 256 + u32::from(h[13])) % 32000 + 767);
        let mut stream = [0u8; 32];
        for (i, k) in stream.iter_mut().enumerate() {
            let key = h[8 + i % 4] | (h[12 + i % 4] & h[3]);
            *k = key & KEY_MASK[i];
        }
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }

    /// The byte at file offset `off` (at or after the header), de-obfuscated.
    fn byte(&self, data: &[u8], off: usize) -> Option<u8> {
        data.get(off).map(|b| b.wrapping_sub(self.stream[off % 32]))
    }

    /// A little-endian 32-bit number at `off`, de-obfuscated.
    fn int(&self, data: &[u8], off: usize) -> Option<i32> {
        let mut b = [0u8; 4];
        for (i, slot) in b.iter_mut().enumerate() {
            *slot = self.byte(data, off + i)?;
        }
        Some(i32::from_le_bytes(b))
    }
}

/// A header string: a length byte and up to `capacity - 1` bytes of GBK text.
fn header_string(
    h: &[u8],
    offset: usize,
    capacity: usize,
    field: &'static str,
    warnings: &mut Vec<ProblemKind>,
) -> String {
    let len = h[offset];
    let max = capacity - 1;
    if usize::from(len) > max {
        warnings.push(ProblemKind::XqfStringLength {
            field,
            length: len,
            capacity,
        });
    }
    let bytes = &h[offset + 1..offset + 1 + usize::from(len).min(max)];
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
    let (text, _) = GB18030.decode_without_bom_handling(bytes);
    clean_value(&text).unwrap_or_default()
}

fn read_game(data: &[u8], warnings: &mut Vec<ProblemKind>) -> Result<GameRecord, ProblemKind> {
    let (version, keys) = open(data)?;
    let h = &data[..HEADER_LEN];

    let mut game = GameRecord {
        number: 1,
        ..GameRecord::default()
    };
    let fields: [(&str, usize, usize); 11] = [
        ("Title", 0x50, 64),
        ("Event", 0xd0, 64),
        ("Date", 0x110, 16),
        ("Site", 0x120, 16),
        ("Red", 0x130, 16),
        ("Black", 0x140, 16),
        ("TimeRule", 0x150, 64),
        ("RedTime", 0x190, 16),
        ("BlackTime", 0x1a0, 16),
        ("Annotator", 0x1d0, 16),
        ("Author", 0x1e0, 16),
    ];
    for (name, offset, capacity) in fields {
        let value = header_string(h, offset, capacity, name, warnings);
        if !value.is_empty() {
            game.tags.push((name.to_owned(), value));
        }
    }
    game.event = game.tag("Event").or(game.tag("Title")).map(str::to_owned);
    game.red = game.tag("Red").map(str::to_owned);
    game.black = game.tag("Black").map(str::to_owned);
    game.date = game.tag("Date").and_then(crate::date::GameDate::parse);
    game.result = match h[0x33] {
        0 => None,
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 => Some(GameResult::Draw),
        code => {
            warnings.push(ProblemKind::XqfResult(code));
            None
        }
    };
    if let Some(r) = game.result {
        game.tags.push(("Result".to_owned(), r.pgn().to_owned()));
    }

    game.moves = read_tree(data, version, &keys, warnings)?.main_line;

    let mut squares = [None; 32];
    for (i, &stored) in h[0x10..0x30].iter().enumerate() {
        let code = stored.wrapping_sub(keys.piece);
        let piece = if version >= 12 {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        squares[piece] = (code < 90).then(|| Square::new(code / 10, code % 10));
    }
    let first_from = match game.moves.first() {
        Some(MoveToken::Squares { from, .. }) => Some(*from),
        _ => None,
    };
    game.fen = setup_fen(&squares, first_from)?;
    if let Some(fen) = &game.fen {
        game.tags.push(("FEN".to_owned(), fen.clone()));
    }
    Ok(game)
}

/// How many lines (leaves of the move tree: the main line and each variation) an XQF file holds.
///
/// # Errors
///
/// The problem that stops [`read`] from reading the file, if any.
pub fn count_lines(data: &[u8]) -> Result<usize, ProblemKind> {
    let (version, keys) = open(data)?;
    Ok(read_tree(data, version, &keys, &mut Vec::new())?.lines)
}

/// Checks the header's size and version; returns the version and the keys.
fn open(data: &[u8]) -> Result<(u8, Keys), ProblemKind> {
    if data.len() < HEADER_LEN {
        return Err(ProblemKind::XqfTooShort(data.len()));
    }
    let version = data[2];
    if version == 0 || version > 18 {
        return Err(ProblemKind::XqfVersion(version));
    }
    Ok((version, Keys::new(&data[..HEADER_LEN])))
}

/// What the walk over the move tree finds.
struct Tree {
    /// The main line.
    main_line: Vec<MoveToken>,
    /// How many lines (leaves) the tree has: 1 without variations.
    lines: usize,
}

/// Walks the move tree from `0x400`.
fn read_tree(
    data: &[u8],
    version: u8,
    keys: &Keys,
    warnings: &mut Vec<ProblemKind>,
) -> Result<Tree, ProblemKind> {
    let mut moves = Vec::new();
    let mut lines = 0;
    let mut off = HEADER_LEN;
    let mut in_main_line = true;
    // Subtrees still to read; each record opens at most a continuation and a sibling.
    let mut pending = 1usize;
    let mut record = 0usize;
    while pending > 0 {
        let Some(rec) = read_record(data, off, version, keys)? else {
            // Out of data: fatal inside the main line, a warning in a variation after it.
            let truncated = ProblemKind::XqfTruncated {
                offset: data.len(),
                record,
            };
            if in_main_line {
                return Err(truncated);
            }
            warnings.push(truncated);
            break;
        };
        if in_main_line && record > 0 {
            let ply = record;
            let square = |stored: u8, base: u8, key: u8, which| {
                let c = stored.wrapping_sub(base).wrapping_sub(key);
                (c < 90)
                    .then(|| Square::new(c / 10, c % 10))
                    .ok_or(ProblemKind::XqfBadSquare {
                        ply,
                        which,
                        code: c,
                    })
            };
            let from = square(rec.from, 24, keys.from, "from")?;
            let to = square(rec.to, 32, keys.to, "to")?;
            moves.push(MoveToken::Squares { from, to });
        }
        if !rec.has_next {
            in_main_line = false;
            lines += 1;
        }
        pending = pending - 1 + usize::from(rec.has_next) + usize::from(rec.has_sibling);
        off = rec.end;
        record += 1;
    }
    Ok(Tree {
        main_line: moves,
        lines,
    })
}

/// One move record, de-obfuscated.
struct Record {
    /// The stored from byte (square code plus 24 plus the from offset).
    from: u8,
    /// The stored to byte (square code plus 32 plus the to offset).
    to: u8,
    has_next: bool,
    has_sibling: bool,
    /// The offset after the record and its comment.
    end: usize,
}

/// The record at `off`; `Ok(None)` when the data ends inside it.
///
/// # Errors
///
/// A comment length that is negative or runs past the end of the data.
fn read_record(
    data: &[u8],
    off: usize,
    version: u8,
    keys: &Keys,
) -> Result<Option<Record>, ProblemKind> {
    let (Some(from), Some(to), Some(flags), Some(_spare)) = (
        keys.byte(data, off),
        keys.byte(data, off + 1),
        keys.byte(data, off + 2),
        keys.byte(data, off + 3),
    ) else {
        return Ok(None);
    };
    let mut next = off + 4;
    let (has_next, has_sibling) = if version <= 10 {
        (flags & 0xf0 != 0, flags & 0x0f != 0)
    } else {
        (flags & 0x80 != 0, flags & 0x40 != 0)
    };
    let length = if version <= 10 || flags & 0x20 != 0 {
        let Some(stored) = keys.int(data, next) else {
            return Ok(None);
        };
        next += 4;
        i64::from(stored) - keys.comment
    } else {
        0
    };
    let end = usize::try_from(length)
        .ok()
        .and_then(|l| next.checked_add(l))
        .filter(|&e| e <= data.len());
    let end = end.ok_or(ProblemKind::XqfCommentLength {
        length,
        offset: next - 4,
        size: data.len(),
    })?;
    Ok(Some(Record {
        from,
        to,
        has_next,
        has_sibling,
        end,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a version 1.0 file: header with the start position, then records.
    fn v10(records: &[(u8, u8, u8, &[u8])]) -> Vec<u8> {
        let mut d = vec![0u8; HEADER_LEN];
        d[..3].copy_from_slice(b"XQ\x0a");
        let table = [
            80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59,
            69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
        ];
        d[0x10..0x30].copy_from_slice(&table);
        d[0x33] = 2;
        d[0x130] = 6;
        d[0x131..0x137].copy_from_slice(&[0xc1, 0xf8, 0xb4, 0xf3, 0xbb, 0xaa]); // 柳大华 in GBK
        for &(from, to, flags, comment) in records {
            d.extend_from_slice(&[from + 24, to + 32, flags, 0]);
            d.extend_from_slice(&(comment.len() as i32).to_le_bytes());
            d.extend_from_slice(comment);
        }
        d
    }

    fn parse(data: &[u8]) -> (Vec<GameRecord>, Vec<Problem>) {
        let (mut games, mut problems) = (Vec::new(), Vec::new());
        read(data, &mut |e| match e {
            ReadEvent::Game(g) => games.push(g),
            ReadEvent::Problem(p) => problems.push(p),
        });
        (games, problems)
    }

    #[test]
    fn version_10_as_documented() {
        // The example in XQF.TXT: 兵七进一 (23 -> 24), 马８进７ (79 -> 67), last move flag 0.
        let d = v10(&[
            (0, 0, 0xf0, b""),
            (23, 24, 0xf0, b"note"),
            (79, 67, 0x00, b""),
        ]);
        let (games, problems) = parse(&d);
        assert!(problems.is_empty(), "{problems:?}");
        let g = &games[0];
        let iccs: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
        assert_eq!(iccs, ["c3c4", "h9g7"]);
        assert_eq!(g.fen, None);
        assert_eq!(g.red.as_deref(), Some("柳大华"));
        assert_eq!(g.result, Some(GameResult::BlackWins));
    }

    #[test]
    fn variations_are_skipped() {
        // Root -> A (has next and a sibling) -> B (end); sibling A' (end).
        let d = v10(&[
            (0, 0, 0xf0, b""),
            (23, 24, 0xff, b""),
            (79, 67, 0x00, b""),
            (70, 72, 0x00, b""),
        ]);
        let (games, problems) = parse(&d);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games[0].moves.len(), 2);
    }

    #[test]
    fn broken_files_are_errors() {
        let (g, p) = parse(b"XQ\x0a");
        assert!(g.is_empty());
        assert_eq!(p[0].kind, ProblemKind::XqfTooShort(3));

        let mut d = v10(&[(0, 0, 0xf0, b""), (23, 24, 0x00, b"")]);
        d[2] = 42;
        assert_eq!(parse(&d).1[0].kind, ProblemKind::XqfVersion(42));

        let d = v10(&[(0, 0, 0xf0, b""), (23, 24, 0xf0, b"")]);
        let cut = &d[..d.len() - 3];
        assert!(matches!(
            parse(cut).1[0].kind,
            ProblemKind::XqfTruncated { record: 1, .. }
        ));
        assert!(matches!(
            parse(&d).1[0].kind,
            ProblemKind::XqfTruncated { record: 2, .. }
        ));

        let d = v10(&[(0, 0, 0xf0, b""), (95, 24, 0x00, b"")]);
        assert_eq!(
            parse(&d).1[0].kind,
            ProblemKind::XqfBadSquare {
                ply: 1,
                which: "from",
                code: 95
            }
        );

        let mut d = v10(&[(0, 0, 0xf0, b""), (23, 24, 0x00, b"")]);
        d[0x404..0x408].copy_from_slice(&1000i32.to_le_bytes());
        assert!(matches!(
            parse(&d).1[0].kind,
            ProblemKind::XqfCommentLength { length: 1000, .. }
        ));

        let mut d = v10(&[(0, 0, 0x00, b"")]);
        d[0x10] = 40; // Red's rook onto the general's square
        assert_eq!(
            parse(&d).1[0].kind,
            ProblemKind::TwoPiecesOnSquare("e0".to_owned())
        );
    }

    #[test]
    fn trees_of_the_sample_files() {
        // Line counts as cchess's tests state them (its test_read_xqf.py: branchs 139, 6, 5).
        let cases: [(&[u8], usize, usize); 4] = [
            (include_bytes!("../tests/data/xqf/WildHouse.xqf"), 139, 65),
            (include_bytes!("../tests/data/xqf/game_varations.xqf"), 6, 8),
            (
                include_bytes!("../tests/data/xqf/test_5_variations.xqf"),
                5,
                6,
            ),
            (include_bytes!("../tests/data/xqf/test.xqf"), 1, 110),
        ];
        for (data, lines, plies) in cases {
            assert_eq!(count_lines(data), Ok(lines));
            let (games, problems) = parse(data);
            assert!(problems.is_empty());
            assert_eq!(games[0].moves.len(), plies);
        }
        assert_eq!(count_lines(b"XQ"), Err(ProblemKind::XqfTooShort(2)));
    }

    #[test]
    fn keys_follow_the_formula() {
        let mut h = vec![0u8; HEADER_LEN];
        h[2] = 18;
        h[3] = 0x0f;
        h[8..16].copy_from_slice(&[1, 2, 3, 4, 200, 250, 7, 8]);
        let k = Keys::new(&h);
        let f = |x: u32| x * x * 54 + 221;
        assert_eq!(u32::from(k.piece), f(250) * 250 % 256);
        assert_eq!(u32::from(k.from), f(7) * u32::from(k.piece) % 256);
        assert_eq!(u32::from(k.to), f(8) * u32::from(k.from) % 256);
        assert_eq!(k.comment, 51_450 % 32_000 + 767);
        assert_eq!(k.stream[0], (1 | (200 & 0x0f)) & b'[');
        assert_eq!(k.stream[5], (2 | (250 & 0x0f)) & b'C');
    }
}
