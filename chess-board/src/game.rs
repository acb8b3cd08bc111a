//! One game between two agents under the contest rules (`docs/chess-board.md` quotes each rule).
//!
//! The Board starts both agents, tells each its colour, and then, move by move, waits for the
//! side to move with that side's remaining time as the deadline, reads its line tolerantly
//! ([`chess_agent::san::parse_move`]), checks it against shakmaty's legal moves, answers an
//! illegal or unreadable move with the retry signal (the third rejected try in a row loses),
//! judges mate, stalemate and the 50-move rule after each move, and passes the move on to the
//! other agent in standard SAN. An agent whose output ends (it exited) loses by crash; one whose
//! clock runs out before its line arrives loses on time. The Board does not judge threefold
//! repetition or dead positions: the rules leave those to people.

use std::time::{Duration, Instant};

use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::runner::GamePlayer;
use chariot_matchkit::schedule::Job;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use crate::agent::{Agent, RecvError};
use crate::colour::{idx, name};
pub use crate::ending::{Ending, Reason};
use crate::words::Protocol;

/// How to play a game.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The command of the agent playing White.
    pub white: String,
    /// The command of the agent playing Black.
    pub black: String,
    /// Each side's time for the whole game.
    pub time: Duration,
    /// The start position as FEN (`None`: the standard one).
    pub fen: Option<String>,
    /// Rejected tries in a row that lose (the rules: three).
    pub max_illegal: u32,
    /// The colour and retry words.
    pub protocol: Protocol,
    /// Copy the agents' standard error to the Board's, labelled `[white]` / `[black]`.
    pub echo_stderr: bool,
    /// Print every line to and from the agents on standard error.
    pub verbose: bool,
}

impl GameConfig {
    /// A configuration with the contest's defaults: 600 s each, three tries, the Chinese words
    /// in UTF-8, the standard start position.
    #[must_use]
    pub fn new(white: &str, black: &str) -> GameConfig {
        GameConfig {
            white: white.to_owned(),
            black: black.to_owned(),
            time: Duration::from_secs(600),
            fen: None,
            max_illegal: 3,
            protocol: Protocol::default(),
            echo_stderr: false,
            verbose: false,
        }
    }
}

/// A move the Board accepted.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// The move in standard SAN with its check or mate mark, as the Board passed it on.
    pub san: SanPlus,
    /// What the agent wrote.
    pub text: String,
    /// The tries rejected before it, as written.
    pub rejected: Vec<String>,
    /// Seconds the agent used for it, retries included.
    pub seconds: f64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The start position.
    pub start: Chess,
    /// The start position's FEN when it is not the standard one.
    pub fen: Option<String>,
    /// The moves.
    pub moves: Vec<PlayedMove>,
    /// Tries rejected in the move that lost the game by illegal moves (otherwise empty).
    pub final_rejected: Vec<String>,
    /// How it ended.
    pub ending: Ending,
    /// Seconds used by White and Black.
    pub used: [f64; 2],
}

/// Plays one game.
///
/// # Errors
///
/// A description when the start FEN is unreadable or not a legal position (nothing is started).
pub fn play(config: &GameConfig) -> Result<GameRecord, String> {
    Ok(play_from(config, start_position(config.fen.as_deref())?))
}

/// The position a game starts from: the FEN's, or the standard one.
///
/// # Errors
///
/// A description when the FEN is unreadable or not a legal position.
pub fn start_position(fen: Option<&str>) -> Result<Chess, String> {
    Ok(match fen {
        Some(fen) => chess_agent::game::Game::from_fen(fen)?.position().clone(),
        None => Chess::default(),
    })
}

