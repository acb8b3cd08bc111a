//! `chariot puzzles`: make the shipped puzzle file from its sources (`build`), and check a
//! puzzle file with the search and the tables (`verify`). `docs/formats/puzzles.md` describes
//! the file and how it is made.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use chariot_formats::egtb::Tablebases;
use chariot_puzzles::generate::{self, Inputs, Settings};
use chariot_puzzles::{Prover, Source, file, verify};

/// The classical mate problem collections: their names and files under `data/puzzles/classic/`.
const CLASSICS: [(&str, &str); 4] = [
    ("梦入神机", "mengru-shenji.eglib"),
    ("烂柯神机", "lanke-shenji.eglib"),
    ("弈海烟波", "yihai-yanbo.eglib"),
    ("泥马渡康王", "nima-dukangwang.eglib"),
];

/// The game collections searched, under the data directory, and the sources they are credited
/// to.
const GAMES: [(Source, &str); 3] = [
    (Source::CcpdMates, "puzzles/ccpd-mates.big5.pgn"),
    (Source::CcpdTactics, "puzzles/ccpd-tactics.big5.pgn.zst"),
    (Source::Masters, "games/ccpd-masters.big5.pgn.zst"),
];

// The arguments of `chariot puzzles` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Step,
}

#[derive(clap::Subcommand, Debug)]
enum Step {
    /// Make the puzzle file from the sources under the data directory: the classical mate
    /// problems, the CCPD mate and tactics games, the master games and the endgame tables.
    /// The same sources and settings give the same bytes. Single-threaded; the defaults take
    /// about an hour on one core.
    Build(BuildArgs),
    /// Check every puzzle of a file: what its reader checks (legal lines, mates that mate),
    /// and with the search and the tables that each mate is forced, that a table position's
    /// every solver move is the only winning move and that a game position's is the only
    /// decisive one. Exits 1 when a puzzle fails.
    Verify(VerifyArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The data directory holding `puzzles/`, `games/` and `egtb/`.
    #[arg(long, default_value = "data")]
    data: PathBuf,
    /// Where to write the puzzles.
    #[arg(long, short, default_value = "data/puzzles/puzzles.tsv")]
    out: PathBuf,
    /// Nodes per search.
    #[arg(long, default_value_t = Settings::default().nodes)]
    nodes: u64,
    /// The longest mate taken, in the solver's moves.
    #[arg(long, default_value_t = Settings::default().max_mate)]
    max_mate: u32,
    /// Games of the master collection searched, spread evenly over it.
    #[arg(long, default_value_t = Settings::default().master_games)]
    master_games: usize,
    /// Table positions drawn.
    #[arg(long, default_value_t = Settings::default().table_puzzles)]
    table_puzzles: usize,
    /// The seed of the table draws.
    #[arg(long, default_value_t = Settings::default().seed)]
    seed: u64,
}

#[derive(clap::Args, Debug)]
struct VerifyArgs {
    /// The puzzle file (the shipped puzzles when absent).
    file: Option<PathBuf>,
    /// The endgame tables' directory (the data directories' tables when absent).
    #[arg(long)]
    egtb: Option<PathBuf>,
    /// Nodes per search.
    #[arg(long, default_value_t = Settings::default().nodes)]
    nodes: u64,
}

/// Runs `chariot puzzles`.
pub fn run(args: Args) -> anyhow::Result<chariot_cli::Exit> {
    match args.command {
        Step::Build(a) => build(a).map(|()| chariot_cli::Exit::Success),
        Step::Verify(a) => verify_file(a),
    }
}

fn build(args: BuildArgs) -> anyhow::Result<()> {
    let settings = Settings {
        nodes: args.nodes,
        max_mate: args.max_mate,
        master_games: args.master_games,
        table_puzzles: args.table_puzzles,
        seed: args.seed,
        ..Settings::default()
    };
    let inputs = inputs(&args.data)?;
    let (puzzles, report) = generate::build(&inputs, &settings, &mut |line| eprintln!("{line}"))?;
    let mut comments = vec![
        "Made by `chariot puzzles build` (docs/formats/puzzles.md) with".to_owned(),
        format!(
            "--nodes {} --max-mate {} --master-games {} --table-puzzles {} --seed {}.",
            settings.nodes,
            settings.max_mate,
            settings.master_games,
            settings.table_puzzles,
            settings.seed
        ),
        "Sources and licences (data/README.md): classic: walker8088/cchess, GPL-3.0 (COPYING.GPL-3.0);".to_owned(),
        "ccpd-mates, ccpd-tactics, masters: Chinese Chess Practical Dataset by Yvonne761, CC BY 4.0;".to_owned(),
        "tables: Chariot's endgame tables.".to_owned(),
    ];
    for (source, n) in &report.found {
        comments.push(format!("{source}: {n} puzzles"));
    }
    let text = file::write(&puzzles, &comments)?;
    chariot_formats::atomic::write(&args.out, text.as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{} puzzles written to {}",
        puzzles.len(),
        args.out.display()
    );
    for (source, n) in &report.found {
        println!("  {source:<13} {n}");
    }
    println!("not taken:");
    for (why, n) in &report.rejected.0 {
        println!("  {n:>7}  {why}");
    }
    Ok(())
}

/// The sources under the data directory.
fn inputs(data: &Path) -> anyhow::Result<Inputs> {
    let classic = CLASSICS
        .iter()
        .map(|(name, file)| ((*name).to_owned(), data.join("puzzles/classic").join(file)))
        .collect();
    let games = GAMES.iter().map(|(s, f)| (*s, data.join(f))).collect();
    let tables = data.join("egtb");
    if !data.join("puzzles").is_dir() {
        bail!(
            "{} has no puzzles/ directory: run from the repository root or give --data",
            data.display()
        );
    }
    Ok(Inputs {
        classic,
        games,
        tables: tables.is_dir().then_some(tables),
    })
}

fn verify_file(args: VerifyArgs) -> anyhow::Result<chariot_cli::Exit> {
    let puzzles = match &args.file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            file::read(&text).with_context(|| path.display().to_string())?
        }
        None => chariot_puzzles::shipped().context("the shipped puzzles")?,
    };
    let tables = match &args.egtb {
        Some(dir) => Tablebases::open(&[dir])
            .with_context(|| format!("cannot open the tables in {}", dir.display()))?,
        None => chariot_engine::resources::load_tables::<&str>(&[]).0,
    };
    let tables = Arc::new(tables);
    let mut prover = Prover::new(Some(Arc::clone(&tables)), args.nodes);
    let mut failed = 0;
    for p in &puzzles {
        if let Err(fault) = verify::check(p, &mut prover, &tables) {
            failed += 1;
            println!("{} ({}, {}): {fault}", p.id, p.source, p.title);
        }
    }
    println!("{} puzzles, {failed} failed", puzzles.len());
    Ok(if failed == 0 {
        chariot_cli::Exit::Success
    } else {
        chariot_cli::Exit::Failure
    })
}
