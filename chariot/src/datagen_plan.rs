//! `chariot datagen-plan`: a large self-play data set cut into shards, written as a manifest
//! (`manifest.json`, `chariot_training::datagen::manifest`) and a workflow file whose jobs are
//! the shards, each one `chariot datagen --shard` command: a Makefile for `make -j N` on one
//! machine, or a Snakefile for Snakemake, whose executors (SLURM, Kubernetes, ...) run the same
//! jobs on many. No scheduler of our own, as `egtb-gen plan` does for the tablebases.
//!
//! Every path in the workflow and the manifest but those of the book and the network is
//! relative to the data directory, where the workflow runs (`make -C DIR`, `snakemake -d DIR`),
//! so that the directory can be moved to the machines that fill it. The workflow's last job is
//! `chariot datagen-verify --record .`: it checks every shard and records the size and SHA-256
//! of each one seen for the first time, which a shard generated again must then match.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use chariot_engine::resources;
use chariot_rules::random::Rng;
use chariot_training::datagen::manifest::{
    self, Book, Evaluation, FILE_NAME, InputFile, Manifest, Shard, ShardSettings,
};

use crate::datagen::Play;

/// The workflow engine a plan is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A Makefile: `make -C DIR -j N`.
    Make,
    /// A Snakefile: `snakemake -d DIR --cores N`, or a cluster executor.
    Snakemake,
}

// The arguments of `chariot datagen-plan` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Shards (files, jobs) of the data set.
    #[arg(long, value_name = "N")]
    shards: usize,
    /// Positions at least in each shard (its last game may take it past).
    #[arg(long, value_name = "N")]
    positions_per_shard: u64,
    /// Seed of the plan: each shard's seed is drawn from it.
    #[arg(long, default_value_t = 1, value_name = "N")]
    seed: u64,
    /// The data directory: the manifest, the workflow file and the shards (created if missing).
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// The workflow file to write beside the manifest.
    #[arg(long, value_enum, default_value_t = Format::Make)]
    format: Format,
    #[command(flatten)]
    play: Play,
}

/// The most shards a plan holds (file names stay short and a Makefile readable).
const MAX_SHARDS: usize = 1_000_000;

/// Memory a shard's job asks a cluster for, MiB: its process peaks at about 30 MiB (16 MiB of
/// transposition table, the network and the book), measured with `/usr/bin/time`.
const SHARD_MEMORY_MIB: u64 = 256;

/// Positions times nodes per move that one core gets through in a second: 444 positions a
/// second at 5,000 nodes a move were measured on this project's machine (docs/tuning.md). A
/// job asks for three times the time that gives, and never less than ten minutes.
const POSITION_NODES_PER_SECOND: u64 = 2_200_000;

/// Runs `chariot datagen-plan`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let Args {
        shards,
        positions_per_shard,
        seed,
        dir,
        format,
        play,
    } = args;
    if !(1..=MAX_SHARDS).contains(&shards) {
        return Err(chariot_cli::usage(format!(
            "--shards must be between 1 and {MAX_SHARDS}"
        )));
    }
    if positions_per_shard == 0 || play.nodes == 0 {
        return Err(chariot_cli::usage(
            "--positions-per-shard and --nodes must be at least 1",
        ));
    }
    let settings = ShardSettings {
        positions: positions_per_shard,
        nodes: play.nodes,
        book: book_of(&play)?,
        book_plies: play.book_plies,
        random_plies: play.random_plies,
        evaluation: evaluation_of(&play)?,
    };
    let planned = plan(shards, seed, &settings, origin())?;
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let manifest_path = dir.join(FILE_NAME);
    let kept = if manifest_path.exists() {
        let old = Manifest::read(&manifest_path)?;
        if let Some(why) = different_plans(&old, &planned) {
            anyhow::bail!(
                "{} holds another plan ({why}); plan into another --dir, or remove it and its \
                 shards first",
                manifest_path.display()
            );
        }
        true
    } else {
        false
    };
    let (name, text) = match format {
        Format::Make => ("Makefile", makefile(&planned)?),
        Format::Snakemake => ("Snakefile", snakefile(&planned)?),
    };
    chariot_formats::atomic::write(&dir.join(name), text.as_bytes())?;
    if !kept {
        planned.write(&manifest_path)?;
    }
    let run = match format {
        Format::Make => format!("make -C {} -j N", quote(&dir.to_string_lossy())?),
        Format::Snakemake => format!("snakemake -d {} --cores N", quote(&dir.to_string_lossy())?),
    };
    let written = if kept {
        format!("{FILE_NAME} kept (the same plan), {name} written")
    } else {
        format!("{FILE_NAME} and {name} written")
    };
    println!(
        "{}: {} of at least {} ({} in all); {written}; generate and check them with `{run}`",
        dir.display(),
        chariot_cli::count(shards as u64, "shard", "shards"),
        chariot_cli::count(positions_per_shard, "position", "positions"),
        positions_per_shard.saturating_mul(shards as u64),
    );
    Ok(())
}

