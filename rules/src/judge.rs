//! Game results: mate, stalemate, repetition under the Asian (AXF) rules, and the move limit.
//!
//! Two entry points share one repetition judgement:
//!
//! * [`judge`] and [`judge_game`] answer the arbiter's question for a game: is it over, who won,
//!   and why. They generate legal moves and count repetitions, which is cheap but not free.
//! * [`repetition_verdict`] answers the search's question: the current position repeats the one
//!   at history index `cycle_start`, so who is to blame? It allocates nothing: it walks backwards
//!   through [`Position::history`] on a copy of the board (checks first, which are cheap; chases
//!   only when no side checked throughout).
//!
//! # The repetition rule
//!
//! Over the moves from the earlier occurrence of the position to now, a side *checks perpetually*
//! when every one of its moves gave check, and *chases perpetually* when every one of its moves
//! chased one and the same enemy piece (followed as it moves; see [`super::chase`] for what a
//! chase is). Then:
//!
//! 1. if exactly one side checks perpetually, it loses; if both do, the game is drawn;
//! 2. otherwise, if exactly one side chases perpetually, it loses; if both do, it is drawn;
//! 3. otherwise the repetition is a draw.
//!
//! A perpetual check therefore loses even against a perpetual chase. `docs/rules.md` lists the
//! cases this covers and the finer points of the AXF rules that it does not.

use std::fmt;

use super::bitboard::Bitboard;
use super::chase::Board;
use super::mv::Move;
use super::piece::Color;
use super::position::Position;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check but has no legal move (in Xiangqi this loses).
    Stalemate,
    /// A position repeated while one side gave check with every move.
    PerpetualCheck,
    /// A position repeated while one side chased the same piece with every move.
    PerpetualChase,
    /// A position repeated and neither side, or both, offended.
    Repetition,
    /// This many plies passed without a capture.
    MoveLimit {
        /// The limit that was reached.
        plies: u32,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Checkmate => f.write_str("checkmate"),
            Reason::Stalemate => f.write_str("stalemate"),
            Reason::PerpetualCheck => f.write_str("perpetual check"),
            Reason::PerpetualChase => f.write_str("perpetual chase"),
            Reason::Repetition => f.write_str("repetition"),
            Reason::MoveLimit { plies } => write!(f, "{plies} plies without a capture"),
        }
    }
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    /// The game goes on.
    Ongoing,
    /// Red has won.
    RedWins(Reason),
    /// Black has won.
    BlackWins(Reason),
    /// The game is drawn.
    Draw(Reason),
}

impl GameState {
    /// The result where `winner` wins for `reason`.
    #[must_use]
    pub const fn win(winner: Color, reason: Reason) -> GameState {
        match winner {
            Color::Red => GameState::RedWins(reason),
            Color::Black => GameState::BlackWins(reason),
        }
    }

    /// `true` unless the game goes on.
    #[must_use]
    pub const fn is_over(self) -> bool {
        !matches!(self, GameState::Ongoing)
    }

    /// The winner, if there is one.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameState::RedWins(_) => Some(Color::Red),
            GameState::BlackWins(_) => Some(Color::Black),
            GameState::Ongoing | GameState::Draw(_) => None,
        }
    }

    /// Why the game ended, if it did.
    #[must_use]
    pub const fn reason(self) -> Option<Reason> {
        match self {
            GameState::Ongoing => None,
            GameState::RedWins(r) | GameState::BlackWins(r) | GameState::Draw(r) => Some(r),
        }
    }
}

impl fmt::Display for GameState {
    /// `ongoing`, `red wins by checkmate`, `draw by repetition`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameState::Ongoing => f.write_str("ongoing"),
            GameState::RedWins(r) => write!(f, "red wins by {r}"),
            GameState::BlackWins(r) => write!(f, "black wins by {r}"),
            GameState::Draw(r) => write!(f, "draw by {r}"),
        }
    }
}

