//! `chess-board match` through the binary, with real UCI processes: the scripted fake engine
//! `chess-board-fake-uci` (illegal moves, silence, exits, repetitions) and chess-agent.

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The fake UCI engine with these actions, as a `--engine` group.
fn fake(name: &str, actions: &str) -> Vec<String> {
    let mut group = vec![
        format!("cmd={}", env!("CARGO_BIN_EXE_chess-board-fake-uci")),
        format!("name={name}"),
        "arg=--name".to_owned(),
        format!("arg={name}"),
    ];
    group.extend(actions.split_whitespace().map(|a| format!("arg={a}")));
    group
}

/// An openings file holding only the standard start position (so scripted moves start there).
fn start_only(dir: &Path) -> String {
    let path = dir.join("start.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    )
    .unwrap();
    path.display().to_string()
}

/// The scripted games' settings: `--tc 5+0.1 --games GAMES --openings OPENINGS`, then `extra`.
fn scripted<'a>(games: &'a str, openings: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--tc", "5+0.1", "--games", games, "--openings", openings];
    args.extend_from_slice(extra);
    args
}

fn run_match(engines: &[Vec<String>], extra: &[&str]) -> Output {
    let mut cmd = Command::new(common::board());
    cmd.arg("match");
    for e in engines {
        cmd.arg("--engine").args(e);
    }
    cmd.args(extra).output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The game lines: (white, black, result, reason text).
fn games(out: &str) -> Vec<(String, String, String, String)> {
    out.lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .map(|l| {
            let (players, rest) = l.split_once("): ").unwrap();
            let (white, black) = players
                .split_once(" (")
                .unwrap()
                .1
                .split_once(" vs ")
                .unwrap();
            let (result, rest) = rest.split_once(" {").unwrap();
            let reason = rest.split_once('}').unwrap().0;
            (
                white.to_owned(),
                black.to_owned(),
                result.to_owned(),
                reason.to_owned(),
            )
        })
        .collect()
}

/// The games of a PGN file, each from its `[Event` tag.
fn split_games(text: &str) -> Vec<String> {
    text.split("[Event ")
        .skip(1)
        .map(|g| format!("[Event {g}"))
        .collect()
}

#[test]
fn an_illegal_move_loses() {
    let dir = tempfile::tempdir().unwrap();
    let openings = start_only(dir.path());
    let pgn = dir.path().join("games.pgn");
    let out = run_match(
        &[fake("Bad", "e2e5"), fake("Good", "g1f3|g8f6|f3g1|f6g8")],
        &scripted("2", &openings, &["--pgn", pgn.to_str().unwrap()]),
    );
    let out = stdout(&out);
    let g = games(&out);
    assert_eq!(g.len(), 2, "{out}");
    // Game 1: Bad is White and plays e2e5 at once. Game 2: Good opens Nf3, Bad answers e2e5
    // (a White move, illegal for Black).
    assert_eq!(g[0].2, "0-1", "{out}");
    assert_eq!(g[1].2, "1-0", "{out}");
    for game in &g {
        assert!(game.3.contains("illegal move e2e5"), "{out}");
    }
    assert!(out.contains("+0 =0 -2 (W-D-L)"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"rules infraction\"]").count(),
        2
    );
    assert!(
        !text.contains("[FEN"),
        "the standard start needs no FEN: {text}"
    );
}

#[test]
fn silence_loses_on_time_without_hanging_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let openings = start_only(dir.path());
    let started = Instant::now();
    let out = run_match(
        &[fake("Mute", "@hang"), fake("Good", "g1f3|g8f6|f3g1|f6g8")],
        &[
            "--tc",
            "0.5+0",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--openings",
            &openings,
        ],
    );
    let out = stdout(&out);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let g = games(&out);
    assert_eq!(g.len(), 2, "{out}");
    for game in &g {
        assert!(game.3.contains("(Mute) lost on time"), "{out}");
        let mute_white = game.0 == "Mute";
        assert_eq!(game.2, if mute_white { "0-1" } else { "1-0" }, "{out}");
    }
}

