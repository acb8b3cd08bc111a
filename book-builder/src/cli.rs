//! Command-line interface of the `book-builder` binary.

use std::path::PathBuf;
use std::process::ExitCode;

use chariot_cli::Exit;

use clap::{Parser, Subcommand};

/// Chariot's book builder: reads Xiangqi game collections (PGN, DhtmlXQ, XQF; plain or zstd;
/// UTF-8, GBK or Big5), imports them into a game database and compiles opening books.
#[derive(Parser, Debug)]
#[command(name = "book-builder", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Read game files and report what is in them: format, encoding, games, results, problems.
    ///
    /// Directories are searched recursively for *.pgn, *.xqf, *.ubb, *.htm(l) and *.zst files;
    /// files named explicitly are read whatever their name. Format and encoding are detected from
    /// the content. Problems are listed as FILE:GAME:LINE: severity: reason.
    #[command(visible_alias = "scan")]
    Read {
        /// Files or directories to read.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print each game as one JSON object per line on stdout (the report goes to stderr).
        #[arg(long)]
        json: bool,
        /// List at most this many problems per file (all are counted).
        #[arg(long, default_value_t = 20, value_name = "N")]
        max_problems: usize,
    },
    /// Import game files into a game database, checking every move against the rules.
    ///
    /// A game with an unreadable or illegal move is not imported; the report names the file,
    /// game, ply and reason. A game already in the database (same start position and moves) is
    /// a duplicate and changes nothing, so an interrupted import can simply be run again.
    /// Schema: docs/formats/game-db.md.
    Import {
        /// Files or directories to import (directories are searched as for `read`).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The database (created when missing).
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        /// Games per transaction.
        #[arg(long, default_value_t = book_builder::import::DEFAULT_BATCH, value_name = "N")]
        batch: usize,
        /// List at most this many rejected games per file (all are counted and stored).
        #[arg(long, default_value_t = 20, value_name = "N")]
        max_problems: usize,
    },
    /// Count the games of a database that the filters select, and list the imports.
    Summary {
        /// The database.
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        #[command(flatten)]
        filters: crate::commands::FilterArgs,
        /// One JSON object: the selection's counts, the files imported, the totals.
        #[arg(long)]
        json: bool,
    },
    /// Write the games of a database as Xiangqi PGN, in any notation, UTF-8 or GBK.
    ///
    /// The filters select the games as for `summary` and `compile`. Each game keeps its event,
    /// date, players, ratings, result and other tags as imported; the moves are written in the
    /// chosen notation. Written through a temporary file renamed into place, or to standard
    /// output without -o. A game with a character GBK cannot hold is left out and named (exit 3).
    Export {
        /// The database.
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        /// The PGN file to write [default: standard output].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The movetext notation.
        #[arg(long, value_enum, default_value_t = NotationArg::Iccs)]
        notation: NotationArg,
        /// The character set: utf-8 or gbk (for older Chinese programs).
        #[arg(long, default_value = "utf-8", value_name = "CHARSET")]
        encoding: chariot_games::write::Charset,
        #[command(flatten)]
        filters: crate::commands::FilterArgs,
    },
    /// Compile the games of a database into a book (.xqb, docs/formats/book.md).
    Compile {
        /// The database.
        #[arg(long, value_name = "FILE")]
        db: PathBuf,
        /// The book to write (through a temporary file renamed into place).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Count moves of the first N plies only.
        #[arg(long, default_value_t = 40, value_name = "N")]
        max_ply: u32,
        /// Keep moves played in at least N games.
        #[arg(long, default_value_t = 1, value_name = "N")]
        min_games: u32,
        /// Keep moves scoring at least S (0 to 1) for the side that plays them.
        #[arg(long, default_value_t = 0.0, value_name = "S")]
        min_score: f64,
        /// Keep a position and its left-right mirror apart.
        #[arg(long)]
        no_mirror: bool,
        #[command(flatten)]
        filters: crate::commands::FilterArgs,
    },
    /// Show the book moves of a position: notations, games, win/draw/loss, weight, probability;
    /// for a line given by --moves, its opening (ECCO code and name).
    Probe {
        /// The book [default: the built-in book, data/book.xqb].
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        #[command(flatten)]
        at: crate::commands::PositionArgs,
        /// Also name the opening: the ECCO codes and opening names of the games in this
        /// database that reach the position (or its mirror) within their first 60 plies.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
        /// One JSON object per move and line instead of the board and table (with --db, a
        /// last line {"openings": ...}).
        #[arg(long)]
        json: bool,
    },
    /// Show the main lines of a book as a tree.
    Tree {
        /// The book [default: the built-in book, data/book.xqb].
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// Plies to show.
        #[arg(long, default_value_t = 4, value_name = "N")]
        depth: u32,
        /// At most K moves per position (the most played).
        #[arg(long, default_value_t = 3, value_name = "K")]
        top: usize,
        /// Leave out moves played in less than this share (0 to 1) of a position's games.
        #[arg(long, default_value_t = 0.0, value_name = "P")]
        min_share: f64,
        #[command(flatten)]
        at: crate::commands::PositionArgs,
        /// The tree as JSON: nested moves with their statistics.
        #[arg(long)]
        json: bool,
    },
    /// Show what a book holds and verify it: entries, positions, plies, size, build parameters.
    Stats {
        /// The book [default: the built-in book, data/book.xqb].
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
        /// One JSON object with the same facts.
        #[arg(long)]
        json: bool,
    },
    /// Convert ElephantEye's BOOK.DAT into a book (weights only: the file has no statistics).
    ImportDat {
        /// The BOOK.DAT file.
        dat: PathBuf,
        /// The book to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Walk at most N plies from the start position.
        #[arg(long, default_value_t = 40, value_name = "N")]
        max_ply: u32,
        /// Cross up to N positions the file does not know (0 or 1; 1 finds about twice as many
        /// positions of ElephantEye's own book, at about forty times the time).
        #[arg(long, default_value_t = 0, value_name = "N")]
        bridge: u32,
        /// Keep a position and its left-right mirror apart.
        #[arg(long)]
        no_mirror: bool,
    },
    /// Convert a book into ElephantEye's BOOK.DAT.
    ExportDat {
        /// The book.
        #[arg(long, value_name = "FILE")]
        book: PathBuf,
        /// The BOOK.DAT to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Walk at most N plies from the start position.
        #[arg(long, default_value_t = 40, value_name = "N")]
        max_ply: u32,
    },
    /// Rebuild the engine's built-in book, data/book.xqb, from the collections in data/games/.
    BuildDefault {
        /// The data directory.
        #[arg(long, default_value = "data", value_name = "DIR")]
        data: PathBuf,
        /// Keep the game database here (by default a temporary one is removed afterwards).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
    },
    /// Take quiet positions with their games' results, for tuning the evaluation (`chariot
    /// tune`).
    ///
    /// From every game with a result, after the first --skip-plies plies, up to --per-game
    /// positions are taken in a pseudo-random order seeded by the game's moves: positions not in
    /// check where no capture sequence beats the static evaluation, each position once. Games
    /// come from files (the same game in two files counts once) or from a game database.
    /// Writes one `FEN;result` line per position, the result from Red's view (1, 0.5, 0);
    /// format: docs/formats/positions.md.
    Positions {
        /// Game files or directories (searched as for `read`).
        #[arg(required_unless_present = "db", conflicts_with = "db")]
        paths: Vec<PathBuf>,
        /// Take the games from this database instead (selected by the filters).
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
        /// The positions file to write (through a temporary file renamed into place).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Never take a position from the first N plies of a game.
        #[arg(long, default_value_t = 16, value_name = "N")]
        skip_plies: usize,
        /// Take at most N positions per game.
        #[arg(long, default_value_t = 40, value_name = "N")]
        per_game: usize,
        /// Seed of the choice within a game (the same seed gives the same file).
        #[arg(long, default_value_t = 0, value_name = "S")]
        seed: u64,
        /// Write the positions of one game in --held-out-every (chosen by the game's moves)
        /// to this file instead, for measuring the tuner on games it has not seen.
        #[arg(long, value_name = "FILE")]
        held_out: Option<PathBuf>,
        /// With --held-out: hold out one game in N.
        #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        held_out_every: u64,
        /// Game filters; with game files only --setups applies.
        #[command(flatten)]
        filters: crate::commands::FilterArgs,
    },
    /// Derive the ECCO codes of lines from games that carry them into an ECCO file.
    ///
    /// Every line of up to --max-plies plies from the usual start (left-right mirrors merged)
    /// is classified with the code that more than half of its games (at least --min-games)
    /// carry in their ECCO tag; a line takes the code of its longest classified prefix. Only
    /// the lines whose code differs from their prefix's are written (format:
    /// docs/formats/ecco.md). Without --db, the master collection in DIR/games is imported into
    /// a temporary database and the file is DIR/openings.ecco, the one Chariot ships: the same
    /// collection gives the same bytes.
    Ecco {
        /// Take the games from this database instead.
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
        /// The data directory.
        #[arg(long, default_value = "data", value_name = "DIR")]
        data: PathBuf,
        /// The file to write (through a temporary file renamed into place) [default:
        /// DIR/openings.ecco].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Count lines of up to N plies.
        #[arg(long, default_value_t = 16, value_name = "N")]
        max_plies: u32,
        /// Classify a line only with at least N games.
        #[arg(long, default_value_t = 1, value_name = "N")]
        min_games: u32,
        /// Also measure: each game classified by the file derived from the other games (N
        /// folds), and the opening names' families against the games' codes.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..))]
        check: Option<u32>,
    },
    /// Time book probes against move generation on the same positions.
    Bench {
        /// The book.
        #[arg(long, value_name = "FILE")]
        book: PathBuf,
        /// Probe up to N positions of the book (nearest to the start first).
        #[arg(long, default_value_t = 10_000, value_name = "N")]
        positions: usize,
        /// Rounds over all positions.
        #[arg(long, default_value_t = 20, value_name = "R")]
        rounds: usize,
    },
}