/// Who is to blame for a repetition (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Neither side offended, or both did.
    Draw,
    /// `loser` gave check with every move of the cycle and the other side did not.
    PerpetualCheck {
        /// The side that checked, and loses.
        loser: Color,
    },
    /// `loser` chased one piece with every move of the cycle and the other side did not (and
    /// neither side checked throughout).
    PerpetualChase {
        /// The side that chased, and loses.
        loser: Color,
    },
}

impl Verdict {
    /// The side that loses, if any.
    #[must_use]
    pub const fn loser(self) -> Option<Color> {
        match self {
            Verdict::Draw => None,
            Verdict::PerpetualCheck { loser } | Verdict::PerpetualChase { loser } => Some(loser),
        }
    }

    /// The verdict as a game result.
    #[must_use]
    pub const fn result(self) -> GameState {
        match self {
            Verdict::Draw => GameState::Draw(Reason::Repetition),
            Verdict::PerpetualCheck { loser } => {
                GameState::win(loser.opponent(), Reason::PerpetualCheck)
            }
            Verdict::PerpetualChase { loser } => {
                GameState::win(loser.opponent(), Reason::PerpetualChase)
            }
        }
    }
}

/// A configuration value that makes no sense.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A position must occur at least twice to be a repetition.
    #[error("a repetition needs a position to occur at least 2 times, not {0}")]
    Repetitions(u32),
}

/// The rules of a game's end that tournaments set differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgeConfig {
    move_limit: u32,
    repetitions: u32,
}

impl JudgeConfig {
    /// Plies without a capture after which the game is drawn by default: 60 moves each.
    pub const DEFAULT_MOVE_LIMIT: u32 = 120;
    /// How often a position must occur by default for the repetition to end the game: the third
    /// occurrence, as in Fairy-Stockfish and most arbiters' practice.
    pub const DEFAULT_REPETITIONS: u32 = 3;

    /// A configuration with the given move limit (plies without a capture; 0 turns the rule off)
    /// and the number of occurrences of a position that ends the game.
    ///
    /// # Errors
    /// [`ConfigError::Repetitions`] when `repetitions` is below 2.
    pub const fn new(move_limit: u32, repetitions: u32) -> Result<JudgeConfig, ConfigError> {
        if repetitions < 2 {
            return Err(ConfigError::Repetitions(repetitions));
        }
        Ok(JudgeConfig {
            move_limit,
            repetitions,
        })
    }

    /// Plies without a capture that draw the game; 0 when the rule is off.
    #[must_use]
    pub const fn move_limit(&self) -> u32 {
        self.move_limit
    }

    /// How often a position must occur for the repetition to end the game.
    #[must_use]
    pub const fn repetitions(&self) -> u32 {
        self.repetitions
    }
}

impl Default for JudgeConfig {
    fn default() -> JudgeConfig {
        JudgeConfig {
            move_limit: JudgeConfig::DEFAULT_MOVE_LIMIT,
            repetitions: JudgeConfig::DEFAULT_REPETITIONS,
        }
    }
}

/// Why a move history cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// A move is not legal in the position it was played in.
    #[error("move {ply} ({mv}) is not legal in {fen}")]
    IllegalMove {
        /// Its number in the history, counting from 1.
        ply: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        fen: String,
    },
    /// A move was played after the game had ended.
    #[error("move {ply} ({mv}) was played after the game ended ({result})")]
    MoveAfterEnd {
        /// Its number in the history, counting from 1.
        ply: usize,
        /// The move.
        mv: Move,
        /// How the game had ended.
        result: GameState,
    },
}

/// The outcome of [`judge_game`].
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The state of the game after the last move.
    pub result: GameState,
    /// The position after the last move, with the moves as its history.
    pub position: Position,
}

