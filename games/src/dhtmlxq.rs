//! DhtmlXQ (UBB) games: the `[DhtmlXQ]…[/DhtmlXQ]` blocks of Chinese Xiangqi web sites, found in
//! `.ubb` files and embedded in `.html` pages.
//!
//! A block is a list of fields `[DhtmlXQ_name]value[/DhtmlXQ_name]`. The reader uses:
//! - `movelist`: the main line, 4 digits per move `x1 y1 x2 y2`, where `x` is the file 0-8 from
//!   the left as Red sees the board and `y` the row 0-9 counted from the **top** (Black's back
//!   rank is row 0, Red's is row 9). So `7747` is h2-e2 (炮二平五), and Chariot's square is
//!   `file = x, rank = 9 - y`.
//! - `binit`: a start position, 64 digits, two per piece (`x y` as above) in the fixed order
//!   Red 车马相仕帅仕相马车炮炮兵兵兵兵兵 (RNBAKABNRCCPPPPP), then Black in the same order; a
//!   pair off the board (`99`) marks a captured piece. The side to move is the colour of the
//!   piece on the first move's square.
//! - `title`, `event`, `date`, `place`, `round`, `red`, `black`, `redteam`, `blackteam`,
//!   `result` (`红胜`/`黑胜`/`和棋`, PGN results, or `W`/`L`/`D` from Red's side as English
//!   pages write it).
//!
//! Variations (`move_a_b_c`) and comments (`commentN`) are skipped: the main line counts.
//! Closing tags are matched loosely (`[DhtmlXQ_blacktime]…[/DhtmlXQ_time]` occurs in the wild):
//! a value runs to the next closing tag of any name.

use chariot_rules::{Color, Kind, Piece, Setup, Square};

use crate::date::GameDate;
use crate::problem::{Problem, ProblemKind};
use crate::record::{GameRecord, GameResult, MoveToken, ReadEvent};
use crate::text::clean_value;

/// Reads every DhtmlXQ block of `text`, reporting games and problems through `emit`.
pub fn read(text: &str, emit: &mut dyn FnMut(ReadEvent)) {
    // ASCII lower-casing keeps byte offsets, so positions found in `lower` index `text`.
    let lower = text.to_ascii_lowercase();
    let mut blocks: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    while let Some(i) = lower[from..].find("[dhtmlxq]") {
        let start = from + i + "[dhtmlxq]".len();
        let end = match (
            lower[start..].find("[/dhtmlxq]"),
            lower[start..].find("[dhtmlxq]"),
        ) {
            (Some(close), Some(next)) => start + close.min(next),
            (Some(close), None) => start + close,
            (None, Some(next)) => start + next,
            (None, None) => text.len(),
        };
        blocks.push((start, end));
        from = end;
    }
    if blocks.is_empty() && lower.contains("[dhtmlxq_") {
        blocks.push((0, text.len()));
    }

    let mut line = 1;
    let mut counted = 0;
    for (i, &(start, end)) in blocks.iter().enumerate() {
        line += text.as_bytes()[counted..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        counted = start;
        let fields = fields(&text[start..end], &lower[start..end]);
        let mut warnings = Vec::new();
        match read_game(&fields, i + 1, line, &mut warnings) {
            Ok(game) => {
                emit(ReadEvent::Game(game));
                for w in warnings {
                    emit(ReadEvent::Problem(w));
                }
            }
            Err(kind) => emit(ReadEvent::Problem(Problem::error(
                Some(i + 1),
                Some(line),
                kind,
            ))),
        }
    }
}

/// The fields of one block as (lower-case name without the `dhtmlxq_` prefix, raw value).
fn fields<'a>(block: &'a str, lower: &str) -> Vec<(String, &'a str)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(i) = lower[pos..].find("[dhtmlxq_") {
        let name_start = pos + i + "[dhtmlxq_".len();
        let Some(close) = lower[name_start..].find(']') else {
            break;
        };
        let name = &lower[name_start..name_start + close];
        let value_start = name_start + close + 1;
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            pos = value_start;
            continue;
        }
        let rest = &lower[value_start..];
        let value_end = value_start
            + rest
                .find("[/dhtmlxq")
                .or_else(|| rest.find("[dhtmlxq"))
                .unwrap_or(rest.len());
        out.push((name.to_owned(), &block[value_start..value_end]));
        pos = match lower[value_end..].strip_prefix("[/dhtmlxq") {
            Some(after) => after
                .find(']')
                .map_or(value_end, |j| value_end + "[/dhtmlxq".len() + j + 1),
            None => value_end,
        };
    }
    out
}

/// The PGN tag name a DhtmlXQ field is reported under.
fn tag_name(field: &str) -> Option<String> {
    let known = match field {
        "title" => "Title",
        "event" => "Event",
        "date" => "Date",
        "place" => "Site",
        "round" => "Round",
        "red" => "Red",
        "black" => "Black",
        "redteam" => "RedTeam",
        "blackteam" => "BlackTeam",
        "result" => "Result",
        "movelist" | "binit" => return None,
        f if f.starts_with("move_") || f.starts_with("comment") => return None,
        f => return Some(format!("DhtmlXQ_{f}")),
    };
    Some(known.to_owned())
}

