//! The command line on the shipped tables: probe (arguments and standard input, text and JSON),
//! info, verify, and errors for bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_egtb-gen"))
}

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/egtb")
}

fn run(cmd: &mut Command, stdin: &str) -> (i32, String, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn probe_json_from_stdin() {
    let fens = "4k4/9/9/9/9/9/9/9/9/3K1R3 b\n\
                3k5/9/9/9/9/9/9/9/9/4KR3 w\n\
                3k5/9/3R5/9/9/9/9/9/9/4K4 b\n\
                not a fen\n";
    let (code, out, _) = run(
        bin().arg("probe").arg("--dir").arg(data()).arg("--json"),
        fens,
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4, "{out}");
    // Black to move, not in check: lost.
    assert_eq!(lines[0]["wdl"], "loss", "{out}");
    assert!(
        lines[0]["line"].as_array().is_some_and(|l| !l.is_empty()),
        "{out}"
    );
    // Red to move: a win with a distance and a best move, every legal move valued, best first.
    assert_eq!(lines[1]["wdl"], "win", "{out}");
    assert!(
        lines[1]["dtm"].is_u64() && lines[1]["best"].is_string(),
        "{out}"
    );
    let moves = lines[1]["moves"].as_array().unwrap();
    let pos = chariot_rules::Position::from_fen("3k5/9/9/9/9/9/9/9/9/4KR3 w").unwrap();
    assert_eq!(moves.len(), pos.legal_move_list().len(), "{out}");
    assert_eq!(moves[0]["move"], lines[1]["best"], "{out}");
    assert_eq!(moves[0]["dtm"], lines[1]["dtm"], "{out}");
    // Checkmated: loss at 0, no best move, no moves.
    assert_eq!(lines[2]["wdl"], "loss");
    assert_eq!(lines[2]["dtm"], 0);
    assert!(lines[2]["best"].is_null() && lines[2]["moves"].as_array().unwrap().is_empty());
    assert!(lines[3]["error"].is_string(), "{out}");
    assert_eq!(code, 3, "an unreadable FEN makes the run partial (exit 3)");
}

#[test]
fn probe_value_only_gives_the_same_values_without_moves() {
    let fens = "4k4/9/9/9/9/9/9/9/9/3K1R3 b\n\
                3k5/9/9/9/9/9/9/9/9/4KR3 w\n\
                3k5/9/3R5/9/9/9/9/9/9/4K4 b\n";
    let full = json_lines(
        &run(
            bin().arg("probe").arg("--dir").arg(data()).arg("--json"),
            fens,
        )
        .1,
    );
    let (code, out, _) = run(
        bin()
            .arg("probe")
            .arg("--dir")
            .arg(data())
            .arg("--json")
            .arg("--value-only"),
        fens,
    );
    assert_eq!(code, 0, "{out}");
    let brief = json_lines(&out);
    assert_eq!(brief.len(), 3, "{out}");
    for (b, f) in brief.iter().zip(&full) {
        for key in ["fen", "metric", "wdl", "dtm", "dtc", "by_rule", "rule_rank"] {
            assert_eq!(b[key], f[key], "{key}: {out}");
        }
        assert!(b.get("moves").is_none() && b["best"].is_null() && b["line"].is_null());
    }
    let (_, text, _) = run(
        bin()
            .arg("probe")
            .arg("--dir")
            .arg(data())
            .arg("--value-only")
            .arg("3k5/9/9/9/9/9/9/9/9/4KR3 w"),
        "",
    );
    assert!(
        text.contains("win, mate in") && !text.contains("best"),
        "{text}"
    );
}

#[test]
fn probe_text_and_info() {
    let (code, out, err) = run(
        bin()
            .arg("probe")
            .arg("--dir")
            .arg(data())
            .arg("3k5/9/9/9/9/9/9/9/9/4KR3 w"),
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("win, mate in"), "{out}");
    // A draw has no line (it said "line " with nothing after it), and one ply is one ply.
    let (code, out, err) = run(
        bin()
            .arg("probe")
            .arg("--dir")
            .arg(data())
            .arg("4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1")
            .arg("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"),
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  draw; best d0d1\n"), "{out}");
    assert!(
        out.contains("win, mate in 1 ply; best e1e8; line e1e8\n"),
        "{out}"
    );
    let (_, out, _) = run(
        bin()
            .arg("probe")
            .arg("--json")
            .arg("--dir")
            .arg(data())
            .arg("4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1"),
        "",
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["line"].is_null(), "{out}");
    let (code, out, err) = run(bin().arg("info").arg(data().join("KRK.egtb")), "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("table      KRK") && out.contains("longest    4 plies"),
        "{out}"
    );
}

#[test]
fn corrupt_table_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut bytes = std::fs::read(data().join("KRK.egtb")).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0xff;
    let bad = dir.join("KRK.egtb");
    std::fs::write(&bad, &bytes).unwrap();
    std::fs::copy(data().join("KK.egtb"), dir.join("KK.egtb")).unwrap();
    let (code, out, _) = run(bin().arg("verify").arg(&bad), "");
    assert_eq!(code, 1, "a failed check exits 1");
    assert!(
        out.contains("KRK.egtb: error: ") && out.contains("corrupted block 0"),
        "the file and the reason: {out}"
    );
    let (code, _, err) = run(bin().arg("gen").arg("KXK").arg("--dir").arg(dir), "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown piece letter 'X'"), "{err}");
}

