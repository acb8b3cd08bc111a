//! Tournaments: who plays whom, with which opening and colours, and running the games on
//! `concurrency` threads.
//!
//! - **Round robin** (two engines: a match): every pair of engines meets once a round, for
//!   `games` games; the colours alternate within the encounter and each opening is played
//!   twice in a row with the colours swapped. The default of two games per encounter makes the
//!   league's double round robin.
//! - **Swiss**: before each round the engines are ranked by points (then by their order on the
//!   command line) and paired top-down with the best-ranked opponent not met yet (backtracking
//!   if a later pairing would be impossible; rematches only when no pairing without them
//!   exists). With an odd number, the lowest-ranked engine that has not had a bye sits out and
//!   scores as if it had won its encounter. A round starts when the previous one has finished.
//! - **Gauntlet**: the first engine meets every other engine once a round (`games` games each);
//!   the others do not play each other. This is how a new version is tried against a field.
//!
//! A tournament can carry on from the games an earlier, interrupted run wrote (`previous` in the
//! settings): the schedule is made again, and a game already played with the same players is
//! counted instead of being played again.
//! Openings are used in turn, one per game pair, over the whole tournament (cycling when they
//! run out).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;

use chariot_formats::egtb::Tablebases;

use crate::game::{self, Adjudication, EndReason, GameResult, GameSpec, PlayedGame};
use crate::openings::Opening;
use crate::referee::Referee;
use chariot_matchkit::client::EngineConfig;
use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::pairing::swiss_pairs;
use chariot_matchkit::standings::{GameScore, Standings};
use chariot_matchkit::stats::{Sprt, SprtDecision};

/// The kind of tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// Everyone against everyone (two engines: a match).
    #[default]
    RoundRobin,
    /// Swiss system.
    Swiss,
    /// The first engine against each of the others.
    Gauntlet,
}

impl std::str::FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        match s {
            "round-robin" | "roundrobin" | "match" => Ok(Kind::RoundRobin),
            "swiss" => Ok(Kind::Swiss),
            "gauntlet" => Ok(Kind::Gauntlet),
            _ => Err(format!(
                "unknown tournament {s:?} (expected round-robin, swiss or gauntlet)"
            )),
        }
    }
}

/// An engine in the tournament.
#[derive(Clone, Debug)]
pub struct Player {
    /// Its unique name.
    pub name: String,
    /// How to run it.
    pub config: EngineConfig,
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 1-based game number in the tournament.
    pub number: usize,
    /// 1-based round.
    pub round: u32,
    /// Red's player index.
    pub red: usize,
    /// Black's player index.
    pub black: usize,
    /// Index into the openings.
    pub opening: usize,
    /// Games sharing an opening with swapped colours share this id.
    pub pair: usize,
}

/// Tournament settings.
pub struct Settings {
    /// The kind.
    pub kind: Kind,
    /// Games per encounter per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Openings (at least one).
    pub openings: Vec<Opening>,
    /// The rules.
    pub referee: Arc<dyn Referee>,
    /// Adjudication.
    pub adjudication: Adjudication,
    /// Endgame tablebases for adjudication (`--egtb`).
    pub tablebases: Option<Tablebases>,
    /// Stop a two-engine match when this test decides.
    pub sprt: Option<Sprt>,
    /// Print engine traffic to standard error.
    pub debug: bool,
    /// Games an earlier run of the same tournament finished, by game number: they are
    /// counted, not played again.
    pub previous: HashMap<usize, Previous>,
    /// Once set, no game starts and the games in progress are abandoned.
    pub interrupt: Interrupt,
}

/// A game an earlier run finished (read back from its PGN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Previous {
    /// Its round.
    pub round: u32,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Its result.
    pub outcome: GameResult,
}

/// An earlier run's game does not fit the schedule made now: it was started with other
/// engines, another order or another format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleMismatch {
    /// The game number.
    pub number: usize,
    /// What the earlier run played as that game.
    pub previous: Previous,
    /// What the schedule says now: round, Red, Black.
    pub now: (u32, String, String),
}

