//! Engine matches (`chess-board match`): two UCI engines play a series of games under FIDE's
//! rules, judged by shakmaty, to measure their strength difference (issue 17).
//!
//! Unlike the contest's games ([`crate::game`]), which follow the contest's own rules (no
//! threefold repetition, no dead positions, three tries per move), a match game ends as a chess
//! GUI or cutechess ends it: checkmate, stalemate, threefold repetition, the fifty-move rule,
//! insufficient material ([`Judge`]), or a loss by the engine that runs out of time, plays an
//! illegal or unreadable move, or crashes. Nothing is adjudicated by score.
//!
//! The match is the match kit's paired runner (`chariot_matchkit::runner`) over a two-player
//! round robin: each opening ([`Opening`], from `data/openings.txt` by default) is played twice
//! with the colours swapped, so that the opening's bias cancels out and the pair's total (0 to
//! 2 points) feeds the pentanomial model; with `--concurrency N`, N threads each play the next
//! game with two fresh engine processes of their own; results come back in the order they
//! finish; the SPRT stops the match between pairs. [`MatchSettings`] is the runner's
//! [`GamePlayer`]: it plays one game of the schedule, engine [`Job::first`] White.

use std::fmt;
use std::time::Duration;

use chariot_matchkit::engine::{Failure, distinct_name, engine_name};
use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::runner::{Finished, GamePlayer};
use chariot_matchkit::schedule::Job;
use chariot_matchkit::standings::Standings;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use crate::colour::{self, idx};
pub use crate::ending::{Ending, Reason};
use crate::pgn::Annotated;
use crate::uci::{EngineConfig, PositionLine, UciEngine};

/// The openings shipped with the Board, used when `--openings` is not given.
pub const DEFAULT_OPENINGS: &str = include_str!("../data/openings.txt");

/// A start for a game pair: a position and the moves played from it before the engines take
/// over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The line as written in the file (without its comment): the moves or the FEN.
    pub name: String,
    /// The position the game starts from.
    pub start: Chess,
    /// The start position's FEN when it is not the standard one (the PGN `FEN` tag and the
    /// `position fen` command).
    pub fen: Option<String>,
    /// The moves played from `start` before the engines' first move.
    pub moves: Vec<Move>,
}

/// A line of an openings file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// The line number, from 1.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} ({:?}): {}",
            self.line,
            self.text.trim(),
            self.reason
        )
    }
}

impl std::error::Error for OpeningError {}

/// Reads an openings file: one opening a line, either moves in SAN from the standard position
/// (`e4 e5 Nf3 Nc6`; move numbers such as `1.` or `1...` are skipped) or, when the line
/// contains a `/`, a FEN or EPD position (EPD operations after the four fields are ignored).
/// `#` starts a comment; blank lines are skipped. Every move is checked against the position;
/// an opening must leave a game to play (not mate, stalemate or any other finished position).
///
/// # Errors
///
/// The first line that cannot be read, with what is wrong; or an empty list.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fail = |reason: String| OpeningError {
            line: i + 1,
            text: raw.to_owned(),
            reason,
        };
        let opening = if line.contains('/') {
            fen_opening(line).map_err(fail)?
        } else {
            san_opening(line).map_err(fail)?
        };
        let mut judge = Judge::new(opening.start.clone());
        for &m in &opening.moves {
            judge.play(m);
        }
        if let Some((_, reason)) = judge.verdict() {
            return Err(fail(format!("the game is already over ({reason})")));
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningError {
            line: 0,
            text: String::new(),
            reason: "no openings".to_owned(),
        });
    }
    Ok(out)
}

fn san_opening(line: &str) -> Result<Opening, String> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for token in line.split_whitespace() {
        // `1.`, `12...`, `1.e4` (a number glued to its move).
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if token.is_empty() {
            continue;
        }
        let san: San = token
            .parse()
            .map_err(|e| format!("{token:?} is not SAN: {e}"))?;
        let m = san
            .to_move(&pos)
            .map_err(|e| format!("{token} is not legal after {} moves: {e}", moves.len()))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(Opening {
        name: line.split_whitespace().collect::<Vec<_>>().join(" "),
        start: Chess::default(),
        fen: None,
        moves,
    })
}

