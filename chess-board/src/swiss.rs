//! The contest's Swiss system (三、赛制): pairing, colours, byes, scoring and the final table.
//!
//! - **Round 1** is paired at random ("比赛开始首先随机编排进行一轮积分赛"), colours drawn at
//!   random ("第一轮比赛随机决定先后手"); the seed makes it repeatable.
//! - **Later rounds**: players ranked by points (then by their order on the command line) are
//!   paired top-down with the best-placed opponent possible by the match kit's
//!   [`swiss_pairs`] (backtracking). The constraints, relaxed in this order when no pairing
//!   satisfies them: no rematch at all (the Swiss system's usual rule); then only the contest's
//!   own rule, that a pair who drew in a round do not meet in the next one
//!   ("若在某一轮积分赛中产生平局,则平局的双方即使积分相近也不会在下一轮比赛中作为对手"); then none.
//! - **Colours**: "以每个队伍先后手次数尽量相等为原则": the player who had White fewer times than
//!   Black (relative to the other) gets White; if equal, the one who had Black last; if still
//!   equal, the higher-ranked player in odd rounds and the lower-ranked in even ones.
//! - **Bye**: with an odd number, a player who has not had a bye sits out and scores a win, 2
//!   points, with no opponent score ("此时该队伍记为胜利,获得2积分,但不会得到对手分。
//!   每个队伍最多只会有一次轮空"): in round 1 the last one drawn; later the lowest-ranked one whose
//!   absence lets the others be paired under the strictest constraint above. Once everyone had
//!   one, anyone may get a second, lowest-ranked first.
//! - **Scoring**: win 2, draw 1, loss 0. **Opponent score** (对手分, Buchholz): the sum of the
//!   final points of every opponent met; a bye adds nothing. The table ranks by points, then
//!   opponent score; players equal in both share a rank.
//!
//! The tournament is played by the match kit's runner, which asks this rule for each round
//! through [`Pairing`] and tells it each result; [`Swiss`] keeps the table.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::Write as _;

use chariot_matchkit::pairing::{self, SwissPairing, swiss_pairs};
use chariot_matchkit::standings::{GameScore, Standings};
use chariot_matchkit::stats::Wdl;
use shakmaty::Color;

/// Points for a win, a draw, a bye.
pub const WIN: u32 = 2;
/// Points for a draw.
pub const DRAW: u32 = 1;

/// A small deterministic random number generator (SplitMix64), enough for drawing the first
/// round; a crate would be more than the job needs.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`); the tiny modulo bias does not matter here.
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap_or(0)
    }
}

/// One round's pairings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// 1-based round number.
    pub number: u32,
    /// The games as (White, Black) player indices.
    pub games: Vec<(usize, usize)>,
    /// The player who sits out, if any.
    pub bye: Option<usize>,
}

/// A player's line in the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's index.
    pub player: usize,
    /// 1-based rank; players equal in points and opponent score share one.
    pub rank: usize,
    /// Points, byes included.
    pub points: u32,
    /// Opponent score: the sum of the opponents' points.
    pub opponents: u32,
    /// Games won, drawn, lost (byes not included).
    pub wdl: Wdl,
    /// Byes.
    pub byes: u32,
    /// Games with White.
    pub whites: u32,
    /// Games with Black.
    pub blacks: u32,
}

/// A Swiss tournament's state between rounds.
#[derive(Clone, Debug)]
pub struct Swiss {
    wdl: Vec<Wdl>,
    byes: Vec<u32>,
    opponents: Vec<Vec<usize>>,
    whites: Vec<u32>,
    blacks: Vec<u32>,
    last_colour: Vec<Option<Color>>,
    met: HashSet<(usize, usize)>,
    drawn_last_round: HashSet<(usize, usize)>,
    round: u32,
    rng: Rng,
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

impl Swiss {
    /// A tournament of `players` players; `seed` draws the first round.
    ///
    /// # Panics
    ///
    /// When there are fewer than two players.
    #[must_use]
    pub fn new(players: usize, seed: u64) -> Swiss {
        assert!(players >= 2, "a Swiss tournament needs two players");
        Swiss {
            wdl: vec![Wdl::default(); players],
            byes: vec![0; players],
            opponents: vec![Vec::new(); players],
            whites: vec![0; players],
            blacks: vec![0; players],
            last_colour: vec![None; players],
            met: HashSet::new(),
            drawn_last_round: HashSet::new(),
            round: 0,
            rng: Rng(seed),
        }
    }

