//! The paired runner with a fake game: no processes, results decided by the job alone (so that
//! any order of play gives the same standings), and a record of what was played.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

use chariot_matchkit::ending::GameEnding;
use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::pairing::PointsSwiss;
use chariot_matchkit::runner::{self, Event, GamePlayer, Previous, RunError, Settings};
use chariot_matchkit::schedule::{Job, Schedule};
use chariot_matchkit::standings::{GameScore, Standings};
use chariot_matchkit::stats::{Sprt, SprtDecision};

/// A fake game's ending: its score, `None` for an abandoned game.
#[derive(Clone, Copy, Debug)]
struct Fake(Option<GameScore>);

impl fmt::Display for Fake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl GameEnding for Fake {
    fn score(&self) -> Option<GameScore> {
        self.0
    }

    fn pgn_termination(&self) -> &'static str {
        "normal"
    }
}

/// A player whose results come from `rule`; it sleeps a little, differently for each game, so
/// that with several threads games finish out of order.
struct Player {
    rule: fn(&Job) -> GameScore,
    played: Mutex<Vec<Job>>,
    /// Raise the interrupt during this game (which then comes back abandoned).
    interrupt_at: Option<usize>,
    /// Panic in this game.
    panic_at: Option<usize>,
}

impl Player {
    fn new(rule: fn(&Job) -> GameScore) -> Player {
        Player {
            rule,
            played: Mutex::new(Vec::new()),
            interrupt_at: None,
            panic_at: None,
        }
    }

    fn played(&self) -> Vec<Job> {
        let mut jobs = self.played.lock().unwrap().clone();
        jobs.sort_by_key(|j| j.number);
        jobs
    }
}

impl GamePlayer for Player {
    type Game = Fake;
    type Ending = Fake;

    fn play(&self, job: &Job, interrupt: &Interrupt) -> Fake {
        std::thread::sleep(Duration::from_millis(2 * (job.number * 7 % 5) as u64));
        assert_ne!(self.panic_at, Some(job.number), "the fake player panics");
        self.played.lock().unwrap().push(*job);
        if self.interrupt_at == Some(job.number) {
            interrupt.raise(2);
        }
        if interrupt.is_set() {
            return Fake(None);
        }
        Fake(Some((self.rule)(job)))
    }

    fn ending(game: &Fake) -> &Fake {
        game
    }
}

/// The lower-numbered player wins, whatever the seats.
fn lower_wins(job: &Job) -> GameScore {
    if job.first < job.second {
        GameScore::FirstWins
    } else {
        GameScore::SecondWins
    }
}

/// The first seat wins on even openings, the rest are drawn: every pair scores 1 of 2.
fn seat_and_opening(job: &Job) -> GameScore {
    if job.opening.is_multiple_of(2) {
        GameScore::FirstWins
    } else {
        GameScore::Draw
    }
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("P{i}")).collect()
}

fn settings(players: usize, games: u32, rounds: u32, concurrency: usize) -> Settings {
    Settings {
        names: names(players),
        games,
        rounds,
        openings: 3,
        concurrency,
        ..Settings::default()
    }
}

/// Runs and collects the events: `R+N` a round paired, `R-N` a round done, game numbers.
fn run(
    player: &Player,
    schedule: Schedule<'_>,
    settings: &Settings,
) -> (Result<Standings, RunError<String>>, Vec<String>, Vec<Job>) {
    let mut events = Vec::new();
    let mut finished = Vec::new();
    let result = runner::run(player, schedule, settings, |event, standings| {
        match event {
            Event::RoundPaired { round, .. } => events.push(format!("R+{round}")),
            Event::RoundDone { round } => events.push(format!("R-{round}")),
            Event::Game(f) => {
                assert_eq!(standings.finished, finished.len() + standings.resumed + 1);
                events.push(f.job.number.to_string());
                finished.push(f.job);
            }
        }
        Ok(())
    });
    (result, events, finished)
}

fn same_standings(a: &Standings, b: &Standings) {
    assert_eq!(a.players, b.players);
    assert_eq!(a.byes, b.byes);
    assert_eq!(a.first, b.first);
    assert_eq!(a.pairs, b.pairs);
    assert_eq!((a.finished, a.unfinished), (b.finished, b.unfinished));
}

