//! A table in numbers: what `egtb-gen info` prints and the web app's tablebase pages show.
//!
//! Two levels of cost. [`Summary::of`] reads only the header (the generator counted every
//! position when it wrote the table): positions, wins, draws and losses per side to move, the
//! longest mate, the file's size and format. [`Distances::of`] reads every entry: how many
//! positions lie at each distance to mate (a histogram per side to move, wins and losses apart)
//! and the longest mates with their positions. A table stores a don't-care value for each
//! index that is no legal position (pieces sharing a square, generals facing, the side not to
//! move in check), so the scan decides the legality of every entry with a decided value, as the
//! generator did; its counts then equal the header's, which the tests check for every shipped
//! table. The shipped tables (at most 2 M entries) take well under a second.
//!
//! Distances are in plies, as everywhere in the tables: in a DTM table a win at distance `d`
//! (odd) mates in `d` plies, a loss at distance `d` (even) is mated in `d` plies; 0 is mated (or
//! stalemated) now. In a DTC table ([`Metric::Dtc`]) the distances count the plies to the next
//! conversion, of either parity. Values decided by the perpetual-check rule have no distance and
//! are only counted.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::file::{FLAG_RULE_DECIDES, FLAG_RULE_JUDGED, FileError, TableFile};
use super::index::{IndexError, Indexer, mirror_square};
use super::signature::Signature;
use super::{Metric, Value, Wdl};
use chariot_rules::{Color, Waivers};

/// Why a table's statistics could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    /// A block or entry of the table is unreadable.
    #[error(transparent)]
    File(#[from] FileError),
    /// The table's signature cannot be indexed.
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Whether the perpetual-check rule was judged for a table, and whether it decides anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleJudgement {
    /// The table was generated without judging the rule (its draws may include rule results).
    NotJudged,
    /// Judged exactly; no position is decided by it.
    Judged,
    /// Judged exactly; some positions are won or lost by it (format version 2).
    Decides,
}

impl RuleJudgement {
    /// `not judged`, `judged` or `decides`, as `egtb-gen info --json` and the web API say it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RuleJudgement::NotJudged => "not judged",
            RuleJudgement::Judged => "judged",
            RuleJudgement::Decides => "decides",
        }
    }
}

/// One side to move's counts, from the header (serialised as `egtb-gen info --json` and the
/// web API show them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SideCounts {
    /// Legal positions with this side to move.
    pub positions: u64,
    /// Positions the side to move wins, by mate or by the perpetual-check rule.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions the side to move loses, by mate or by the rule.
    pub losses: u64,
    /// Of `wins`, those won by the perpetual-check rule.
    pub rule_wins: u64,
    /// Of `losses`, those lost by the perpetual-check rule.
    pub rule_losses: u64,
    /// Indices that are no legal position.
    #[serde(rename = "unused_indices")]
    pub unused: u64,
    /// The longest distance to mate in plies with this side to move (won or lost), 0 when none.
    pub longest_plies: u32,
}

/// A position at a distance to mate, in the table's frame (the strong side is Red).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mate {
    /// The position.
    pub fen: String,
    /// The side to move: Red is the strong side (the first of the table's name).
    pub turn: Color,
    /// Its value for the side to move: [`Value::Win`] or [`Value::Loss`].
    pub value: Value,
}

impl Mate {
    /// The distance to mate in plies.
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.value.dtm().unwrap_or(0)
    }
}

/// What a table's header says, in numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The table.
    pub signature: Signature,
    /// What its distances count.
    pub metric: Metric,
    /// Indices per side to move.
    pub entries_per_side: u64,
    /// Bytes per stored value (1 or 2).
    pub bytes_per_entry: u8,
    /// The counts with the strong side (Red in the table) to move, then the weak side.
    pub sides: [SideCounts; 2],
    /// The longest mate of the table (won or lost) with a position at that distance; `None`
    /// when no position is decided by mate.
    pub longest: Option<Mate>,
    /// The file's length in bytes.
    pub file_bytes: u64,
    /// The values' size in bytes before compression.
    pub uncompressed_bytes: u64,
    /// Compressed blocks.
    pub blocks: u64,
    /// Entries per block.
    pub block_entries: u32,
    /// The perpetual-check rule.
    pub rule: RuleJudgement,
    /// The stages of the rule's solution (0 when it decides nothing).
    pub rule_stages: u32,
    /// The file format's version.
    pub format_version: u16,
}

