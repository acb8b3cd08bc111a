//! A small PGN movetext reader for tests: splits a file into games, reads the tags, and
//! returns the move texts with tags, comments, variations, move numbers, NAGs and results
//! removed. It is deliberately simple; the real importer lives in the book builder.

use std::path::PathBuf;

use chariot::notation::parse_move;
use chariot::rules::START_FEN;
use chariot::{Move, Position};

/// One game: its tags and its move texts.
pub struct Game {
    /// 1-based line of the game's first line in the file.
    pub line: usize,
    /// `(name, value)` pairs in file order.
    pub tags: Vec<(String, String)>,
    /// The move texts, in order.
    pub moves: Vec<String>,
}

impl Game {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position the game starts from: its `FEN` tag or the start position.
    pub fn start(&self) -> Position {
        let fen = self.tag("FEN").unwrap_or(START_FEN);
        Position::from_fen(fen)
            .unwrap_or_else(|e| panic!("game at line {}: bad FEN {fen:?}: {e}", self.line))
    }

    /// Plays the game through, reading each move text against the position before it.
    /// Returns the moves, or the index, text and error of the first move that fails.
    pub fn replay(&self) -> Result<Vec<Move>, (usize, String, String)> {
        let mut pos = self.start();
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let m = parse_move(&pos, text).map_err(|e| (i, text.clone(), e.to_string()))?;
            pos.make_move(m);
            out.push(m);
        }
        Ok(out)
    }
}

/// The path of a file under the repository's `data/`.
pub fn data_path(parts: &[&str]) -> PathBuf {
    let mut p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "data"].iter().collect();
    p.extend(parts);
    p
}

/// `true` for a token that is a game result.
fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// The token without a leading move number (`12.`, `12...`, `12.h2e2`).
fn strip_move_number(t: &str) -> &str {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && t[digits..].starts_with('.') {
        t[digits..].trim_start_matches('.')
    } else {
        t
    }
}

/// Splits PGN text into games.
pub fn games(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut current: Option<Game> = None;
    let mut in_moves = false;
    let mut movetext = String::new();
    let finish = |game: Option<Game>, movetext: &mut String, games: &mut Vec<Game>| {
        if let Some(mut g) = game {
            g.moves = tokens(movetext);
            games.push(g);
        }
        movetext.clear();
    };
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            if in_moves || current.is_none() {
                finish(current.take(), &mut movetext, &mut games);
                current = Some(Game {
                    line: i + 1,
                    tags: Vec::new(),
                    moves: Vec::new(),
                });
                in_moves = false;
            }
            // Tag values may hold unescaped quotes: take everything between the first and last.
            let inner = &trimmed[1..trimmed.len() - 1];
            let name = inner.split_whitespace().next().unwrap_or("").to_owned();
            let value = match (inner.find('"'), inner.rfind('"')) {
                (Some(a), Some(b)) if b > a => inner[a + 1..b].to_owned(),
                _ => String::new(),
            };
            if let Some(g) = current.as_mut() {
                g.tags.push((name, value));
            }
        } else if current.is_some() {
            if !trimmed.is_empty() {
                in_moves = true;
            }
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    finish(current.take(), &mut movetext, &mut games);
    games
}

/// The move texts of a game's movetext.
fn tokens(movetext: &str) -> Vec<String> {
    // Remove {comments}, ;comments and (variations), which may nest.
    let mut clean = String::with_capacity(movetext.len());
    let (mut brace, mut paren, mut semicolon) = (false, 0usize, false);
    for c in movetext.chars() {
        match c {
            _ if semicolon => semicolon = c != '\n',
            _ if brace => brace = c != '}',
            '{' => brace = true,
            ';' => semicolon = true,
            '(' => paren += 1,
            ')' => paren = paren.saturating_sub(1),
            _ if paren > 0 => {}
            _ => clean.push(c),
        }
    }
    clean
        .split_whitespace()
        .map(strip_move_number)
        .filter(|t| {
            !t.is_empty() && !is_result(t) && !t.starts_with('$') && !t.chars().all(|c| c == '.')
        })
        .map(str::to_owned)
        .collect()
}
