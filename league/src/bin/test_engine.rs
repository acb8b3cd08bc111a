//! `chariot-test-engine MODE`: a tiny UCCI/UCI engine that plays instantly and misbehaves on
//! purpose, for testing the league runner (and any Xiangqi GUI).
//!
//! It plays a legal move at once (a capture of the most valuable piece if it can, otherwise a
//! move picked from the position's key), obeying `banmoves`. The mode changes that:
//!
//! | mode | behaviour |
//! |---|---|
//! | `good` | the above, UCCI or UCI (the first command decides) |
//! | `uci-only` | answers `ucci` with `Unknown command: ucci`; UCI only |
//! | `uci-exit` | exits on any first command but `uci` |
//! | `ranks1` | UCI only, lists `UCI_Variant` with `xiangqi`, then names squares a1..i10 |
//! | `crash` | exits with code 3 on the first `go` |
//! | `hang` | never answers `go`, ignores `stop` |
//! | `mute` | never answers `ucci`/`uci` |
//! | `obey-stop` | answers `go` only when `stop` comes (and then at once) |
//! | `late-stop` | answers 1.5 s after `stop` |
//! | `garbage` | answers `bestmove` with a word that is not a move |
//! | `noise` | writes lines of garbage (and bytes that are not UTF-8) before a good answer |
//! | `illegal` | plays a move that is not legal |
//! | `resign` | resigns (`bestmove M resign`) |
//! | `draw` | offers and accepts draws (`bestmove M draw`) |
//! | `nomove` | answers `nobestmove` |
//! | `perpetual` | prefers a check that repeats a position, then undoing its last move, then any check; obeys `banmoves` |
//! | `perpetual-deaf` | as `perpetual`, but ignores `banmoves` |
//! | `book` | says each move comes from its book (`info string book move ...`), as Chariot does |
//! | `pikafish` | speaks Pikafish's exact words (below) |
//!
//! With `CHARIOT_TEST_ENGINE_PIDS=DIR` in the environment it writes its process id to a file in
//! DIR, so tests can check that the runner left no engine behind; with
//! `CHARIOT_TEST_ENGINE_LOG=FILE` it appends every line it reads to FILE, so tests can check the
//! words a client sends.
//!
//! In `pikafish` mode it says what Pikafish (github.com/official-pikafish/Pikafish, `src/uci.cpp`,
//! `src/engine.cpp`, `src/ucioption.cpp`) says, with its moves chosen as above: its banner
//! first; `Unknown command: 'ucci'. Type help for more information.` to anything it does not
//! know; to `uci` its `id name`, `id author`, an empty line, its eleven options and `uciok`;
//! after `go` two `info string` lines, then for each depth one `info depth D seldepth S multipv
//! K score cp X nodes N nps N hashfull H tbhits 0 time T pv ...` per MultiPV line (`wdl W D L`
//! after the score with `UCI_ShowWDL`) and `bestmove M ponder P`; without a legal move `info
//! depth 0 score mate 0` and `bestmove (none)`; an answer to `go infinite` only after `stop`; a
//! move in `position` that is not legal here is a critical error that ends the process, as
//! Pikafish's is. Squares are ICCS's, ranks 0-9.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

// Beside this file, not in `src/bin/`, where Cargo would take it for a binary of its own.
#[path = "test_engine/pikafish.rs"]
mod pikafish;

use chariot_rules::notation::parse_iccs;
use chariot_rules::{Color, Kind, Move, Position, Square};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Good,
    UciOnly,
    UciExit,
    Ranks1,
    Crash,
    Hang,
    Mute,
    ObeyStop,
    LateStop,
    Garbage,
    Noise,
    Illegal,
    Resign,
    Draw,
    NoMove,
    Perpetual,
    PerpetualDeaf,
    Book,
    Pikafish,
}

fn mode(s: &str) -> Option<Mode> {
    Some(match s {
        "good" => Mode::Good,
        "uci-only" => Mode::UciOnly,
        "uci-exit" => Mode::UciExit,
        "ranks1" => Mode::Ranks1,
        "crash" => Mode::Crash,
        "hang" => Mode::Hang,
        "mute" => Mode::Mute,
        "obey-stop" => Mode::ObeyStop,
        "late-stop" => Mode::LateStop,
        "garbage" => Mode::Garbage,
        "noise" => Mode::Noise,
        "illegal" => Mode::Illegal,
        "resign" => Mode::Resign,
        "draw" => Mode::Draw,
        "nomove" => Mode::NoMove,
        "perpetual" => Mode::Perpetual,
        "perpetual-deaf" => Mode::PerpetualDeaf,
        "book" => Mode::Book,
        "pikafish" => Mode::Pikafish,
        _ => return None,
    })
}

