//! Reading one game file of any supported kind: decompression, then format and encoding detection,
//! then the format's reader.
//!
//! Everything is decided by content, never by file name: zstd by its magic number `28 B5 2F FD`,
//! XQF by `XQ`, DhtmlXQ by a `[DhtmlXQ` tag in the text, PGN otherwise. Binary data that is none
//! of these is refused before it can be misread as text.

use std::io::Read;
use std::path::Path;

use crate::encoding::{self, TextEncoding};
use crate::problem::{Problem, ProblemKind, Severity};
use crate::record::{GameRecord, ReadEvent};
use crate::{dhtmlxq, pgn, xqf};

/// The game file formats this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// PGN text (ICCS, WXF, Chinese or WinBoard SAN moves).
    Pgn,
    /// DhtmlXQ/UBB blocks in a text or HTML file.
    DhtmlXq,
    /// XQF binary (XQStudio), one game per file.
    Xqf,
}

impl FileFormat {
    /// The format's usual name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FileFormat::Pgn => "PGN",
            FileFormat::DhtmlXq => "DhtmlXQ",
            FileFormat::Xqf => "XQF",
        }
    }
}

/// What reading one file found, besides the games themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSummary {
    /// The data was zstd-compressed.
    pub zstd: bool,
    /// The size of the (decompressed) data in bytes.
    pub bytes: usize,
    /// The format detected, `None` when the file could not be recognised.
    pub format: Option<FileFormat>,
    /// The text encoding detected (XQF header strings are always GBK, reported as GB18030).
    pub encoding: Option<TextEncoding>,
    /// How many games were read.
    pub games: usize,
    /// Problems, in file order.
    pub problems: Vec<Problem>,
}

impl FileSummary {
    /// How many games were skipped because of an error.
    #[must_use]
    pub fn skipped(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error && p.game.is_some())
            .count()
    }

    /// How many warnings there are.
    #[must_use]
    pub fn warnings(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count()
    }

    /// Whether the file as a whole could not be read (unreadable, corrupt, unrecognised).
    #[must_use]
    pub fn failed(&self) -> bool {
        self.problems
            .iter()
            .any(|p| p.severity == Severity::Error && p.game.is_none() && p.line.is_none())
    }

    fn fail(mut self, kind: ProblemKind) -> FileSummary {
        self.problems.push(Problem::error(None, None, kind));
        self
    }
}

/// The zstd frame magic number.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The most bytes a compressed file may expand to (1 GiB): far above any game collection, low
/// enough that a crafted file cannot exhaust memory.
pub const MAX_DECOMPRESSED: u64 = 1 << 30;

/// Share of undecodable or control characters above which text is taken for binary data.
const BINARY_SHARE: f64 = 0.01;

/// Reads the file at `path`, passing each game to `on_game`; problems go into the summary.
///
/// Never fails: an unreadable file is a summary with an [`ProblemKind::Io`] error.
pub fn read_file(path: &Path, on_game: &mut dyn FnMut(GameRecord)) -> FileSummary {
    match std::fs::read(path) {
        Ok(data) => read_bytes(&data, on_game),
        Err(e) => FileSummary::default().fail(ProblemKind::Io(e.to_string())),
    }
}

