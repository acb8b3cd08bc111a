//! The paired runner: plays a tournament's games on `concurrency` threads, whatever the game.
//!
//! The game is the caller's: a [`GamePlayer`] plays one game of the schedule (two configured
//! engines, an opening, the game's own rules) and hands back its record, whose ending the
//! runner reads through [`GameEnding`]. Everything else is here, once for both games:
//!
//! - the schedule ([`Schedule`]: round robin, gauntlet, Swiss), made into [`Job`]s of paired
//!   games, one opening with the seats swapped ([`crate::schedule`]);
//! - a pool of `concurrency` worker threads, each playing one game at a time; one coordinating
//!   loop on the calling thread hands out the games, counts the results in the
//!   [`Standings`] (by player, and for two players by game and game pair) and tells the caller
//!   ([`Event`]) in the order games finish;
//! - a Swiss round is paired when the round before it has finished;
//! - games an earlier run finished ([`Settings::previous`], read from its PGN by the caller)
//!   are counted, not played again, once checked against the schedule made now;
//! - a two-player match stops once its SPRT decides, between game pairs;
//! - the interrupt: no game starts once it is set, and the games in progress come back
//!   abandoned ([`GameEnding::score`] is `None`), counted in [`Standings::abandoned`] only.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;

use crate::ending::GameEnding;
use crate::interrupt::Interrupt;
use crate::schedule::{Job, Jobs, Schedule};
use crate::standings::{GameScore, Standings};
use crate::stats::{Sprt, SprtDecision};

/// Plays one game of a tournament: the game-specific part of the runner. The Xiangqi league
/// implements it with its engines and the rules' judge, the chess referee with shakmaty.
///
/// `Sync` because the worker threads share one player.
pub trait GamePlayer: Sync {
    /// A played game: its moves and its ending, for the caller to report and write.
    type Game: Send;
    /// How a game of this kind ends.
    type Ending: GameEnding;

    /// Plays `job` to its end: [`Job::first`] has the first seat (Red, White), the game starts
    /// from opening [`Job::opening`]. Everything an engine does wrong ends the game against it;
    /// nothing it does may make this wait without a deadline. Once `interrupt` is set the game
    /// should end promptly without a result (an ending whose score is `None`).
    fn play(&self, job: &Job, interrupt: &Interrupt) -> Self::Game;

    /// The ending of a played game.
    fn ending(game: &Self::Game) -> &Self::Ending;
}

/// What the runner needs besides the schedule and the player.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The players' names, in the order of the command line (at least two).
    pub names: Vec<String>,
    /// Games per encounter per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// The number of openings (at least one): pair `k` plays opening `k` modulo it.
    pub openings: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop a two-player match when this test decides.
    pub sprt: Option<Sprt>,
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
    /// The name of the player with the first seat.
    pub first: String,
    /// The name of the player with the second seat.
    pub second: String,
    /// Its result, from the first seat's side.
    pub score: GameScore,
}

/// An earlier run's game does not fit the schedule made now: it was started with other
/// players, another order or another format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleMismatch {
    /// The game number.
    pub number: usize,
    /// What the earlier run played as that game.
    pub previous: Previous,
    /// What the schedule says now: round, first seat, second seat.
    pub now: (u32, String, String),
}

impl fmt::Display for ScheduleMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.previous;
        let (round, first, second) = &self.now;
        write!(
            f,
            "game {} was round {}, {} vs {} in the earlier run but is round {round}, {first} vs \
             {second} now (was it started with other engines or another tournament format?)",
            self.number, p.round, p.first, p.second
        )
    }
}

impl std::error::Error for ScheduleMismatch {}

/// A finished game with its place in the tournament.
#[derive(Clone, Debug)]
pub struct Finished<G> {
    /// The job it was.
    pub job: Job,
    /// The game as the player returned it.
    pub record: G,
}

/// What the runner tells its caller, on the calling thread, one call at a time.
#[derive(Debug)]
pub enum Event<'a, G> {
    /// A Swiss round was paired and its games are about to start (fixed schedules are made
    /// before the first game and announce no rounds).
    RoundPaired {
        /// The round, from 1.
        round: u32,
        /// The player sitting out, scored as a won encounter.
        bye: Option<usize>,
    },
    /// A game finished and is counted; the standings passed along include it.
    Game(&'a Finished<G>),
    /// Every game of a Swiss round is counted (not said of a round the run stopped in).
    RoundDone {
        /// The round.
        round: u32,
    },
}

/// Why a run stopped without its standings.
#[derive(Debug)]
pub enum RunError<E> {
    /// Fewer than two players.
    Players(usize),
    /// No openings.
    NoOpenings,
    /// A game of [`Settings::previous`] does not fit the schedule: nothing more was started.
    Mismatch(ScheduleMismatch),
    /// The caller's event handler failed: nothing more was started, and the games in progress
    /// were finished and dropped.
    Observer(E),
}