fn fen_opening(line: &str) -> Result<Opening, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    // A FEN has six fields; an EPD four, then operations (`bm e4; id "x";`).
    let numbers = fields.len() >= 6 && fields[4..6].iter().all(|f| f.parse::<u32>().is_ok());
    let take = if numbers { 6 } else { fields.len().min(4) };
    let text = fields[..take].join(" ");
    let fen: Fen = text.parse().map_err(|e| format!("not a FEN or EPD: {e}"))?;
    let pos: Chess = fen
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("not a legal position: {e}"))?;
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let standard = pos == Chess::default();
    Ok(Opening {
        name: text,
        start: pos,
        fen: (!standard).then_some(fen),
        moves: Vec::new(),
    })
}

/// The rules of the board: the position and the positions since the last irreversible move,
/// for the repetition count.
#[derive(Clone, Debug)]
pub struct Judge {
    pos: Chess,
    /// Zobrist keys of the positions since the last irreversible move (a capture, a pawn move,
    /// a move that loses castling rights), the current one last. Positions before such a move
    /// can never recur, so the list stays short.
    seen: Vec<Zobrist64>,
}

impl Judge {
    /// A judge for a game from `pos`.
    #[must_use]
    pub fn new(pos: Chess) -> Judge {
        let seen = vec![pos.zobrist_hash(EnPassantMode::Legal)];
        Judge { pos, seen }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        if self.pos.is_irreversible(m) {
            self.seen.clear();
        }
        self.pos.play_unchecked(m);
        self.seen.push(self.pos.zobrist_hash(EnPassantMode::Legal));
    }

    /// Whether the game is over in the current position, and how: the winner (`None` for a
    /// draw) and the reason. Mate comes first (a mate on the hundredth ply is a mate), then
    /// stalemate, insufficient material, the fifty-move rule and threefold repetition.
    #[must_use]
    pub fn verdict(&self) -> Option<(Option<Color>, Reason)> {
        if self.pos.is_checkmate() {
            return Some((Some(!self.pos.turn()), Reason::Checkmate));
        }
        if self.pos.is_stalemate() {
            return Some((None, Reason::Stalemate));
        }
        if self.pos.is_insufficient_material() {
            return Some((None, Reason::InsufficientMaterial));
        }
        if self.pos.halfmoves() >= 100 {
            return Some((None, Reason::FiftyMoves));
        }
        let now = self.seen.last()?;
        if self.seen.iter().filter(|&h| h == now).count() >= 3 {
            return Some((None, Reason::Repetition));
        }
        None
    }
}

/// A finished match game (its number, pair, opening and White are its [`Job`]'s).
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// The start position (before the opening's moves).
    pub start: Chess,
    /// Its FEN when not the standard one.
    pub fen: Option<String>,
    /// The moves with their comments (the engines' moves carry `score/depth time`, the
    /// opening's none).
    pub moves: Vec<Annotated>,
    /// How it ended.
    pub ending: Ending,
}

/// What a match's games need (how many, how many at once and the SPRT are the runner's
/// settings).
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The two engines (names resolved: [`MatchSettings::names`]).
    pub engines: [EngineConfig; 2],
    /// Their names.
    pub names: [String; 2],
    /// The openings, in the order they are used (pair `k` plays opening `k mod len`).
    pub openings: Vec<Opening>,
    /// Print every line to and from the engines on standard error.
    pub debug: bool,
}

/// Starts each engine once, to check it before the match (a wrong path or a failed handshake
/// stops the run, rather than forfeiting every game), and returns the names: `name=` or the
/// engine's `id name` or the program's file name, made distinct with ` (2)`.
///
/// # Errors
///
/// A sentence naming the engine that failed and how.
pub fn check_engines(engines: &[EngineConfig; 2], debug: bool) -> Result<[String; 2], String> {
    let mut names: Vec<String> = Vec::new();
    for (i, c) in engines.iter().enumerate() {
        let engine = UciEngine::start(c, debug.then(|| format!("[check {}]", i + 1)))
            .map_err(|e| format!("engine #{} ({}) {e}", i + 1, c.launch.command.display()))?;
        let base = engine_name(c.name.as_deref(), engine.id_name(), &c.launch, i + 1);
        names.push(distinct_name(base, &names));
    }
    Ok([names[0].clone(), names[1].clone()])
}