impl std::fmt::Display for ScheduleMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = &self.previous;
        let (round, red, black) = &self.now;
        write!(
            f,
            "game {} was round {}, {} vs {} in the earlier run but is round {round}, {red} vs \
             {black} now (was it started with other engines or another tournament format?)",
            self.number, p.round, p.red, p.black
        )
    }
}

impl std::error::Error for ScheduleMismatch {}

/// A finished game with its place in the tournament.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The job.
    pub job: Job,
    /// The game.
    pub record: PlayedGame,
}

/// Counts a finished game of `job` in the standings (Red moves first).
fn count_game(standings: &mut Standings, job: &Job, outcome: GameResult) {
    let score = match outcome {
        GameResult::RedWins => GameScore::FirstWins,
        GameResult::Draw => GameScore::Draw,
        GameResult::BlackWins => GameScore::SecondWins,
        GameResult::Unfinished => GameScore::Unfinished,
    };
    standings.record(job.red, job.black, job.pair, score);
}

/// The schedule and its state, shared by the worker threads.
struct State {
    queue: VecDeque<Job>,
    running: usize,
    next_number: usize,
    next_pair: usize,
    round: u32,
    stop: bool,
    standings: Standings,
    /// Swiss: pairs that have met.
    met: HashSet<(usize, usize)>,
    /// Swiss: games each player had as Red.
    reds: Vec<u32>,
    /// Swiss: players who had a bye.
    had_bye: Vec<bool>,
    /// An earlier run's game that does not fit the schedule.
    mismatch: Option<ScheduleMismatch>,
}

/// Runs a tournament. `on_game` is called (under the tournament's lock, one call at a time,
/// in the order games finish) with each finished game and the standings after it; it writes
/// the PGN and the live table.
///
/// When `settings.interrupt` is set, no more games start and the games in progress end
/// without a result: they are counted in [`Standings::abandoned`], not passed to `on_game`.
///
/// # Errors
/// When a game of `settings.previous` does not fit the schedule (nothing more is played).
///
/// # Panics
/// When there are fewer than two players or no openings (the command line checks both).
pub fn run(
    players: &[Player],
    settings: &Settings,
    mut on_game: impl FnMut(&Finished, &Standings) + Send,
) -> Result<Standings, ScheduleMismatch> {
    assert!(players.len() >= 2 && !settings.openings.is_empty());
    let n = players.len();
    let mut state = State {
        queue: VecDeque::new(),
        running: 0,
        next_number: 1,
        next_pair: 0,
        round: 0,
        stop: false,
        standings: Standings::new(n),
        met: HashSet::new(),
        reds: vec![0; n],
        had_bye: vec![false; n],
        mismatch: None,
    };
    let fixed = match settings.kind {
        Kind::RoundRobin => round_robin_pairs(n),
        Kind::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        Kind::Swiss => Vec::new(),
    };
    for round in 1..=settings.rounds {
        for &(a, b) in &fixed {
            let (a, b) = if round % 2 == 0 { (b, a) } else { (a, b) };
            schedule_encounter(&mut state, settings, round, a, b);
        }
    }
    // A fixed schedule is checked against the earlier run before any game is played; a Swiss
    // one as its rounds are paired.
    for job in &state.queue {
        check_previous(settings, players, job)?;
    }
    let shared = (Mutex::new(state), Condvar::new());
    let on_game = Mutex::new(&mut on_game);
    thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1) {
            scope.spawn(|| worker(players, settings, &shared, &on_game));
        }
    });
    let (state, _) = shared;
    let mut state = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let unplayed =
        !state.queue.is_empty() || (settings.kind == Kind::Swiss && state.round < settings.rounds);
    state.standings.interrupted =
        settings.interrupt.is_set() && (state.standings.abandoned > 0 || unplayed);
    match state.mismatch {
        Some(m) => Err(m),
        None => Ok(state.standings),
    }
}

