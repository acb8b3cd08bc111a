//! Sharded data generation as a user runs it: `chariot datagen --shard` gives the same bytes
//! every time; a plan of two small shards (`datagen-plan`) run by `make -j 2` is accepted by
//! `datagen-verify`, a lost shard is generated again byte for byte, a spoilt one is named with
//! the command that makes it again; the Snakefile of the same plan passes Snakemake's dry run
//! and a real run of its two shards gives the same files.
//!
//! Snakemake must be installed (`.ci/run` installs it); without it the Snakemake test fails
//! and says so, unless `CHARIOT_SKIP_SNAKEMAKE=1` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");

/// The settings of every small plan here: two shards of 50 positions at 300 nodes a move with
/// the hand-written evaluation (about a second a shard on one core).
const SMALL: [&str; 8] = [
    "--shards",
    "2",
    "--positions-per-shard",
    "50",
    "--nodes",
    "300",
    "--seed",
    "5",
];

fn chariot(args: &[&str]) -> Output {
    Command::new(CHARIOT).args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn plan(dir: &Path, format: &str) -> Output {
    let dir = dir.to_str().unwrap();
    chariot(
        &[
            &["datagen-plan"][..],
            &SMALL,
            &["--no-nnue", "--dir", dir, "--format", format],
        ]
        .concat(),
    )
}

fn verify(dir: &Path) -> Output {
    chariot(&["datagen-verify", dir.to_str().unwrap()])
}

fn shard(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("shard-{n:04}.bin"))
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

fn make(dir: &Path) -> Output {
    Command::new("make")
        .arg("-C")
        .arg(dir)
        .args(["-j", "2"])
        .arg(format!("CHARIOT={CHARIOT}"))
        .output()
        .expect("`make` runs the plan's Makefile: install make")
}

#[test]
fn a_shard_generated_again_has_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let generate = |name: &str, more: &[&str]| {
        let out = dir.path().join(name);
        let args = [
            &[
                "datagen",
                "--shard",
                "--out",
                out.to_str().unwrap(),
                "--positions",
                "40",
                "--nodes",
                "300",
                "--seed",
                "11",
                "--quiet",
            ][..],
            more,
        ]
        .concat();
        let run = chariot(&args);
        assert!(run.status.success(), "{}", text(&run));
        std::fs::read(&out).unwrap()
    };
    // The built-in network (the default) and the hand-written evaluation.
    for more in [&[][..], &["--no-nnue"][..]] {
        let first = generate("a.bin", more);
        assert!(first.len() > 16 + 40 * 32, "{} bytes", first.len());
        assert_eq!(generate("b.bin", more), first);
        // Into an existing file, a shard replaces it rather than adding to it.
        assert_eq!(generate("a.bin", more), first);
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".part")), "{names:?}");
    let out = dir.path().join("c.bin");
    let threads = chariot(&[
        "datagen",
        "--shard",
        "--threads",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(threads.status.code(), Some(2), "{}", text(&threads));
    assert!(text(&threads).contains("one thread"), "{}", text(&threads));
}

#[test]
fn make_runs_a_plan_regenerates_a_lost_shard_and_verify_names_a_spoilt_one() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("data");
    let planned = plan(&dir, "make");
    assert!(planned.status.success(), "{}", text(&planned));
    let manifest_before = manifest(&dir);
    assert_eq!(
        manifest_before["shards"][0]["sha256"],
        serde_json::Value::Null
    );
    let unchecked = verify(&dir);
    assert_eq!(unchecked.status.code(), Some(1), "{}", text(&unchecked));
    assert!(
        text(&unchecked).contains("shard-0001.bin: missing"),
        "{}",
        text(&unchecked)
    );

    let run = make(&dir);
    assert!(run.status.success(), "{}", text(&run));
    assert!(
        text(&run).contains("2 recorded in manifest.json"),
        "{}",
        text(&run)
    );
    let recorded = manifest(&dir);
    for i in 0..2 {
        let bytes = std::fs::read(shard(&dir, i)).unwrap();
        assert_eq!(recorded["shards"][i]["bytes"], bytes.len() as u64);
        assert_eq!(
            recorded["shards"][i]["sha256"].as_str().unwrap().len(),
            64,
            "{recorded}"
        );
    }
    let checked = verify(&dir);
    assert!(checked.status.success(), "{}", text(&checked));
    assert!(
        text(&checked).contains("2 shards: 2 ok"),
        "{}",
        text(&checked)
    );

    // A lost shard is made again, byte for byte, and the check passes.
    let lost = std::fs::read(shard(&dir, 1)).unwrap();
    std::fs::remove_file(shard(&dir, 1)).unwrap();
    let again = make(&dir);
    assert!(again.status.success(), "{}", text(&again));
    assert_eq!(std::fs::read(shard(&dir, 1)).unwrap(), lost);
    assert_eq!(manifest(&dir), recorded);

    // A spoilt shard (one score changed, the size the same) fails the check, which names it
    // and gives the command that makes it again; make's run fails with it.
    let good = std::fs::read(shard(&dir, 0)).unwrap();
    let mut spoilt = good.clone();
    let last = spoilt.len() - 1;
    spoilt[last] ^= 0x10;
    std::fs::write(shard(&dir, 0), &spoilt).unwrap();
    let failed = verify(&dir);
    assert_eq!(failed.status.code(), Some(1), "{}", text(&failed));
    let said = text(&failed);
    assert!(
        said.contains("shard-0000.bin: differs from the manifest"),
        "{said}"
    );
    assert!(!said.contains("shard-0001.bin:"), "{said}");
    assert!(said.contains("1 different, 1 ok"), "{said}");
    assert!(!said.contains("note: the plan was made by"), "{said}");
    let command = said
        .lines()
        .find_map(|l| l.trim().strip_prefix("regenerate: "))
        .unwrap_or_else(|| panic!("no command in {said}"));
    assert!(
        command.contains("chariot datagen --shard --out shard-0000.bin --positions 50"),
        "{command}"
    );
    assert_eq!(
        make(&dir).status.code(),
        Some(2),
        "make fails with the check"
    );
    // The printed command, run as it is with `chariot` on the path, makes the shard again.
    let bin_dir = Path::new(CHARIOT).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let regenerated = Command::new("sh")
        .args(["-c", command])
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(regenerated.status.success(), "{}", text(&regenerated));
    assert_eq!(std::fs::read(shard(&dir, 0)).unwrap(), good);
    assert!(verify(&dir).status.success());

    // Cut short: truncated.
    std::fs::write(shard(&dir, 1), &lost[..lost.len() - 40]).unwrap();
    let cut = verify(&dir);
    assert_eq!(cut.status.code(), Some(1));
    assert!(
        text(&cut).contains("shard-0001.bin: truncated: ends in the middle of a record"),
        "{}",
        text(&cut)
    );

    // The manifest names the build that planned it (with its commit); a shard to make again
    // under a plan of another build is said to come out different.
    let program = recorded["program"].as_str().unwrap().to_owned();
    let version = text(&chariot(&["--version"]));
    assert!(
        program.starts_with("chariot ") && version.trim() == program,
        "{program:?} against {version:?}"
    );
    let mut other = manifest(&dir);
    other["program"] = serde_json::Value::from("chariot 0.0.9 (0000000)");
    std::fs::write(
        dir.join("manifest.json"),
        serde_json::to_string_pretty(&other).unwrap(),
    )
    .unwrap();
    let said = text(&verify(&dir));
    assert!(
        said.contains(&format!(
            "note: the plan was made by chariot 0.0.9 (0000000), this is {program}"
        )),
        "{said}"
    );
}