#[test]
fn a_round_robin_meets_every_pair_with_both_seats_and_paired_openings() {
    let player = Player::new(lower_wins);
    let (result, events, finished) = run(&player, Schedule::RoundRobin, &settings(4, 2, 2, 1));
    let standings = result.unwrap();
    // Six encounters, two games each, two rounds.
    assert_eq!(finished.len(), 24);
    assert!(events.iter().all(|e| !e.starts_with('R')), "{events:?}");
    let numbers: Vec<usize> = finished.iter().map(|j| j.number).collect();
    assert_eq!(
        numbers,
        (1..=24).collect::<Vec<_>>(),
        "one thread: in order"
    );
    let mut meetings: HashMap<(usize, usize), u32> = HashMap::new();
    let mut firsts = [0; 4];
    for j in &finished {
        *meetings
            .entry((j.first.min(j.second), j.first.max(j.second)))
            .or_default() += 1;
        firsts[j.first] += 1;
    }
    assert_eq!(meetings.len(), 6);
    assert!(meetings.values().all(|&m| m == 4), "{meetings:?}");
    assert_eq!(firsts, [6, 6, 6, 6]);
    // Each pair: one opening, the seats swapped; openings in turn.
    for pair in finished.chunks(2) {
        assert_eq!(pair[0].pair, pair[1].pair);
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].opening, pair[0].pair % 3);
        assert_eq!(
            (pair[0].first, pair[0].second),
            (pair[1].second, pair[1].first)
        );
    }
    // P0 beat everyone, P3 no one.
    let wins: Vec<u32> = standings.players.iter().map(|w| w.wins).collect();
    assert_eq!(wins, [12, 8, 4, 0]);
    assert_eq!(standings.finished, 24);
    assert!(!standings.interrupted);
}

#[test]
fn a_gauntlet_plays_only_the_first_player_against_the_others() {
    let player = Player::new(lower_wins);
    let (result, _, finished) = run(&player, Schedule::Gauntlet, &settings(4, 2, 3, 2));
    let standings = result.unwrap();
    assert_eq!(finished.len(), 3 * 2 * 3);
    assert!(finished.iter().all(|j| j.first == 0 || j.second == 0));
    assert_eq!(standings.players[0].wins, 18);
    for p in 1..4 {
        assert_eq!(standings.players[p].games(), 6);
    }
}

#[test]
fn a_swiss_pairs_each_round_after_the_last_one_and_gives_byes() {
    let player = Player::new(lower_wins);
    let swiss = Schedule::Swiss(Box::new(PointsSwiss::new(5, 2)));
    let (result, events, finished) = run(&player, swiss, &settings(5, 2, 3, 3));
    let standings = result.unwrap();
    // Three rounds of two encounters of two games; one player sits out each round.
    assert_eq!(finished.len(), 12);
    assert_eq!(standings.byes.iter().sum::<u32>(), 3 * 2);
    assert!(
        standings.byes.iter().all(|&b| b <= 2),
        "{:?}",
        standings.byes
    );
    // Each round's games come between its announcements.
    let mut round = 0;
    for e in &events {
        if let Some(r) = e.strip_prefix("R+") {
            round = r.parse().unwrap();
        } else if let Some(r) = e.strip_prefix("R-") {
            assert_eq!(r.parse::<u32>().unwrap(), round);
        } else {
            let n: usize = e.parse().unwrap();
            let job = finished.iter().find(|j| j.number == n).unwrap();
            assert_eq!(job.round, round, "{events:?}");
        }
    }
    assert_eq!(events.first().map(String::as_str), Some("R+1"));
    assert_eq!(events.last().map(String::as_str), Some("R-3"));
    // No rematch in three rounds of five players, and nobody plays twice in a round.
    let mut met = HashSet::new();
    for r in 1..=3 {
        let mut games: Vec<&Job> = finished.iter().filter(|j| j.round == r).collect();
        games.sort_by_key(|j| j.number);
        assert_eq!(games.len(), 4);
        let mut seen = HashSet::new();
        for j in games.iter().step_by(2) {
            assert!(met.insert((j.first.min(j.second), j.first.max(j.second))));
            assert!(seen.insert(j.first) && seen.insert(j.second));
        }
        let places: Vec<usize> = games.iter().map(|j| j.in_round).collect();
        let mut sorted = places.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 2, 3, 4]);
    }
}

#[test]
fn several_threads_give_the_standings_of_one() {
    for schedule in [0, 1, 2] {
        let make = || match schedule {
            0 => Schedule::RoundRobin,
            1 => Schedule::Gauntlet,
            _ => Schedule::Swiss(Box::new(PointsSwiss::new(5, 4))),
        };
        let one = Player::new(seat_and_opening);
        let (a, _, _) = run(&one, make(), &settings(5, 4, 2, 1));
        let four = Player::new(seat_and_opening);
        let (b, _, order) = run(&four, make(), &settings(5, 4, 2, 4));
        same_standings(&a.unwrap(), &b.unwrap());
        assert_eq!(one.played(), four.played(), "the same games");
        if schedule == 0 {
            let numbers: Vec<usize> = order.iter().map(|j| j.number).collect();
            let mut sorted = numbers.clone();
            sorted.sort_unstable();
            assert_ne!(numbers, sorted, "four threads finish out of order");
        }
    }
}

