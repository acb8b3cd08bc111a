//! Positions as an external engine is told them, and its words read back through the rules
//! core: squares named as the engine names them (ICCS's ranks 0-9, or 1-10 for an engine told
//! `UCI_Variant xiangqi`), every move it plays checked (legal, and not a repetition the Asian
//! rules forbid), its lines cut at the first move that is not legal, its mate distances turned
//! into plies.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use chariot_matchkit::client::Line;
use chariot_matchkit::engine::EngineScore;
use chariot_matchkit::search::{Clocks, Limits, Search};
use chariot_rules::judge::{repetition_start, repetition_verdict};
use chariot_rules::notation::SquareNaming;
use chariot_rules::{EndReason, Ending, Move, Position, forbidden_moves};

use super::Known;

/// A position as the engine is sent it: from the game's start (UCI) and from the last capture
/// (UCCI), with the moves a UCCI engine is told not to play.
pub struct EngineLines {
    naming: SquareNaming,
    /// `None` for the usual start (`position startpos`).
    start_fen: Option<String>,
    all: Vec<String>,
    capture_fen: Option<String>,
    since_capture: Vec<String>,
    banned: Vec<String>,
}

/// How `known`'s engine names squares.
#[must_use]
pub fn naming(known: &Known) -> SquareNaming {
    if known.ranks1 {
        SquareNaming::OneBased
    } else {
        SquareNaming::ZeroBased
    }
}

impl EngineLines {
    /// The position reached by `moves` from `start`, for `known`'s engine.
    #[must_use]
    pub fn new(known: &Known, start: &Position, moves: &[Move]) -> EngineLines {
        let naming = naming(known);
        let usual = start.fen() == Position::start().fen();
        let mut pos = start.clone();
        let mut capture_fen = (!usual).then(|| start.fen());
        let mut since_capture = Vec::new();
        for &m in moves {
            let capture = pos.is_capture(m);
            pos.make_move(m);
            if capture {
                capture_fen = Some(pos.fen());
                since_capture.clear();
            } else {
                since_capture.push(naming.format(m));
            }
        }
        let banned = forbidden_moves(&mut pos)
            .into_iter()
            .map(|m| naming.format(m))
            .collect();
        EngineLines {
            naming,
            start_fen: (!usual).then(|| start.fen()),
            all: moves.iter().map(|&m| naming.format(m)).collect(),
            capture_fen,
            since_capture,
            banned,
        }
    }

    /// The search request for this position.
    #[must_use]
    pub fn search<'a>(
        &'a self,
        clocks: Option<Clocks<'a>>,
        limits: Limits,
        stop_after: Option<Duration>,
        give_up_after: Option<Duration>,
        stop: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        Search {
            since_capture: Line {
                fen: self.capture_fen.as_deref(),
                moves: &self.since_capture,
            },
            from_start: Line {
                fen: self.start_fen.as_deref(),
                moves: &self.all,
            },
            banned: &self.banned,
            clocks,
            limits,
            stop_after,
            give_up_after,
            stop,
        }
    }

    /// How the engine names squares.
    #[must_use]
    pub fn naming(&self) -> SquareNaming {
        self.naming
    }
}

/// A move an engine played, as the rules core judges it.
#[derive(Debug, PartialEq, Eq)]
pub enum Judged {
    /// Legal and allowed.
    Move(Move),
    /// Legal, but it repeats a position by the mover's perpetual check or chase: played, it
    /// loses the game, as this ending says.
    Forbidden(Move, Ending),
    /// Not a legal move here (or not a move at all).
    Illegal,
}

/// Judges the engine's move `text` in `position` (whose history holds the game).
#[must_use]
pub fn judge_move(position: &Position, text: &str, naming: SquareNaming) -> Judged {
    let Some(m) = naming.parse(text).filter(|&m| position.is_legal(m)) else {
        return Judged::Illegal;
    };
    let mut pos = position.clone();
    if !forbidden_moves(&mut pos).contains(&m) {
        return Judged::Move(m);
    }
    let mover = pos.turn();
    pos.make_move(m);
    let ending = repetition_start(&pos, 2)
        .and_then(|start| repetition_verdict(&pos, start))
        .and_then(|verdict| Ending::from_state(verdict.result()))
        .unwrap_or_else(|| {
            Ending::win(
                mover.opponent(),
                EndReason::IllegalMove(format!("{text} (a forbidden repetition)")),
            )
        });
    Judged::Forbidden(m, ending)
}

