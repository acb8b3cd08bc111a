//! How a game ended: the result and why, from the rules up.
//!
//! One type for every program that finishes a game: the rules' judge ([`Ending::from_state`]:
//! mate, stalemate, perpetual check or chase, repetition, the move limit), the league's
//! referee and its adjudications, the web app's games (resignation, agreement, the flag). Each
//! ending has a result as PGN writes it ([`GameResult`], `crate::result`), a sentence for people
//! ([`Ending`]'s `Display`: `Red mates`, `Black loses on time`), a stable code for programs and
//! pages to translate ([`Ending::code`]) and the PGN `Termination` word
//! ([`Ending::pgn_termination`]). With the `serde` feature an ending serialises as
//! `{"result", "winner", "why", "reason"}`.

use std::fmt;

use crate::judge::{GameState, Reason};
use crate::piece::Color;
use crate::result::GameResult;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// By the rules of the board: mate, stalemate, repetition, the move limit.
    Rules(Reason),
    /// The loser resigned.
    Resignation,
    /// A draw offered and accepted.
    Agreement,
    /// The loser's flag fell.
    TimeForfeit,
    /// The loser played a move that is not legal here (the text it sent).
    IllegalMove(String),
    /// The loser gave no move (`nobestmove`, a null move) while legal moves were left.
    NoMove,
    /// The loser's engine failed: crashed, sent garbage, failed its handshake (what happened).
    /// Without a winner, both engines failed.
    EngineFailure(String),
    /// Adjudicated a draw: both engines' scores stayed near zero.
    DrawAdjudication,
    /// Adjudicated a loss: the loser's score stayed very low.
    ResignAdjudication,
    /// Adjudicated a draw: the game reached the move cap.
    MaxMoves,
    /// Adjudicated by the endgame tablebases: the winner mates in this many plies, or `None`
    /// for a draw, a win by the perpetual-check rule (the loser can avoid mate only by checking
    /// forever).
    TablebaseAdjudication(Option<u32>),
    /// Adjudicated by a distance-to-conversion table: a win whose next capture or soldier's
    /// move comes in this many plies.
    TablebaseConversion(u32),
    /// Abandoned without a result (the run was interrupted, the game closed).
    Interrupted,
}

/// How a game ended: its result and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result.
    pub outcome: GameResult,
    /// Why.
    pub reason: EndReason,
}

impl Ending {
    /// A win of `winner` for `reason`.
    #[must_use]
    pub fn win(winner: Color, reason: EndReason) -> Ending {
        Ending {
            outcome: GameResult::win(winner),
            reason,
        }
    }

    /// A draw for `reason`.
    #[must_use]
    pub fn draw(reason: EndReason) -> Ending {
        Ending {
            outcome: GameResult::Draw,
            reason,
        }
    }

    /// How the rules' judge ends a game in `state`; `None` while it goes on.
    #[must_use]
    pub fn from_state(state: GameState) -> Option<Ending> {
        match state {
            GameState::Ongoing => None,
            GameState::RedWins(r) => Some(Ending::win(Color::Red, EndReason::Rules(r))),
            GameState::BlackWins(r) => Some(Ending::win(Color::Black, EndReason::Rules(r))),
            GameState::Draw(r) => Some(Ending::draw(EndReason::Rules(r))),
        }
    }

    /// The winner, `None` for a draw or an unfinished game.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        self.outcome.winner()
    }

    /// The PGN `Termination` tag value (the PGN standard's words).
    #[must_use]
    pub fn pgn_termination(&self) -> &'static str {
        match self.reason {
            EndReason::Rules(_) | EndReason::Resignation | EndReason::Agreement => "normal",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::IllegalMove(_) | EndReason::NoMove => "rules infraction",
            EndReason::EngineFailure(_) | EndReason::Interrupted => "abandoned",
            EndReason::DrawAdjudication
            | EndReason::ResignAdjudication
            | EndReason::MaxMoves
            | EndReason::TablebaseAdjudication(_)
            | EndReason::TablebaseConversion(_) => "adjudication",
        }
    }

    /// Why, as a stable code for programs and pages to translate: `checkmate`, `stalemate`,
    /// `perpetual-check`, `perpetual-chase`, `repetition`, `move-limit`, `resignation`,
    /// `agreement`, `time`, `illegal-move`, `no-move`, `engine-failure`, `adjudication`,
    /// `tablebase`, `abandoned`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match &self.reason {
            EndReason::Rules(r) => match r {
                Reason::Checkmate => "checkmate",
                Reason::Stalemate => "stalemate",
                Reason::PerpetualCheck => "perpetual-check",
                Reason::PerpetualChase => "perpetual-chase",
                Reason::Repetition => "repetition",
                Reason::MoveLimit { .. } => "move-limit",
            },
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::TimeForfeit => "time",
            EndReason::IllegalMove(_) => "illegal-move",
            EndReason::NoMove => "no-move",
            EndReason::EngineFailure(_) => "engine-failure",
            EndReason::DrawAdjudication | EndReason::ResignAdjudication | EndReason::MaxMoves => {
                "adjudication"
            }
            EndReason::TablebaseAdjudication(_) | EndReason::TablebaseConversion(_) => "tablebase",
            EndReason::Interrupted => "abandoned",
        }
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