fn read_game(
    fields: &[(String, &str)],
    number: usize,
    line: usize,
    warnings: &mut Vec<Problem>,
) -> Result<GameRecord, ProblemKind> {
    let get = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let movelist = get("movelist");
    let binit = get("binit");
    if movelist.is_none() && binit.is_none() {
        return Err(ProblemKind::EmptyDhtmlXq);
    }

    let mut game = GameRecord {
        number,
        line: Some(line),
        ..GameRecord::default()
    };
    for (name, value) in fields {
        if let Some(tag) = tag_name(name) {
            game.tags
                .push((tag, clean_value(value).unwrap_or_default()));
        }
    }
    game.event = get("event")
        .and_then(clean_value)
        .or_else(|| get("title").and_then(clean_value));
    game.red = get("red").and_then(clean_value);
    game.black = get("black").and_then(clean_value);
    game.date = get("date").and_then(GameDate::parse);
    if let Some(result) = get("result").and_then(clean_value) {
        game.result = match result.as_str() {
            "W" | "w" => Some(GameResult::RedWins),
            "L" | "l" => Some(GameResult::BlackWins),
            "D" | "d" => Some(GameResult::Draw),
            "未知" | "?" => None,
            other => crate::record::parse_result(other),
        };
        if game.result.is_none() && !matches!(result.as_str(), "未知" | "?") {
            warnings.push(Problem::warning(
                Some(number),
                Some(line),
                ProblemKind::UnknownResult(result),
            ));
        }
    }

    game.moves = match movelist {
        Some(list) => parse_movelist(list)?,
        None => Vec::new(),
    };
    if let Some(binit) = binit {
        let first_from = match game.moves.first() {
            Some(MoveToken::Squares { from, .. }) => Some(*from),
            _ => None,
        };
        game.fen = start_fen(binit, first_from)?;
    }
    Ok(game)
}

/// Converts DhtmlXQ digits `x y` (x from the left, y from the top) to a square.
fn square(x: u8, y: u8) -> Option<Square> {
    (x <= 8 && y <= 9).then(|| Square::new(x, 9 - y))
}

/// The digits of a field, white space removed.
fn digits(value: &str) -> String {
    value.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Parses a move list into square tokens.
fn parse_movelist(list: &str) -> Result<Vec<MoveToken>, ProblemKind> {
    let d = digits(list);
    if !d.len().is_multiple_of(4) {
        return Err(ProblemKind::MoveListLength(d.chars().count()));
    }
    let mut moves = Vec::with_capacity(d.len() / 4);
    for (i, group) in d.as_bytes().chunks(4).enumerate() {
        let bad = || ProblemKind::BadMoveDigits {
            ply: i + 1,
            text: String::from_utf8_lossy(group).into_owned(),
        };
        if !group.iter().all(u8::is_ascii_digit) {
            return Err(bad());
        }
        let v: Vec<u8> = group.iter().map(|b| b - b'0').collect();
        let from = square(v[0], v[1]).ok_or_else(bad)?;
        let to = square(v[2], v[3]).ok_or_else(bad)?;
        moves.push(MoveToken::Squares { from, to });
    }
    Ok(moves)
}

/// The order of the 32 pieces in a DhtmlXQ `binit` (and an XQF piece table).
pub(crate) const PIECE_ORDER: [Kind; 16] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Elephant,
    Kind::Advisor,
    Kind::General,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Horse,
    Kind::Chariot,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Soldier,
    Kind::Soldier,
    Kind::Soldier,
    Kind::Soldier,
    Kind::Soldier,
];

/// Places the 32 pieces of a piece table (index `i` is [`PIECE_ORDER`]`[i % 16]`, Red first;
/// `None` = captured) and sets the side to move from the piece on `first_from`.
///
/// Returns `None` for the usual start position with Red to move, else its FEN.
pub(crate) fn setup_fen(
    squares: &[Option<Square>; 32],
    first_from: Option<Square>,
) -> Result<Option<String>, ProblemKind> {
    let mut setup = Setup::empty();
    for (i, sq) in squares.iter().enumerate() {
        let Some(sq) = *sq else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        if setup.board[sq.index()].is_some() {
            return Err(ProblemKind::TwoPiecesOnSquare(sq.to_string()));
        }
        setup.board[sq.index()] = Some(Piece::new(color, PIECE_ORDER[i % 16]));
    }
    for (i, name) in [(4, "red"), (20, "black")] {
        if squares[i].is_none() {
            return Err(ProblemKind::MissingGeneral(name));
        }
    }
    if let Some(p) = first_from.and_then(|sq| setup.piece_at(sq)) {
        setup.turn = p.color();
    }
    Ok((setup != Setup::start()).then(|| setup.fen()))
}

