//! The 2018 contest protocol: a colour line, then one move per line each way, in SAN.
//!
//! White (or whichever side is to move, when `--fen` sets the start) moves at once after the
//! colour line; then the agent reads the opponent's move and
//! answers with its own. The Board's retry signal (`重走`, or `redo`/`retry` in ASCII) means the
//! agent's last move was judged illegal: it is taken back and a different move is sent (the
//! same one only when no other exists, as the rules allow). Opponent text that is not a legal
//! move is reported on stderr and ignored, so the position stays what the Board holds. After
//! mate or stalemate the agent writes nothing more, notes the end on stderr, and waits for the
//! end of its input. The agent never offers a draw.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use shakmaty::{Color, Move, Position};

use crate::engine::Engine;
use crate::game::{Game, GameOver};
use crate::san::{format_move, parse_move};
use crate::search::Limits;
use crate::timeman;

/// Contest settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The whole game's thinking time for this side.
    pub total: Duration,
    /// Whether to print search summaries on stderr.
    pub verbose: bool,
    /// The start position (the standard one unless a test or an exhibition sets another).
    pub start: Game,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            total: Duration::from_secs(600),
            verbose: false,
            start: Game::new(),
        }
    }
}

/// Reads a colour line: `white`/`black`, `w`/`b`, `first`/`second`, `先手`/`后手` (also `後手`,
/// `白`/`黑`, `白棋`/`黑棋`, `白方`/`黑方`, `执白`/`执黑`), case-insensitive and trimmed.
#[must_use]
pub fn parse_colour(line: &str) -> Option<Color> {
    let word = line.trim().to_lowercase();
    match word.as_str() {
        "white" | "w" | "first" | "先手" | "白" | "白棋" | "白方" | "执白" => {
            Some(Color::White)
        }
        "black" | "b" | "second" | "后手" | "後手" | "黑" | "黑棋" | "黑方" | "执黑" => {
            Some(Color::Black)
        }
        _ => None,
    }
}

/// Whether a line is the Board's retry signal: `重走` (also `重走!`, `重走。`), `redo`, `retry`.
#[must_use]
pub fn is_retry(line: &str) -> bool {
    let word = line
        .trim()
        .trim_end_matches(['!', '！', '。', '.'])
        .to_lowercase();
    matches!(word.as_str(), "重走" | "redo" | "retry")
}

struct Player<W: Write> {
    game: Game,
    colour: Color,
    engine: Engine,
    output: W,
    settings: Settings,
    used: Duration,
    played: u32,
    /// Our moves the Board rejected in the current position.
    rejected: Vec<Move>,
    /// Whether the last move in the game is ours (and may be taken back on a retry).
    last_is_ours: bool,
    reported_end: bool,
}

/// Plays one game under the contest protocol; `first` is the colour line already read.
///
/// # Errors
///
/// Any error writing to `output`.
pub fn run<R: BufRead, W: Write>(
    first: &str,
    mut input: R,
    output: W,
    engine: Engine,
    settings: &Settings,
) -> std::io::Result<()> {
    let mut line = first.to_owned();
    let colour = loop {
        if let Some(c) = parse_colour(&line) {
            break c;
        }
        if !line.trim().is_empty() {
            eprintln!(
                "chess-agent: expected the colour (white/black, w/b, first/second, 先手/后手), got {:?}",
                line.trim()
            );
        }
        match super::line::read(&mut input)? {
            Some(next) => line = next,
            None => return Ok(()),
        }
    };
    let mut player = Player {
        game: settings.start.clone(),
        colour,
        engine,
        output,
        settings: settings.clone(),
        used: Duration::ZERO,
        played: 0,
        rejected: Vec::new(),
        last_is_ours: false,
        reported_end: false,
    };
    if player.game.position().turn() == colour {
        player.respond(Instant::now())?;
    }
    while let Some(line) = super::line::read(&mut input)? {
        let received = Instant::now();
        player.handle(line.trim(), received)?;
    }
    Ok(())
}

