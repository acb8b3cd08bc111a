//! The `chariot-league` command line.
//!
//! It follows cutechess-cli, which engine authors already know: options take one value
//! (`--games 10`) or a group of `KEY=VALUE` words (`--engine cmd=./eleeye name=EleEye`), and
//! may be written with one dash or two. The grammar is that of cutechess rather than of a
//! typical derive-based parser (repeated groups of key-value words), so it is read by hand here;
//! every value is checked and every mistake is an error naming the option and the value.

use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use chariot_cli::Exit;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use chariot_formats::book::Book;
use chariot_formats::egtb::Tablebases;
use chariot_rules::notation::Notation;

use chariot_league::engine::Engine;
use chariot_league::game::{Adjudication, DrawRule, ResignRule};
use chariot_league::openings::{self, Format, Opening, Order};
use chariot_league::pgn::{self, PgnContext};
use chariot_league::referee::JudgeReferee;
use chariot_league::report;
use chariot_league::resume;
use chariot_league::tournament::{self, Games, Kind, Player, Xiangqi};
use chariot_matchkit::client::{EngineConfig, ProtocolChoice, VariantChoice};
use chariot_matchkit::clock::TimeControl;
use chariot_matchkit::engine::{distinct_name, engine_name};
use chariot_matchkit::interrupt::Interrupt;
use chariot_matchkit::runner::{self, Event, Previous, RunError};
use chariot_matchkit::settings::{self, EngineSettings};
use chariot_matchkit::stats::Sprt;

/// The help text.
pub const USAGE: &str = "\
chariot-league: engine-vs-engine Xiangqi matches and tournaments over UCCI and UCI

USAGE:
  chariot-league --engine cmd=PATH [KEY=VALUE...] --engine cmd=PATH [KEY=VALUE...] [OPTIONS]

