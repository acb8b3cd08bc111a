//! One game between two engines, refereed.
//!
//! The loop: ask the referee whether the game is over; apply the score adjudication rules if
//! any were asked for; end the game as the endgame tablebases say if they cover the position
//! (`--egtb`); otherwise ask the side to move's engine for a move (with the moves the
//! referee forbids, as UCCI `banmoves`), charge its clock, and check the move. Everything an
//! engine can do wrong ends the game against it with the reason recorded: no answer in time,
//! a crash, garbage, an illegal move, `nobestmove` with moves left. Nothing an engine does can
//! make the loop wait longer than its clock plus the grace, and its process is gone when the
//! game returns. An interrupt of the run ([`Interrupt`]) ends the game within a fraction of a
//! second, without a result.

use std::time::{Duration, SystemTime};

use chariot_formats::egtb::{Metric, Tablebases, Value};
use chariot_rules::{Color, Move, Position};

use crate::engine::Line;
use crate::engine::{Engine, Think};
use crate::openings::Opening;
use crate::referee::Referee;
use chariot_matchkit::client::{EngineConfig, Protocol};
use chariot_matchkit::clock::{Clock, TimeControl};
use chariot_matchkit::engine::{EngineScore, Failure};
use chariot_matchkit::interrupt::{self, Interrupt};

/// How a game ended: the result as PGN writes it (`*` when both engines failed to start).
pub use chariot_rules::GameResult;
/// Why a game ended, and the ending itself (the rules crate's one type).
pub use chariot_rules::{EndReason, Ending};

/// Score-based adjudication and a move cap, as cutechess-cli's `-draw`, `-resign`, `-maxmoves`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `--draw`: a draw once both engines' scores stay within the threshold.
    pub draw: Option<DrawRule>,
    /// `--resign`: a loss once an engine's score stays below minus the threshold.
    pub resign: Option<ResignRule>,
    /// `--maxmoves N`: a draw after N moves (each side), opening included.
    pub max_moves: Option<u32>,
}

/// Draw adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Not before this many moves (full moves, opening included).
    pub move_number: u32,
    /// For this many consecutive moves of each engine.
    pub move_count: u32,
    /// Both scores within ± this many centipawns.
    pub score: i32,
}

/// Resignation adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// For this many consecutive moves of the losing engine.
    pub move_count: u32,
    /// Its score at or below minus this many centipawns.
    pub score: i32,
    /// And the winner's score at or above the threshold over its last moves too.
    pub two_sided: bool,
}

/// A move of the game with what the engine said about it (nothing for opening moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The engine's last score, from its side.
    pub score: Option<EngineScore>,
    /// The engine's last depth.
    pub depth: Option<u32>,
    /// Thinking time; `None` for an opening move.
    pub elapsed: Option<Duration>,
    /// The engine played it from its own book (it said so); written `{book}` in the PGN.
    pub book: bool,
}

/// A played game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Red's time control.
    pub red_tc: TimeControl,
    /// Black's time control.
    pub black_tc: TimeControl,
    /// The FEN the game (and its opening) starts from.
    pub start_fen: String,
    /// The opening's name, if it has one.
    pub opening_name: Option<String>,
    /// How many of the moves are the opening's.
    pub opening_plies: usize,
    /// All moves, the opening's first.
    pub moves: Vec<PlayedMove>,
    /// How it ended.
    pub ending: Ending,
    /// When it started.
    pub started: SystemTime,
}

/// What a game needs.
pub struct GameSpec<'a> {
    /// Red's engine and name.
    pub red: (&'a EngineConfig, &'a str),
    /// Black's engine and name.
    pub black: (&'a EngineConfig, &'a str),
    /// The opening.
    pub opening: &'a Opening,
    /// The rules.
    pub referee: &'a dyn Referee,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Endgame tablebases: a position they cover ends the game as they say (`--egtb`).
    pub tablebases: Option<&'a Tablebases>,
    /// Print engine traffic to standard error with this label prefix.
    pub trace: Option<String>,
    /// Set when the run is interrupted: the game then stops at once, without a result
    /// ([`EndReason::Interrupted`]).
    pub interrupt: &'a Interrupt,
}

/// Scores seen so far, for adjudication.
#[derive(Default)]
struct Streaks {
    /// Consecutive plies (either side) with |score| within the draw threshold.
    draw: u32,
    /// Per side: consecutive own moves at or below minus the resign threshold.
    losing: [u32; 2],
    /// Per side: consecutive own moves at or above the resign threshold.
    winning: [u32; 2],
}