struct Engine {
    mode: Mode,
    uci: bool,
    ranks1: bool,
    pos: Position,
    banned: Vec<Move>,
    out: io::Stdout,
    /// Pikafish's `MultiPV` and `UCI_ShowWDL`.
    multipv: usize,
    wdl: bool,
}

impl Engine {
    fn say(&mut self, line: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn square(&self, s: Square) -> String {
        let rank = if self.ranks1 { s.rank() + 1 } else { s.rank() };
        format!("{}{}", char::from(b'a' + s.file()), rank)
    }

    fn text(&self, m: Move) -> String {
        format!("{}{}", self.square(m.from()), self.square(m.to()))
    }

    fn parse(&self, t: &str) -> Option<Move> {
        if !self.ranks1 {
            return parse_iccs(t).ok();
        }
        // a1..i10: shift ranks down by one.
        let b = t.as_bytes();
        let split = 1 + b[1..].iter().position(|c| c.is_ascii_alphabetic())?;
        let sq = |s: &str| -> Option<Square> {
            let file = s.as_bytes().first()?.wrapping_sub(b'a');
            let rank: u8 = s[1..].parse().ok()?;
            (file < 9 && (1..=10).contains(&rank)).then(|| Square::new(file, rank - 1))
        };
        Some(Move::new(sq(&t[..split])?, sq(&t[split..])?))
    }

    /// `position {fen F | startpos} [moves ...]`.
    fn position(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves_at = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let pos = match words.get(1) {
            Some(&"startpos") => Some(Position::start()),
            Some(&"fen") => Position::from_fen(&words[2..moves_at].join(" ")).ok(),
            _ => None,
        };
        let Some(mut pos) = pos else {
            self.say("info string error: bad position");
            return;
        };
        for w in words.iter().skip(moves_at + 1) {
            match self.parse(w) {
                Some(m) if pos.is_legal(m) => pos.make_move(m),
                _ => {
                    self.say(&format!("info string error: bad move {w}"));
                    return;
                }
            }
        }
        self.pos = pos;
        self.banned.clear();
    }

    /// The move to play, `None` without legal moves.
    fn choose(&mut self) -> Option<Move> {
        let deaf = self.mode == Mode::PerpetualDeaf;
        let moves: Vec<Move> = self
            .pos
            .legal_move_list()
            .iter()
            .copied()
            .filter(|m| deaf || !self.banned.contains(m))
            .collect();
        if moves.is_empty() {
            return None;
        }
        if matches!(self.mode, Mode::Perpetual | Mode::PerpetualDeaf) {
            // 1. a check that recreates the position of four plies ago; 2. the reverse of our
            // last move; 3. any check.
            let history = self.pos.history();
            let back = history.len().checked_sub(3).map(|i| history[i].key);
            let reverse = history
                .len()
                .checked_sub(2)
                .map(|i| Move::new(history[i].mv.to(), history[i].mv.from()));
            let mut checks = Vec::new();
            for &m in &moves {
                if self.pos.gives_check(m) {
                    self.pos.make_move(m);
                    let repeats = Some(self.pos.key()) == back;
                    self.pos.unmake_move();
                    if repeats {
                        return Some(m);
                    }
                    checks.push(m);
                }
            }
            if let Some(r) = reverse.filter(|r| moves.contains(r)) {
                return Some(r);
            }
            if let Some(&c) = checks.first() {
                return Some(c);
            }
        }
        let value = |k: Kind| match k {
            Kind::Chariot => 9,
            Kind::Horse | Kind::Cannon => 4,
            Kind::Advisor | Kind::Elephant => 2,
            Kind::Soldier => 1,
            Kind::General => 100,
        };
        let best_capture = moves
            .iter()
            .filter_map(|&m| self.pos.piece_at(m.to()).map(|p| (value(p.kind()), m)))
            .max_by_key(|&(v, m)| (v, m.to_u16()));
        if let Some((_, m)) = best_capture {
            return Some(m);
        }
        let i = usize::try_from(self.pos.key() % moves.len() as u64).unwrap_or(0);
        Some(moves[i])
    }

    fn go(&mut self, line: &str, lines: &mut impl Iterator<Item = String>) -> bool {
        match self.mode {
            Mode::Crash => std::process::exit(3),
            Mode::Hang => {
                // Read (and ignore) everything, never answer.
                for _ in lines.by_ref() {}
                std::thread::sleep(Duration::from_secs(3600));
                return false;
            }
            Mode::ObeyStop | Mode::LateStop => loop {
                match lines.next() {
                    Some(l) if l.trim() == "stop" => {
                        if self.mode == Mode::LateStop {
                            std::thread::sleep(Duration::from_millis(1500));
                        }
                        break;
                    }
                    Some(_) => {}
                    None => return false,
                }
            },
            _ => {}
        }
        let draw = line.split_whitespace().nth(1) == Some("draw");
        let choice = self.choose();
        let Some(m) = choice else {
            self.say(if self.uci {
                "bestmove (none)"
            } else {
                "nobestmove"
            });
            return true;
        };
        let text = self.text(m);
        self.say("info depth 1 score 0 pv");
        match self.mode {
            Mode::Garbage => self.say("bestmove xyzzy"),
            Mode::Noise => {
                self.say("hello there, I am thinking");
                let mut out = self.out.lock();
                let _ = out.write_all(b"\xff\xfe\x00garbage\n");
                let _ = out.flush();
                drop(out);
                self.say(&format!("bestmove {text}"));
            }
            Mode::Illegal => {
                // The general jumps to the far corner of its own side.
                let k = self.pos.king(self.pos.turn());
                let to = if self.pos.turn() == Color::Red {
                    Square::new(0, 0)
                } else {
                    Square::new(8, 9)
                };
                let m = Move::new(k, to);
                let t = self.text(m);
                self.say(&format!("bestmove {t}"));
            }
            Mode::Resign => self.say(&format!("bestmove {text} resign")),
            Mode::Draw => self.say(&format!("bestmove {text} draw")),
            Mode::Book => {
                self.say(&format!("info string book move {text}: 12 games"));
                self.say(&format!("bestmove {text}"));
            }
            Mode::NoMove => self.say("nobestmove"),
            _ if draw => self.say(&format!("bestmove {text}")),
            _ => self.say(&format!("bestmove {text}")),
        }
        true
    }
}

fn main() -> ExitCode {
    let Some(mode) = std::env::args().nth(1).as_deref().and_then(mode) else {
        eprintln!("usage: chariot-test-engine MODE (see the source for the modes)");
        return ExitCode::from(2);
    };
    if let Some(dir) = std::env::var_os("CHARIOT_TEST_ENGINE_PIDS") {
        let path = std::path::Path::new(&dir).join(std::process::id().to_string());
        let _ = std::fs::write(path, b"");
    }
    let mut engine = Engine {
        mode,
        uci: false,
        ranks1: false,
        pos: Position::start(),
        banned: Vec::new(),
        out: io::stdout(),
        multipv: 1,
        wdl: false,
    };
    let mut log = std::env::var_os("CHARIOT_TEST_ENGINE_LOG").and_then(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    });
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok).inspect(|line| {
        if let Some(file) = log.as_mut() {
            let _ = writeln!(file, "{line}");
        }
    });
    if mode == Mode::Pikafish {
        return pikafish::run(&mut engine, &mut lines);
    }
    let mut first = true;
    while let Some(line) = lines.next() {
        let cmd = line.split_whitespace().next().unwrap_or("");
        if first {
            first = false;
            if mode == Mode::Mute {
                for _ in lines.by_ref() {}
                return ExitCode::SUCCESS;
            }
            if mode == Mode::UciExit && cmd != "uci" {
                return ExitCode::from(1);
            }
        }
        match cmd {
            "ucci" if matches!(mode, Mode::UciOnly | Mode::Ranks1 | Mode::UciExit) => {
                engine.say("Unknown command: ucci");
                first = true;
            }
            "ucci" => {
                engine.say("id name TestEngine");
                engine.say("option usemillisec type check default false");
                engine.say("ucciok");
            }
            "uci" => {
                engine.uci = true;
                engine.say("id name TestEngine");
                if mode == Mode::Ranks1 {
                    engine.say(
                        "option name UCI_Variant type combo default chess var chess var xiangqi",
                    );
                }
                engine.say("uciok");
            }
            "setoption" if line.contains("UCI_Variant value xiangqi") => engine.ranks1 = true,
            "isready" => engine.say("readyok"),
            "position" => engine.position(&line),
            "banmoves" => {
                let banned: Vec<Move> = line
                    .split_whitespace()
                    .skip(1)
                    .filter_map(|w| engine.parse(w))
                    .collect();
                engine.banned = banned;
            }
            "go" if !engine.go(&line, &mut lines) => return ExitCode::SUCCESS,
            "stop" if !engine.uci => engine.say("nobestmove"),
            "quit" => {
                if !engine.uci {
                    engine.say("bye");
                }
                return ExitCode::SUCCESS;
            }
            _ => {}
        }
    }
    ExitCode::SUCCESS
}
