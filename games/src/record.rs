//! The typed result of reading one game, whatever file format it came from.
//!
//! A [`GameRecord`] is deliberately *not* a list of legal moves: text moves stay text until the
//! importer resolves them against a position with the notation module. Keeping reading and
//! resolving apart means a reader never needs to know the rules, and a move that does not fit its
//! position is reported by the importer with the position at hand.

use std::fmt;

use chariot_rules::Square;

use crate::date::GameDate;
use crate::problem::Problem;

/// One move as written in the source, before it is checked against a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveToken {
    /// Move text as written (ICCS `h2e2`, WXF `C2.5` or `Ｃ２＝５`, Chinese `炮二平五`, WinBoard
    /// SAN `Che2`), without move numbers and without trailing `!`/`?` annotation marks.
    Text(String),
    /// A move given by its squares, as binary and coordinate formats (XQF, DhtmlXQ) store it.
    Squares {
        /// The square the piece leaves.
        from: Square,
        /// The square the piece goes to.
        to: Square,
    },
}

impl MoveToken {
    /// A guess at the notation of this token, from its characters alone.
    #[must_use]
    pub fn notation(&self) -> NotationGuess {
        match self {
            MoveToken::Squares { .. } => NotationGuess::Squares,
            MoveToken::Text(text) => NotationGuess::guess(text),
        }
    }
}

impl fmt::Display for MoveToken {
    /// Text tokens print as written; square tokens print in ICCS (`h2e2`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveToken::Text(text) => f.write_str(text),
            MoveToken::Squares { from, to } => write!(f, "{from}{to}"),
        }
    }
}

/// The notation a move token appears to be written in.
///
/// This is a guess from the characters, used to describe a collection (`book-builder read`); the
/// notation module decides for real when it resolves the move against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NotationGuess {
    /// Squares from a binary or coordinate format.
    Squares,
    /// ICCS coordinates: `h2e2` or `H2-E2`.
    Iccs,
    /// WXF: piece letter (or `+`/`-` for front/rear), file, direction `+ - = .`, number; ASCII or
    /// full-width.
    Wxf,
    /// Chinese: `炮二平五`, `馬８進７`, `前炮平六`.
    Chinese,
    /// Anything else (WinBoard SAN `Che2`, typos, foreign notations).
    Other,
}

impl NotationGuess {
    /// Guesses the notation of one move text.
    #[must_use]
    pub fn guess(text: &str) -> NotationGuess {
        let b = text.as_bytes();
        let is_file = |c: u8| (b'a'..=b'i').contains(&c.to_ascii_lowercase());
        let is_rank = |c: u8| c.is_ascii_digit();
        let iccs = match b.len() {
            4 => is_file(b[0]) && is_rank(b[1]) && is_file(b[2]) && is_rank(b[3]),
            5 => is_file(b[0]) && is_rank(b[1]) && b[2] == b'-' && is_file(b[3]) && is_rank(b[4]),
            _ => false,
        };
        if iccs {
            return NotationGuess::Iccs;
        }
        if text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)) {
            return NotationGuess::Chinese;
        }
        // WXF after folding full-width forms: 4 characters, a direction sign in third place.
        let folded: Vec<char> = text.chars().map(crate::text::fold_full_width).collect();
        if folded.len() == 4 && matches!(folded[2], '+' | '-' | '=' | '.') {
            let piece = folded[0].to_ascii_uppercase();
            if "KAEBHNRCP+-".contains(piece) && folded[3].is_ascii_digit() {
                return NotationGuess::Wxf;
            }
        }
        NotationGuess::Other
    }

    /// A short lower-case name (`iccs`, `wxf`, `chinese`, ...).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            NotationGuess::Squares => "squares",
            NotationGuess::Iccs => "iccs",
            NotationGuess::Wxf => "wxf",
            NotationGuess::Chinese => "chinese",
            NotationGuess::Other => "other",
        }
    }
}

/// How a game ended, as far as the file says (the rules crate's one result type).
pub use chariot_rules::GameResult;

/// Reads a result as PGN and Chinese game files write it: `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`
/// (full-width forms too), `红胜`/`紅勝`, `黑胜`/`黑勝`, `和棋`/`和局`/`和`.
///
/// Returns `None` for anything else, including an empty string.
#[must_use]
pub fn parse_result(text: &str) -> Option<GameResult> {
    let folded: String = text
        .trim()
        .chars()
        .map(crate::text::fold_full_width)
        .collect();
    let folded = folded.trim();
    match folded {
        "1-0" | "1:0" | "红胜" | "紅勝" | "红方胜" | "紅方勝" | "红先胜" | "紅先勝" | "先胜"
        | "先勝" => Some(GameResult::RedWins),
        "0-1" | "0:1" | "黑胜" | "黑勝" | "黑方胜" | "黑方勝" | "红先负" | "紅先負" | "先负"
        | "先負" => Some(GameResult::BlackWins),
        "1/2-1/2" | "½-½" | "1/2" | "0.5-0.5" | "和" | "和棋" | "和局" | "红先和" | "紅先和"
        | "先和" => Some(GameResult::Draw),
        "*" => Some(GameResult::Unfinished),
        _ => None,
    }
}