#[test]
fn an_exit_loses_by_crash_and_an_empty_bestmove_is_illegal() {
    let dir = tempfile::tempdir().unwrap();
    let openings = start_only(dir.path());
    let out = run_match(
        &[
            fake("Quitter", "@exit"),
            fake("Good", "g1f3|g8f6|f3g1|f6g8"),
        ],
        &scripted("2", &openings, &[]),
    );
    let out = stdout(&out);
    let g = games(&out);
    assert_eq!(g.len(), 2, "{out}");
    for game in &g {
        assert!(
            game.3.contains("(Quitter) crashed or exited (exit code 3)"),
            "{out}"
        );
    }
    let out = run_match(
        &[fake("Empty", "@empty"), fake("Good", "g1f3|g8f6|f3g1|f6g8")],
        &scripted("1", &openings, &[]),
    );
    let out = stdout(&out);
    assert!(out.contains("(Empty) sent \"bestmove\""), "{out}");
}

#[test]
fn threefold_repetition_is_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    let openings = start_only(dir.path());
    let pgn = dir.path().join("rep.pgn");
    // Both shuffle their knights out and back: the start position comes back after 4 and
    // 8 plies, the third time ends the game.
    let knights = "g1f3|f3g1|g8f6|f6g8";
    let out = run_match(
        &[fake("A", knights), fake("B", knights)],
        &scripted(
            "2",
            &openings,
            &[
                "--pgn",
                pgn.to_str().unwrap(),
                "--sprt",
                "elo0=0",
                "elo1=10",
            ],
        ),
    );
    let out = stdout(&out);
    let g = games(&out);
    assert_eq!(g.len(), 2, "{out}");
    for game in &g {
        assert_eq!(game.2, "1/2-1/2", "{out}");
        assert_eq!(game.3, "Draw by threefold repetition", "{out}");
    }
    assert!(out.contains("8 plies"), "{out}");
    assert!(out.contains("pentanomial"), "{out}");
    assert!(out.contains("SPRT (elo0 0, elo1 10"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1. Nf3 {+0.00/1 ") && flat.contains("4. Ng1 {+0.00/1 "),
        "{text}"
    );
    for game in split_games(&text) {
        let (pos, result, plies) = common::replay(&game);
        assert_eq!((result.as_str(), plies), ("1/2-1/2", 8));
        assert_eq!(pos, shakmaty::Chess::default());
    }
}

#[test]
fn mistakes_on_the_command_line_exit_2_and_a_missing_engine_exits_1() {
    let good = fake("Good", "g1f3");
    for (engines, extra) in [
        (vec![good.clone()], vec![]),
        (vec![good.clone(), vec!["name=x".to_owned()]], vec![]),
        (vec![good.clone(), vec!["cmd".to_owned()]], vec![]),
        (vec![good.clone(), good.clone()], vec!["--tc", "fast"]),
        (vec![good.clone(), good.clone()], vec!["--games", "0"]),
        (
            vec![good.clone(), good.clone()],
            vec!["--sprt", "elo0=10", "elo1=0"],
        ),
        (
            vec![
                good.clone(),
                vec!["cmd=x".to_owned(), "colour=red".to_owned()],
            ],
            vec![],
        ),
    ] {
        let out = run_match(&engines, &extra);
        assert_eq!(out.status.code(), Some(2), "{engines:?} {extra:?}");
    }
    let out = run_match(
        &[good.clone(), vec!["cmd=/nonexistent/engine".to_owned()]],
        &["--games", "1"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("engine #2"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "e4 e5\nNf3 Nf6 Ke2 Kxe2\n").unwrap();
    let out = run_match(
        &[good.clone(), good],
        &["--games", "1", "--openings", bad.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}

#[test]
fn chess_agent_against_itself() {
    let Some(agent) = common::chess_agent() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("agent.pgn");
    let cmd = format!("cmd={}", agent.display());
    let out = run_match(
        &[
            vec![cmd.clone(), "name=One".to_owned()],
            vec![cmd, "name=Two".to_owned()],
        ],
        &[
            "--tc",
            "1+0.05",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--srand",
            "7",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let out = stdout(&out);
    eprintln!("{out}");
    assert_eq!(games(&out).len(), 2, "{out}");
    assert!(out.contains("Finished match"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Result ").count(), 2, "{text}");
    assert_eq!(text.matches("[TimeControl \"1+0.05\"]").count(), 2);
    // Both games of the pair start with the same opening, and every move replays legally.
    let mut firsts = Vec::new();
    for game in split_games(&text) {
        let (_, result, plies) = common::replay(&game);
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()));
        let tag = format!("[PlyCount \"{plies}\"]");
        assert!(game.contains(&tag), "{tag} in {game}");
        let movetext = game.split("\n\n").nth(1).unwrap();
        firsts.push(movetext.split(" {").next().unwrap().to_owned());
    }
    assert_eq!(firsts.len(), 2);
}
