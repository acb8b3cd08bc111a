//! The tablebase pages (issue 16): the tables the server has (`GET /api/tablebases`) and one
//! material's page (`GET /api/tablebases/{material}`): positions, wins, draws and losses per
//! side to move, how many positions lie at each distance to mate, the longest mates with their
//! positions, the file's size and format, as syzygy-tables.info shows its tables.
//!
//! The numbers are `chariot_formats::egtb::stats`'s, the same code as `egtb-gen info --distances`. A
//! page reads every entry of its table, so it is computed on a blocking thread the first time
//! it is asked for and kept: tables do not change while the server runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chariot_formats::egtb::stats::{Distances, Mate, SideCounts, SideDistances, Summary};
use chariot_formats::egtb::{Metric, Signature, TableFile, Tablebases};
use chariot_rules::Color;
use serde::Serialize;
use tokio::sync::OnceCell;

use crate::error::ApiError;

/// How many of the longest mates a page lists per side to move.
pub const LONGEST: usize = 10;

/// The pages computed so far, one cell per material (concurrent first requests for one
/// material compute it once; a failure is not kept, the next request tries again).
#[derive(Default)]
pub(crate) struct Pages {
    cells: Mutex<HashMap<Signature, Arc<OnceCell<Arc<Page>>>>>,
}

impl Pages {
    fn cell(&self, sig: Signature) -> Arc<OnceCell<Arc<Page>>> {
        let mut cells = self.cells.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cells.entry(sig).or_default())
    }
}

/// One side to move's counts.
#[derive(Clone, Debug, Serialize)]
struct SideView {
    /// `strong` (the first side of the name, Red in the table's positions) or `weak`.
    to_move: &'static str,
    /// `red` or `black`: its colour in the positions shown.
    turn: &'static str,
    /// Its pieces, e.g. `KR`.
    material: String,
    /// Positions, wins, draws and losses for the side to move (by mate or by the
    /// perpetual check/chase rules; `rule_wins` and `rule_losses` of them by the rules), indices that
    /// are no legal position, and the longest distance to mate in plies (0 when none).
    #[serde(flatten)]
    counts: SideCounts,
}

impl SideView {
    fn new(sig: Signature, half: usize, c: &SideCounts) -> SideView {
        let (to_move, turn, material) = if half == 0 {
            ("strong", "red", sig.strong)
        } else {
            ("weak", "black", sig.weak)
        };
        SideView {
            to_move,
            turn,
            material: material.to_string(),
            counts: *c,
        }
    }
}

/// One table in the list.
#[derive(Debug, Serialize)]
pub(crate) struct TableEntry {
    /// The material signature, e.g. `KRKAA` (the strong side first).
    material: String,
    /// Pieces on the board, generals included.
    pieces: u32,
    /// The file's name.
    file: String,
    /// The file's size in bytes.
    bytes: u64,
    /// The metrics open for the material: `dtm` (distance to mate) and/or `dtc` (distance to
    /// conversion); the numbers here are the first's.
    metrics: Vec<&'static str>,
    /// The DTC file's size in bytes, when it is open.
    dtc_bytes: Option<u64>,
    /// Legal positions, both sides to move.
    positions: u64,
    /// The longest distance to mate in plies, 0 when nothing is decided by mate.
    longest_plies: u32,
    /// The strong side to move, then the weak side.
    sides: [SideView; 2],
}

/// `GET /api/tablebases`.
#[derive(Debug, Serialize)]
pub(crate) struct TableList {
    /// By number of pieces, then name.
    tables: Vec<TableEntry>,
}

/// Positions at one distance.
#[derive(Clone, Debug, Serialize)]
struct Bar {
    plies: u32,
    positions: u64,
}

/// Positions per distance to mate, distances without a position left out.
#[derive(Clone, Debug, Serialize)]
struct Histogram {
    /// The side to move mates in `plies` (odd).
    wins: Vec<Bar>,
    /// The side to move is mated in `plies` (even; 0: mated or stalemated now).
    losses: Vec<Bar>,
}

/// A position at a distance to mate.
#[derive(Clone, Debug, Serialize)]
struct MateView {
    fen: String,
    /// `red` or `black` (Red is the strong side).
    turn: &'static str,
    /// `win` or `loss` for the side to move.
    wdl: String,
    plies: u32,
}

impl MateView {
    fn new(m: &Mate) -> MateView {
        MateView {
            fen: m.fen.clone(),
            turn: match m.turn {
                Color::Red => "red",
                Color::Black => "black",
            },
            wdl: m.value.wdl().to_string(),
            plies: m.plies(),
        }
    }
}

/// A side to move on a page: its counts, distances and longest mates.
#[derive(Clone, Debug, Serialize)]
struct SidePage {
    #[serde(flatten)]
    counts: SideView,
    histogram: Histogram,
    /// The longest mates, longest first, each position once.
    longest: Vec<MateView>,
}

