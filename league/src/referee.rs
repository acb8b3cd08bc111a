//! The referee: what the rules say about a position reached in a game.
//!
//! The game loop asks a [`Referee`] after every move whether the game is over (mate, stalemate,
//! a forbidden or allowed repetition, the move limit), and before every move which moves the side
//! to move must not play (they would lose by a forbidden repetition; UCCI engines are told them
//! with `banmoves`, as the specification's league simulator does).
//!
//! The trait is the boundary to the rules core's repetition judge: [`BasicReferee`] is this
//! crate's own, simpler judge (perpetual check only, no chase detection) and is replaced by one
//! over `chariot::rules::judge` when that is available.

use chariot::rules::{Color, Move, Position};
use std::fmt;

/// How a game ended by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a loss in Xiangqi).
    Stalemate,
    /// A repetition in which one side checked on every move (that side loses).
    PerpetualCheck,
    /// A repetition in which one side chased a piece on every move (that side loses).
    PerpetualChase,
    /// A repetition in which neither or both sides broke a rule (a draw).
    Repetition,
    /// Too many moves without a capture (a draw).
    MoveLimit,
}

impl fmt::Display for RuleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleReason::Checkmate => "checkmate",
            RuleReason::Stalemate => "stalemate",
            RuleReason::PerpetualCheck => "perpetual check",
            RuleReason::PerpetualChase => "perpetual chase",
            RuleReason::Repetition => "repetition",
            RuleReason::MoveLimit => "move limit",
        })
    }
}

/// The rules' verdict on a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleVerdict {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: RuleReason,
}

impl RuleVerdict {
    /// `true` when the side that just moved lost because of a forbidden repetition.
    #[must_use]
    pub fn is_forbidden_repetition_by(&self, mover: Color) -> bool {
        matches!(
            self.reason,
            RuleReason::PerpetualCheck | RuleReason::PerpetualChase
        ) && self.winner == Some(mover.opponent())
    }
}

/// Judges positions reached in a game.
///
/// `Send + Sync` because games run on several threads with one referee.
pub trait Referee: Send + Sync {
    /// The verdict on `pos`, whose history holds the game so far, or `None` while it goes on.
    fn judge(&self, pos: &Position) -> Option<RuleVerdict>;

    /// The verdict on the repetition the last move completed, once the current position has
    /// occurred `times` times (this time included) since the last capture; `None` when it has
    /// not. The verdict is a loss for a side that checked (or chased) with every one of its
    /// moves since the position's previous occurrence while the other did not, a draw otherwise.
    fn repetition(&self, pos: &Position, times: usize) -> Option<RuleVerdict>;

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
                    .is_some_and(|v| v.is_forbidden_repetition_by(mover))
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

/// A simple referee: mate and stalemate, the move limit, and repetitions judged for perpetual
/// check only.
///
/// A repetition is judged when the current position occurs for the `repetitions`-th time
/// (third by default) within the moves since the last capture: if one side gave check with
/// every one of its moves since the position's previous occurrence and the other did not, the
/// checking side loses; otherwise the game is drawn. Chases are not recognised (a perpetual
/// chase is a draw here); that needs the rules core's judge.
#[derive(Clone, Copy, Debug)]
pub struct BasicReferee {
    /// Plies without a capture after which the game is drawn (120: the 60-move rule).
    pub move_limit: u32,
    /// Occurrences of a position that make a repetition (3).
    pub repetitions: usize,
}

impl Default for BasicReferee {
    fn default() -> BasicReferee {
        BasicReferee {
            move_limit: 120,
            repetitions: 3,
        }
    }
}

impl Referee for BasicReferee {
    fn judge(&self, pos: &Position) -> Option<RuleVerdict> {
        let to_move = pos.turn();
        if !pos.has_legal_move() {
            let reason = if pos.in_check() {
                RuleReason::Checkmate
            } else {
                RuleReason::Stalemate
            };
            return Some(RuleVerdict {
                winner: Some(to_move.opponent()),
                reason,
            });
        }
        if let Some(v) = self.repetition(pos, self.repetitions) {
            return Some(v);
        }
        (pos.halfmoves() >= self.move_limit).then_some(RuleVerdict {
            winner: None,
            reason: RuleReason::MoveLimit,
        })
    }

    fn repetition(&self, pos: &Position, times: usize) -> Option<RuleVerdict> {
        let history = pos.history();
        let n = history.len();
        let span = reversible_plies(pos);
        let key = pos.key();
        // Plies back to each earlier occurrence of the current position (same side to move).
        let occurrences: Vec<usize> = (1..=span)
            .filter(|&back| history[n - back].key == key)
            .collect();
        if occurrences.len() + 1 < times.max(2) {
            return None;
        }
        let cycle = occurrences[0];
        // Replay the cycle to see which side checked with every move.
        let mut p = pos.clone();
        for _ in 0..cycle {
            p.unmake_move();
        }
        let mut always = [true, true];
        for undo in &history[n - cycle..] {
            let mover = p.turn();
            p.make_move(undo.mv);
            if !p.in_check() {
                always[mover.index()] = false;
            }
        }
        let (red, black) = (always[Color::Red.index()], always[Color::Black.index()]);
        Some(match (red, black) {
            (true, false) => RuleVerdict {
                winner: Some(Color::Black),
                reason: RuleReason::PerpetualCheck,
            },
            (false, true) => RuleVerdict {
                winner: Some(Color::Red),
                reason: RuleReason::PerpetualCheck,
            },
            _ => RuleVerdict {
                winner: None,
                reason: RuleReason::Repetition,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot::notation::parse_move;

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

    fn verdict(winner: Option<Color>, reason: RuleReason) -> Option<RuleVerdict> {
        Some(RuleVerdict { winner, reason })
    }

    #[test]
    fn mate_and_stalemate_lose() {
        let referee = BasicReferee::default();
        let pos = play("3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1", "");
        assert_eq!(
            referee.judge(&pos),
            verdict(Some(Color::Red), RuleReason::Checkmate)
        );
        let pos = play("3k5/R8/9/9/4R4/9/9/9/9/5K3 b - - 0 1", "");
        assert_eq!(
            referee.judge(&pos),
            verdict(Some(Color::Red), RuleReason::Stalemate)
        );
    }

    #[test]
    fn move_limit_draws() {
        let referee = BasicReferee::default();
        let pos = play("4k4/9/9/9/9/9/9/9/9/3K5 w - - 118 80", "d0d1");
        assert_eq!(referee.judge(&pos), None);
        let pos = play("4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 80", "d0d1");
        assert_eq!(referee.judge(&pos), verdict(None, RuleReason::MoveLimit));
    }

    #[test]
    fn perpetual_check_loses_and_is_banned_from_the_first_repetition() {
        let referee = BasicReferee::default();
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
            verdict(Some(Color::Black), RuleReason::PerpetualCheck)
        );
    }

    #[test]
    fn repetition_without_checks_draws() {
        let referee = BasicReferee::default();
        let pos = play(
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9",
        );
        assert_eq!(referee.judge(&pos), verdict(None, RuleReason::Repetition));
    }
}
