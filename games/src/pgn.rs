//! Xiangqi PGN: tag pairs and movetext, as the collections people have actually write them.
//!
//! Reading happens in two passes over the lines. The first cuts the text into games: a game
//! starts at a tag line (`[Name "value"]`) that follows movetext, or that repeats a tag name of
//! the current tag section (two header blocks without moves between them are two games). A tag
//! line inside an open `{` comment only starts a game when it is a complete tag, so an unclosed
//! brace costs one game, not the rest of the file. The second pass reads each game on its own;
//! a structural problem skips that game and is reported with its number and line.
//!
//! Tolerated quirks, all seen in real files:
//! - tag values with unescaped quotes (`[Event "1999年"中視股份杯"…"]`): a value ends at the first
//!   `"` that is followed by `]` and then the end of the line or another tag;
//! - HTML entities in values (`&nbsp;`, `&amp;`), decoded;
//! - move numbers in any form: `1.`, `1...`, `1. ...`, glued `1.h2e2`, full-width `１．`, and a
//!   number repeated after a comment (`3.          马８进７`);
//! - a blank red slot when Black moves first (`1.          炮８平５` or `1. ... h7e7`), which
//!   sets [`GameRecord::black_moves_first`];
//! - footers after the result (`====` and a web address in XQBase files), ignored.

use chariot_rules::Setup;

use crate::date::GameDate;
use crate::lines::{Line, lines};
use crate::problem::{Problem, ProblemKind};
use crate::record::{GameRecord, GameResult, MoveToken, ReadEvent};
use crate::text::{self, clean_value, fold_full_width};

/// Reads every game of a PGN text, reporting games and problems through `emit` in file order.
pub fn read(text: &str, emit: &mut dyn FnMut(ReadEvent)) {
    let mut number = 0;
    for chunk in split_games(text) {
        if chunk.tags.is_empty() && !chunk.looks_like_movetext() {
            let first = chunk
                .movetext
                .iter()
                .find(|l| !text::trim(l.text).is_empty());
            if let Some(line) = first {
                let snippet: String = text::trim(line.text).chars().take(40).collect();
                emit(ReadEvent::Problem(Problem::error(
                    None,
                    Some(line.no),
                    ProblemKind::StrayText(snippet),
                )));
            }
            continue;
        }
        number += 1;
        let mut warnings = Vec::new();
        match read_game(&chunk, number, &mut warnings) {
            Ok(game) => {
                emit(ReadEvent::Game(game));
                for w in warnings {
                    emit(ReadEvent::Problem(w));
                }
            }
            Err(problem) => emit(ReadEvent::Problem(problem)),
        }
    }
}

/// The lines of one game: its tag section and its movetext.
#[derive(Debug, Default)]
struct Chunk<'a> {
    tags: Vec<Line<'a>>,
    movetext: Vec<Line<'a>>,
}

impl Chunk<'_> {
    fn first_line(&self) -> Option<usize> {
        self.tags.first().or(self.movetext.first()).map(|l| l.no)
    }

    /// Whether untagged text reads as movetext: it has a move number or a result marker.
    fn looks_like_movetext(&self) -> bool {
        self.movetext.iter().any(|l| {
            l.text
                .split(|c: char| text::is_space(c) || "{}();".contains(c))
                .any(|tok| {
                    result_marker(tok).is_some()
                        || split_move_number(tok).is_some_and(|(_, dots)| dots > 0)
                })
        })
    }
}

/// If `line` is a tag line (`[` then a letter), the tag's name.
fn tag_line_name(line: &str) -> Option<&str> {
    let rest = text::trim(line).strip_prefix('[')?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        .then_some(name)
}

/// Whether a tag line is complete: `[Name "…"]`.
fn is_complete_tag(line: &str) -> bool {
    let t = text::trim(line);
    t.ends_with(']') && t.contains('"')
}

