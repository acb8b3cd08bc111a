//! `scripts/egtb-manifest.py`, a set's record, around `egtb-gen repack`: a table's record keeps
//! its checks when its files are repacked to format version 3 and the run says so
//! (`--repacked`); any other change of a digest is an error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_egtb-gen"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether python3 is here to run the record's script (a test says it skips when not).
fn have_python() -> bool {
    let here = Command::new("python3").arg("--version").output().is_ok();
    if !here {
        eprintln!("skipped: no python3 on this machine (the record's script needs it)");
    }
    here
}

fn manifest(dir: &Path, record: &Path, extra: &[&str]) -> Output {
    Command::new("python3")
        .arg(repo().join("scripts/egtb-manifest.py"))
        .arg("--dir")
        .arg(dir)
        .arg("--out")
        .arg(record)
        .arg("--egtb-gen")
        .arg(bin())
        .args(extra)
        .output()
        .unwrap()
}

/// The standard output of `egtb-gen ARGS FILES`, which must succeed.
fn egtb_gen(args: &[&str], files: &[PathBuf]) -> Vec<u8> {
    let out = Command::new(bin()).args(args).args(files).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "egtb-gen {args:?}: {stdout}");
    out.stdout
}

/// The record's line of `table`, by column name.
fn line(record: &Path, table: &str) -> std::collections::HashMap<String, String> {
    let text = std::fs::read_to_string(record).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let fields: Vec<&str> = lines
        .find(|l| l.starts_with(&format!("{table}\t")))
        .unwrap_or_else(|| panic!("no line for {table}: {text}"))
        .split('\t')
        .collect();
    header
        .iter()
        .zip(fields)
        .map(|(h, f)| (h.to_string(), f.to_string()))
        .collect()
}

#[test]
fn a_repacked_table_keeps_its_checks_and_other_changes_are_errors() {
    if !have_python() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let tables = work.path().join("tables");
    std::fs::create_dir(&tables).unwrap();
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/version1");
    for name in ["KNAK.egtb", "KNAK.dtc.egtb"] {
        std::fs::copy(fixtures.join(name), tables.join(name)).unwrap();
    }
    // The tables its captures lead to, for verify (they are no table of the record: no DTC
    // file beside them is needed, the script lists the tables by their DTC files).
    for name in ["KK.egtb", "KNK.egtb", "KAK.egtb"] {
        std::fs::copy(repo().join("data/egtb").join(name), tables.join(name)).unwrap();
    }
    let verdicts = work.path().join("verify.jsonl");
    let knak = [tables.join("KNAK.egtb"), tables.join("KNAK.dtc.egtb")];
    let stdout = egtb_gen(&["verify", "--json"], &knak);
    std::fs::write(&verdicts, stdout).unwrap();
    let record = work.path().join("record.tsv");
    let verify = verdicts.to_str().unwrap();
    let out = manifest(&tables, &record, &["--verify", verify]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let before = line(&record, "KNAK");
    assert_eq!(before["verify"], "ok");
    assert_eq!(before["format"], "1");

    egtb_gen(&["repack"], &knak);
    // Without --repacked a changed digest is an error, and the record is left as it was.
    let out = manifest(&tables, &record, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("KNAK: the files' digests differ"), "{err}");
    assert_eq!(line(&record, "KNAK")["dtm_sha256"], before["dtm_sha256"]);
    // With it, the new digests and format, the checks kept.
    let out = manifest(&tables, &record, &["--repacked"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = line(&record, "KNAK");
    assert_eq!(after["format"], "3");
    assert_eq!(after["verify"], "ok");
    assert_ne!(after["dtm_sha256"], before["dtm_sha256"]);
    let size = std::fs::metadata(tables.join("KNAK.egtb")).unwrap().len();
    assert_eq!(after["dtm_bytes"], size.to_string());
    // A version 3 file whose digest then differs is an error even with --repacked.
    let text = std::fs::read_to_string(&record)
        .unwrap()
        .replace(&after["dtc_sha256"], &"0".repeat(64));
    std::fs::write(&record, text).unwrap();
    let out = manifest(&tables, &record, &["--repacked"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a version 1 or 2 file repacked"), "{err}");
}

/// The goals `--todo` prints for a plan and a record: `(table, check)` pairs.
fn todo(plan: &Path, record: &Path, only: &[&str]) -> Vec<String> {
    let mut extra = vec!["--todo", plan.to_str().unwrap()];
    if !only.is_empty() {
        extra.push("--only");
        extra.extend(only);
    }
    let out = manifest(Path::new("T"), record, &extra);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn todo_lists_the_checks_the_record_lacks_as_make_goals() {
    if !have_python() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let plan = work.path().join("small.mk");
    let plan_str = plan.to_str().unwrap();
    egtb_gen(
        &["plan", "--set", "small", "--dir", "T", "--out", plan_str],
        &[],
    );
    let text = std::fs::read_to_string(&plan).unwrap();
    let order: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("$(DIR)/")?.split_once(".verify.json:"))
        .map(|(t, _)| t)
        .collect();
    assert_eq!(order.len(), 15, "{text}");
    // A record: KK done, KRK verified only, KNK's crosscheck failed, the rest not there.
    let record = work.path().join("record.tsv");
    let mut tsv = String::from(
        "table\tentries\tgen_cpu_s\tgen_peak_mib\tdtm_bytes\tdtc_bytes\tdtm_sha256\tdtc_sha256\tverify\tcrosscheck\tformat\n",
    );
    for (t, v, c) in [
        ("KK", "ok", "ok"),
        ("KRK", "ok", "-"),
        ("KNK", "ok", "FAILED"),
    ] {
        tsv += &format!("{t}\t90\t0.0\t5\t1\t1\ta\tb\t{v}\t{c}\t1\n");
    }
    std::fs::write(&record, tsv).unwrap();

    let mut expected = Vec::new();
    for t in &order {
        match *t {
            "KK" => {}
            "KRK" | "KNK" => expected.push(format!("T/{t}.crosscheck.json")),
            _ => {
                expected.push(format!("T/{t}.verify.json"));
                expected.push(format!("T/{t}.crosscheck.json"));
            }
        }
    }
    let goals = todo(&plan, &record, &[]);
    assert_eq!(goals, expected);
    // The record is only read.
    assert!(
        std::fs::read_to_string(&record)
            .unwrap()
            .starts_with("table\t")
    );
    // --only: those tables' goals, in the plan's order.
    let goals = todo(&plan, &record, &["KRK", "KK", "KCK"]);
    let kck: Vec<String> = ["T/KCK.verify.json", "T/KCK.crosscheck.json"]
        .map(String::from)
        .into();
    let mut want = vec!["T/KRK.crosscheck.json".to_string()];
    if order.iter().position(|t| *t == "KCK") < order.iter().position(|t| *t == "KRK") {
        want.splice(0..0, kck);
    } else {
        want.extend(kck);
    }
    assert_eq!(goals, want);
    // The goals are the plan's own targets: make accepts them (a dry run).
    if Command::new("make").arg("--version").output().is_ok() {
        let all = todo(&plan, &record, &[]);
        let out = Command::new("make")
            .current_dir(work.path())
            .args(["-n", "-f", plan_str, "DIR=T", "EGTB_GEN=true"])
            .args(&all)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A table not in the plan, and a file that is no plan, are usage errors (exit status 2).
    let out = manifest(
        Path::new("T"),
        &record,
        &["--todo", plan_str, "--only", "KRKR"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("KRKR"));
    let out = manifest(
        Path::new("T"),
        &record,
        &["--todo", record.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a Makefile of `egtb-gen plan`"));
}