impl<E: fmt::Display> fmt::Display for RunError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Players(n) => write!(f, "a tournament needs at least two players, got {n}"),
            RunError::NoOpenings => f.write_str("a tournament needs at least one opening"),
            RunError::Mismatch(m) => m.fmt(f),
            RunError::Observer(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for RunError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Observer(e) => Some(e),
            _ => None,
        }
    }
}

/// Runs a tournament: plays the games of `schedule` with `player`, `settings.concurrency` at a
/// time, and calls `on_event` (on the calling thread) as rounds are paired and games finish,
/// with the standings after each. An error from `on_event` stops the run: no game starts, the
/// games in progress are finished and dropped, and the error is returned.
///
/// When `settings.interrupt` is set no more games start and the games in progress end without
/// a result: they are counted in [`Standings::abandoned`], not passed to `on_event`, and
/// [`Standings::interrupted`] says whether the schedule was left unfinished.
///
/// # Errors
/// Fewer than two players or no openings (nothing is played); a game of `settings.previous`
/// that does not fit the schedule (a fixed schedule is checked before any game is played, a
/// Swiss one as its rounds are paired); the first error of `on_event`.
///
/// # Panics
/// When `player` panics, once the other games in progress have finished.
pub fn run<P: GamePlayer, E>(
    player: &P,
    mut schedule: Schedule<'_>,
    settings: &Settings,
    mut on_event: impl FnMut(Event<'_, P::Game>, &Standings) -> Result<(), E>,
) -> Result<Standings, RunError<E>> {
    let n = settings.names.len();
    if n < 2 {
        return Err(RunError::Players(n));
    }
    if settings.openings == 0 {
        return Err(RunError::NoOpenings);
    }
    let mut run = Run {
        settings,
        jobs: Jobs::new(settings.games, settings.openings),
        queue: VecDeque::new(),
        running: 0,
        round: 0,
        round_open: false,
        stop: false,
        standings: Standings::new(n),
        mismatch: None,
        failure: None,
        panic: None,
    };
    if let Some(encounters) = schedule.fixed_encounters(n) {
        run.queue = run.jobs.fixed(&encounters, settings.rounds).into();
        for job in &run.queue {
            check_previous(settings, job).map_err(RunError::Mismatch)?;
        }
    }
    let workers = settings.concurrency.max(1);
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..workers {
            let (job_rx, done_tx) = (&job_rx, done_tx.clone());
            scope.spawn(move || worker(player, job_rx, &done_tx, &settings.interrupt));
        }
        drop(done_tx);
        run.coordinate::<P>(&mut schedule, workers, &job_tx, &done_rx, &mut on_event);
        // Dropping the sender ends the workers' waits for jobs.
        drop(job_tx);
    });
    if let Some(payload) = run.panic {
        panic::resume_unwind(payload);
    }
    let unplayed = !run.queue.is_empty()
        || (matches!(schedule, Schedule::Swiss(_)) && run.round < settings.rounds);
    run.standings.interrupted =
        settings.interrupt.is_set() && (run.standings.abandoned > 0 || unplayed);
    if let Some(e) = run.failure {
        return Err(RunError::Observer(e));
    }
    match run.mismatch {
        Some(m) => Err(RunError::Mismatch(m)),
        None => Ok(run.standings),
    }
}

/// What a game's worker sends back: the job and the game, or the player's panic.
type Done<G> = (Job, thread::Result<G>);

/// A worker: plays the jobs it is given until the coordinator drops its sender.
fn worker<P: GamePlayer>(
    player: &P,
    jobs: &Mutex<Receiver<Job>>,
    done: &Sender<Done<P::Game>>,
    interrupt: &Interrupt,
) {
    loop {
        let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = job else { return };
        // A panic goes back to the coordinator, which would otherwise wait for this game
        // forever; it is raised again on the calling thread.
        let game = panic::catch_unwind(AssertUnwindSafe(|| player.play(&job, interrupt)));
        if done.send((job, game)).is_err() {
            return;
        }
    }
}

/// The state of a run, kept by the coordinating loop on the calling thread.
struct Run<'s, E> {
    settings: &'s Settings,
    jobs: Jobs,
    queue: VecDeque<Job>,
    running: usize,
    /// The last Swiss round paired.
    round: u32,
    /// A Swiss round was paired and not yet announced done.
    round_open: bool,
    /// No game starts any more (SPRT decided, a mismatch, a failure, a panic).
    stop: bool,
    standings: Standings,
    mismatch: Option<ScheduleMismatch>,
    failure: Option<E>,
    panic: Option<Box<dyn std::any::Any + Send>>,
}

