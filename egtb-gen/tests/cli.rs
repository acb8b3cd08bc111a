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
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    // Black to move, not in check: lost.
    assert!(lines[0].contains("\"wdl\":\"loss\""), "{}", lines[0]);
    // Red to move: mate in one with the rook on the d-file? Whatever the move, a win in 1.
    assert!(
        lines[1].contains("\"wdl\":\"win\"") && lines[1].contains("\"dtm\":"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("\"best\":\""), "{}", lines[1]);
    // Checkmated: loss at 0, no best move.
    assert!(
        lines[2].contains("\"wdl\":\"loss\",\"dtm\":0,\"best\":null"),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains("\"error\""), "{}", lines[3]);
    assert_eq!(code, 1, "an unreadable FEN makes the exit code 1");
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
    let (code, out, err) = run(bin().arg("info").arg(data().join("KRK.egtb")), "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("table      KRK") && out.contains("longest    4 plies"),
        "{out}"
    );
}

#[test]
fn corrupt_table_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("chariot-egtb-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = std::fs::read(data().join("KRK.egtb")).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0xff;
    let bad = dir.join("KRK.egtb");
    std::fs::write(&bad, &bytes).unwrap();
    std::fs::copy(data().join("KK.egtb"), dir.join("KK.egtb")).unwrap();
    let (code, _, err) = run(bin().arg("verify").arg(&bad), "");
    assert_eq!(code, 1, "a failed check exits 1");
    assert!(err.contains("corrupted block 0"), "{err}");
    let (code, _, err) = run(bin().arg("gen").arg("KXK").arg("--dir").arg(&dir), "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown piece letter 'X'"), "{err}");
}

#[test]
fn rule_values_in_gen_info_probe_and_verify() {
    let dir = std::env::temp_dir().join(format!("chariot-egtb-cli-rule-{}", std::process::id()));
    let (code, _, err) = run(bin().arg("gen").arg("KRKN").arg("--dir").arg(&dir), "");
    assert_eq!(code, 0, "{err}");
    let table = dir.join("KRKN.egtb");
    let (code, out, err) = run(bin().arg("info").arg(&table), "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("by the perpetual-check rule: wins")
            && out.contains("perpetual check judged; decides 1597 positions")
            && out.contains("format version 2"),
        "{out}"
    );
    let (code, out, err) = run(
        bin().arg("probe").arg("--dir").arg(&dir).arg("--json"),
        "9/4k4/9/9/9/9/9/3n5/9/3K2R2 b - - 0 1\n4k4/9/9/9/9/9/9/9/9/3K1R3 b\n",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("\"wdl\":\"loss\",\"dtm\":null,\"best\":\"d2b1\"")
            && lines[0].contains("\"by_rule\":true,\"rule_rank\":{\"stage\":1,\"plies\":2}"),
        "{out}"
    );
    assert!(
        lines[1].contains("\"by_rule\":false,\"rule_rank\":null"),
        "{out}"
    );
    let (code, out, err) = run(
        bin().arg("probe").arg("--dir").arg(&dir).arg("--no-line"),
        "9/4k4/9/9/8R/9/2n6/9/3K5/9 w - - 0 1\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("win by the perpetual-check rule (stage 1, 1 plies); best d1d2"),
        "{out}"
    );
    let (code, out, err) = run(bin().arg("verify").arg(&table), "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("KRKN.egtb: ok"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