/// Reads the games in `data` (the contents of one file), passing each to `on_game`.
pub fn read_bytes(data: &[u8], on_game: &mut dyn FnMut(GameRecord)) -> FileSummary {
    let mut summary = FileSummary {
        bytes: data.len(),
        ..FileSummary::default()
    };
    let mut decompressed;
    let data = if data.starts_with(&ZSTD_MAGIC) {
        summary.zstd = true;
        match decompress(data) {
            Ok((d, None)) => {
                decompressed = d;
                if decompressed.starts_with(&ZSTD_MAGIC) {
                    return summary
                        .fail(ProblemKind::Zstd("zstd data inside zstd data".to_owned()));
                }
                &decompressed[..]
            }
            // Damaged or cut short: read the games decoded before the damage, less the last
            // one, which the damage may have cut.
            Ok((d, Some(reason))) if !d.is_empty() => {
                decompressed = d;
                let keep = last_game_start(&decompressed);
                let line = line_of(&decompressed, keep);
                summary.problems.push(Problem::error(
                    None,
                    Some(line),
                    ProblemKind::ZstdTruncated {
                        decoded: decompressed.len(),
                        reason,
                    },
                ));
                decompressed.truncate(keep);
                &decompressed[..]
            }
            Ok((_, Some(reason))) => return summary.fail(ProblemKind::Zstd(reason)),
            Err(kind) => return summary.fail(kind),
        }
    } else {
        data
    };
    summary.bytes = data.len();
    if data.is_empty() {
        return summary.fail(ProblemKind::Empty);
    }

    let mut emit = |event: ReadEvent, summary: &mut FileSummary| match event {
        ReadEvent::Game(game) => {
            summary.games += 1;
            on_game(game);
        }
        ReadEvent::Problem(p) => summary.problems.push(p),
    };

    if data.starts_with(xqf::MAGIC) {
        summary.format = Some(FileFormat::Xqf);
        summary.encoding = Some(TextEncoding::Gb18030);
        xqf::read(data, &mut |e| emit(e, &mut summary));
        return summary;
    }

    let has_utf16_bom = data.starts_with(b"\xff\xfe") || data.starts_with(b"\xfe\xff");
    let cleaned;
    let data = if has_utf16_bom {
        data
    } else {
        match salvage(data) {
            Salvage::Clean => data,
            Salvage::Binary(why) => return summary.fail(ProblemKind::Binary(why)),
            Salvage::Damaged { text, problems } => {
                summary.problems.extend(problems);
                cleaned = text;
                &cleaned[..]
            }
        }
    };
    let decoded = encoding::decode(data);
    summary.encoding = Some(decoded.encoding);
    let text = decoded.text.as_ref();
    let total = text.chars().count().max(1);
    let controls = text
        .chars()
        .filter(|&c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c'))
        .count();
    let odd = controls + decoded.replaced;
    if odd > 8 && odd as f64 > BINARY_SHARE * total as f64 {
        summary.encoding = None;
        return summary.fail(ProblemKind::Binary(format!(
            "{odd} of {total} characters are control characters or invalid {}",
            decoded.encoding.name()
        )));
    }
    if decoded.replaced > 0 {
        summary.problems.push(Problem::warning(
            None,
            None,
            ProblemKind::Undecodable {
                count: decoded.replaced,
                encoding: decoded.encoding.name(),
            },
        ));
    }
    if crate::text::trim(text).is_empty() {
        return summary.fail(ProblemKind::Empty);
    }

    let is_dhtmlxq = ["[DhtmlXQ", "[dhtmlxq", "[DHTMLXQ"]
        .iter()
        .any(|m| text.contains(m));
    let format = if is_dhtmlxq {
        FileFormat::DhtmlXq
    } else {
        FileFormat::Pgn
    };
    summary.format = Some(format);
    let mut sink = |e: ReadEvent| emit(e, &mut summary);
    match format {
        FileFormat::DhtmlXq => dhtmlxq::read(text, &mut sink),
        _ => pgn::read(text, &mut sink),
    }
    if summary.games == 0 && !summary.problems.iter().any(|p| p.game.is_some()) {
        summary.format = None;
        return summary.fail(ProblemKind::UnknownFormat);
    }
    summary
}

/// Reads all games of `data` into memory (convenient for small files and tests).
#[must_use]
pub fn read_all(data: &[u8]) -> (FileSummary, Vec<GameRecord>) {
    let mut games = Vec::new();
    let summary = read_bytes(data, &mut |g| games.push(g));
    (summary, games)
}

/// Decompresses zstd data (one or more frames), refusing more than [`MAX_DECOMPRESSED`]
/// bytes. Data that breaks off or is damaged gives what was decompressed before, with the
/// decompressor's reason.
fn decompress(data: &[u8]) -> Result<(Vec<u8>, Option<String>), ProblemKind> {
    let decoder =
        zstd::stream::read::Decoder::new(data).map_err(|e| ProblemKind::Zstd(e.to_string()))?;
    let mut decoder = decoder.take(MAX_DECOMPRESSED + 1);
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let damage = loop {
        match decoder.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Some(e.to_string()),
        }
    };
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(ProblemKind::TooLarge {
            limit: MAX_DECOMPRESSED,
        });
    }
    Ok((out, damage))
}

/// Bytes that never occur in game text in any of the supported encodings (UTF-8, GBK, Big5:
/// their multi-byte sequences never use C0 control bytes): NUL and the C0 controls other than
/// tab, line feed, form feed and carriage return.
fn is_binary_byte(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)
}

/// What [`salvage`] found.
enum Salvage {
    /// No binary bytes.
    Clean,
    /// Mostly binary: not a text file.
    Binary(String),
    /// Text with damaged stretches: the games holding them are blanked out (their lines kept
    /// as empty lines, so that line numbers stay right), one problem each.
    Damaged {
        text: Vec<u8>,
        problems: Vec<Problem>,
    },
}

/// Binary bytes closer than this belong to one damaged stretch.
const DAMAGE_GAP: usize = 64;

