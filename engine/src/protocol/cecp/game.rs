//! The CECP state machine: the game as XBoard tells it, over the engine API.
//!
//! Unlike UCCI and UCI, where every `go` carries the whole position, a CECP engine keeps the
//! game: `new` and `setboard` set it up, each `usermove` is checked against it and played, and
//! the engine plays its own moves into it. The engine plays one side (`new`: Black; `go`: the
//! side to move; `playother`: the other), none (`force`, after `result`), or analyses
//! (`analyze` until `exit`). Time comes as `level`/`st`/`sd` and the clocks as `time`/`otim`
//! (centiseconds); each search gets the same [`Limits`] the other protocols build.
//!
//! Searches run on the engine's search thread and answer through a listener that writes the
//! move (and a result claim, an `offer draw` or `resign`) and then wakes the read loop
//! ([`Waker`]), which plays the move into the game and, with pondering on (`hard`), starts
//! thinking on the expected reply after writing `Hint: MOVE`. A `usermove` of that reply turns
//! the ponder search into the search for the answer (a ponder hit); any other command that
//! changes the game stops a running search first, and its answer is discarded. `ping` is
//! answered once the engine's own move, if it is thinking on one, has been written, as the
//! specification requires.
//!
//! Results are claimed by the Asian rules of the rules crate's judge, only while the engine plays
//! a side: a mate, a stalemate (a loss in Xiangqi) and a forbidden perpetual check or chase with
//! `RESULT {COMMENT}` (`1-0 {Black loses by perpetual check}`; Red is XBoard's White), after the
//! engine's move or instead of searching after the opponent's; a draw (a repetition in which
//! neither side or both offended, 60 moves without a capture) with `offer draw`, before the
//! engine's move that makes it, or when the opponent's move made it, which is the
//! specification's way to claim a draw: the GUI grants it when it agrees that the draw can be
//! claimed and otherwise passes it on as an offer, never as a false claim.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::command::{self, Command};
use super::output;
use crate::api::{Answer, Engine, Event, GoRequest, Notice, OptionError};
use crate::protocol::session::{Flow, NAME, Output, emit, shorten};
use crate::search::{Limits, TimeLeft};
use chariot_rules::judge::{JudgeConfig, judge};
use chariot_rules::notation::parse_iccs;
use chariot_rules::{Color, Ending, Move, Position};

/// Called on the search thread once a search has written its move, so that the read loop wakes
/// the game ([`Game::wake`]) without waiting for the next line of input.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// Which side the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Neither: moves are only checked and played (`force`, after `result`).
    Force,
    /// This colour: the engine thinks when it is on move.
    Play(Color),
    /// Neither, but the engine analyses the position until `exit`.
    Analyze,
}

/// The time control: `level`, `st` and `sd`.
#[derive(Clone, Copy, Debug)]
struct TimeControl {
    /// Moves per session (0: the whole game).
    moves: u32,
    /// Time per session.
    base: Duration,
    /// Added after each move.
    increment: Duration,
    /// `st`: exactly this long per move (instead of the clock).
    per_move: Option<Duration>,
    /// `sd`: no deeper than this.
    depth: Option<u32>,
}

impl Default for TimeControl {
    /// 40 moves in 5 minutes (GNU Chess's default), until the GUI says otherwise.
    fn default() -> TimeControl {
        TimeControl {
            moves: 40,
            base: Duration::from_secs(300),
            increment: Duration::ZERO,
            per_move: None,
            depth: None,
        }
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// The engine's move.
    Play,
    /// Thinking on the opponent's time, assuming this reply.
    Ponder(Move),
    /// Analysis: no move is played.
    Analyze,
}

/// The engine's move as its search reported it.
#[derive(Clone, Copy, Debug)]
struct Played {
    mv: Move,
    ponder: Option<Move>,
    elapsed: Duration,
}

/// What a search's listener and the game share: the listener writes the move only while the game
/// has not discarded the search, and records it for the game to play.
#[derive(Debug, Default)]
struct Outcome {
    discard: bool,
    played: Option<Played>,
}

/// A search the game started.
struct Running {
    task: Task,
    outcome: Arc<Mutex<Outcome>>,
}

impl Running {
    /// The move the search wrote, if any, taken out.
    fn take_played(&self) -> Option<Played> {
        self.outcome
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .played
            .take()
    }
}

/// The game and the engine that plays it, for one CECP session.
pub struct Game {
    engine: Engine,
    out: Output,
    wake: Waker,
    /// The game from `new` or `setboard`, with its moves as the position's history.
    position: Position,
    /// Why the last `setboard` was refused: moves are refused until `new` or a valid `setboard`.
    rejected: Option<String>,
    mode: Mode,
    control: TimeControl,
    /// The engine's clock, centiseconds.
    time: i64,
    /// The opponent's clock, centiseconds.
    otim: i64,
    /// `post`: thinking output is written.
    post: Arc<AtomicBool>,
    /// `#` lines are written (the GUI did not reject `debug`).
    notes: Arc<AtomicBool>,
    /// The opponent offered a draw (`draw`); the next search decides.
    draw_offered: bool,
    search: Option<Running>,
}

impl Game {
    /// A game at the start position with the engine to play Black (as after `new`), writing to
    /// `out` and calling `wake` when a search has written its move.
    #[must_use]
    pub fn new(engine: Engine, out: Output, wake: Waker) -> Game {
        let control = TimeControl::default();
        let centis = centiseconds(control.base);
        Game {
            engine,
            out,
            wake,
            position: Position::start(),
            rejected: None,
            mode: Mode::Play(Color::Black),
            control,
            time: centis,
            otim: centis,
            post: Arc::new(AtomicBool::new(false)),
            notes: Arc::new(AtomicBool::new(true)),
            draw_offered: false,
            search: None,
        }
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        self.settle(false);
        match command::parse(line) {
            Ok(cmd) => self.execute(cmd),
            Err(e) => {
                self.say(&shorten(&e.to_string()));
                Flow::Continue
            }
        }
    }