#[test]
fn a_directory_holds_one_plan() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("data");
    assert!(plan(&dir, "make").status.success());
    let first = manifest(&dir);
    // The same plan for the other workflow engine keeps the manifest.
    let snake = plan(&dir, "snakemake");
    assert!(snake.status.success(), "{}", text(&snake));
    assert!(
        text(&snake).contains("kept (the same plan)"),
        "{}",
        text(&snake)
    );
    assert!(dir.join("Snakefile").exists() && dir.join("Makefile").exists());
    assert_eq!(manifest(&dir), first);
    // Another plan is refused, and names the manifest.
    let other = chariot(&[
        "datagen-plan",
        "--shards",
        "2",
        "--positions-per-shard",
        "60",
        "--no-nnue",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(other.status.code(), Some(1), "{}", text(&other));
    assert!(
        text(&other).contains("manifest.json holds another plan"),
        "{}",
        text(&other)
    );
    let zero = chariot(&[
        "datagen-plan",
        "--shards",
        "0",
        "--positions-per-shard",
        "60",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(zero.status.code(), Some(2), "{}", text(&zero));
    let missing = chariot(&[
        "datagen-plan",
        "--shards",
        "1",
        "--positions-per-shard",
        "60",
        "--evalfile",
        "no/such.nnue",
        "--dir",
        work.path().join("other").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(1), "{}", text(&missing));
    assert!(
        text(&missing).contains("no/such.nnue"),
        "{}",
        text(&missing)
    );
}

#[test]
fn snakemake_runs_the_same_plan_dry_and_for_real() {
    let installed = Command::new("snakemake")
        .arg("--version")
        .output()
        .is_ok_and(|v| v.status.success());
    if !installed {
        if std::env::var_os("CHARIOT_SKIP_SNAKEMAKE").is_some_and(|v| v == "1") {
            eprintln!("skipped: snakemake is not installed and CHARIOT_SKIP_SNAKEMAKE=1");
            return;
        }
        panic!(
            "snakemake is not installed: `.ci/run` installs it (python3 -m venv, then pip \
             install snakemake); to skip this test set CHARIOT_SKIP_SNAKEMAKE=1"
        );
    }
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("data");
    let planned = plan(&dir, "snakemake");
    assert!(planned.status.success(), "{}", text(&planned));
    let snakemake = |args: &[&str]| {
        Command::new("snakemake")
            .current_dir(&dir)
            .args(args)
            .args(["--config", &format!("chariot={CHARIOT}")])
            .output()
            .unwrap()
    };
    let dry = snakemake(&["-n"]);
    assert!(dry.status.success(), "{}", text(&dry));
    let stats = text(&dry);
    // Snakemake's job table: the two shards' jobs and the check.
    assert_eq!(jobs_in(&stats, "shard").as_deref(), Some("2"), "{stats}");
    assert_eq!(jobs_in(&stats, "all").as_deref(), Some("1"), "{stats}");
    assert!(!shard(&dir, 0).exists(), "a dry run makes nothing");

    let run = snakemake(&["--cores", "2"]);
    assert!(run.status.success(), "{}", text(&run));
    assert!(
        text(&run).contains("2 recorded in manifest.json"),
        "{}",
        text(&run)
    );
    assert!(verify(&dir).status.success());
    // The same seed and settings under make give the same files.
    let other = work.path().join("by-make");
    assert!(plan(&other, "make").status.success());
    assert!(make(&other).status.success());
    for i in 0..2 {
        assert_eq!(
            std::fs::read(shard(&dir, i)).unwrap(),
            std::fs::read(shard(&other, i)).unwrap()
        );
    }
    // A lost shard is Snakemake's job again, and nothing else.
    std::fs::remove_file(shard(&dir, 1)).unwrap();
    let dry = snakemake(&["-n"]);
    let stats = text(&dry);
    assert_eq!(jobs_in(&stats, "shard").as_deref(), Some("1"), "{stats}");
}

/// The count of a rule's jobs in Snakemake's job table.
fn jobs_in(stats: &str, rule: &str) -> Option<String> {
    stats.lines().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some(rule)).then(|| words.next().map(str::to_owned))?
    })
}