    /// The number of players.
    #[must_use]
    pub fn players(&self) -> usize {
        self.wdl.len()
    }

    /// A player's points: 2 a win or bye, 1 a draw.
    #[must_use]
    pub fn points(&self, p: usize) -> u32 {
        let w = &self.wdl[p];
        WIN * (w.wins + self.byes[p]) + DRAW * w.draws
    }

    /// A player's opponent score: the sum of its opponents' points (byes add nothing).
    #[must_use]
    pub fn opponent_score(&self, p: usize) -> u32 {
        self.opponents[p].iter().map(|&o| self.points(o)).sum()
    }

    /// Players by points, then command-line order.
    fn ranked(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players()).collect();
        order.sort_by(|&a, &b| self.points(b).cmp(&self.points(a)).then(a.cmp(&b)));
        order
    }

    /// Pairs the next round. The bye, if any, is scored at once.
    pub fn pair_next(&mut self) -> Round {
        self.round += 1;
        let number = self.round;
        let n = self.players();
        let mut order = if number == 1 {
            // Fisher-Yates with the seeded generator.
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                let j = self.rng.below(i + 1);
                order.swap(i, j);
            }
            order
        } else {
            self.ranked()
        };
        let (bye, pairs) = if number == 1 {
            // The draw: the last of the shuffled order sits out, the rest pair in turn.
            let bye = (n % 2 == 1).then(|| order[n - 1]);
            order.truncate(n - n % 2);
            (bye, order.chunks(2).map(|c| (c[0], c[1])).collect())
        } else {
            self.pair_ranked(&order)
        };
        if let Some(p) = bye {
            self.byes[p] += 1;
        }
        let games = pairs
            .into_iter()
            .map(|(a, b)| {
                let a_white = if number == 1 {
                    self.rng.next() & 1 == 0
                } else {
                    self.a_gets_white(a, b, number)
                };
                let (white, black) = if a_white { (a, b) } else { (b, a) };
                self.whites[white] += 1;
                self.blacks[black] += 1;
                self.last_colour[white] = Some(Color::White);
                self.last_colour[black] = Some(Color::Black);
                self.met.insert(key(a, b));
                self.opponents[a].push(b);
                self.opponents[b].push(a);
                (white, black)
            })
            .collect();
        self.drawn_last_round.clear();
        Round { number, games, bye }
    }

    /// Chooses the bye (with an odd number) and pairs the rest of `order` (best first).
    ///
    /// The bye goes to the lowest-ranked player who has had none (to anyone, lowest first, once
    /// all have had one), and among those to the lowest-ranked one whose absence lets the
    /// others be paired under the strictest constraint possible: no rematch, else no pair that
    /// drew in the last round, else none. A bye twice is never given to keep a constraint.
    fn pair_ranked(&self, order: &[usize]) -> (Option<usize>, Vec<(usize, usize)>) {
        let candidates: Vec<Option<usize>> = if order.len() % 2 == 0 {
            vec![None]
        } else {
            let fresh: Vec<_> = order
                .iter()
                .rev()
                .copied()
                .filter(|&p| self.byes[p] == 0)
                .map(Some)
                .collect();
            if fresh.is_empty() {
                order.iter().rev().copied().map(Some).collect()
            } else {
                fresh
            }
        };
        let none = HashSet::new();
        for forbidden in [&self.met, &self.drawn_last_round, &none] {
            for &bye in &candidates {
                let rest: Vec<usize> = order.iter().copied().filter(|&p| Some(p) != bye).collect();
                if let Some(pairs) = swiss_pairs(&rest, forbidden) {
                    return (bye, pairs);
                }
            }
        }
        // Unreachable: without constraints any even list pairs.
        (candidates[0], Vec::new())
    }

    /// Whether `a` (ranked above `b`) gets White against `b` in round `number`.
    fn a_gets_white(&self, a: usize, b: usize, number: u32) -> bool {
        let balance = |p: usize| i64::from(self.whites[p]) - i64::from(self.blacks[p]);
        match balance(a).cmp(&balance(b)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match (self.last_colour[a], self.last_colour[b]) {
                (Some(Color::Black), Some(Color::White)) => true,
                (Some(Color::White), Some(Color::Black)) => false,
                _ => number % 2 == 1,
            },
        }
    }

    /// Records a game of the current round: `winner` is `None` for a draw.
    pub fn record(&mut self, white: usize, black: usize, winner: Option<Color>) {
        match winner {
            Some(Color::White) => {
                self.wdl[white].wins += 1;
                self.wdl[black].losses += 1;
            }
            Some(Color::Black) => {
                self.wdl[black].wins += 1;
                self.wdl[white].losses += 1;
            }
            None => {
                self.wdl[white].draws += 1;
                self.wdl[black].draws += 1;
                self.drawn_last_round.insert(key(white, black));
            }
        }
    }

    /// The table: by points, then opponent score, then command-line order.
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        let mut order: Vec<usize> = (0..self.players()).collect();
        let sort_key = |p: usize| (self.points(p), self.opponent_score(p));
        order.sort_by(|&a, &b| sort_key(b).cmp(&sort_key(a)).then(a.cmp(&b)));
        let mut out: Vec<Standing> = Vec::new();
        for (i, &p) in order.iter().enumerate() {
            let rank = match out.last() {
                Some(prev) if sort_key(prev.player) == sort_key(p) => prev.rank,
                _ => i + 1,
            };
            out.push(Standing {
                player: p,
                rank,
                points: self.points(p),
                opponents: self.opponent_score(p),
                wdl: self.wdl[p],
                byes: self.byes[p],
                whites: self.whites[p],
                blacks: self.blacks[p],
            });
        }
        out
    }
}

