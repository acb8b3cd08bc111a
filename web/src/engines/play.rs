//! An external engine as the opponent of a game: one search a move, within the game's limits,
//! and what it plays judged by the rules core.
//!
//! The engine is sent the game from its start (UCI) or from the last capture with the banned
//! moves (UCCI), and `go` with the game's clocks (when it has one) and the limits chosen for it
//! (a time per move, a depth, nodes; none: its full strength). It is sent `stop` when its time
//! is up (the clock's time left, the time per move and a margin, and never later than the
//! server's longest think) and loses on time when no answer comes within the grace after that.
//! An illegal move loses, as does no move (`bestmove (none)`, `nobestmove`) while there are
//! moves, a resignation, a crash or a malformed answer (the engine failed); a move that repeats
//! a position by its own perpetual check or chase is played and loses by that rule.

use std::sync::Arc;
use std::time::Duration;

use chariot_matchkit::clock::{Clock as KitClock, TimeControl};
use chariot_matchkit::engine::{EngineScore, Failure};
use chariot_matchkit::search::{Clocks, Limits};
use chariot_rules::{EndReason, Ending, Move, Position};
use serde::Serialize;

use super::lines::{EngineLines, Judged, judge_move};
use super::{External, ExternalError};

/// How long after its time per move an engine is sent `stop`: it stops by itself at that time,
/// and a `stop` crossing its answer would reach it idle (where a UCCI engine answers it with a
/// `nobestmove` of its own).
pub const STOP_MARGIN: Duration = Duration::from_millis(300);

/// The longest an engine may think when the person offers a draw and it judges the position.
pub const DRAW_THINK: Duration = Duration::from_secs(2);

/// The limits a game puts on an external engine besides the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayLimits {
    /// Milliseconds per move (`go movetime`).
    pub movetime: Option<u64>,
    /// Depth per move (`go depth`).
    pub depth: Option<u32>,
    /// Nodes per move (`go nodes`).
    pub nodes: Option<u64>,
}

/// The game's clock as the engine is told it.
#[derive(Clone, Copy, Debug)]
pub struct ClockTimes {
    /// The engine's time left.
    pub own: Duration,
    /// The person's time left.
    pub opp: Duration,
    /// The increment after each move.
    pub increment: Duration,
}

/// What the engine said with its move.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Its last score, for the side to move.
    pub score: Option<EngineScore>,
    /// Its last depth.
    pub depth: Option<u32>,
    /// Its last node count.
    pub nodes: Option<u64>,
    /// It said the move came from its book.
    pub book: bool,
    /// From `go` to the answer.
    pub elapsed: Duration,
}

/// What came of the engine's turn.
#[derive(Debug)]
pub enum Turn {
    /// It played a legal move; `ending` when the move loses by a forbidden repetition.
    Played {
        /// The move.
        mv: Move,
        /// What it said.
        answer: Answer,
        /// The game's end the move brings, when it is a forbidden repetition.
        ending: Option<Ending>,
    },
    /// The game ends without a move: it failed, resigned, gave none, or played an illegal one.
    Ended(Ending),
}

/// An external engine playing one side of a game.
pub struct Opponent {
    engine: Arc<External>,
    limits: PlayLimits,
}

impl Opponent {
    /// `engine` playing within `limits`.
    #[must_use]
    pub fn new(engine: Arc<External>, limits: PlayLimits) -> Opponent {
        Opponent { engine, limits }
    }

    /// The engine's name on the server.
    #[must_use]
    pub fn name(&self) -> &str {
        self.engine.name()
    }

    /// The engine's `id name`, once it has started.
    #[must_use]
    pub fn id_name(&self) -> Option<String> {
        self.engine.snapshot().known.and_then(|k| k.id_name)
    }

    /// The limits it plays within.
    #[must_use]
    pub fn limits(&self) -> PlayLimits {
        self.limits
    }

