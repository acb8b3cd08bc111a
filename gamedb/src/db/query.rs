//! Counting and selecting the stored games: the summary and the games of a filter (the book
//! compiler's input), the explorer's games through a position, the openings that reach a
//! position, and the records of imports, rejections and names.

use std::collections::HashMap;

use chariot_games::record::GameResult;
use chariot_rules::{Move, Position};

use super::{DbError, GameDb, decode_moves};
use crate::filter::{Filter, JOINS};

/// Counts over a selection of games.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Games.
    pub games: u64,
    /// Won by Red.
    pub red_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Result unknown (including copies that disagreed).
    pub unknown: u64,
    /// Of those, games whose copies disagreed on the result.
    pub conflicts: u64,
    /// From a set-up position.
    pub setups: u64,
    /// Moves in all.
    pub plies: u64,
    /// Earliest normalised date.
    pub first_date: Option<String>,
    /// Latest normalised date.
    pub last_date: Option<String>,
}

/// A stored game as the compiler reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The start position's board and side to move, `None` for the usual start.
    pub start: Option<String>,
    /// The moves (possibly only the first ones, see [`GameDb::games`]).
    pub moves: Vec<Move>,
    /// The result, `None` when unknown.
    pub result: Option<GameResult>,
    /// Red's rating.
    pub red_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
}

/// How the games reaching a position are named ([`GameDb::openings_at`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct OpeningCounts {
    /// Games reaching the position.
    pub games: u64,
    /// Of those, games with neither an `ECCO` nor an `Opening` tag.
    pub untagged: u64,
    /// The names, most games first.
    pub openings: Vec<OpeningCount>,
}

/// One opening name and code with its number of games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OpeningCount {
    /// The ECCO code (`C50`), when the games carry one.
    pub ecco: Option<String>,
    /// The `Opening` tag (with `, Variation` when there is one).
    pub name: Option<String>,
    /// Games.
    pub games: u64,
}

/// One recorded import run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ImportRow {
    /// The file as given on the command line.
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// When the import started (UTC).
    pub started: String,
    /// When it finished, `None` when it was interrupted.
    pub finished: Option<String>,
    /// Games read.
    pub games_read: u64,
    /// New games stored.
    pub imported: u64,
    /// Games already stored.
    pub duplicates: u64,
    /// Games refused.
    pub rejected: u64,
}

impl GameDb {
    /// The games through `pos` that `filter` selects (found by the position index, so only
    /// within each game's first [`crate::index::INDEX_PLIES`] plies): the moves played there
    /// with their results, and the page of games from `offset` (at most `limit`) in `order`.
    ///
    /// # Errors
    /// [`DbError::Sqlite`]; [`DbError::Schema`] for a schema-1 database opened read-only (it
    /// has no index until opened for writing).
    pub fn explore(
        &self,
        pos: &Position,
        filter: &Filter,
        order: crate::index::Order,
        offset: u64,
        limit: u64,
    ) -> Result<crate::index::Explored, DbError> {
        if !self.sql(crate::index::present(&self.conn))? {
            return Err(self.schema_error(
                "has no position index (schema 1): open it for writing once (book-builder import) to build it",
            ));
        }
        let r = crate::index::explore(&self.conn, pos.key(), filter, order, offset, limit);
        self.sql(r)
    }

