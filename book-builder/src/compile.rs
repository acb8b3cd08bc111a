//! From games to book entries: replay every selected game to the ply limit and count, for each
//! position and move, the games, the results and the ratings of the players who chose it.
//!
//! Positions are identified by Zobrist key, so transpositions meet in one entry set; with
//! mirror merging a position and its left-right mirror share one (see
//! [`chariot_formats::book::canonical`]). The games are split across threads, each counting into its
//! own map, and the maps are merged; the entries then pass the thresholds (`min_games`,
//! `min_score`) and go to [`BookWriter`], which sorts them and writes the file atomically.

use std::collections::HashMap;
use std::path::Path;

use chariot_formats::book::{BookError, BookWriter, BuildInfo, Entry, MoveStats, canonical};
use chariot_rules::{Color, Move, Position};
use rayon::prelude::*;

use chariot_gamedb::db::{DbError, GameDb, StoredGame};
use chariot_gamedb::filter::Filter;
use chariot_games::record::GameResult;

/// How a book is compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileOptions {
    /// Moves played at ply `max_ply` or later are not counted (ply 0 is the first move).
    pub max_ply: u32,
    /// A move needs at least this many games to be kept.
    pub min_games: u32,
    /// A move needs at least this score for its player (0 to 1; unknown results count as
    /// draws) to be kept.
    pub min_score: f64,
    /// Merge positions with their left-right mirrors.
    pub mirror: bool,
    /// Which games count.
    pub filter: Filter,
    /// More `key: value` lines for the book's metadata (sources, licences).
    pub metadata: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> CompileOptions {
        CompileOptions {
            max_ply: 40,
            min_games: 1,
            min_score: 0.0,
            mirror: true,
            filter: Filter::default(),
            metadata: Vec::new(),
        }
    }
}

/// Statistics of one (position, move) as they are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u32,
    /// Won by Red.
    pub red_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by Black.
    pub black_wins: u32,
    /// Sum of the known ratings of the players who made the move.
    pub elo_sum: u64,
    /// How many ratings were known.
    pub elo_count: u32,
    /// The side that made the move.
    pub mover: Option<Color>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.red_wins += other.red_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
        self.elo_sum += other.elo_sum;
        self.elo_count += other.elo_count;
        self.mover = self.mover.or(other.mover);
    }

    /// The statistics as a book stores them.
    #[must_use]
    pub fn stats(&self) -> MoveStats {
        let mean_elo = if self.elo_count == 0 {
            0
        } else {
            (self.elo_sum / u64::from(self.elo_count)).min(u64::from(u16::MAX)) as u16
        };
        MoveStats {
            games: self.games,
            red_wins: self.red_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            mean_elo,
        }
    }
}

/// The counts of every (canonical key, canonical move) pair.
pub type Tallies = HashMap<(u64, u16), Tally>;

/// What counting the games found.
#[derive(Debug, Default)]
pub struct Counted {
    /// The counts.
    pub tallies: Tallies,
    /// Games counted.
    pub games: u64,
    /// Games whose start position or a move did not replay (a damaged database); they are
    /// counted up to the bad move.
    pub broken: u64,
}

/// Counts the moves of `games` up to `max_ply`, in parallel.
#[must_use]
pub fn count(games: &[StoredGame], max_ply: u32, mirror: bool) -> Counted {
    games
        .par_chunks(512)
        .fold(Counted::default, |mut c, chunk| {
            for g in chunk {
                c.games += 1;
                if !count_game(&mut c.tallies, g, max_ply, mirror) {
                    c.broken += 1;
                }
            }
            c
        })
        .reduce(Counted::default, |mut a, mut b| {
            if a.tallies.len() < b.tallies.len() {
                std::mem::swap(&mut a, &mut b);
            }
            for (k, t) in b.tallies {
                a.tallies.entry(k).or_default().add(&t);
            }
            a.games += b.games;
            a.broken += b.broken;
            a
        })
}

/// Counts one game; `false` when it does not replay.
fn count_game(tallies: &mut Tallies, g: &StoredGame, max_ply: u32, mirror: bool) -> bool {
    let start = match &g.start {
        None => Ok(Position::start()),
        Some(fen) => Position::from_fen(fen),
    };
    let Ok(mut pos) = start else { return false };
    let (red, draw, black) = match g.result {
        Some(GameResult::RedWins) => (1, 0, 0),
        Some(GameResult::Draw) => (0, 1, 0),
        Some(GameResult::BlackWins) => (0, 0, 1),
        Some(GameResult::Unfinished) | None => (0, 0, 0),
    };
    for &m in g.moves.iter().take(max_ply as usize) {
        if !pos.is_legal(m) {
            return false;
        }
        let (key, mv) = canonical(&pos, m, mirror);
        let elo = match pos.turn() {
            Color::Red => g.red_elo,
            Color::Black => g.black_elo,
        };
        let t = tallies.entry((key, mv.to_u16())).or_default();
        t.games += 1;
        t.red_wins += red;
        t.draws += draw;
        t.black_wins += black;
        if let Some(e) = elo.filter(|&e| e > 0) {
            t.elo_sum += u64::from(e);
            t.elo_count += 1;
        }
        t.mover = Some(pos.turn());
        pos.make_move(m);
    }
    true
}

