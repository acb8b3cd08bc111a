//! The command line: `chess-board game` plays one game, `chess-board swiss` a tournament (both
//! under the contest's rules, with contest agents), `chess-board match` an engine match between
//! two UCI chess engines under FIDE's rules ([`crate::matches`]).
//!
//! `match` takes its engines as cutechess-cli and `chariot-league` do, a group of `KEY=VALUE`
//! words per `--engine` (`--engine cmd=stockfish name=sf option.Hash=16`), with `--each` for
//! settings shared by both; the words are checked here, before any engine is started.
//!
//! Exit codes: 0 when the game, tournament or match was played (whatever its result), 1 when it
//! could not be (an unreadable `--fen` or openings file, an engine that does not start or
//! answer `uci`, a PGN file that cannot be written), 2 for a mistake on the command line
//! (clap's code, and `match`'s own checks of the `KEY=VALUE` words).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use std::cell::RefCell;

use anyhow::{Context as _, Result, bail};
use chariot_matchkit::clock::TimeControl;
use chariot_matchkit::runner::{self, Event, RunError};
use chariot_matchkit::schedule::Schedule;
use chariot_matchkit::settings::{self, EngineSettings};
use chariot_matchkit::stats::{Sprt, SprtDecision};
use clap::{ArgAction, Args, Parser, Subcommand};

use crate::game::{self, Agents, GameConfig, GameRecord};
use crate::matches::{self, MatchSettings};
use crate::pgn::{self, Tags};
use crate::swiss::{self, Pairing, Swiss};
use crate::uci::EngineConfig;
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
    /// Play a match between two UCI chess engines (FIDE rules, clocks with increment, openings
    /// played with both colours, Elo and SPRT at the end).
    Match(MatchArgs),
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

/// The words of each `--engine` option, one group per occurrence. clap's derive collects
/// `Vec<Vec<String>>` only with its unstable-v5 feature, so this reads the occurrences itself
/// ([`clap::ArgMatches::get_occurrences`]).
#[derive(Clone, Debug, Default)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|o| o.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineGroups {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .required(true)
                .help(
                    "An engine (give two): cmd=PATH (required), name=NAME, dir=DIR, arg=ARG \
                     (repeatable), option.NAME=VALUE (a UCI option), timemargin=MS (grace after \
                     the flag, default 200), handshake=SECONDS (time for uciok/readyok, \
                     default 10)",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `chess-board match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The engines' `--engine` groups.
    #[command(flatten)]
    pub engines: EngineGroups,
    /// Settings for both engines, as for `--engine` (an engine's own settings win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,
    /// Time control: `BASE+INCREMENT` in seconds (`10+0.1`), `MOVES/BASE`, or `BASE`.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Games to play (each opening twice, colours swapped).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Games played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings: SAN lines from the start position, or FEN/EPD lines (default: the built-in
    /// list, `chess-board/data/openings.txt`).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Shuffle the openings with this seed (default: in file order).
    #[arg(long)]
    pub srand: Option<u64>,
    /// Append every game to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Stop when the SPRT decides: `elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "chess-board match")]
    pub event: String,
    /// The PGN `Site` tag.
    #[arg(long, default_value = "?")]
    pub site: String,
    /// Print every line to and from the engines on standard error.
    #[arg(long)]
    pub debug: bool,
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
        Command::Match(args) => match_command(&args),
    }
}

