//! Carrying on an interrupted tournament from the PGN file it was writing (`--resume`).
//!
//! Every game the runner writes carries `[Round "R.N"]` (round R, game number N of the
//! tournament), the players and the result, so the file alone says which games are done. Only
//! the tags and the last word of the movetext are read here: a game counts when its movetext
//! ends with the result its `Result` tag gives and that result is not `*`. Games without a result
//! are played again; when a number appears twice the later game wins (a replayed game follows
//! the one it replaces).
//!
//! A run killed while writing leaves part of a game at the end of the file. That tail holds no
//! result, so it is cut off before new games are appended (the caller says so), and the file
//! stays a sequence of whole games for every PGN reader.

use std::collections::HashMap;
use std::path::Path;

use chariot_matchkit::runner::Previous;
use chariot_matchkit::standings::GameScore;

/// What an earlier run's PGN file holds.
#[derive(Debug, Default)]
pub struct Earlier {
    /// Finished games by game number.
    pub games: HashMap<usize, Previous>,
    /// Games in the file without a result (`*`): played again.
    pub without_result: usize,
    /// The length of the file up to the end of its last whole game.
    pub whole_len: u64,
    /// The length of the file: more than `whole_len` when a game was cut off mid-write.
    pub file_len: u64,
}

/// Why a PGN file cannot be resumed from.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The file cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A game's tags do not say where it belongs in the tournament.
    #[error("{path}, line {line}: {what} (the file was not written by chariot-league)")]
    Foreign {
        /// The file.
        path: String,
        /// The 1-based line of the game's first tag.
        line: usize,
        /// What is missing or wrong.
        what: String,
    },
}

/// Reads the games an earlier run wrote to `path`. A missing file is an empty one.
///
/// # Errors
/// When the file cannot be read or holds a game without the runner's `Round` tag.
pub fn read(path: &Path) -> Result<Earlier, ResumeError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Earlier::default()),
        Err(source) => {
            return Err(ResumeError::Io {
                path: path.display().to_string(),
                source,
            });
        }
    };
    parse(&bytes).map_err(|(line, what)| ResumeError::Foreign {
        path: path.display().to_string(),
        line,
        what,
    })
}

/// One game being read: its first line and its tags.
#[derive(Default)]
struct Game {
    line: usize,
    tags: Vec<(String, String)>,
    last_word: String,
}

