//! `chess-book`: builds a Polyglot opening book for `chess-agent` from games (PGN) and opening
//! lines, the way Polyglot's `make-book` does, and shows what a book holds.
//!
//! Stages (lesson 8): import (PGN through `pgn-reader`, lines files by hand; every move checked
//! by shakmaty) -> statistics (per position and move: games and score) -> compile
//! ([`book::compile`]: drop, scale, sort) -> write ([`book::write`], temporary file and rename).
//!
//! Scoring, as `make-book`: for each position in a game's first `--max-ply` plies, the move
//! played scores 2 for a win of the side that played it, 1 for a draw (or an unknown result,
//! `*`), 0 for a loss. A line from a lines file is a draw: 1 for each of its moves. A move seen
//! in fewer than `--min-games` games is dropped, and so is a move whose score is 0, one that
//! only lost. A game counts once per position and move, even if it repeats them.
//!
//! Exit codes: 0 when the book was written (also when some games or lines were skipped, each
//! reported on stderr) or shown, 1 when it could not be (an input file or book that cannot be
//! read or parsed, an output that cannot be written, no entries at all, a bad `--fen` or move
//! for `show`), 2 for a mistake on the command line (clap's code).

use std::collections::{HashMap, HashSet};
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};
use chess_agent::book::{self, Book};
use chess_agent::packed_move;
use clap::{Args, Parser, Subcommand};
use pgn_reader::{KnownOutcome, Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Position};

const EXIT_CODES: &str = "\
Exit codes: 0 done (build: the book was written; skipped games and lines are reported on
stderr); 1 it could not be done (an input file or book that cannot be read, an output that
cannot be written, no entries, a bad --fen or move for show); 2 a mistake on the command line.";

/// Builds Polyglot opening books (.bin) for chess-agent from PGN games and opening lines, scored
/// as Polyglot's make-book does, and shows a position's book moves.
#[derive(Debug, Parser)]
#[command(name = "chess-book", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build a book from PGN files and lines files.
    ///
    /// For each position in the first --max-ply plies of each game, the move played scores 2
    /// for a win of the side that played it, 1 for a draw or unknown result, 0 for a loss; each
    /// move of a line counts as one draw. Moves seen in fewer than --min-games games, and moves
    /// that scored 0 (only lost), are left out. A game with an illegal or unreadable move is
    /// reported on stderr (file, game number, ply) and skipped.
    #[command(after_help = EXIT_CODES)]
    Build(BuildArgs),
    /// Print the book moves of a position (the start position, or --fen, after MOVES in SAN).
    #[command(after_help = EXIT_CODES)]
    Show(ShowArgs),
}

