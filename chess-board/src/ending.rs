//! How a game ended: the winner, the reason and a sentence, for the contest's games
//! ([`crate::game`]) and for engine matches ([`crate::matches`]) alike, with the PGN `Result`
//! and `Termination` they are written as. The match kit's runner reads it through
//! [`GameEnding`], White in the first seat; the reasons stay chess's own (stalemate and
//! insufficient material draw), apart from Xiangqi's.

use std::fmt;

use chariot_matchkit::ending::GameEnding;
use chariot_matchkit::standings::GameScore;
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

impl fmt::Display for Ending {
    /// The sentence ([`Ending::detail`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

/// White has the first seat. Every chess game has a result: none is abandoned or unfinished.
impl GameEnding for Ending {
    fn score(&self) -> Option<GameScore> {
        Some(match self.winner {
            Some(Color::White) => GameScore::FirstWins,
            Some(Color::Black) => GameScore::SecondWins,
            None => GameScore::Draw,
        })
    }

    fn pgn_termination(&self) -> &'static str {
        self.reason.termination()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runner_reads_a_chess_ending_from_whites_side() {
        let ending = |winner, reason| Ending {
            winner,
            reason,
            detail: "what happened".to_owned(),
        };
        let mate = ending(Some(Color::Black), Reason::Checkmate);
        assert_eq!(mate.score(), Some(GameScore::SecondWins));
        assert_eq!(GameEnding::pgn_result(&mate), mate.result());
        assert_eq!(mate.to_string(), "what happened");
        let stalemate = ending(None, Reason::Stalemate);
        assert_eq!(stalemate.score(), Some(GameScore::Draw));
        assert_eq!(GameEnding::pgn_result(&stalemate), "1/2-1/2");
        let flag = ending(Some(Color::White), Reason::Time);
        assert_eq!(flag.score(), Some(GameScore::FirstWins));
        assert_eq!(GameEnding::pgn_termination(&flag), "time forfeit");
    }
}
