//! The `chariot` binary's tools, run as processes.

use chariot::levels::Level;
use chariot::search::bench;

#[test]
fn bench_command_takes_a_pruning_level_and_rejects_a_bad_one() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let out = std::process::Command::new(chariot)
        .args(["bench", "3", "--pruning", "small"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let small = bench::run_with(3, Level::Small, |_, _, _| {}).nodes;
    assert!(text.contains(&format!("Total nodes: {small}")), "{text}");
    let out = std::process::Command::new(chariot)
        .args(["bench", "3", "--pruning", "lots"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("pruning") && err.contains("\"lots\""), "{err}");
}
