//! The league's games behind the match kit's runner.
//!
//! The schedule (round robin, Swiss, gauntlet; each opening played twice in a row with the
//! colours swapped), the `concurrency` game threads, resuming from an earlier run's games, the
//! SPRT stop and the standings are the kit's (`chariot_matchkit::runner`, `docs/league.md`).
//! What is the league's: [`Xiangqi`] plays a game of the schedule between two UCCI/UCI engines
//! with the Asian rules' referee ([`crate::game::play`]), Red in the first seat, and the Swiss
//! rule is the kit's [`PointsSwiss`]: ranked by points, paired with the best-ranked opponent
//! not met, Red first for the one that had it less often, a bye scored as a won encounter.

use std::sync::Arc;

use chariot_formats::egtb::Tablebases;
use chariot_matchkit::client::EngineConfig;
use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::pairing::PointsSwiss;
use chariot_matchkit::runner::{self, GamePlayer};
use chariot_matchkit::schedule::{Job, Schedule};

use crate::game::{self, Adjudication, Ending, GameSpec, PlayedGame};
use crate::openings::Opening;
use crate::referee::Referee;

/// The kind of tournament (the match kit's).
pub use chariot_matchkit::schedule::Kind;

/// A finished game of the league with its place in the tournament.
pub type Finished = runner::Finished<PlayedGame>;

/// An engine in the tournament.
#[derive(Clone, Debug)]
pub struct Player {
    /// Its unique name.
    pub name: String,
    /// How to run it.
    pub config: EngineConfig,
}

/// What every game of the league needs besides its two engines.
pub struct Games {
    /// Openings (at least one), by the index the schedule gives.
    pub openings: Vec<Opening>,
    /// The rules.
    pub referee: Arc<dyn Referee>,
    /// Adjudication.
    pub adjudication: Adjudication,
    /// Endgame tablebases for adjudication (`--egtb`).
    pub tablebases: Option<Tablebases>,
    /// Print engine traffic to standard error.
    pub debug: bool,
}

/// The league's [`GamePlayer`]: Xiangqi games between the players' engines.
pub struct Xiangqi<'a> {
    /// The engines, by the indices the schedule gives.
    pub players: &'a [Player],
    /// What every game needs.
    pub games: &'a Games,
}

impl GamePlayer for Xiangqi<'_> {
    type Game = PlayedGame;
    type Ending = Ending;

    fn play(&self, job: &Job, interrupt: &Interrupt) -> PlayedGame {
        let (red, black) = (&self.players[job.first], &self.players[job.second]);
        let g = self.games;
        game::play(&GameSpec {
            red: (&red.config, &red.name),
            black: (&black.config, &black.name),
            opening: &g.openings[job.opening],
            referee: g.referee.as_ref(),
            adjudication: g.adjudication,
            tablebases: g.tablebases.as_ref(),
            trace: g.debug.then(|| format!("[game {}]", job.number)),
            interrupt,
        })
    }

    fn ending(game: &PlayedGame) -> &Ending {
        &game.ending
    }
}

/// The schedule of `kind` for `players` engines meeting in encounters of `games` games.
#[must_use]
pub fn schedule(kind: Kind, players: usize, games: u32) -> Schedule<'static> {
    match kind {
        Kind::RoundRobin => Schedule::RoundRobin,
        Kind::Gauntlet => Schedule::Gauntlet,
        Kind::Swiss => Schedule::Swiss(Box::new(PointsSwiss::new(players, games))),
    }
}