/// The entries that pass the thresholds, and the number of distinct positions among them.
#[must_use]
pub fn entries(tallies: &Tallies, min_games: u32, min_score: f64) -> (Vec<Entry>, usize) {
    let mut out = Vec::new();
    for (&(key, mv), t) in tallies {
        let (Some(mover), Some(mv)) = (t.mover, Move::from_u16(mv)) else {
            continue;
        };
        let stats = t.stats();
        if stats.games < min_games || stats.score(mover) < min_score {
            continue;
        }
        out.push(Entry {
            key,
            mv,
            stats,
            weight: stats.weight(mover),
        });
    }
    out.sort_unstable_by_key(|e| e.key);
    let mut positions = out.len();
    if positions > 0 {
        positions = 1 + out.windows(2).filter(|w| w[0].key != w[1].key).count();
    }
    (out, positions)
}

/// Why a book could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The book could not be written.
    #[error(transparent)]
    Book(#[from] BookError),
}

/// What a compile produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileReport {
    /// Games selected by the filter and counted.
    pub games: u64,
    /// Games that did not replay.
    pub broken: u64,
    /// (position, move) pairs counted.
    pub counted: usize,
    /// Entries written.
    pub entries: usize,
    /// Positions written.
    pub positions: usize,
}

/// Compiles the games of `db` selected by `opts.filter` into a book at `out`.
///
/// # Errors
/// [`CompileError`] when the database cannot be read or the book cannot be written.
pub fn compile(
    db: &GameDb,
    opts: &CompileOptions,
    out: &Path,
) -> Result<CompileReport, CompileError> {
    let games = db.games(&opts.filter, opts.max_ply)?;
    let counted = count(&games, opts.max_ply, opts.mirror);
    drop(games);
    let (entries, positions) = entries(&counted.tallies, opts.min_games, opts.min_score);

    let mut metadata = vec![format!("tool: book-builder {}", env!("CARGO_PKG_VERSION"))];
    metadata.extend(opts.filter.describe());
    metadata.extend(opts.metadata.iter().cloned());
    let info = BuildInfo {
        mirror: opts.mirror,
        max_ply: opts.max_ply,
        min_games: opts.min_games,
        min_score_permille: (opts.min_score.clamp(0.0, 1.0) * 1000.0).round() as u32,
        games: counted.games,
        metadata: metadata.join("\n"),
    };
    let report = CompileReport {
        games: counted.games,
        broken: counted.broken,
        counted: counted.tallies.len(),
        entries: entries.len(),
        positions,
    };
    drop(counted);
    let mut writer = BookWriter::new(info);
    for e in entries {
        writer.push(e);
    }
    writer.write(out)?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_iccs;

    fn game(moves: &[&str], result: Option<GameResult>, elo: Option<u32>) -> StoredGame {
        StoredGame {
            start: None,
            moves: moves.iter().map(|m| parse_iccs(m).unwrap()).collect(),
            result,
            red_elo: elo,
            black_elo: None,
        }
    }

    #[test]
    fn counts_follow_results_and_mirrors() {
        let games = [
            game(&["h2e2", "h9g7"], Some(GameResult::RedWins), Some(2500)),
            game(&["h2e2", "h9g7"], Some(GameResult::Draw), Some(2300)),
            game(&["b2e2", "b9c7"], Some(GameResult::BlackWins), None),
            game(&["c3c4"], None, None),
        ];
        let c = count(&games, 40, true);
        assert_eq!((c.games, c.broken), (4, 0));
        let mut pos = Position::start();
        let (k, m) = canonical(&pos, parse_iccs("h2e2").unwrap(), true);
        let t = c.tallies[&(k, m.to_u16())];
        assert_eq!((t.games, t.red_wins, t.draws, t.black_wins), (2, 1, 1, 0));
        assert_eq!(t.stats().mean_elo, 2400);
        // After h2e2, h9g7 and (mirrored) b2e2 b9c7 are one entry.
        pos.make_move(parse_iccs("h2e2").unwrap());
        let (k, m) = canonical(&pos, parse_iccs("h9g7").unwrap(), true);
        let t = c.tallies[&(k, m.to_u16())];
        assert_eq!((t.games, t.red_wins, t.draws, t.black_wins), (3, 1, 1, 1));
        assert_eq!(t.stats().weight(Color::Black), 3);
        // Without mirroring they stay apart.
        let c = count(&games, 40, false);
        let t = c.tallies[&(pos.key(), parse_iccs("h9g7").unwrap().to_u16())];
        assert_eq!(t.games, 2);
        // The ply limit: only first moves.
        assert_eq!(count(&games, 1, false).tallies.len(), 3);
    }

    #[test]
    fn thresholds_and_broken_games() {
        let games = [
            game(&["h2e2", "h9g7"], Some(GameResult::RedWins), None),
            game(&["h2e2", "h7e7"], Some(GameResult::BlackWins), None),
            game(&["c3c4"], Some(GameResult::BlackWins), None),
            game(&["h2e2", "h2e2"], Some(GameResult::Draw), None),
        ];
        let c = count(&games, 40, false);
        assert_eq!(c.broken, 1);
        let (all, positions) = entries(&c.tallies, 1, 0.0);
        assert_eq!((all.len(), positions), (4, 2));
        let (two, _) = entries(&c.tallies, 2, 0.0);
        assert_eq!(two.len(), 1);
        assert_eq!(two[0].stats.games, 3);
        // h2e2 scored 1 + 0 + 0.5 of 3 for Red; c3c4 scored 0.
        let (scored, _) = entries(&c.tallies, 1, 0.4);
        let names: Vec<String> = scored.iter().map(|e| e.mv.to_string()).collect();
        assert!(names.contains(&"h2e2".to_owned()) && !names.contains(&"c3c4".to_owned()));
    }
}
