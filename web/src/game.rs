//! One game between a person and the engine: the position, the level, the engine, the rules.
//!
//! The person's moves are checked against the rules core: legal, and not a forbidden repetition
//! under the Asian rules (a perpetual check or chase of their own), with the reason when one is
//! refused. After every move the game is judged (mate, stalemate, repetition, the 60-move rule).
//! The engine plays at the game's level and never makes a forbidden repetition either. An
//! external engine may play instead of Chariot (`crate::engines::play`): its moves are judged
//! by the same rules, and an illegal or forbidden move, a crash or a flag ends the game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chariot_engine::api::{Engine, Event, GoRequest, Source};
use chariot_engine::search::{Options, Score};
use chariot_formats::book::BookSet;
use chariot_formats::egtb::Tablebases;
use chariot_rules::notation::{MoveTextError, Notation, parse_move};
use chariot_rules::{
    Color, EndReason, Ending, GameState, JudgeConfig, Move, Position, PositionError,
    forbidden_moves, judge,
};

use crate::clock::{Clock, ClockSpec};
use crate::engines::play::{Answer, ClockTimes, Opponent, Turn};
use crate::game_words::Lang;
use crate::play_levels::LevelSpec;

/// Why a request about a game cannot be done; the message says what is wrong.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GameError {
    /// The start position is not a legal position.
    #[error("invalid FEN {fen:?}: {error}")]
    BadFen {
        /// The FEN given.
        fen: String,
        /// Why.
        error: PositionError,
    },
    /// No such level.
    #[error("level {0} does not exist (1 to {max})", max = crate::play_levels::LEVELS)]
    BadLevel(u8),
    /// The move text is not a legal move here.
    #[error("{0}")]
    BadMove(MoveTextError),
    /// The move would repeat a position by a perpetual check or chase of the mover's own.
    #[error("{0} is forbidden: it repeats a position by a perpetual check or chase (Asian rules)")]
    Forbidden(String),
    /// It is the engine's turn, or the game is over.
    #[error("{0}")]
    NotYourTurn(NotNow),
    /// Nothing to take back.
    #[error("no move of yours to take back")]
    NothingToTakeBack,
    /// A move of the game's history (before the person takes over) is not legal.
    #[error("the moves played before: {0}")]
    BadHistory(crate::movetext::LineError),
    /// The request was made on the game as it stood after `at` moves, but it has `now`: it
    /// moved on meanwhile (in another tab, say), and what was asked may no longer fit.
    #[error("the game moved on: it has {now} moves, the request was made after {at}")]
    MovedOn {
        /// The moves the requester had seen.
        at: usize,
        /// The moves the game has.
        now: usize,
    },
}

/// Why the person cannot do that now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotNow {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The engine is to move.
    #[error("it is the engine's turn")]
    EnginesTurn,
    /// The person's time ran out before their move arrived.
    #[error("your time ran out before the move arrived")]
    TimeRanOut,
    /// A hint was asked for when it is not the person's turn, or the game is over.
    #[error("a hint is for your turn in a game that goes on")]
    NoHintNow,
    /// A take-back after a game ended off the board.
    #[error("the game ended by resignation, agreement or time")]
    EndedOffBoard,
}

/// What the engine said about its last move.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EngineMove {
    /// The move in ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    /// `book`, `tables` or `search`.
    pub source: &'static str,
    /// The score in centipawns for the engine, or `mate N` (plies); `None` when an external
    /// engine gave none.
    pub score: Option<String>,
    /// The depth reached (0 for a book or table move).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds it took.
    pub millis: u64,
}

impl EngineMove {
    /// What an external engine said with its move `mv`.
    fn external(mv: Move, answer: &Answer) -> EngineMove {
        use chariot_matchkit::engine::EngineScore;
        EngineMove {
            mv: mv.to_string(),
            source: if answer.book { "book" } else { "search" },
            score: answer.score.map(|s| match s {
                EngineScore::Cp(cp) => cp.to_string(),
                EngineScore::Mate(_) => {
                    let plies = crate::engines::lines::score_parts(s).1.unwrap_or(0);
                    format!("mate {plies}")
                }
            }),
            depth: answer.depth.unwrap_or(0),
            nodes: answer.nodes.unwrap_or(0),
            millis: u64::try_from(answer.elapsed.as_millis()).unwrap_or(u64::MAX),
        }
    }
}