fn append(path: &Path, text: &str) -> Result<()> {
    let mut file = std::fs::OpenOptions::new()
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
    let config = args.common.config(&commands[0], &commands[1])?;
    let start = game::start_position(args.common.fen.as_deref()).map_err(anyhow::Error::msg)?;
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
    let swiss = RefCell::new(Swiss::new(names.len(), seed));
    // One game at a time: the agents' clocks should not compete for the CPU.
    let settings = runner::Settings {
        names: names.clone(),
        games: 1,
        rounds,
        openings: 1,
        concurrency: 1,
        ..runner::Settings::default()
    };
    let agents = Agents {
        commands,
        config,
        start,
    };
    let schedule = Schedule::Swiss(Box::new(Pairing(&swiss)));
    runner::run(&agents, schedule, &settings, |event, _| {
        match event {
            Event::RoundPaired { round, bye } => {
                println!("\nRound {round}");
                if let Some(p) = bye {
                    println!("  {} has a bye (2 points)", names[p]);
                }
            }
            Event::Game(finished) => {
                let (job, record) = (&finished.job, &finished.record);
                let (w, b) = (&names[job.first], &names[job.second]);
                println!("  {w} - {b}: {}", summary(record));
                if let Some(path) = &args.pgnout {
                    let tags = args
                        .common
                        .tags(format!("{}.{}", job.round, job.in_round), w, b);
                    append(path, &pgn::write(record, &tags))?;
                }
            }
            Event::RoundDone { .. } => print!("\n{}", swiss::table(&names, &swiss.borrow())),
        }
        Ok(())
    })
    .map_err(run_error)?;
    println!("\nFinal standings (points: win 2, draw 1, bye 2; Opp = opponents' points)");
    print!("{}", swiss::table(&names, &swiss.borrow()));
    Ok(0)
}

/// A run stopped by an error: the event handler's (a PGN file that cannot be written), or the
/// runner's own.
fn run_error(e: RunError<anyhow::Error>) -> anyhow::Error {
    match e {
        RunError::Observer(e) => e,
        other => anyhow::anyhow!("{other}"),
    }
}

/// A mistake in `match`'s words: said on standard error, exit code 2 like clap's own.
fn usage(e: &anyhow::Error) -> i32 {
    eprintln!("chess-board match: {e:#}\n(see chess-board match --help)");
    2
}

/// `KEY=VALUE` words of `--OPT`.
fn key_values(opt: &str, words: &[String]) -> Result<Vec<(String, String)>> {
    settings::key_values(words).map_err(|e| anyhow::anyhow!("--{opt}: {e}"))
}

/// An engine's configuration from `--each` and its own words (its own win; `arg=` words of
/// its own replace those of `--each`).
fn engine_config(
    index: usize,
    each: &[(String, String)],
    own: &[(String, String)],
    tc: TimeControl,
) -> Result<EngineConfig> {
    let ctx = format!("--engine #{}", index + 1);
    let common = EngineSettings::read(each, own, |k, _| {
        Err(format!(
            "unknown setting {k:?} (cmd, name, dir, arg, option.NAME, timemargin, handshake)"
        ))
    })
    .map_err(|e| anyhow::anyhow!("{ctx}: {e}"))?;
    let cmd = common
        .cmd
        .as_deref()
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| anyhow::anyhow!("{ctx}: cmd= is missing"))?;
    Ok(EngineConfig {
        launch: common.launch(cmd),
        name: common.name,
        options: common.options,
        tc,
        grace: common.grace,
        handshake: common.handshake,
    })
}

/// The match's settings from the command line, before anything is started or read.
struct MatchPlan {
    engines: [EngineConfig; 2],
    tc: TimeControl,
    sprt: Option<Sprt>,
}

