//! Self-play data generation for training an evaluation (`chariot datagen`).
//!
//! Each game starts from a varied opening — a walk through an opening book, moves drawn in
//! proportion to their weights, then a few uniformly random plies, the game dropped when the
//! engine's first search finds it lopsided — and is played out by the
//! engine at a fixed node budget per move. Every position on the way is a candidate record,
//! with the search's score; those not worth training on are left out (the side to move in
//! check, a capture as the best move, a mate score: the static position does not show their
//! value). When the game ends (by the rules core's judge, or adjudicated: a mate found, a score
//! beyond [`Settings::win_adjudication`] for both sides' searches over several plies, or the ply
//! cap as a draw), its records are written with the result, one game at a time, to a file in the
//! [`training_data`](chariot_formats::training_data) format of `docs/formats/training-data.md`.
//!
//! Games run on `threads` threads, each with its own single-threaded searcher. Everything
//! random is drawn from a generator seeded by the run's seed, the game's number and the number of
//! records already in the file, so a resumed run plays new games. With several threads the games
//! are the same but reach the file in the order they finish, which varies from run to run.
//!
//! A shard ([`run_shard`]) is the repeatable unit: one thread, a new file, so that its seed and
//! settings fix its bytes (the searches stop at a node count, never at a time). It is written
//! as `FILE.part` and renamed to its name once complete, so a job killed half way leaves no
//! file under the shard's name. A plan of shards and its manifest ([`manifest`]) make the large
//! data sets: the shards are the parallelism.

pub mod manifest;

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use chariot_engine::search::{Control, Limits, Options, Score, Searcher};
use chariot_eval::nnue::Network;
use chariot_formats::book::{self, BookSet};
use chariot_formats::training_data::{DataError, DataFile, Record};
use chariot_rules::random::Rng;
use chariot_rules::{Color, DecidedResult, GameState, JudgeConfig, Position, judge};

/// How data is generated.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Stop once the file holds at least this many records.
    pub target_records: u64,
    /// Search nodes per move.
    pub nodes: u64,
    /// Game threads.
    pub threads: usize,
    /// The run's seed.
    pub seed: u64,
    /// Plies taken from the book at most, before the random plies.
    pub book_plies: usize,
    /// Uniformly random plies after the book walk.
    pub random_plies: usize,
    /// A game is adjudicated as won once both sides' searches give at least this many
    /// centipawns to the same side for [`Settings::adjudication_plies`] plies in a row.
    pub win_adjudication: i32,
    /// Plies in a row for the win adjudication.
    pub adjudication_plies: usize,
    /// A game still going at this ply is scored a draw.
    pub max_plies: usize,
    /// Transposition table per thread, in MiB.
    pub hash_mb: usize,
    /// An opening whose first search gives either side more than this many centipawns is
    /// dropped (a random ply that hangs a piece makes a game not worth learning from).
    pub opening_balance: i32,
    /// The network the searches evaluate with, or `None` for the hand-written evaluation. The
    /// default is the built-in network (the engine's default evaluation), so that each new net
    /// learns from the best player there is.
    pub network: Option<Arc<Network>>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            target_records: 1_000_000,
            nodes: 5_000,
            threads: 1,
            seed: 1,
            book_plies: 12,
            random_plies: 6,
            win_adjudication: 1_500,
            adjudication_plies: 8,
            max_plies: 400,
            hash_mb: 16,
            opening_balance: 300,
            network: chariot_engine::resources::default_network(),
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Records in the file when the run started.
    pub records_before: u64,
    /// Records written by this run.
    pub records_written: u64,
    /// Games played to the end by this run.
    pub games: u64,
    /// Of which red won, drawn, black won.
    pub red_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games black won.
    pub black_wins: u64,
}

/// Progress, as the run reports it after each game: records in the file, the target, games
/// played by this run.
pub type Progress<'a> = &'a (dyn Fn(u64, u64, u64) + Sync);