/// How a new game is set up.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The start position; the usual one when `None`.
    pub fen: Option<String>,
    /// Moves already played from it (any notation), before the person takes over.
    pub moves: Vec<String>,
    /// The person's side.
    pub human: Color,
    /// 1 to [`crate::play_levels::LEVELS`].
    pub level: u8,
    /// A clock, or none.
    pub clock: Option<ClockSpec>,
    /// The language of the game's PGN.
    pub lang: Lang,
    /// The person's name for the PGN (`Red` or `Black`); the language's word for "you" when
    /// `None`.
    pub name: Option<String>,
}

impl Default for Setup {
    /// Red against level 4 from the start position, no clock.
    fn default() -> Setup {
        Setup {
            fen: None,
            moves: Vec::new(),
            human: Color::Red,
            level: 4,
            clock: None,
            lang: Lang::En,
            name: None,
        }
    }
}

/// A game in progress (or finished).
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    human: Color,
    level: u8,
    spec: LevelSpec,
    engine: Engine,
    /// The tables the engine plays from, which also judge draw offers.
    tables: Arc<Tablebases>,
    last_engine: Option<EngineMove>,
    /// How the game ended off the board (resignation, agreement, the flag); the rules' ending
    /// is judged from the position.
    ending: Option<Ending>,
    clock: Option<Clock>,
    /// The language of its PGN (unless an export asks for another).
    lang: Lang,
    /// The person's name, if they gave one.
    name: Option<String>,
    /// The finished game is in the game database.
    archived: bool,
    /// The external engine playing instead of Chariot, if any.
    opponent: Option<Opponent>,
}

impl Game {
    /// A new game as `setup` says. The books and tables are shared with the other games of the
    /// server; `base` holds the server's engine options (hash size, threads).
    ///
    /// # Errors
    /// [`GameError::BadFen`], [`GameError::BadLevel`], [`GameError::BadHistory`].
    pub fn new(
        setup: &Setup,
        books: Arc<BookSet>,
        tables: Arc<Tablebases>,
        base: &Options,
    ) -> Result<Game, GameError> {
        let spec = LevelSpec::of(setup.level).ok_or(GameError::BadLevel(setup.level))?;
        let start = match &setup.fen {
            None => Position::start(),
            Some(f) => Position::from_fen(f).map_err(|error| GameError::BadFen {
                fen: f.clone(),
                error,
            })?,
        };
        let (position, moves) = crate::movetext::play_out(start.clone(), &setup.moves)
            .map_err(GameError::BadHistory)?;
        let engine = Engine::sharing(books, Arc::clone(&tables), spec.options(base));
        Ok(Game {
            position,
            start,
            moves,
            human: setup.human,
            level: setup.level,
            spec,
            engine,
            tables,
            last_engine: None,
            ending: None,
            clock: setup.clock.map(Clock::start),
            lang: setup.lang,
            name: setup.name.clone(),
            archived: false,
            opponent: None,
        })
    }

    /// The game with `opponent` playing instead of Chariot (Chariot still gives the hints).
    #[must_use]
    pub fn against(mut self, opponent: Opponent) -> Game {
        self.opponent = Some(opponent);
        self
    }

