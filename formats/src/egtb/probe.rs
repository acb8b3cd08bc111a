//! Probing: a set of open tables answers for any position whose material it covers.
//!
//! [`Tablebases::open`] takes directories (every `*.egtb` file in them) and files. Probes take
//! a legal [`Position`], find its table by material, bring it into the table's frame (see
//! [`super::index`]) and read one entry: at most one block decompression, and none when the
//! block is in the table's cache.
//!
//! A material may have a DTM table, a DTC table ([`Metric`]) or both. Where both are open the
//! DTM table answers; [`Tablebases::metric_of`] says which metric a position's answers count
//! in, and [`Tablebases::probe_in`] asks one metric. Win, draw and loss, and the rule's values,
//! are the same in both.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::file::{FileError, TableFile};
use super::index::{IndexError, Indexer};
use super::signature::Signature;
use super::{Metric, Value, Wdl, is_conversion};
use chariot_rules::{Move, Position};

/// The file name extension of table files.
pub const EXTENSION: &str = "egtb";

/// Why a probe or opening failed.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// A table file is unreadable or corrupt.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: FileError,
    },
    /// A directory could not be listed.
    #[error("cannot list {}: {source}", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The position cannot be indexed in its table.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// A table needed to answer (a capture's) is not available.
    #[error("table {0} is needed but was not found")]
    MissingTable(Signature),
}

struct Table {
    file: TableFile,
    indexer: Indexer,
    path: PathBuf,
}

/// Every legal move of a position with its value for the side to move.
pub type MoveValues = Vec<(Move, Value)>;

/// A set of open tables.
#[derive(Default)]
pub struct Tablebases {
    tables: HashMap<(Signature, Metric), Table>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("tables", &self.tables.len())
            .finish()
    }
}

impl Tablebases {
    /// Opens every table in the given directories and files. A later file of the same
    /// signature and metric replaces an earlier one.
    ///
    /// # Errors
    /// The first directory that cannot be listed or file that cannot be opened or is corrupt.
    pub fn open<P: AsRef<Path>>(paths: &[P]) -> Result<Tablebases, ProbeError> {
        let mut tb = Tablebases::default();
        for p in paths {
            for file in table_files(p.as_ref())? {
                tb.add(&file)?;
            }
        }
        Ok(tb)
    }