#[derive(Debug, Args)]
struct BuildArgs {
    /// The book to write (through a temporary file in the same directory, then renamed).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Use the positions of each game's first N plies.
    #[arg(long, default_value_t = 16, value_name = "N")]
    max_ply: u32,
    /// Leave out moves seen in fewer than N games (a line counts as a game).
    #[arg(long, default_value_t = 1, value_name = "N")]
    min_games: u32,
    /// A lines file: one opening a line, SAN moves from the start position separated by
    /// spaces (move numbers allowed), `#` to the end of a line is a comment
    /// (the format of chess-board/data/openings.txt). May be given more than once.
    #[arg(long = "lines", value_name = "FILE")]
    lines: Vec<PathBuf>,
    /// PGN files of games (variations are ignored; a `[FEN]` tag sets the start).
    #[arg(value_name = "PGN", required_unless_present = "lines")]
    pgn: Vec<PathBuf>,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// The book.
    #[arg(value_name = "BOOK")]
    book: PathBuf,
    /// Start from this FEN instead of the standard position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves in SAN to play first.
    #[arg(value_name = "MOVES")]
    moves: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(args) => build(&args),
        Command::Show(args) => show(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("chess-book: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// What one position and move gathered.
#[derive(Debug, Default, Clone, Copy)]
struct Stat {
    games: u32,
    score: u64,
}

/// The statistics: per (Polyglot key, packed move).
#[derive(Debug, Default)]
struct Stats {
    moves: HashMap<(u64, u16), Stat>,
    max_ply: u32,
}

impl Stats {
    /// Adds one game's opening: `plies` from `start`, each move of the side to move scored by
    /// `points(mover)`. Stops at --max-ply.
    fn add(&mut self, start: &Chess, plies: &[shakmaty::Move], points: impl Fn(Color) -> u64) {
        let mut pos = start.clone();
        let mut seen = HashSet::new();
        for &m in plies.iter().take(self.max_ply as usize) {
            let key = (book::key(&pos), packed_move::pack(m));
            if seen.insert(key) {
                let stat = self.moves.entry(key).or_default();
                stat.games += 1;
                stat.score += points(pos.turn());
            }
            pos.play_unchecked(m);
        }
    }
}

#[derive(Debug, Default)]
struct Counts {
    games: usize,
    games_skipped: usize,
    lines: usize,
    lines_skipped: usize,
}

fn build(args: &BuildArgs) -> Result<()> {
    let mut stats = Stats {
        max_ply: args.max_ply,
        ..Stats::default()
    };
    let mut counts = Counts::default();
    for path in &args.lines {
        read_lines(path, &mut stats, &mut counts)?;
    }
    for path in &args.pgn {
        read_pgn(path, &mut stats, &mut counts)?;
    }
    let min_games = args.min_games;
    let entries = book::compile(
        stats
            .moves
            .iter()
            .filter(|(_, s)| s.games >= min_games)
            .map(|(&(key, packed), s)| (key, packed, s.score)),
    );
    let positions = entries.iter().map(|e| e.key).collect::<HashSet<_>>().len();
    println!(
        "games read: {} ({} skipped) from {} PGN file(s); lines read: {} ({} skipped) from {} lines file(s)",
        counts.games,
        counts.games_skipped,
        args.pgn.len(),
        counts.lines,
        counts.lines_skipped,
        args.lines.len(),
    );
    if entries.is_empty() {
        bail!(
            "no entries (every move was seen in fewer than {min_games} games or only lost): {} not written",
            args.out.display()
        );
    }
    book::write(&args.out, &entries)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "positions: {positions}; entries: {} ({} bytes) written to {}",
        entries.len(),
        entries.len() * book::ENTRY_SIZE,
        args.out.display()
    );
    Ok(())
}

/// Reads a lines file; an illegal or unreadable move skips its line with a report.
fn read_lines(path: &Path, stats: &mut Stats, counts: &mut Counts) -> Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read lines file {}", path.display()))?;
    let start = Chess::default();
    'lines: for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let report = |what: String| {
            eprintln!(
                "chess-book: {}: line {}: {what}; line skipped",
                path.display(),
                i + 1
            );
        };
        if line.contains('/') {
            report("a FEN position, not moves from the start".into());
            counts.lines_skipped += 1;
            continue;
        }
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for token in line.split_whitespace() {
            // `1.`, `12...`, `1.e4` (a number glued to its move), as chess-board reads them.
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if token.is_empty() {
                continue;
            }
            let ply = moves.len() + 1;
            let m = match token.parse::<SanPlus>() {
                Err(e) => {
                    report(format!("ply {ply}: unreadable move {token:?}: {e}"));
                    counts.lines_skipped += 1;
                    continue 'lines;
                }
                Ok(san) => match san.san.to_move(&pos) {
                    Ok(m) => m,
                    Err(e) => {
                        report(format!("ply {ply}: illegal move {token:?}: {e}"));
                        counts.lines_skipped += 1;
                        continue 'lines;
                    }
                },
            };
            pos.play_unchecked(m);
            moves.push(m);
        }
        stats.add(&start, &moves, |_| 1);
        counts.lines += 1;
    }
    Ok(())
}

/// Reads a PGN file game by game; a game with a bad move is reported and skipped.
fn read_pgn(path: &Path, stats: &mut Stats, counts: &mut Counts) -> Result<()> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read PGN file {}", path.display()))?;
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut visitor = GameVisitor;
    let mut number = 0usize;
    loop {
        let game = reader.read_game(&mut visitor).with_context(|| {
            format!(
                "cannot read PGN file {} after game {number}",
                path.display()
            )
        })?;
        let Some(game) = game else { break };
        number += 1;
        match game {
            Ok(game) => {
                let result = game.result;
                stats.add(&game.start, &game.moves, |mover| match result {
                    Some(winner) if winner == mover => 2,
                    Some(_) => 0,
                    None => 1,
                });
                counts.games += 1;
            }
            Err(GameError { ply, reason }) => {
                eprintln!(
                    "chess-book: {}: game {number}, ply {ply}: {reason}; game skipped",
                    path.display()
                );
                counts.games_skipped += 1;
            }
        }
    }
    Ok(())
}

