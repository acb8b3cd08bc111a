//! Xiangqi engines over the match kit's one UCCI/UCI client (`chariot_matchkit::client`).
//!
//! The kit speaks the protocols with moves as text: the handshake (with protocol detection),
//! options, positions with banned moves, `go` with the clocks in the protocol's own form, and
//! the answer within the time left and the grace. This side writes Xiangqi moves as the engine
//! names squares (ICCS ranks 0-9, or 1-10 for a multi-variant engine told `UCI_Variant
//! xiangqi`, as Fairy-Stockfish) and reads its answer back into a move.

use chariot_matchkit::client::{self, EngineConfig, Protocol};
use chariot_matchkit::engine::Failure;
use chariot_rules::Move;
use chariot_rules::notation::SquareNaming;

/// The game's `UCI_Variant` value, for multi-variant UCI engines.
pub const UCI_VARIANT: &str = "xiangqi";

/// A position as the engine is to be told it, with Xiangqi moves.
pub type Line<'a> = client::Line<'a, Move>;

/// One request to think, with Xiangqi moves.
pub type Think<'a> = client::Think<'a, Move>;

/// An engine's answer to `go`, its move read.
pub type Reply = client::Reply<Move>;

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
        let mut store = Default::default();
        let texts = req.map(|&m| self.move_text(m), &mut store);
        let ranks1 = self.ranks1();
        self.client
            .think(&texts)?
            .try_map(|text| parse_engine_move(text, ranks1))
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