    /// A search wrote its move: play it into the game and ponder on the expected reply.
    pub fn wake(&mut self) {
        self.settle(true);
    }

    /// At the end of input: the engine's move, if it is thinking on one, is written; pondering
    /// and analysis stop.
    pub fn shutdown(&mut self) {
        if self.task() == Some(Task::Play) {
            self.join_engine();
            self.settle(false);
        }
        self.halt();
    }

    fn say(&self, line: &str) {
        emit(&self.out, line);
    }

    /// A `#` line, which XBoard writes to its debug file and otherwise ignores.
    fn note(&self, text: &str) {
        if self.notes.load(Ordering::Relaxed) {
            self.say(&format!("# {}", shorten(text)));
        }
    }

    fn task(&self) -> Option<Task> {
        self.search.as_ref().map(|r| r.task)
    }

    fn execute(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Protover(_) => {
                for line in output::features(NAME) {
                    self.say(&line);
                }
                let tables = self.engine.tables();
                self.note(&format!(
                    "{} endgame tables found, max {} pieces; {} book entries",
                    tables.len(),
                    tables.max_pieces(),
                    self.engine.book_entries()
                ));
            }
            Command::New => {
                self.halt();
                self.position = Position::start();
                self.rejected = None;
                self.engine.new_game();
                self.control.depth = None;
                self.draw_offered = false;
                if self.mode == Mode::Analyze {
                    self.analyse();
                } else {
                    self.mode = Mode::Play(Color::Black);
                }
            }
            Command::Variant(name) => {
                if !name.eq_ignore_ascii_case("xiangqi") {
                    self.say(&format!(
                        "Error (only xiangqi is played): variant {}",
                        shorten(&name)
                    ));
                }
            }
            Command::Force | Command::Result(_) => {
                self.halt();
                self.mode = Mode::Force;
            }
            Command::Go => {
                self.halt();
                self.mode = Mode::Play(self.position.turn());
                self.think();
            }
            Command::PlayOther => {
                self.halt();
                self.mode = Mode::Play(self.position.turn().opponent());
            }
            Command::Colour { white } => {
                self.halt();
                self.mode = Mode::Play(if white { Color::Black } else { Color::Red });
            }
            Command::Level {
                moves,
                base,
                increment,
            } => {
                self.control.moves = moves;
                self.control.base = base;
                self.control.increment = increment;
                self.control.per_move = None;
                self.time = centiseconds(base);
                self.otim = centiseconds(base);
            }
            Command::St(per_move) => self.control.per_move = Some(per_move),
            Command::Sd(depth) => self.control.depth = Some(depth.max(1)),
            Command::Time(centis) => self.time = centis,
            Command::Otim(centis) => self.otim = centis,
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => {
                if self.task() == Some(Task::Play) {
                    self.engine.stop();
                }
            }
            Command::Ping(n) => {
                // Not before the engine's own move, when it is thinking on one.
                if self.task() == Some(Task::Play) {
                    self.join_engine();
                    self.settle(true);
                }
                self.say(&format!("pong {n}"));
            }
            Command::Draw => self.draw_offered = true,
            Command::SetBoard(fen) => {
                self.halt();
                match Position::from_fen(&fen) {
                    Ok(pos) => {
                        self.position = pos;
                        self.rejected = None;
                        if self.mode == Mode::Analyze {
                            self.analyse();
                        }
                    }
                    Err(e) => {
                        let why = shorten(&format!("{fen}: {e}")).into_owned();
                        self.say(&format!("tellusererror Illegal position {why}"));
                        self.rejected = Some(why);
                    }
                }
            }
            Command::Hint => self.hint(),
            Command::Book => self.book(),
            Command::Undo => self.take_back(1, "undo"),
            Command::Remove => self.take_back(2, "remove"),
            Command::Ponder(on) => {
                if !on && matches!(self.task(), Some(Task::Ponder(_))) {
                    self.halt();
                }
                self.set_option("ponder", Some(if on { "true" } else { "false" }));
            }
            Command::Post(on) => self.post.store(on, Ordering::Relaxed),
            Command::Analyze => {
                self.halt();
                self.mode = Mode::Analyze;
                self.analyse();
            }
            Command::Exit => {
                if self.mode == Mode::Analyze {
                    self.halt();
                    self.mode = Mode::Force;
                }
            }
            Command::Memory(mb) => {
                let mb = mb.clamp(1, 32_768).to_string();
                self.change_option("hashsize", Some(&mb));
            }
            Command::Cores(n) => {
                let n = n.clamp(1, 256).to_string();
                self.change_option("threads", Some(&n));
            }
            Command::SetOption { name, value } => self.change_option(&name, value.as_deref()),
            Command::Quit => {
                self.halt();
                return Flow::Quit;
            }
            Command::Rejected(feature) => {
                if feature.split('=').next() == Some("debug") {
                    self.notes.store(false, Ordering::Relaxed);
                }
            }
            Command::Ignored | Command::Empty => {}
        }
        Flow::Continue
    }