/// Finds damage in what should be text: stretches of binary bytes (bytes within
/// [`DAMAGE_GAP`] of each other) that hold a NUL or at least four of them. A stray control byte
/// alone is no damage (real collections have some; the text checks after decoding judge them).
/// A file with more than [`BINARY_SHARE`] binary bytes, or with nothing but damage before its
/// first stretch, is binary; otherwise each game that holds a stretch (a game starts at a line
/// beginning with `[` after a blank line, or at the start) is blanked and reported with its line
/// and byte offset, so that the games around the damage are still read.
fn salvage(data: &[u8]) -> Salvage {
    let positions: Vec<usize> = data
        .iter()
        .enumerate()
        .filter(|&(_, &b)| is_binary_byte(b))
        .map(|(i, _)| i)
        .collect();
    let mut stretches: Vec<(usize, usize)> = Vec::new(); // first and last byte of each
    let mut i = 0;
    while i < positions.len() {
        let mut j = i;
        while j + 1 < positions.len() && positions[j + 1] - positions[j] <= DAMAGE_GAP {
            j += 1;
        }
        let (a, z) = (positions[i], positions[j]);
        if j - i + 1 >= 4 || data[a..=z].contains(&0) {
            stretches.push((a, z));
        }
        i = j + 1;
    }
    let Some(&(first, _)) = stretches.first() else {
        return Salvage::Clean;
    };
    if positions.len() as f64 > BINARY_SHARE * data.len() as f64
        || data[..first].iter().all(u8::is_ascii_whitespace)
    {
        let what = match data.iter().position(|&b| b == 0) {
            Some(at) => format!("NUL byte at offset {at}"),
            None => format!("{} control bytes", positions.len()),
        };
        return Salvage::Binary(what);
    }
    let starts = game_starts(data);
    let chunk = |k: usize| -> (usize, usize) {
        (starts[k], starts.get(k + 1).copied().unwrap_or(data.len()))
    };
    let mut text = data.to_vec();
    let mut problems = Vec::new();
    let mut blanked = vec![false; starts.len()];
    for k in 0..starts.len() {
        let (start, end) = chunk(k);
        let inside: Vec<&(usize, usize)> = stretches
            .iter()
            .filter(|&&(a, z)| a < end && z >= start)
            .collect();
        let (Some(&&(a, _)), Some(&&(_, z))) = (inside.first(), inside.last()) else {
            continue;
        };
        let (a, z) = (a.max(start), z.min(end - 1));
        problems.push(Problem::error(
            None,
            Some(line_of(data, a)),
            ProblemKind::DamagedRegion {
                offset: a,
                len: z - a + 1,
            },
        ));
        blanked[k] = true;
        // Damage may also have cut a game open without a binary byte in it, or made a false
        // game start: the neighbours go too until one is a whole game.
        let whole = |j: usize| {
            let (s, e) = chunk(j);
            looks_whole(&data[s..e])
        };
        for j in (0..k).rev().take_while(|&j| !whole(j)) {
            blanked[j] = true;
        }
        for j in (k + 1..starts.len()).take_while(|&j| !whole(j)) {
            blanked[j] = true;
        }
    }
    for (k, _) in blanked.iter().enumerate().filter(|(_, b)| **b) {
        let (start, end) = chunk(k);
        for b in &mut text[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    Salvage::Damaged { text, problems }
}

/// Where the games of a text begin: its start, and every line beginning with `[` that follows
/// a blank line (a PGN tag section or a DhtmlXQ block).
fn game_starts(data: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut blank = false;
    let mut at = 0;
    for line in data.split_inclusive(|&b| b == b'\n') {
        let content = line.trim_ascii();
        if blank && content.first() == Some(&b'[') && at > 0 {
            starts.push(at);
        }
        blank = content.is_empty();
        at += line.len();
    }
    starts
}

/// Whether a stretch of text looks like one whole game: it opens with a tag line
/// (`[Name "value"]`, or a DhtmlXQ tag) and closes with a result or the end of a block.
fn looks_whole(chunk: &[u8]) -> bool {
    let text = chunk.trim_ascii();
    let first_line = text
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or(&[])
        .trim_ascii();
    let opens = first_line.starts_with(b"[")
        && first_line.ends_with(b"]")
        && first_line[1..].first().is_some_and(u8::is_ascii_alphabetic);
    let closes = [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*", b"]"]
        .iter()
        .any(|end| text.ends_with(end));
    opens && closes && !chunk.iter().any(|&b| is_binary_byte(b))
}

/// Where the last game of `data` starts (everything before it is whole games).
fn last_game_start(data: &[u8]) -> usize {
    game_starts(data).last().copied().unwrap_or(0)
}

/// The line number (from 1) of byte `at`.
fn line_of(data: &[u8], at: usize) -> usize {
    1 + data[..at.min(data.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}