/// One game as read from a file: its header fields and its main line as move tokens.
///
/// Variations and comments are not kept: the book is built from main lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's position in its file, counting from 1 (games that could not be read count too,
    /// so numbers match the problems reported).
    pub number: usize,
    /// The line the game starts on (1-based), for text formats.
    pub line: Option<usize>,
    /// Every header field in file order, names as written, values decoded (HTML entities
    /// replaced, surrounding white space removed). Binary formats use PGN tag names.
    pub tags: Vec<(String, String)>,
    /// The event (`Event` tag); for XQF the match name, else the title.
    pub event: Option<String>,
    /// The date as written and normalised.
    pub date: Option<GameDate>,
    /// The Red player.
    pub red: Option<String>,
    /// The Black player.
    pub black: Option<String>,
    /// Red's rating (`RedElo`).
    pub red_elo: Option<u32>,
    /// Black's rating (`BlackElo`).
    pub black_elo: Option<u32>,
    /// The result: from the header, or from the movetext's termination marker without one.
    pub result: Option<GameResult>,
    /// The start position when the file gives one (PGN `FEN` tag, DhtmlXQ `binit`, XQF piece
    /// table): PGN text as written, the others as canonical FEN. `None` means the usual start.
    pub fen: Option<String>,
    /// The PGN `Format` tag (`ICCS`, `WXF`, `Chinese`), which some exporters write.
    pub format: Option<String>,
    /// The main line.
    pub moves: Vec<MoveToken>,
    /// The movetext marks the first move as Black's (`1... h7e7`, or PGN with a blank red slot
    /// `1.          炮８平５`). A hint for the importer, which goes by the FEN's side to move
    /// first; binary formats leave it false (their FEN carries the side to move).
    pub black_moves_first: bool,
}

impl GameRecord {
    /// The value of the first header field called `name` (compared ignoring ASCII case).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The notation most of the text moves appear to be in, `None` for a game without moves.
    #[must_use]
    pub fn notation(&self) -> Option<NotationGuess> {
        // Indexed by the enum's declaration order, as the array below lists it.
        let mut counts = [0usize; 5];
        for m in &self.moves {
            counts[m.notation() as usize] += 1;
        }
        let (best, n) = counts
            .iter()
            .enumerate()
            .max_by_key(|&(i, n)| (*n, std::cmp::Reverse(i)))?;
        if *n == 0 {
            return None;
        }
        Some(
            [
                NotationGuess::Squares,
                NotationGuess::Iccs,
                NotationGuess::Wxf,
                NotationGuess::Chinese,
                NotationGuess::Other,
            ][best],
        )
    }
}

/// What a format reader reports, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadEvent {
    /// A game was read.
    Game(GameRecord),
    /// A problem was found (see [`Problem::severity`] for whether a game was skipped).
    Problem(Problem),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_guesses() {
        assert_eq!(NotationGuess::guess("h2e2"), NotationGuess::Iccs);
        assert_eq!(NotationGuess::guess("H2-E2"), NotationGuess::Iccs);
        assert_eq!(NotationGuess::guess("炮二平五"), NotationGuess::Chinese);
        assert_eq!(NotationGuess::guess("馬８進７"), NotationGuess::Chinese);
        assert_eq!(NotationGuess::guess("C2.5"), NotationGuess::Wxf);
        assert_eq!(NotationGuess::guess("Ｃ２＝５"), NotationGuess::Wxf);
        assert_eq!(NotationGuess::guess("＋Ｐ＋１"), NotationGuess::Wxf);
        assert_eq!(NotationGuess::guess("Che2"), NotationGuess::Other);
        assert_eq!(NotationGuess::guess("j2e2"), NotationGuess::Other);
    }

    #[test]
    fn results_parse() {
        assert_eq!(parse_result("1-0"), Some(GameResult::RedWins));
        assert_eq!(parse_result(" 0-1 "), Some(GameResult::BlackWins));
        assert_eq!(parse_result("1/2-1/2"), Some(GameResult::Draw));
        assert_eq!(parse_result("１／２－１／２"), Some(GameResult::Draw));
        assert_eq!(parse_result("*"), Some(GameResult::Unfinished));
        assert_eq!(parse_result("紅勝"), Some(GameResult::RedWins));
        assert_eq!(parse_result("黑胜"), Some(GameResult::BlackWins));
        assert_eq!(parse_result("和棋"), Some(GameResult::Draw));
        assert_eq!(parse_result(""), None);
        assert_eq!(parse_result("2-0"), None);
        for r in [
            GameResult::RedWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ] {
            assert_eq!(parse_result(r.pgn()), Some(r));
        }
    }

    #[test]
    fn square_tokens_print_as_iccs() {
        let t = MoveToken::Squares {
            from: "h2".parse().unwrap(),
            to: "e2".parse().unwrap(),
        };
        assert_eq!(t.to_string(), "h2e2");
        assert_eq!(t.notation(), NotationGuess::Squares);
    }
}