/// Plays one game from `start`, the position of `config.fen` ([`start_position`]).
#[must_use]
pub fn play_from(config: &GameConfig, start: Chess) -> GameRecord {
    let mut referee = Referee {
        config,
        pos: start.clone(),
        moves: Vec::new(),
        used: [Duration::ZERO; 2],
        final_rejected: Vec::new(),
    };
    let ending = referee.run();
    GameRecord {
        start,
        fen: config.fen.clone(),
        moves: referee.moves,
        final_rejected: referee.final_rejected,
        ending,
        used: referee.used.map(|d| d.as_secs_f64()),
    }
}

/// The contest's games as the match kit's runner plays them (the Swiss tournament): agent
/// [`Job::first`] White, every game from one start position.
///
/// The interrupt is not looked at: the Board catches no signal, so a game is always played to
/// its end.
pub struct Agents {
    /// The agents' commands, by the indices the schedule gives.
    pub commands: Vec<String>,
    /// Every game's settings; `white` and `black` are set from the job.
    pub config: GameConfig,
    /// The start position of `config.fen`.
    pub start: Chess,
}

impl GamePlayer for Agents {
    type Game = GameRecord;
    type Ending = Ending;

    fn play(&self, job: &Job, _interrupt: &Interrupt) -> GameRecord {
        let config = GameConfig {
            white: self.commands[job.first].clone(),
            black: self.commands[job.second].clone(),
            ..self.config.clone()
        };
        play_from(&config, self.start.clone())
    }

    fn ending(game: &GameRecord) -> &Ending {
        &game.ending
    }
}

/// The state of a game being played.
struct Referee<'a> {
    config: &'a GameConfig,
    pos: Chess,
    moves: Vec<PlayedMove>,
    used: [Duration; 2],
    final_rejected: Vec<String>,
}

/// What the side to move did with its turn.
enum Turn {
    /// A legal move, what it wrote, the rejected tries before it, the seconds it took.
    Move(shakmaty::Move, String, Vec<String>, f64),
    /// It lost.
    Lost(Ending),
}