/// The match as the runner plays it: game `job` from opening `job.opening`, engine
/// `job.first` White.
///
/// The interrupt is not looked at: `chess-board` catches no signal, so a match game is always
/// played to its end.
impl GamePlayer for MatchSettings {
    type Game = MatchGame;
    type Ending = Ending;

    fn play(&self, job: &Job, _interrupt: &Interrupt) -> MatchGame {
        let opening = &self.openings[job.opening];
        let mut moves = Vec::new();
        let ending = referee(self, opening, job.first, &mut moves);
        MatchGame {
            start: opening.start.clone(),
            fen: opening.fen.clone(),
            moves,
            ending,
        }
    }

    fn ending(game: &MatchGame) -> &Ending {
        &game.ending
    }
}

/// Plays a game from `opening` with engine `white` as White, appending the moves to `moves`.
fn referee(
    settings: &MatchSettings,
    opening: &Opening,
    white: usize,
    moves: &mut Vec<Annotated>,
) -> Ending {
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    let lose = |c: Color, reason: Reason, what: String| Ending {
        winner: Some(!c),
        reason,
        detail: format!(
            "{} ({}) {what}",
            colour::name(c),
            settings.names[engine_of(c)]
        ),
    };
    let mut judge = Judge::new(opening.start.clone());
    let mut uci_moves = Vec::new();
    for &m in &opening.moves {
        moves.push(Annotated {
            san: SanPlus::from_move(judge.position().clone(), m).to_string(),
            comments: Vec::new(),
        });
        uci_moves.push(UciMove::from_move(m, CastlingMode::Standard).to_string());
        judge.play(m);
    }
    // Start White's engine first; one that cannot start or answer loses at once.
    let mut engines = Vec::with_capacity(2);
    for c in [Color::White, Color::Black] {
        let config = &settings.engines[engine_of(c)];
        let trace = settings.debug.then(|| {
            format!(
                "[{} {}]",
                colour::name(c).to_lowercase(),
                settings.names[engine_of(c)]
            )
        });
        match UciEngine::start(config, trace).and_then(|mut e| e.new_game().map(|()| e)) {
            Ok(e) => engines.push(e),
            Err(f) => return lose(c, Reason::Crash, f.to_string()),
        }
    }
    let mut clocks = [
        chariot_matchkit::clock::Clock::new(settings.engines[engine_of(Color::White)].tc),
        chariot_matchkit::clock::Clock::new(settings.engines[engine_of(Color::Black)].tc),
    ];
    loop {
        if let Some((winner, reason)) = judge.verdict() {
            return Ending {
                winner,
                reason,
                detail: match (winner, reason) {
                    (Some(c), _) => format!("{} mates", colour::name(c)),
                    (None, Reason::Stalemate) => {
                        format!("{} is stalemated", colour::name(judge.position().turn()))
                    }
                    (None, r) => format!("Draw by {r}"),
                },
            };
        }
        let turn = judge.position().turn();
        let i = idx(turn);
        let grace = settings.engines[engine_of(turn)].grace;
        let line = PositionLine {
            fen: opening.fen.as_deref(),
            moves: &uci_moves,
        };
        let (own, opp) = if i == 0 {
            (&clocks[0], &clocks[1])
        } else {
            (&clocks[1], &clocks[0])
        };
        let left = own.left_ms();
        let reply = match engines[i].think(line, turn == Color::White, own, opp) {
            Ok(reply) => reply,
            Err(Failure::Timeout) => {
                return lose(
                    turn,
                    Reason::Time,
                    format!(
                        "lost on time (no move within {:.2} s left + {:.2} s grace)",
                        left.max(0) as f64 / 1000.0,
                        grace.as_secs_f64()
                    ),
                );
            }
            Err(Failure::Garbage(text)) => {
                return lose(turn, Reason::IllegalMove, format!("sent {text:?}"));
            }
            Err(f) => return lose(turn, Reason::Crash, f.to_string()),
        };
        let grace_ms = u64::try_from(grace.as_millis()).unwrap_or(u64::MAX);
        if !clocks[i].punch(reply.elapsed, grace_ms) {
            return lose(
                turn,
                Reason::Time,
                format!(
                    "lost on time (took {:.2} s with {:.2} s left)",
                    reply.elapsed.as_secs_f64(),
                    left as f64 / 1000.0
                ),
            );
        }
        let fen = || Fen::from_position(judge.position(), EnPassantMode::Legal).to_string();
        let m = match reply.text.parse::<UciMove>() {
            Err(_) => {
                return lose(
                    turn,
                    Reason::IllegalMove,
                    format!("played the unreadable move {:?} in {}", reply.text, fen()),
                );
            }
            Ok(uci) => match uci.to_move(judge.position()) {
                Ok(m) => m,
                Err(_) => {
                    return lose(
                        turn,
                        Reason::IllegalMove,
                        format!("played the illegal move {} in {}", reply.text, fen()),
                    );
                }
            },
        };
        let mut comment = match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!("{s}/{d} "),
            (Some(s), None) => format!("{s} "),
            _ => String::new(),
        };
        comment.push_str(&format!("{}s", seconds(reply.elapsed)));
        moves.push(Annotated {
            san: SanPlus::from_move(judge.position().clone(), m).to_string(),
            comments: vec![comment],
        });
        uci_moves.push(UciMove::from_move(m, CastlingMode::Standard).to_string());
        judge.play(m);
    }
}