/// The manifest of `shards` shards: shard `i` is `shard-I.bin` (`I` at least four digits), its
/// seed the `i`-th number of the generator seeded with `seed`.
fn plan(
    shards: usize,
    seed: u64,
    settings: &ShardSettings,
    planned_by: String,
) -> anyhow::Result<Manifest> {
    let width = (shards - 1).to_string().len().max(4);
    let mut rng = Rng::seeded(seed);
    let shards = (0..shards)
        .map(|i| {
            let file = format!("shard-{i:0width$}.bin");
            let seed = rng.next_u64();
            let command = format!(
                "chariot datagen --shard --out {} {}",
                quote(&file)?,
                join(&settings_args(seed, settings))?
            );
            Ok(Shard {
                file,
                seed,
                settings: settings.clone(),
                command,
                bytes: None,
                sha256: None,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Manifest {
        format: manifest::FORMAT.to_owned(),
        version: manifest::VERSION,
        planned_by,
        program: format!("chariot {}", crate::VERSION),
        seed,
        shards,
    })
}

/// Why two manifests are not one plan, or `None` when every shard is the same.
fn different_plans(old: &Manifest, new: &Manifest) -> Option<String> {
    if old.shards.len() != new.shards.len() {
        return Some(format!(
            "{} where this plan has {}",
            chariot_cli::count(old.shards.len() as u64, "shard", "shards"),
            new.shards.len()
        ));
    }
    old.shards
        .iter()
        .zip(&new.shards)
        .find(|(a, b)| !a.same_plan(b))
        .map(|(a, _)| format!("{} is planned differently", a.file))
}

/// The arguments of `chariot datagen --shard --out FILE` that make a shard's games.
fn settings_args(seed: u64, s: &ShardSettings) -> Vec<String> {
    let mut args: Vec<String> = [
        "--positions",
        &s.positions.to_string(),
        "--nodes",
        &s.nodes.to_string(),
        "--seed",
        &seed.to_string(),
        "--book-plies",
        &s.book_plies.to_string(),
        "--random-plies",
        &s.random_plies.to_string(),
    ]
    .map(str::to_owned)
    .to_vec();
    match &s.book {
        Book::BuiltIn => {}
        Book::None => args.push("--no-book".to_owned()),
        Book::Files(files) => {
            let list: Vec<String> = files
                .iter()
                .map(|f| f.path.to_string_lossy().into_owned())
                .collect();
            args.extend(["--book".to_owned(), list.join(";")]);
        }
    }
    match &s.evaluation {
        Evaluation::BuiltInNetwork => {}
        Evaluation::HandWritten => args.push("--no-nnue".to_owned()),
        Evaluation::Network(f) => {
            args.extend([
                "--evalfile".to_owned(),
                f.path.to_string_lossy().into_owned(),
            ]);
        }
    }
    args.push("--quiet".to_owned());
    args
}

/// The book the shards walk: each file of `--book` opened once (so that a bad one stops the
/// plan, not every job), by its absolute path and digest.
fn book_of(play: &Play) -> anyhow::Result<Book> {
    if play.no_book {
        return Ok(Book::None);
    }
    let Some(list) = &play.book else {
        return Ok(Book::BuiltIn);
    };
    let paths = resources::parse_list(&list.to_string_lossy());
    resources::load_books(&paths).context("--book")?;
    let files = paths
        .iter()
        .map(|p| input_file(p).context("--book"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if files.is_empty() {
        return Ok(Book::BuiltIn);
    }
    Ok(Book::Files(files))
}

/// The evaluation of the shards' searches: a network file is loaded once to check it.
fn evaluation_of(play: &Play) -> anyhow::Result<Evaluation> {
    match (&play.evalfile, play.no_nnue) {
        (_, true) => Ok(Evaluation::HandWritten),
        (None, false) => Ok(Evaluation::BuiltInNetwork),
        (Some(path), false) => {
            resources::load_network_file(path).context("--evalfile")?;
            Ok(Evaluation::Network(input_file(path).context("--evalfile")?))
        }
    }
}

/// A file the jobs read: its absolute path (they run elsewhere) and its digest.
fn input_file(path: &Path) -> anyhow::Result<InputFile> {
    let absolute = std::fs::canonicalize(path).with_context(|| format!("{}", path.display()))?;
    let text = absolute.to_string_lossy();
    if absolute.to_str().is_none() || text.contains(['\n', '\r']) {
        return Err(chariot_cli::usage(format!(
            "{}: a path a workflow file can hold has no line breaks and is valid UTF-8",
            absolute.display()
        )));
    }
    Ok(InputFile {
        sha256: manifest::sha256_of(&absolute)?,
        path: absolute,
    })
}

/// The command line of this run, as `chariot ARGS` (the program's own path left out).
fn origin() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quoted =
        shlex::try_join(args.iter().map(String::as_str)).unwrap_or_else(|_| args.join(" "));
    format!("chariot {quoted}")
}

/// Words as one POSIX shell command line.
fn join(words: &[String]) -> anyhow::Result<String> {
    shlex::try_join(words.iter().map(String::as_str))
        .map_err(|e| chariot_cli::usage(format!("{e}: {words:?}")))
}

fn quote(word: &str) -> anyhow::Result<String> {
    join(&[word.to_owned()])
}

/// A job's time limit for a cluster, minutes: see [`POSITION_NODES_PER_SECOND`].
fn shard_minutes(s: &ShardSettings) -> u64 {
    let seconds = s.positions.saturating_mul(s.nodes) / POSITION_NODES_PER_SECOND;
    (seconds.saturating_mul(3) / 60).max(10)
}

/// The shards' common settings in words, for a workflow file's head.
fn describe(m: &Manifest) -> String {
    let Some(first) = m.shards.first() else {
        return String::new();
    };
    let s = &first.settings;
    format!(
        "{} of at least {} at {} nodes a move",
        chariot_cli::count(m.shards.len() as u64, "shard", "shards"),
        chariot_cli::count(s.positions, "position", "positions"),
        s.nodes
    )
}

/// A shard's command after `chariot datagen --shard --out FILE`, as the manifest has it.
fn settings_part(shard: &Shard) -> anyhow::Result<String> {
    join(&settings_args(shard.seed, &shard.settings))
}

/// The plan as a Makefile for `make -C DIR -j N [CHARIOT=PROGRAM]`: one rule per shard, the
/// default target `all`, which checks and records every shard once all are there, and
/// `shards`, which only generates them.
fn makefile(m: &Manifest) -> anyhow::Result<String> {
    let mut out = String::new();
    for line in [
        format!("# Written by `{}`.", m.planned_by),
        format!("# {}.", describe(m)),
        "# In this directory, `make -j N` generates the shards not yet here, each one".to_owned(),
        "# `chariot datagen --shard` job on one thread (seeds and settings in the manifest),"
            .to_owned(),
        "# then checks every shard against the manifest and records the size and SHA-256 of"
            .to_owned(),
        "# new ones (`chariot datagen-verify --record .`); `make shards` only generates them."
            .to_owned(),
        "# CHARIOT is the program: `make -j N CHARIOT=/path/to/chariot`.".to_owned(),
        "CHARIOT ?= chariot".to_owned(),
        String::new(),
        "SHARDS = \\".to_owned(),
    ] {
        let _ = writeln!(out, "{line}");
    }
    for (i, shard) in m.shards.iter().enumerate() {
        let end = if i + 1 == m.shards.len() { "" } else { " \\" };
        let _ = writeln!(out, "  {}{end}", shard.file);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, ".PHONY: all shards");
    let _ = writeln!(out, "all: $(SHARDS)");
    let _ = writeln!(out, "\t$(CHARIOT) datagen-verify --record .");
    let _ = writeln!(out, "shards: $(SHARDS)");
    for shard in &m.shards {
        let _ = writeln!(out);
        let _ = writeln!(out, "{}:", shard.file);
        let _ = writeln!(
            out,
            "\t$(CHARIOT) datagen --shard --out $@ {}",
            settings_part(shard)?.replace('$', "$$")
        );
    }
    Ok(out)
}

/// The plan as a Snakefile for `snakemake -d DIR --cores N` or a cluster executor: the rule
/// `shard` is each shard's job (one thread, its memory and time for the cluster), the default
/// rule `all` checks and records every shard once all are there (on the machine Snakemake runs
/// on), and `shards` only generates them. `--config chariot=PROGRAM` names the program.
fn snakefile(m: &Manifest) -> anyhow::Result<String> {
    let minutes = m.shards.first().map_or(10, |s| shard_minutes(&s.settings));
    // A JSON string is a Python string literal.
    let literal = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut out = String::new();
    for line in [
        format!("# Written by `{}`.", m.planned_by),
        format!("# {}.", describe(m)),
        "# In this directory, `snakemake --cores N` generates the shards not yet here, each one"
            .to_owned(),
        "# `chariot datagen --shard` job on one thread (seeds and settings in the manifest),"
            .to_owned(),
        "# then checks every shard against the manifest and records the size and SHA-256 of"
            .to_owned(),
        "# new ones (`chariot datagen-verify --record .`); `snakemake shards` only generates"
            .to_owned(),
        "# them. `--config chariot=/path/to/chariot` names the program. On a cluster, add an"
            .to_owned(),
        format!(
            "# executor (docs/tuning.md); each job asks for {SHARD_MEMORY_MIB} MiB and {minutes} minutes."
        ),
        "CHARIOT = config.get(\"chariot\", \"chariot\")".to_owned(),
        String::new(),
        "# Each shard's number: the arguments of its `chariot datagen --shard --out FILE`."
            .to_owned(),
        "SHARDS = {".to_owned(),
    ] {
        let _ = writeln!(out, "{line}");
    }
    for shard in &m.shards {
        let number = shard
            .file
            .strip_prefix("shard-")
            .and_then(|f| f.strip_suffix(".bin"))
            .unwrap_or(&shard.file);
        let _ = writeln!(
            out,
            "    {}: {},",
            literal(number),
            literal(&settings_part(shard)?)
        );
    }
    for line in [
        "}",
        "",
        "localrules: all, shards",
        "",
        "rule all:",
        "    input: expand(\"shard-{n}.bin\", n=SHARDS), \"manifest.json\"",
        "    shell: \"{CHARIOT} datagen-verify --record .\"",
        "",
        "rule shards:",
        "    input: expand(\"shard-{n}.bin\", n=SHARDS)",
        "",
        "rule shard:",
        "    output: \"shard-{n}.bin\"",
        "    wildcard_constraints: n = \"[0-9]+\"",
        "    threads: 1",
    ] {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "    resources: mem_mb = {SHARD_MEMORY_MIB}, runtime = {minutes}"
    );
    let _ = writeln!(out, "    params: args = lambda w: SHARDS[w.n]");
    let _ = writeln!(
        out,
        "    shell: \"{{CHARIOT}} datagen --shard --out {{output}} {{params.args}}\""
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> ShardSettings {
        ShardSettings {
            positions: 50,
            nodes: 300,
            book: Book::None,
            book_plies: 12,
            random_plies: 6,
            evaluation: Evaluation::HandWritten,
        }
    }

    #[test]
    fn shard_seeds_come_from_the_plan_seed_and_a_longer_plan_keeps_the_first_shards() {
        let two = plan(2, 9, &settings(), "test".into()).unwrap();
        let three = plan(3, 9, &settings(), "test".into()).unwrap();
        assert_eq!(two.shards[..], three.shards[..2]);
        assert_ne!(two.shards[0].seed, two.shards[1].seed);
        assert_ne!(
            plan(2, 10, &settings(), "test".into()).unwrap().shards[0].seed,
            two.shards[0].seed
        );
        assert_eq!(three.shards[2].file, "shard-0002.bin");
        assert_eq!(
            two.shards[1].command,
            format!(
                "chariot datagen --shard --out shard-0001.bin --positions 50 --nodes 300 \
                 --seed {} --book-plies 12 --random-plies 6 --no-book --no-nnue --quiet",
                two.shards[1].seed
            )
        );
        assert_eq!(different_plans(&two, &two), None);
        let e = different_plans(&two, &three).unwrap();
        assert!(e.contains("2 shards"), "{e}");
        let wide = plan(10_001, 1, &settings(), "test".into()).unwrap();
        assert_eq!(wide.shards[10_000].file, "shard-10000.bin");
    }

    #[test]
    fn paths_are_quoted_for_the_shell_and_for_make() {
        let mut s = settings();
        s.evaluation = Evaluation::Network(InputFile {
            path: "/nets/a net$1.nnue".into(),
            sha256: "0".repeat(64),
        });
        let m = plan(1, 1, &s, "test".into()).unwrap();
        assert!(
            m.shards[0]
                .command
                .ends_with(" --evalfile '/nets/a net$1.nnue' --quiet"),
            "{}",
            m.shards[0].command
        );
        let make = makefile(&m).unwrap();
        assert!(make.contains("--evalfile '/nets/a net$$1.nnue'"), "{make}");
        assert!(
            make.contains(
                "\nshard-0000.bin:\n\t$(CHARIOT) datagen --shard --out $@ --positions 50 "
            ),
            "{make}"
        );
        assert!(make.contains("all: $(SHARDS)\n\t$(CHARIOT) datagen-verify --record .\n"));
        let snake = snakefile(&m).unwrap();
        assert!(
            snake.contains("    \"0000\": \"--positions 50 --nodes 300 --seed "),
            "{snake}"
        );
        assert!(snake.contains("runtime = 10"), "{snake}");
    }

    #[test]
    fn a_cluster_job_asks_for_three_times_the_measured_time() {
        let mut s = settings();
        s.positions = 100_000;
        s.nodes = 5_000;
        // 100,000 x 5,000 / 2.2 M = 227 s, three times that 11 minutes.
        assert_eq!(shard_minutes(&s), 11);
        s.positions = 1_000_000;
        assert_eq!(shard_minutes(&s), 113);
    }
}