impl Referee<'_> {
    fn run(&mut self) -> Ending {
        if let Some(ending) = self.judge_position() {
            return ending;
        }
        // Start both, White first; one that cannot start loses at once.
        let mut agents: Vec<Agent> = Vec::with_capacity(2);
        for (colour, command) in [
            (Color::White, &self.config.white),
            (Color::Black, &self.config.black),
        ] {
            let label = name(colour).to_lowercase();
            match crate::agent::spawn(command, &label, self.config.echo_stderr) {
                Ok(agent) => agents.push(agent),
                Err(e) => {
                    return Ending {
                        winner: Some(!colour),
                        reason: Reason::Crash,
                        detail: format!("{} could not be started: {e}", name(colour)),
                    };
                }
            }
        }
        for colour in [Color::White, Color::Black] {
            let line = self.config.protocol.colour(colour);
            self.trace(colour, "<", line);
            // A write error shows up as the end of the agent's output when its move is due.
            let _ = agents[idx(colour)].send_bytes(line);
        }
        loop {
            let side = self.pos.turn();
            let (m, text, rejected, seconds) = match self.turn(&mut agents[idx(side)]) {
                Turn::Move(m, text, rejected, seconds) => (m, text, rejected, seconds),
                Turn::Lost(ending) => return ending,
            };
            let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, m);
            self.moves.push(PlayedMove {
                san,
                text,
                rejected,
                seconds,
            });
            if let Some(ending) = self.judge_position() {
                return ending;
            }
            let other = &mut agents[idx(!side)];
            let stale = other.drain();
            for line in stale {
                self.trace(!side, "> (unasked, ignored)", line.as_bytes());
            }
            let out = san.to_string();
            self.trace(!side, "<", out.as_bytes());
            let _ = other.send_bytes(out.as_bytes());
        }
    }

    /// Waits for the side to move's move, sending the retry signal after rejected tries.
    fn turn(&mut self, agent: &mut Agent) -> Turn {
        let side = self.pos.turn();
        let limit = self.config.time;
        let started = Instant::now();
        let used_before = self.used[idx(side)];
        let deadline = started + limit.saturating_sub(used_before);
        let mut rejected = Vec::new();
        loop {
            let (line, at) = match agent.recv_until(deadline) {
                Ok(got) => got,
                Err(RecvError::Timeout) => {
                    self.used[idx(side)] = limit;
                    return Turn::Lost(Ending {
                        winner: Some(!side),
                        reason: Reason::Time,
                        detail: format!(
                            "{} lost on time (no move within its remaining {:.1} s)",
                            name(side),
                            limit.saturating_sub(used_before).as_secs_f64()
                        ),
                    });
                }
                Err(RecvError::Disconnected) => {
                    self.used[idx(side)] = used_before + started.elapsed();
                    let status = agent
                        .exit_status_within(Duration::from_millis(500))
                        .unwrap_or_else(|| "closed its output".to_owned());
                    let tail = agent.stderr_tail();
                    let tail = if tail.is_empty() {
                        String::new()
                    } else {
                        format!("; its last words: {tail}")
                    };
                    return Turn::Lost(Ending {
                        winner: Some(!side),
                        reason: Reason::Crash,
                        detail: format!("{} crashed ({status}){tail}", name(side)),
                    });
                }
            };
            self.trace(side, ">", line.as_bytes());
            self.used[idx(side)] = used_before + at.saturating_duration_since(started);
            if self.used[idx(side)] > limit {
                return Turn::Lost(Ending {
                    winner: Some(!side),
                    reason: Reason::Time,
                    detail: format!("{} lost on time", name(side)),
                });
            }
            let text = line.trim();
            if text.is_empty() {
                // A blank line is neither a move nor a try (a stray extra newline).
                continue;
            }
            match chess_agent::san::parse_move(&self.pos, text) {
                Ok(m) => {
                    let seconds = (self.used[idx(side)] - used_before).as_secs_f64();
                    return Turn::Move(m, text.to_owned(), rejected, seconds);
                }
                Err(e) => {
                    rejected.push(text.to_owned());
                    let tries = u32::try_from(rejected.len()).unwrap_or(u32::MAX);
                    if tries >= self.config.max_illegal {
                        let list = rejected
                            .iter()
                            .map(|t| format!("{t:?}"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        self.final_rejected = rejected;
                        return Turn::Lost(Ending {
                            winner: Some(!side),
                            reason: Reason::IllegalMove,
                            detail: format!(
                                "{} loses after {tries} illegal moves in a row ({list})",
                                name(side)
                            ),
                        });
                    }
                    if self.config.verbose {
                        eprintln!("board: {} try rejected: {e}", name(side));
                    }
                    let retry = self.config.protocol.retry();
                    self.trace(side, "<", retry);
                    let _ = agent.send_bytes(retry);
                }
            }
        }
    }

    /// Mate, stalemate or the 50-move rule in the current position, judged after each move
    /// (and before the first, for a `--fen` start).
    fn judge_position(&self) -> Option<Ending> {
        let side = self.pos.turn();
        if self.pos.is_checkmate() {
            return Some(Ending {
                winner: Some(!side),
                reason: Reason::Checkmate,
                detail: format!("{} mates", name(!side)),
            });
        }
        if self.pos.is_stalemate() {
            return Some(Ending {
                winner: None,
                reason: Reason::Stalemate,
                detail: format!("{} is stalemated", name(side)),
            });
        }
        if self.pos.halfmoves() >= 100 {
            return Some(Ending {
                winner: None,
                reason: Reason::FiftyMoves,
                detail: "50 moves by each side without a capture or a pawn move".to_owned(),
            });
        }
        None
    }

    fn trace(&self, side: Color, dir: &str, line: &[u8]) {
        if self.config.verbose {
            eprintln!(
                "board: {} {dir} {}",
                name(side).to_lowercase(),
                String::from_utf8_lossy(line)
            );
        }
    }
}