/// `0.352` seconds, three decimals.
fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The PGN of a finished game: the Seven Tag Roster, `SetUp`/`FEN` when the game did not start
/// from the standard position, `TimeControl`, `Termination`, `PlyCount`; the engines' moves
/// with `{score/depth time}` comments, the reason before the result.
#[must_use]
pub fn pgn(
    finished: &Finished<MatchGame>,
    settings: &MatchSettings,
    event: &str,
    site: &str,
) -> String {
    let (game, names) = (&finished.record, &settings.names);
    let (w, b) = (finished.job.first, finished.job.second);
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_owned()),
        ("Site", site.to_owned()),
        ("Date", crate::pgn::today()),
        ("Round", finished.job.number.to_string()),
        ("White", names[w].clone()),
        ("Black", names[b].clone()),
        ("Result", game.ending.result().to_owned()),
    ];
    if let Some(fen) = &game.fen {
        tags.push(("SetUp", "1".to_owned()));
        tags.push(("FEN", fen.clone()));
    }
    let (tw, tb) = (settings.engines[w].tc, settings.engines[b].tc);
    tags.push((
        "TimeControl",
        if tw == tb {
            tw.pgn()
        } else {
            format!("{}:{}", tw.pgn(), tb.pgn())
        },
    ));
    tags.push(("Termination", game.ending.reason.termination().to_owned()));
    tags.push(("PlyCount", game.moves.len().to_string()));
    crate::pgn::write_game(
        &tags,
        &game.start,
        &game.moves,
        std::slice::from_ref(&game.ending.detail),
        game.ending.result(),
    )
}