/// A game read and checked: its start, its main line, and the winner (`None`: draw or unknown).
struct Game {
    start: Chess,
    moves: Vec<shakmaty::Move>,
    result: Option<Color>,
}

/// Why a game was skipped; `ply` is the 1-based ply of the bad move (0 for its tags).
struct GameError {
    ply: usize,
    reason: String,
}

/// The tags the builder needs.
#[derive(Default)]
struct Tags {
    fen: Option<String>,
    result: Option<Outcome>,
}

/// A game being read.
struct Movetext {
    pos: Chess,
    start: Chess,
    moves: Vec<shakmaty::Move>,
    result: Option<Outcome>,
    error: Option<GameError>,
}

/// Reads every game's main line fully, so a bad move anywhere in a game skips the whole game (a
/// record with an illegal move is not one to learn from).
struct GameVisitor;

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<Game, GameError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name.eq_ignore_ascii_case(b"FEN") {
            tags.fen = Some(value.decode_utf8_lossy().into_owned());
        } else if name.eq_ignore_ascii_case(b"Result") {
            tags.result = Outcome::from_ascii(&value.decode()).ok();
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        let start = match tags.fen.as_deref() {
            None => Chess::default(),
            Some(text) => match text
                .parse::<Fen>()
                .map_err(|e| e.to_string())
                .and_then(|fen| {
                    fen.into_position(CastlingMode::Standard)
                        .map_err(|e| e.to_string())
                }) {
                Ok(pos) => pos,
                Err(e) => {
                    return ControlFlow::Break(Err(GameError {
                        ply: 0,
                        reason: format!("bad FEN tag {text:?}: {e}"),
                    }));
                }
            },
        };
        ControlFlow::Continue(Movetext {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            result: tags.result,
            error: None,
        })
    }

    fn san(&mut self, game: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if game.error.is_some() {
            return ControlFlow::Continue(());
        }
        let ply = game.moves.len() + 1;
        match san_plus.san.to_move(&game.pos) {
            Ok(m) => {
                game.pos.play_unchecked(m);
                game.moves.push(m);
            }
            Err(e) => {
                let what = if matches!(san_plus.san, San::Null) {
                    "unreadable (null) move"
                } else {
                    "illegal move"
                };
                game.error = Some(GameError {
                    ply,
                    reason: format!("{what} {san_plus}: {e}"),
                });
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _game: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, game: &mut Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        // The Result tag decides; the movetext's termination marker stands in when it is missing.
        if game.result.is_none_or(|r| r == Outcome::Unknown) {
            game.result = Some(outcome);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Movetext) -> Self::Output {
        if let Some(e) = game.error {
            return Err(e);
        }
        let result = match game.result {
            Some(Outcome::Known(KnownOutcome::Decisive { winner })) => Some(winner),
            _ => None,
        };
        Ok(Game {
            start: game.start,
            moves: game.moves,
            result,
        })
    }
}

fn show(args: &ShowArgs) -> Result<()> {
    let book = Book::open(&args.book)?;
    let mut pos = match &args.fen {
        None => Chess::default(),
        Some(text) => text
            .parse::<Fen>()
            .context("--fen")?
            .into_position(CastlingMode::Standard)
            .context("--fen")?,
    };
    for text in &args.moves {
        let m = text
            .parse::<SanPlus>()
            .with_context(|| format!("unreadable move {text:?}"))?
            .san
            .to_move(&pos)
            .with_context(|| format!("illegal move {text:?}"))?;
        pos.play_unchecked(m);
    }
    let moves = book.moves(&pos);
    let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} entries; key {:016x}: {} book move(s)",
        book.len(),
        book::key(&pos),
        moves.len()
    )?;
    for (m, weight) in moves {
        writeln!(
            out,
            "{:<8} {:<6} weight {:>5} ({:.1}%)",
            San::from_move(&pos, m).to_string(),
            m.to_uci(CastlingMode::Standard).to_string(),
            weight,
            100.0 * f64::from(weight) / total.max(1) as f64
        )?;
    }
    Ok(())
}