/// First pass: cut the text into games (see the module notes).
fn split_games(text: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut cur = Chunk::default();
    let mut names: Vec<&str> = Vec::new();
    let mut in_brace = false;
    for line in lines(text) {
        if let Some(name) =
            tag_line_name(line.text).filter(|_| !in_brace || is_complete_tag(line.text))
        {
            let has_moves = cur.movetext.iter().any(|l| !text::trim(l.text).is_empty());
            if has_moves || names.contains(&name) {
                chunks.push(std::mem::take(&mut cur));
                names.clear();
            }
            names.push(name);
            cur.tags.push(line);
            in_brace = false;
            continue;
        }
        if cur.tags.is_empty() && cur.movetext.is_empty() && text::trim(line.text).is_empty() {
            continue;
        }
        in_brace = brace_state_after(line.text, in_brace);
        cur.movetext.push(line);
    }
    if !cur.tags.is_empty() || cur.movetext.iter().any(|l| !text::trim(l.text).is_empty()) {
        chunks.push(cur);
    }
    chunks
}

/// Whether a `{` comment is open after `line`, given whether one was open before it.
fn brace_state_after(line: &str, mut open: bool) -> bool {
    for c in line.chars() {
        match c {
            '{' if !open => open = true,
            '}' if open => open = false,
            ';' if !open => break,
            _ => {}
        }
    }
    open
}

/// Reads one game. Warnings go to `warnings`; an error skips the game.
fn read_game(
    chunk: &Chunk<'_>,
    number: usize,
    warnings: &mut Vec<Problem>,
) -> Result<GameRecord, Problem> {
    let mut game = GameRecord {
        number,
        line: chunk.first_line(),
        ..GameRecord::default()
    };
    for line in &chunk.tags {
        let err = |kind| Problem::error(Some(number), Some(line.no), kind);
        let (pairs, warning) = parse_tag_line(line.text).map_err(err)?;
        if let Some(kind) = warning {
            warnings.push(Problem::warning(Some(number), Some(line.no), kind));
        }
        game.tags.extend(pairs);
    }
    fill_named_fields(&mut game, chunk.tags.first().map(|l| l.no), warnings);

    let movetext = read_movetext(&chunk.movetext, number, warnings)?;
    game.moves = movetext.moves;
    game.black_moves_first = movetext.black_first;
    match (game.result, movetext.result) {
        (None, Some((r, _))) => game.result = Some(r),
        (Some(tag), Some((r, line))) if tag != r => warnings.push(Problem::warning(
            Some(number),
            Some(line),
            ProblemKind::ResultMismatch {
                tag: tag.pgn().to_owned(),
                movetext: r.pgn().to_owned(),
            },
        )),
        _ => {}
    }
    Ok(game)
}

/// Sets the typed fields of `game` from its tags.
fn fill_named_fields(game: &mut GameRecord, line: Option<usize>, warnings: &mut Vec<Problem>) {
    let number = Some(game.number);
    game.event = game.tag("Event").and_then(clean_value);
    game.red = game.tag("Red").and_then(clean_value);
    game.black = game.tag("Black").and_then(clean_value);
    game.date = game.tag("Date").and_then(GameDate::parse);
    game.fen = game
        .tag("FEN")
        .and_then(clean_value)
        .filter(|fen| !is_start_position(fen));
    game.format = game.tag("Format").and_then(clean_value);
    if let Some(value) = game.tag("Result").and_then(clean_value) {
        game.result = crate::record::parse_result(&value);
        if game.result.is_none() {
            warnings.push(Problem::warning(
                number,
                line,
                ProblemKind::UnknownResult(value),
            ));
        }
    }
    let mut elo = |tag: &str| {
        let value = game.tag(tag).and_then(clean_value)?;
        rating(&value).unwrap_or_else(|()| {
            let kind = ProblemKind::BadRating {
                tag: tag.to_owned(),
                value,
            };
            warnings.push(Problem::warning(number, line, kind));
            None
        })
    };
    let (red_elo, black_elo) = (elo("RedElo"), elo("BlackElo"));
    game.red_elo = red_elo;
    game.black_elo = black_elo;
}

/// Whether a FEN is the usual start position with Red to move (most Chinese PGN files write it
/// for every game), so that [`GameRecord::fen`] can be `None` for it as for the other formats.
fn is_start_position(fen: &str) -> bool {
    let start = Setup::start();
    fen.parse::<Setup>()
        .is_ok_and(|s| s.board == start.board && s.turn == start.turn)
}

