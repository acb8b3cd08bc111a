//! A game checked against the rules: the step between reading a file and storing a game.
//!
//! A [`GameRecord`] holds moves as written; [`check`] replays them from the start position with
//! the notation module, one legal move at a time, and gives a [`Game`] of real [`Move`]s, or a
//! [`Rejection`] naming the ply and the reason. A game is taken whole or not at all: a book built
//! from the first half of a game whose second half is garbage would count a result that belongs
//! to a different game.

use std::fmt;

use chariot_rules::notation::{MoveTextError, parse_move};
use chariot_rules::{Color, Move, Position, START_FEN, Setup, Waivers};

use crate::record::{GameRecord, GameResult, MoveToken};

/// A game whose every move is legal, with the facts a book and its filters need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's number in its file (1-based).
    pub number: usize,
    /// The start position's board and side to move (the first two FEN fields) when it is not
    /// the usual start; `None` for the usual start.
    pub start: Option<String>,
    /// The moves, each legal in the position before it.
    pub moves: Vec<Move>,
    /// The result; `None` when unknown or unfinished.
    pub result: Option<GameResult>,
    /// The event, as written.
    pub event: Option<String>,
    /// The Red player, white space collapsed.
    pub red: Option<String>,
    /// The Black player, white space collapsed.
    pub black: Option<String>,
    /// Red's rating.
    pub red_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
    /// The date normalised (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`).
    pub date: Option<String>,
    /// The date as written.
    pub date_raw: Option<String>,
    /// Every header field of the source, in file order.
    pub tags: Vec<(String, String)>,
}

/// Why a game was not imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RejectKind {
    /// The reader could not read the game at all.
    Unreadable,
    /// The start position (FEN) is malformed or breaks the rules.
    BadStart,
    /// The game has no moves, so it carries nothing for a book (and cannot be told apart from
    /// another empty game).
    NoMoves,
    /// A move's text is not a move in any notation.
    UnreadableMove,
    /// A move names a piece the side to move does not have there.
    NoSuchPiece,
    /// A move is not legal in its position.
    IllegalMove,
    /// A move's text fits more than one legal move.
    AmbiguousMove,
}

impl RejectKind {
    /// Every kind, in report order.
    pub const ALL: [RejectKind; 7] = [
        RejectKind::Unreadable,
        RejectKind::BadStart,
        RejectKind::NoMoves,
        RejectKind::UnreadableMove,
        RejectKind::NoSuchPiece,
        RejectKind::IllegalMove,
        RejectKind::AmbiguousMove,
    ];

    /// A short name for reports (`illegal move`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RejectKind::Unreadable => "unreadable game",
            RejectKind::BadStart => "bad start position",
            RejectKind::NoMoves => "no moves",
            RejectKind::UnreadableMove => "unreadable move",
            RejectKind::NoSuchPiece => "move names no piece",
            RejectKind::IllegalMove => "illegal move",
            RejectKind::AmbiguousMove => "ambiguous move",
        }
    }
}

impl fmt::Display for RejectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game that was not imported: which, where in it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The game's number in its file (1-based), `None` for a problem outside any game.
    pub game: Option<usize>,
    /// The line the game starts on, for text files.
    pub line: Option<usize>,
    /// The ply (1-based) of the offending move, when a move is at fault.
    pub ply: Option<usize>,
    /// The category.
    pub kind: RejectKind,
    /// The full explanation (the move text and why it does not fit).
    pub message: String,
}

impl Rejection {
    /// `FILE: game N (line L), ply P: reason`, for reports.
    #[must_use]
    pub fn located(&self, file: &str) -> String {
        let mut s = file.to_owned();
        if let Some(g) = self.game {
            s.push_str(&format!(": game {g}"));
            if let Some(l) = self.line {
                s.push_str(&format!(" (line {l})"));
            }
        }
        if let Some(p) = self.ply {
            s.push_str(&format!(", ply {p}"));
        }
        s.push_str(&format!(": {}: {}", self.kind, self.message));
        s
    }
}

/// Collapses runs of white space to one space and trims; `None` when nothing is left or the
/// name is PGN's `?` (unknown), which PGN writers put where they know no name.
fn clean_name(name: Option<&str>) -> Option<String> {
    let joined = name?.split_whitespace().collect::<Vec<_>>().join(" ");
    (!joined.is_empty() && joined != "?").then_some(joined)
}

