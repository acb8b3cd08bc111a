//! The command line: `chess-board game` plays one game, `chess-board swiss` a tournament.
//!
//! Exit codes: 0 when the game or tournament was played (whatever its result), 1 when it could
//! not be (an unreadable `--fen`, a PGN file that cannot be written), 2 for a mistake on the
//! command line (clap's code).

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::{Args, Parser, Subcommand};

use crate::game::{self, GameConfig, GameRecord};
use crate::pgn::{self, Tags};
use crate::swiss::{self, Swiss};
use crate::words::{Encoding, Protocol, Words};

/// The Board of the 2018 AI chess contest: referees agents that play over standard input and
/// output in the contest's modified SAN.
#[derive(Debug, Parser)]
#[command(name = "chess-board", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one game between two agent commands.
    Game(GameArgs),
    /// Play a Swiss tournament of agents.
    Swiss(SwissArgs),
}

/// Options for every game.
#[derive(Debug, Args)]
pub struct Common {
    /// Each side's time for the whole game, in seconds (fractions allowed).
    #[arg(long, default_value_t = 600.0)]
    pub time: f64,
    /// Start from this position instead of the standard one (tests and exhibitions).
    #[arg(long)]
    pub fen: Option<String>,
    /// Rejected tries in a row that lose the game.
    #[arg(long, default_value_t = 3)]
    pub max_illegal: u32,
    /// The colour and retry words: `chinese` (先手/后手/重走) or `english` (white/black/redo).
    #[arg(long, value_enum, default_value_t = Words::Chinese)]
    pub words: Words,
    /// The encoding of the Chinese words.
    #[arg(long, value_enum, default_value_t = Encoding::Utf8)]
    pub encoding: Encoding,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "AI chess contest")]
    pub event: String,
    /// The PGN `Site` tag.
    #[arg(long, default_value = "?")]
    pub site: String,
    /// Copy the agents' standard error to the Board's, labelled `[white]` / `[black]`.
    #[arg(long)]
    pub agent_stderr: bool,
    /// Print every line to and from the agents on standard error.
    #[arg(short, long)]
    pub verbose: bool,
}

/// `chess-board game`.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The White agent's command (split like a shell would, run without one).
    #[arg(long)]
    pub white: String,
    /// The Black agent's command.
    #[arg(long)]
    pub black: String,
    /// White's name in the PGN (default: the command).
    #[arg(long)]
    pub white_name: Option<String>,
    /// Black's name in the PGN (default: the command).
    #[arg(long)]
    pub black_name: Option<String>,
    /// Append the game to this PGN file (default: write it to standard output).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Options for every game.
    #[command(flatten)]
    pub common: Common,
}

/// `chess-board swiss`.
#[derive(Debug, Args)]
pub struct SwissArgs {
    /// An agent as `NAME=COMMAND` (at least two).
    #[arg(long = "agent", value_name = "NAME=COMMAND", required = true)]
    pub agents: Vec<String>,
    /// Rounds (default: ceil(log2(agents)), at least 1).
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Seed for the first round's random pairing and colours (default: the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Append every game to this PGN file.
    #[arg(long)]
    pub pgnout: Option<PathBuf>,
    /// Options for every game.
    #[command(flatten)]
    pub common: Common,
}

impl Common {
    fn config(&self, white: &str, black: &str) -> Result<GameConfig> {
        if !(self.time.is_finite() && self.time > 0.0) {
            bail!(
                "--time must be a positive number of seconds, not {}",
                self.time
            );
        }
        if self.max_illegal == 0 {
            bail!("--max-illegal must be at least 1");
        }
        Ok(GameConfig {
            time: Duration::from_secs_f64(self.time),
            fen: self.fen.clone(),
            max_illegal: self.max_illegal,
            protocol: Protocol {
                words: self.words,
                encoding: self.encoding,
            },
            echo_stderr: self.agent_stderr,
            verbose: self.verbose,
            ..GameConfig::new(white, black)
        })
    }