    /// The opponent's move (or any move in force and analyze mode).
    fn user_move(&mut self, text: &str) {
        if self.rejected.is_some() {
            self.say(&format!(
                "Illegal move (no valid position; send new or setboard): {}",
                shorten(text)
            ));
            return;
        }
        let mv = match parse_iccs(text) {
            Ok(mv) if self.position.is_legal(mv) => mv,
            _ => {
                self.say(&format!("Illegal move: {}", shorten(text)));
                return;
            }
        };
        // The reply the engine was pondering on: that search now answers it.
        if let Some(run) = &mut self.search
            && run.task == Task::Ponder(mv)
            && self.engine.ponderhit(self.draw_offered)
        {
            run.task = Task::Play;
            self.draw_offered = false;
            self.position.make_move(mv);
            return;
        }
        self.halt();
        self.position.make_move(mv);
        match self.mode {
            Mode::Analyze => self.analyse(),
            Mode::Play(side) if side == self.position.turn() => self.think(),
            Mode::Play(_) | Mode::Force => {}
        }
    }

    /// `undo` (one move) and `remove` (two): the moves are taken back; analysis goes on from
    /// the earlier position.
    fn take_back(&mut self, plies: usize, word: &str) {
        self.halt();
        if self.position.history().len() < plies {
            self.say(&format!("Error (command not legal now): {word}"));
            return;
        }
        for _ in 0..plies {
            self.position.unmake_move();
        }
        if self.mode == Mode::Analyze {
            self.analyse();
        }
    }

    /// How the game has ended by the rules, if it has.
    fn ending(pos: &Position) -> Option<Ending> {
        Ending::from_state(judge(pos, &JudgeConfig::default()))
    }

    /// Starts the search for the engine's move, or claims the result when the game is over.
    fn think(&mut self) {
        if self.rejected.is_some() {
            return;
        }
        match Self::ending(&self.position) {
            Some(end) if end.winner().is_some() => return self.say(&output::claim(&end)),
            Some(_) => self.say("offer draw"),
            None => {}
        }
        let request = GoRequest {
            limits: self.limits(self.position.history().len()),
            ponder: false,
            draw_offered: std::mem::take(&mut self.draw_offered),
        };
        self.start(Task::Play, self.position.clone(), request);
    }

    /// Starts analysing the game's position until told otherwise.
    fn analyse(&mut self) {
        if self.rejected.is_some() {
            return;
        }
        let request = GoRequest {
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            ponder: false,
            draw_offered: false,
        };
        self.start(Task::Analyze, self.position.clone(), request);
    }

    /// Starts thinking on the opponent's time, assuming `expected`.
    fn ponder(&mut self, expected: Move) {
        let mut root = self.position.clone();
        root.make_move(expected);
        if Self::ending(&root).is_some() {
            return;
        }
        self.say(&format!("Hint: {expected}"));
        let request = GoRequest {
            limits: self.limits(root.history().len()),
            ponder: true,
            draw_offered: false,
        };
        self.start(Task::Ponder(expected), root, request);
    }