#[test]
fn rule_values_in_gen_info_probe_and_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (code, _, err) = run(bin().arg("gen").arg("KRKN").arg("--dir").arg(dir), "");
    assert_eq!(code, 0, "{err}");
    let table = dir.join("KRKN.egtb");
    let (code, out, err) = run(bin().arg("info").arg(&table), "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("by the perpetual check/chase rules:  wins")
            && out.contains("perpetual check/chase judged; decides 1597 positions")
            && out.contains("format version 3"),
        "{out}"
    );
    let (code, out, err) = run(
        bin().arg("probe").arg("--dir").arg(dir).arg("--json"),
        "9/4k4/9/9/9/9/9/3n5/9/3K2R2 b - - 0 1\n4k4/9/9/9/9/9/9/9/9/3K1R3 b\n",
    );
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["wdl"], "loss", "{out}");
    assert!(lines[0]["dtm"].is_null(), "{out}");
    assert_eq!(lines[0]["best"], "d2b1", "{out}");
    assert_eq!(lines[0]["by_rule"], true, "{out}");
    assert_eq!(lines[0]["rule_rank"]["stage"], 1, "{out}");
    assert_eq!(lines[0]["rule_rank"]["plies"], 2, "{out}");
    assert_eq!(lines[1]["by_rule"], false, "{out}");
    assert!(lines[1]["rule_rank"].is_null(), "{out}");
    let (code, out, err) = run(
        bin().arg("probe").arg("--dir").arg(dir).arg("--no-line"),
        "9/4k4/9/9/8R/9/2n6/9/3K5/9 w - - 0 1\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("win by the perpetual check/chase rules (stage 1, 1 ply); best d1d2"),
        "{out}"
    );
    let (code, out, err) = run(bin().arg("verify").arg(&table), "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("KRKN.egtb: ok"), "{out}");
}

/// A directory with the tables a KCK and a KRK position need, one of them damaged.
fn tables_with(damage: impl Fn(&std::path::Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["KK.egtb", "KRK.egtb", "KCK.egtb", "KCAK.egtb"] {
        std::fs::copy(data().join(name), dir.path().join(name)).unwrap();
    }
    damage(dir.path());
    dir
}

#[test]
fn a_truncated_table_is_skipped_with_a_warning_and_the_others_answer() {
    let dir = tables_with(|d| {
        let kcak = d.join("KCAK.egtb");
        let len = std::fs::metadata(&kcak).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&kcak)
            .unwrap()
            .set_len(len / 2)
            .unwrap();
    });
    let (code, out, err) = run(
        bin()
            .arg("probe")
            .arg("--dir")
            .arg(dir.path())
            .arg("3k5/9/9/9/9/9/9/9/9/C3K4 w - - 0 1"),
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("draw"), "{out}");
    assert!(
        err.contains("warning: skipped") && err.contains("KCAK.egtb: "),
        "the damaged file is named with its reason: {err}"
    );
}

