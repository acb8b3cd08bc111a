//! The `chariot` binary's tools, run as processes.

use chariot_engine::search::bench;
use chariot_eval::levels::Level;

#[test]
fn bench_command_takes_a_pruning_level_and_rejects_a_bad_one() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let out = std::process::Command::new(chariot)
        .args(["bench", "3", "--pruning", "small"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let small = bench::run_with(3, Level::Small, None, |_, _, _| {}).nodes;
    assert!(text.contains(&format!("Total nodes: {small}")), "{text}");
    let out = std::process::Command::new(chariot)
        .args(["bench", "3", "--pruning", "lots"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("pruning") && err.contains("\"lots\""), "{err}");
}

#[test]
fn bench_with_the_network_counts_the_same_nodes_on_every_kernel() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(chariot)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let total = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("Total nodes: "))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no total in {text}"))
    };
    let (code, portable, _) = run(&["bench", "4", "--nnue", "--kernel", "portable"]);
    assert_eq!(code, Some(0));
    assert!(
        portable.starts_with("Evaluation: built-in network"),
        "{portable}"
    );
    let (code, fastest, _) = run(&["bench", "4", "--nnue"]);
    assert_eq!(code, Some(0));
    assert_eq!(total(&portable), total(&fastest));
    let (_, hand, _) = run(&["bench", "4"]);
    assert!(hand.starts_with("Evaluation: hand-written"), "{hand}");
    assert_ne!(
        total(&portable),
        total(&hand),
        "the network changes the tree"
    );
    let (code, _, err) = run(&["bench", "4", "--nnue", "--kernel", "sse9"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("sse9"), "{err}");
}

#[test]
fn eval_prints_both_evaluations() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    // Red a chariot up, Black to move: the network, like the hand-written evaluation, sees Red
    // far ahead, so the side to move's score is the negated red one.
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1";
    let out = std::process::Command::new(chariot)
        .args(["eval", "--fen", fen])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let net = text
        .split_once("built-in network")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no network section in {text}"));
    let value = |section: &str, label: &str| -> i32 {
        section
            .lines()
            .find_map(|l| l.strip_prefix(label))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {label} in {section}"))
    };
    let red = value(net, "evaluation (red):");
    assert!(red > 300, "{text}");
    assert_eq!(value(net, "evaluation (side to move):"), -red);
    assert!(text.starts_with("hand-written evaluation:"), "{text}");
}