    /// The engine's move in `position`, reached by `moves` from `start`; blocks while it
    /// thinks, at most `cap` (and the grace).
    #[must_use]
    pub fn reply(
        &self,
        start: &Position,
        moves: &[Move],
        position: &Position,
        clock: Option<ClockTimes>,
        cap: Duration,
    ) -> Turn {
        let mover = position.turn();
        let lost = |reason| Turn::Ended(Ending::win(mover.opponent(), reason));
        let mut lease = match self.engine.lease(&[]) {
            Ok(lease) => lease,
            Err(e) => return lost(EndReason::EngineFailure(failure_text(&e))),
        };
        let lines = EngineLines::new(lease.known(), start, moves);
        let naming = lines.naming();
        let kit = clock.map(|c| {
            let set = |left: Duration| {
                KitClock::new(TimeControl {
                    moves: None,
                    base: left,
                    increment: c.increment,
                })
            };
            (set(c.own), set(c.opp))
        });
        let clocks = kit.as_ref().map(|(own, opp)| Clocks {
            own,
            opp,
            first_to_move: mover.is_red(),
        });
        let mut stop_after = cap;
        if let Some(ms) = self.limits.movetime {
            stop_after = stop_after.min(Duration::from_millis(ms) + STOP_MARGIN);
        }
        if let Some(c) = clock {
            stop_after = stop_after.min(c.own);
        }
        let grace = self.engine.spec().config.grace;
        let search = lines.search(
            clocks,
            self.limits.kit(),
            Some(stop_after),
            Some(stop_after + grace),
            None,
        );
        let mut nodes = None;
        let reply = lease.run(|engine| {
            engine.search(&search, &mut |info| {
                if info.bound.is_none() {
                    nodes = info.nodes.or(nodes);
                }
            })
        });
        let reply = match reply {
            Ok(reply) => reply,
            Err(Failure::Timeout) => return lost(EndReason::TimeForfeit),
            Err(f) => return lost(EndReason::EngineFailure(f.to_string())),
        };
        if reply.resign {
            return lost(EndReason::Resignation);
        }
        let Some(text) = reply.mv.as_deref() else {
            return lost(EndReason::NoMove);
        };
        let answer = Answer {
            score: reply.score,
            depth: reply.depth,
            nodes,
            book: reply.book,
            elapsed: reply.elapsed,
        };
        match judge_move(position, text, naming) {
            Judged::Move(mv) => Turn::Played {
                mv,
                answer,
                ending: None,
            },
            Judged::Forbidden(mv, ending) => Turn::Played {
                mv,
                answer,
                ending: Some(ending),
            },
            Judged::Illegal => lost(EndReason::IllegalMove(text.to_owned())),
        }
    }

    /// The engine's score for the side to move of the position reached by `moves` from
    /// `start`, in centipawns (a mate as ±(30000 − distance)), after a search within its limits
    /// and at most [`DRAW_THINK`] (and `cap`); `None` when it gives none or fails.
    #[must_use]
    pub fn evaluate(&self, start: &Position, moves: &[Move], cap: Duration) -> Option<i32> {
        let mut lease = self.engine.lease(&[]).ok()?;
        let lines = EngineLines::new(lease.known(), start, moves);
        let think = cap.min(DRAW_THINK);
        let limits = Limits {
            movetime: Some(
                self.limits
                    .movetime
                    .map_or(think, Duration::from_millis)
                    .min(think),
            ),
            ..self.limits.kit()
        };
        let grace = self.engine.spec().config.grace;
        let search = lines.search(
            None,
            limits,
            Some(think + STOP_MARGIN),
            Some(think + STOP_MARGIN + grace),
            None,
        );
        let reply = lease
            .run(|engine| engine.search(&search, &mut |_| {}))
            .ok()?;
        reply.score.map(EngineScore::as_cp)
    }
}

impl PlayLimits {
    /// The kit's limits of one move.
    fn kit(self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            infinite: false,
        }
    }
}

/// What went wrong, without the engine's name (the ending names the side).
fn failure_text(e: &ExternalError) -> String {
    match e {
        ExternalError::Start { failure, .. } | ExternalError::Failed { failure, .. } => {
            failure.clone()
        }
        other => other.to_string(),
    }
}