/// A rating: a number, or a placeholder (`?`, `-`, `0`) for none.
fn rating(value: &str) -> Result<Option<u32>, ()> {
    let folded: String = value.chars().map(fold_full_width).collect();
    match folded.as_str() {
        "?" | "-" | "--" | "0" => Ok(None),
        v => v.parse::<u32>().map(Some).map_err(|_| ()),
    }
}

/// The tags of one line, and a warning when the line was not well formed but could be read.
type TagLine = (Vec<(String, String)>, Option<ProblemKind>);

/// Parses the tags of one tag line (usually one, sometimes several).
///
/// Returns the pairs and perhaps a warning (value kept, but the line was not well formed).
fn parse_tag_line(line: &str) -> Result<TagLine, ProblemKind> {
    let full = text::trim(line);
    let snippet = || full.chars().take(60).collect::<String>();
    let mut rest = full;
    let mut pairs = Vec::new();
    let mut warning = None;
    while !rest.is_empty() {
        let Some(body) = rest.strip_prefix('[') else {
            return Err(ProblemKind::MalformedTag(snippet()));
        };
        let body = text::trim(body);
        let name_end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let name = &body[..name_end];
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(ProblemKind::MalformedTag(snippet()));
        }
        let after_name = text::trim(&body[name_end..]);
        let (value, next) = if let Some(quoted) = after_name.strip_prefix('"') {
            match find_value_end(quoted) {
                Some((end, next)) => (unescape(&quoted[..end]), &quoted[next..]),
                None if quoted.ends_with(']') => {
                    warning = Some(ProblemKind::UnquotedTagValue(snippet()));
                    (
                        quoted[..quoted.len() - 1].trim_end_matches('"').to_owned(),
                        "",
                    )
                }
                None if quoted.ends_with('"') && !quoted.is_empty() => {
                    warning = Some(ProblemKind::UnterminatedTag(snippet()));
                    (unescape(&quoted[..quoted.len() - 1]), "")
                }
                None => return Err(ProblemKind::UnterminatedTag(snippet())),
            }
        } else if let Some(close) = after_name.find(']') {
            warning = Some(ProblemKind::UnquotedTagValue(snippet()));
            (after_name[..close].to_owned(), &after_name[close + 1..])
        } else {
            return Err(ProblemKind::UnterminatedTag(snippet()));
        };
        let value = text::trim(&text::decode_entities(&value)).to_owned();
        pairs.push((name.to_owned(), value));
        rest = text::trim(next);
    }
    Ok((pairs, warning))
}

/// In the text after a tag's opening quote: the index of the closing quote and of the text after
/// the tag's `]`. The closing quote is the first `"` followed by `]` and then either nothing or
/// another tag, so unescaped quotes inside the value stay in the value.
fn find_value_end(quoted: &str) -> Option<(usize, usize)> {
    for (q, _) in quoted.match_indices('"') {
        let after = text::trim(&quoted[q + 1..]);
        let Some(tail) = after.strip_prefix(']') else {
            continue;
        };
        let tail = text::trim(tail);
        if tail.is_empty() || tag_line_name(tail).is_some() {
            let next = quoted.len() - tail.len();
            return Some((q, next));
        }
    }
    None
}

/// Undoes PGN's `\"` and `\\` escapes.
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_owned();
    }
    s.replace("\\\"", "\"").replace("\\\\", "\\")
}

/// What the movetext of one game holds.
struct Movetext {
    moves: Vec<MoveToken>,
    result: Option<(GameResult, usize)>,
    black_first: bool,
}