fn match_plan(args: &MatchArgs) -> Result<MatchPlan> {
    if args.engines.0.len() != 2 {
        bail!(
            "a match needs exactly two --engine, got {}",
            args.engines.0.len()
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let tc: TimeControl = args.tc.parse().context("--tc")?;
    let each = key_values("each", &args.each)?;
    let mut engines = Vec::new();
    for (i, words) in args.engines.0.iter().enumerate() {
        let own = key_values("engine", words)?;
        engines.push(engine_config(i, &each, &own, tc)?);
    }
    let sprt = match &args.sprt {
        Some(words) => Some(
            Sprt::from_settings(&key_values("sprt", words)?)
                .map_err(|e| anyhow::anyhow!("--sprt: {e}"))?,
        ),
        None => None,
    };
    let [a, b]: [EngineConfig; 2] = engines
        .try_into()
        .map_err(|_| anyhow::anyhow!("two engines"))?;
    Ok(MatchPlan {
        engines: [a, b],
        tc,
        sprt,
    })
}

fn match_command(args: &MatchArgs) -> Result<i32> {
    let plan = match match_plan(args) {
        Ok(plan) => plan,
        Err(e) => return Ok(usage(&e)),
    };
    let (source, text) = match &args.openings {
        Some(path) => (
            path.display().to_string(),
            std::fs::read_to_string(path)
                .with_context(|| format!("--openings: cannot read {}", path.display()))?,
        ),
        None => (
            "the built-in list (chess-board/data/openings.txt)".to_owned(),
            matches::DEFAULT_OPENINGS.to_owned(),
        ),
    };
    let mut openings =
        matches::parse_openings(&text).with_context(|| format!("--openings {source}"))?;
    if let Some(seed) = args.srand {
        chariot_matchkit::pairing::shuffle(&mut openings, seed);
    }
    let names = matches::check_engines(&plan.engines, args.debug).map_err(anyhow::Error::msg)?;
    let mut pgn_file = args
        .pgn
        .as_deref()
        .map(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open --pgn {}", path.display()))
        })
        .transpose()?;
    for (i, (name, c)) in names.iter().zip(&plan.engines).enumerate() {
        let mut line = format!("Engine {}: {name} ({}", i + 1, c.launch.command.display());
        for a in &c.launch.args {
            line.push_str(&format!(" {a}"));
        }
        for (k, v) in &c.options {
            line.push_str(&format!(", {k}={v}"));
        }
        println!("{line})");
    }
    println!(
        "Match: {} vs {}, {} game{} at {}, concurrency {}; {} opening{} from {}{}",
        names[0],
        names[1],
        args.games,
        if args.games == 1 { "" } else { "s" },
        plan.tc,
        args.concurrency,
        openings.len(),
        if openings.len() == 1 { "" } else { "s" },
        source,
        args.srand
            .map_or(String::new(), |s| format!(", shuffled with seed {s}"))
    );
    // A two-engine round robin of one round: `--games` games, each opening twice in a row
    // with the colours swapped.
    let run_settings = runner::Settings {
        names: names.to_vec(),
        games: args.games,
        rounds: 1,
        openings: openings.len(),
        concurrency: args.concurrency,
        sprt: plan.sprt,
        ..runner::Settings::default()
    };
    let settings = MatchSettings {
        engines: plan.engines,
        names,
        openings,
        debug: args.debug,
    };
    let standings = runner::run(
        &settings,
        Schedule::RoundRobin,
        &run_settings,
        |event, standings| {
            let Event::Game(finished) = event else {
                return Ok(());
            };
            println!("{}", matches::game_line(finished, &settings, standings));
            if let Some(file) = pgn_file.as_mut() {
                file.write_all(
                    matches::pgn(finished, &settings, &args.event, &args.site).as_bytes(),
                )
                .and_then(|()| file.flush())
                .context("cannot write the PGN file")?;
            }
            Ok(())
        },
    )
    .map_err(run_error)?;
    let names = settings.names.to_vec();
    let w = standings.first;
    println!(
        "\nScore of {} vs {}: +{} ={} -{} (W-D-L), {}/{} [{:.3}]",
        names[0],
        names[1],
        w.wins,
        w.draws,
        w.losses,
        w.points(),
        w.games(),
        w.score().unwrap_or(0.5)
    );
    // The match kit's Elo, LOS and SPRT lines, as chariot-league prints them.
    let sprt = run_settings.sprt.as_ref();
    let report = chariot_matchkit::report::match_elo(&names, &standings, sprt);
    if !report.is_empty() {
        println!("{report}");
    }
    let games = usize::try_from(args.games).unwrap_or(usize::MAX);
    let early = sprt
        .map(|t| standings.sprt_status(t).decision)
        .filter(|&d| d != SprtDecision::Continue && standings.finished < games);
    match early {
        Some(d) => println!(
            "Finished match: the SPRT accepted {} after {} of {} games",
            if d == SprtDecision::AcceptH1 {
                "H1"
            } else {
                "H0"
            },
            standings.finished,
            args.games
        ),
        None => println!("Finished match"),
    }
    Ok(0)
}