/// Plays games until the file at `out` holds `settings.target_records` records or `stop` is set,
/// appending each finished game's records. `book` gives the opening walks (none: random plies
/// only).
///
/// # Errors
///
/// The file's errors ([`DataError`]); a game in progress when an error occurs is lost, the
/// file keeps every finished game.
pub fn run(
    out: &Path,
    settings: &Settings,
    book: Option<&BookSet>,
    stop: &AtomicBool,
    progress: Progress<'_>,
) -> Result<Summary, DataError> {
    let file = DataFile::open_for_append(out)?;
    play_into(file, settings, settings.threads, book, stop, progress).map(|(summary, _)| summary)
}

/// Generates one shard: a new file at `out` (replacing one there) of the games that
/// `settings.seed` and the other settings give, played on one thread whatever
/// `settings.threads` says, until it holds at least `settings.target_records` records. The same
/// settings, book and network give the same bytes on every run of the same build, whatever the
/// machine (the network's vector kernels agree bit for bit with the portable ones).
///
/// The games go to `out` with `.part` added to its name, which is renamed to `out` once the
/// target is reached; when `stop` is set first, or an error occurs, the partial file is removed
/// and `out` is left as it was (the summary says how far the run got).
///
/// # Errors
///
/// The file's errors ([`DataError`]): creating, writing or syncing the partial file, or
/// renaming it.
pub fn run_shard(
    out: &Path,
    settings: &Settings,
    book: Option<&BookSet>,
    stop: &AtomicBool,
    progress: Progress<'_>,
) -> Result<Summary, DataError> {
    let part = part_path(out);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| DataError::Io { path, source }
    };
    let file = DataFile::create(&part)?;
    let finished =
        play_into(file, settings, 1, book, stop, progress).and_then(|(summary, file)| {
            if file.records() < settings.target_records {
                return Ok((summary, false));
            }
            file.finish()?;
            std::fs::rename(&part, out).map_err(io(out))?;
            Ok((summary, true))
        });
    match finished {
        Ok((summary, true)) => Ok(summary),
        Ok((summary, false)) => {
            std::fs::remove_file(&part).map_err(io(&part))?;
            Ok(summary)
        }
        Err(e) => {
            // The error says what went wrong; a partial file that cannot be removed either is
            // overwritten by the next run of the shard.
            let _ = std::fs::remove_file(&part);
            Err(e)
        }
    }
}

/// Where [`run_shard`] writes before the rename: `out` with `.part` added to its name.
#[must_use]
pub fn part_path(out: &Path) -> std::path::PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".part");
    name.into()
}