    /// The external engine playing, if one does.
    #[must_use]
    pub fn opponent(&self) -> Option<&Opponent> {
        self.opponent.as_ref()
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The person's side.
    #[must_use]
    pub fn human(&self) -> Color {
        self.human
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Checks that a request made on the game as it stood after `at` moves (when the requester
    /// says) is made on the game as it stands.
    ///
    /// # Errors
    /// [`GameError::MovedOn`] when the game has another number of moves.
    pub fn expect_moves(&self, at: Option<usize>) -> Result<(), GameError> {
        match at {
            Some(at) if at != self.moves.len() => Err(GameError::MovedOn {
                at,
                now: self.moves.len(),
            }),
            _ => Ok(()),
        }
    }

    /// What the engine said about its last move.
    #[must_use]
    pub fn last_engine(&self) -> Option<&EngineMove> {
        self.last_engine.as_ref()
    }

    /// The game's state by the rules.
    #[must_use]
    pub fn state(&self) -> GameState {
        judge(&self.position, &JudgeConfig::default())
    }

    /// How the game ended, by the rules, by agreement or on time; `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Ending> {
        self.ending
            .clone()
            .or_else(|| Ending::from_state(self.state()))
    }

    /// `true` when the game is over and not yet kept in the game database.
    #[must_use]
    pub fn needs_archiving(&self) -> bool {
        !self.archived && !self.is_on()
    }

    /// The finished game has been kept in the game database.
    pub fn mark_archived(&mut self) {
        self.archived = true;
    }

    /// The clock, if the game has one.
    #[must_use]
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// Ends the game when the side to move's time has run out, and stops the clock of a game
    /// that is over. Called before every request on the game is served.
    pub fn settle(&mut self) {
        let turn = self.position.turn();
        let over = !self.is_on();
        if let Some(clock) = &mut self.clock {
            if !over && clock.flagged(turn) {
                clock.stop(turn);
                self.ending = Some(Ending::win(turn.opponent(), EndReason::TimeForfeit));
            } else if over {
                clock.stop(turn);
            }
        }
    }

    /// `true` while the game goes on.
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.outcome().is_none()
    }

    /// The person resigns.
    ///
    /// # Errors
    /// [`GameError::NotYourTurn`] when the game is already over.
    pub fn resign(&mut self) -> Result<(), GameError> {
        if !self.is_on() {
            return Err(GameError::NotYourTurn(NotNow::GameOver));
        }
        self.ending = Some(Ending::win(self.human.opponent(), EndReason::Resignation));
        self.settle();
        Ok(())
    }

    /// The person offers a draw; the engine accepts when a draw is fair for it
    /// ([`crate::draw`]: the tables or the rules say so, or its search without the book, at its
    /// level and at least [`crate::draw::JUDGE_NODES`] nodes, finds it not better after the
    /// opening, clearly lost in it). Returns whether it accepted.
    ///
    /// # Errors
    /// [`GameError::NotYourTurn`] when the game is already over.
    pub fn offer_draw(&mut self, cap: Duration) -> Result<bool, GameError> {
        use crate::draw::{JUDGE_NODES, Known, accepts};
        if !self.is_on() {
            return Err(GameError::NotYourTurn(NotNow::GameOver));
        }
        let engine = self.human.opponent();
        let known = Known::of(&self.position, &self.tables, engine);
        let mut score = 0;
        if known.is_open()
            && let Some(opponent) = &self.opponent
        {
            // An external engine judges by its own score.
            let Some(to_move) = opponent.evaluate(&self.start, &self.moves, cap) else {
                return Ok(false);
            };
            score = if self.position.turn() == engine {
                to_move
            } else {
                -to_move
            };
        } else if known.is_open() {
            // The book's moves carry no evaluation (a score of 0): a search judges.
            // It judges at full knowledge and without the level's noise: a weak level plays
            // weak moves, but its noise must not make it think an even opening lost.
            let mut limits = self.spec.limits(cap);
            limits.nodes = Some(self.spec.nodes.max(JUDGE_NODES));
            let full = self.full_strength();
            self.engine.set_use_book(false);
            let answer = self.search_with(full, limits);
            self.engine.set_use_book(true);
            let Some(answer) = answer else {
                return Ok(false);
            };
            let to_move = chariot_engine::api::centipawns(answer.result.score);
            score = if self.position.turn() == engine {
                to_move
            } else {
                -to_move
            };
        }
        let accepted = accepts(known, score, self.moves.len());
        if accepted {
            self.ending = Some(Ending::draw(EndReason::Agreement));
            self.settle();
        }
        Ok(accepted)
    }

    /// A move for the person: the engine's choice at full strength after at most
    /// [`crate::play_levels::HINT_NODES`] nodes and at most `cap` (a second at most).
    ///
    /// # Errors
    /// [`GameError::NotYourTurn`] when it is not the person's turn or the game is over.
    pub fn hint(&mut self, cap: Duration) -> Result<Option<Move>, GameError> {
        if !self.is_on() || self.position.turn() != self.human {
            return Err(GameError::NotYourTurn(NotNow::NoHintNow));
        }
        let limits = chariot_engine::search::Limits {
            nodes: Some(crate::play_levels::HINT_NODES),
            movetime: Some(cap.min(Duration::from_secs(1))),
            ..chariot_engine::search::Limits::default()
        };
        let full = self.full_strength();
        Ok(self.search_with(full, limits).and_then(|a| a.result.best))
    }

    /// The engine's options at full knowledge, without the level's noise and blind spots.
    fn full_strength(&self) -> Options {
        use chariot_eval::levels::Level;
        Options {
            knowledge: Level::Large,
            randomness: Level::None,
            blunders: Level::None,
            ..self.engine.options().clone()
        }
    }

    /// [`Game::search`] with `options` instead of the level's, which are put back after.
    fn search_with(
        &mut self,
        options: Options,
        limits: chariot_engine::search::Limits,
    ) -> Option<chariot_engine::api::Answer> {
        let playing = self.engine.options().clone();
        self.engine.set_options(options);
        let answer = self.search(limits);
        self.engine.set_options(playing);
        answer
    }

    /// The moves the side to move may play: legal and not a forbidden repetition.
    #[must_use]
    pub fn playable(&self) -> Vec<Move> {
        if !self.is_on() {
            return Vec::new();
        }
        let mut pos = self.position.clone();
        let banned = forbidden_moves(&mut pos);
        self.position
            .legal_move_list()
            .iter()
            .copied()
            .filter(|m| !banned.contains(m))
            .collect()
    }

    /// `true` when the engine is to move in a game that goes on.
    #[must_use]
    pub fn engine_to_move(&self) -> bool {
        self.position.turn() != self.human && self.is_on()
    }

    /// Plays the person's move, given in any notation (ICCS, WXF, Chinese).
    ///
    /// # Errors
    /// Not the person's turn or the game is over; the text is not a legal move; the move is a
    /// forbidden repetition.
    pub fn play_human(&mut self, text: &str) -> Result<Move, GameError> {
        if !self.is_on() {
            return Err(GameError::NotYourTurn(NotNow::GameOver));
        }
        if self.position.turn() != self.human {
            return Err(GameError::NotYourTurn(NotNow::EnginesTurn));
        }
        let m = parse_move(&self.position, text).map_err(GameError::BadMove)?;
        let mut pos = self.position.clone();
        if forbidden_moves(&mut pos).contains(&m) {
            return Err(GameError::Forbidden(m.to_string()));
        }
        if !self.play(m) {
            return Err(GameError::NotYourTurn(NotNow::TimeRanOut));
        }
        Ok(m)
    }

    /// Plays `m` for the side to move, charging its clock; a move made after its time ran out
    /// is not played and the game is lost on time. Returns whether the move was played.
    fn play(&mut self, m: Move) -> bool {
        let mover = self.position.turn();
        if let Some(clock) = &mut self.clock
            && !clock.punch(mover)
        {
            self.ending = Some(Ending::win(mover.opponent(), EndReason::TimeForfeit));
            return false;
        }
        self.position.make_move(m);
        self.moves.push(m);
        self.settle();
        true
    }

    /// Searches the current position (forbidden repetitions banned) within `limits`; blocks.
    fn search(
        &mut self,
        limits: chariot_engine::search::Limits,
    ) -> Option<chariot_engine::api::Answer> {
        let mut pos = self.position.clone();
        let banned = forbidden_moves(&mut pos);
        self.engine.set_position(self.position.clone());
        self.engine.ban_moves(banned);
        let (tx, rx) = std::sync::mpsc::channel();
        let request = GoRequest {
            limits,
            ..GoRequest::default()
        };
        let listen = Box::new(move |e: Event<'_>| {
            if let Event::Done(a) = e {
                let _ = tx.send(a.clone());
            }
        });
        self.engine.go(request, listen).ok()?;
        let answer = rx.recv().ok();
        self.engine.join();
        answer
    }