#[test]
fn stdin_lines_that_are_not_utf8_are_reported_and_the_others_answered() {
    let mut input = b"3k5/9/9/9/9/9/9/9/9/4KR3 w\n".to_vec();
    input.extend_from_slice(b"\xff\xfe bad bytes\n");
    input.extend_from_slice(b"4k4/9/9/9/9/9/9/9/9/3K1R3 b\n");
    let mut child = bin()
        .arg("probe")
        .arg("--dir")
        .arg(data())
        .arg("--json")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0]["wdl"], "win");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("line 2: not UTF-8"),
        "{text}"
    );
    assert_eq!(lines[2]["wdl"], "loss");
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn info_and_verify_need_files_and_speak_json() {
    let (code, _, err) = run(bin().arg("info"), "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(bin().arg("verify"), "");
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = run(
        bin().arg("info").arg("--json").arg(data().join("KRK.egtb")),
        "",
    );
    assert_eq!(code, 0, "{err}");
    let info: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(info["table"], "KRK");
    assert_eq!(info["longest_plies"], 4);
    assert!(info["sides"][0].get("histogram").is_none(), "{out}");
    // With --distances: every decided position counted once at its distance, and the longest.
    let (code, out, err) = run(
        bin()
            .args(["info", "--json", "--distances", "--longest", "2"])
            .arg(data().join("KRK.egtb")),
        "",
    );
    assert_eq!(code, 0, "{err}");
    let full: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    for side in full["sides"].as_array().unwrap() {
        for (kind, count) in [("wins", &side["wins"]), ("losses", &side["losses"])] {
            let bars = side["histogram"][kind].as_array().unwrap();
            let sum: u64 = bars.iter().map(|b| b[1].as_u64().unwrap()).sum();
            assert_eq!(Some(sum), count.as_u64(), "{kind}: {out}");
        }
        assert_eq!(side["longest"].as_array().unwrap().len(), 2, "{out}");
    }
    assert_eq!(full["sides"][0]["longest"][0]["wdl"], "win", "{out}");
    assert_eq!(full["sides"][0]["longest"][0]["plies"], 3, "{out}");
    assert_eq!(full["sides"][1]["longest"][0]["plies"], 4, "{out}");
    assert_eq!(full["longest_fen"], info["longest_fen"], "{out}");
    let (code, out, err) = run(
        bin()
            .arg("verify")
            .arg("--json")
            .arg(data().join("KRK.egtb"))
            .arg(data().join("no-such.egtb")),
        "",
    );
    assert_eq!(code, 1, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["ok"], true, "{out}");
    assert_eq!(lines[1]["ok"], false, "{out}");
    assert!(
        lines[1]["error"].as_str().unwrap().contains("no-such.egtb"),
        "{out}"
    );
    // A missing file for info is a failure (1), not a usage mistake.
    let (code, _, err) = run(bin().arg("info").arg(data().join("no-such.egtb")), "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no-such.egtb"), "{err}");
}