    /// Counts the games `filter` selects.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn summary(&self, filter: &Filter) -> Result<Summary, DbError> {
        let (clause, args) = filter.sql();
        let sql = format!(
            "SELECT count(*), \
               coalesce(sum(g.result = '1-0'), 0), coalesce(sum(g.result = '1/2-1/2'), 0), \
               coalesce(sum(g.result = '0-1'), 0), coalesce(sum(g.result IS NULL), 0), \
               coalesce(sum(g.conflict), 0), coalesce(sum(g.start IS NOT NULL), 0), \
               coalesce(sum(g.plies), 0), min(g.date), max(g.date) \
             FROM games g {JOINS} WHERE {clause}"
        );
        let r = self
            .conn
            .query_row(&sql, rusqlite::params_from_iter(args), |row| {
                Ok(Summary {
                    games: row.get::<_, i64>(0)? as u64,
                    red_wins: row.get::<_, i64>(1)? as u64,
                    draws: row.get::<_, i64>(2)? as u64,
                    black_wins: row.get::<_, i64>(3)? as u64,
                    unknown: row.get::<_, i64>(4)? as u64,
                    conflicts: row.get::<_, i64>(5)? as u64,
                    setups: row.get::<_, i64>(6)? as u64,
                    plies: row.get::<_, i64>(7)? as u64,
                    first_date: row.get(8)?,
                    last_date: row.get(9)?,
                })
            });
        self.sql(r)
    }

    /// The games `filter` selects, with at most their first `max_plies` moves.
    ///
    /// # Errors
    /// [`DbError::Sqlite`], or [`DbError::Corrupt`] for a moves BLOB that does not decode.
    pub fn games(&self, filter: &Filter, max_plies: u32) -> Result<Vec<StoredGame>, DbError> {
        let (clause, mut args) = filter.sql();
        let sql = format!(
            "SELECT g.id, g.start, substr(g.moves, 1, ?), g.result, g.red_elo, g.black_elo \
             FROM games g {JOINS} WHERE {clause} ORDER BY g.id"
        );
        args.insert(0, rusqlite::types::Value::Integer(2 * i64::from(max_plies)));
        let mut out = Vec::new();
        let mut bad = None;
        let r = (|| -> rusqlite::Result<()> {
            let mut stmt = self.conn.prepare(&sql)?;
            let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                let bytes = row.get_ref(2)?.as_blob()?;
                let Some(moves) = decode_moves(bytes) else {
                    bad = Some(id);
                    return Ok(());
                };
                let result: Option<String> = row.get(3)?;
                out.push(StoredGame {
                    start: row.get(1)?,
                    moves,
                    result: result.as_deref().and_then(chariot_games::parse_result),
                    red_elo: row.get(4)?,
                    black_elo: row.get(5)?,
                });
            }
            Ok(())
        })();
        self.sql(r)?;
        if let Some(id) = bad {
            return Err(DbError::Corrupt {
                path: self.path.clone(),
                id,
                reason: "the moves BLOB is not a list of moves".into(),
            });
        }
        Ok(out)
    }

    /// The openings of the games that reach `pos` (or its left-right mirror) within their first
    /// `max_plies` plies, by their `ECCO` code and `Opening`/`Variation` name, most games first.
    /// Games that carry neither tag are counted in `untagged`.
    ///
    /// # Errors
    /// As [`GameDb::for_each_game`].
    pub fn openings_at(&self, pos: &Position, max_plies: usize) -> Result<OpeningCounts, DbError> {
        let keys = [pos.key(), pos.mirror_key()];
        let mut counts: HashMap<(Option<String>, Option<String>), u64> = HashMap::new();
        let mut out = OpeningCounts::default();
        let all = Filter {
            setups: true,
            ..Filter::default()
        };
        self.for_each_game(&all, &mut |g| {
            let mut p = g.start.clone();
            let mut reached = keys.contains(&p.key());
            for &m in g.moves.iter().take(max_plies) {
                if reached {
                    break;
                }
                p.make_move(m);
                reached = keys.contains(&p.key());
            }
            if reached {
                out.games += 1;
                let tag = |name: &str| g.tag(name).map(str::to_owned);
                let name = match (tag("Opening"), tag("Variation")) {
                    (Some(o), Some(v)) => Some(format!("{o}, {v}")),
                    (o, _) => o,
                };
                let ecco = tag("ECCO");
                if ecco.is_none() && name.is_none() {
                    out.untagged += 1;
                } else {
                    *counts.entry((ecco, name)).or_default() += 1;
                }
            }
            true
        })?;
        let mut list: Vec<OpeningCount> = counts
            .into_iter()
            .map(|((ecco, name), games)| OpeningCount { ecco, name, games })
            .collect();
        list.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.ecco.cmp(&b.ecco))
                .then_with(|| a.name.cmp(&b.name))
        });
        out.openings = list;
        Ok(out)
    }

    /// The recorded imports, oldest first.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn imports(&self) -> Result<Vec<ImportRow>, DbError> {
        let r = (|| -> rusqlite::Result<Vec<ImportRow>> {
            let mut stmt = self.conn.prepare(
                "SELECT path, bytes, started, finished, games_read, imported, duplicates, rejected \
                 FROM imports ORDER BY id",
            )?;
            let rows = stmt.query_map([], |row| {
                Ok(ImportRow {
                    path: row.get(0)?,
                    bytes: row.get::<_, i64>(1)? as u64,
                    started: row.get(2)?,
                    finished: row.get(3)?,
                    games_read: row.get::<_, i64>(4)? as u64,
                    imported: row.get::<_, i64>(5)? as u64,
                    duplicates: row.get::<_, i64>(6)? as u64,
                    rejected: row.get::<_, i64>(7)? as u64,
                })
            })?;
            rows.collect()
        })();
        self.sql(r)
    }

    /// The number of rejections stored (each rejected game once, however often its file was
    /// imported).
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn rejection_count(&self) -> Result<u64, DbError> {
        let r = self
            .conn
            .query_row("SELECT count(*) FROM rejections", [], |row| {
                row.get::<_, i64>(0)
            });
        self.sql(r).map(|n| n as u64)
    }

    /// The number of players and of events stored.
    ///
    /// # Errors
    /// [`DbError::Sqlite`].
    pub fn name_counts(&self) -> Result<(u64, u64), DbError> {
        let r = self.conn.query_row(
            "SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM events)",
            [],
            |row| Ok((row.get::<_, i64>(0)? as u64, row.get::<_, i64>(1)? as u64)),
        );
        self.sql(r)
    }
}
