//! `chariot datagen-verify DIR`: checks every shard of a plan against its manifest and says
//! which are missing, truncated, damaged or different from what was recorded, each with the
//! command that generates it again; with `--record`, the size and SHA-256 of every whole shard
//! not yet recorded are written into the manifest (the last job of a plan's workflow does this,
//! alone, so that no two jobs write the manifest at once).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chariot_cli::Exit;
use chariot_training::datagen::manifest::{
    self, Book, Evaluation, FILE_NAME, InputFile, Manifest, Verdict,
};

// The arguments of `chariot datagen-verify` (their help is the subcommand's, in `crate::cli`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The data directory, with its manifest.json.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Record the size and SHA-256 of each whole shard that the manifest has none of yet.
    #[arg(long)]
    record: bool,
}

/// Runs `chariot datagen-verify`: success when every shard is whole and, where recorded, the
/// same; failure (exit 1) when any must be generated again.
pub fn run(args: Args) -> anyhow::Result<Exit> {
    let Args { dir, record } = args;
    let path = dir.join(FILE_NAME);
    let mut manifest = Manifest::read(&path)?;
    let mut counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut recorded = 0u64;
    let mut bad_inputs: Vec<InputFile> = Vec::new();
    let mut faults = 0u64;
    for shard in &mut manifest.shards {
        let verdict = manifest::check_shard(&dir, shard);
        let word = match &verdict {
            Verdict::Ok => "ok",
            Verdict::Unrecorded { bytes, sha256 } if record => {
                shard.bytes = Some(*bytes);
                shard.sha256 = Some(sha256.clone());
                recorded += 1;
                "ok"
            }
            Verdict::Unrecorded { .. } => "not yet recorded",
            Verdict::Missing => "missing",
            Verdict::Unreadable(_) => "unreadable",
            Verdict::Truncated(_) => "truncated",
            Verdict::Damaged(_) => "damaged",
            Verdict::Differs { .. } => "different",
        };
        *counts.entry(word).or_default() += 1;
        if let Some(why) = fault(&verdict, shard.bytes, shard.sha256.as_deref()) {
            faults += 1;
            println!("{}: {why}", shard.file);
            println!("  regenerate: {}", in_dir(&dir, &shard.command));
            for input in inputs(&shard.settings.book, &shard.settings.evaluation) {
                if !bad_inputs.contains(input) && !unchanged(input) {
                    bad_inputs.push(input.clone());
                }
            }
        }
    }
    for input in &bad_inputs {
        println!(
            "note: {} is not the file planned (sha256 {}): shards made from it again will differ",
            input.path.display(),
            short(&input.sha256)
        );
    }
    let this = format!("chariot {}", crate::VERSION);
    if faults > 0 && manifest.program != this {
        println!(
            "note: the plan was made by {}, this is {this}: shards made by another build differ \
             from those its build made (run the commands with that build for the same bytes)",
            manifest.program
        );
    }
    if recorded > 0 {
        manifest.write(&path)?;
    }
    let bad: u64 = counts
        .iter()
        .filter(|(word, _)| !matches!(**word, "ok" | "not yet recorded"))
        .map(|(_, n)| n)
        .sum();
    let said: Vec<String> = counts
        .iter()
        .map(|(word, n)| format!("{n} {word}"))
        .collect();
    println!(
        "{}: {}: {}{}",
        dir.display(),
        chariot_cli::count(manifest.shards.len() as u64, "shard", "shards"),
        said.join(", "),
        if recorded > 0 {
            format!("; {recorded} recorded in {FILE_NAME} now")
        } else {
            String::new()
        }
    );
    Ok(Exit::from_ok(bad == 0, Exit::Failure))
}

/// What is wrong with a shard, or `None` when it need not be generated again.
fn fault(verdict: &Verdict, bytes: Option<u64>, sha256: Option<&str>) -> Option<String> {
    Some(match verdict {
        Verdict::Ok | Verdict::Unrecorded { .. } => return None,
        Verdict::Missing => "missing".to_owned(),
        Verdict::Unreadable(why) => format!("unreadable: {why}"),
        Verdict::Truncated(why) => format!("truncated: {why}"),
        Verdict::Damaged(why) => format!("damaged: {why}"),
        Verdict::Differs {
            bytes: now,
            sha256: digest,
        } => format!(
            "differs from the manifest: {now} bytes, sha256 {}; recorded {} bytes, sha256 {}",
            short(digest),
            bytes.map_or_else(|| "no".to_owned(), |b| b.to_string()),
            sha256.map_or("none", short)
        ),
    })
}

/// The files a shard's games read.
fn inputs<'a>(book: &'a Book, evaluation: &'a Evaluation) -> Vec<&'a InputFile> {
    let mut files: Vec<&InputFile> = match book {
        Book::Files(files) => files.iter().collect(),
        Book::BuiltIn | Book::None => Vec::new(),
    };
    if let Evaluation::Network(file) = evaluation {
        files.push(file);
    }
    files
}

/// Whether an input file still has its planned digest.
fn unchanged(input: &InputFile) -> bool {
    manifest::sha256_of(&input.path).is_ok_and(|digest| digest == input.sha256)
}

/// A command of the manifest (run in the data directory) as one to run from here.
fn in_dir(dir: &Path, command: &str) -> String {
    if dir == Path::new(".") || dir.as_os_str().is_empty() {
        return command.to_owned();
    }
    let text = dir.to_string_lossy();
    let quoted = shlex::try_quote(&text).map_or_else(|_| text.to_string(), |q| q.into_owned());
    format!("(cd {quoted} && {command})")
}

/// The first 16 digits of a digest, enough to tell two apart by eye.
fn short(digest: &str) -> &str {
    digest.get(..16).unwrap_or(digest)
}