#[test]
fn exit_codes_follow_the_convention() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    let run = |args: &[&str]| {
        std::process::Command::new(chariot)
            .args(args)
            .output()
            .unwrap()
    };
    // Success.
    let out = run(&["perft", "2"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("1920\n"));
    // A missing file: a failure at run time, named.
    let out = run(&["tactics", "/nonexistent/problems.txt"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/problems.txt"), "{err}");
    // A mistake on the command line.
    let out = run(&["perft", "many"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Starts `chariot serve` with `args` (a free port: `--port 0`), sends one `GET path` to the
/// address it prints, stops it and answers the whole HTTP response.
fn serve_once(args: &[String], path: &str) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    response
}

#[test]
fn serve_answers_on_the_port_it_prints() {
    let args = ["serve", "--port", "0"].map(String::from);
    let response = serve_once(&args, "/api/position?fen=3k5/9/9/9/9/9/9/9/4R4/4K4%20w");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.contains(r#""tablebase":{"wdl":"win","dtm":1}"#),
        "{response}"
    );
}

#[test]
fn serve_offers_an_external_engine_and_refuses_a_malformed_one() {
    let chariot = env!("CARGO_BIN_EXE_chariot");
    // Chariot itself over UCI, and a program that is not there.
    let args = [
        "serve".to_owned(),
        "--port".to_owned(),
        "0".to_owned(),
        "--engine".to_owned(),
        format!("self={chariot} proto=uci"),
        "--engine".to_owned(),
        "gone=/nonexistent/engine variant=none".to_owned(),
    ];
    let response = serve_once(&args, "/api/engines");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.contains(r#""name":"self""#) && response.contains(r#""dialect":"uci-xiangqi""#),
        "{response}"
    );
    // The engine that cannot start is said so; the server served the list all the same.
    assert!(
        response.contains(r#""name":"gone""#) && response.contains(r#""state":"failed""#),
        "{response}"
    );
    for (args, says) in [
        (&["--engine", "a b"][..], "not NAME=CMD"),
        (&["--engine", "a=x", "--engine", "a=y"][..], "given twice"),
        (&["--engine", "a=x tc=10"][..], "unknown setting \"tc\""),
        (&["--engine", "a=x proto=cecp"][..], "unknown protocol"),
        (&["--engine", "a='x"][..], "quote"),
        (&["--max-think", "0"][..], "give 0.01 to 3600"),
        (&["--max-think", "soon"][..], "not a number of seconds"),
    ] {
        let out = std::process::Command::new(chariot)
            .arg("serve")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(args[0]) && err.contains(says),
            "{args:?}: {err}"
        );
    }
}

/// Runs the `chariot` binary with these arguments.
fn chariot_run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .unwrap()
}

/// Writes a small training-data file of the hand-written evaluation's self-play.
fn small_datagen(path: &str, seed: &str) {
    let made = chariot_run(&[
        "datagen",
        "--out",
        path,
        "--positions",
        "200",
        "--nodes",
        "200",
        "--seed",
        seed,
        "--no-nnue",
        "--quiet",
    ]);
    assert!(made.status.success(), "{made:?}");
}

#[test]
fn train_goes_on_from_a_network_and_refuses_one_that_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (data, first, out) = (path("games.bin"), path("first.nnue"), path("next.nnue"));
    let train =
        |out: &str, more: &[&str]| chariot_run(&[&["train", &data, "--out", out], more].concat());
    small_datagen(&data, "1");
    // A small network to start from, then one more epoch from it.
    let trained = train(&first, &["--hidden", "8", "--epochs", "1"]);
    assert!(trained.status.success(), "{trained:?}");
    let resumed = train(&out, &["--init", &first, "--epochs", "1"]);
    assert!(resumed.status.success(), "{resumed:?}");
    let text = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        text.contains("8 hidden neurons")
            && text.contains("from the starting network")
            && text.contains("start      train loss"),
        "{text}"
    );
    assert!(std::path::Path::new(&out).exists());
    // Another hidden size than the starting network's: a usage error naming both.
    let refused = train(&out, &["--init", &first, "--hidden", "16"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("--hidden 16") && err.contains("8 neurons"),
        "{err}"
    );
    // Output buckets: the file keeps them, --init takes them, another count is refused.
    let bucketed = path("bucketed.nnue");
    let trained = train(
        &bucketed,
        &["--hidden", "8", "--epochs", "1", "--buckets", "4"],
    );
    assert!(trained.status.success(), "{trained:?}");
    let text = String::from_utf8_lossy(&trained.stdout);
    assert!(
        text.contains("8 hidden neurons, 4 output buckets"),
        "{text}"
    );
    let net = chariot_eval::nnue::file::read(bucketed.as_ref()).unwrap();
    assert_eq!((net.hidden(), net.buckets()), (8, 4));
    let resumed = train(&out, &["--init", &bucketed, "--epochs", "1"]);
    assert!(resumed.status.success(), "{resumed:?}");
    assert_eq!(
        chariot_eval::nnue::file::read(out.as_ref())
            .unwrap()
            .buckets(),
        4
    );
    let refused = train(&out, &["--init", &bucketed, "--buckets", "2"]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("--buckets 2") && err.contains("4 output buckets"),
        "{err}"
    );
    // A network of one output split into buckets: its starting loss is the one network's.
    let split = train(&out, &["--init", &first, "--buckets", "3", "--epochs", "1"]);
    assert!(split.status.success(), "{split:?}");
    let start_line = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .find(|l| l.starts_with("start"))
            .map(str::to_owned)
    };
    let same = train(&path("same.nnue"), &["--init", &first, "--epochs", "1"]);
    assert!(start_line(&split).is_some());
    assert_eq!(start_line(&split), start_line(&same));
    assert_eq!(
        chariot_eval::nnue::file::read(out.as_ref())
            .unwrap()
            .buckets(),
        3
    );
    for wrong in ["0", "17"] {
        let refused = train(&bucketed, &["--hidden", "8", "--buckets", wrong]);
        assert_eq!(refused.status.code(), Some(2), "--buckets {wrong}");
    }
    // A starting file that is not a network: a run-time error naming it.
    let bad = train(&out, &["--init", &data]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("games.bin"), "{err}");
}

#[test]
fn train_measures_on_a_validation_file_that_is_not_training_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (data, other, out) = (path("games.bin"), path("other.bin"), path("net.nnue"));
    small_datagen(&data, "1");
    small_datagen(&other, "2");
    let train = |more: &[&str]| {
        chariot_run(
            &[
                &[
                    "train", &data, "--out", &out, "--hidden", "8", "--epochs", "1",
                ],
                more,
            ]
            .concat(),
        )
    };
    let held = train(&[]);
    assert!(held.status.success(), "{held:?}");
    let text = String::from_utf8_lossy(&held.stdout);
    assert!(text.contains("(one in 50 held out)"), "{text}");
    let apart = train(&["--validation", &other]);
    assert!(apart.status.success(), "{apart:?}");
    let text = String::from_utf8_lossy(&apart.stdout);
    let other_positions = chariot_formats::training_data::read_all(other.as_ref())
        .unwrap()
        .len();
    assert!(
        text.contains(&format!(
            "measuring on {other_positions} (the --validation positions)"
        )),
        "{text}"
    );
    // The training data itself, or both ways of holding out at once: usage errors.
    let same = train(&["--validation", &data]);
    assert_eq!(same.status.code(), Some(2));
    let err = String::from_utf8_lossy(&same.stderr);
    assert!(
        err.contains("games.bin") && err.contains("also training data"),
        "{err}"
    );
    let both = train(&["--validation", &other, "--validation-every", "10"]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn loss_measures_networks_and_the_hand_written_evaluation_on_the_same_positions() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (data, net) = (path("games.bin"), path("net.nnue"));
    small_datagen(&data, "3");
    let trained = chariot_run(&[
        "train", &data, "--out", &net, "--hidden", "8", "--epochs", "1",
    ]);
    assert!(trained.status.success(), "{trained:?}");
    let measured = chariot_run(&[
        "loss",
        &net,
        "--builtin",
        "--hand",
        "--data",
        &data,
        "--lambda",
        "0.5",
        "--json",
    ]);
    assert!(measured.status.success(), "{measured:?}");
    let text = String::from_utf8_lossy(&measured.stdout);
    // The loss worked out here from the file and the network, independently of the command.
    let records = chariot_formats::training_data::read_all(data.as_ref()).unwrap();
    let network = chariot_eval::nnue::file::read(net.as_ref()).unwrap();
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let (mut blended, mut score, mut result) = (0.0, 0.0, 0.0);
    for r in &records {
        let pos = r.position().unwrap();
        let p = sigmoid(f64::from(network.evaluate_position(&pos)) / 400.0);
        let won = match r.outcome.winner() {
            None => 0.5,
            Some(winner) if winner == pos.turn() => 1.0,
            Some(_) => 0.0,
        };
        let s = sigmoid(f64::from(r.score) / 400.0);
        blended += (p - (0.5 * s + 0.5 * won)).powi(2);
        score += (p - s).powi(2);
        result += (p - won).powi(2);
    }
    let n = records.len() as f64;
    let field = |row: &str, key: &str| -> f64 {
        let at = row.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        let end = row[at..].find([',', '}']).unwrap() + at;
        row[at..end].parse().unwrap()
    };
    assert!(
        text.contains(&format!("\"positions\":{}", records.len())),
        "{text}"
    );
    let rows: Vec<&str> = text.split("{\"evaluation\":").skip(1).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(rows[0].contains("net.nnue") && rows[1].starts_with("\"built-in\""));
    assert!(rows[2].starts_with("\"hand-written\""));
    for (key, want) in [
        ("loss", blended / n),
        ("score_loss", score / n),
        ("result_loss", result / n),
    ] {
        let got = field(rows[0], key);
        assert!((got - want).abs() < 1e-6, "{key}: {got} against {want}");
    }
    // Three evaluations on one set of positions score differently.
    assert_ne!(field(rows[0], "loss"), field(rows[2], "loss"));
    // By ranges of piece counts: the ranges' positions add up to all, and their losses, weighed
    // by their positions, to the whole's; each range holds what its piece counts say.
    let split = chariot_run(&[
        "loss",
        &net,
        "--data",
        &data,
        "--lambda",
        "0.5",
        "--json",
        "--by-pieces",
        "4",
    ]);
    assert!(split.status.success(), "{split:?}");
    let text = String::from_utf8_lossy(&split.stdout);
    let ranges: Vec<&str> = text.split("{\"loss\":").skip(1).collect();
    assert_eq!(ranges.len(), 4, "{text}");
    let expected = [(2, 9), (10, 17), (18, 25), (26, 32)].map(|(lo, hi)| {
        records
            .iter()
            .filter(|r| {
                let n = r.position().unwrap().piece_count();
                (lo..=hi).contains(&n)
            })
            .count() as f64
    });
    let mut weighed = 0.0;
    for (range, want) in ranges.iter().zip(expected) {
        let range = format!("{{\"loss\":{range}");
        assert_eq!(field(&range, "positions"), want, "{range}");
        weighed += field(&range, "loss") * want;
    }
    assert!((weighed / n - blended / n).abs() < 1e-6, "{text}");
    let refused = chariot_run(&["loss", "--hand", "--data", &data, "--by-pieces", "1"]);
    assert_eq!(refused.status.code(), Some(2));
    // Nothing to measure, or a bad --lambda: usage errors; a file that is not a network: a
    // run-time error naming it.
    let none = chariot_run(&["loss", "--data", &data]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("nothing to measure"));
    let lambda = chariot_run(&["loss", "--hand", "--data", &data, "--lambda", "2"]);
    assert_eq!(lambda.status.code(), Some(2));
    let bad = chariot_run(&["loss", &data, "--data", &data]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("games.bin"));
}

/// The king-bucketed network end to end on a little data: trained from a directory of shards,
/// streamed; its checkpoints and file are version 3; `bench --evalfile` searches with it (the
/// same nodes on every kernel), `loss` measures it, `--init` goes on from it, and settings that
/// do not fit it are usage errors.
#[test]
fn a_king_bucketed_network_trains_on_shards_and_the_engine_evaluates_with_it() {
    use chariot_eval::nnue::Architecture;
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    std::fs::create_dir(path("shards")).unwrap();
    small_datagen(&path("shards/a.bin"), "4");
    small_datagen(&path("shards/b.bin"), "5");
    let (shards, net) = (path("shards"), path("king.nnue"));
    let king = [
        "--arch",
        "king",
        "--hidden",
        "32",
        "--buckets",
        "2",
        "--batch",
        "128",
        "--threads",
        "2",
    ];
    let trained = chariot_run(
        &[
            &["train", &shards, "--out", &net, "--epochs", "2"],
            &king[..],
        ]
        .concat(),
    );
    assert!(trained.status.success(), "{trained:?}");
    let text = String::from_utf8_lossy(&trained.stdout);
    assert!(
        text.contains("of 2 files (streamed)")
            && text.contains("king-bucketed, 32 hidden neurons, 2 output buckets")
            && text.contains("positions/s"),
        "{text}"
    );
    let read = chariot_eval::nnue::file::read(net.as_ref()).unwrap();
    assert_eq!(read.architecture(), Architecture::KingBucketed);
    assert_eq!((read.hidden(), read.buckets()), (32, 2));
    assert!(std::path::Path::new(&path("king.epoch2.nnue")).exists());

    let total = |o: &std::process::Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines()
            .find_map(|l| l.strip_prefix("Total nodes: ").map(str::to_owned))
            .unwrap_or_else(|| panic!("no total in {text}"))
    };
    let fastest = chariot_run(&["bench", "4", "--evalfile", &net]);
    assert!(fastest.status.success(), "{fastest:?}");
    let first = String::from_utf8_lossy(&fastest.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_owned();
    assert!(
        first.starts_with("Evaluation: the network of") && first.contains("king.nnue"),
        "{first}"
    );
    let portable = chariot_run(&["bench", "4", "--evalfile", &net, "--kernel", "portable"]);
    assert!(portable.status.success(), "{portable:?}");
    assert_eq!(total(&fastest), total(&portable));
    // AVX2 without VNNI's byte products, where the CPU has AVX2 (VNNI is the fastest where
    // it has that too).
    if chariot_eval::nnue::kernels::Kernel::Avx2.available() {
        let avx2 = chariot_run(&["bench", "4", "--evalfile", &net, "--kernel", "avx2"]);
        assert_eq!(total(&fastest), total(&avx2));
    }
    assert_ne!(
        total(&fastest),
        total(&chariot_run(&["bench", "4", "--nnue"]))
    );
    let alone = chariot_run(&["bench", "4", "--kernel", "portable"]);
    assert_eq!(alone.status.code(), Some(2), "--kernel needs a network");

    let measured = chariot_run(&["loss", &net, "--data", &path("shards/a.bin"), "--quiet"]);
    assert!(measured.status.success(), "{measured:?}");
    let resumed = chariot_run(&[
        "train",
        &shards,
        "--out",
        &path("more.nnue"),
        "--init",
        &net,
        "--epochs",
        "1",
    ]);
    assert!(resumed.status.success(), "{resumed:?}");
    let text = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        text.contains("king-bucketed") && text.contains("start      train loss"),
        "{text}"
    );

    for (more, words) in [
        (&["--init", &net, "--arch", "psq"][..], "--arch psq"),
        (&["--init", &net, "--hidden", "64"][..], "32 neurons"),
        (&["--init", &net, "--buckets", "3"][..], "2 output buckets"),
        (&["--arch", "king", "--hidden", "48"][..], "multiple of 32"),
    ] {
        let refused = chariot_run(&[&["train", &shards, "--out", &path("no.nnue")], more].concat());
        assert_eq!(refused.status.code(), Some(2), "{more:?}");
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(err.contains(words), "{more:?}: {err}");
    }
}