/// The contest's rule as the match kit's runner asks it ([`SwissPairing`]): the runner pairs
/// each round with [`Swiss::pair_next`] and records each result in the [`Swiss`], which the
/// caller reads between rounds for the table (hence the shared cell: the runner and the caller
/// take turns on one thread).
pub struct Pairing<'a>(pub &'a RefCell<Swiss>);

impl SwissPairing for Pairing<'_> {
    /// The contest's own round (its seeded draw, colours and bye); the runner's standings are
    /// not needed, the [`Swiss`] keeps its own points.
    fn pair(&mut self, _round: u32, _standings: &Standings) -> pairing::Round {
        let round = self.0.borrow_mut().pair_next();
        pairing::Round {
            encounters: round.games,
            bye: round.bye,
        }
    }

    fn record(&mut self, first: usize, second: usize, score: GameScore) {
        let winner = match score {
            GameScore::FirstWins => Some(Color::White),
            GameScore::SecondWins => Some(Color::Black),
            GameScore::Draw => None,
            // A chess game always has a result.
            GameScore::Unfinished => return,
        };
        self.0.borrow_mut().record(first, second, winner);
    }
}

/// The table as text: rank, name, points, opponent score, wins, draws, losses, byes, colours.
#[must_use]
pub fn table(names: &[String], swiss: &Swiss) -> String {
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:>4} {:<width$} {:>6} {:>4} {:>3} {:>3} {:>3} {:>3} {:>5}\n",
        "Rank", "Name", "Points", "Opp", "W", "D", "L", "Bye", "W/B"
    );
    for s in swiss.standings() {
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>6} {:>4} {:>3} {:>3} {:>3} {:>3} {:>5}",
            s.rank,
            names[s.player],
            s.points,
            s.opponents,
            s.wdl.wins,
            s.wdl.draws,
            s.wdl.losses,
            s.byes,
            format!("{}/{}", s.whites, s.blacks),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `rounds` rounds where the lower index always wins, except draws between the pairs
    /// `draws` lists.
    fn simulate(n: usize, rounds: u32, seed: u64, draws: &[(usize, usize)]) -> (Swiss, Vec<Round>) {
        let mut swiss = Swiss::new(n, seed);
        let mut played = Vec::new();
        for _ in 0..rounds {
            let round = swiss.pair_next();
            for &(w, b) in &round.games {
                let winner = if draws.contains(&key(w, b)) {
                    None
                } else if w < b {
                    Some(Color::White)
                } else {
                    Some(Color::Black)
                };
                swiss.record(w, b, winner);
            }
            played.push(round);
        }
        (swiss, played)
    }

    #[test]
    fn everyone_plays_once_a_round_and_byes_rotate() {
        for n in 2..=7 {
            let rounds = u32::try_from(n).unwrap() - 1;
            let (swiss, played) = simulate(n, rounds, 7, &[]);
            let mut byes = HashSet::new();
            for round in &played {
                let mut seen: Vec<usize> = round.games.iter().flat_map(|&(w, b)| [w, b]).collect();
                seen.extend(round.bye);
                seen.sort_unstable();
                assert_eq!(seen, (0..n).collect::<Vec<_>>(), "n = {n}");
                assert_eq!(round.bye.is_some(), n % 2 == 1);
                if let Some(p) = round.bye {
                    assert!(byes.insert(p), "second bye for {p}, n = {n}");
                }
            }
            // n - 1 rounds: no rematch needed, colours within one of equal.
            assert_eq!(
                swiss.met.len(),
                played.iter().map(|r| r.games.len()).sum::<usize>()
            );
            for s in swiss.standings() {
                assert!(s.whites.abs_diff(s.blacks) <= 1, "n = {n}: {s:?}");
            }
        }
    }

    #[test]
    fn points_and_opponent_scores() {
        // Three players: every round one bye (2 points, no opponent score).
        let (swiss, played) = simulate(3, 3, 1, &[]);
        let total: u32 = (0..3).map(|p| swiss.points(p)).sum();
        // Three games of 2 points, three byes of 2.
        assert_eq!(total, 12);
        let byes: Vec<_> = played.iter().filter_map(|r| r.bye).collect();
        let mut sorted = byes.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2]);
        for p in 0..3 {
            let expected: u32 = swiss.opponents[p].iter().map(|&o| swiss.points(o)).sum();
            assert_eq!(swiss.opponent_score(p), expected);
            assert_eq!(swiss.opponents[p].len(), 2);
        }
        // 0 beats everyone: 2 wins + bye = 6; 1 beats 2: 4; 2: bye only = 2.
        let table: Vec<_> = swiss
            .standings()
            .iter()
            .map(|s| (s.player, s.points))
            .collect();
        assert_eq!(table, [(0, 6), (1, 4), (2, 2)]);
        assert_eq!(swiss.opponent_score(0), 4 + 2);
        assert_eq!(swiss.opponent_score(2), 6 + 4);
    }

    #[test]
    fn a_drawn_pair_does_not_meet_in_the_next_round() {
        // Two players who draw must meet again (nobody else), even in the next round: the
        // constraint is relaxed only when nothing else is possible.
        let (_, played) = simulate(2, 2, 0, &[(0, 1)]);
        assert_eq!(played[1].games.len(), 1);
        // Four players, five rounds (more than n - 1, so rematches come): a pair that drew is
        // never paired in the round right after.
        for seed in 0..20 {
            let draws = [(0, 1), (2, 3), (0, 2), (1, 3)];
            let (_, played) = simulate(4, 5, seed, &draws);
            for pair in played.windows(2) {
                for &(w, b) in &pair[0].games {
                    if draws.contains(&key(w, b)) {
                        assert!(
                            !pair[1].games.iter().any(|&(x, y)| key(x, y) == key(w, b)),
                            "seed {seed}: drawn pair {w}-{b} met again in round {}",
                            pair[1].number
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn all_draws_never_repeat_a_pairing_in_the_next_round() {
        // Five players, every game drawn: each round's pairs drew, so none may meet in the next
        // round, and nobody gets a second bye.
        for seed in 0..30 {
            let mut swiss = Swiss::new(5, seed);
            let mut previous: Vec<(usize, usize)> = Vec::new();
            let mut byes = HashSet::new();
            for _ in 0..5 {
                let round = swiss.pair_next();
                assert!(byes.insert(round.bye.unwrap()), "seed {seed}: {round:?}");
                for &(w, b) in &round.games {
                    assert!(!previous.contains(&key(w, b)), "seed {seed}: {round:?}");
                    swiss.record(w, b, None);
                }
                previous = round.games.iter().map(|&(w, b)| key(w, b)).collect();
            }
            // Five rounds of five players with a bye each: a complete round robin.
            assert_eq!(swiss.met.len(), 10, "seed {seed}");
        }
    }

    #[test]
    fn shared_ranks_and_table_text() {
        let mut swiss = Swiss::new(2, 3);
        let round = swiss.pair_next();
        let (w, b) = round.games[0];
        swiss.record(w, b, None);
        let standings = swiss.standings();
        assert_eq!(standings[0].rank, 1);
        assert_eq!(standings[1].rank, 1);
        let text = table(&["A".to_owned(), "B".to_owned()], &swiss);
        assert!(
            text.contains("   1 A         1    1   0   1   0   0"),
            "{text}"
        );
    }

    #[test]
    fn the_first_round_depends_on_the_seed() {
        let firsts: HashSet<Vec<(usize, usize)>> = (0..10)
            .map(|s| Swiss::new(6, s).pair_next().games)
            .collect();
        assert!(firsts.len() > 1);
        assert_eq!(Swiss::new(6, 5).pair_next(), Swiss::new(6, 5).pair_next());
    }
}
