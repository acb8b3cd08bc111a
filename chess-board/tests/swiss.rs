//! The Swiss tournament through the Board's binary: pairings, byes, scoring and the table.

mod common;

use std::process::Command;

fn swiss(args: &[String]) -> String {
    let out = Command::new(common::board())
        .arg("swiss")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The final table's rows: (rank, name, points, opponent score).
fn final_table(out: &str) -> Vec<(usize, String, u32, u32)> {
    let table = out.split("Final standings").nth(1).unwrap();
    table
        .lines()
        .skip(2)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (
                w[0].parse().unwrap(),
                w[1].to_owned(),
                w[2].parse().unwrap(),
                w[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn three_crashing_agents_three_rounds() {
    // White crashes at its first move, so Black wins every game: the table follows the colours.
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("swiss.pgn");
    let crash = common::fake_cmd("@crash");
    let mut args: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|n| format!("--agent={n}={crash}"))
        .collect();
    args.extend(["--rounds", "3", "--seed", "42", "--time", "5", "--pgnout"].map(String::from));
    args.push(pgn.display().to_string());
    let out = swiss(&args);
    assert!(out.contains("3 agents, 3 rounds"), "{out}");
    // One bye a round, each player once.
    let byes: Vec<&str> = out
        .lines()
        .filter_map(|l| l.trim().strip_suffix(" has a bye (2 points)"))
        .collect();
    let mut sorted = byes.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["A", "B", "C"], "{out}");
    let table = final_table(&out);
    assert_eq!(table.len(), 3);
    // Three games of 2 points and three byes of 2.
    assert_eq!(table.iter().map(|r| r.2).sum::<u32>(), 12, "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    for round in ["1.1", "2.1", "3.1"] {
        assert!(text.contains(&format!("[Round \"{round}\"]")), "{text}");
    }
    assert_eq!(text.matches("[Result \"0-1\"]").count(), 3, "{text}");
    // Opponent scores: each player met the other two, so its opponent score is the total
    // minus its own points.
    for (_, name, points, opp) in &table {
        assert_eq!(points + opp, 12, "{name}: {out}");
    }
    // The same seed gives the same tournament.
    assert_eq!(final_table(&swiss(&args[..args.len() - 2])), table);
}

#[test]
fn chess_agents_and_a_crasher() {
    let Some(agent) = common::chess_agent() else {
        return;
    };
    let cmd = format!("{} --time 1", agent.display());
    let mut args: Vec<String> = ["A", "B", "C"]
        .iter()
        .map(|n| format!("--agent={n}={cmd}"))
        .collect();
    args.push(format!("--agent=Crash={}", common::fake_cmd("@crash")));
    args.extend(["--rounds", "2", "--seed", "1", "--time", "3"].map(String::from));
    let out = swiss(&args);
    eprintln!("{out}");
    let table = final_table(&out);
    assert_eq!(table.len(), 4);
    // Two rounds of two games: 8 points in all; the crasher loses both of its games.
    assert_eq!(table.iter().map(|r| r.2).sum::<u32>(), 8, "{out}");
    let crash = table.iter().find(|r| r.1 == "Crash").unwrap();
    assert_eq!(crash.2, 0, "{out}");
    assert_eq!(out.matches(" - ").count(), 4, "{out}");
}
