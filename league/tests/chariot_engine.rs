//! Games with the real `chariot` engine, over UCCI and over UCI with Fairy-Stockfish's square
//! names, against the test engine.
//!
//! The `chariot` binary belongs to another package of the workspace, so it is not in this
//! package's `CARGO_BIN_EXE_*`. It is looked for next to this test's own target directory
//! (where `cargo test --workspace` puts it) and built with the same cargo when it is missing.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use chariot_league::engine::Engine;
use chariot_league::game::{self, Adjudication, EndReason, GameResult, GameSpec};
use chariot_league::openings::Opening;
use chariot_league::referee::JudgeReferee;
use chariot_matchkit::client::{EngineConfig, Protocol, ProtocolChoice, VariantChoice};
use chariot_matchkit::interrupt::Interrupt;

const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_chariot-test-engine");

/// The `chariot` binary of this build profile, built if missing.
fn chariot_binary() -> PathBuf {
    // target/<profile>/deps/<this test> -> target/<profile>
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|d| d.parent()).unwrap().to_owned();
    let bin = profile_dir.join(format!("chariot{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "-p", "chariot", "--bin", "chariot"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "cargo build -p chariot failed");
    }
    assert!(bin.exists(), "no chariot binary at {}", bin.display());
    bin
}

fn play(red: &EngineConfig, black: &EngineConfig) -> game::PlayedGame {
    let referee = JudgeReferee::default();
    let opening = Opening::start_position();
    game::play(&GameSpec {
        red: (red, "red"),
        black: (black, "black"),
        opening: &opening,
        referee: &referee,
        adjudication: Adjudication {
            max_moves: Some(150),
            ..Adjudication::default()
        },
        tablebases: None,
        trace: None,
        interrupt: &Interrupt::default(),
    })
}

#[test]
fn chariot_beats_the_test_engine_over_ucci_and_uci() {
    let bin = chariot_binary();
    let tc = "4+0.05".parse().unwrap();
    let mut ucci = EngineConfig::new(&bin, tc);
    ucci.options.push(("hashsize".into(), "8".into()));
    let mut uci = EngineConfig::new(&bin, tc);
    uci.protocol = ProtocolChoice::Fixed(Protocol::Uci);
    uci.variant = VariantChoice::Always;
    uci.options.push(("Hash".into(), "8".into()));
    let e = Engine::start(&uci, None).unwrap();
    assert!(e.ranks1(), "UCI_Variant xiangqi means ranks 1-10");
    drop(e);
    let e = Engine::start(&ucci, None).unwrap();
    assert_eq!((e.protocol(), e.millisec()), (Protocol::Ucci, true));
    drop(e);
    let mut weak = EngineConfig::new(TEST_ENGINE, tc);
    weak.launch.args = vec!["good".into()];
    weak.handshake = Duration::from_secs(5);

    let r = play(&ucci, &weak);
    assert_eq!(r.ending.outcome, GameResult::RedWins, "{}", r.ending);
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
    // Over UCI with ranks 1-10 every move is read right: a misread would be an illegal move.
    let r = play(&weak, &uci);
    assert_eq!(r.ending.outcome, GameResult::BlackWins, "{}", r.ending);
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
    assert!(r.moves.iter().skip(1).step_by(2).all(|m| m.depth.is_some()));
}

#[test]
fn node_limited_games_are_reproducible() {
    // With `nodes=` the engines are sent `go nodes N`: a single-threaded search to a node
    // limit does not depend on the clock, so the same game comes out twice. (With the clock,
    // timing noise makes two games differ almost at once.)
    let bin = chariot_binary();
    let mut config = EngineConfig::new(&bin, "60+1".parse().unwrap());
    config.options.push(("hashsize".into(), "8".into()));
    config.options.push(("usebook".into(), "false".into()));
    config.nodes = Some(3000);
    let referee = JudgeReferee::default();
    let opening = Opening::start_position();
    let spec = GameSpec {
        red: (&config, "red"),
        black: (&config, "black"),
        opening: &opening,
        referee: &referee,
        adjudication: Adjudication {
            max_moves: Some(30),
            ..Adjudication::default()
        },
        tablebases: None,
        trace: None,
        interrupt: &Interrupt::default(),
    };
    let first = game::play(&spec);
    let second = game::play(&spec);
    assert!(first.moves.len() >= 20, "{}", first.ending);
    let line = |r: &game::PlayedGame| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(line(&first), line(&second));
    // Every move was searched (no book), and to the node limit rather than the clock.
    assert!(first.moves.iter().all(|m| m.depth.is_some_and(|d| d > 0)));
}