/// The file's format.
#[derive(Clone, Debug, Serialize)]
struct Format {
    version: u16,
    entries_per_side: u64,
    bytes_per_entry: u8,
    uncompressed_bytes: u64,
    blocks: u64,
    block_entries: u32,
    /// `not judged`, `judged` (decides nothing) or `decides`.
    perpetual_check_rule: &'static str,
    rule_stages: u32,
}

/// `GET /api/tablebases/{material}`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Page {
    material: String,
    pieces: u32,
    file: String,
    bytes: u64,
    positions: u64,
    /// The longest mate of the table (either side to move), `null` when there is none.
    longest: Option<MateView>,
    sides: [SidePage; 2],
    format: Format,
    /// How long reading the table took, milliseconds (the page is computed once).
    millis: u64,
}

fn file_name(tables: &Tablebases, sig: Signature) -> String {
    tables.path_of(sig).and_then(|p| p.file_name()).map_or_else(
        || format!("{sig}.egtb"),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("the tables: {e}"))
}

/// The header's numbers of an open table.
fn summary(tables: &Tablebases, sig: Signature) -> Result<Summary, ApiError> {
    let file = tables
        .file(sig)
        .ok_or_else(|| internal(format!("{sig} is not open")))?;
    Summary::of(file).map_err(internal)
}

/// Every table of `tables` (`GET /api/tablebases`).
pub(crate) fn list(tables: &Tablebases) -> Result<TableList, ApiError> {
    let mut out = Vec::new();
    for sig in tables.signatures() {
        let s = summary(tables, sig)?;
        out.push(TableEntry {
            material: sig.to_string(),
            pieces: sig.piece_count(),
            file: file_name(tables, sig),
            bytes: s.file_bytes,
            metrics: tables.metrics(sig).iter().map(|m| m.name()).collect(),
            dtc_bytes: tables.file_in(sig, Metric::Dtc).map(TableFile::file_len),
            positions: s.sides.iter().map(|c| c.positions).sum(),
            longest_plies: s.longest.as_ref().map_or(0, Mate::plies),
            sides: [0, 1].map(|i| SideView::new(sig, i, &s.sides[i])),
        });
    }
    Ok(TableList { tables: out })
}

/// Computes a material's page (reads every entry; call on a blocking thread).
fn compute(tables: &Tablebases, sig: Signature) -> Result<Page, ApiError> {
    let start = Instant::now();
    let s = summary(tables, sig)?;
    let file = tables
        .file(sig)
        .ok_or_else(|| internal(format!("{sig} is not open")))?;
    let d = Distances::of(file, LONGEST).map_err(internal)?;
    let bars = |counts: &[u64]| {
        SideDistances::bars(counts)
            .map(|(plies, positions)| Bar { plies, positions })
            .collect()
    };
    let sides = [0, 1].map(|i| SidePage {
        counts: SideView::new(sig, i, &s.sides[i]),
        histogram: Histogram {
            wins: bars(&d.sides[i].wins),
            losses: bars(&d.sides[i].losses),
        },
        longest: d.sides[i].longest.iter().map(MateView::new).collect(),
    });
    Ok(Page {
        material: sig.to_string(),
        pieces: sig.piece_count(),
        file: file_name(tables, sig),
        bytes: s.file_bytes,
        positions: s.sides.iter().map(|c| c.positions).sum(),
        longest: s.longest.as_ref().map(MateView::new),
        sides,
        format: Format {
            version: s.format_version,
            entries_per_side: s.entries_per_side,
            bytes_per_entry: s.bytes_per_entry,
            uncompressed_bytes: s.uncompressed_bytes,
            blocks: s.blocks,
            block_entries: s.block_entries,
            perpetual_check_rule: s.rule.name(),
            rule_stages: s.rule_stages,
        },
        millis: start.elapsed().as_millis() as u64,
    })
}

/// A material's page (`GET /api/tablebases/{material}`), from `pages` or computed into it; 400
/// for a name that is no material, 404 for one `tables` has no table of.
pub(crate) async fn page(
    tables: &Arc<Tablebases>,
    pages: &Pages,
    material: &str,
) -> Result<Arc<Page>, ApiError> {
    let sig: Signature = material
        .parse()
        .map_err(|e: chariot_formats::egtb::SignatureError| {
            ApiError::bad_request(e.to_string())
                .with_code("bad-material")
                .with("material", material)
        })?;
    if tables.file(sig).is_none() {
        return Err(ApiError::not_found(format!(
            "no table of {sig} is loaded ({} tables are: GET /api/tablebases)",
            tables.len()
        ))
        .with_code("no-table")
        .with("material", sig.to_string()));
    }
    let cell = pages.cell(sig);
    let page = cell
        .get_or_try_init(|| {
            let tables = Arc::clone(tables);
            async move {
                tokio::task::spawn_blocking(move || compute(&tables, sig).map(Arc::new))
                    .await
                    .map_err(internal)?
            }
        })
        .await?;
    Ok(Arc::clone(page))
}