    /// Like [`Tablebases::open`], but skips what cannot be opened and returns those errors.
    #[must_use]
    pub fn open_skipping<P: AsRef<Path>>(paths: &[P]) -> (Tablebases, Vec<ProbeError>) {
        let mut tb = Tablebases::default();
        let mut errors = Vec::new();
        for p in paths {
            match table_files(p.as_ref()) {
                Ok(files) => {
                    for file in files {
                        if let Err(e) = tb.add(&file) {
                            errors.push(e);
                        }
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        (tb, errors)
    }

    /// Opens one table file and adds it.
    ///
    /// # Errors
    /// [`ProbeError::File`] when it cannot be opened or is corrupt.
    pub fn add(&mut self, path: &Path) -> Result<Signature, ProbeError> {
        let err = |source| ProbeError::File {
            path: path.to_owned(),
            source,
        };
        let file = TableFile::open(path).map_err(err)?;
        let sig = file.header().signature;
        let metric = file.header().coding.metric;
        let indexer = Indexer::with_scheme(sig, file.header().key_scheme)
            .map_err(|e| err(FileError::BadHeader(e.to_string())))?;
        self.tables.insert(
            (sig, metric),
            Table {
                file,
                indexer,
                path: path.to_owned(),
            },
        );
        Ok(sig)
    }

    /// Keeps only the tables of `metric` (to answer in that metric alone).
    pub fn retain_metric(&mut self, metric: Metric) {
        self.tables.retain(|k, _| k.1 == metric);
    }

    /// The number of open table files (a material with a DTM and a DTC table counts twice).
    #[must_use]
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// `true` when no table is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The signatures of the open tables, sorted by size then name, each once.
    #[must_use]
    pub fn signatures(&self) -> Vec<Signature> {
        let mut v: Vec<Signature> = self.tables.keys().map(|k| k.0).collect();
        v.sort_by_key(|s| (s.piece_count(), s.to_string()));
        v.dedup();
        v
    }

    /// The metrics open for a signature, DTM first.
    #[must_use]
    pub fn metrics(&self, sig: Signature) -> Vec<Metric> {
        Metric::ALL
            .into_iter()
            .filter(|&m| self.tables.contains_key(&(sig, m)))
            .collect()
    }

    /// The table that answers for a signature: DTM when open, else DTC.
    fn table(&self, sig: Signature) -> Option<&Table> {
        self.tables
            .get(&(sig, Metric::Dtm))
            .or_else(|| self.tables.get(&(sig, Metric::Dtc)))
    }

    /// The most pieces (generals included) in any open table, 0 when none is open.
    #[must_use]
    pub fn max_pieces(&self) -> u32 {
        self.tables
            .keys()
            .map(|k| k.0.piece_count())
            .max()
            .unwrap_or(0)
    }

    /// The file a table was opened from (the DTM table's when both are open).
    #[must_use]
    pub fn path_of(&self, sig: Signature) -> Option<&Path> {
        self.table(sig).map(|t| t.path.as_path())
    }

    /// The open file of a table (its header, statistics and blocks: [`super::stats`]); the DTM
    /// table when both are open.
    #[must_use]
    pub fn file(&self, sig: Signature) -> Option<&TableFile> {
        self.table(sig).map(|t| &t.file)
    }

    /// The open file of a table in one metric.
    #[must_use]
    pub fn file_in(&self, sig: Signature, metric: Metric) -> Option<&TableFile> {
        self.tables.get(&(sig, metric)).map(|t| &t.file)
    }

    /// `true` when a table for the position's material is open.
    #[must_use]
    pub fn covers(&self, pos: &Position) -> bool {
        self.table(Signature::of(pos).0).is_some()
    }

    /// The metric [`Tablebases::probe`] answers the position in: DTM when its material's DTM
    /// table is open, else DTC; `None` when no table covers it.
    #[must_use]
    pub fn metric_of(&self, pos: &Position) -> Option<Metric> {
        self.table(Signature::of(pos).0)
            .map(|t| t.file.header().coding.metric)
    }

    /// The exact value of the position, its distance in the metric of
    /// [`Tablebases::metric_of`], or `None` when no table covers its material.
    ///
    /// # Errors
    /// A corrupt table, or a position with a piece where the table has no entry for it.
    pub fn probe(&self, pos: &Position) -> Result<Option<Value>, ProbeError> {
        self.probe_table(self.table(Signature::of(pos).0), pos)
    }

    /// [`Tablebases::probe`] with the metric of the table that answered (one lookup).
    ///
    /// # Errors
    /// As [`Tablebases::probe`].
    pub fn probe_with_metric(&self, pos: &Position) -> Result<Option<(Value, Metric)>, ProbeError> {
        let t = self.table(Signature::of(pos).0);
        let metric = t.map(|t| t.file.header().coding.metric);
        Ok(self.probe_table(t, pos)?.zip(metric))
    }

    /// The exact value of the position in `metric`, or `None` when that metric's table for its
    /// material is not open.
    ///
    /// # Errors
    /// As [`Tablebases::probe`].
    pub fn probe_in(&self, pos: &Position, metric: Metric) -> Result<Option<Value>, ProbeError> {
        self.probe_table(self.tables.get(&(Signature::of(pos).0, metric)), pos)
    }

    fn probe_table(&self, t: Option<&Table>, pos: &Position) -> Result<Option<Value>, ProbeError> {
        let Some(t) = t else {
            return Ok(None);
        };
        let (turn, idx) = t.indexer.index_of(pos)?;
        t.file
            .value(turn, idx)
            .map(Some)
            .map_err(|source| ProbeError::File {
                path: t.path.clone(),
                source,
            })
    }

    /// Win, draw or loss for the side to move, or `None` when no table covers the position.
    ///
    /// # Errors
    /// As [`Tablebases::probe`].
    pub fn probe_wdl(&self, pos: &Position) -> Result<Option<Wdl>, ProbeError> {
        Ok(self.probe(pos)?.map(Value::wdl))
    }

    /// The value with its distance to mate, or `None` when no DTM table covers the position.
    ///
    /// # Errors
    /// As [`Tablebases::probe`].
    pub fn probe_dtm(&self, pos: &Position) -> Result<Option<Value>, ProbeError> {
        self.probe_in(pos, Metric::Dtm)
    }

    /// The value of every legal move (the value after it, for the side to move now), or `None`
    /// when no table covers the position.
    ///
    /// # Errors
    /// As [`Tablebases::probe`]; [`ProbeError::MissingTable`] when a capture leads to a table
    /// that is not open.
    pub fn move_values(&self, pos: &Position) -> Result<Option<Vec<(Move, Value)>>, ProbeError> {
        Ok(self.move_values_with_metric(pos)?.map(|(_, v)| v))
    }

    /// [`Tablebases::move_values`] with the metric their distances count in: DTM when the
    /// position's DTM table and those of every table its captures lead to are open, else DTC
    /// when its DTC table is (a capture then needs any table of its material).
    ///
    /// # Errors
    /// As [`Tablebases::move_values`].
    pub fn move_values_with_metric(
        &self,
        pos: &Position,
    ) -> Result<Option<(Metric, MoveValues)>, ProbeError> {
        let sig = Signature::of(pos).0;
        let mut missing = None;
        for metric in self.metrics(sig) {
            match self.values_in(pos, metric)? {
                Ok(values) => return Ok(Some((metric, values))),
                Err(sig) => missing = missing.or(Some(sig)),
            }
        }
        match missing {
            Some(sig) => Err(ProbeError::MissingTable(sig)),
            None => Ok(None),
        }
    }

    /// The moves' values in `metric` (whose table for `pos` is open), or the signature of a
    /// table a move needs that is not open.
    fn values_in(
        &self,
        pos: &Position,
        metric: Metric,
    ) -> Result<Result<MoveValues, Signature>, ProbeError> {
        let mut p = pos.clone();
        let mut out = Vec::new();
        for &m in pos.legal_move_list().iter() {
            let conversion = is_conversion(pos, m);
            p.make_move(m);
            // A DTM needs the DTM after every move; a DTC the DTC after a move that is no
            // conversion, and after a conversion only the result.
            let v = match metric {
                Metric::Dtc if conversion => self.probe(&p),
                _ => self.probe_in(&p, metric),
            };
            let missing = matches!(v, Ok(None)).then(|| Signature::of(&p).0);
            p.unmake_move();
            match (v?, missing) {
                (Some(v), _) => out.push((m, metric.before_move(v, conversion))),
                (None, sig) => return Ok(Err(sig.unwrap_or(Signature::of(pos).0))),
            }
        }
        Ok(Ok(out))
    }

    /// The best move: the quickest mate when winning, the longest defence when losing, a
    /// drawing move when drawn, and in a position won by the perpetual-check rule a move that
    /// makes progress in the winner's plan (see [`Tablebases::choose`]). `None` when no table
    /// covers the position or there is no legal move.
    ///
    /// # Errors
    /// As [`Tablebases::move_values`].
    pub fn best_move(&self, pos: &Position) -> Result<Option<(Move, Value)>, ProbeError> {
        let Some(moves) = self.move_values(pos)? else {
            return Ok(None);
        };
        self.choose(pos, &moves)
    }

    /// The best of `moves` (some or all of [`Tablebases::move_values`] for `pos`).
    ///
    /// The best value wins (a mate before a win by the rule before a draw, see [`Value`]), the
    /// first of equals keeping the choice deterministic. Among wins by the perpetual-check rule
    /// the choice follows the certificate the ranks form (`docs/egtb.md`): a capture into a
    /// smaller table first, then a move into an earlier stage (the lowest), then, inside a core
    /// (where the opponent must check on every move), a move that gives no check and stays in
    /// the core, else the move that lowers the plies. Following these choices wins: the
    /// opponent runs out of moves that are not checks, and this side keeps making some.
    ///
    /// # Errors
    /// As [`Tablebases::probe`] (the position itself is probed for its rank).
    pub fn choose(
        &self,
        pos: &Position,
        moves: &[(Move, Value)],
    ) -> Result<Option<(Move, Value)>, ProbeError> {
        let best =
            moves
                .iter()
                .copied()
                .fold(None, |best: Option<(Move, Value)>, (m, v)| match best {
                    Some((_, bv)) if bv >= v => best,
                    _ => Some((m, v)),
                });
        let Some((_, Value::RuleWin(_))) = best else {
            return Ok(best);
        };
        let Some(Value::RuleWin(own)) = self.probe(pos)? else {
            // A position without its own rule rank (a table that disagrees with its
            // successors): keep the plain order.
            return Ok(best);
        };
        // In a chase core the winner must not chase either (both chasing is a draw): its free
        // moves are those that neither check nor chase; in a check core, those that give no
        // check.
        let chase_core = own.is_core() && self.is_chase_core(pos, own.stage)?;
        let key = |&(m, v): &(Move, Value)| -> Option<(i64, i64)> {
            let Value::RuleWin(r) = v else {
                return None;
            };
            if pos.is_capture(m) {
                return Some((-1, i64::from(r.plies)));
            }
            let (stage, plies) = (i64::from(r.stage), i64::from(r.plies));
            if r.stage == own.stage
                && own.is_core()
                && !pos.gives_check(m)
                && (!chase_core || chariot_rules::chase::chased(pos, m).is_empty())
            {
                return Some((stage, -1));
            }
            Some((stage, plies))
        };
        Ok(moves
            .iter()
            .filter_map(|mv| key(mv).map(|k| (k, *mv)))
            .fold(
                None,
                |best: Option<((i64, i64), (Move, Value))>, x| match best {
                    Some(b) if b.0 <= x.0 => best,
                    _ => Some(x),
                },
            )
            .map(|(_, mv)| mv))
    }

    /// `true` when `stage` of the rule game the side to move wins in `pos` is a chase core.
    fn is_chase_core(&self, pos: &Position, stage: u32) -> Result<bool, ProbeError> {
        let Some(t) = self.table(Signature::of(pos).0) else {
            return Ok(false);
        };
        let (turn, _) = t.indexer.index_of(pos)?;
        Ok(t.file.header().coding.is_chase_core(turn, stage))
    }

    /// The line of best moves from the position: until mate, until a position repeats (where
    /// the perpetual-check rule would judge the cycle), or for `max_plies` moves.
    ///
    /// # Errors
    /// As [`Tablebases::best_move`].
    pub fn line(&self, pos: &Position, max_plies: usize) -> Result<Vec<Move>, ProbeError> {
        let mut p = pos.clone();
        let mut line = Vec::new();
        let mut seen = vec![p.key()];
        while line.len() < max_plies {
            match self.best_move(&p)? {
                Some((m, _)) => {
                    p.make_move(m);
                    line.push(m);
                    if seen.contains(&p.key()) {
                        break;
                    }
                    seen.push(p.key());
                }
                None => break,
            }
        }
        Ok(line)
    }
}

/// The table files a path names: the file itself, or the `*.egtb` files of a directory, sorted.
fn table_files(path: &Path) -> Result<Vec<PathBuf>, ProbeError> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let dir_err = |source| ProbeError::Dir {
        path: path.to_owned(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(dir_err)? {
        let p = entry.map_err(dir_err)?.path();
        if p.extension().is_some_and(|e| e == EXTENSION) && p.is_file() {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}
