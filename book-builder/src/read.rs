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
use crate::record::GameRecord;
use crate::{dhtmlxq, pgn, xqf};

/// What a format reader reports, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadEvent {
    /// A game was read.
    Game(GameRecord),
    /// A problem was found (see [`Problem::severity`] for whether a game was skipped).
    Problem(Problem),
}

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
    let decompressed;
    let data = if data.starts_with(&ZSTD_MAGIC) {
        summary.zstd = true;
        match decompress(data) {
            Ok(d) => {
                decompressed = d;
                if decompressed.starts_with(&ZSTD_MAGIC) {
                    return summary
                        .fail(ProblemKind::Zstd("zstd data inside zstd data".to_owned()));
                }
                &decompressed[..]
            }
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
    if !has_utf16_bom {
        if let Some(at) = data.iter().position(|&b| b == 0) {
            return summary.fail(ProblemKind::Binary(format!("NUL byte at offset {at}")));
        }
    }
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

/// Decompresses zstd data (one or more frames), refusing more than [`MAX_DECOMPRESSED`] bytes.
fn decompress(data: &[u8]) -> Result<Vec<u8>, ProblemKind> {
    let decoder =
        zstd::stream::read::Decoder::new(data).map_err(|e| ProblemKind::Zstd(e.to_string()))?;
    let mut out = Vec::new();
    decoder
        .take(MAX_DECOMPRESSED + 1)
        .read_to_end(&mut out)
        .map_err(|e| ProblemKind::Zstd(e.to_string()))?;
    if out.len() as u64 > MAX_DECOMPRESSED {
        return Err(ProblemKind::TooLarge {
            limit: MAX_DECOMPRESSED,
        });
    }
    Ok(out)
}
