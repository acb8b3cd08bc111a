//! The subcommands of the `book-builder` binary, by topic: [`database`] (import, summary,
//! export), [`book`] (compile, build-default, probe, tree, stats, bench), [`dat`] (ElephantEye's
//! BOOK.DAT), [`positions`] (tuning positions) and [`ecco`] (the ECCO codes of lines). Each
//! parses its arguments with clap (in `cli.rs`) and calls the library; these files only turn
//! results into text. This file holds what they share: the filter and position arguments, the
//! spinner, atomic writes.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use chariot_formats::book::Book;
use chariot_gamedb::filter::{DateBound, Filter, ResultFilter};
use chariot_rules::Position;
use chariot_rules::notation::parse_move;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

pub mod book;
pub mod dat;
pub mod database;
pub mod ecco;
pub mod positions;

/// Which games a book is built from (shared by `compile` and `summary`).
#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// Only games on or after this date (YYYY, YYYY-MM or YYYY-MM-DD; undated games are left out).
    #[arg(long, value_name = "DATE")]
    pub from: Option<DateBound>,
    /// Only games on or before this date (`2005` includes all of 2005).
    #[arg(long, value_name = "DATE")]
    pub to: Option<DateBound>,
    /// Only games in which both players are rated at least this.
    #[arg(long, value_name = "ELO")]
    pub min_elo: Option<u32>,
    /// Only games whose event name contains TEXT (repeatable: any of them).
    #[arg(long, value_name = "TEXT")]
    pub event: Vec<String>,
    /// Only games with a player whose name contains TEXT (repeatable: any of them).
    #[arg(long, value_name = "TEXT")]
    pub player: Vec<String>,
    /// With --player: only games where that player has this colour (red or black).
    #[arg(long, value_name = "COLOR", value_parser = parse_color, requires = "player")]
    pub player_color: Option<chariot_rules::Color>,
    /// Only games with these results: 1-0, 0-1, 1/2-1/2 (or red, black, draw), unknown.
    #[arg(long, value_name = "RESULT", value_delimiter = ',')]
    pub result: Vec<ResultFilter>,
    /// Also count games from set-up positions (by default only games from the usual start).
    #[arg(long)]
    pub setups: bool,
}

impl FilterArgs {
    fn filter(&self) -> anyhow::Result<Filter> {
        let f = Filter {
            from: self.from.clone(),
            to: self.to.clone(),
            min_elo: self.min_elo,
            events: self.event.clone(),
            players: self.player.clone(),
            player_color: self.player_color,
            results: self.result.clone(),
            setups: self.setups,
        };
        f.validate()?;
        Ok(f)
    }
}

/// `red` or `black`.
fn parse_color(text: &str) -> Result<chariot_rules::Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "red" | "r" | "w" => Ok(chariot_rules::Color::Red),
        "black" | "b" => Ok(chariot_rules::Color::Black),
        _ => Err(format!("{text:?}: expected red or black")),
    }
}

/// A position given as a FEN or as moves from the start.
#[derive(Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// The position as a FEN.
    #[arg(long, conflicts_with = "moves")]
    pub fen: Option<String>,
    /// The position after these moves from the start (ICCS, WXF or Chinese).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// The position, and the moves that reached it when they were played from the usual start
    /// (`--moves` without `--fen`: an opening has a name only as a line from the start).
    fn line(&self) -> anyhow::Result<(Position, Option<Vec<chariot_rules::Move>>)> {
        let mut pos = match &self.fen {
            Some(fen) => Position::from_fen(fen).with_context(|| format!("FEN {fen:?}"))?,
            None => Position::start(),
        };
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let m = parse_move(&pos, text).with_context(|| format!("move {}", i + 1))?;
            pos.make_move(m);
            moves.push(m);
        }
        let from_start = self.fen.is_none() && !moves.is_empty();
        Ok((pos, from_start.then_some(moves)))
    }

    fn position(&self) -> anyhow::Result<Position> {
        self.line().map(|(pos, _)| pos)
    }
}

pub(super) fn spinner(template: &str) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The book to read: the given file, or the engine's built-in book.
pub(super) fn open_book(book: Option<&Path>) -> anyhow::Result<Book> {
    Ok(match book {
        Some(path) => Book::open(path)?,
        None => chariot_formats::book::builtin::book()?,
    })
}

/// Writes `bytes` to `path` through a temporary file renamed into place
/// ([`chariot_formats::atomic`]); errors name `path`.
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    chariot_formats::atomic::write(path, bytes)?;
    Ok(())
}