/// The result a token marks, if it is a termination marker.
fn result_marker(tok: &str) -> Option<GameResult> {
    let folded: String = tok.chars().map(fold_full_width).collect();
    match folded.as_str() {
        "1-0" => Some(GameResult::RedWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" | "½-½" => Some(GameResult::Draw),
        "*" => Some(GameResult::Unfinished),
        _ => None,
    }
}

/// If `tok` starts with a move number (ASCII or full-width digits, then dots), the text after it
/// and the number of dots (`…` counts three). A token of digits alone is a number without dots.
fn split_move_number(tok: &str) -> Option<(&str, usize)> {
    let digits_end = tok
        .find(|c: char| !fold_full_width(c).is_ascii_digit())
        .unwrap_or(tok.len());
    if digits_end == 0 {
        return None;
    }
    let mut dots = 0;
    let mut end = digits_end;
    for c in tok[digits_end..].chars() {
        match c {
            '.' | '．' => dots += 1,
            '…' => dots += 3,
            _ => break,
        }
        end += c.len_utf8();
    }
    if dots == 0 && end < tok.len() {
        // Digits followed by something else (`1-0`, `2P.5`) are not a move number.
        return None;
    }
    Some((&tok[end..], dots))
}

/// Whether `tok` is a bare "Black to move" marker: `...`, `…`, `．．．`.
fn is_ellipsis(tok: &str) -> bool {
    !tok.is_empty()
        && tok.chars().all(|c| matches!(c, '.' | '．' | '…'))
        && tok.chars().count() >= 2
}

/// Reads the movetext lines of a game: main-line moves, the result marker, and structure checks.
fn read_movetext(
    lines: &[Line<'_>],
    number: usize,
    warnings: &mut Vec<Problem>,
) -> Result<Movetext, Problem> {
    let mut out = Movetext {
        moves: Vec::new(),
        result: None,
        black_first: false,
    };
    let mut comment_open: Option<usize> = None;
    let mut variations: Vec<usize> = Vec::new();
    // After a move number, whether Black's slot was marked (`...` or a wide gap).
    let mut black_slot = false;
    let mut after_result_reported = false;

    for line in lines {
        let text = line.text;
        if comment_open.is_none() && text.starts_with('%') {
            continue; // PGN escape line
        }
        let mut rest = text;
        while !rest.is_empty() {
            if comment_open.is_some() {
                match rest.find('}') {
                    Some(i) => {
                        rest = &rest[i + 1..];
                        comment_open = None;
                    }
                    None => break,
                }
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            if text::is_space(c) {
                rest = &rest[c.len_utf8()..];
                continue;
            }
            match c {
                '{' => {
                    comment_open = Some(line.no);
                    rest = &rest[1..];
                    continue;
                }
                ';' => break,
                '(' => {
                    variations.push(line.no);
                    rest = &rest[1..];
                    continue;
                }
                '}' => {
                    warnings.push(Problem::warning(
                        Some(number),
                        Some(line.no),
                        ProblemKind::UnmatchedBrace,
                    ));
                    rest = &rest[1..];
                    continue;
                }
                ')' => {
                    if variations.pop().is_none() {
                        return Err(Problem::error(
                            Some(number),
                            Some(line.no),
                            ProblemKind::UnmatchedParenthesis,
                        ));
                    }
                    rest = &rest[1..];
                    continue;
                }
                _ => {}
            }
            // Never empty: the first character is none of the delimiters handled above.
            let end = rest
                .find(|c: char| text::is_space(c) || "{}();".contains(c))
                .unwrap_or(rest.len());
            let tok = &rest[..end];
            rest = &rest[end..];
            if !variations.is_empty() || tok.starts_with('$') {
                continue;
            }
            if let Some(r) = result_marker(tok) {
                if out.result.is_none() {
                    out.result = Some((r, line.no));
                }
                continue;
            }
            if let Some((r, _)) = out.result {
                // A footer is fine; numbered moves after the result are worth a word.
                if !after_result_reported && split_move_number(tok).is_some_and(|(_, d)| d > 0) {
                    warnings.push(Problem::warning(
                        Some(number),
                        Some(line.no),
                        ProblemKind::TextAfterResult {
                            result: r.pgn().to_owned(),
                            text: tok.to_owned(),
                        },
                    ));
                    after_result_reported = true;
                }
                continue;
            }
            let mv = if is_ellipsis(tok) {
                black_slot = true;
                continue;
            } else if let Some((after, dots)) = split_move_number(tok) {
                black_slot = dots >= 3;
                if dots == 1 && after.is_empty() {
                    // A wide gap after `N.` and a move on the same line: Red's slot left blank.
                    let gap = rest.chars().take_while(|&c| text::is_space(c)).count();
                    let more = !text::trim(rest).is_empty();
                    black_slot = gap >= 4 && more;
                }
                if after.is_empty() {
                    continue;
                }
                after
            } else {
                tok
            };
            let mv = mv.trim_end_matches(['!', '?', '！', '？']);
            if mv.is_empty() {
                continue;
            }
            if out.moves.is_empty() && black_slot {
                out.black_first = true;
            }
            black_slot = false;
            out.moves.push(MoveToken::Text(mv.to_owned()));
        }
    }
    let last_line = lines
        .iter()
        .rev()
        .find(|l| !text::trim(l.text).is_empty())
        .map(|l| l.no);
    if let Some(opened_at) = comment_open {
        return Err(Problem::error(
            Some(number),
            last_line,
            ProblemKind::UnclosedComment { opened_at },
        ));
    }
    if let Some(&opened_at) = variations.first() {
        return Err(Problem::error(
            Some(number),
            last_line,
            ProblemKind::UnclosedVariation { opened_at },
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Severity;

    fn parse(text: &str) -> (Vec<GameRecord>, Vec<Problem>) {
        let (mut games, mut problems) = (Vec::new(), Vec::new());
        read(text, &mut |e| match e {
            ReadEvent::Game(g) => games.push(g),
            ReadEvent::Problem(p) => problems.push(p),
        });
        (games, problems)
    }

    fn texts(g: &GameRecord) -> Vec<String> {
        g.moves.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn tags_and_moves() {
        let pgn = "[Game \"Chinese Chess\"]\r\n[Event \"友誼賽\"]\r\n[Date \"4/17/1996\"]\r\n[Red \"柳大華\"]\r\n\
                   [Black \"吳貴臨\"]\r\n[RedElo \"2500\"]\r\n[BlackElo \"?\"]\r\n[Result \"1-0\"]\r\n\
                   [Format \"Chinese\"]\r\n\r\n1. 炮二平五 馬８進７\r\n2. 馬二進三 車９平８\r\n1-0\r\n";
        let (games, problems) = parse(pgn);
        assert!(problems.is_empty(), "{problems:?}");
        let g = &games[0];
        assert_eq!((g.number, g.line), (1, Some(1)));
        assert_eq!(g.event.as_deref(), Some("友誼賽"));
        assert_eq!(g.red.as_deref(), Some("柳大華"));
        assert_eq!(g.black.as_deref(), Some("吳貴臨"));
        assert_eq!(
            g.date.as_ref().and_then(|d| d.normalized.as_deref()),
            Some("1996-04-17")
        );
        assert_eq!((g.red_elo, g.black_elo), (Some(2500), None));
        assert_eq!(g.result, Some(GameResult::RedWins));
        assert_eq!(g.format.as_deref(), Some("Chinese"));
        assert_eq!(texts(g), ["炮二平五", "馬８進７", "馬二進三", "車９平８"]);
        assert!(!g.black_moves_first);
        assert_eq!(g.tags.len(), 9);
    }

    #[test]
    fn quirky_tag_values() {
        let pgn = "[Event \"1999年\"中視股份杯\"象棋年度總決賽 (半決賽)\"]\n[Red \"A&nbsp;B&amp;C\"]\n\
                   [Black \"\"百民杯“全國\"]\n[Site \"x\\\"y\"] [Round \"3\"]\n\n1. h2e2 *\n";
        let (games, problems) = parse(pgn);
        assert!(problems.is_empty(), "{problems:?}");
        let g = &games[0];
        assert_eq!(
            g.event.as_deref(),
            Some("1999年\"中視股份杯\"象棋年度總決賽 (半決賽)")
        );
        assert_eq!(g.red.as_deref(), Some("A B&C"));
        assert_eq!(g.black.as_deref(), Some("\"百民杯“全國"));
        assert_eq!(g.tag("Site"), Some("x\"y"));
        assert_eq!(g.tag("round"), Some("3"));
        assert_eq!(g.result, Some(GameResult::Unfinished));
    }

    #[test]
    fn move_numbers_comments_variations() {
        let pgn = "[Event \"e\"]\n\n{intro { not nested}\n１． 炮二平五 ; line comment 1-0\n馬８進７ (1... 炮８平５ (2. h2e2)\n\
                   {c)} 2. 兵七进一) 2.馬二進三 $1 車９平８!? 3... h7e7 {end} 0-1\n";
        let (games, problems) = parse(pgn);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            texts(&games[0]),
            ["炮二平五", "馬８進７", "馬二進三", "車９平８", "h7e7"]
        );
        assert_eq!(games[0].result, Some(GameResult::BlackWins));
    }

    #[test]
    fn black_moves_first() {
        let (g, _) =
            parse("[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 b\"]\n  1.          炮８平５\n  2. 炮二平五\n");
        assert!(g[0].black_moves_first);
        assert_eq!(texts(&g[0]), ["炮８平５", "炮二平五"]);
        let (g, _) = parse("[FEN \"x\"]\n1. ... h7e7 2. h2e2\n");
        assert!(g[0].black_moves_first);
        let (g, _) = parse("[FEN \"x\"]\n1...h7e7 2. h2e2\n");
        assert!(g[0].black_moves_first);
        assert_eq!(texts(&g[0]), ["h7e7", "h2e2"]);
        // A repeated number after a comment (`3.          马８进７`) is not a first move.
        let (g, _) = parse("[E \"x\"]\n1. 炮二平五\n{c}\n1.          马８进７\n");
        assert!(!g[0].black_moves_first);
        assert_eq!(texts(&g[0]), ["炮二平五", "马８进７"]);
    }

    #[test]
    fn games_split_without_blank_lines_and_without_moves() {
        let pgn = "[Event \"a\"]\n1. h2e2 h9g7\n[Event \"b\"]\n[Result \"1-0\"]\n[Event \"c\"]\n1. c3c4\n";
        let (games, problems) = parse(pgn);
        assert!(problems.is_empty(), "{problems:?}");
        let events: Vec<_> = games.iter().map(|g| g.event.clone().unwrap()).collect();
        assert_eq!(events, ["a", "b", "c"]);
        assert!(games[1].moves.is_empty());
        assert_eq!(
            games.iter().map(|g| g.number).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(games[2].line, Some(5));
    }

    #[test]
    fn footer_after_result_is_ignored_quietly() {
        let pgn = "[Event \"a\"]\n1. h2e2 h9g7\n 0-1\n============================\n欢迎访问《象棋百科全书》网站\n\
                   https://www.xqbase.com/\n[Event \"b\"]\n1. h2e2\n";
        let (games, problems) = parse(pgn);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(games.len(), 2);
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7"]);
    }

    #[test]
    fn moves_after_result_warn() {
        let (games, problems) = parse("[Event \"a\"]\n1. h2e2 1-0 2. h9g7\n");
        assert_eq!(texts(&games[0]), ["h2e2"]);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].severity, Severity::Warning);
        assert!(matches!(
            problems[0].kind,
            ProblemKind::TextAfterResult { .. }
        ));
    }

    #[test]
    fn stray_closing_brace_is_skipped() {
        // Found by the fuzz test: a '}' outside a comment once stopped the lexer advancing.
        let (games, problems) = parse("[Event \"a\"]\n1. h2e2 } h9g7}\n");
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7"]);
        assert_eq!(problems.len(), 2);
        assert!(
            problems
                .iter()
                .all(|p| p.kind == ProblemKind::UnmatchedBrace && p.severity == Severity::Warning)
        );
    }

    #[test]
    fn odd_ratings_and_results_warn() {
        let (games, problems) =
            parse("[RedElo \"2,500\"]\n[BlackElo \"２６００\"]\n[Result \"2-0\"]\n1. h2e2\n");
        assert_eq!(
            (games[0].red_elo, games[0].black_elo, games[0].result),
            (None, Some(2600), None)
        );
        let kinds: Vec<String> = problems.iter().map(|p| p.kind.to_string()).collect();
        assert_eq!(
            kinds,
            [
                "unknown result \"2-0\" ignored",
                "RedElo \"2,500\" is not a number; ignored"
            ]
        );
    }

    #[test]
    fn result_mismatch_keeps_tag() {
        let (games, problems) = parse("[Result \"1-0\"]\n1. h2e2 0-1\n");
        assert_eq!(games[0].result, Some(GameResult::RedWins));
        assert!(matches!(
            problems[0].kind,
            ProblemKind::ResultMismatch { .. }
        ));
    }

    #[test]
    fn structural_errors_skip_one_game() {
        let pgn = "[Event \"ok1\"]\n1. h2e2\n\n[Event \"trunc\n1. h2e2\n\n[Event \"ok2\"]\n1. h2e2 {open\n2. c3c4\n\n\
                   [Event \"ok3\"]\n1. h2e2 (1. c3c4\n\n[Event \"ok4\"]\n1. h2e2 )\n\n[Event \"ok5\"]\n1. b2e2\n";
        let (games, problems) = parse(pgn);
        let events: Vec<_> = games.iter().map(|g| g.event.clone().unwrap()).collect();
        assert_eq!(events, ["ok1", "ok5"]);
        assert_eq!(games[1].number, 6);
        let got: Vec<_> = problems
            .iter()
            .map(|p| (p.game, p.line, p.severity))
            .collect();
        assert_eq!(
            got,
            [
                (Some(2), Some(4), Severity::Error),
                (Some(3), Some(9), Severity::Error),
                (Some(4), Some(12), Severity::Error),
                (Some(5), Some(15), Severity::Error),
            ]
        );
        assert!(matches!(problems[0].kind, ProblemKind::UnterminatedTag(_)));
        assert_eq!(
            problems[1].kind,
            ProblemKind::UnclosedComment { opened_at: 8 }
        );
        assert_eq!(
            problems[2].kind,
            ProblemKind::UnclosedVariation { opened_at: 12 }
        );
        assert_eq!(problems[3].kind, ProblemKind::UnmatchedParenthesis);
    }

    #[test]
    fn stray_text_is_reported_not_read_as_moves() {
        let (games, problems) = parse("hello world\nthis is not a game\n");
        assert!(games.is_empty());
        assert!(matches!(problems[0].kind, ProblemKind::StrayText(_)));
        // Movetext without tags is a game.
        let (games, _) = parse("1. h2e2 h9g7 2. h0g2\n");
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn tag_line_forms() {
        assert_eq!(
            parse_tag_line("[Event \"a\"]").unwrap().0,
            [("Event".to_owned(), "a".to_owned())]
        );
        let (pairs, w) = parse_tag_line("[Event \"a]").unwrap();
        assert_eq!((pairs[0].1.as_str(), w.is_some()), ("a", true));
        let (pairs, w) = parse_tag_line("[Event a]").unwrap();
        assert_eq!((pairs[0].1.as_str(), w.is_some()), ("a", true));
        let (pairs, w) = parse_tag_line("[Event \"a\"").unwrap();
        assert_eq!((pairs[0].1.as_str(), w.is_some()), ("a", true));
        assert!(parse_tag_line("[Event \"a").is_err());
        assert!(parse_tag_line("[Event").is_err());
        assert!(parse_tag_line("[Event \"a\"] junk").is_err());
        assert!(parse_tag_line("[1 \"a\"]").is_err());
    }

    #[test]
    fn move_number_forms() {
        assert_eq!(split_move_number("12."), Some(("", 1)));
        assert_eq!(split_move_number("1..."), Some(("", 3)));
        assert_eq!(split_move_number("1…h7e7"), Some(("h7e7", 3)));
        assert_eq!(split_move_number("１２．炮二平五"), Some(("炮二平五", 1)));
        assert_eq!(split_move_number("7"), Some(("", 0)));
        assert_eq!(split_move_number("1-0"), None);
        assert_eq!(split_move_number("C2.5"), None);
    }
}
