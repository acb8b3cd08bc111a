//! The `chariot-league` command line end to end, against the test engine.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const LEAGUE: &str = env!("CARGO_BIN_EXE_chariot-league");
const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_chariot-test-engine");

/// A fresh scratch directory for one test, removed when it is dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("chariot-league-{name}-"))
        .tempdir()
        .unwrap()
}

fn engine(mode: &str, name: &str) -> Vec<String> {
    [
        "--engine",
        &format!("cmd={TEST_ENGINE}"),
        &format!("arg={mode}"),
        &format!("name={name}"),
    ]
    .map(str::to_owned)
    .to_vec()
}

fn run(args: &[String], pids: Option<&Path>) -> (Output, String) {
    let mut cmd = Command::new(LEAGUE);
    cmd.args(args);
    if let Some(dir) = pids {
        cmd.env("CHARIOT_TEST_ENGINE_PIDS", dir);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

/// [`run`] without engine process ids, which must succeed (else the test fails with its output);
/// answers its standard output.
fn run_ok(args: &[String]) -> String {
    let (out, text) = run(args, None);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn args(parts: &[&[String]], rest: &str) -> Vec<String> {
    let mut v: Vec<String> = parts.iter().flat_map(|p| p.iter().cloned()).collect();
    v.extend(rest.split_whitespace().map(str::to_owned));
    v
}

#[test]
fn a_match_with_pgn_openings_writes_every_game_with_both_colours() {
    let dir_tmp = scratch("openings");
    let dir = dir_tmp.path();
    let openings = dir.join("openings.pgn");
    std::fs::write(
        &openings,
        "[Opening \"central cannon\"]\n1. 炮二平五 马8进7 *\n\n[Opening \"elephant\"]\n1. c3c4 *\n",
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let a = args(
        &[&engine("good", "Alpha"), &engine("noise", "Beta")],
        &format!(
            "--tc 5+0.1 --games 4 --openings file={} --pgnout {} --pgn-notation chinese --event Test",
            openings.display(),
            pgn.display()
        ),
    );
    let text = run_ok(&a);
    assert_eq!(text.matches("Finished game").count(), 4, "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("Score of Alpha vs Beta:")),
        "{text}"
    );
    assert!(text.contains("Elo difference (Alpha vs Beta):"), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Game \"Chinese Chess\"]").count(), 4);
    assert_eq!(games.matches("[Opening \"central cannon\"]").count(), 2);
    assert_eq!(games.matches("[Opening \"elephant\"]").count(), 2);
    assert_eq!(games.matches("[Red \"Alpha\"]").count(), 2);
    assert_eq!(games.matches("[Red \"Beta\"]").count(), 2);
    assert_eq!(
        games.matches("1. 炮二平五 马８进７ {book}").count(),
        2,
        "{games}"
    );
    for tag in [
        "[Event \"Test\"]",
        "[Format \"Chinese\"]",
        "[TimeControl \"5+0.1\"]",
        "[Termination ",
        "[PlyCount ",
    ] {
        assert_eq!(games.matches(tag).count(), 4, "{tag}");
    }
}

#[test]
fn failing_engines_lose_and_leave_no_process_behind() {
    let (_dir, pids, _) = scratch_with_pids("cleanup");
    let t = Instant::now();
    let a = args(
        &[
            &engine("good", "Good"),
            &engine("hang", "Hang"),
            &engine("crash", "Crash"),
        ],
        "--tc 0.3 --games 2 --concurrency 2",
    );
    let (out, text) = run(&a, Some(&pids));
    assert!(out.status.success(), "{text}");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(text.matches("Finished game").count(), 6, "{text}");
    // Hang loses on time whenever it is Red or meets Good; Crash crashes whenever it moves.
    assert_eq!(text.matches("loses on time").count(), 3, "{text}");
    assert_eq!(
        text.matches("crashed or exited (exit code 3)").count(),
        3,
        "{text}"
    );
    assert!(text.contains("Rank"), "{text}");
    let started: Vec<u32> = std::fs::read_dir(&pids)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().parse().unwrap())
        .collect();
    // Three start-up checks and two engines in each of six games.
    assert_eq!(started.len(), 15, "{started:?}");
    assert_no_engine_left(&pids);
}

#[test]
fn sprt_stops_a_match_once_decided() {
    let a = args(
        &[&engine("good", "Good"), &engine("illegal", "Bad")],
        "--tc 5 --games 200 --sprt elo0=0 elo1=20",
    );
    let (out, text) = run(&a, None);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("H1 was accepted"), "{text}");
    let played = text.matches("Finished game").count();
    assert!((5..40).contains(&played), "{played} games\n{text}");
}

/// A scratch directory (removed when the first value is dropped) with a `pids` directory for
/// the test engines' process ids, and the path of a PGN file in it.
fn scratch_with_pids(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = scratch(name);
    let pids = dir.path().join("pids");
    std::fs::create_dir_all(&pids).unwrap();
    let pgn = dir.path().join("games.pgn");
    (dir, pids, pgn)
}

/// Starts the runner, in a process group of its own (as a shell job is), with its standard
/// output read line by line on a thread.
fn spawn(args: &[String], pids: &Path) -> (Child, Receiver<String>) {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new(LEAGUE)
        .process_group(0)
        .args(args)
        .env("CHARIOT_TEST_ENGINE_PIDS", pids)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// Reads lines until one satisfies `until` (within a minute); returns all read.
fn read_until(rx: &Receiver<String>, mut until: impl FnMut(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut text = String::new();
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        let line = rx
            .recv_timeout(wait)
            .unwrap_or_else(|e| panic!("{e}; read so far:\n{text}"));
        text.push_str(&line);
        text.push('\n');
        if until(&line) {
            return text;
        }
    }
}

/// Sends `signal` to the runner, or with `group` to its whole process group (engines
/// included), as Ctrl-C in a terminal does.
fn kill(child: &Child, signal: &str, group: bool) {
    let target = if group {
        format!("-{}", child.id())
    } else {
        child.id().to_string()
    };
    let status = Command::new("kill")
        .args([format!("-{signal}"), "--".to_owned(), target])
        .status()
        .unwrap();
    assert!(status.success());
}

fn assert_no_engine_left(pids: &Path) {
    for entry in std::fs::read_dir(pids).unwrap() {
        let pid = entry.unwrap().file_name().to_string_lossy().into_owned();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        assert!(
            status.is_empty() || status.contains("State:\tZ"),
            "engine {pid} is still running"
        );
    }
}

#[test]
fn ctrl_c_abandons_the_games_in_progress_without_blaming_the_engines() {
    let (_dir, pids, pgn) = scratch_with_pids("ctrl-c");
    // Slow thinks until `stop`, which comes only when its minute is up.
    let a = args(
        &[&engine("good", "Good"), &engine("obey-stop", "Slow")],
        &format!(
            "--tc 60 --games 4 --concurrency 2 --pgnout {}",
            pgn.display()
        ),
    );
    let (mut child, rx) = spawn(&a, &pids);
    let mut text = read_until(&rx, |l| l.starts_with("Engine 2:"));
    std::thread::sleep(Duration::from_secs(1));
    // As Ctrl-C in a terminal: Slow, thinking in both games, dies of the signal too, and that
    // must not count as its crash.
    kill(&child, "INT", true);
    let t = Instant::now();
    text += &read_until(&rx, |l| l.starts_with("Interrupted match"));
    let status = child.wait().unwrap();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert_eq!(status.code(), Some(130), "{text}");
    assert!(text.contains("Interrupted by SIGINT: "), "{text}");
    assert!(text.contains("in progress abandoned"), "{text}");
    assert!(text.contains("Score of Good vs Slow: 0 - 0 - 0"), "{text}");
    assert_eq!(text.matches("Finished game").count(), 0, "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap_or_default();
    assert_eq!(games.matches("[Game ").count(), 0, "{games}");
    assert_no_engine_left(&pids);
}

#[test]
fn sigterm_stops_between_games_and_resume_plays_the_rest() {
    let (_dir, pids, pgn) = scratch_with_pids("sigterm");
    let a = args(
        &[&engine("good", "A"), &engine("good", "B")],
        &format!(
            "--tc 5 --games 200 --concurrency 2 --pgnout {} --json",
            pgn.display()
        ),
    );
    let (mut child, rx) = spawn(&a, &pids);
    let mut text = read_until(&rx, |l| l.contains("\"event\":\"game\""));
    // As `pkill`: the runner alone gets the signal and stops its engines itself.
    kill(&child, "TERM", false);
    text += &read_until(&rx, |l| l.contains("\"event\":\"results\""));
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{text}");
    let results = json_lines(&text).pop().unwrap();
    assert_eq!(results["interrupted"], true, "{text}");
    let finished = results["finished"].as_u64().unwrap();
    assert!((1..200).contains(&finished), "{text}");
    let played: Vec<_> = json_lines(&text)
        .into_iter()
        .filter(|j| j["event"] == "game")
        .collect();
    assert_eq!(played.len() as u64, finished);
    for game in &played {
        assert_eq!(game["termination"], "normal", "{game}");
    }
    // Every counted game is in the file, whole; the abandoned ones are not.
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Game ").count() as u64, finished);
    assert_eq!(games.matches("[Result ").count() as u64, finished);
    assert_no_engine_left(&pids);
    // The same command with --resume plays the rest and ends as a whole run does.
    let resume = [a.clone(), vec!["--resume".to_owned()]].concat();
    let (out, text) = run(&resume, None);
    assert!(out.status.success(), "{text}");
    let results = json_lines(&text).pop().unwrap();
    assert_eq!(results["interrupted"], false);
    assert_eq!(results["abandoned"], 0);
    assert_eq!(results["finished"], 200);
    assert_eq!(results["resumed"].as_u64().unwrap(), finished);
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Game ").count(), 200);
}

#[test]
fn swiss_pairs_rounds_and_gives_a_bye() {
    let a = args(
        &[
            &engine("good", "A"),
            &engine("good", "B"),
            &engine("resign", "C"),
            &engine("illegal", "D"),
            &engine("noise", "E"),
        ],
        "--tc 5 --tournament swiss --rounds 3 --games 2 --concurrency 2 --ratinginterval 0",
    );
    let text = run_ok(&a);
    // Three rounds of two encounters (one engine sits out) of two games.
    assert_eq!(text.matches("Finished game").count(), 12, "{text}");
    let table = &text[text.find("Rank").unwrap()..];
    assert_eq!(
        table
            .lines()
            .filter(|l| l.trim_start().starts_with(char::is_numeric))
            .count(),
        5,
        "{table}"
    );
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_one() {
    let a = args(
        &[
            &engine("good", "New"),
            &engine("resign", "Old1"),
            &engine("good", "Old2"),
            &engine("illegal", "Old3"),
        ],
        "--tc 5 --tournament gauntlet --games 2 --concurrency 2",
    );
    let (out, text) = run(&a, None);
    assert!(out.status.success(), "{text}");
    let games: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(games.len(), 6, "{text}");
    for g in &games {
        assert!(g.contains("New vs") || g.contains("vs New"), "{g}");
    }
    assert!(text.contains("Finished tournament"), "{text}");
}

/// The JSON lines of a run's standard output.
fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

#[test]
fn json_gives_a_line_per_game_and_the_results() {
    let a = args(
        &[&engine("good", "Good"), &engine("illegal", "Bad")],
        "--tc 5 --games 4 --json",
    );
    let (out, text) = run(&a, None);
    assert!(out.status.success(), "{text}");
    let lines = json_lines(&text);
    assert_eq!(lines.len(), 5, "{text}");
    for (i, g) in lines[..4].iter().enumerate() {
        assert_eq!(g["event"], "game");
        assert_eq!(g["number"], i + 1);
        assert!(
            g["reason"].as_str().unwrap().contains("illegal move"),
            "{g}"
        );
    }
    let r = &lines[4];
    assert_eq!(r["event"], "results");
    assert_eq!(r["finished"], 4);
    assert_eq!(r["standings"][0]["name"], "Good");
    assert_eq!(r["standings"][0]["wins"], 4);
    assert_eq!(r["match"]["wins"], 4);
    assert_eq!(r["match"]["model"], "pentanomial");
    assert_eq!(r["match"]["pairs"][4], 2);
    // The text for people went to standard error.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .any(|l| l.starts_with("Score of Good vs Bad: 4 - 0 - 0")),
        "{err}"
    );
}

#[test]
fn an_interrupted_tournament_resumes_from_its_pgn() {
    let dir_tmp = scratch("resume");
    let dir = dir_tmp.path();
    let pgn = dir.join("games.pgn");
    let players = [
        engine("good", "A"),
        engine("resign", "B"),
        engine("good", "C"),
    ];
    let a = args(
        &[&players[0], &players[1], &players[2]],
        &format!("--tc 5 --games 2 --pgnout {}", pgn.display()),
    );
    let (out, full) = run(&a, None);
    assert!(out.status.success(), "{full}");
    let table = |t: &str| t[t.find("Rank").unwrap()..].to_owned();
    let whole = std::fs::read_to_string(&pgn).unwrap();
    // Keep the first four games and half of the fifth, as a run killed mid-write would.
    let starts: Vec<usize> = whole.match_indices("[Game ").map(|(i, _)| i).collect();
    assert_eq!(starts.len(), 6);
    let cut = starts[4] + (starts[5] - starts[4]) / 2;
    std::fs::write(&pgn, &whole[..cut]).unwrap();
    let resume = [a.clone(), vec!["--resume".to_owned()]].concat();
    let (out, text) = run(&resume, None);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("removed an unfinished game"), "{text}");
    assert!(text.contains("Resume: 4 finished games"), "{text}");
    assert_eq!(text.matches("Finished game").count(), 2, "{text}");
    assert!(text.contains("Finished game 5") && text.contains("Finished game 6"));
    // The same table as the uninterrupted run, and a file of six whole games.
    assert_eq!(table(&text), table(&full));
    let after = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(after.matches("[Game ").count(), 6);
    assert_eq!(
        after,
        whole.replace(&whole[starts[4]..], &after[starts[4]..])
    );
    // Resuming a finished run plays nothing.
    let (out, text) = run(&resume, None);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches("Finished game").count(), 0, "{text}");
    assert_eq!(table(&text), table(&full));
    // Other engines than the first run's: refused, and the file is left alone.
    let other = args(
        &[&players[0], &engine("good", "Z"), &players[2]],
        &format!("--tc 5 --games 2 --pgnout {} --resume", pgn.display()),
    );
    let (out, text) = run(&other, None);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("game 1 was round 1, B vs C in the earlier run but is round 1, Z vs C now"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), after);
    let (out, _) = run(&args(&[&players[0], &players[1]], "--tc 5 --resume"), None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn command_line_mistakes_exit_with_a_message() {
    let (out, _) = run(&["--engine".into(), "cmd=x".into()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two --engine"));
    let a = args(
        &[&engine("good", "A")],
        "--engine cmd=/nonexistent/engine --tc 5",
    );
    let (out, _) = run(&a, None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/engine") && err.contains("could not be started"),
        "{err}"
    );
    // A missing openings file: a failure at run time, named.
    let a = args(
        &[&engine("good", "A"), &engine("good", "B")],
        "--tc 5 --openings file=/nonexistent/openings.pgn",
    );
    let (out, _) = run(&a, None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/openings.pgn"), "{err}");
    let (out, text) = run(&["--help".into()], None);
    assert!(out.status.success() && text.contains("--openings"));
    for option in ["--book FILE", "--book-ply N", "--egtb DIR"] {
        assert!(text.contains(option), "{option}");
    }
}

/// A small Chariot book: 1. h2e2 (then h9g7 or b9c7) or 1. c3c4 (then g6g5).
fn write_book(path: &Path) {
    use chariot_formats::book::{BookWriter, BuildInfo, Entry, MoveStats, canonical};
    use chariot_rules::Position;
    let mut w = BookWriter::new(BuildInfo::default());
    let mut seen = std::collections::HashSet::new();
    for line in [["h2e2", "h9g7"], ["h2e2", "b9c7"], ["c3c4", "g6g5"]] {
        let mut pos = Position::start();
        for text in line {
            let m = chariot_rules::notation::parse_iccs(text).unwrap();
            let (key, mv) = canonical(&pos, m, false);
            if seen.insert((key, mv)) {
                let stats = MoveStats {
                    games: 4,
                    red_wins: 2,
                    draws: 0,
                    black_wins: 2,
                    mean_elo: 0,
                };
                w.push(Entry {
                    key,
                    mv,
                    stats,
                    weight: 4,
                });
            }
            pos.make_move(m);
        }
    }
    w.write(path).unwrap();
}

#[test]
fn book_openings_are_played_with_both_colours_and_named_by_their_moves() {
    let dir_tmp = scratch("book");
    let dir = dir_tmp.path();
    let book = dir.join("test.xqb");
    write_book(&book);
    let run_with_seed = |seed: u32, pgn: &Path| {
        let a = args(
            &[&engine("good", "Alpha"), &engine("good", "Beta")],
            &format!(
                "--tc 5+0.1 --games 6 --book {} --book-ply 4 --srand {seed} --maxmoves 3 --pgnout {}",
                book.display(),
                pgn.display()
            ),
        );
        let text = run_ok(&a);
        assert!(
            text.contains("Book: 3 distinct openings of up to 4 plies"),
            "{text}"
        );
        std::fs::read_to_string(pgn).unwrap()
    };
    let games = run_with_seed(7, &dir.join("a.pgn"));
    assert_eq!(games.matches("[Game \"Chinese Chess\"]").count(), 6);
    // Three distinct lines (the book holds exactly three), each played with both colours.
    for line in ["h2e2 h9g7", "h2e2 b9c7", "c3c4 g6g5"] {
        assert_eq!(
            games.matches(&format!("[Opening \"{line}\"]")).count(),
            2,
            "{line}\n{games}"
        );
        let moves: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            games
                .matches(&format!("1. {} {} {{book}}", moves[0], moves[1]))
                .count(),
            2,
            "{games}"
        );
    }
    // The same seed plays the same openings in the same order.
    let tags = |pgn: &str| -> Vec<String> {
        pgn.lines()
            .filter(|l| l.starts_with("[Opening "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(tags(&run_with_seed(7, &dir.join("b.pgn"))), tags(&games));
}

#[test]
fn book_mistakes_are_named() {
    let dir_tmp = scratch("book-mistakes");
    let dir = dir_tmp.path();
    let book = dir.join("test.xqb");
    write_book(&book);
    let openings = dir.join("o.epd");
    std::fs::write(&openings, "3k5/9/9/9/9/9/9/9/9/R3K4 w\n").unwrap();
    let two = [engine("good", "A"), engine("good", "B")];
    let a = args(
        &[&two[0], &two[1]],
        &format!(
            "--tc 5 --book {} --openings file={}",
            book.display(),
            openings.display()
        ),
    );
    let (out, _) = run(&a, None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--book") && err.contains("--openings"),
        "{err}"
    );
    let missing = dir.join("missing.xqb");
    let (out, _) = run(
        &args(
            &[&two[0], &two[1]],
            &format!("--tc 5 --book {}", missing.display()),
        ),
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing.xqb"), "{err}");
    // Not a book at all.
    let (out, _) = run(
        &args(
            &[&two[0], &two[1]],
            &format!("--tc 5 --book {}", openings.display()),
        ),
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("o.epd"), "{err}");
    let (out, _) = run(&args(&[&two[0], &two[1]], "--tc 5 --book-ply 4"), None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn egtb_adjudicates_games_from_the_command_line() {
    let dir_tmp = scratch("egtb");
    let dir = dir_tmp.path();
    let openings = dir.join("o.epd");
    std::fs::write(
        &openings,
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 id \"KRK\";\n3k5/9/9/9/9/9/9/9/9/C3K4 w - - 0 1 id \"KCK\";\n",
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/egtb");
    let a = args(
        &[&engine("good", "A"), &engine("good", "B")],
        &format!(
            "--tc 5 --games 4 --openings file={} --egtb {tables} --pgnout {}",
            openings.display(),
            pgn.display()
        ),
    );
    let text = run_ok(&a);
    assert!(text.contains("Tablebases: "), "{text}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        games
            .matches("{adjudicated by tablebase: red wins (mate in ")
            .count(),
        2,
        "{games}"
    );
    assert_eq!(
        games
            .matches("{adjudicated by tablebase: draw} 1/2-1/2")
            .count(),
        2,
        "{games}"
    );
    let (out, _) = run(
        &args(
            &[&engine("good", "A"), &engine("good", "B")],
            "--tc 5 --egtb /nonexistent/tables",
        ),
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/tables"), "{err}");
}

#[test]
fn ratings_rate_the_players_of_a_games_file_on_the_anchors_scale() {
    let dir_tmp = scratch("ratings");
    let pgn = dir_tmp.path().join("games.pgn");
    // Alpha scores 3 of 4 against Beta: 191 Elo.
    let game = |red: &str, black: &str, result: &str| {
        format!(
            "[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. h2e2 {result}\n\n"
        )
    };
    let text = [
        game("Alpha", "Beta", "1-0"),
        game("Beta", "Alpha", "0-1"),
        game("Alpha", "Beta", "1/2-1/2"),
        game("Beta", "Alpha", "1/2-1/2"),
    ]
    .concat();
    std::fs::write(&pgn, text).unwrap();
    let a = |rest: &str| args(&[], &format!("--ratings {} {rest}", pgn.display()));
    let (out, text) = run(&a("--anchor Beta=1000"), None);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Scale: Beta = 1000"), "{text}");
    assert!(text.contains("1190.8"), "Alpha is 191 above Beta: {text}");
    let (out, json) = run(&a("--anchor Beta=1000 --json"), None);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["players"][0]["name"], "Alpha");
    assert_eq!(v["games"], 4);
    // Mistakes: an anchor nobody is (exit 1), an engine with --ratings, a bad anchor (2).
    let (out, _) = run(&a("--anchor Gamma=1000"), None);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Gamma"));
    for bad in ["--anchor Beta", "--anchor Beta=x", "--engine cmd=x"] {
        let (out, _) = run(&a(bad), None);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    let (out, _) = run(&args(&[], "--anchor Beta=1000"), None);
    assert_eq!(out.status.code(), Some(2));
}