impl Streaks {
    fn update(&mut self, adj: &Adjudication, mover: Color, score: Option<EngineScore>) {
        let cp = score.map(EngineScore::as_cp);
        if let Some(rule) = adj.draw {
            match cp {
                Some(cp) if cp.abs() <= rule.score => self.draw += 1,
                _ => self.draw = 0,
            }
        }
        if let Some(rule) = adj.resign {
            let i = mover.index();
            match cp {
                Some(cp) if cp <= -rule.score => self.losing[i] += 1,
                _ => self.losing[i] = 0,
            }
            match cp {
                Some(cp) if cp >= rule.score => self.winning[i] += 1,
                _ => self.winning[i] = 0,
            }
        }
    }

    /// The adjudicated ending, if a rule applies now (`plies` played in all).
    fn verdict(&self, adj: &Adjudication, plies: usize) -> Option<Ending> {
        let full_moves = u32::try_from(plies / 2).unwrap_or(u32::MAX);
        if let Some(rule) = adj.resign {
            for c in [Color::Red, Color::Black] {
                let (i, o) = (c.index(), c.opponent().index());
                if self.losing[i] >= rule.move_count
                    && (!rule.two_sided || self.winning[o] >= rule.move_count)
                {
                    return Some(Ending {
                        outcome: GameResult::win(c.opponent()),
                        reason: EndReason::ResignAdjudication,
                    });
                }
            }
        }
        if let Some(rule) = adj.draw
            && full_moves >= rule.move_number
            && self.draw >= 2 * rule.move_count
        {
            return Some(Ending {
                outcome: GameResult::Draw,
                reason: EndReason::DrawAdjudication,
            });
        }
        if let Some(max) = adj.max_moves
            && full_moves >= max
        {
            return Some(Ending {
                outcome: GameResult::Draw,
                reason: EndReason::MaxMoves,
            });
        }
        None
    }
}

/// The game as engines are told it: from the start, and from the last capture.
struct Lines {
    start_fen: String,
    all: Vec<Move>,
    capture_fen: String,
    since_capture: Vec<Move>,
}

impl Lines {
    fn push(&mut self, pos: &Position, m: Move, capture: bool) {
        self.all.push(m);
        if capture {
            self.capture_fen = pos.fen();
            self.since_capture.clear();
        } else {
            self.since_capture.push(m);
        }
    }
}

/// Plays one game to its end.
///
/// Both engines are started for this game and are gone when it returns. An engine that cannot
/// be started loses; if neither can, the game is [`GameResult::Unfinished`].
#[must_use]
pub fn play(spec: &GameSpec<'_>) -> PlayedGame {
    let started = SystemTime::now();
    let opening = spec.opening;
    let mut pos = opening.start.clone();
    let start_fen = pos.fen();
    let mut lines = Lines {
        start_fen: start_fen.clone(),
        all: Vec::new(),
        capture_fen: start_fen.clone(),
        since_capture: Vec::new(),
    };
    let mut moves = Vec::new();
    for &m in &opening.moves {
        let capture = pos.is_capture(m);
        pos.make_move(m);
        lines.push(&pos, m, capture);
        moves.push(PlayedMove {
            mv: m,
            score: None,
            depth: None,
            elapsed: None,
            book: false,
        });
    }
    let mut record = PlayedGame {
        red: spec.red.1.to_owned(),
        black: spec.black.1.to_owned(),
        red_tc: spec.red.0.tc,
        black_tc: spec.black.0.tc,
        start_fen,
        opening_name: opening.name.clone(),
        opening_plies: opening.moves.len(),
        moves,
        ending: Ending {
            outcome: GameResult::Unfinished,
            reason: EndReason::NoMove,
        },
        started,
    };
    let label = |c: Color| {
        spec.trace
            .as_ref()
            .map(|t| format!("{t} {}", if c.is_red() { "red" } else { "black" }))
    };
    if spec.interrupt.is_set() {
        return finish(record, interrupted());
    }
    let red = Engine::start(spec.red.0, label(Color::Red));
    let black = Engine::start(spec.black.0, label(Color::Black));
    if spec.interrupt.is_set() {
        return finish(record, interrupted());
    }
    let mut engines = match (red, black) {
        (Ok(r), Ok(b)) => [r, b],
        (Err(e), Ok(_)) => return finish(record, lost(Color::Red, failure_reason(e))),
        (Ok(_), Err(e)) => return finish(record, lost(Color::Black, failure_reason(e))),
        (Err(e), Err(_)) => {
            record.ending = Ending {
                outcome: GameResult::Unfinished,
                reason: EndReason::EngineFailure(e.to_string()),
            };
            return record;
        }
    };
    let mut clocks = [Clock::new(spec.red.0.tc), Clock::new(spec.black.0.tc)];
    let graces = [spec.red.0.grace, spec.black.0.grace]
        .map(|g| u64::try_from(g.as_millis()).unwrap_or(u64::MAX));
    let mut streaks = Streaks::default();
    let mut draw_offer: Option<Color> = None;
    let ending = loop {
        if spec.interrupt.is_set() {
            break interrupted();
        }
        if let Some(ending) = spec.referee.judge(&pos) {
            break ending;
        }
        if let Some(e) = streaks.verdict(&spec.adjudication, pos.history().len()) {
            break e;
        }
        if let Some(e) = spec.tablebases.and_then(|tb| tablebase_verdict(tb, &pos)) {
            break e;
        }
        let us = pos.turn();
        let i = us.index();
        let banned = if engines[i].protocol() == Protocol::Ucci {
            spec.referee.forbidden_moves(&mut pos)
        } else {
            Vec::new()
        };
        let request = Think {
            since_capture: Line {
                fen: Some(&lines.capture_fen),
                moves: &lines.since_capture,
            },
            from_start: Line {
                fen: Some(&lines.start_fen),
                moves: &lines.all,
            },
            banned: &banned,
            own: &clocks[i],
            opp: &clocks[1 - i],
            first_to_move: us == Color::Red,
            draw_offered: draw_offer == Some(us.opponent()),
            interrupt: spec.interrupt,
        };
        let reply = match engines[i].think(&request) {
            Ok(r) => r,
            Err(Failure::Interrupted) => break interrupted(),
            Err(e) => break lost(us, failure_reason(e)),
        };
        if !clocks[i].punch(reply.elapsed, graces[i]) {
            break lost(us, EndReason::TimeForfeit);
        }
        if reply.resign {
            break lost(us, EndReason::Resignation);
        }
        if reply.draw && draw_offer == Some(us.opponent()) {
            break Ending {
                outcome: GameResult::Draw,
                reason: EndReason::Agreement,
            };
        }
        let Some(m) = reply.mv else {
            break lost(us, EndReason::NoMove);
        };
        if !pos.is_legal(m) {
            break lost(us, EndReason::IllegalMove(reply.text));
        }
        let capture = pos.is_capture(m);
        pos.make_move(m);
        lines.push(&pos, m, capture);
        record.moves.push(PlayedMove {
            mv: m,
            score: reply.score,
            depth: reply.depth,
            elapsed: Some(reply.elapsed),
            book: reply.book,
        });
        streaks.update(&spec.adjudication, us, reply.score);
        draw_offer = reply.draw.then_some(us);
    };
    drop(engines);
    // Ctrl-C reaches the engines too (they are in the runner's process group): a failure seen
    // once the run is interrupted, or just before the runner's handler sets the flag, is the
    // interrupt's doing, not the engine's.
    let ending = if is_failure(&ending.reason) && spec.interrupt.set_within(interrupt::SETTLE) {
        interrupted()
    } else {
        ending
    };
    finish(record, ending)
}