/// The first two FEN fields (board and side to move).
fn board_and_turn(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Checks a game read from a file against the rules.
///
/// The start position is the `FEN` tag's, or the usual start. When the movetext marks the first
/// move as Black's (a blank red slot) but the FEN says Red is to move, the side the first move
/// fits decides: files from set-up positions often carry a FEN with the wrong side to move.
///
/// # Errors
/// A [`Rejection`] for a bad start position, an empty game, or the first move that is
/// unreadable, names no piece, is illegal or is ambiguous (with its ply).
pub fn check(record: &GameRecord) -> Result<Game, Rejection> {
    let reject = |ply: Option<usize>, kind: RejectKind, message: String| Rejection {
        game: Some(record.number),
        line: record.line,
        ply,
        kind,
        message,
    };
    let mut setup: Setup = match &record.fen {
        Some(fen) => fen
            .parse()
            .map_err(|e| reject(None, RejectKind::BadStart, format!("FEN {fen:?}: {e}")))?,
        None => Setup::start(),
    };
    if record.moves.is_empty() {
        return Err(reject(
            None,
            RejectKind::NoMoves,
            "the game has no moves".into(),
        ));
    }
    let mut pos = Position::from_setup(&setup, Waivers::NONE)
        .map_err(|e| reject(None, RejectKind::BadStart, e.to_string()))?;
    if record.black_moves_first && pos.turn() == Color::Red {
        // Only switch when the first move fits Black and not Red.
        if resolve(&pos, &record.moves[0]).is_err() {
            setup.turn = Color::Black;
            if let Ok(black) = Position::from_setup(&setup, Waivers::NONE)
                && resolve(&black, &record.moves[0]).is_ok()
            {
                pos = black;
            }
        }
    }
    let fen = board_and_turn(&pos.fen());
    let start = (fen != board_and_turn(START_FEN)).then_some(fen);

    let mut moves = Vec::with_capacity(record.moves.len());
    for (i, token) in record.moves.iter().enumerate() {
        let m =
            resolve(&pos, token).map_err(|(kind, message)| reject(Some(i + 1), kind, message))?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(Game {
        number: record.number,
        start,
        moves,
        result: record.result.filter(|r| *r != GameResult::Unfinished),
        event: clean_name(record.event.as_deref()),
        red: clean_name(record.red.as_deref()),
        black: clean_name(record.black.as_deref()),
        red_elo: record.red_elo,
        black_elo: record.black_elo,
        date: record.date.as_ref().and_then(|d| d.normalized.clone()),
        date_raw: record.date.as_ref().map(|d| d.raw.clone()),
        tags: record.tags.clone(),
    })
}

/// The legal move a token names in `pos`.
fn resolve(pos: &Position, token: &MoveToken) -> Result<Move, (RejectKind, String)> {
    match token {
        MoveToken::Text(text) => parse_move(pos, text).map_err(|e| {
            let kind = match e {
                MoveTextError::Malformed { .. } => RejectKind::UnreadableMove,
                MoveTextError::NoSuchPiece { .. } => RejectKind::NoSuchPiece,
                MoveTextError::Ambiguous { .. } => RejectKind::AmbiguousMove,
                MoveTextError::Illegal { .. } | MoveTextError::Inexpressible { .. } => {
                    RejectKind::IllegalMove
                }
            };
            (kind, e.to_string())
        }),
        MoveToken::Squares { from, to } => {
            let m = Move::new(*from, *to);
            if pos.is_legal(m) {
                Ok(m)
            } else {
                let what = pos.piece_at(*from).map_or_else(
                    || format!("no piece on {from}"),
                    |p| format!("the {} on {from} cannot go to {to}", p.chinese()),
                );
                Err((
                    RejectKind::IllegalMove,
                    format!("move {m} is not legal: {what}"),
                ))
            }
        }
    }
}

/// A 128-bit content hash (FNV-1a): stable across versions and platforms, unlike the standard
/// library's hasher, so a database built today recognises the same game tomorrow.
#[derive(Clone, Copy, Debug)]
pub struct ContentHash(u128);

impl ContentHash {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;

    /// An empty hash.
    #[must_use]
    pub fn new() -> ContentHash {
        ContentHash(Self::OFFSET)
    }

    /// Adds bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u128::from(b);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// The 16 bytes of the hash, big-endian.
    #[must_use]
    pub fn finish(&self) -> [u8; 16] {
        self.0.to_be_bytes()
    }
}

impl Default for ContentHash {
    fn default() -> ContentHash {
        ContentHash::new()
    }
}

impl Game {
    /// The moves as little-endian `u16`s (`from | to << 7`), as the database stores them.
    #[must_use]
    pub fn move_bytes(&self) -> Vec<u8> {
        self.moves
            .iter()
            .flat_map(|m| m.to_u16().to_le_bytes())
            .collect()
    }

    /// The content hash that identifies the game in the database: the start position and the
    /// moves. Players, event, date and result are left out on purpose: the same game is filed
    /// under different event names, with and without team names before the players, and with
    /// contradictory results (see `docs/formats/game-db.md`).
    #[must_use]
    pub fn content_hash(&self) -> [u8; 16] {
        let mut h = ContentHash::new();
        h.update(b"chariot-game-1\0");
        h.update(self.start.as_deref().unwrap_or("").as_bytes());
        h.update(b"\0");
        h.update(&self.move_bytes());
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[&str]) -> GameRecord {
        GameRecord {
            number: 3,
            line: Some(40),
            moves: moves.iter().map(|m| MoveToken::Text((*m).into())).collect(),
            result: Some(GameResult::RedWins),
            red: Some("  Hu   Ronghua ".into()),
            ..GameRecord::default()
        }
    }

    #[test]
    fn legal_games_are_checked_into_moves() {
        let g = check(&record(&["炮二平五", "h9g7", "H2+3"])).unwrap();
        let names: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(g.start, None);
        assert_eq!(g.red.as_deref(), Some("Hu Ronghua"));
        assert_eq!(g.move_bytes().len(), 6);
        // PGN's unknown name is no name (the writer writes `?` where it knows none).
        let unknown = GameRecord {
            black: Some(" ? ".into()),
            event: Some("?".into()),
            ..record(&["h2e2"])
        };
        let g = check(&unknown).unwrap();
        assert_eq!((g.black, g.event), (None, None));
    }

    #[test]
    fn rejections_name_ply_and_reason() {
        let r = check(&record(&["h2e2", "h9g7", "e2e9"])).unwrap_err();
        assert_eq!(
            (r.game, r.ply, r.kind),
            (Some(3), Some(3), RejectKind::IllegalMove)
        );
        assert!(
            r.located("f.pgn")
                .starts_with("f.pgn: game 3 (line 40), ply 3: illegal move:")
        );
        let r = check(&record(&["h2e2", "xyz"])).unwrap_err();
        assert_eq!((r.ply, r.kind), (Some(2), RejectKind::UnreadableMove));
        let r = check(&record(&["炮五平四"])).unwrap_err();
        assert_eq!((r.ply, r.kind), (Some(1), RejectKind::NoSuchPiece));
        let r = check(&record(&[])).unwrap_err();
        assert_eq!(r.kind, RejectKind::NoMoves);
        let mut bad = record(&["h2e2"]);
        bad.fen = Some("9/9/9 w".into());
        assert_eq!(check(&bad).unwrap_err().kind, RejectKind::BadStart);
    }

    #[test]
    fn black_first_with_a_red_fen_follows_the_move() {
        let mut r = record(&["h7e7", "h2e2"]);
        r.fen = Some(START_FEN.into());
        r.black_moves_first = true;
        let g = check(&r).unwrap();
        assert_eq!(
            g.start.as_deref(),
            Some(&board_and_turn(START_FEN).replace(" w", " b")[..])
        );
        // When the first move fits Red, Red moves first.
        let mut r = record(&["h2e2"]);
        r.black_moves_first = true;
        assert_eq!(check(&r).unwrap().start, None);
    }

    #[test]
    fn square_tokens_are_checked_too() {
        let mut r = record(&[]);
        r.moves = vec![MoveToken::Squares {
            from: "h2".parse().unwrap(),
            to: "h8".parse().unwrap(),
        }];
        let e = check(&r).unwrap_err();
        assert_eq!((e.ply, e.kind), (Some(1), RejectKind::IllegalMove));
    }

    #[test]
    fn hashes_depend_on_moves_and_start_only() {
        let a = check(&record(&["h2e2", "h9g7"])).unwrap();
        let mut b = a.clone();
        b.red = Some("someone else".into());
        b.event = Some("another event".into());
        b.result = Some(GameResult::Draw);
        assert_eq!(a.content_hash(), b.content_hash());
        let c = check(&record(&["h2e2", "b9c7"])).unwrap();
        assert_ne!(a.content_hash(), c.content_hash());
        let mut d = a.clone();
        d.start = Some("x".into());
        assert_ne!(a.content_hash(), d.content_hash());
    }
}