/// A movetext notation on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum NotationArg {
    /// ICCS coordinates (h2e2).
    Iccs,
    /// WXF (C2.5).
    Wxf,
    /// Chinese (炮二平五).
    Chinese,
}

impl From<NotationArg> for chariot_rules::notation::Notation {
    fn from(n: NotationArg) -> Self {
        match n {
            NotationArg::Iccs => chariot_rules::notation::Notation::Iccs,
            NotationArg::Wxf => chariot_rules::notation::Notation::Wxf,
            NotationArg::Chinese => chariot_rules::notation::Notation::Chinese,
        }
    }
}

/// Runs the command line and returns the process exit code (the table is in `chariot_cli`).
pub fn run() -> ExitCode {
    match chariot_cli::parse::<Cli>() {
        Ok(cli) => chariot_cli::run("book-builder", || execute(cli)),
        Err(code) => code,
    }
}

fn execute(cli: Cli) -> anyhow::Result<Exit> {
    match cli.command {
        Command::Read {
            paths,
            json,
            max_problems,
        } => crate::scan::read(&paths, json, max_problems),
        Command::Import {
            paths,
            db,
            batch,
            max_problems,
        } => crate::commands::database::import(
            &crate::scan::collect_files(&paths)?,
            &db,
            batch,
            max_problems,
        ),
        Command::Export {
            db,
            output,
            notation,
            encoding,
            filters,
        } => crate::commands::database::export(&crate::commands::database::ExportArgs {
            db: &db,
            output: output.as_deref(),
            notation: notation.into(),
            charset: encoding,
            filters: &filters,
        }),
        Command::Summary { db, filters, json } => {
            crate::commands::database::summary(&db, &filters, json)
        }
        Command::Compile {
            db,
            output,
            max_ply,
            min_games,
            min_score,
            no_mirror,
            filters,
        } => crate::commands::book::compile_book(&crate::commands::book::CompileArgs {
            db: &db,
            out: &output,
            max_ply,
            min_games,
            min_score,
            no_mirror,
            filters: &filters,
        }),
        Command::Probe { book, at, db, json } => {
            crate::commands::book::probe(book.as_deref(), &at, db.as_deref(), json)
        }
        Command::Tree {
            book,
            depth,
            top,
            min_share,
            at,
            json,
        } => crate::commands::book::show_tree(
            book.as_deref(),
            &at,
            book_builder::inspect::TreeOptions {
                depth,
                top,
                min_share,
            },
            json,
        ),
        Command::Stats { book, json } => crate::commands::book::show_stats(book.as_deref(), json),
        Command::ImportDat {
            dat,
            output,
            max_ply,
            bridge,
            no_mirror,
        } => crate::commands::dat::import_dat(&dat, &output, max_ply, bridge, no_mirror),
        Command::ExportDat {
            book,
            output,
            max_ply,
        } => crate::commands::dat::export_dat(&book, &output, max_ply),
        Command::BuildDefault { data, db } => {
            crate::commands::book::build_default(&data, db.as_deref())
        }
        Command::Ecco {
            db,
            data,
            output,
            max_plies,
            min_games,
            check,
        } => crate::commands::ecco::ecco(&crate::commands::ecco::EccoArgs {
            db: db.as_deref(),
            data: &data,
            output: output.as_deref(),
            options: book_builder::ecco::DeriveOptions {
                max_plies,
                min_games,
            },
            check,
        }),
        Command::Bench {
            book,
            positions,
            rounds,
        } => crate::commands::book::bench(&book, positions, rounds),
        Command::Positions {
            paths,
            db,
            output,
            skip_plies,
            per_game,
            seed,
            held_out,
            held_out_every,
            filters,
        } => {
            let source = match db {
                Some(db) => crate::commands::positions::GameSource::Db(db),
                None => crate::commands::positions::GameSource::Files(crate::scan::collect_files(
                    &paths,
                )?),
            };
            let options = book_builder::positions::ExtractOptions {
                skip_plies,
                per_game,
                seed,
                held_out_every: if held_out.is_some() {
                    held_out_every
                } else {
                    0
                },
            };
            crate::commands::positions::positions(
                &source,
                &filters,
                &output,
                held_out.as_deref(),
                options,
            )
        }
    }
}