/// The JSON objects of an output, one per line (each must parse).
fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn crosscheck_speaks_json_and_goes_on_past_a_missing_file() {
    let (code, out, err) = run(
        bin()
            .args(["crosscheck", "--json", "--samples", "10"])
            .arg(data().join("KRK.egtb"))
            .arg(data().join("no-such.egtb"))
            .arg(data().join("KCK.egtb")),
        "",
    );
    assert_eq!(code, 1, "one file could not be read: {err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0]["ok"], true, "{out}");
    assert_eq!(lines[0]["positions"], 10, "{out}");
    assert_eq!(lines[1]["ok"], false, "{out}");
    assert!(
        lines[1]["error"].as_str().unwrap().contains("no-such.egtb"),
        "{out}"
    );
    assert_eq!(
        lines[2]["ok"], true,
        "the file after it is still checked: {out}"
    );
    let (code, out, err) = run(
        bin()
            .args(["crosscheck", "--samples", "10"])
            .arg(data().join("KRK.egtb")),
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("10 positions in 1 table agree with a 3-ply mate search"),
        "{out}"
    );
}

/// Files written before version 3 (the engine's fixtures: `KCAKA` in version 1, `KRKN` in
/// version 2), in a fresh directory.
fn old_files() -> tempfile::TempDir {
    let from = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/data/egtb-scheme1");
    let dir = tempfile::tempdir().unwrap();
    for name in ["KCAKA.egtb", "KRKN.egtb"] {
        std::fs::copy(from.join(name), dir.path().join(name)).unwrap();
    }
    dir
}

#[test]
fn repack_rewrites_old_files_with_the_same_entries_and_keeps_a_damaged_one() {
    let dir = old_files();
    let files = ["KCAKA.egtb", "KRKN.egtb"].map(|n| dir.path().join(n));
    let info = |path: &PathBuf| {
        let (code, out, err) = run(bin().arg("info").arg("--json").arg(path), "");
        assert_eq!(code, 0, "{err}");
        let mut v = json_lines(&out).remove(0);
        let version = v["format_version"].take();
        let bytes = v["file_bytes"].take();
        (version, bytes, v)
    };
    let before: Vec<_> = files.iter().map(info).collect();
    assert_eq!(before[0].0, 1);
    assert_eq!(before[1].0, 2);
    let (code, out, err) = run(bin().arg("repack").arg("--json").args(&files), "");
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    for (line, (version, bytes, _)) in lines.iter().zip(&before) {
        assert_eq!(line["rewritten"], true, "{out}");
        assert_eq!(&line["version"], version, "{out}");
        assert_eq!(&line["before"], bytes, "{out}");
        assert!(line["after"].as_u64() < line["before"].as_u64(), "{out}");
    }
    // The same header (counts, longest mates, coding) and entries, in version 3.
    for (path, (_, _, old)) in files.iter().zip(&before) {
        let (version, _, new) = info(path);
        assert_eq!(version, 3);
        assert_eq!(&new, old, "{}", path.display());
    }
    let (code, out, _) = run(
        bin()
            .arg("probe")
            .arg("--dir")
            .arg(dir.path())
            .arg("--value-only")
            .arg("9/4k4/9/9/9/9/9/3n5/9/3K2R2 b - - 0 1"),
        "",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("loss by the perpetual check/chase rules"),
        "{out}"
    );
    // Again: nothing to do.
    let (code, out, _) = run(bin().arg("repack").args(&files), "");
    assert_eq!(code, 0);
    assert!(
        out.contains("KRKN.egtb: version 3 already, left as it is"),
        "{out}"
    );

    // A damaged old file is named, left as it was, and nothing is left beside it.
    let dir = old_files();
    let bad = dir.path().join("KRKN.egtb");
    let mut bytes = std::fs::read(&bad).unwrap();
    let n = bytes.len();
    bytes[n - 5] ^= 0x40;
    std::fs::write(&bad, &bytes).unwrap();
    let good = dir.path().join("KCAKA.egtb");
    let (code, out, _) = run(bin().arg("repack").arg(&bad).arg(&good), "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("KRKN.egtb: error: ") && out.contains("checksum"),
        "{out}"
    );
    assert!(out.contains("KCAKA.egtb: version 1 -> 3"), "{out}");
    assert_eq!(std::fs::read(&bad).unwrap(), bytes);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn block_sizes_the_readers_refuse_are_refused_before_generating() {
    let dir = tempfile::tempdir().unwrap();
    for size in ["0", "1048577"] {
        let (code, _, err) = run(
            bin()
                .args(["gen", "KRK", "--block-entries", size, "--dir"])
                .arg(dir.path()),
            "",
        );
        assert_eq!(code, 2, "--block-entries {size}: {err}");
        assert!(err.contains("--block-entries"), "{err}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // The largest block the readers take is written and read.
    let (code, _, err) = run(
        bin()
            .args(["gen", "KRK", "--block-entries", "1048576", "--dir"])
            .arg(dir.path()),
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(bin().arg("info").arg(dir.path().join("KRK.egtb")), "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 block of 1048576 entries"), "{out}");
}