/// A worker: takes jobs until there are none left, plays them, records them.
fn worker(
    players: &[Player],
    settings: &Settings,
    shared: &(Mutex<State>, Condvar),
    on_game: &Mutex<&mut (impl FnMut(&Finished, &Standings) + Send)>,
) {
    let (lock, cvar) = shared;
    loop {
        let job = {
            let mut st = lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if st.stop || settings.interrupt.is_set() {
                    break None;
                }
                if let Some(job) = st.queue.pop_front() {
                    st.running += 1;
                    break Some(job);
                }
                if settings.kind == Kind::Swiss && st.round < settings.rounds {
                    if st.running == 0 {
                        next_swiss_round(&mut st, settings, players.len());
                        continue;
                    }
                } else if st.running == 0 {
                    break None;
                }
                st = cvar.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        };
        let Some(job) = job else {
            cvar.notify_all();
            return;
        };
        let (red, black) = (&players[job.red], &players[job.black]);
        if let Some(previous) = settings.previous.get(&job.number) {
            let mut st = lock.lock().unwrap_or_else(|e| e.into_inner());
            st.running -= 1;
            match check_previous(settings, players, &job) {
                Ok(()) => {
                    st.standings.resumed += 1;
                    count_game(&mut st.standings, &job, previous.outcome);
                    judge_sprt(&mut st, settings, players.len());
                }
                Err(m) => {
                    st.mismatch = Some(m);
                    st.stop = true;
                    st.queue.clear();
                }
            }
            drop(st);
            cvar.notify_all();
            continue;
        }
        let spec = GameSpec {
            red: (&red.config, &red.name),
            black: (&black.config, &black.name),
            opening: &settings.openings[job.opening],
            referee: settings.referee.as_ref(),
            adjudication: settings.adjudication,
            tablebases: settings.tablebases.as_ref(),
            trace: settings.debug.then(|| format!("[game {}]", job.number)),
            interrupt: &settings.interrupt,
        };
        let record = game::play(&spec);
        let finished = Finished { job, record };
        let mut st = lock.lock().unwrap_or_else(|e| e.into_inner());
        st.running -= 1;
        if finished.record.ending.reason == EndReason::Interrupted {
            st.standings.abandoned += 1;
            drop(st);
            cvar.notify_all();
            continue;
        }
        count_game(&mut st.standings, &job, finished.record.ending.outcome);
        judge_sprt(&mut st, settings, players.len());
        {
            let mut f = on_game.lock().unwrap_or_else(|e| e.into_inner());
            (*f)(&finished, &st.standings);
        }
        drop(st);
        cvar.notify_all();
    }
}

/// Checks that the earlier run's game of this number, if any, is this job's game.
fn check_previous(
    settings: &Settings,
    players: &[Player],
    job: &Job,
) -> Result<(), ScheduleMismatch> {
    let Some(previous) = settings.previous.get(&job.number) else {
        return Ok(());
    };
    let (red, black) = (&players[job.red].name, &players[job.black].name);
    if previous.round == job.round && previous.red == *red && previous.black == *black {
        Ok(())
    } else {
        Err(ScheduleMismatch {
            number: job.number,
            previous: previous.clone(),
            now: (job.round, red.clone(), black.clone()),
        })
    }
}

/// Stops a match whose SPRT has decided.
///
/// The test is decided only between pairs (or when no game has a partner), so that the
/// statistic that stops the match is the one the final report shows: with games in parallel an
/// odd count would otherwise be judged on single games, which with lopsided results can cross a
/// bound that the pairs do not.
fn judge_sprt(st: &mut State, settings: &Settings, players: usize) {
    if let Some(sprt) = settings.sprt
        && players == 2
        && st.standings.pairs_complete()
        && st.standings.sprt_status(&sprt).decision != SprtDecision::Continue
    {
        st.stop = true;
        st.queue.clear();
    }
}