    /// The search limits for the engine's move at `plies` from the start: the clock (or `st`'s
    /// time per move) and `sd`'s depth.
    fn limits(&self, plies: usize) -> Limits {
        let settings = self.engine.settings();
        let mut limits = Limits {
            depth: self.control.depth,
            ..Limits::default()
        };
        if let Some(per_move) = self.control.per_move {
            // Exactly this long, the GUI's latency included.
            limits.movetime = Some(
                per_move
                    .saturating_sub(settings.move_overhead)
                    .max(Duration::from_millis(1)),
            );
        } else {
            let moves = self.control.moves;
            // The engine has made plies / 2 moves whenever it is on move.
            let made = u32::try_from(plies / 2).unwrap_or(u32::MAX);
            limits.clock = Some(TimeLeft {
                time: duration(self.time),
                increment: self.control.increment,
                movestogo: (moves > 0).then(|| moves - made % moves),
                opptime: Some(duration(self.otim)),
                move_overhead: settings.move_overhead,
                ponder: settings.ponder,
            });
        }
        limits
    }

    /// Starts a search from `root`; its listener writes thinking output while `post` is on and,
    /// unless analysing or discarded, the lines that end it.
    fn start(&mut self, task: Task, root: Position, request: GoRequest) {
        self.engine.set_position(root.clone());
        let outcome = Arc::new(Mutex::new(Outcome::default()));
        let listen = {
            let (out, post, notes) = (self.out.clone(), self.post.clone(), self.notes.clone());
            let (outcome, wake) = (outcome.clone(), self.wake.clone());
            Box::new(move |event: Event<'_>| match event {
                Event::Search(report) => {
                    if post.load(Ordering::Relaxed)
                        && let Some(line) = output::thinking(&report)
                        && (!line.starts_with('#') || notes.load(Ordering::Relaxed))
                    {
                        emit(&out, &line);
                    }
                }
                Event::Note(text) => {
                    if notes.load(Ordering::Relaxed) {
                        emit(&out, &format!("# {}", shorten(&text)));
                    }
                }
                Event::Warning(text) => {
                    if notes.load(Ordering::Relaxed) {
                        emit(&out, &format!("# warning: {}", shorten(&text)));
                    }
                }
                Event::Done(answer) => {
                    if task == Task::Analyze {
                        return;
                    }
                    let mut o = outcome.lock().unwrap_or_else(PoisonError::into_inner);
                    if o.discard {
                        return;
                    }
                    let lines = answer_lines(answer, &root, post.load(Ordering::Relaxed));
                    o.played = answer
                        .result
                        .best
                        .filter(|_| !answer.verdict.resign)
                        .map(|mv| Played {
                            mv,
                            ponder: answer.result.ponder,
                            elapsed: answer.elapsed,
                        });
                    for line in &lines {
                        emit(&out, line);
                    }
                    drop(o);
                    wake();
                }
            })
        };
        match self.engine.go(request, listen) {
            Ok(()) => self.search = Some(Running { task, outcome }),
            Err(e) => self.say(&format!("tellusererror the engine cannot search: {e}")),
        }
    }

    /// Takes a finished search back: plays the engine's move into the game and, when `ponder`
    /// and pondering is on, starts thinking on the expected reply.
    fn settle(&mut self, ponder: bool) {
        if self.search.is_none() || self.engine.is_thinking() {
            return;
        }
        let Some(run) = self.search.take() else {
            return;
        };
        self.join_engine();
        let played = run.take_played();
        let (Task::Play, Some(p)) = (run.task, played) else {
            return;
        };
        self.position.make_move(p.mv);
        // The clock as it will be when the reply comes (the GUI sends it then, too late for a
        // ponder search's budget).
        let increment = centiseconds(self.control.increment);
        self.time = self.time - centiseconds(p.elapsed) + increment;
        let engine_waits = matches!(self.mode, Mode::Play(side) if side != self.position.turn());
        if ponder
            && engine_waits
            && self.engine.settings().ponder
            && let Some(expected) = p.ponder.filter(|&m| self.position.is_legal(m))
            && Self::ending(&self.position).is_none()
        {
            self.ponder(expected);
        }
    }

    /// Stops a running search and discards its answer. A move already written (the search
    /// answered just before) is played into the game, which keeps it in step with the GUI.
    fn halt(&mut self) {
        let Some(run) = self.search.take() else {
            return;
        };
        run.outcome
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .discard = true;
        self.engine.stop();
        self.join_engine();
        let played = run.take_played();
        if let (Task::Play, Some(p)) = (run.task, played) {
            self.position.make_move(p.mv);
        }
    }

    fn join_engine(&mut self) {
        if !self.engine.join() {
            self.note("error: the search failed unexpectedly; the hash table was reset");
        }
    }

    /// Sets an option between searches: the engine's own move is finished first, pondering and
    /// analysis stop (and analysis starts again afterwards).
    fn change_option(&mut self, name: &str, value: Option<&str>) {
        if self.task() == Some(Task::Play) {
            self.join_engine();
            self.settle(false);
        }
        self.halt();
        self.set_option(name, value);
        if self.mode == Mode::Analyze {
            self.analyse();
        }
    }

    /// Sets an option on the engine and reports what it says: notes as `#` lines, a value it
    /// cannot take as an error the GUI shows.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.engine.set_option(name, value) {
            Ok(notices) => {
                for notice in notices {
                    match notice {
                        Notice::Note(text) => self.note(&text),
                        Notice::Warning(text) => self.note(&format!("warning: {text}")),
                    }
                }
            }
            Err(OptionError::Unknown(_)) => {
                self.say(&format!("Error (unknown option): {}", shorten(name)));
            }
            Err(e) => self.say(&format!("tellusererror {}", shorten(&e.to_string()))),
        }
    }

    /// `hint`: the reply being pondered on, else the hash table's or the book's best move.
    fn hint(&self) {
        let pos = &self.position;
        let pondered = match self.task() {
            Some(Task::Ponder(m)) => Some(m),
            _ => None,
        };
        let best = pondered
            .or_else(|| self.engine.hash_probe(pos).and_then(|p| p.best))
            .or_else(|| {
                let moves = self.engine.books().probe(pos);
                moves.iter().max_by_key(|m| m.weight).map(|m| m.mv)
            });
        if let Some(m) = best.filter(|&m| pos.is_legal(m)) {
            self.say(&format!("Hint: {m}"));
        }
    }

    /// `bk`: the book's moves for the position, each on a line starting with a blank, then an
    /// empty line.
    fn book(&self) {
        let moves = self.engine.books().probe(&self.position);
        if moves.is_empty() {
            self.say(" no book moves in this position");
        }
        let total: f64 = moves
            .iter()
            .map(|m| f64::from(m.weight))
            .sum::<f64>()
            .max(1.0);
        for m in &moves {
            let s = m.stats;
            let pct = |n: u32| 100.0 * f64::from(n) / f64::from(s.games.max(1));
            self.say(&format!(
                " {} {:.0}% ({} games: red {:.0}%, even {:.0}%, black {:.0}%)",
                m.mv,
                100.0 * f64::from(m.weight) / total,
                s.games,
                pct(s.red_wins),
                pct(s.draws),
                pct(s.black_wins)
            ));
        }
        self.say("");
    }
}