impl Summary {
    /// Reads a table's header.
    ///
    /// # Errors
    /// [`IndexError`] when the header's signature cannot be indexed (an opened table always can).
    pub fn of(file: &TableFile) -> Result<Summary, IndexError> {
        let h = file.header();
        let ix = Indexer::with_scheme(h.signature, h.key_scheme)?;
        let mut longest: Option<(u32, Color, u64)> = None;
        let mut sides = [SideCounts::default(); 2];
        for (i, s) in h.stats.iter().enumerate() {
            let turn = if i == 0 { Color::Red } else { Color::Black };
            sides[i] = SideCounts {
                positions: s.wins + s.draws + s.losses + s.rule_wins + s.rule_losses,
                wins: s.wins + s.rule_wins,
                draws: s.draws,
                losses: s.losses + s.rule_losses,
                rule_wins: s.rule_wins,
                rule_losses: s.rule_losses,
                unused: s.unused,
                longest_plies: s.max_dtm,
            };
            if s.max_dtm > longest.map_or(0, |l| l.0) && s.max_dtm_index < ix.size() {
                longest = Some((s.max_dtm, turn, s.max_dtm_index));
            }
        }
        let longest = longest.map(|(plies, turn, idx)| Mate {
            fen: ix.setup(&ix.decode(idx), turn).fen(),
            turn,
            // A DTC distance does not tell the result: read that one entry.
            value: match h.coding.metric {
                Metric::Dtm => by_parity(plies),
                Metric::Dtc => file
                    .value(turn, idx)
                    .ok()
                    .filter(|v| v.dtm() == Some(plies))
                    .unwrap_or(Value::Win(plies)),
            },
        });
        Ok(Summary {
            signature: h.signature,
            metric: h.coding.metric,
            entries_per_side: h.entries_per_half,
            bytes_per_entry: h.value_width,
            sides,
            longest,
            file_bytes: file.file_len(),
            uncompressed_bytes: h.entries() * u64::from(h.value_width),
            blocks: u64::from(h.blocks),
            block_entries: h.block_entries,
            rule: if h.flags & FLAG_RULE_DECIDES != 0 {
                RuleJudgement::Decides
            } else if h.flags & FLAG_RULE_JUDGED != 0 {
                RuleJudgement::Judged
            } else {
                RuleJudgement::NotJudged
            },
            rule_stages: u32::from(h.coding.rule_stages),
            format_version: h.version(),
        })
    }
}

/// One side to move's distances to mate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideDistances {
    /// `wins[d]`: positions the side to move mates in `d` plies (odd `d` only).
    pub wins: Vec<u64>,
    /// `losses[d]`: positions where the side to move is mated in `d` plies (even `d` only; 0:
    /// mated or stalemated now).
    pub losses: Vec<u64>,
    /// The longest mates, longest first (ties in index order), each position once: of a
    /// position and its left-right mirror image (both indexed when both generals stand on the
    /// e-file) only one is listed.
    pub longest: Vec<Mate>,
}

impl SideDistances {
    /// `(plies, positions)` for every distance with a position, shortest first: `wins` or
    /// `losses` without the empty distances.
    pub fn bars(counts: &[u64]) -> impl Iterator<Item = (u32, u64)> + '_ {
        counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .map(|(d, &n)| (d as u32, n))
    }
}

/// The distances to mate of a whole table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distances {
    /// The strong side (Red in the table) to move, then the weak side.
    pub sides: [SideDistances; 2],
}

impl Distances {
    /// Reads every entry of `file`: the positions at each distance and the `longest` longest
    /// mates per side to move.
    ///
    /// # Errors
    /// [`StatsError::File`] for a block that cannot be read or a code that is no value.
    pub fn of(file: &TableFile, longest: usize) -> Result<Distances, StatsError> {
        let h = file.header();
        let ix = Indexer::with_scheme(h.signature, h.key_scheme)?;
        let size = ix.size();
        // Legality as the generator decides it: the rules' checks that a table position may
        // waive (placement and counts are the index's business), never the opponent's check.
        let waivers = Waivers {
            placement: true,
            counts: true,
            opposite_check: false,
        };
        let mut sides: [SideDistances; 2] = Default::default();
        let mut heaps: [Candidates; 2] = Default::default();
        let width = usize::from(h.value_width);
        for b in 0..h.blocks {
            let block = file.read_block(b)?;
            let first = u64::from(b) * u64::from(h.block_entries);
            for (i, bytes) in block.chunks_exact(width).enumerate() {
                let entry = first + i as u64;
                let code = if width == 1 {
                    u16::from(bytes[0])
                } else {
                    u16::from_le_bytes([bytes[0], bytes[1]])
                };
                let value = h
                    .decode(code)
                    .map_err(|source| FileError::BadValue { entry, source })?;
                let Some(d) = value.dtm() else { continue };
                let half = (entry / size) as usize;
                let turn = if half == 0 { Color::Red } else { Color::Black };
                let idx = entry % size;
                let p = ix.decode(idx);
                if p.has_overlap() || ix.position(&p, turn, waivers).is_err() {
                    continue;
                }
                let side = &mut sides[half];
                let counts = if value.wdl() == Wdl::Win {
                    &mut side.wins
                } else {
                    &mut side.losses
                };
                if counts.len() <= d as usize {
                    counts.resize(d as usize + 1, 0);
                }
                counts[d as usize] += 1;
                let heap = &mut heaps[half];
                let enters = heap.len() < longest
                    || heap.peek().is_some_and(|Reverse((least, _, _))| d > *least);
                if enters && !is_mirror_twin(&ix, &p, idx) {
                    heap.push(Reverse((d, Reverse(idx), value)));
                    if heap.len() > longest {
                        heap.pop();
                    }
                }
            }
        }
        for (half, heap) in heaps.into_iter().enumerate() {
            let turn = if half == 0 { Color::Red } else { Color::Black };
            let mut found: Vec<(u32, u64, Value)> = heap
                .into_iter()
                .map(|Reverse((d, Reverse(idx), value))| (d, idx, value))
                .collect();
            found.sort_by_key(|&(d, idx, _)| (Reverse(d), idx));
            sides[half].longest = found
                .into_iter()
                .map(|(_, idx, value)| Mate {
                    fen: ix.setup(&ix.decode(idx), turn).fen(),
                    turn,
                    value,
                })
                .collect();
        }
        Ok(Distances { sides })
    }
}