fn plies(n: u32) -> &'static str {
    if n == 1 { "ply" } else { "plies" }
}

impl fmt::Display for Ending {
    /// A sentence for people: `Red mates`, `Black loses on time`, `Red loses by perpetual
    /// check`, `draw by repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loser = self.winner().map(Color::opponent);
        let (w, l) = match loser {
            Some(l) => (side(l.opponent()), side(l)),
            None => ("?", "?"),
        };
        match (&self.reason, loser) {
            (EndReason::Rules(Reason::Checkmate), Some(_)) => write!(f, "{w} mates"),
            (EndReason::Rules(Reason::Stalemate), Some(_)) => {
                write!(f, "{l} is stalemated (no legal move)")
            }
            (EndReason::Rules(Reason::PerpetualCheck), Some(_)) => {
                write!(f, "{l} loses by perpetual check")
            }
            (EndReason::Rules(Reason::PerpetualChase), Some(_)) => {
                write!(f, "{l} loses by perpetual chase")
            }
            (EndReason::Rules(Reason::Repetition), _) => f.write_str("draw by repetition"),
            (EndReason::Rules(Reason::MoveLimit { plies }), _) => write!(
                f,
                "draw by the {}-move rule (no capture)",
                plies.div_ceil(2)
            ),
            (EndReason::Rules(r), _) => write!(f, "{r}"),
            (EndReason::Resignation, _) => write!(f, "{l} resigns"),
            (EndReason::Agreement, _) => f.write_str("draw by agreement"),
            (EndReason::TimeForfeit, _) => write!(f, "{l} loses on time"),
            (EndReason::IllegalMove(m), _) => write!(f, "{l} plays an illegal move {m}"),
            (EndReason::NoMove, _) => write!(f, "{l} gives no move (nobestmove)"),
            (EndReason::EngineFailure(e), Some(_)) => write!(f, "{l}'s engine {e}"),
            (EndReason::EngineFailure(e), None) => write!(f, "both engines failed: {e}"),
            (EndReason::DrawAdjudication, _) => f.write_str("draw by adjudication (scores)"),
            (EndReason::ResignAdjudication, _) => {
                write!(f, "{l} loses by adjudication (score)")
            }
            (EndReason::MaxMoves, _) => f.write_str("draw by adjudication (move count)"),
            (EndReason::TablebaseAdjudication(Some(n)), Some(_)) => write!(
                f,
                "adjudicated by tablebase: {} wins (mate in {n} {})",
                w.to_lowercase(),
                plies(*n)
            ),
            (EndReason::TablebaseAdjudication(None), Some(_)) => write!(
                f,
                "adjudicated by tablebase: {} wins (the other side can only check perpetually)",
                w.to_lowercase()
            ),
            (EndReason::TablebaseAdjudication(_), _) => {
                f.write_str("adjudicated by tablebase: draw")
            }
            (EndReason::Interrupted, _) => f.write_str("abandoned: the run was interrupted"),
            (EndReason::TablebaseConversion(n), _) => write!(
                f,
                "adjudicated by tablebase: {} wins (a conversion in {n} {})",
                w.to_lowercase(),
                plies(*n)
            ),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Ending {
    /// `{"result": "1-0", "winner": "red", "why": "checkmate", "reason": "Red mates"}`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Ending", 4)?;
        st.serialize_field("result", self.outcome.pgn())?;
        st.serialize_field(
            "winner",
            &self
                .winner()
                .map(|c| if c.is_red() { "red" } else { "black" }),
        )?;
        st.serialize_field("why", self.code())?;
        st.serialize_field("reason", &self.to_string())?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judges_states_end_games_with_sentences_codes_and_terminations() {
        assert_eq!(Ending::from_state(GameState::Ongoing), None);
        let mate = Ending::from_state(GameState::RedWins(Reason::Checkmate)).unwrap();
        assert_eq!(
            (mate.outcome.pgn(), mate.to_string().as_str(), mate.code()),
            ("1-0", "Red mates", "checkmate")
        );
        assert_eq!(mate.pgn_termination(), "normal");
        let chase = Ending::from_state(GameState::RedWins(Reason::PerpetualChase)).unwrap();
        assert_eq!(chase.to_string(), "Black loses by perpetual chase");
        let limit = Ending::from_state(GameState::Draw(Reason::MoveLimit { plies: 120 })).unwrap();
        assert_eq!(limit.to_string(), "draw by the 60-move rule (no capture)");
        assert_eq!(limit.code(), "move-limit");
    }

    #[test]
    fn endings_off_the_board() {
        let flag = Ending::win(Color::Black, EndReason::TimeForfeit);
        assert_eq!(
            (
                flag.to_string().as_str(),
                flag.pgn_termination(),
                flag.code()
            ),
            ("Red loses on time", "time forfeit", "time")
        );
        let both = Ending {
            outcome: GameResult::Unfinished,
            reason: EndReason::EngineFailure("could not be started".into()),
        };
        assert_eq!(
            both.to_string(),
            "both engines failed: could not be started"
        );
        assert_eq!(both.pgn_termination(), "abandoned");
        let tb = Ending::win(Color::Red, EndReason::TablebaseAdjudication(Some(1)));
        assert_eq!(
            tb.to_string(),
            "adjudicated by tablebase: red wins (mate in 1 ply)"
        );
    }
}