    /// The engine thinks (at most `cap`, whatever the level) and plays; blocks meanwhile.
    /// Returns the move, or `None` when it is not the engine's turn or it has no move.
    pub fn engine_reply(&mut self, cap: Duration) -> Option<Move> {
        if !self.engine_to_move() {
            return None;
        }
        if self.opponent.is_some() {
            return self.external_reply(cap);
        }
        let started = Instant::now();
        let turn = self.position.turn();
        let cap = match &self.clock {
            Some(clock) => cap.min(clock.budget(clock.left(turn, turn))),
            None => cap,
        };
        let answer = self.search(self.spec.limits(cap))?;
        let best = answer.result.best?;
        if !self.position.is_legal(best) {
            return None;
        }
        self.last_engine = Some(EngineMove {
            mv: best.to_string(),
            source: match answer.source {
                Source::Book(_) => "book",
                Source::Tables { .. } => "tables",
                Source::Search => "search",
            },
            score: Some(match answer.result.score {
                Score::Cp(cp) => cp.to_string(),
                Score::Mate(p) => format!("mate {p}"),
            }),
            depth: answer.result.depth,
            nodes: answer.result.nodes,
            millis: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        });
        self.play(best).then_some(best)
    }

    /// The external engine's turn: its move judged and played, or the game's end.
    fn external_reply(&mut self, cap: Duration) -> Option<Move> {
        let turn = self.position.turn();
        let clock = self.clock.as_ref().map(|c| ClockTimes {
            own: c.left(turn, turn),
            opp: c.left(turn.opponent(), turn),
            increment: c.spec().increment,
        });
        let opponent = self.opponent.as_ref()?;
        match opponent.reply(&self.start, &self.moves, &self.position, clock, cap) {
            Turn::Ended(ending) => {
                self.ending = Some(ending);
                self.settle();
                None
            }
            Turn::Played { mv, answer, ending } => {
                self.last_engine = Some(EngineMove::external(mv, &answer));
                let played = self.play(mv);
                if played && let Some(ending) = ending {
                    self.ending = Some(ending);
                    self.settle();
                }
                played.then_some(mv)
            }
        }
    }