/// The history index where the window of a repetition starts: the current position has occurred
/// `times` times (counting itself) since the last capture, and this is the index of the earliest
/// of those occurrences (so `pos.history()[i].key == pos.key()`). `None` when it has occurred
/// fewer times. Null moves end the search like captures do. Allocates nothing.
#[must_use]
pub fn repetition_start(pos: &Position, times: u32) -> Option<usize> {
    let history = pos.history();
    let key = pos.key();
    let mut seen = 1;
    for i in (0..history.len()).rev() {
        let undo = &history[i];
        if undo.captured != 0 || undo.mv.is_none() {
            return None;
        }
        if (history.len() - i).is_multiple_of(2) && undo.key == key {
            seen += 1;
            if seen >= times {
                return Some(i);
            }
        }
    }
    None
}

/// The legal moves of the side to move that would repeat a position by a perpetual check or
/// chase of its own: under the Asian rules these may not be played (a GUI sends them to a UCCI
/// engine as `banmoves`; a server refuses them from a person).
///
/// A move is forbidden as soon as it repeats a position once, not only the third time:
/// otherwise the offender could make the second repetition unhindered and the third would be
/// completed by the opponent's forced reply, with no forbidden move ever to ban. Captures never
/// repeat a position.
#[must_use]
pub fn forbidden_moves(pos: &mut Position) -> Vec<Move> {
    let mover = pos.turn();
    let mut banned = Vec::new();
    for m in pos.legal_move_list().iter().copied() {
        if pos.is_capture(m) {
            continue;
        }
        pos.make_move(m);
        let offends = repetition_start(pos, 2)
            .and_then(|start| repetition_verdict(pos, start))
            .is_some_and(|v| v.loser() == Some(mover));
        pos.unmake_move();
        if offends {
            banned.push(m);
        }
    }
    banned
}

/// Who is to blame for the repetition of the position at history index `cycle_start` by the
/// current one, judged over the moves in between (see the module documentation).
///
/// `None` when it is not a repetition: `cycle_start` is out of range, the keys differ, the
/// cycle has an odd length, or a capture or null move lies inside it. Allocates nothing.
#[must_use]
pub fn repetition_verdict(pos: &Position, cycle_start: usize) -> Option<Verdict> {
    let history = pos.history();
    let window = history.get(cycle_start..)?;
    if window.is_empty()
        || window.len() % 2 != 0
        || window[0].key != pos.key()
        || window.iter().any(|u| u.captured != 0 || u.mv.is_none())
    {
        return None;
    }

    // Checks first: every position in the window after a move of side X must have X's opponent
    // in check.
    let mut board = Board::of(pos);
    let mut mover = pos.turn().opponent();
    let mut checks = [true; 2];
    for undo in window.iter().rev() {
        if checks[mover.index()] && !board.in_check(mover.opponent()) {
            checks[mover.index()] = false;
        }
        board.unplay(undo.mv, 0);
        mover = mover.opponent();
    }
    match checks {
        [true, true] => return Some(Verdict::Draw),
        [true, false] => return Some(Verdict::PerpetualCheck { loser: Color::Red }),
        [false, true] => {
            return Some(Verdict::PerpetualCheck {
                loser: Color::Black,
            });
        }
        [false, false] => {}
    }

    // Chases: the set of pieces side X chased with every one of its moves, walking backwards. A
    // set is kept in the squares of the board being looked at, so when the victim side moves a
    // piece, its square is moved back with it.
    let mut board = Board::of(pos);
    let mut mover = pos.turn().opponent();
    let mut chased = [Bitboard::EMPTY; 2];
    let mut started = [false; 2];
    for undo in window.iter().rev() {
        let (m, us, them) = (undo.mv, mover.index(), mover.opponent().index());
        if chased[them].contains(m.to()) {
            chased[them].remove(m.to());
            chased[them].insert(m.from());
        }
        board.unplay(m, 0);
        if !started[us] || !chased[us].is_empty() {
            let now = board.chased(m);
            chased[us] = if started[us] { chased[us] & now } else { now };
            started[us] = true;
        }
        if started == [true, true] && chased[0].is_empty() && chased[1].is_empty() {
            return Some(Verdict::Draw);
        }
        mover = mover.opponent();
    }
    Some(match (chased[0].is_empty(), chased[1].is_empty()) {
        (false, true) => Verdict::PerpetualChase { loser: Color::Red },
        (true, false) => Verdict::PerpetualChase {
            loser: Color::Black,
        },
        _ => Verdict::Draw,
    })
}

