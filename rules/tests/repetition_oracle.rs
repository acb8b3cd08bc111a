//! The game judge against Fairy-Stockfish (`data/vectors/repetition.tsv`, made by
//! `scripts/oracle/repetition_cases.py` with pyffish).
//!
//! Every game is replayed with [`judge_game`]: the judge must say "ongoing" after every move but
//! the last (pyffish did) and give pyffish's result and reason after the last one. The few games
//! where the two rule sets differ on purpose are listed in [`KNOWN`], each with the section of
//! `docs/rules.md` that explains it; any other disagreement fails the test, and so does a listed
//! game that no longer disagrees or that the document does not name.

use std::collections::BTreeMap;
use std::path::PathBuf;

use chariot_rules::judge::{GameState, JudgeConfig, JudgeError, Reason, judge_game};
use chariot_rules::notation::parse_iccs;
use chariot_rules::{Move, Position};

/// Games where Chariot deliberately judges differently from pyffish: (id, section of
/// docs/rules.md that explains the difference).
const KNOWN: &[(u32, &str)] = &[
    (104, SLIDE_BACK),
    (149, SLIDE_BACK),
    (207, SLIDE_BACK),
    (236, SLIDE_BACK),
    (257, SLIDE_BACK),
    (271, SLIDE_BACK),
    (272, SLIDE_BACK),
    (297, SLIDE_BACK),
    (303, SLIDE_BACK),
    (313, SLIDE_BACK),
    (317, SLIDE_BACK),
    (322, SLIDE_BACK),
    (325, SLIDE_BACK),
    (334, SLIDE_BACK),
];

/// A chariot or cannon that moves along the line of an attack it already makes: Fairy-Stockfish
/// counts the attack as new when the line passes through the square the piece left.
const SLIDE_BACK: &str = "Sliding along the line of an old attack";

struct Case {
    line: usize,
    id: u32,
    kind: String,
    fen: String,
    moves: Vec<Move>,
    expected: (String, String),
}

fn path(parts: &[&str]) -> PathBuf {
    let mut p: PathBuf = [env!("CARGO_MANIFEST_DIR"), ".."].iter().collect();
    p.extend(parts);
    p
}

fn load() -> (String, Vec<Case>) {
    let file = path(&["data", "vectors", "repetition.tsv"]);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            cols.len(),
            7,
            "repetition.tsv:{}: expected 7 columns",
            i + 1
        );
        let moves = cols[3]
            .split_whitespace()
            .map(|m| parse_iccs(m).unwrap_or_else(|e| panic!("repetition.tsv:{}: {e}", i + 1)))
            .collect();
        cases.push(Case {
            line: i + 1,
            id: cols[0]
                .parse()
                .unwrap_or_else(|e| panic!("repetition.tsv:{}: id: {e}", i + 1)),
            kind: cols[1].to_owned(),
            fen: cols[2].to_owned(),
            moves,
            expected: (cols[4].to_owned(), cols[5].to_owned()),
        });
    }
    assert!(
        cases.len() >= 300,
        "repetition.tsv holds only {} games",
        cases.len()
    );
    (text, cases)
}

/// A result in the words of the data file: (result, reason).
fn words(result: GameState) -> (String, String) {
    let side = match result {
        GameState::Ongoing => return ("ongoing".into(), "-".into()),
        GameState::RedWins(_) => "red",
        GameState::BlackWins(_) => "black",
        GameState::Draw(_) => "draw",
    };
    let reason = match result.reason() {
        Some(Reason::Checkmate) => "checkmate",
        Some(Reason::Stalemate) => "stalemate",
        Some(Reason::PerpetualCheck) => "check",
        Some(Reason::PerpetualChase) => "chase",
        Some(Reason::Repetition) => "repetition",
        Some(Reason::MoveLimit { .. }) => "movelimit",
        None => "-",
    };
    (side.into(), reason.into())
}

#[test]
fn judge_agrees_with_pyffish() {
    let (text, cases) = load();
    let source = text
        .lines()
        .find(|l| l.starts_with("# Games judged by pyffish"))
        .unwrap_or("");
    assert!(!source.is_empty(), "repetition.tsv must name its source");
    // pyffish's xiangqi draws after 50 moves without a capture; the "limit" games need that.
    let config = JudgeConfig::new(100, 3).unwrap();
    let known: BTreeMap<u32, &str> = KNOWN.iter().copied().collect();
    let docs_file = path(&["docs", "rules.md"]);
    let docs = std::fs::read_to_string(&docs_file)
        .unwrap_or_else(|e| panic!("{}: {e}", docs_file.display()));

    let mut by_kind: BTreeMap<(String, String), (u32, u32)> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut disagreed = Vec::new();
    for case in &cases {
        let start =
            Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let ours = match judge_game(&start, &case.moves, &config) {
            Ok(j) => words(j.result),
            Err(JudgeError::MoveAfterEnd { ply, result, .. }) => {
                let (r, why) = words(result);
                (r, format!("{why} already after move {}", ply - 1))
            }
            Err(e) => panic!("repetition.tsv:{} (#{}): {e}", case.line, case.id),
        };
        let entry = by_kind
            .entry((case.kind.clone(), case.expected.1.clone()))
            .or_default();
        entry.1 += 1;
        if ours == case.expected {
            entry.0 += 1;
            continue;
        }
        let report = format!(
            "#{} ({}): pyffish {} by {}, Chariot {} by {}\n    {}\t{}",
            case.id,
            case.kind,
            case.expected.0,
            case.expected.1,
            ours.0,
            ours.1,
            case.fen,
            case.moves
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        match known.get(&case.id) {
            Some(section) => {
                assert!(
                    docs.contains(section) && docs.contains(&format!("#{}", case.id)),
                    "docs/rules.md must explain #{} under \"{section}\"",
                    case.id
                );
                disagreed.push(case.id);
            }
            None => unexpected.push(report),
        }
    }

    let total = cases.len();
    let agree: u32 = by_kind.values().map(|v| v.0).sum();
    println!("agreement with pyffish: {agree} of {total} games");
    for ((kind, reason), (ok, n)) in &by_kind {
        println!("  {kind:10} {reason:11} {ok:4} of {n:4}");
    }
    let stale: Vec<u32> = known
        .keys()
        .copied()
        .filter(|id| !disagreed.contains(id))
        .collect();
    assert!(
        stale.is_empty(),
        "listed as known differences but now agreeing: {stale:?}"
    );
    assert!(
        unexpected.is_empty(),
        "{} undocumented disagreements with pyffish:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}