#[test]
fn a_match_tallies_game_pairs_for_the_pentanomial_model() {
    // Seven games: pairs (1, 2), (3, 4), (5, 6) and game 7 without its partner.
    let player = Player::new(seat_and_opening);
    let (result, _, finished) = run(&player, Schedule::RoundRobin, &settings(2, 7, 1, 3));
    let s = result.unwrap();
    assert_eq!(finished.len(), 7);
    // Openings 0, 1, 2: pair 0 and 2 are won by each seat once (1 of 2 points for P0), pair 1
    // is two draws (1 of 2 too); game 7 (opening 0, P0 first) is P0's win, still unpaired.
    assert_eq!(s.pairs.0, [0, 0, 3, 0, 0]);
    assert!(!s.pairs_complete());
    assert_eq!((s.first.wins, s.first.draws, s.first.losses), (3, 2, 2));
    let seats: Vec<(usize, usize)> = player.played().iter().map(|j| (j.first, j.pair)).collect();
    assert_eq!(
        seats,
        [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3)]
    );
}

#[test]
fn resume_counts_the_earlier_games_and_plays_the_rest() {
    let full_player = Player::new(lower_wins);
    let (full, _, played) = run(&full_player, Schedule::RoundRobin, &settings(3, 2, 2, 2));
    let full = full.unwrap();
    let names = names(3);
    let mut s = settings(3, 2, 2, 2);
    // The earlier run finished games 1, 2, 5 and 9.
    for j in played.iter().filter(|j| [1, 2, 5, 9].contains(&j.number)) {
        s.previous.insert(
            j.number,
            Previous {
                round: j.round,
                first: names[j.first].clone(),
                second: names[j.second].clone(),
                score: lower_wins(j),
            },
        );
    }
    let player = Player::new(lower_wins);
    let (resumed, _, finished) = run(&player, Schedule::RoundRobin, &s);
    let resumed = resumed.unwrap();
    assert_eq!(resumed.resumed, 4);
    assert_eq!(finished.len(), played.len() - 4);
    assert!(
        player
            .played()
            .iter()
            .all(|j| ![1, 2, 5, 9].contains(&j.number))
    );
    same_standings(&resumed, &full);
    // Other players than the earlier run's: refused before any game.
    let mut other = s.clone();
    other.previous.get_mut(&5).unwrap().first = "Z".to_owned();
    let player = Player::new(lower_wins);
    let (result, _, _) = run(&player, Schedule::RoundRobin, &other);
    match result {
        Err(RunError::Mismatch(m)) => {
            assert_eq!(m.number, 5);
            assert!(
                m.to_string().contains("in the earlier run but is round"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(player.played().is_empty());
}

#[test]
fn a_swiss_resume_is_checked_as_its_rounds_are_paired() {
    let s = settings(4, 2, 2, 1);
    let full_player = Player::new(lower_wins);
    let swiss = || Schedule::Swiss(Box::new(PointsSwiss::new(4, 2)));
    let (full, _, played) = run(&full_player, swiss(), &s);
    let full = full.unwrap();
    let names = names(4);
    let previous = |j: &Job| Previous {
        round: j.round,
        first: names[j.first].clone(),
        second: names[j.second].clone(),
        score: lower_wins(j),
    };
    let mut resume = s.clone();
    for j in played.iter().filter(|j| j.round == 1) {
        resume.previous.insert(j.number, previous(j));
    }
    let player = Player::new(lower_wins);
    let (result, _, _) = run(&player, swiss(), &resume);
    same_standings(&result.unwrap(), &full);
    assert!(player.played().iter().all(|j| j.round == 2));
    // A round-2 game that does not fit: round 1 is played, then the run stops.
    let mut wrong = s.clone();
    let last = played.last().unwrap();
    wrong.previous.insert(
        last.number,
        Previous {
            round: 2,
            ..previous(&played[0])
        },
    );
    let player = Player::new(lower_wins);
    let (result, _, _) = run(&player, swiss(), &wrong);
    assert!(matches!(result, Err(RunError::Mismatch(_))), "{result:?}");
    assert!(
        player
            .played()
            .iter()
            .all(|j| j.round == 1 || j.number < last.number)
    );
}

#[test]
fn the_sprt_stops_a_match_between_pairs() {
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
    };
    // P0 wins every game: H1 is accepted long before game 1000.
    fn p0_wins(job: &Job) -> GameScore {
        if job.first == 0 {
            GameScore::FirstWins
        } else {
            GameScore::SecondWins
        }
    }
    for concurrency in [1, 3] {
        let mut s = settings(2, 1000, 1, concurrency);
        s.sprt = Some(sprt);
        let mut stopped_at = None;
        let player = Player::new(p0_wins);
        let result = runner::run(&player, Schedule::RoundRobin, &s, |_, standings| {
            if stopped_at.is_none()
                && standings.pairs_complete()
                && standings.sprt_status(&sprt).decision != SprtDecision::Continue
            {
                stopped_at = Some(standings.finished);
            }
            Ok::<(), String>(())
        });
        let standings = result.unwrap();
        let at = stopped_at.expect("decided");
        // Decided between pairs, long before the thousandth game (with several threads the
        // pairs are complete at fewer moments, so the verdict can come a few pairs later).
        assert!(at % 2 == 0 && at < 100, "decided after {at} games");
        // Only the games already in progress finish after the verdict.
        assert!(
            standings.finished < at + concurrency,
            "{}",
            standings.finished
        );
        assert_eq!(
            standings.sprt_status(&sprt).decision,
            SprtDecision::AcceptH1
        );
        assert!(!standings.interrupted);
    }
    // More than two players: no SPRT stop.
    let mut s = settings(3, 10, 1, 1);
    s.sprt = Some(sprt);
    let (result, _, finished) = run(&Player::new(p0_wins), Schedule::RoundRobin, &s);
    assert_eq!(finished.len(), 30);
    assert_eq!(result.unwrap().finished, 30);
}

#[test]
fn an_interrupt_abandons_the_game_in_progress_and_starts_no_more() {
    let mut player = Player::new(lower_wins);
    player.interrupt_at = Some(3);
    let s = settings(2, 10, 1, 1);
    let (result, _, finished) = run(&player, Schedule::RoundRobin, &s);
    let standings = result.unwrap();
    assert_eq!(finished.len(), 2, "games 1 and 2 are counted");
    assert_eq!(standings.abandoned, 1);
    assert!(standings.interrupted);
    assert_eq!(player.played().len(), 3);
    assert_eq!(s.interrupt.exit_code(), Some(130));
    // A Swiss interrupted between rounds has rounds left: interrupted too.
    let mut player = Player::new(lower_wins);
    player.interrupt_at = Some(2);
    let s = settings(2, 2, 3, 1);
    let (result, events, _) = run(
        &player,
        Schedule::Swiss(Box::new(PointsSwiss::new(2, 2))),
        &s,
    );
    let standings = result.unwrap();
    assert!(standings.interrupted);
    assert_eq!(
        events,
        ["R+1", "1"],
        "round 1 is not done: game 2 was abandoned"
    );
}

#[test]
fn an_error_of_the_caller_stops_the_run() {
    let player = Player::new(lower_wins);
    let s = settings(2, 20, 1, 2);
    let mut seen = 0;
    let result = runner::run(&player, Schedule::RoundRobin, &s, |event, _| {
        if let Event::Game(_) = event {
            seen += 1;
            if seen == 3 {
                return Err("disk full".to_owned());
            }
        }
        Ok(())
    });
    match result {
        Err(e @ RunError::Observer(_)) => assert_eq!(e.to_string(), "disk full"),
        other => panic!("{other:?}"),
    }
    assert_eq!(seen, 3, "no event after the error");
    assert!(player.played().len() <= 3 + 2, "{}", player.played().len());
}

#[test]
fn too_few_players_or_no_openings_are_errors() {
    let player = Player::new(lower_wins);
    let (result, _, _) = run(&player, Schedule::RoundRobin, &settings(1, 2, 1, 1));
    let e = result.unwrap_err();
    assert!(matches!(e, RunError::Players(1)));
    assert!(e.to_string().contains("two players, got 1"), "{e}");
    let mut s = settings(2, 2, 1, 1);
    s.openings = 0;
    let (result, _, _) = run(&player, Schedule::RoundRobin, &s);
    assert!(matches!(result, Err(RunError::NoOpenings)));
    assert!(player.played().is_empty());
}

#[test]
#[should_panic(expected = "the fake player panics")]
fn a_panicking_player_is_raised_on_the_calling_thread() {
    let mut player = Player::new(lower_wins);
    player.panic_at = Some(4);
    let _ = run(&player, Schedule::RoundRobin, &settings(2, 10, 1, 3));
}
