//! The referee: what the rules say about a position reached in a game.
//!
//! The game loop asks a [`Referee`] after every move whether the game is over (mate, stalemate,
//! a forbidden or allowed repetition, the move limit), and before every move which moves the side
//! to move must not play (they would lose by a forbidden repetition; UCCI engines are told them
//! with `banmoves`, as the specification's league simulator does).
//!
//! [`JudgeReferee`] is the rules core's judge (`chariot_rules::judge`: perpetual check and
//! chase under the Asian rules, the 60-move rule) behind this crate's [`Referee`] trait, which
//! adds the question the league needs and the judge does not ask: which moves to ban.

use chariot_rules::judge::{
    self as rules_judge, JudgeConfig, Reason, repetition_start, repetition_verdict,
};
use chariot_rules::{Color, EndReason, Ending, Move, Position};

/// `true` when `ending` is a loss of `mover` (the side that just moved) by a forbidden
/// repetition: a perpetual check or chase.
#[must_use]
pub fn is_forbidden_repetition_by(ending: &Ending, mover: Color) -> bool {
    matches!(
        ending.reason,
        EndReason::Rules(Reason::PerpetualCheck | Reason::PerpetualChase)
    ) && ending.winner() == Some(mover.opponent())
}

/// Judges positions reached in a game.
///
/// `Send + Sync` because games run on several threads with one referee.
pub trait Referee: Send + Sync {
    /// The verdict on `pos`, whose history holds the game so far, or `None` while it goes on.
    fn judge(&self, pos: &Position) -> Option<Ending>;

    /// The verdict on the repetition the last move completed, once the current position has
    /// occurred `times` times (this time included) since the last capture; `None` when it has
    /// not. The verdict is a loss for a side that checked (or chased) with every one of its
    /// moves since the position's previous occurrence while the other did not, a draw otherwise.
    fn repetition(&self, pos: &Position, times: usize) -> Option<Ending>;

    /// The legal moves of the side to move that would repeat a position by a perpetual check
    /// or chase of its own.
    ///
    /// A move is forbidden as soon as it repeats a position once (not only the third time):
    /// otherwise the offender could make the second repetition unhindered and the third would
    /// be completed by the opponent's forced reply, with no forbidden move ever to ban.
    fn forbidden_moves(&self, pos: &mut Position) -> Vec<Move> {
        let mover = pos.turn();
        let since = pos.history().len() - reversible_plies(pos);
        let earlier: Vec<u64> = pos.history()[since..].iter().map(|u| u.key).collect();
        if earlier.is_empty() {
            return Vec::new();
        }
        let mut banned = Vec::new();
        for m in pos.legal_move_list().iter().copied() {
            if pos.is_capture(m) {
                continue;
            }
            pos.make_move(m);
            if earlier.contains(&pos.key())
                && self
                    .repetition(pos, 2)
                    .is_some_and(|v| is_forbidden_repetition_by(&v, mover))
            {
                banned.push(m);
            }
            pos.unmake_move();
        }
        banned
    }
}

/// The number of plies at the end of the history since the last capture (all of them if none),
/// i.e. the part of the game in which a position can repeat.
#[must_use]
pub fn reversible_plies(pos: &Position) -> usize {
    let history = pos.history();
    history
        .iter()
        .rev()
        .position(|u| u.captured != 0)
        .unwrap_or(history.len())
}

/// The rules core's judge as a referee: mate and stalemate lose; a repetition (the third
/// occurrence by default) loses for a side that checked, or failing that chased one piece, with
/// every move of the cycle, and is drawn otherwise; the move limit (120 plies without a capture
/// by default) draws. See `chariot_rules::judge` and `docs/rules.md`.
#[derive(Clone, Copy, Debug, Default)]
pub struct JudgeReferee {
    /// The judge's settings (move limit, occurrences that end the game).
    pub config: JudgeConfig,
}

impl JudgeReferee {
    /// A referee with the given judge settings.
    #[must_use]
    pub fn new(config: JudgeConfig) -> JudgeReferee {
        JudgeReferee { config }
    }
}

impl Referee for JudgeReferee {
    fn judge(&self, pos: &Position) -> Option<Ending> {
        Ending::from_state(rules_judge::judge(pos, &self.config))
    }

    /// The rules core's own list (`chariot_rules::forbidden_moves`), which the engine API and
    /// the web server use too.
    fn forbidden_moves(&self, pos: &mut Position) -> Vec<Move> {
        chariot_rules::forbidden_moves(pos)
    }

