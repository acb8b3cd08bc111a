//! The schedule: which games a tournament plays, in what order, with which seats and openings.
//!
//! - **Round robin** (two players: a match): every pair of players meets once a round, in the
//!   order of [`round_robin_pairs`], who has the first seat in an encounter's first game
//!   alternating from round to round.
//! - **Gauntlet**: the first player meets every other player once a round; the others do not
//!   play each other.
//! - **Swiss**: a [`SwissPairing`] rule pairs each round when the one before has finished.
//!
//! An encounter is `games` games ([`Jobs::encounter`]): the seats alternate, and each two games
//! in a row make a **pair**, one opening played with the seats swapped, so that the opening's
//! bias cancels out of the pair's total (the pentanomial model). Openings are used in turn, one
//! per pair, over the whole tournament, cycling when they run out. Games are numbered from 1
//! over the whole tournament, and within their round.

use crate::pairing::{SwissPairing, round_robin_pairs};

/// The kind of tournament, as the command lines name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// Everyone against everyone (two players: a match).
    #[default]
    RoundRobin,
    /// Swiss system.
    Swiss,
    /// The first player against each of the others.
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

/// A tournament's schedule: a kind, with the rule that pairs a Swiss round.
pub enum Schedule<'a> {
    /// Everyone against everyone.
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
    /// Rounds paired by this rule as the tournament goes.
    Swiss(Box<dyn SwissPairing + 'a>),
}

impl Schedule<'_> {
    /// The encounters of every round of a fixed schedule (`(a, b)`: `a` has the first seat in
    /// odd rounds), or `None` for a Swiss one.
    #[must_use]
    pub fn fixed_encounters(&self, players: usize) -> Option<Vec<(usize, usize)>> {
        match self {
            Schedule::RoundRobin => Some(round_robin_pairs(players)),
            Schedule::Gauntlet => Some((1..players).map(|b| (0, b)).collect()),
            Schedule::Swiss(_) => None,
        }
    }
}

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The game's number in the tournament, from 1.
    pub number: usize,
    /// Its round, from 1.
    pub round: u32,
    /// Its place in the round, from 1.
    pub in_round: usize,
    /// The player with the first seat (Red in Xiangqi, White in chess).
    pub first: usize,
    /// The player with the second seat.
    pub second: usize,
    /// The opening's index.
    pub opening: usize,
    /// The pair the game belongs to, from 0: the two games of a pair share an opening with the
    /// seats swapped.
    pub pair: usize,
}

/// Makes the games of encounters, numbering them and their pairs as the tournament goes.
#[derive(Clone, Debug)]
pub struct Jobs {
    games: u32,
    openings: usize,
    next_number: usize,
    next_pair: usize,
    round: u32,
    in_round: usize,
}

impl Jobs {
    /// Encounters of `games` games, over `openings` openings (at least one).
    #[must_use]
    pub fn new(games: u32, openings: usize) -> Jobs {
        Jobs {
            games,
            openings: openings.max(1),
            next_number: 1,
            next_pair: 0,
            round: 0,
            in_round: 0,
        }
    }

    /// The games of one encounter of `round`: `a` has the first seat in the first game, the
    /// seats alternate, and each two games in a row share an opening.
    pub fn encounter(&mut self, round: u32, a: usize, b: usize) -> Vec<Job> {
        if round != self.round {
            self.round = round;
            self.in_round = 0;
        }
        let mut out = Vec::new();
        let mut pair = self.next_pair;
        for g in 0..self.games {
            if g % 2 == 0 {
                pair = self.next_pair;
                self.next_pair += 1;
            }
            let (first, second) = if g % 2 == 0 { (a, b) } else { (b, a) };
            self.in_round += 1;
            out.push(Job {
                number: self.next_number,
                round,
                in_round: self.in_round,
                first,
                second,
                opening: pair % self.openings,
                pair,
            });
            self.next_number += 1;
        }
        out
    }

    /// The games of a fixed schedule's `rounds` rounds over `encounters`
    /// ([`Schedule::fixed_encounters`]): in even rounds the other player of each encounter has
    /// the first seat first.
    pub fn fixed(&mut self, encounters: &[(usize, usize)], rounds: u32) -> Vec<Job> {
        let mut out = Vec::new();
        for round in 1..=rounds {
            for &(a, b) in encounters {
                let (a, b) = if round % 2 == 0 { (b, a) } else { (a, b) };
                out.extend(self.encounter(round, a, b));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encounter_pairs_its_games_on_one_opening_with_the_seats_swapped() {
        let mut jobs = Jobs::new(5, 2);
        let games = jobs.encounter(1, 3, 7);
        let seats: Vec<_> = games.iter().map(|j| (j.first, j.second)).collect();
        assert_eq!(seats, [(3, 7), (7, 3), (3, 7), (7, 3), (3, 7)]);
        let pairs: Vec<_> = games.iter().map(|j| (j.pair, j.opening)).collect();
        // Pair 2 waits for a partner that an odd --games never plays; openings cycle.
        assert_eq!(pairs, [(0, 0), (0, 0), (1, 1), (1, 1), (2, 0)]);
        let numbers: Vec<_> = games.iter().map(|j| (j.number, j.in_round)).collect();
        assert_eq!(numbers, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]);
        // The next encounter goes on numbering; a new round starts the count in the round.
        let next = jobs.encounter(2, 0, 1);
        assert_eq!((next[0].number, next[0].in_round, next[0].pair), (6, 1, 3));
        assert_eq!(next[0].opening, 1);
    }

    #[test]
    fn fixed_schedules_swap_who_starts_in_even_rounds() {
        let gauntlet = Schedule::Gauntlet.fixed_encounters(4).unwrap();
        assert_eq!(gauntlet, [(0, 1), (0, 2), (0, 3)]);
        let all = Jobs::new(1, 1).fixed(&gauntlet, 2);
        let seats: Vec<_> = all.iter().map(|j| (j.round, j.first, j.second)).collect();
        assert_eq!(
            seats,
            [
                (1, 0, 1),
                (1, 0, 2),
                (1, 0, 3),
                (2, 1, 0),
                (2, 2, 0),
                (2, 3, 0)
            ]
        );
        assert_eq!(all[3].in_round, 1);
        let rr = Schedule::RoundRobin.fixed_encounters(3).unwrap();
        assert_eq!(rr.len(), 3);
        assert!(
            Schedule::Swiss(Box::new(crate::pairing::PointsSwiss::new(3, 2)))
                .fixed_encounters(3)
                .is_none()
        );
    }

    #[test]
    fn kinds_read_as_the_command_lines_write_them() {
        assert_eq!("match".parse(), Ok(Kind::RoundRobin));
        assert_eq!("round-robin".parse(), Ok(Kind::RoundRobin));
        assert_eq!("swiss".parse(), Ok(Kind::Swiss));
        assert_eq!("gauntlet".parse(), Ok(Kind::Gauntlet));
        let e = "knockout".parse::<Kind>().unwrap_err();
        assert!(e.contains("knockout") && e.contains("gauntlet"), "{e}");
    }
}