    fn tags(&self, round: String, white: &str, black: &str) -> Tags {
        Tags {
            event: self.event.clone(),
            site: self.site.clone(),
            date: pgn::today(),
            round,
            white: white.to_owned(),
            black: black.to_owned(),
            seconds: self.time,
        }
    }
}

/// Runs the command line; returns the exit code.
///
/// # Errors
///
/// When the game or tournament cannot be played or its PGN not written.
pub fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Game(args) => game_command(&args),
        Command::Swiss(args) => swiss_command(&args),
    }
}

fn append(path: &Path, text: &str) -> Result<()> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `1-0 White mates (23 moves; White 1.2 s, Black 3.4 s)`.
fn summary(record: &GameRecord) -> String {
    format!(
        "{} {} ({} {}; White used {:.1} s, Black {:.1} s)",
        record.ending.result(),
        record.ending.detail,
        record.moves.len(),
        if record.moves.len() == 1 {
            "ply"
        } else {
            "plies"
        },
        record.used[0],
        record.used[1]
    )
}

fn game_command(args: &GameArgs) -> Result<i32> {
    let config = args.common.config(&args.white, &args.black)?;
    let record = game::play(&config).map_err(anyhow::Error::msg)?;
    let white = args.white_name.as_deref().unwrap_or(&args.white);
    let black = args.black_name.as_deref().unwrap_or(&args.black);
    let text = pgn::write(&record, &args.common.tags("-".to_owned(), white, black));
    match &args.pgn {
        Some(path) => {
            append(path, &text)?;
            println!("{}", summary(&record));
        }
        None => print!("{text}"),
    }
    Ok(0)
}

fn swiss_command(args: &SwissArgs) -> Result<i32> {
    let mut names = Vec::new();
    let mut commands = Vec::new();
    for spec in &args.agents {
        let Some((name, command)) = spec.split_once('=') else {
            bail!("--agent {spec:?}: expected NAME=COMMAND");
        };
        let name = name.trim();
        if name.is_empty() || command.trim().is_empty() {
            bail!("--agent {spec:?}: expected NAME=COMMAND");
        }
        if names.iter().any(|n| n == name) {
            bail!("--agent {spec:?}: the name {name:?} is used twice");
        }
        crate::agent::split_command(command)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("--agent {spec:?}"))?;
        names.push(name.to_owned());
        commands.push(command.to_owned());
    }
    if names.len() < 2 {
        bail!("a Swiss tournament needs at least two agents");
    }
    // Check the options (and a --fen) once before the first game.
    args.common.config(&commands[0], &commands[1])?;
    if let Some(fen) = &args.common.fen {
        chess_agent::game::Game::from_fen(fen).map_err(anyhow::Error::msg)?;
    }
    let rounds = args
        .rounds
        .unwrap_or_else(|| usize::BITS - (names.len() - 1).leading_zeros())
        .max(1);
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    println!(
        "Swiss tournament: {} agents, {rounds} rounds, {} s each per game, seed {seed}",
        names.len(),
        args.common.time
    );
    let mut swiss = Swiss::new(names.len(), seed);
    for _ in 0..rounds {
        let round = swiss.pair_next();
        println!("\nRound {}", round.number);
        if let Some(p) = round.bye {
            println!("  {} has a bye (2 points)", names[p]);
        }
        for (g, &(w, b)) in round.games.iter().enumerate() {
            let config = args.common.config(&commands[w], &commands[b])?;
            let record = game::play(&config).map_err(anyhow::Error::msg)?;
            swiss.record(w, b, record.ending.winner);
            println!("  {} - {}: {}", names[w], names[b], summary(&record));
            if let Some(path) = &args.pgnout {
                let tags =
                    args.common
                        .tags(format!("{}.{}", round.number, g + 1), &names[w], &names[b]);
                append(path, &pgn::write(&record, &tags))?;
            }
        }
        print!("\n{}", swiss::table(&names, &swiss));
    }
    println!("\nFinal standings (points: win 2, draw 1, bye 2; Opp = opponents' points)");
    print!("{}", swiss::table(&names, &swiss));
    Ok(0)
}
