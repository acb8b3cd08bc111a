//! What a match or tournament knows so far: each player's results, and for a two-player match
//! its results from the first player's side, counted by game and by game pair (the same
//! opening with both colours), which the pentanomial model and the SPRT read.

use crate::stats::{Pentanomial, Sprt, SprtStatus, Wdl};

/// A game's result from the side of its first mover (Red in Xiangqi, White in chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// The first mover won.
    FirstWins,
    /// A draw.
    Draw,
    /// The second mover won.
    SecondWins,
    /// No result (both engines failed): counted as finished, scored for nobody.
    Unfinished,
}

/// What the tournament knows so far.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    /// Per player: results against everyone.
    pub players: Vec<Wdl>,
    /// Per player: bye points (Swiss).
    pub byes: Vec<u32>,
    /// Two-engine matches: results of player 0 against player 1.
    pub first: Wdl,
    /// Two-engine matches: complete game pairs from player 0's side.
    pub pairs: Pentanomial,
    /// Games finished.
    pub finished: usize,
    /// Games without a result (both engines failed).
    pub unfinished: usize,
    /// Games of an earlier run counted rather than played.
    pub resumed: usize,
    /// Games in progress when the run was interrupted: neither counted nor written.
    pub abandoned: usize,
    /// The interrupt stopped the run before its schedule was done (games abandoned or never
    /// started); an interrupt after the last game does not count.
    pub interrupted: bool,
    /// Player 0's half-points in pairs waiting for their second game, by pair id.
    open_pairs: Vec<(usize, usize)>,
}

impl Standings {
    /// `true` when no finished game waits for its partner (the other colour of its opening).
    #[must_use]
    pub fn pairs_complete(&self) -> bool {
        self.open_pairs.is_empty()
    }

    /// The standings of `n` players before any game.
    #[must_use]
    pub fn new(n: usize) -> Standings {
        Standings {
            players: vec![Wdl::default(); n],
            byes: vec![0; n],
            ..Standings::default()
        }
    }

    /// Points of a player, byes included.
    #[must_use]
    pub fn points(&self, p: usize) -> f64 {
        self.players[p].points() + f64::from(self.byes[p])
    }

    /// Counts a game of `first` (who moved first: Red, White) against `second`, with `score`
    /// from `first`'s side. `pair` names the opening the two games of a pair share: in a
    /// two-player match, the second game of a pair completes it and feeds [`Standings::pairs`].
    pub fn record(&mut self, first: usize, second: usize, pair: usize, score: GameScore) {
        self.finished += 1;
        let half_first_mover = match score {
            GameScore::FirstWins => {
                self.players[first].wins += 1;
                self.players[second].losses += 1;
                2
            }
            GameScore::SecondWins => {
                self.players[second].wins += 1;
                self.players[first].losses += 1;
                0
            }
            GameScore::Draw => {
                self.players[first].draws += 1;
                self.players[second].draws += 1;
                1
            }
            GameScore::Unfinished => {
                self.unfinished += 1;
                return;
            }
        };
        if self.players.len() == 2 {
            let half = if first == 0 {
                half_first_mover
            } else {
                2 - half_first_mover
            };
            match half {
                2 => self.first.wins += 1,
                1 => self.first.draws += 1,
                _ => self.first.losses += 1,
            }
            if let Some(i) = self.open_pairs.iter().position(|&(id, _)| id == pair) {
                let (_, earlier) = self.open_pairs.swap_remove(i);
                self.pairs.add(earlier + half);
            } else {
                self.open_pairs.push((pair, half));
            }
        }
    }

    /// The SPRT `sprt` on a two-player match: on its complete game pairs when it has any (a game waiting for its
    /// partner is left out), otherwise on games. The match stops only between pairs
    /// (`judge_sprt`), and a game still in flight then finishes after the stop without changing
    /// the verdict the final report shows.
    #[must_use]
    pub fn sprt_status(&self, sprt: &Sprt) -> SprtStatus {
        if self.pairs.pairs() > 0 {
            sprt.status_pentanomial(&self.pairs)
        } else {
            sprt.status_trinomial(&self.first)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::SprtDecision;

    #[test]
    fn a_game_finishing_after_the_stop_keeps_the_verdict_of_the_pairs() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 15.0,
            alpha: 0.05,
            beta: 0.1,
        };
        // 70 pairs, most won 2-0 or 1.5-0.5: the pairs accept H1.
        let mut s = Standings::new(2);
        s.pairs = Pentanomial([0, 0, 10, 20, 40]);
        s.first = Wdl {
            wins: 100,
            draws: 40,
            losses: 0,
        };
        let stopped = s.sprt_status(&sprt);
        assert_eq!(stopped.decision, SprtDecision::AcceptH1);
        // The game in flight on the other slot finishes after the stop (a loss).
        s.first.losses += 1;
        let reported = s.sprt_status(&sprt);
        assert_eq!(reported.decision, stopped.decision);
        assert!((reported.llr - stopped.llr).abs() < 1e-12);
        // Without pairs (no game has a partner) the test is on games.
        let mut single = Standings::new(2);
        single.first = s.first;
        assert_eq!(
            single.sprt_status(&sprt).llr,
            sprt.status_trinomial(&s.first).llr
        );
    }

    #[test]
    fn games_count_by_player_and_by_pair() {
        let mut s = Standings::new(2);
        s.record(0, 1, 0, GameScore::FirstWins);
        s.record(1, 0, 0, GameScore::Draw);
        s.record(0, 1, 1, GameScore::SecondWins);
        s.record(1, 0, 2, GameScore::Unfinished);
        assert_eq!(s.pairs.0, [0, 0, 0, 1, 0]);
        assert!(!s.pairs_complete(), "pair 1 waits for its second game");
        assert_eq!((s.first.wins, s.first.draws, s.first.losses), (1, 1, 1));
        assert_eq!((s.finished, s.unfinished), (4, 1));
        assert_eq!(s.points(0), 1.5);
    }
}