/// The ending the tablebases give a position they cover. A table that fails to answer (a
/// capture's table missing, a read error) adjudicates nothing: the engines play on, since
/// neither is at fault.
fn tablebase_verdict(tables: &Tablebases, pos: &Position) -> Option<Ending> {
    if !tables.covers(pos) {
        return None;
    }
    let us = pos.turn();
    // The distance is reported with the verdict: to mate, or to conversion for a DTC table.
    let (value, metric) = tables.probe_with_metric(pos).ok()??;
    let reason = |plies: u32| match metric {
        Metric::Dtm => EndReason::TablebaseAdjudication(Some(plies)),
        Metric::Dtc => EndReason::TablebaseConversion(plies),
    };
    Some(match value {
        Value::Win(plies) => Ending {
            outcome: GameResult::win(us),
            reason: reason(plies),
        },
        Value::Loss(plies) => lost(us, reason(plies)),
        Value::RuleWin(_) => Ending {
            outcome: GameResult::win(us),
            reason: EndReason::TablebaseAdjudication(None),
        },
        Value::RuleLoss(_) => lost(us, EndReason::TablebaseAdjudication(None)),
        Value::Draw => Ending {
            outcome: GameResult::Draw,
            reason: EndReason::TablebaseAdjudication(None),
        },
    })
}

fn finish(mut record: PlayedGame, ending: Ending) -> PlayedGame {
    record.ending = ending;
    record
}

fn lost(loser: Color, reason: EndReason) -> Ending {
    Ending {
        outcome: GameResult::win(loser.opponent()),
        reason,
    }
}

/// An ending that an engine's fault caused (it crashed, hung, sent nonsense).
fn is_failure(reason: &EndReason) -> bool {
    matches!(
        reason,
        EndReason::EngineFailure(_)
            | EndReason::TimeForfeit
            | EndReason::IllegalMove(_)
            | EndReason::NoMove
    )
}

fn interrupted() -> Ending {
    Ending {
        outcome: GameResult::Unfinished,
        reason: EndReason::Interrupted,
    }
}

fn failure_reason(f: Failure) -> EndReason {
    match f {
        Failure::Timeout => EndReason::TimeForfeit,
        other => EndReason::EngineFailure(other.to_string()),
    }
}