    fn repetition(&self, pos: &Position, times: usize) -> Option<Ending> {
        let times = u32::try_from(times.max(2)).unwrap_or(u32::MAX);
        let start = repetition_start(pos, times)?;
        Ending::from_state(repetition_verdict(pos, start)?.result())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_move;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for t in moves.split_whitespace() {
            let m = parse_move(&pos, t).unwrap();
            pos.make_move(m);
        }
        pos
    }

    /// Red's chariot can check Black's lone general along the 9th and 8th ranks in turn.
    pub(crate) const CHECKS: &str = "4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1";
    /// Eight plies of checks and escapes; one more check repeats the first check a third time.
    pub(crate) const CHECK_LINE: &str = "h0h9 e9e8 h9h8 e8e9 h8h9 e9e8 h9h8 e8e9";

    fn verdict(winner: Option<Color>, reason: Reason) -> Option<Ending> {
        Some(match winner {
            Some(c) => Ending::win(c, EndReason::Rules(reason)),
            None => Ending::draw(EndReason::Rules(reason)),
        })
    }

    #[test]
    fn mate_and_stalemate_lose() {
        let referee = JudgeReferee::default();
        let pos = play("3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1", "");
        assert_eq!(
            referee.judge(&pos),
            verdict(Some(Color::Red), Reason::Checkmate)
        );
        let pos = play("3k5/R8/9/9/4R4/9/9/9/9/5K3 b - - 0 1", "");
        assert_eq!(
            referee.judge(&pos),
            verdict(Some(Color::Red), Reason::Stalemate)
        );
    }

    #[test]
    fn move_limit_draws() {
        let referee = JudgeReferee::default();
        let pos = play("4k4/9/9/9/9/9/9/9/9/3K5 w - - 118 80", "d0d1");
        assert_eq!(referee.judge(&pos), None);
        let pos = play("4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 80", "d0d1");
        assert_eq!(
            referee.judge(&pos),
            verdict(None, Reason::MoveLimit { plies: 120 })
        );
    }

    #[test]
    fn perpetual_check_loses_and_is_banned_from_the_first_repetition() {
        let referee = JudgeReferee::default();
        let mut pos = play(CHECKS, "");
        let moves: Vec<&str> = CHECK_LINE.split_whitespace().collect();
        for (i, t) in moves.iter().enumerate() {
            let banned: Vec<String> = referee
                .forbidden_moves(&mut pos)
                .iter()
                .map(ToString::to_string)
                .collect();
            // Red's checks that repeat a position (once) are forbidden from ply 4 on; nothing
            // else ever is.
            let expected: &[&str] = match i {
                4 => &["h8h9"],
                6 => &["h9h8"],
                _ => &[],
            };
            assert_eq!(banned, expected, "before ply {i} ({t})");
            let m = parse_move(&pos, t).unwrap();
            pos.make_move(m);
            assert_eq!(referee.judge(&pos), None, "after {t}");
        }
        let banned = referee.forbidden_moves(&mut pos);
        assert_eq!(
            banned.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["h8h9"]
        );
        let m = parse_move(&pos, "h8h9").unwrap();
        pos.make_move(m);
        assert_eq!(
            referee.judge(&pos),
            verdict(Some(Color::Black), Reason::PerpetualCheck)
        );
    }

    #[test]
    fn perpetual_chase_loses_and_is_banned() {
        // The red chariot follows the unprotected black cannon up and down the e-file.
        let referee = JudgeReferee::default();
        let fen = "5k3/9/R8/4c4/9/9/9/9/9/3K5 w - - 0 1";
        let mut pos = play(fen, "a7a6 e6e7 a6a7 e7e6");
        let banned = referee.forbidden_moves(&mut pos);
        assert_eq!(
            banned.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["a7a6"]
        );
        let pos = play(fen, "a7a6 e6e7 a6a7 e7e6 a7a6 e6e7 a6a7 e7e6");
        assert_eq!(
            referee.judge(&pos),
            verdict(Some(Color::Black), Reason::PerpetualChase)
        );
    }

    #[test]
    fn repetition_without_checks_draws() {
        let referee = JudgeReferee::default();
        let pos = play(
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9",
        );
        assert_eq!(referee.judge(&pos), verdict(None, Reason::Repetition));
    }
}