impl<E> Run<'_, E> {
    fn halted(&self) -> bool {
        self.stop || self.settings.interrupt.is_set()
    }

    /// Hands out games while workers are free and collects each finished one, until nothing
    /// runs and nothing more may start.
    fn coordinate<P: GamePlayer>(
        &mut self,
        schedule: &mut Schedule<'_>,
        workers: usize,
        jobs: &Sender<Job>,
        done: &Receiver<Done<P::Game>>,
        on_event: &mut impl FnMut(Event<'_, P::Game>, &Standings) -> Result<(), E>,
    ) {
        loop {
            while self.running < workers && !self.halted() {
                if let Some(job) = self.queue.pop_front() {
                    if self.settings.previous.contains_key(&job.number) {
                        self.count_previous(schedule, &job);
                    } else if jobs.send(job).is_ok() {
                        self.running += 1;
                    }
                    continue;
                }
                if self.running > 0 || !self.next_swiss_round(schedule, on_event) {
                    break;
                }
            }
            if self.running == 0 {
                return;
            }
            // Every worker holds a sender until it returns, and none returns while the job
            // sender lives: a game handed out always comes back.
            let Ok((job, game)) = done.recv() else {
                return;
            };
            self.running -= 1;
            match game {
                Ok(game) => self.finish::<P>(schedule, job, game, on_event),
                Err(payload) => {
                    self.panic.get_or_insert(payload);
                    self.stop = true;
                }
            }
        }
    }

    /// Counts a game the earlier run finished, if it is this job's game; otherwise stops the
    /// run with the mismatch.
    fn count_previous(&mut self, schedule: &mut Schedule<'_>, job: &Job) {
        let Some(previous) = self.settings.previous.get(&job.number) else {
            return;
        };
        match check_previous(self.settings, job) {
            Ok(()) => {
                self.standings.resumed += 1;
                self.count(schedule, job, previous.score);
            }
            Err(m) => {
                self.mismatch = Some(m);
                self.stop = true;
                self.queue.clear();
            }
        }
    }

    /// Counts a played game and tells the caller, or counts it abandoned.
    fn finish<P: GamePlayer>(
        &mut self,
        schedule: &mut Schedule<'_>,
        job: Job,
        game: P::Game,
        on_event: &mut impl FnMut(Event<'_, P::Game>, &Standings) -> Result<(), E>,
    ) {
        let Some(score) = P::ending(&game).score() else {
            self.standings.abandoned += 1;
            return;
        };
        if self.failure.is_some() {
            return;
        }
        self.count(schedule, &job, score);
        let finished = Finished { job, record: game };
        let told = on_event(Event::Game(&finished), &self.standings);
        self.fail(told);
    }

    /// Counts a result in the standings and the Swiss rule, and stops a match whose SPRT has
    /// decided.
    fn count(&mut self, schedule: &mut Schedule<'_>, job: &Job, score: GameScore) {
        self.standings
            .record(job.first, job.second, job.pair, score);
        if let Schedule::Swiss(rule) = schedule {
            rule.record(job.first, job.second, score);
        }
        self.judge_sprt();
    }

    /// Stops a match whose SPRT has decided.
    ///
    /// The test is decided only between pairs (or when no game has a partner), so that the
    /// statistic that stops the match is the one the final report shows: with games in
    /// parallel an odd count would otherwise be judged on single games, which with lopsided
    /// results can cross a bound that the pairs do not.
    fn judge_sprt(&mut self) {
        if let Some(sprt) = &self.settings.sprt
            && self.settings.names.len() == 2
            && self.standings.pairs_complete()
            && self.standings.sprt_status(sprt).decision != SprtDecision::Continue
        {
            self.stop = true;
            self.queue.clear();
        }
    }

    /// An error of the caller's handler stops the run.
    fn fail(&mut self, told: Result<(), E>) {
        if let Err(e) = told {
            self.failure = Some(e);
            self.stop = true;
            self.queue.clear();
        }
    }

    /// With nothing queued or running: says a Swiss round is done and pairs the next one.
    /// `false` when there is none (a fixed schedule, the last round played, the run halted).
    fn next_swiss_round<G>(
        &mut self,
        schedule: &mut Schedule<'_>,
        on_event: &mut impl FnMut(Event<'_, G>, &Standings) -> Result<(), E>,
    ) -> bool {
        let Schedule::Swiss(rule) = schedule else {
            return false;
        };
        if self.round_open {
            self.round_open = false;
            let told = on_event(Event::RoundDone { round: self.round }, &self.standings);
            self.fail(told);
        }
        if self.halted() || self.round >= self.settings.rounds {
            return false;
        }
        self.round += 1;
        let round = self.round;
        let paired = rule.pair(round, &self.standings);
        if let Some(p) = paired.bye {
            self.standings.byes[p] += self.settings.games;
        }
        for &(a, b) in &paired.encounters {
            self.queue.extend(self.jobs.encounter(round, a, b));
        }
        self.round_open = true;
        let told = on_event(
            Event::RoundPaired {
                round,
                bye: paired.bye,
            },
            &self.standings,
        );
        self.fail(told);
        true
    }
}

/// Checks that the earlier run's game of this number, if any, is this job's game.
fn check_previous(settings: &Settings, job: &Job) -> Result<(), ScheduleMismatch> {
    let Some(previous) = settings.previous.get(&job.number) else {
        return Ok(());
    };
    let (first, second) = (&settings.names[job.first], &settings.names[job.second]);
    if previous.round == job.round && previous.first == *first && previous.second == *second {
        Ok(())
    } else {
        Err(ScheduleMismatch {
            number: job.number,
            previous: previous.clone(),
            now: (job.round, first.clone(), second.clone()),
        })
    }
}