/// Plays games on `threads` threads into `file` until it holds `settings.target_records`
/// records, a stop or an error; returns the summary and the file.
fn play_into(
    file: DataFile,
    settings: &Settings,
    threads: usize,
    book: Option<&BookSet>,
    stop: &AtomicBool,
    progress: Progress<'_>,
) -> Result<(Summary, DataFile), DataError> {
    let before = file.records();
    let file = Mutex::new(file);
    let next_game = AtomicU64::new(0);
    let summary = Mutex::new(Summary {
        records_before: before,
        ..Summary::default()
    });
    let error: Mutex<Option<DataError>> = Mutex::new(None);
    let done = || {
        stop.load(Ordering::Relaxed)
            || error.lock().map_or(true, |e| e.is_some())
            || file
                .lock()
                .map_or(true, |f| f.records() >= settings.target_records)
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut player = Player::new(settings);
                while !done() {
                    let game = next_game.fetch_add(1, Ordering::Relaxed);
                    let mut rng = Rng::seeded(
                        settings.seed
                            ^ before.rotate_left(32)
                            ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let Some((records, outcome)) = player.play(book, &mut rng, stop) else {
                        continue;
                    };
                    let written = {
                        let Ok(mut f) = file.lock() else { return };
                        if let Err(e) = f.append(&records) {
                            if let Ok(mut slot) = error.lock() {
                                slot.get_or_insert(e);
                            }
                            return;
                        }
                        f.records()
                    };
                    let games = {
                        let Ok(mut s) = summary.lock() else { return };
                        s.records_written += records.len() as u64;
                        s.games += 1;
                        match outcome.winner() {
                            Some(Color::Red) => s.red_wins += 1,
                            None => s.draws += 1,
                            Some(Color::Black) => s.black_wins += 1,
                        }
                        s.games
                    };
                    progress(written, settings.target_records, games);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().ok().flatten() {
        return Err(e);
    }
    // A poisoned lock would mean a panicking thread, which `scope` has already passed on.
    let file = file.into_inner().unwrap_or_else(PoisonError::into_inner);
    Ok((summary.into_inner().unwrap_or_default(), file))
}

/// One thread's engine.
struct Player<'s> {
    settings: &'s Settings,
    searcher: Searcher,
    control: Arc<Control>,
}

impl<'s> Player<'s> {
    fn new(settings: &'s Settings) -> Player<'s> {
        let options = Options {
            hash_mb: settings.hash_mb,
            threads: 1,
            ..Options::default()
        };
        let mut searcher = Searcher::new(options);
        searcher.set_network(settings.network.clone());
        Player {
            settings,
            searcher,
            control: Arc::new(Control::default()),
        }
    }

    /// Plays one game; `None` when the opening already ended the game or a stop came.
    fn play(
        &mut self,
        book: Option<&BookSet>,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> Option<(Vec<Record>, DecidedResult)> {
        let config = JudgeConfig::default();
        let mut pos = opening(book, rng, self.settings);
        if judge(&pos, &config).is_over() {
            return None;
        }
        self.searcher.clear();
        let limits = Limits {
            nodes: Some(self.settings.nodes),
            ..Limits::default()
        };
        let mut records: Vec<Record> = Vec::new();
        let mut first_search = true;
        let mut streak: (i32, usize) = (0, 0); // the side ahead (+1 red, -1 black) and for how long
        let outcome = loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            match judge(&pos, &config) {
                GameState::Ongoing => {}
                GameState::RedWins(_) => break DecidedResult::RED_WINS,
                GameState::BlackWins(_) => break DecidedResult::BLACK_WINS,
                GameState::Draw(_) => break DecidedResult::DRAW,
            }
            let ply = pos.history().len();
            if ply >= self.settings.max_plies {
                break DecidedResult::DRAW;
            }
            let result = self
                .searcher
                .search(&pos, &limits, &self.control, &mut |_| {});
            let best = result.best?;
            if first_search {
                first_search = false;
                let balanced = matches!(result.score,
                    Score::Cp(cp) if cp.abs() <= self.settings.opening_balance);
                if !balanced {
                    return None;
                }
            }
            let mover = pos.turn();
            let red_view = |v: i32| if mover.is_red() { v } else { -v };
            match result.score {
                Score::Mate(p) if p > 0 => break DecidedResult::win(mover),
                Score::Mate(_) => break DecidedResult::win(mover.opponent()),
                Score::Cp(cp) => {
                    if !pos.in_check() && !pos.is_capture(best) {
                        records.push(Record {
                            setup: pos.to_setup(),
                            score: cp.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                            outcome: DecidedResult::DRAW,
                            ply: ply.min(255) as u8,
                        });
                    }
                    let side = if cp.abs() >= self.settings.win_adjudication {
                        red_view(cp).signum()
                    } else {
                        0
                    };
                    streak = if side != 0 && side == streak.0 {
                        (side, streak.1 + 1)
                    } else {
                        (side, usize::from(side != 0))
                    };
                    if streak.0 != 0 && streak.1 >= self.settings.adjudication_plies {
                        break if streak.0 > 0 {
                            DecidedResult::RED_WINS
                        } else {
                            DecidedResult::BLACK_WINS
                        };
                    }
                }
            }
            pos.make_move(best);
        };
        for r in &mut records {
            r.outcome = outcome;
        }
        Some((records, outcome))
    }
}

/// The game's opening: a weighted walk through the book, then random plies (stopping early at a
/// position with no legal move, which the caller then discards).
fn opening(book: Option<&BookSet>, rng: &mut Rng, settings: &Settings) -> Position {
    let mut pos = Position::start();
    if let Some(book) = book {
        for _ in 0..settings.book_plies {
            let moves = book.probe(&pos);
            match book::choose(&moves, 1.0, rng.unit()) {
                Some(m) => pos.make_move(m.mv),
                None => break,
            }
        }
    }
    for _ in 0..settings.random_plies {
        let legal = pos.legal_move_list();
        if legal.is_empty() {
            break;
        }
        pos.make_move(legal[rng.below(legal.len())]);
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_formats::training_data as format;

    #[test]
    fn a_small_run_writes_legal_filtered_positions_and_resumes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("train.bin");
        let settings = Settings {
            target_records: 60,
            nodes: 300,
            threads: 2,
            seed: 5,
            max_plies: 60,
            hash_mb: 1,
            ..Settings::default()
        };
        let stop = AtomicBool::new(false);
        let first = run(&path, &settings, None, &stop, &|_, _, _| {}).unwrap();
        assert_eq!(first.records_before, 0);
        assert!(first.records_written >= 60, "{first:?}");
        assert_eq!(first.games, first.red_wins + first.draws + first.black_wins);
        let records = format::read_all(&path).unwrap();
        assert_eq!(records.len() as u64, first.records_written);
        for r in &records {
            let pos = r.position().expect("a legal position");
            assert!(!pos.in_check(), "no position in check is kept");
        }
        // Resuming with a higher target appends new games after the old ones.
        let more = Settings {
            target_records: first.records_written + 30,
            ..settings
        };
        let second = run(&path, &more, None, &stop, &|_, _, _| {}).unwrap();
        assert_eq!(second.records_before, first.records_written);
        let all = format::read_all(&path).unwrap();
        assert_eq!(&all[..records.len()], &records[..]);
        assert!(all.len() as u64 >= more.target_records);
    }

    #[test]
    fn the_searches_evaluate_with_the_network_given() {
        let default = Settings::default();
        let net = default
            .network
            .clone()
            .expect("the built-in network is the default");
        let player = Player::new(&default);
        let used = player.searcher.network().expect("a network");
        assert!(Arc::ptr_eq(used, &net));
        let hand = Settings {
            network: None,
            ..Settings::default()
        };
        assert!(Player::new(&hand).searcher.network().is_none());
    }

    #[test]
    fn a_shard_is_the_same_bytes_every_time_and_appears_only_when_complete() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings {
            target_records: 40,
            nodes: 200,
            threads: 4, // a shard plays on one thread whatever this says
            seed: 9,
            max_plies: 80,
            hash_mb: 1,
            network: None,
            ..Settings::default()
        };
        let stop = AtomicBool::new(false);
        let (a, b) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
        let first = run_shard(&a, &settings, None, &stop, &|_, _, _| {}).unwrap();
        assert!(first.records_written >= 40, "{first:?}");
        // Over an existing file: replaced, not appended to.
        std::fs::write(&b, b"old").unwrap();
        let second = run_shard(&b, &settings, None, &stop, &|_, _, _| {}).unwrap();
        assert_eq!(first, second);
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert!(!part_path(&a).exists() && !part_path(&b).exists());
        // Stopped before the target: no file under the name, no partial file left.
        let c = dir.path().join("c.bin");
        let stopped = AtomicBool::new(true);
        let s = run_shard(&c, &settings, None, &stopped, &|_, _, _| {}).unwrap();
        assert_eq!(s.records_written, 0);
        assert!(!c.exists() && !part_path(&c).exists());
    }

    #[test]
    fn a_set_stop_flag_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("train.bin");
        let stop = AtomicBool::new(true);
        let s = run(&path, &Settings::default(), None, &stop, &|_, _, _| {}).unwrap();
        assert_eq!(s.records_written, 0);
        assert!(format::read_all(&path).unwrap().is_empty());
    }
}