impl Game {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the games of a PGN text; errors carry the 1-based line.
fn parse(bytes: &[u8]) -> Result<Earlier, (usize, String)> {
    let mut earlier = Earlier {
        file_len: bytes.len() as u64,
        ..Earlier::default()
    };
    let mut game: Option<Game> = None;
    let mut in_movetext = false;
    let mut offset = 0usize;
    for (i, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let line_start = offset;
        let line_end = offset + raw.len();
        offset = line_end;
        // The writer writes UTF-8; a damaged line reads as lossy text and fails the checks.
        let text = String::from_utf8_lossy(raw);
        let text = text.trim();
        // Blank lines after a whole game belong to it.
        if text.is_empty() && game.is_none() && earlier.whole_len == line_start as u64 {
            earlier.whole_len = line_end as u64;
            continue;
        }
        if text.starts_with('[') && text.ends_with(']') && (game.is_none() || in_movetext) {
            game = Some(Game {
                line: i + 1,
                ..Game::default()
            });
            in_movetext = false;
        }
        let Some(g) = game.as_mut() else {
            continue;
        };
        if !in_movetext && text.starts_with('[') && text.ends_with(']') {
            if let Some((name, value)) = tag(text) {
                g.tags.push((name, value));
            }
            continue;
        }
        if text.is_empty() {
            continue;
        }
        in_movetext = true;
        if let Some(word) = text.split_whitespace().last() {
            g.last_word = word.to_owned();
        }
        let result = g.tag("Result").unwrap_or("");
        if !result.is_empty() && g.last_word == result {
            if let Some(g) = game.take() {
                earlier.whole_len = line_end as u64;
                finish(&g, &mut earlier)?;
            }
            in_movetext = false;
        }
    }
    Ok(earlier)
}

/// Files a whole game under its number.
fn finish(g: &Game, earlier: &mut Earlier) -> Result<(), (usize, String)> {
    let round_tag = g
        .tag("Round")
        .ok_or_else(|| (g.line, "a game has no Round tag".to_owned()))?;
    let (round, number) = round_tag
        .split_once('.')
        .and_then(|(r, n)| Some((r.parse::<u32>().ok()?, n.parse::<usize>().ok()?)))
        .filter(|&(r, n)| r > 0 && n > 0)
        .ok_or_else(|| {
            (
                g.line,
                format!("Round {round_tag:?} is not ROUND.GAME (such as 1.3)"),
            )
        })?;
    // Red has the first seat.
    let score = match g.tag("Result") {
        Some("1-0") => GameScore::FirstWins,
        Some("0-1") => GameScore::SecondWins,
        Some("1/2-1/2") => GameScore::Draw,
        _ => {
            earlier.without_result += 1;
            earlier.games.remove(&number);
            return Ok(());
        }
    };
    let name = |tag: &str| {
        g.tag(tag)
            .map(str::to_owned)
            .ok_or_else(|| (g.line, format!("a game has no {tag} tag")))
    };
    earlier.games.insert(
        number,
        Previous {
            round,
            first: name("Red")?,
            second: name("Black")?,
            score,
        },
    );
    Ok(())
}

/// `[Name "Value"]` with the writer's escapes (`\\` and `\"`) undone.
fn tag(text: &str) -> Option<(String, String)> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    Some((name.to_owned(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Game \"Chinese Chess\"]\n[Round \"1.1\"]\n[Red \"A \\\"x\\\"\"]\n\
        [Black \"B\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 {Red mates} 1-0\n\n\
        [Game \"Chinese Chess\"]\n[Round \"1.2\"]\n[Red \"B\"]\n[Black \"A\"]\n\
        [Result \"*\"]\n\n{engines failed} *\n\n";

    #[test]
    fn finished_games_are_filed_by_number_and_unfinished_ones_left_to_play() {
        let e = parse(TWO.as_bytes()).unwrap();
        assert_eq!(e.games.len(), 1);
        let g = &e.games[&1];
        assert_eq!(
            (g.round, g.first.as_str(), g.second.as_str()),
            (1, "A \"x\"", "B")
        );
        assert_eq!(g.score, GameScore::FirstWins);
        assert_eq!(e.without_result, 1);
        assert_eq!(e.whole_len, e.file_len);
    }

    #[test]
    fn a_game_cut_off_mid_write_is_left_out_and_measured() {
        let cut = format!("{TWO}[Game \"Chinese Chess\"]\n[Round \"1.3\"]\n[Red \"A\"]\n[Res");
        let e = parse(cut.as_bytes()).unwrap();
        assert_eq!(e.games.len(), 1);
        assert_eq!(e.whole_len, TWO.len() as u64);
        assert!(e.file_len > e.whole_len);
        let cut = format!("{TWO}[Round \"1.3\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7");
        let e = parse(cut.as_bytes()).unwrap();
        assert_eq!(e.whole_len, TWO.len() as u64);
    }

    #[test]
    fn a_replayed_game_replaces_the_earlier_one() {
        let again = format!(
            "{TWO}[Round \"1.2\"]\n[Red \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n"
        );
        let e = parse(again.as_bytes()).unwrap();
        assert_eq!(e.games[&2].score, GameScore::Draw);
    }

    #[test]
    fn games_from_elsewhere_are_refused_with_their_line() {
        let foreign = "[Event \"x\"]\n[Result \"1-0\"]\n\n1. h2e2 1-0\n";
        assert_eq!(parse(foreign.as_bytes()).unwrap_err().0, 1);
        let odd = "[Round \"3\"]\n[Result \"1-0\"]\n\n1-0\n";
        assert!(parse(odd.as_bytes()).unwrap_err().1.contains("ROUND.GAME"));
    }
}
