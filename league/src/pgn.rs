//! Games as Xiangqi PGN.
//!
//! The tags are those Xiangqi programs read (`[Game "Chinese Chess"]`, `Red`, `Black`, `FEN`,
//! `Format`) plus the usual ones of engine matches: `Opening`, `TimeControl` (the PGN form,
//! `SECONDS+INCREMENT` or `MOVES/SECONDS`, Red's then Black's when they differ), `Termination`
//! (the PGN standard's word) and `PlyCount`. The movetext is in ICCS by default, or WXF or
//! Chinese; opening moves carry `{book}`, engine moves `{SCORE/DEPTH TIME}` from the engine's
//! side, and the last comment says how the game ended.

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use chariot_games::write::{PgnGame, WrittenMove, pgn_date, write_game};
use chariot_rules::Position;
use chariot_rules::notation::Notation;

use crate::game::{GameResult, PlayedGame};

/// Opens a PGN file to append games to, creating it if it is not there.
///
/// # Errors
///
/// When the file can be neither opened nor created.
pub fn open_for_append(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

/// What goes into a PGN header besides the game itself.
#[derive(Clone, Debug)]
pub struct PgnContext<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Site`.
    pub site: &'a str,
    /// `Round`.
    pub round: &'a str,
    /// The movetext notation.
    pub notation: Notation,
}

/// The game as PGN text, ending with a blank line (written by `chariot_games::write`).
#[must_use]
pub fn write(game: &PlayedGame, ctx: &PgnContext<'_>) -> String {
    let start = Position::from_fen(&game.start_fen).unwrap_or_else(|_| Position::start());
    let tc = if game.red_tc == game.black_tc {
        game.red_tc.pgn()
    } else {
        format!("{}:{}", game.red_tc.pgn(), game.black_tc.pgn())
    };
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), ctx.event.into()),
        ("Site".into(), ctx.site.into()),
        ("Date".into(), pgn_date(game.started)),
        ("Round".into(), ctx.round.into()),
        ("Red".into(), game.red.clone()),
        ("Black".into(), game.black.clone()),
    ];
    if let Some(name) = &game.opening_name {
        tags.push(("Opening".into(), name.clone()));
    }
    tags.push(("TimeControl".into(), tc));
    tags.push(("Termination".into(), game.ending.pgn_termination().into()));
    tags.push(("PlyCount".into(), game.moves.len().to_string()));
    let moves = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, played)| {
            let comment = if i < game.opening_plies {
                (i + 1 == game.opening_plies).then(|| "book".to_owned())
            } else if played.book {
                // The engine's own book: no score, depth or time to tell.
                Some("book".to_owned())
            } else {
                played.elapsed.map(|elapsed| {
                    let mut c = String::new();
                    if let Some(s) = played.score {
                        let _ = write!(c, "{s}");
                        if let Some(d) = played.depth {
                            let _ = write!(c, "/{d}");
                        }
                        c.push(' ');
                    }
                    let _ = write!(c, "{:.3}s", elapsed.as_secs_f64());
                    c
                })
            };
            WrittenMove {
                mv: played.mv,
                comment,
            }
        })
        .collect();
    let result = Some(game.ending.outcome).filter(|r| *r != GameResult::Unfinished);
    let pgn = PgnGame {
        tags,
        start,
        moves,
        result,
        final_comment: Some(game.ending.to_string().replace(['{', '}'], "")),
    };
    write_game(&pgn, ctx.notation)
}