/// The moves of a principal variation that are legal one after the other from `position`: the
/// line is cut at the first that is not.
#[must_use]
pub fn read_pv(position: &Position, pv: &[String], naming: SquareNaming) -> Vec<Move> {
    let mut pos = position.clone();
    let mut moves = Vec::new();
    for text in pv {
        match naming.parse(text) {
            Some(m) if pos.is_legal(m) => {
                pos.make_move(m);
                moves.push(m);
            }
            _ => break,
        }
    }
    moves
}

/// An engine's score as Chariot's analysis reports one: centipawns, or mate in plies
/// (negative: mated). UCI counts mates in moves: mate in 3 is 5 plies, mated in 3 is 6, mate 0
/// (Pikafish's word for no move) is 0.
#[must_use]
pub fn score_parts(score: EngineScore) -> (Option<i32>, Option<i32>) {
    match score {
        EngineScore::Cp(cp) => (Some(cp), None),
        EngineScore::Mate(n) if n > 0 => (None, Some(2 * n - 1)),
        EngineScore::Mate(n) => (None, Some(2 * n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_matchkit::client::Protocol;
    use chariot_rules::notation::parse_iccs;

    fn known(ranks1: bool) -> Known {
        Known {
            protocol: Protocol::Uci,
            ranks1,
            id_name: None,
            author: None,
            options: Vec::new(),
        }
    }

    #[test]
    fn lines_name_squares_as_the_engine_does_and_start_at_the_last_capture() {
        // The central cannon takes the pawn on e6 (the pawn on e3 its screen).
        let moves: Vec<Move> = ["h2e2", "h9g7", "e2e6", "h7e7"]
            .iter()
            .map(|t| parse_iccs(t).unwrap())
            .collect();
        let start = Position::start();
        let mut after_capture = start.clone();
        for &m in &moves[..3] {
            assert!(after_capture.is_legal(m));
            after_capture.make_move(m);
        }
        let lines = EngineLines::new(&known(true), &start, &moves);
        let search = lines.search(None, Limits::default(), None, None, None);
        assert_eq!(search.from_start.fen, None);
        assert_eq!(search.from_start.moves, ["h3e3", "h10g8", "e3e7", "h8e8"]);
        assert_eq!(search.since_capture.moves, ["h8e8"]);
        assert_eq!(search.since_capture.fen, Some(after_capture.fen().as_str()));
        let zero = EngineLines::new(&known(false), &start, &moves[..1]);
        let search = zero.search(None, Limits::default(), None, None, None);
        assert_eq!(search.from_start.moves, ["h2e2"]);
        assert_eq!(search.since_capture.fen, None);
    }

    #[test]
    fn moves_are_judged_and_lines_cut() {
        let start = Position::start();
        let naming = SquareNaming::ZeroBased;
        assert_eq!(
            judge_move(&start, "h2e2", naming),
            Judged::Move(parse_iccs("h2e2").unwrap())
        );
        assert_eq!(judge_move(&start, "e0e2", naming), Judged::Illegal);
        assert_eq!(judge_move(&start, "(none)", naming), Judged::Illegal);
        let pv: Vec<String> = ["h2e2", "h9g7", "e2e9", "a0a1"].map(str::to_owned).to_vec();
        let read = read_pv(&start, &pv, naming);
        assert_eq!(read.len(), 2);
        // A perpetual check: Red's fourth check would repeat the position.
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1").unwrap();
        for t in ["h0h9", "e9e8", "h9h8", "e8e9"] {
            pos.make_move(parse_iccs(t).unwrap());
        }
        let Judged::Forbidden(m, ending) = judge_move(&pos, "h8h9", naming) else {
            panic!("not judged forbidden");
        };
        assert_eq!(m.to_string(), "h8h9");
        assert_eq!(ending.to_string(), "Red loses by perpetual check");
    }

    #[test]
    fn mates_count_plies() {
        assert_eq!(score_parts(EngineScore::Mate(3)), (None, Some(5)));
        assert_eq!(score_parts(EngineScore::Mate(-3)), (None, Some(-6)));
        assert_eq!(score_parts(EngineScore::Mate(0)), (None, Some(0)));
        assert_eq!(score_parts(EngineScore::Cp(-12)), (Some(-12), None));
    }
}
