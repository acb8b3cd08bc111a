//! `egtb-gen plan`: the small set's Makefile, run by `make -j 2`, generates every table of the
//! set byte for byte as the shipped ones, a second run has nothing to do, and `make check`
//! verifies every table (a table that fails gets no verdict file); the Snakemake file names
//! the same jobs; bad arguments are usage errors.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_egtb-gen"))
}

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/egtb")
}

#[test]
fn the_small_sets_makefile_generates_the_shipped_tables() {
    if Command::new("make").arg("--version").output().is_err() {
        eprintln!("skipped: no `make` on this machine (the plan is a Makefile for it)");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let tables = work.path().join("tables");
    let makefile = work.path().join("Makefile");
    let out = bin()
        .args(["plan", "--set", "small", "--dir"])
        .arg(&tables)
        .arg("--out")
        .arg(&makefile)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let make = |args: &[&str]| {
        Command::new("make")
            .args(["-j", "2", "-f"])
            .arg(&makefile)
            .arg(format!("EGTB_GEN={}", env!("CARGO_BIN_EXE_egtb-gen")))
            .args(args)
            .output()
            .unwrap()
    };
    let run = make(&[]);
    assert!(
        run.status.success(),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let mut made: Vec<String> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    // The 12 tables of the set and the 3 they need (KK, KAK, KBK), each in DTM and DTC.
    assert_eq!(made.len(), 30, "{made:?}");
    assert_eq!(made.iter().filter(|n| n.ends_with(".dtc.egtb")).count(), 15);
    for name in &made {
        let ours = std::fs::read(tables.join(name)).unwrap();
        let theirs = std::fs::read(shipped().join(name)).unwrap();
        assert!(ours == theirs, "{name} differs from the shipped table");
    }
    // Nothing left to do.
    let again = make(&["-q"]);
    assert!(
        again.status.success(),
        "make -q: the tables are not up to date"
    );
    // `make check` verifies and cross-checks every table, a verdict file for each.
    let checked = make(&["check"]);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    let verdicts = |name: &str| std::fs::read_to_string(tables.join(name)).unwrap_or_default();
    for table in made.iter().filter_map(|n| n.strip_suffix(".dtc.egtb")) {
        for check in ["verify", "crosscheck"] {
            let text = verdicts(&format!("{table}.{check}.json"));
            assert_eq!(
                text.matches("\"ok\":true").count(),
                2,
                "{table} {check}: {text}"
            );
        }
    }
    assert!(make(&["-q", "check"]).status.success());
    // A table that fails its check gets no verdict file, and the run says so.
    std::fs::write(tables.join("KRKA.egtb"), b"not a table").unwrap();
    std::fs::remove_file(tables.join("KRKA.verify.json")).unwrap();
    let failed = make(&["verify"]);
    assert!(!failed.status.success(), "a failed verify passed");
    assert!(!tables.join("KRKA.verify.json").exists());
    let part = verdicts("KRKA.verify.json.part");
    assert!(
        part.contains("\"ok\":false") && part.contains("KRKA.egtb"),
        "{part}"
    );
    std::fs::copy(shipped().join("KRKA.egtb"), tables.join("KRKA.egtb")).unwrap();
    assert!(make(&["verify"]).status.success());
    // A job is done only when its DTC file (written last) is there too.
    std::fs::remove_file(tables.join("KRKA.dtc.egtb")).unwrap();
    assert!(!make(&["-q"]).status.success(), "make -q misses a DTC file");
    // Plans of one metric target that metric's files, and see these tables as made.
    for metric in ["dtm", "dtc"] {
        let out = bin()
            .args(["plan", "--set", "small", "--metric", metric, "--dir"])
            .arg(&tables)
            .arg("--out")
            .arg(&makefile)
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = std::fs::read_to_string(&makefile).unwrap();
        assert!(
            text.contains(&format!("--metric {metric} $(GEN_FLAGS)")),
            "{text}"
        );
        if metric == "dtc" {
            let rerun = make(&[]);
            assert!(rerun.status.success());
            assert!(tables.join("KRKA.dtc.egtb").exists());
        }
        assert!(make(&["-q"]).status.success(), "{metric}: not up to date");
    }
}

#[test]
fn the_snakemake_file_has_every_job_and_bad_arguments_are_usage_errors() {
    let out = bin()
        .args([
            "plan",
            "--set",
            "small",
            "--format",
            "snakemake",
            "--dir",
            "/t",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let needs = text
        .lines()
        .skip_while(|l| !l.starts_with("NEEDS = {"))
        .skip(1)
        .take_while(|l| *l != "}")
        .count();
    assert_eq!(needs, 15, "{text}");
    assert!(text.contains("DIR = config.get(\"dir\", \"/t\")"));
    assert!(text.contains("    \"KRKA\": [\"KAK\", \"KRK\"],"), "{text}");
    assert!(
        text.contains(
            "    shell: \"{EGTB_GEN} verify --json {DIR}/{wildcards.table}.egtb \
             {DIR}/{wildcards.table}.dtc.egtb > {output}\""
        ),
        "{text}"
    );
    for bad in [
        &["plan"][..],
        &["plan", "--set", "nothing"],
        &["plan", "KQK"],
        &["plan", "KRK", "--format", "ninja"],
    ] {
        let out = bin().args(bad).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
}