/// The lines that end the engine's search: a book or table move's line (with `post`), then
/// `resign`, or `offer draw` (accepting the opponent's offer, offering one, or claiming the draw
/// the move makes) before `move MOVE`, and the claim of a game the move ends.
fn answer_lines(a: &Answer, root: &Position, post: bool) -> Vec<String> {
    let mut lines: Vec<String> = post
        .then(|| output::source_line(a))
        .flatten()
        .into_iter()
        .collect();
    let Some(best) = a.result.best else {
        // No move: the game is over (the search found no legal move).
        if let Some(end) = Game::ending(root).filter(|e| e.winner().is_some()) {
            lines.push(output::claim(&end));
        }
        return lines;
    };
    if a.verdict.resign {
        lines.push("resign".to_owned());
        return lines;
    }
    let mut after = root.clone();
    after.make_move(best);
    let end = Game::ending(&after);
    let draw = end.as_ref().is_some_and(|e| e.winner().is_none());
    if a.verdict.draw || draw {
        lines.push("offer draw".to_owned());
    }
    lines.push(format!("move {best}"));
    if let Some(end) = end.filter(|e| e.winner().is_some()) {
        lines.push(output::claim(&end));
    }
    lines
}

/// A duration in whole centiseconds (CECP's clock unit).
fn centiseconds(d: Duration) -> i64 {
    i64::try_from(d.as_millis() / 10).unwrap_or(i64::MAX)
}

/// Centiseconds as a duration; a negative clock (a fallen flag) is zero.
fn duration(centis: i64) -> Duration {
    Duration::from_millis(u64::try_from(centis).unwrap_or(0).saturating_mul(10))
}