    /// Takes back the person's last move and the engine's reply to it (the position before the
    /// person's move is the person's turn again).
    ///
    /// # Errors
    /// [`GameError::NothingToTakeBack`] when the person has made no move.
    pub fn take_back(&mut self) -> Result<(), GameError> {
        if self.ending.is_some() {
            return Err(GameError::NotYourTurn(NotNow::EndedOffBoard));
        }
        // Plies to undo: back to the last position where the person was to move, before their
        // move.
        let mut undo = 0;
        let mut pos = self.position.clone();
        loop {
            if undo == self.moves.len() {
                return Err(GameError::NothingToTakeBack);
            }
            pos.unmake_move();
            undo += 1;
            if pos.turn() == self.human {
                break;
            }
        }
        for _ in 0..undo {
            self.position.unmake_move();
            self.moves.pop();
        }
        if let Some(clock) = &mut self.clock {
            clock.resume();
        }
        // The game goes on: its new end is another game to keep.
        self.archived = false;
        self.last_engine = None;
        Ok(())
    }

    /// The language of the game's PGN.
    #[must_use]
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The game as Xiangqi PGN with its moves in `notation` (written by `chariot_games`), its
    /// event, players and ending said in `lang`.
    #[must_use]
    pub fn pgn(&self, notation: Notation, date: &str, lang: Lang) -> String {
        use chariot_games::write::{PgnGame, WrittenMove, write_game};
        let engine = match &self.opponent {
            Some(o) => o.id_name().unwrap_or_else(|| o.name().to_owned()),
            None => lang.engine(self.level),
        };
        let person = self
            .name
            .clone()
            .unwrap_or_else(|| lang.person().to_owned());
        let (red, black) = if self.human == Color::Red {
            (person, engine)
        } else {
            (engine, person)
        };
        let outcome = self.outcome();
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), lang.event().into()),
            ("Site".into(), "chariot serve".into()),
            ("Date".into(), date.to_owned()),
            ("Red".into(), red),
            ("Black".into(), black),
        ];
        if let Some(o) = crate::openings::opening_of(&self.start, &self.moves) {
            if let Some(code) = o.ecco {
                tags.push(("ECCO".into(), code.to_string()));
            }
            if let Some(name) = o.name {
                tags.push(("Opening".into(), lang.opening(&name)));
            }
        }
        if let Some(clock) = &self.clock {
            let spec = clock.spec();
            tags.push((
                "TimeControl".into(),
                format!("{}+{}", spec.initial.as_secs(), spec.increment.as_secs()),
            ));
        }
        let game = PgnGame {
            tags,
            start: self.start.clone(),
            moves: self
                .moves
                .iter()
                .map(|&mv| WrittenMove { mv, comment: None })
                .collect(),
            result: outcome.as_ref().map(|o| o.outcome),
            final_comment: outcome.map(|o| lang.ending(&o)),
        };
        write_game(&game, notation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: Option<&str>, human: Color) -> Game {
        Game::new(
            &Setup {
                fen: fen.map(str::to_owned),
                human,
                level: 1,
                ..Setup::default()
            },
            Arc::new(BookSet::default()),
            Arc::new(Tablebases::default()),
            &Options::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_person_plays_and_the_engine_answers_legally() {
        let mut g = game(None, Color::Red);
        assert!(!g.engine_to_move());
        g.play_human("炮二平五").unwrap();
        assert!(g.engine_to_move());
        let reply = g.engine_reply(Duration::from_secs(5)).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.moves()[1], reply);
        assert_eq!(g.moves()[0].to_string(), "h2e2");
        g.take_back().unwrap();
        assert!(g.moves().is_empty());
        assert_eq!(g.take_back(), Err(GameError::NothingToTakeBack));
    }

    #[test]
    fn bad_moves_are_refused_with_their_reason() {
        let mut g = game(None, Color::Black);
        assert!(matches!(
            g.play_human("h9g7"),
            Err(GameError::NotYourTurn(_))
        ));
        let mut g = game(None, Color::Red);
        let e = g.play_human("h2h9x").unwrap_err();
        assert!(matches!(e, GameError::BadMove(_)), "{e}");
        assert!(matches!(g.play_human("h2h8"), Err(GameError::BadMove(_))));
        assert!(
            Game::new(
                &Setup {
                    level: 11,
                    ..Setup::default()
                },
                Arc::default(),
                Arc::default(),
                &Options::default()
            )
            .is_err()
        );
    }

    #[test]
    fn a_perpetual_check_is_refused_and_a_mate_ends_the_game() {
        // Red's chariot checks along the 9th and 8th ranks; the fourth check would repeat.
        let mut g = game(Some("4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1"), Color::Red);
        for (i, m) in ["h0h9", "e9e8", "h9h8", "e8e9"].into_iter().enumerate() {
            if i % 2 == 0 {
                g.play_human(m).unwrap();
            } else {
                let mv = parse_move(g.position(), m).unwrap();
                g.play(mv);
            }
        }
        let e = g.play_human("h8h9").unwrap_err();
        assert!(matches!(e, GameError::Forbidden(_)), "{e}");
        assert!(!g.playable().iter().any(|m| m.to_string() == "h8h9"));
        // Mate: the game is over and nobody may move.
        let mut g = game(Some("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), Color::Red);
        g.play_human("e1e8").unwrap();
        assert!(matches!(g.state(), GameState::RedWins(_)));
        assert!(g.playable().is_empty() && !g.engine_to_move());
    }
}
