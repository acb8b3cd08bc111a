//! How a game ended: the winner, the reason and a sentence, for the contest's games
//! ([`crate::game`]) and for engine matches ([`crate::matches`]) alike, with the PGN `Result`
//! and `Termination` they are written as.

use std::fmt;

use shakmaty::Color;

/// Why a game ended. The contest's games end only by mate, stalemate, the fifty-move rule, a
/// loss on time, illegal moves or a crash; a match game also by threefold repetition and
/// insufficient material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is mated: the other side wins.
    Checkmate,
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// The same position (pieces, side to move, castling and en-passant rights) for the third
    /// time: a draw.
    Repetition,
    /// Fifty moves by each side (a hundred plies) without a capture or a pawn move: a draw.
    FiftyMoves,
    /// Neither side can mate by any series of legal moves: a draw.
    InsufficientMaterial,
    /// The loser's clock ran out before its move arrived.
    Time,
    /// The loser played an illegal or unreadable move (a contest game: its tries were rejected
    /// `max_illegal` times in a row).
    IllegalMove,
    /// The loser's output ended (it exited or crashed), or it could not be started or failed
    /// its handshake.
    Crash,
}

impl Reason {
    /// The PGN `Termination` tag's value for this reason.
    #[must_use]
    pub fn termination(self) -> &'static str {
        match self {
            Reason::Checkmate
            | Reason::Stalemate
            | Reason::Repetition
            | Reason::FiftyMoves
            | Reason::InsufficientMaterial => "normal",
            Reason::Time => "time forfeit",
            Reason::IllegalMove => "rules infraction",
            Reason::Crash => "abandoned",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "threefold repetition",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Time => "loss on time",
            Reason::IllegalMove => "illegal move",
            Reason::Crash => "crash",
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: Reason,
    /// A sentence saying what happened, for the PGN comment and the report or game line.
    pub detail: String,
}

impl Ending {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}
