//! How a game ended, as the runner sees it whatever the game.
//!
//! Each game keeps its own ending type, because the reasons differ and must stay right for
//! their game: Xiangqi's `chariot_rules::Ending` (a stalemated side loses; perpetual check and
//! chase; adjudications; an interrupted game) and the chess referee's (stalemate and
//! insufficient material draw; threefold repetition). The runner needs only a little of either,
//! and [`GameEnding`] is that little: the result from the first seat's side, the PGN
//! `Termination` word and a sentence for people. Both endings implement it; Xiangqi's here,
//! since this crate already sits on the rules crate and the orphan rule allows it nowhere else
//! (the league is neither the trait's crate nor the type's).

use std::fmt;

use chariot_rules::{EndReason, Ending, GameResult};

use crate::standings::GameScore;

/// What the runner reads of a finished game's ending. `Display` is the sentence for people
/// (`Red mates`, `White (sf) lost on time`).
pub trait GameEnding: fmt::Display {
    /// The result from the first seat's side (Red, White), or `None` when the game was
    /// abandoned because the run was interrupted: such a game is neither counted nor reported,
    /// and `--resume` plays it again.
    fn score(&self) -> Option<GameScore>;

    /// The PGN `Termination` tag's word (`normal`, `time forfeit`, `rules infraction`,
    /// `adjudication`, `abandoned`).
    fn pgn_termination(&self) -> &'static str;

    /// The PGN result: `1-0` when the first seat won, `0-1`, `1/2-1/2`, or `*` without a result.
    fn pgn_result(&self) -> &'static str {
        match self.score() {
            Some(GameScore::FirstWins) => "1-0",
            Some(GameScore::SecondWins) => "0-1",
            Some(GameScore::Draw) => "1/2-1/2",
            Some(GameScore::Unfinished) | None => "*",
        }
    }
}

/// Xiangqi: Red has the first seat; an [`EndReason::Interrupted`] game is abandoned; a game
/// without a result for another reason (neither engine started) is counted as unfinished.
impl GameEnding for Ending {
    fn score(&self) -> Option<GameScore> {
        if self.reason == EndReason::Interrupted {
            return None;
        }
        Some(match self.outcome {
            GameResult::RedWins => GameScore::FirstWins,
            GameResult::BlackWins => GameScore::SecondWins,
            GameResult::Draw => GameScore::Draw,
            GameResult::Unfinished => GameScore::Unfinished,
        })
    }

    fn pgn_termination(&self) -> &'static str {
        Ending::pgn_termination(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Color;
    use chariot_rules::judge::Reason;

    #[test]
    fn xiangqi_endings_score_from_reds_side_and_keep_their_pgn_words() {
        let mate = Ending::win(Color::Black, EndReason::Rules(Reason::Checkmate));
        assert_eq!(mate.score(), Some(GameScore::SecondWins));
        assert_eq!(GameEnding::pgn_result(&mate), mate.outcome.pgn());
        assert_eq!(GameEnding::pgn_termination(&mate), "normal");
        let flag = Ending::win(Color::Red, EndReason::TimeForfeit);
        assert_eq!(flag.score(), Some(GameScore::FirstWins));
        assert_eq!(GameEnding::pgn_termination(&flag), "time forfeit");
        let draw = Ending::draw(EndReason::MaxMoves);
        assert_eq!(
            (draw.score(), GameEnding::pgn_result(&draw)),
            (Some(GameScore::Draw), "1/2-1/2")
        );
        let failed = Ending {
            outcome: GameResult::Unfinished,
            reason: EndReason::EngineFailure("no such file".to_owned()),
        };
        assert_eq!(failed.score(), Some(GameScore::Unfinished));
        assert_eq!(GameEnding::pgn_result(&failed), "*");
        let stopped = Ending {
            outcome: GameResult::Unfinished,
            reason: EndReason::Interrupted,
        };
        assert_eq!(stopped.score(), None, "abandoned: not counted");
        assert_eq!(GameEnding::pgn_result(&stopped), "*");
    }
}