/// The state of the game in `pos`, judged with the moves in its history.
///
/// In order: no legal move loses for the side to move (checkmate or stalemate); the position
/// occurring for the configured number of times ends the game by the repetition verdict; the
/// move limit draws.
#[must_use]
pub fn judge(pos: &Position, config: &JudgeConfig) -> GameState {
    if !pos.has_legal_move() {
        let reason = if pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return GameState::win(pos.turn().opponent(), reason);
    }
    if let Some(start) = repetition_start(pos, config.repetitions)
        && let Some(verdict) = repetition_verdict(pos, start)
    {
        return verdict.result();
    }
    if config.move_limit > 0 && pos.halfmoves() >= config.move_limit {
        return GameState::Draw(Reason::MoveLimit {
            plies: config.move_limit,
        });
    }
    GameState::Ongoing
}

/// Plays `moves` from `start` (whose own history is ignored) and judges the game after each one.
///
/// # Errors
/// [`JudgeError::IllegalMove`] for a move that is not legal where it is played, and
/// [`JudgeError::MoveAfterEnd`] for a move played after the game ended.
pub fn judge_game(
    start: &Position,
    moves: &[Move],
    config: &JudgeConfig,
) -> Result<Judgement, JudgeError> {
    let mut pos = start.clone();
    pos.clear_history();
    let mut result = judge(&pos, config);
    for (i, &mv) in moves.iter().enumerate() {
        if result.is_over() {
            return Err(JudgeError::MoveAfterEnd {
                ply: i + 1,
                mv,
                result,
            });
        }
        if !pos.is_legal(mv) {
            return Err(JudgeError::IllegalMove {
                ply: i + 1,
                mv,
                fen: pos.fen(),
            });
        }
        pos.make_move(mv);
        result = judge(&pos, config);
    }
    Ok(Judgement {
        result,
        position: pos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::new(text[..2].parse().unwrap(), text[2..].parse().unwrap())
    }

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace().map(mv).collect()
    }

    /// Plays the moves (twice when `twice`) and judges with the default rules.
    fn play(fen: &str, line: &str, twice: bool) -> GameState {
        let mut all = moves(line);
        if twice {
            all.extend(moves(line));
        }
        let start = Position::from_fen(fen).unwrap();
        judge_game(&start, &all, &JudgeConfig::default())
            .unwrap()
            .result
    }

    #[test]
    fn checkmate_and_stalemate_lose_for_the_side_to_move() {
        // The rook on e8 checks, the horse on c7 guards it, d9 faces the red general, f9 is the
        // other rook's.
        let mate = Position::from_fen("4k4/4R4/2N6/9/9/9/9/9/5R3/3K5 b - - 0 1").unwrap();
        assert_eq!(
            judge(&mate, &JudgeConfig::default()),
            GameState::RedWins(Reason::Checkmate)
        );
        // Not in check, but d8 and e9 are covered by the rook on e8.
        let stalemate = Position::from_fen("3k5/4R4/4R4/9/9/9/9/9/9/5K3 b - - 0 1").unwrap();
        assert_eq!(
            judge(&stalemate, &JudgeConfig::default()),
            GameState::RedWins(Reason::Stalemate)
        );
    }

    #[test]
    fn perpetual_check_by_one_side_loses() {
        // The red rook checks from h9 and h8 while the black general steps between d9 and d8.
        let fen = "3k5/7R1/9/9/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(
            play(fen, "h8h9 d9d8 h9h8 d8d9", true),
            GameState::BlackWins(Reason::PerpetualCheck)
        );
        // The same with the colours swapped.
        let fen = "5k3/9/9/9/9/9/9/9/7r1/3K5 b - - 0 1";
        assert_eq!(
            play(fen, "h1h0 d0d1 h0h1 d1d0", true),
            GameState::RedWins(Reason::PerpetualCheck)
        );
    }

    #[test]
    fn perpetual_check_by_both_sides_is_a_draw() {
        // Red's rook checks on the e-file and opens the f-file for Black's rook; Black's cannon
        // blocks and checks; Red's rook blocks and lets its cannon check over Black's cannon;
        // Black's cannon steps back and checks over Red's rook.
        let fen = "1nP4n1/4k4/5r3/5c3/9/9/5R3/5K3/4C4/9 w - - 0 1";
        assert_eq!(
            play(fen, "f3e3 f6e6 e3f3 e6f6", true),
            GameState::Draw(Reason::Repetition)
        );
    }

    #[test]
    fn perpetual_check_loses_against_perpetual_chase() {
        // Black's horse uncovers and covers its cannon's check on the e-file; Red answers by
        // moving its rook out of and back into the line, uncovering its other rook's attack on the
        // unprotected cannon on a5 and then attacking it itself: Red chases, Black checks.
        let fen = "4k4/1C2c4/9/4n4/c8/9/4R2N1/4K4/9/R8 b - - 0 1";
        assert_eq!(
            play(fen, "e6f8 e3a3 f8e6 a3e3", true),
            GameState::RedWins(Reason::PerpetualCheck)
        );
        // The red general steps aside and back, each time uncovering an attack on the black horse
        // on d2 (by the rook, then by the horse whose leg it freed); Black checks with its horse.
        let fen = "5k3/9/9/9/4C4/9/9/3n1n3/3K5/3RN4 w - - 0 1";
        assert_eq!(
            play(fen, "d1e1 f2g0 e1d1 g0f2", true),
            GameState::RedWins(Reason::PerpetualCheck)
        );
    }

    #[test]
    fn perpetual_chase_of_an_unprotected_piece_loses() {
        // The red rook follows the black cannon up and down the e-file.
        let fen = "5k3/9/R8/4c4/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(
            play(fen, "a7a6 e6e7 a6a7 e7e6", true),
            GameState::BlackWins(Reason::PerpetualChase)
        );
    }

    #[test]
    fn a_rook_that_can_only_chase_the_horse_loses_as_the_tables_say() {
        // From the KRKNP table (egtb-gen; `docs/egtb.md`, "The chase rule in the game"): Red
        // avoids mate only by attacking the unprotected horse on every move; the horse steps
        // away and back, checking once. Red chases perpetually, Black neither checks nor chases
        // perpetually: Red loses, as the table's chase core says.
        let fen = "9/9/3k5/9/9/9/3p5/4R4/3K5/5n3 w - - 0 1";
        assert_eq!(
            play(fen, "e2e0 f0g2 e0e2 g2f0", true),
            GameState::BlackWins(Reason::PerpetualChase)
        );
    }

    #[test]
    fn a_rook_chasing_two_horses_in_turn_wins_against_a_horse_chasing_it() {
        // From the KRKNN table, where xiangqitb and the rules give Red the win and Chariot's
        // tables a draw (`docs/egtb.md`, "Compared with xiangqitb"): Black's horses attack the
        // rook on every move; the rook attacks the horse on f7 (pinned on the generals' file,
        // so unprotected) and then the one on g5 (its guard on f7 is pinned). Red chases a
        // different horse each time, so only Black chases perpetually and loses.
        let fen = "5k3/9/5n3/9/9/8n/6R2/9/9/5K3 w - - 0 1";
        assert_eq!(
            play(fen, "g3f3 i4g5 f3g3 g5i4", true),
            GameState::RedWins(Reason::PerpetualChase)
        );
    }

    #[test]
    fn chasing_a_protected_piece_is_allowed() {
        // As above, but the black rook on e9 guards the cannon: a draw.
        let fen = "4rk3/9/R8/4c4/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(
            play(fen, "a7a6 e6e7 a6a7 e7e6", true),
            GameState::Draw(Reason::Repetition)
        );
    }

    #[test]
    fn horse_chasing_a_rook_loses_even_if_the_rook_is_protected() {
        // The red horse attacks the black rook on e6 from d4 and on e7 from c6; the rook on e9
        // guards it, which does not help. (The rook's own attack on the horse on c6 is no chase:
        // the red rook on c0 guards the horse.)
        let fen = "3kr4/9/9/2N1r4/9/9/9/9/9/2R2K3 w - - 0 1";
        assert_eq!(
            play(fen, "c6d4 e6e7 d4c6 e7e6", true),
            GameState::BlackWins(Reason::PerpetualChase)
        );
    }

    #[test]
    fn chasing_two_pieces_in_turn_is_allowed() {
        // The rook attacks the cannon on e6 from a6 and the one on e7 from a7: no single piece is
        // chased by every move.
        let fen = "5k3/9/R3c4/4c4/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(
            play(fen, "a7a6 f9f8 a6a7 f8f9", true),
            GameState::Draw(Reason::Repetition)
        );
    }

    #[test]
    fn one_check_one_chase_is_a_draw() {
        // The red rook checks from a9 and attacks the unprotected cannon from a6, in turn: neither
        // every move a check nor every move a chase of the cannon (AXF: a draw).
        let fen = "R8/4k4/9/4c4/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(
            play(fen, "a9a6 e8e9 a6a9 e9e8", true),
            GameState::Draw(Reason::Repetition)
        );
    }

    #[test]
    fn a_piece_that_does_not_flee_is_not_chased() {
        // The red rook and the black cannon step up and down the h-file together: the rook
        // attacks the cannon all the time but never makes a new attack (AXF: not a chase).
        let fen = "5k3/9/9/7c1/9/9/9/9/7R1/3K5 w - - 0 1";
        assert_eq!(
            play(fen, "h1h2 h6h5 h2h1 h5h6", true),
            GameState::Draw(Reason::Repetition)
        );
    }

    #[test]
    fn sliding_back_along_the_line_of_an_old_attack_is_no_chase() {
        // The red rook e2-e5 attacks the elephant on g5 (a chase); the elephant steps to e7, into
        // the rook's file; the rook goes back to e5-e2 and still attacks it, but that attack is not
        // new. Fairy-Stockfish counts the retreat as a chase and gives Black the win (oracle game
        // #104, docs/rules.md).
        let fen = "3k5/9/b7R/9/6bP1/6B2/9/4R4/2c2K3/2B6 w - - 0 1";
        assert_eq!(
            play(fen, "e2e5 g5e7 e5e2 e7g5", true),
            GameState::Draw(Reason::Repetition)
        );
    }

    #[test]
    fn idle_repetition_is_a_draw() {
        let fen = crate::START_FEN;
        assert_eq!(
            play(fen, "b0c2 b9c7 c2b0 c7b9", true),
            GameState::Draw(Reason::Repetition)
        );
        // One cycle is only the second occurrence: the game goes on.
        assert_eq!(play(fen, "b0c2 b9c7 c2b0 c7b9", false), GameState::Ongoing);
        // Unless the rules end the game at the second occurrence.
        let start = Position::start();
        let config = JudgeConfig::new(120, 2).unwrap();
        let result = judge_game(&start, &moves("b0c2 b9c7 c2b0 c7b9"), &config)
            .unwrap()
            .result;
        assert_eq!(result, GameState::Draw(Reason::Repetition));
        assert_eq!(JudgeConfig::new(120, 1), Err(ConfigError::Repetitions(1)));
    }

    #[test]
    fn move_limit_draws_and_is_configurable() {
        // 118 plies without a capture, two more quiet moves reach the default limit of 120.
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 118 80").unwrap();
        let config = JudgeConfig::default();
        let one = judge_game(&start, &moves("e1e2"), &config).unwrap().result;
        assert_eq!(one, GameState::Ongoing);
        let two = judge_game(&start, &moves("e1e2 d9d8"), &config)
            .unwrap()
            .result;
        assert_eq!(two, GameState::Draw(Reason::MoveLimit { plies: 120 }));
        // A 100-ply limit ends it earlier, no limit never.
        let hundred = JudgeConfig::new(100, 3).unwrap();
        assert_eq!(
            judge(&start, &hundred),
            GameState::Draw(Reason::MoveLimit { plies: 100 })
        );
        let off = JudgeConfig::new(0, 3).unwrap();
        assert_eq!(
            judge_game(&start, &moves("e1e2 d9d8"), &off)
                .unwrap()
                .result,
            GameState::Ongoing
        );
        // A capture resets the count.
        let capture = Position::from_fen("3k5/9/9/9/9/9/9/9/3rR4/5K3 w - - 119 80").unwrap();
        assert_eq!(
            judge_game(&capture, &moves("e1d1"), &config)
                .unwrap()
                .result,
            GameState::Ongoing
        );
    }

    #[test]
    fn mate_outranks_the_move_limit() {
        let mate = Position::from_fen("4k4/4R4/2N6/9/9/9/9/9/5R3/3K5 b - - 130 90").unwrap();
        assert_eq!(
            judge(&mate, &JudgeConfig::default()),
            GameState::RedWins(Reason::Checkmate)
        );
    }

    #[test]
    fn bad_histories_get_typed_errors() {
        let start = Position::start();
        let config = JudgeConfig::default();
        let err = judge_game(&start, &moves("h2e2 h2e2"), &config).unwrap_err();
        assert!(
            matches!(err, JudgeError::IllegalMove { ply: 2, .. }),
            "{err}"
        );
        let twice = moves("b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9 h2e2");
        let err = judge_game(&start, &twice, &config).unwrap_err();
        assert!(
            matches!(err, JudgeError::MoveAfterEnd { ply: 9, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("draw by repetition"), "{err}");
    }

    #[test]
    fn search_facing_verdict() {
        let mut pos = Position::from_fen("3k5/7R1/9/9/9/9/9/9/9/5K3 w - - 0 1").unwrap();
        for m in moves("h8h9 d9d8 h9h8 d8d9") {
            pos.make_move(m);
        }
        // The position after four plies repeats the root, history index 0.
        assert_eq!(repetition_start(&pos, 2), Some(0));
        assert_eq!(repetition_start(&pos, 3), None);
        assert_eq!(
            repetition_verdict(&pos, 0),
            Some(Verdict::PerpetualCheck { loser: Color::Red })
        );
        assert_eq!(
            Verdict::PerpetualCheck { loser: Color::Red }.result(),
            GameState::BlackWins(Reason::PerpetualCheck)
        );
        // Not a repetition: wrong index, odd length, out of range.
        assert_eq!(repetition_verdict(&pos, 1), None);
        assert_eq!(repetition_verdict(&pos, 2), None);
        assert_eq!(repetition_verdict(&pos, 4), None);
        // A null move inside the window makes it no repetition either.
        let mut null = Position::from_fen("3k5/7R1/9/9/9/9/9/9/9/5K3 w - - 0 1").unwrap();
        null.make_move(mv("h8h9"));
        null.make_move(mv("d9d8"));
        null.make_null();
        null.make_move(mv("d8d9"));
        null.make_move(mv("h9h8"));
        null.make_null();
        assert_eq!(null.history()[0].key, null.key());
        assert_eq!(repetition_verdict(&null, 0), None);
    }
}