/// The line printed for a finished game, with the first engine's score so far
/// (`standings` include the game):
/// `Finished game 3 (sf vs agent): 1-0 {White (sf) mates} 41 plies; agent +1 =1 -1 [0.500]`.
#[must_use]
pub fn game_line(
    finished: &Finished<MatchGame>,
    settings: &MatchSettings,
    standings: &Standings,
) -> String {
    let (game, names, w) = (&finished.record, &settings.names, standings.first);
    format!(
        "Finished game {} ({} vs {}): {} {{{}}} {} plies; {} +{} ={} -{} [{:.3}]",
        finished.job.number,
        names[finished.job.first],
        names[finished.job.second],
        game.ending.result(),
        game.ending.detail,
        game.moves.len(),
        names[0],
        w.wins,
        w.draws,
        w.losses,
        w.score().unwrap_or(0.5)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge_from(fen: &str) -> Judge {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        Judge::new(pos)
    }

    fn play(judge: &mut Judge, moves: &str) {
        for text in moves.split_whitespace() {
            let m = text
                .parse::<UciMove>()
                .unwrap()
                .to_move(judge.position())
                .unwrap();
            judge.play(m);
        }
    }

    #[test]
    fn the_shipped_openings_all_parse() {
        let openings = parse_openings(DEFAULT_OPENINGS).unwrap();
        assert!(openings.len() >= 45, "{}", openings.len());
        for o in &openings {
            assert!((4..=8).contains(&o.moves.len()), "{}", o.name);
            assert!(o.fen.is_none());
        }
        // No two lines alike.
        let mut names: Vec<&str> = openings.iter().map(|o| o.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), openings.len());
    }

    #[test]
    fn opening_files_mix_san_and_fen() {
        let text = "# a comment\n\n1. e4 e5 2. Nf3 # Open game\n\
                    4k3/8/8/8/8/8/4P3/4K3 w - - bm e3; id \"pawn\";\n\
                    4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
        let o = parse_openings(text).unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].moves.len(), 3);
        assert_eq!(o[0].name, "1. e4 e5 2. Nf3");
        assert_eq!(o[1].fen.as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
        assert_eq!(o[2].start.halfmoves(), 3);
        assert!(o[3].fen.is_none(), "the standard start needs no FEN tag");
        let e = parse_openings("e4 e5\ne4 e4\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("not legal"), "{e}");
        let e = parse_openings("e4 Qx9\n").unwrap_err();
        assert!(e.reason.contains("not SAN"), "{e}");
        let e = parse_openings("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
        assert!(e.reason.contains("legal position"), "{e}");
        let e = parse_openings("f3 e5 g4 Qh4").unwrap_err();
        assert!(e.reason.contains("already over"), "{e}");
        assert!(parse_openings("# nothing\n").is_err());
    }

    #[test]
    fn threefold_repetition_counts_the_same_position_three_times() {
        let mut j = Judge::new(Chess::default());
        play(&mut j, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(j.verdict(), None, "the start position twice");
        play(&mut j, "g1f3 g8f6 f3g1");
        assert_eq!(j.verdict(), None);
        play(&mut j, "f6g8");
        assert_eq!(j.verdict(), Some((None, Reason::Repetition)));
        // A pawn move in between starts the count again.
        let mut j = Judge::new(Chess::default());
        play(&mut j, "g1f3 g8f6 f3g1 f6g8 e2e3 e7e6 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(j.verdict(), None);
        // Kings and a rook shuffling: the start position comes back every four plies.
        let mut j = judge_from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        play(&mut j, "a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1");
        assert_eq!(j.verdict(), None);
        play(&mut j, "d8e8");
        assert_eq!(j.verdict(), Some((None, Reason::Repetition)));
    }

    #[test]
    fn castling_rights_make_positions_differ() {
        // The rook goes away and comes back: the same placement, but White has lost its
        // castling right, so the first position does not count again.
        let mut j = judge_from("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        play(&mut j, "a1a2 e8d8 a2a1 d8e8 a1a2 e8d8 a2a1 d8e8");
        assert_eq!(j.verdict(), None, "the start had the right: twice since");
        play(&mut j, "a1a2");
        assert_eq!(j.verdict(), Some((None, Reason::Repetition)));
    }

    #[test]
    fn fifty_moves_and_mate_first() {
        let mut j = judge_from("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
        assert_eq!(j.verdict(), None);
        play(&mut j, "a1a2");
        assert_eq!(j.verdict(), Some((None, Reason::FiftyMoves)));
        // Mate on the hundredth ply is mate.
        let mut j = judge_from("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
        play(&mut j, "a1a8");
        assert_eq!(j.verdict(), Some((Some(Color::White), Reason::Checkmate)));
        // A capture resets the count.
        let mut j = judge_from("4k3/8/8/8/8/8/p7/R3K3 w - - 99 80");
        play(&mut j, "a1a2");
        assert_eq!(j.verdict(), None);
    }

    #[test]
    fn insufficient_material_and_stalemate() {
        for (fen, dead) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/3NK3 b - - 0 1", true),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false), // bishops on opposite colours
            ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", false),   // two knights can be mated into
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),
        ] {
            let v = judge_from(fen).verdict();
            assert_eq!(
                v == Some((None, Reason::InsufficientMaterial)),
                dead,
                "{fen}"
            );
        }
        let j = judge_from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(j.verdict(), Some((None, Reason::Stalemate)));
        let j = judge_from("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(j.verdict(), Some((Some(Color::White), Reason::Checkmate)));
    }
}