/// Reads a `binit` field into a FEN (see [`setup_fen`]).
fn start_fen(binit: &str, first_from: Option<Square>) -> Result<Option<String>, ProblemKind> {
    let d = digits(binit);
    if d.len() != 64 || !d.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ProblemKind::BadBinit(d.chars().take(70).collect()));
    }
    let b = d.as_bytes();
    let mut squares = [None; 32];
    for (i, slot) in squares.iter_mut().enumerate() {
        *slot = square(b[2 * i] - b'0', b[2 * i + 1] - b'0');
    }
    setup_fen(&squares, first_from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Vec<GameRecord>, Vec<Problem>) {
        let (mut games, mut problems) = (Vec::new(), Vec::new());
        read(text, &mut |e| match e {
            ReadEvent::Game(g) => games.push(g),
            ReadEvent::Problem(p) => problems.push(p),
        });
        (games, problems)
    }

    #[test]
    fn coordinates_count_rows_from_the_top() {
        let (games, problems) =
            parse("[DhtmlXQ][DhtmlXQ_movelist]77477967[/DhtmlXQ_movelist][/DhtmlXQ]");
        assert!(problems.is_empty());
        let iccs: Vec<String> = games[0].moves.iter().map(ToString::to_string).collect();
        assert_eq!(iccs, ["h2e2", "h0g2"]);
        assert_eq!(games[0].fen, None);
    }

    #[test]
    fn fields_and_results() {
        let text = "<html>\n<body>\n[DhtmlXQ]\n[DhtmlXQ_title]T[/DhtmlXQ_title]\n[DhtmlXQ_red]A&amp;B[/DhtmlXQ_red]\n\
                    [DhtmlXQ_blacktime]5[/DhtmlXQ_time]\n[DhtmlXQ_black]C[/DhtmlXQ_black]\n[DhtmlXQ_date]2008-1-2[/DhtmlXQ_date]\n\
                    [DhtmlXQ_result]L[/DhtmlXQ_result]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n\
                    <p>[DhtmlXQ][DhtmlXQ_result]红胜[/DhtmlXQ_result][DhtmlXQ_movelist]1927[/DhtmlXQ_movelist][/DhtmlXQ]";
        let (games, problems) = parse(text);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!((g.number, g.line), (1, Some(3)));
        assert_eq!(g.red.as_deref(), Some("A&B"));
        assert_eq!(g.black.as_deref(), Some("C"));
        assert_eq!(g.event.as_deref(), Some("T"));
        assert_eq!(g.tag("DhtmlXQ_blacktime"), Some("5"));
        assert_eq!(
            g.date.as_ref().and_then(|d| d.normalized.as_deref()),
            Some("2008-01-02")
        );
        assert_eq!(g.result, Some(GameResult::BlackWins));
        assert_eq!(
            (games[1].number, games[1].line, games[1].result),
            (2, Some(12), Some(GameResult::RedWins))
        );
    }

    #[test]
    fn binit_sets_position_and_side() {
        // Standard order, all pieces home: the start position.
        let start = "0919293949596979891777062646668600102030405060708012720323436383";
        let (g, p) = parse(&format!(
            "[DhtmlXQ_binit]{start}[/DhtmlXQ_binit][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
        ));
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(g[0].fen, None);
        // Only the generals and a black rook on a9, Black to move first.
        let mut pairs = vec!["99"; 32];
        pairs[4] = "49";
        pairs[20] = "40";
        pairs[16] = "00";
        let binit = pairs.concat();
        let (g, p) = parse(&format!(
            "[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit][DhtmlXQ_movelist]0001[/DhtmlXQ_movelist]"
        ));
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(
            g[0].fen.as_deref(),
            Some("r3k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1")
        );
    }

    #[test]
    fn broken_blocks_are_errors() {
        let cases = [
            (
                "[DhtmlXQ][DhtmlXQ_movelist]774[/DhtmlXQ_movelist][/DhtmlXQ]",
                "not a multiple of 4",
            ),
            (
                "[DhtmlXQ][DhtmlXQ_movelist]9747[/DhtmlXQ_movelist][/DhtmlXQ]",
                "off the board",
            ),
            (
                "[DhtmlXQ][DhtmlXQ_movelist]77a7[/DhtmlXQ_movelist][/DhtmlXQ]",
                "off the board",
            ),
            (
                "[DhtmlXQ][DhtmlXQ_binit]0919[/DhtmlXQ_binit][/DhtmlXQ]",
                "not 64 digits",
            ),
            (
                "[DhtmlXQ][DhtmlXQ_title]x[/DhtmlXQ_title][/DhtmlXQ]",
                "without a move list",
            ),
            (
                "[DhtmlXQ][DhtmlXQ_binit]0909293949596979891777062646668600102030405060708012720323436383[/DhtmlXQ_binit][/DhtmlXQ]",
                "two pieces on a0",
            ),
        ];
        for (text, want) in cases {
            let (games, problems) = parse(text);
            assert!(games.is_empty(), "{text}");
            assert_eq!(problems.len(), 1, "{text}");
            let msg = problems[0].kind.to_string();
            assert!(msg.contains(want), "{text}: {msg}");
        }
    }
}
