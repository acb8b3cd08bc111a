//! Xiangqi engines over the match kit's one UCCI/UCI client (`chariot_matchkit::client`).
//!
//! The kit speaks the protocols with moves as text: the handshake (with protocol detection),
//! options, positions with banned moves, `go` with the clocks in the protocol's own form, and
//! the answer within the time left and the grace. This side writes Xiangqi moves as the engine
//! names squares (ICCS ranks 0-9, or 1-10 for a multi-variant engine told `UCI_Variant
//! xiangqi`, as Fairy-Stockfish) and reads its answer back into a move.

use std::time::Duration;

use chariot_matchkit::client::{self, EngineConfig, Protocol};
use chariot_matchkit::clock::Clock;
use chariot_matchkit::engine::{EngineScore, Failure};
use chariot_matchkit::interrupt::Interrupt;
use chariot_rules::Move;
use chariot_rules::notation::SquareNaming;

/// The game's `UCI_Variant` value, for multi-variant UCI engines.
pub const UCI_VARIANT: &str = "xiangqi";

/// A position as the engine is to be told it: a FEN and the moves after it.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// The FEN.
    pub fen: &'a str,
    /// The moves played from it.
    pub moves: &'a [Move],
}

/// One request to think.
#[derive(Clone, Copy, Debug)]
pub struct Think<'a> {
    /// The position from the last capture on (what UCCI engines are sent).
    pub since_capture: Line<'a>,
    /// The position from the game's start (what UCI engines are sent).
    pub from_start: Line<'a>,
    /// Moves that would commit a forbidden repetition (sent with UCCI `banmoves`).
    pub banned: &'a [Move],
    /// The clock of the side to move.
    pub own: &'a Clock,
    /// The opponent's clock.
    pub opp: &'a Clock,
    /// Red is to move.
    pub red_to_move: bool,
    /// The opponent offered a draw with its last move (UCCI `go draw`).
    pub draw_offered: bool,
    /// Set when the run is interrupted: the wait then ends with [`Failure::Interrupted`].
    pub interrupt: &'a Interrupt,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move, `None` for `nobestmove` or a null move (`0000`, `(none)`).
    pub mv: Option<Move>,
    /// The move text as the engine wrote it.
    pub text: String,
    /// `draw` after the move: an offer, or the acceptance of one.
    pub draw: bool,
    /// `resign` after the move.
    pub resign: bool,
    /// Time from `go` to the answer.
    pub elapsed: Duration,
    /// The last score the engine reported.
    pub score: Option<EngineScore>,
    /// The last depth the engine reported.
    pub depth: Option<u32>,
    /// The engine said the move came from its opening book.
    pub book: bool,
}

/// A started Xiangqi engine, ready for `position` and `go`.
pub struct Engine {
    client: client::Engine,
}

impl Engine {
    /// Starts an engine, runs the handshake and sends its settings (a UCI engine that offers
    /// `UCI_Variant xiangqi` is told it, as `config.variant` says).
    ///
    /// `trace` labels the engine's traffic on standard error (`--debug`).
    ///
    /// # Errors
    /// [`Failure::Spawn`], [`Failure::Handshake`] or [`Failure::Disconnected`].
    pub fn start(config: &EngineConfig, trace: Option<String>) -> Result<Engine, Failure> {
        client::Engine::start(config, Some(UCI_VARIANT), trace).map(|client| Engine { client })
    }

    /// The protocol in use.
    #[must_use]
    pub fn protocol(&self) -> Protocol {
        self.client.protocol()
    }

    /// The engine's `id name`, if it gave one.
    #[must_use]
    pub fn id_name(&self) -> Option<&str> {
        self.client.id_name()
    }

    /// `true` when the engine names ranks 1-10 (a UCI engine told `UCI_Variant xiangqi`).
    #[must_use]
    pub fn ranks1(&self) -> bool {
        self.client.variant_set()
    }

    /// `true` when a UCCI engine gets its times in milliseconds.
    #[must_use]
    pub fn millisec(&self) -> bool {
        self.client.millisec()
    }

    /// The engine's process id.
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.client.pid()
    }

    /// Tells the engine a new game starts (UCCI `setoption newgame`, UCI `ucinewgame` and
    /// `isready`).
    ///
    /// # Errors
    /// [`Failure::Handshake`] without `readyok` in time, [`Failure::Disconnected`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.client.new_game()
    }

    /// A move as this engine writes squares.
    #[must_use]
    pub fn move_text(&self, m: Move) -> String {
        naming(self.ranks1()).format(m)
    }

    /// Sends the position and `go`, and reads the answer into a move (see
    /// `chariot_matchkit::client::Engine::think` for the waits).
    ///
    /// # Errors
    /// [`Failure::Timeout`], [`Failure::Disconnected`], [`Failure::Interrupted`], and
    /// [`Failure::Garbage`] for an answer that is not a move in the engine's square naming.
    pub fn think(&mut self, req: &Think<'_>) -> Result<Reply, Failure> {
        let texts =
            |moves: &[Move]| -> Vec<String> { moves.iter().map(|&m| self.move_text(m)).collect() };
        let (since, start, banned) = (
            texts(req.since_capture.moves),
            texts(req.from_start.moves),
            texts(req.banned),
        );
        let reply = self.client.think(&client::Think {
            since_capture: client::Line {
                fen: Some(req.since_capture.fen),
                moves: &since,
            },
            from_start: client::Line {
                fen: Some(req.from_start.fen),
                moves: &start,
            },
            banned: &banned,
            own: req.own,
            opp: req.opp,
            first_to_move: req.red_to_move,
            draw_offered: req.draw_offered,
            interrupt: req.interrupt,
        })?;
        let mv = match &reply.mv {
            None => None,
            Some(text) => match parse_engine_move(text, self.ranks1()) {
                Some(m) => Some(m),
                None if reply.resign => None,
                None => return Err(Failure::Garbage(reply.line)),
            },
        };
        Ok(Reply {
            mv,
            text: reply.text,
            draw: reply.draw,
            resign: reply.resign,
            elapsed: reply.elapsed,
            score: reply.score,
            depth: reply.depth,
            book: reply.book,
        })
    }
}

/// How an engine names squares: ranks 1-10 (`ranks1`) or ICCS's 0-9.
fn naming(ranks1: bool) -> SquareNaming {
    if ranks1 {
        SquareNaming::OneBased
    } else {
        SquareNaming::ZeroBased
    }
}

/// Reads a move as an engine writes it: ICCS `h2e2` (also `H2-E2`), or with `ranks1` the
/// Fairy-Stockfish form with ranks 1-10 (`h3e3`, `b10c8`).
#[must_use]
pub fn parse_engine_move(text: &str, ranks1: bool) -> Option<Move> {
    naming(ranks1).parse(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_square_namings() {
        let m = parse_engine_move("h2e2", false).unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(parse_engine_move("h3e3", true), Some(m));
        assert_eq!(
            parse_engine_move("b10c8", true).map(|m| m.to_string()),
            Some("b9c7".to_owned())
        );
        for bad in ["", "h2", "h0e0", "j1a1", "a11a1", "a01a2", "a1a1", "b10c8x"] {
            assert_eq!(parse_engine_move(bad, true), None, "{bad}");
        }
        assert_eq!(parse_engine_move("x9z9", false), None);
    }
}