ENGINE SETTINGS (after --engine, or after --each for every engine):
  cmd=PATH            the program (looked up in dir= first, then here, then on PATH)
  name=NAME           name in tables and PGN (default: the engine's id name)
  dir=DIR             working directory
  arg=ARG             a command-line argument (repeatable)
  proto=ucci|uci|auto protocol (default auto: ucci is tried first, then uci)
  variant=auto|xiangqi|none
                      UCI only: send UCI_Variant xiangqi and name squares with ranks 1-10
                      (Fairy-Stockfish); auto = when the engine lists UCI_Variant with xiangqi
  conf=FILE           a file of commands sent after the handshake (the UCCI league's
                      configuration file of setoption lines)
  option.NAME=VALUE   an option, sent as UCCI setoption NAME VALUE or UCI setoption name NAME
                      value VALUE
  tc=TC               time control, [MOVES/]TIME[+INC] in seconds: 10+0.1, 40/60, 1:30+1
  nodes=N             search N nodes per move (`go nodes N`) instead of using the clock;
                      the clock of tc= still runs as a safety limit, so make it generous
  timemargin=MS       grace after the clock runs out before a loss on time (default 200)
  handshake=SECONDS   time to answer ucci/uci and isready (default 10)

OPTIONS:
  --each KEY=VALUE...       settings for every engine (an engine's own settings win)
  --tc TC                   time control for every engine (same as --each tc=TC)
  --tournament round-robin|swiss|gauntlet
                            default round-robin (a match with two engines); gauntlet: the
                            first engine meets each of the others, who do not play each other
  --games N                 games per encounter per round (default 2: each opening with both
                            colours; a double round robin)
  --rounds N                rounds (default 1; Swiss: ceil(log2(engines)))
  --concurrency N           games played at once (default 1)
  --openings file=FILE [format=epd|pgn] [order=sequential|random] [plies=N] [start=N]
                            openings: FEN/EPD lines or PGN games (ICCS, WXF or Chinese moves)
  --book FILE               openings from a Chariot opening book (.xqb): random walks from the
                            start position, each move drawn in proportion to its book weight
  --book-ply N              plies of a book opening (default 8; a line stops earlier where the
                            book has no move)
  --srand N                 seed for order=random and for --book (default 0)
  --pgnout FILE             append every game to FILE as Xiangqi PGN
  --resume                  carry on the tournament whose games are in --pgnout FILE: its
                            finished games are counted, the rest are played (give the same
                            engines and options as the first run)
  --pgn-notation iccs|wxf|chinese
                            movetext notation (default iccs)
  --event NAME, --site NAME PGN Event and Site tags
  --sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]
                            stop a match when the SPRT decides (alpha, beta default 0.05)
  --draw movenumber=N movecount=N score=S
                            adjudicate a draw when both scores stay within S centipawns for N
                            moves each, from move N on
  --resign movecount=N score=S [twosided=true|false]
                            adjudicate a loss when an engine's score stays at -S or below for
                            N of its moves
  --maxmoves N              adjudicate a draw after N moves
  --egtb DIR                adjudicate by endgame tablebase: a position the tables in DIR cover
                            ends the game as they say (win, loss or draw)
  --ratinginterval N        print the Elo or the table every N games (default 10; 0: at the end)
  --json                    standard output is JSON lines: one per finished game
                            ({\"event\":\"game\",...}) and the results at the end
                            ({\"event\":\"results\",...}); the usual text goes to stderr
  --debug                   print every line sent to and read from the engines on stderr
  --help, --version

RATINGS (no games are played):
  chariot-league --ratings FILE... [--anchor NAME=ELO] [--json]
                            rates every player of the game files (PGN, DhtmlXQ, XQF; plain or
                            zstd) jointly by maximum likelihood, with 95% intervals; the anchor
                            fixes the scale (default: the pool's average is 0)

EXIT CODES:
  0 the tournament was played   1 it could not be (an engine does not start, a file cannot
  be read or written)           2 a mistake on the command line
  130, 143 stopped by Ctrl-C (SIGINT) or SIGTERM: the games in progress are abandoned (not
  written; --resume plays them), the report covers the finished ones. A second Ctrl-C kills.

The rules (Asian): mate and stalemate lose; a perpetual check or chase loses (engines on UCCI
are told the forbidden moves with banmoves); other repetitions draw; 60 moves without a capture
draw;
bestmove ... draw offers (accepted by the same word) and bestmove ... resign are honoured.
A crash, a hang, an illegal move or a malformed answer loses the game.
";

/// Plies of a `--book` opening when `--book-ply` is not given.
const DEFAULT_BOOK_PLY: usize = 8;

/// One engine's `KEY=VALUE` settings as given.
#[derive(Clone, Debug, Default)]
struct EngineArgs {
    pairs: Vec<(String, String)>,
}

/// The command line, read but not yet acted on.
#[derive(Debug)]
struct Args {
    engines: Vec<EngineArgs>,
    each: EngineArgs,
    kind: Kind,
    games: u32,
    rounds: Option<u32>,
    concurrency: usize,
    openings: Option<OpeningArgs>,
    book: Option<PathBuf>,
    book_ply: Option<usize>,
    egtb: Option<PathBuf>,
    srand: u64,
    pgnout: Option<PathBuf>,
    notation: Notation,
    event: String,
    site: String,
    sprt: Option<Sprt>,
    adjudication: Adjudication,
    rating_interval: usize,
    debug: bool,
    resume: bool,
    json: bool,
    /// `--ratings`: game files to rate instead of a tournament to play.
    ratings: Vec<PathBuf>,
    /// `--anchor NAME=ELO`.
    anchor: Option<(String, f64)>,
}

#[derive(Debug)]
struct OpeningArgs {
    file: PathBuf,
    format: Option<Format>,
    order: Order,
    plies: Option<usize>,
    start: usize,
}

/// What the command line asks for.
enum Request {
    Help,
    Version,
    Run(Box<Args>),
    Ratings(Box<Args>),
}

/// Runs the command line and returns the exit code.
#[must_use]
pub fn run() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&argv) {
        Ok(Request::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Request::Version) => {
            println!("chariot-league {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Ok(Request::Run(args)) => args,
        Ok(Request::Ratings(args)) => {
            return chariot_cli::run("chariot-league", || rate(&args));
        }
        Err(e) => {
            eprintln!(
                "chariot-league: {}\n(see chariot-league --help)",
                chariot_cli::message(&e)
            );
            return Exit::Usage.into();
        }
    };
    let mut interrupted = None;
    let code = chariot_cli::run("chariot-league", || {
        interrupted = execute(*args)?;
        Ok(Exit::Success)
    });
    // An interrupted run exits as a shell reports a program the signal killed (130, 143).
    interrupted.map_or(code, ExitCode::from)
}

/// Splits `--opt v` / `--opt k=v k=v` groups.
fn parse(argv: &[String]) -> Result<Request> {
    let mut args = Args {
        engines: Vec::new(),
        each: EngineArgs::default(),
        kind: Kind::RoundRobin,
        games: 2,
        rounds: None,
        concurrency: 1,
        openings: None,
        book: None,
        book_ply: None,
        egtb: None,
        srand: 0,
        pgnout: None,
        notation: Notation::Iccs,
        event: "Chariot league".to_owned(),
        site: "?".to_owned(),
        sprt: None,
        adjudication: Adjudication::default(),
        rating_interval: 10,
        debug: false,
        resume: false,
        json: false,
        ratings: Vec::new(),
        anchor: None,
    };
    let mut i = 0;
    while i < argv.len() {
        let raw = &argv[i];
        let Some(opt) = raw.strip_prefix("--").or_else(|| raw.strip_prefix('-')) else {
            bail!("unexpected argument {raw:?} (options start with --)");
        };
        i += 1;
        // The words up to the next option.
        let start = i;
        while i < argv.len() && !argv[i].starts_with('-') {
            i += 1;
        }
        let words = &argv[start..i];
        let one = || -> Result<&str> {
            match words {
                [w] => Ok(w.as_str()),
                [] => bail!("--{opt} needs a value"),
                _ => bail!("--{opt} takes one value, got {words:?}"),
            }
        };
        let none = || -> Result<()> {
            if words.is_empty() {
                Ok(())
            } else {
                bail!("--{opt} takes no value, got {words:?}")
            }
        };
        match opt {
            "help" | "h" => return Ok(Request::Help),
            "version" => return Ok(Request::Version),
            "engine" => args.engines.push(EngineArgs {
                pairs: key_values(opt, words)?,
            }),
            "each" => args.each.pairs.extend(key_values(opt, words)?),
            "tc" => args.each.pairs.push(("tc".into(), one()?.into())),
            "tournament" => args.kind = one()?.parse().map_err(|e| anyhow!("--tournament: {e}"))?,
            "games" => args.games = positive(opt, one()?)?,
            "rounds" => args.rounds = Some(positive(opt, one()?)?),
            "concurrency" => args.concurrency = positive::<usize>(opt, one()?)?,
            "srand" => args.srand = number(opt, one()?)?,
            "pgnout" => args.pgnout = Some(one()?.into()),
            "pgn-notation" => {
                args.notation = match one()? {
                    "iccs" => Notation::Iccs,
                    "wxf" => Notation::Wxf,
                    "chinese" => Notation::Chinese,
                    v => bail!(
                        "--pgn-notation: unknown notation {v:?} (expected iccs, wxf or chinese)"
                    ),
                }
            }
            "event" => args.event = one()?.to_owned(),
            "site" => args.site = one()?.to_owned(),
            "openings" => args.openings = Some(opening_args(opt, words)?),
            "book" => args.book = Some(one()?.into()),
            "book-ply" => args.book_ply = Some(positive(opt, one()?)?),
            "egtb" => args.egtb = Some(one()?.into()),
            "sprt" => args.sprt = Some(sprt_args(opt, words)?),
            "draw" => args.adjudication.draw = Some(draw_args(opt, words)?),
            "resign" => args.adjudication.resign = Some(resign_args(opt, words)?),
            "maxmoves" => args.adjudication.max_moves = Some(positive(opt, one()?)?),
            "ratinginterval" => args.rating_interval = number(opt, one()?)?,
            "debug" => {
                none()?;
                args.debug = true;
            }
            "resume" => {
                none()?;
                args.resume = true;
            }
            "json" => {
                none()?;
                args.json = true;
            }
            "ratings" => {
                if words.is_empty() {
                    bail!("--ratings needs the game files to rate");
                }
                args.ratings.extend(words.iter().map(PathBuf::from));
            }
            "anchor" => args.anchor = Some(anchor_arg(opt, one()?)?),
            _ => bail!("unknown option {raw:?}"),
        }
    }
    if !args.ratings.is_empty() {
        if !args.engines.is_empty() {
            bail!("--ratings rates the games of files and plays none: leave out --engine");
        }
        return Ok(Request::Ratings(Box::new(args)));
    }
    if args.anchor.is_some() {
        bail!("--anchor needs --ratings FILE...");
    }
    if args.engines.len() < 2 {
        bail!("at least two --engine are needed");
    }
    if args.book.is_some() && args.openings.is_some() {
        bail!("--book and --openings cannot be used together (choose one source of openings)");
    }
    if args.book_ply.is_some() && args.book.is_none() {
        bail!("--book-ply needs --book");
    }
    if args.resume && args.pgnout.is_none() {
        bail!("--resume needs --pgnout FILE (the games of the run to carry on)");
    }
    if args.sprt.is_some() && args.engines.len() != 2 {
        bail!("--sprt needs exactly two engines");
    }
    Ok(Request::Run(Box::new(args)))
}

/// `NAME=ELO`: the anchor of `--ratings` (the name may hold `=`, the rating is after the last).
fn anchor_arg(opt: &str, word: &str) -> Result<(String, f64)> {
    let (name, elo) = word
        .rsplit_once('=')
        .ok_or_else(|| anyhow!("--{opt}: {word:?} is not NAME=ELO"))?;
    let elo: f64 = elo
        .parse()
        .ok()
        .filter(|e: &f64| e.is_finite())
        .ok_or_else(|| anyhow!("--{opt}: {elo:?} is not a rating"))?;
    if name.is_empty() {
        bail!("--{opt}: {word:?} names no player");
    }
    Ok((name.to_owned(), elo))
}

/// `--ratings`: rates the players of the files and prints the table (or its JSON).
fn rate(args: &Args) -> Result<Exit> {
    use chariot_league::ratings;
    let games = ratings::read(&args.ratings)?;
    let anchor = args
        .anchor
        .as_ref()
        .map(|(name, elo)| (name.as_str(), *elo));
    let fitted = ratings::fit(&games, anchor)?;
    if args.json {
        println!("{}", ratings::json(&games, &fitted));
    } else {
        print!("{}", ratings::table(&games, &fitted));
    }
    Ok(Exit::Success)
}

/// `KEY=VALUE` words.
fn key_values(opt: &str, words: &[String]) -> Result<Vec<(String, String)>> {
    if words.is_empty() {
        bail!("--{opt} needs KEY=VALUE settings");
    }
    settings::key_values(words).map_err(|e| anyhow!("--{opt}: {e}"))
}

fn number<T: std::str::FromStr>(opt: &str, v: &str) -> Result<T> {
    v.parse()
        .map_err(|_| anyhow!("--{opt}: {v:?} is not a valid number"))
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(opt: &str, v: &str) -> Result<T> {
    let n: T = number(opt, v)?;
    if n <= T::default() {
        bail!("--{opt}: {v:?} must be at least 1");
    }
    Ok(n)
}

fn opening_args(opt: &str, words: &[String]) -> Result<OpeningArgs> {
    let mut o = OpeningArgs {
        file: PathBuf::new(),
        format: None,
        order: Order::Sequential,
        plies: None,
        start: 1,
    };
    let mut file = None;
    for (k, v) in key_values(opt, words)? {
        match k.as_str() {
            "file" => file = Some(PathBuf::from(v)),
            "format" => o.format = Some(v.parse().map_err(|e| anyhow!("--{opt}: {e}"))?),
            "order" => o.order = v.parse().map_err(|e| anyhow!("--{opt}: {e}"))?,
            "plies" => o.plies = Some(number(opt, &v)?),
            "start" => o.start = positive(opt, &v)?,
            _ => bail!("--{opt}: unknown setting {k:?} (file, format, order, plies, start)"),
        }
    }
    o.file = file.ok_or_else(|| anyhow!("--{opt} needs file=FILE"))?;
    Ok(o)
}

fn sprt_args(opt: &str, words: &[String]) -> Result<Sprt> {
    Sprt::from_settings(&key_values(opt, words)?).map_err(|e| anyhow!("--{opt}: {e}"))
}

fn draw_args(opt: &str, words: &[String]) -> Result<DrawRule> {
    let mut rule = DrawRule {
        move_number: 0,
        move_count: 0,
        score: -1,
    };
    for (k, v) in key_values(opt, words)? {
        match k.as_str() {
            "movenumber" => rule.move_number = number(opt, &v)?,
            "movecount" => rule.move_count = positive(opt, &v)?,
            "score" => rule.score = number(opt, &v)?,
            _ => bail!("--{opt}: unknown setting {k:?} (movenumber, movecount, score)"),
        }
    }
    if rule.move_count == 0 || rule.score < 0 {
        bail!("--{opt} needs movecount=N and score=S (S at least 0)");
    }
    Ok(rule)
}

fn resign_args(opt: &str, words: &[String]) -> Result<ResignRule> {
    let mut rule = ResignRule {
        move_count: 0,
        score: 0,
        two_sided: false,
    };
    for (k, v) in key_values(opt, words)? {
        match k.as_str() {
            "movecount" => rule.move_count = positive(opt, &v)?,
            "score" => rule.score = positive(opt, &v)?,
            "twosided" => {
                rule.two_sided = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => bail!("--{opt}: twosided={v:?} (expected true or false)"),
                }
            }
            _ => bail!("--{opt}: unknown setting {k:?} (movecount, score, twosided)"),
        }
    }
    if rule.move_count == 0 || rule.score == 0 {
        bail!("--{opt} needs movecount=N and score=S");
    }
    Ok(rule)
}

/// Builds an engine's configuration from `--each` and its own settings (its own win).
fn engine_config(index: usize, each: &EngineArgs, own: &EngineArgs) -> Result<EngineConfig> {
    let ctx = || format!("--engine #{}", index + 1);
    let mut tc: Option<TimeControl> = None;
    let mut c = EngineConfig::new("", "1".parse().map_err(|e| anyhow!("{e}"))?);
    let mut conf: Option<String> = None;
    let common = EngineSettings::read(&each.pairs, &own.pairs, |k, v| {
        match k {
            "proto" => c.protocol = v.parse::<ProtocolChoice>()?,
            "variant" => c.variant = v.parse::<VariantChoice>()?,
            "conf" => conf = Some(v.to_owned()),
            "tc" => tc = Some(v.parse::<TimeControl>().map_err(|e| e.to_string())?),
            "nodes" => {
                let n: u64 = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("nodes={v:?} is not a positive number"))?;
                c.nodes = Some(n);
            }
            _ => {
                return Err(format!(
                    "unknown setting {k:?} (cmd, name, dir, arg, proto, variant, conf, option.NAME, tc, timemargin, handshake)"
                ));
            }
        }
        Ok(())
    })
    .map_err(|e| anyhow!("{}: {e}", ctx()))?;
    let cmd = common
        .cmd
        .as_deref()
        .ok_or_else(|| anyhow!("{}: cmd= is missing", ctx()))?;
    c.tc = tc.ok_or_else(|| anyhow!("{}: no time control (use --tc or tc=)", ctx()))?;
    c.launch = common.launch(cmd);
    c.name = common.name;
    c.options = common.options;
    c.grace = common.grace;
    c.handshake = common.handshake;
    if let Some(path) = conf {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("{}: cannot read conf={path}", ctx()))?;
        c.conf_lines = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
    }
    Ok(c)
}

/// The openings of `--book`: enough distinct lines for every game pair of the tournament.
fn book_openings(
    args: &Args,
    path: &Path,
    players: usize,
    rounds: u32,
    out: Out,
) -> Result<Vec<Opening>> {
    let book = Book::open(path).with_context(|| format!("--book {}", path.display()))?;
    let encounters = match args.kind {
        Kind::RoundRobin => players * (players - 1) / 2,
        Kind::Swiss => players / 2,
        Kind::Gauntlet => players - 1,
    };
    let rounds = usize::try_from(rounds).unwrap_or(usize::MAX);
    let per_encounter = usize::try_from(args.games.div_ceil(2)).unwrap_or(usize::MAX);
    let pairs = encounters
        .saturating_mul(rounds)
        .saturating_mul(per_encounter)
        // A bound on the walks for absurd --games/--rounds: openings cycle beyond it.
        .min(100_000);
    let plies = args.book_ply.unwrap_or(DEFAULT_BOOK_PLY);
    let list = openings::from_book(&book, plies, pairs, args.srand)?;
    out.say(&format!(
        "Book: {} of up to {plies} plies from {}",
        chariot_cli::count(list.len() as u64, "distinct opening", "distinct openings"),
        path.display()
    ))?;
    Ok(list)
}

/// Where the runner's words go: the text for people on standard output, or with `--json`
/// JSON lines there and the text on standard error.
#[derive(Clone, Copy)]
struct Out {
    json: bool,
}

impl Out {
    /// Writes a line of text; a closed pipe ends the run quietly.
    fn say(self, text: &str) -> io::Result<()> {
        if self.json {
            let mut err = io::stderr().lock();
            writeln!(err, "{text}")?;
            err.flush()
        } else {
            let mut out = io::stdout().lock();
            writeln!(out, "{text}")?;
            out.flush()
        }
    }

    /// Writes a JSON line (only with `--json`).
    fn json(self, value: &impl serde::Serialize) -> Result<()> {
        if self.json {
            let line = serde_json::to_string(value).context("cannot write JSON")?;
            let mut out = io::stdout().lock();
            writeln!(out, "{line}")?;
            out.flush()?;
        }
        Ok(())
    }
}

/// `--resume`: the games of the earlier run, with a game cut off mid-write removed from the
/// end of the file so that new games follow whole ones.
fn earlier_games(path: &Path, out: Out) -> Result<HashMap<usize, Previous>> {
    let earlier = resume::read(path).context("--resume")?;
    if earlier.whole_len < earlier.file_len {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("--resume: cannot open {} to cut", path.display()))?;
        file.set_len(earlier.whole_len)
            .with_context(|| format!("--resume: cannot cut {}", path.display()))?;
        out.say(&format!(
            "Resume: removed an unfinished game from the end of {} (bytes {} to {})",
            path.display(),
            earlier.whole_len,
            earlier.file_len
        ))?;
    }
    let n = earlier.games.len();
    out.say(&format!(
        "Resume: {n} finished game{} in {}{}",
        if n == 1 { "" } else { "s" },
        path.display(),
        match earlier.without_result {
            0 => String::new(),
            1 => ", 1 without a result to play again".to_owned(),
            k => format!(", {k} without a result to play again"),
        }
    ))?;
    Ok(earlier.games)
}

/// Runs the tournament; `Ok(Some(code))` when a signal interrupted it, with the exit code.
fn execute(args: Args) -> Result<Option<u8>> {
    let out = Out { json: args.json };
    // From here on Ctrl-C stops the run with its report (an interrupt during the engines'
    // start-up checks plays nothing).
    let interrupt =
        Interrupt::on_signals().context("cannot install the handlers of SIGINT and SIGTERM")?;
    let configs: Vec<EngineConfig> = args
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| engine_config(i, &args.each, e))
        .collect::<Result<_>>()?;
    let n = configs.len();
    let rounds = args.rounds.unwrap_or(match args.kind {
        Kind::RoundRobin => 1,
        Kind::Swiss => (usize::BITS - (n - 1).leading_zeros()).max(1),
        Kind::Gauntlet => 1,
    });
    let mut openings: Vec<Opening> = match (&args.openings, &args.book) {
        (None, Some(path)) => book_openings(&args, path, n, rounds, out)?,
        (None, None) => vec![Opening::start_position()],
        (Some(_), Some(_)) => {
            bail!("--book and --openings cannot be used together (choose one source of openings)")
        }
        (Some(o), None) => {
            let format = o.format.unwrap_or_else(|| Format::from_path(&o.file));
            let mut list = openings::load(&o.file, format, o.plies)?;
            if o.start > list.len() {
                bail!(
                    "--openings start={} but {} holds {} openings",
                    o.start,
                    o.file.display(),
                    list.len()
                );
            }
            list.drain(..o.start - 1);
            if o.order == Order::Random {
                chariot_matchkit::pairing::shuffle(&mut list, args.srand);
            }
            list
        }
    };
    if openings.is_empty() {
        openings.push(Opening::start_position());
    }
    let tablebases = match &args.egtb {
        Some(dir) => {
            let tables = Tablebases::open(std::slice::from_ref(dir))
                .with_context(|| format!("--egtb {}: cannot open the tables", dir.display()))?;
            if tables.is_empty() {
                bail!(
                    "--egtb {}: no endgame tables in the directory",
                    dir.display()
                );
            }
            out.say(&format!(
                "Tablebases: {} from {}",
                chariot_cli::count(tables.len() as u64, "table", "tables"),
                dir.display()
            ))?;
            Some(tables)
        }
        None => None,
    };
    // Start every engine once: a wrong path or a broken engine is reported now, not as a
    // forfeit in every game; and the engine's id name becomes its name when none is given.
    let mut names = Vec::new();
    for (i, c) in configs.iter().enumerate() {
        let engine = Engine::start(c, args.debug.then(|| format!("[check {}]", i + 1)))
            .map_err(|e| anyhow!("engine #{} ({}) {e}", i + 1, c.launch.command.display()))?;
        let base = engine_name(c.name.as_deref(), engine.id_name(), &c.launch, i + 1);
        let name = distinct_name(base, &names);
        out.say(&format!(
            "Engine {}: {name} ({}, {}{}, tc {})",
            i + 1,
            c.launch.command.display(),
            engine.protocol(),
            if engine.ranks1() { ", ranks 1-10" } else { "" },
            c.tc
        ))?;
        names.push(name);
    }
    let players: Vec<Player> = names
        .iter()
        .zip(&configs)
        .map(|(name, config)| Player {
            name: name.clone(),
            config: config.clone(),
        })
        .collect();
    let games = Games {
        openings,
        referee: Arc::new(JudgeReferee::default()),
        adjudication: args.adjudication,
        tablebases,
        debug: args.debug,
    };
    let settings = runner::Settings {
        names: names.clone(),
        games: args.games,
        rounds,
        openings: games.openings.len(),
        concurrency: args.concurrency,
        sprt: args.sprt,
        previous: match (&args.pgnout, args.resume) {
            (Some(path), true) => earlier_games(path, out)?,
            _ => HashMap::new(),
        },
        interrupt,
    };
    let mut pgn_file = args
        .pgnout
        .as_deref()
        .map(|path| {
            pgn::open_for_append(path)
                .with_context(|| format!("cannot open --pgnout {}", path.display()))
        })
        .transpose()?;
    let is_match = n == 2;
    let player = Xiangqi {
        players: &players,
        games: &games,
    };
    let schedule = tournament::schedule(args.kind, n, args.games);
    let result = runner::run(&player, schedule, &settings, |event, standings| {
        let Event::Game(finished) = event else {
            return Ok(());
        };
        out.say(&report::game_line(finished))?;
        out.json(&report::GameJson::new(finished))?;
        if let Some(file) = pgn_file.as_mut() {
            let round = format!("{}.{}", finished.job.round, finished.job.number);
            let ctx = PgnContext {
                event: &args.event,
                site: &args.site,
                round: &round,
                notation: args.notation,
            };
            file.write_all(pgn::write(&finished.record, &ctx).as_bytes())
                .and_then(|()| file.flush())
                .context("cannot write the PGN file")?;
        }
        if is_match {
            out.say(&chariot_matchkit::report::score_line(&names, standings))?;
        }
        let k = args.rating_interval;
        if k > 0 && standings.finished % k == 0 {
            if is_match {
                out.say(&chariot_matchkit::report::match_elo(
                    &names,
                    standings,
                    settings.sprt.as_ref(),
                ))?;
            } else {
                out.say(&chariot_matchkit::report::table(&names, standings))?;
            }
        }
        Ok::<(), anyhow::Error>(())
    });
    let standings = match result {
        Ok(standings) => standings,
        Err(RunError::Observer(e)) => return Err(e),
        Err(RunError::Mismatch(m)) => bail!(
            "--resume {}: {m}",
            args.pgnout.as_deref().unwrap_or(Path::new("")).display()
        ),
        Err(e @ (RunError::Players(_) | RunError::NoOpenings)) => bail!("{e}"),
    };
    out.say("")?;
    let interrupted = standings.interrupted.then_some(&settings.interrupt);
    if let Some(signal) = interrupted.and_then(Interrupt::signal_name) {
        out.say(&chariot_matchkit::report::interrupted_line(
            &signal, &standings,
        ))?;
    }
    if is_match {
        out.say(&chariot_matchkit::report::score_line(&names, &standings))?;
        out.say(&chariot_matchkit::report::match_elo(
            &names,
            &standings,
            settings.sprt.as_ref(),
        ))?;
    } else {
        out.say(&chariot_matchkit::report::table(&names, &standings))?;
    }
    if standings.unfinished > 0 {
        out.say(&match standings.unfinished {
            1 => "1 game could not be played (neither engine started)".to_owned(),
            k => format!("{k} games could not be played (neither engine started)"),
        })?;
    }
    out.json(&chariot_matchkit::report::results_json(
        &names,
        &standings,
        settings.sprt.as_ref(),
    ))?;
    let what = if is_match { "match" } else { "tournament" };
    if interrupted.is_some() {
        out.say(&format!("Interrupted {what}"))?;
    } else {
        out.say(&format!("Finished {what}"))?;
    }
    Ok(interrupted.and_then(Interrupt::exit_code))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn args(s: &str) -> Args {
        match parse(&argv(s)) {
            Ok(Request::Run(a)) => *a,
            Ok(_) => panic!("not a run"),
            Err(e) => panic!("{e:#}"),
        }
    }

    fn error(s: &str) -> String {
        match parse(&argv(s)) {
            Err(e) => format!("{e:#}"),
            Ok(_) => panic!("{s} parsed"),
        }
    }

    #[test]
    fn reads_cutechess_style_groups() {
        let a = args(
            "-engine cmd=a name=A option.Hash=16 --engine cmd=b proto=uci -each tc=10+0.1 \
             --games 4 --concurrency 2 --sprt elo0=0 elo1=5 --draw movenumber=30 movecount=5 score=10",
        );
        assert_eq!(a.engines.len(), 2);
        assert_eq!(a.games, 4);
        assert_eq!(a.concurrency, 2);
        assert_eq!(a.sprt.map(|s| (s.elo1, s.alpha)), Some((5.0, 0.05)));
        let c = engine_config(0, &a.each, &a.engines[0]).unwrap();
        assert_eq!(c.options, [("Hash".to_owned(), "16".to_owned())]);
        assert_eq!(c.tc.to_string(), "10+0.1");
        assert_eq!(c.name.as_deref(), Some("A"));
        let c = engine_config(1, &a.each, &a.engines[1]).unwrap();
        assert_eq!(
            c.protocol,
            ProtocolChoice::Fixed(chariot_matchkit::client::Protocol::Uci)
        );
    }

    #[test]
    fn mistakes_are_named() {
        assert!(error("--engine cmd=a").contains("two --engine"));
        assert!(error("--engine cmd=a --engine cmd=b --games 0").contains("at least 1"));
        assert!(error("--engine cmd=a --engine cmd=b --frobnicate").contains("--frobnicate"));
        assert!(error("--engine cmd=a --engine cmd=b --games x").contains("\"x\""));
        assert!(error("--engine cmd=a --engine oops").contains("KEY=VALUE"));
        assert!(
            error("--engine cmd=a --engine cmd=b --engine cmd=c --sprt elo0=0 elo1=5")
                .contains("exactly two")
        );
        assert!(error("--engine cmd=a --engine cmd=b --sprt elo0=5 elo1=0").contains("greater"));
        let a = args("--engine cmd=a proto=xboard --engine cmd=b --tc 1");
        let e = engine_config(0, &a.each, &a.engines[0]).unwrap_err();
        assert!(format!("{e:#}").contains("xboard"));
        let a = args("--engine cmd=a --engine cmd=b");
        let e = engine_config(0, &a.each, &a.engines[0]).unwrap_err();
        assert!(format!("{e:#}").contains("time control"));
        let a = args("--engine cmd=a tc=fast --engine cmd=b");
        let e = engine_config(0, &a.each, &a.engines[0]).unwrap_err();
        assert!(format!("{e:#}").contains("fast"));
    }
}