impl<W: Write> Player<W> {
    fn handle(&mut self, text: &str, received: Instant) -> std::io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        if is_retry(text) {
            if !self.last_is_ours {
                eprintln!(
                    "chess-agent: retry signal {text:?}, but there is no move of ours to take back"
                );
                return Ok(());
            }
            if let Some(m) = self.game.undo() {
                self.rejected.push(m);
                self.last_is_ours = false;
                self.reported_end = false;
                self.played = self.played.saturating_sub(1);
            }
            return self.respond(received);
        }
        if let Some(over) = self.game.over() {
            eprintln!(
                "chess-agent: the game is over ({}); ignoring {text:?}",
                describe(over)
            );
            return Ok(());
        }
        if self.game.position().turn() == self.colour {
            eprintln!("chess-agent: it is our move, not the opponent's; ignoring {text:?}");
            return Ok(());
        }
        match parse_move(self.game.position(), text) {
            Ok(m) => {
                self.game.play(m);
                self.rejected.clear();
                self.last_is_ours = false;
                self.respond(received)
            }
            Err(e) => {
                eprintln!(
                    "chess-agent: ignoring the opponent's move: {e} (position {})",
                    shakmaty::fen::Fen::from_position(
                        self.game.position(),
                        shakmaty::EnPassantMode::Legal
                    )
                );
                Ok(())
            }
        }
    }

    /// Chooses, sends and plays our move; `since` is when our clock started.
    fn respond(&mut self, since: Instant) -> std::io::Result<()> {
        if let Some(over) = self.game.over() {
            if !self.reported_end {
                eprintln!("chess-agent: game over: {}", describe(over));
                self.reported_end = true;
            }
            return Ok(());
        }
        let remaining = self.settings.total.saturating_sub(self.used);
        let budget = timeman::contest(remaining, self.played);
        let mut best = self.engine.book_move(&self.game, &self.rejected);
        if best.is_none() {
            let limits = Limits {
                soft: Some(budget.soft),
                hard: Some(budget.hard),
                ..Limits::default()
            };
            let outcome = self.engine.think(&self.game, limits, self.rejected.clone());
            if self.settings.verbose {
                if let Some(r) = &outcome.last {
                    eprintln!(
                        "chess-agent: depth {} score {} nodes {} time {} ms",
                        r.depth,
                        crate::search::score::uci(r.score),
                        r.nodes,
                        r.elapsed.as_millis()
                    );
                }
            }
            best = outcome.best;
        }
        let Some(m) = best else { return Ok(()) };
        let text = format_move(self.game.position(), m);
        self.output.write_all(text.as_bytes())?;
        self.output.write_all(b"\n")?;
        self.output.flush()?;
        self.game.play(m);
        self.last_is_ours = true;
        self.played += 1;
        self.used += since.elapsed();
        if let Some(over) = self.game.over() {
            eprintln!("chess-agent: game over: {}", describe(over));
            self.reported_end = true;
        }
        Ok(())
    }
}

fn describe(over: GameOver) -> &'static str {
    match over {
        GameOver::Checkmate => "checkmate",
        GameOver::Stalemate => "stalemate",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_words() {
        for w in ["white", "WHITE", " w\r\n", "First", "先手", "白"] {
            assert_eq!(parse_colour(w), Some(Color::White), "{w}");
        }
        for b in ["black", "B", "second\n", "后手", "後手", "黑"] {
            assert_eq!(parse_colour(b), Some(Color::Black), "{b}");
        }
        assert_eq!(parse_colour("e4"), None);
    }

    #[test]
    fn retry_words() {
        for r in ["重走", "重走\r\n", "REDO", "retry", "重走!"] {
            assert!(is_retry(r), "{r}");
        }
        assert!(!is_retry("e4"));
    }
}