/// The longest mates found so far for one side to move: a min-heap of (plies, earlier index
/// first, the value), so that its top is the one a longer mate replaces.
type Candidates = BinaryHeap<Reverse<(u32, Reverse<u64>, Value)>>;

/// The value at distance `d`: the side to move mates at odd distances and is mated at even ones.
fn by_parity(d: u32) -> Value {
    if d % 2 == 1 {
        Value::Win(d)
    } else {
        Value::Loss(d)
    }
}

/// `true` when the placement's left-right mirror image has a smaller index in the same half:
/// both are the same position for the reader, and the smaller index stands for them.
fn is_mirror_twin(ix: &Indexer, p: &super::index::Placement, idx: u64) -> bool {
    let s = p.slots();
    if !Indexer::is_symmetric_kings(s[0], s[1]) {
        return false;
    }
    let mut m = *p;
    for sq in &mut m.squares[..usize::from(m.len)] {
        *sq = mirror_square(*sq);
    }
    ix.encode(&m).is_some_and(|twin| twin < idx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::Tablebases;
    use chariot_rules::Position;

    fn data() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb")
    }

    /// Every shipped table: the scan's counts equal the header's, the longest mates are the
    /// header's longest and each probes to its stated value.
    #[test]
    fn distances_agree_with_the_header_and_the_prober() {
        let tables = Tablebases::open(&[data()]).unwrap();
        let mut checked = 0;
        for sig in tables.signatures() {
            let path = tables.path_of(sig).unwrap();
            let file = TableFile::open(path).unwrap();
            let summary = Summary::of(&file).unwrap();
            let distances = Distances::of(&file, 5).unwrap();
            let h = file.header();
            for half in 0..2 {
                let side = &distances.sides[half];
                let stats = &h.stats[half];
                assert_eq!(side.wins.iter().sum::<u64>(), stats.wins, "{sig} wins");
                assert_eq!(
                    side.losses.iter().sum::<u64>(),
                    stats.losses,
                    "{sig} losses"
                );
                assert!(side.wins.iter().step_by(2).all(|&n| n == 0), "{sig}");
                assert!(
                    side.losses.iter().skip(1).step_by(2).all(|&n| n == 0),
                    "{sig}"
                );
                let deepest = side.wins.len().max(side.losses.len()).saturating_sub(1) as u32;
                assert_eq!(deepest, summary.sides[half].longest_plies, "{sig}");
                let decided = stats.wins + stats.losses;
                // Fewer than 5 only when mirror twins were left out.
                let listed = side.longest.len() as u64;
                assert!(
                    listed <= decided.min(5) && (listed > 0) == (decided > 0),
                    "{sig}"
                );
                if let Some(first) = side.longest.first() {
                    assert_eq!(first.plies(), stats.max_dtm, "{sig}");
                }
                for w in side.longest.windows(2) {
                    assert!(w[0].plies() >= w[1].plies(), "{sig}");
                    assert_ne!(w[0].fen, w[1].fen, "{sig}");
                }
                for m in &side.longest {
                    let pos = Position::from_fen(&m.fen).unwrap();
                    assert_eq!(
                        tables.probe(&pos).unwrap(),
                        Some(m.value),
                        "{sig} {}",
                        m.fen
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked} positions probed");
    }

    #[test]
    fn summary_of_krk() {
        let file = TableFile::open(&data().join("KRK.egtb")).unwrap();
        let s = Summary::of(&file).unwrap();
        assert_eq!(s.signature.to_string(), "KRK");
        assert_eq!(s.rule, RuleJudgement::Judged);
        let longest = s.longest.unwrap();
        assert_eq!(longest.plies(), 4);
        let pos = Position::from_fen(&longest.fen).unwrap();
        let tables = Tablebases::open(&[data()]).unwrap();
        assert_eq!(tables.probe(&pos).unwrap(), Some(longest.value));
        assert_eq!(s.sides[0].positions + s.sides[0].unused, s.entries_per_side);
    }
}