/// Queues the games of one encounter: `a` has Red in the first game, colours alternate, one
/// opening per two games.
fn schedule_encounter(st: &mut State, settings: &Settings, round: u32, a: usize, b: usize) {
    let mut pair = st.next_pair;
    for g in 0..settings.games {
        if g % 2 == 0 {
            pair = st.next_pair;
            st.next_pair += 1;
        }
        let (red, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
        st.queue.push_back(Job {
            number: st.next_number,
            round,
            red,
            black,
            opening: pair % settings.openings.len(),
            pair,
        });
        st.next_number += 1;
    }
}

/// All pairs of `n` players in the order of the circle method, so that consecutive
/// encounters mostly involve different engines.
#[must_use]
pub fn round_robin_pairs(n: usize) -> Vec<(usize, usize)> {
    let m = if n % 2 == 0 { n } else { n + 1 };
    let mut ring: Vec<usize> = (0..m).collect();
    let mut out = Vec::new();
    for _ in 0..m - 1 {
        for i in 0..m / 2 {
            let (a, b) = (ring[i], ring[m - 1 - i]);
            if a < n && b < n {
                out.push((a.min(b), a.max(b)));
            }
        }
        // Keep the first fixed and rotate the rest.
        let last = ring.pop().unwrap_or(0);
        ring.insert(1, last);
    }
    out
}

/// Pairs the next Swiss round and queues its games.
fn next_swiss_round(st: &mut State, settings: &Settings, n: usize) {
    st.round += 1;
    let round = st.round;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        st.standings
            .points(b)
            .total_cmp(&st.standings.points(a))
            .then(a.cmp(&b))
    });
    if n % 2 == 1 {
        let bye = order
            .iter()
            .rev()
            .copied()
            .find(|&p| !st.had_bye[p])
            .unwrap_or(order[n - 1]);
        st.had_bye[bye] = true;
        st.standings.byes[bye] += settings.games;
        order.retain(|&p| p != bye);
    }
    let pairs = swiss_pairs(&order, &st.met)
        .unwrap_or_else(|| swiss_pairs(&order, &HashSet::new()).unwrap_or_default());
    for (a, b) in pairs {
        st.met.insert((a.min(b), a.max(b)));
        // The one who had Red less often gets Red first.
        let (first, second) = if st.reds[b] < st.reds[a] {
            (b, a)
        } else {
            (a, b)
        };
        let games = settings.games;
        st.reds[first] += games.div_ceil(2);
        st.reds[second] += games / 2;
        schedule_encounter(st, settings, round, first, second);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_matchkit::stats::Wdl;

    #[test]
    fn round_robin_covers_every_pair_once() {
        for n in 2..9 {
            let pairs = round_robin_pairs(n);
            assert_eq!(pairs.len(), n * (n - 1) / 2, "n = {n}");
            let set: HashSet<_> = pairs.iter().copied().collect();
            assert_eq!(set.len(), pairs.len());
        }
    }

    #[test]
    fn swiss_avoids_rematches_by_backtracking() {
        let met: HashSet<_> = [(0, 1), (2, 3)].into_iter().collect();
        assert_eq!(swiss_pairs(&[0, 1, 2, 3], &met), Some(vec![(0, 2), (1, 3)]));
        // 0 has met 1 and 2, so 0-3; then 1-2.
        let met: HashSet<_> = [(0, 1), (0, 2)].into_iter().collect();
        assert_eq!(swiss_pairs(&[0, 1, 2, 3], &met), Some(vec![(0, 3), (1, 2)]));
        // Everyone met everyone: no pairing.
        let met: HashSet<_> = round_robin_pairs(4).into_iter().collect();
        assert_eq!(swiss_pairs(&[0, 1, 2, 3], &met), None);
    }

    #[test]
    fn standings_count_pairs_for_matches() {
        let mut s = Standings::new(2);
        let job = |red, black, pair| Job {
            number: 0,
            round: 1,
            red,
            black,
            opening: 0,
            pair,
        };
        count_game(&mut s, &job(0, 1, 0), GameResult::RedWins);
        count_game(&mut s, &job(1, 0, 0), GameResult::Draw);
        count_game(&mut s, &job(0, 1, 1), GameResult::BlackWins);
        assert_eq!(s.pairs.0, [0, 0, 0, 1, 0]);
        assert_eq!(
            s.first,
            Wdl {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(s.players[1].wins, 1);
    }
}
