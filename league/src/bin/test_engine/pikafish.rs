//! The test engine's `pikafish` mode: Pikafish's exact words (its `src/uci.cpp`,
//! `src/engine.cpp` and `src/ucioption.cpp`), with the test engine's moves.

use std::process::ExitCode;

use chariot_rules::notation::parse_iccs;
use chariot_rules::{Kind, Move, Position};

use super::Engine;

/// What Pikafish calls itself: a development build, as `engine_version_info()` names one.
const NAME: &str = "Pikafish dev-20260101-nogit";

/// Its `id author`.
const AUTHOR: &str = "the Pikafish developers (see AUTHORS file)";

/// Its options, in its order, as `operator<<(std::ostream&, const OptionsMap&)` writes them
/// (on a machine of up to 256 threads; 64-bit).
const OPTIONS: [&str; 11] = [
    "option name Debug Log File type string default <empty>",
    "option name NumaPolicy type string default auto",
    "option name Threads type spin default 1 min 1 max 1024",
    "option name Hash type spin default 16 min 1 max 33554432",
    "option name Clear Hash type button",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 128",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name nodestime type spin default 0 min 0 max 10000",
    "option name UCI_ShowWDL type check default false",
    "option name EvalFile type string default pikafish.nnue",
];

/// Reads commands until `quit` or the end of input.
pub(super) fn run(engine: &mut Engine, lines: &mut impl Iterator<Item = String>) -> ExitCode {
    engine.say(&format!("{NAME} by {AUTHOR}"));
    while let Some(line) = lines.next() {
        let token = line.split_whitespace().next().unwrap_or("");
        match token {
            "quit" => return ExitCode::SUCCESS,
            // Nothing is searching between commands here.
            "stop" | "ponderhit" | "ucinewgame" => {}
            "uci" => {
                engine.say(&format!("id name {NAME}\nid author {AUTHOR}\n"));
                for option in OPTIONS {
                    engine.say(option);
                }
                engine.say("uciok");
            }
            "setoption" => setoption(engine, &line),
            "isready" => engine.say("readyok"),
            "position" => {
                if let Err(reason) = position(engine, &line) {
                    engine.say(&format!(
                        "info string CRITICAL ERROR: Command `{line}` failed. Reason: {reason}\n"
                    ));
                    return ExitCode::from(1);
                }
            }
            "go" => {
                if !go(engine, &line, lines) {
                    return ExitCode::SUCCESS;
                }
            }
            _ if token.is_empty() || token.starts_with('#') => {}
            _ => engine.say(&format!(
                "Unknown command: '{line}'. Type help for more information."
            )),
        }
    }
    ExitCode::SUCCESS
}

/// `setoption name NAME value VALUE`: `MultiPV` and `UCI_ShowWDL` change what `go` writes; an
/// unknown name is said, a value out of range ignored, as Pikafish does.
fn setoption(engine: &mut Engine, line: &str) {
    let words: Vec<&str> = line.split_whitespace().skip(2).collect();
    let cut = words
        .iter()
        .position(|&w| w == "value")
        .unwrap_or(words.len());
    let name = words[..cut].join(" ");
    let value = words.get(cut + 1..).unwrap_or_default().join(" ");
    let declared = OPTIONS.iter().any(|o| {
        o.strip_prefix("option name ")
            .and_then(|rest| rest.split(" type ").next())
            .is_some_and(|n| n.eq_ignore_ascii_case(&name))
    });
    if !declared {
        engine.say(&format!("info string No such option: {name}"));
    } else if name.eq_ignore_ascii_case("MultiPV") {
        if let Some(k) = value.parse().ok().filter(|k| (1..=128).contains(k)) {
            engine.multipv = k;
        }
    } else if name.eq_ignore_ascii_case("UCI_ShowWDL") && matches!(value.as_str(), "true" | "false")
    {
        engine.wdl = value == "true";
    }
}

/// `position {startpos | fen FEN} [moves ...]` with ICCS squares; the reason for a position
/// Pikafish refuses.
fn position(engine: &mut Engine, line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let mut pos = match words.first() {
        Some(&"startpos") => Position::start(),
        Some(&"fen") => Position::from_fen(&words[1..moves_at].join(" "))
            .map_err(|e| format!("Invalid FEN: {e}"))?,
        _ => return Ok(()),
    };
    for w in words.iter().skip(moves_at + 1) {
        match parse_iccs(w) {
            Ok(m) if pos.is_legal(m) => pos.make_move(m),
            _ => return Err(format!("Illegal move: {w}")),
        }
    }
    engine.pos = pos;
    Ok(())
}

/// What a piece is worth to this engine, in centipawns.
fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Chariot => 900,
        Kind::Horse | Kind::Cannon => 400,
        Kind::Advisor | Kind::Elephant => 200,
        Kind::Soldier => 100,
        Kind::General => 10_000,
    }
}

/// Searches as Pikafish reports: `go depth D` (3 by default) with MultiPV lines, `go infinite`
/// answered after `stop`. Returns `false` when told to quit meanwhile.
fn go(engine: &mut Engine, line: &str, lines: &mut impl Iterator<Item = String>) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let infinite = words.contains(&"infinite");
    let depth = words
        .iter()
        .position(|&w| w == "depth")
        .and_then(|i| words.get(i + 1)?.parse::<u32>().ok())
        .unwrap_or(3)
        .max(1);
    engine.say("info string Available processors: 0-1");
    engine.say("info string Using 1 thread");
    let ranked = ranked_moves(engine);
    if ranked.is_empty() {
        engine.say("info depth 0 score mate 0");
    } else {
        for d in 1..=depth {
            for (k, (m, score)) in ranked.iter().take(engine.multipv).enumerate() {
                let nodes = u64::from(d) * 1000 + k as u64 * 37;
                let time = u64::from(d) * 2;
                let wdl = if engine.wdl { " wdl 420 380 200" } else { "" };
                let pv = principal_variation(&engine.pos, *m);
                engine.say(&format!(
                    "info depth {d} seldepth {} multipv {} score {score}{wdl} nodes {nodes} nps {} hashfull {} tbhits 0 time {time} pv {}",
                    d + 2,
                    k + 1,
                    nodes * 1000 / time,
                    d * 3,
                    pv.join(" ")
                ));
            }
        }
    }
    if infinite {
        // Pikafish answers `isready` while it searches, and stops on `stop` or `quit`.
        loop {
            match lines.next().as_deref().map(str::trim) {
                Some("stop") => break,
                Some("isready") => engine.say("readyok"),
                Some("quit") | None => return false,
                Some(_) => {}
            }
        }
    }
    match ranked.first() {
        None => engine.say("bestmove (none)"),
        Some((m, _)) => {
            let pv = principal_variation(&engine.pos, *m);
            match pv.get(1) {
                Some(ponder) => engine.say(&format!("bestmove {} ponder {ponder}", pv[0])),
                None => engine.say(&format!("bestmove {}", pv[0])),
            }
        }
    }
    true
}

/// The legal moves, the test engine's choice first, then captures of the most valuable piece,
/// each with its score as Pikafish writes it (`cp N`, or `mate 1` for a mating move).
fn ranked_moves(engine: &mut Engine) -> Vec<(Move, String)> {
    let Some(first) = engine.choose() else {
        return Vec::new();
    };
    let mut pos = engine.pos.clone();
    let mut others: Vec<(i32, Move)> = pos
        .legal_move_list()
        .iter()
        .copied()
        .filter(|&m| m != first)
        .map(|m| (pos.piece_at(m.to()).map_or(0, |p| value(p.kind())), m))
        .collect();
    others.sort_by_key(|&(v, m)| (-v, m.to_u16()));
    let moves = std::iter::once(first).chain(others.into_iter().map(|(_, m)| m));
    moves
        .enumerate()
        .map(|(k, m)| {
            let gain = pos.piece_at(m.to()).map_or(0, |p| value(p.kind()));
            pos.make_move(m);
            let mates = pos.legal_move_list().is_empty();
            pos.unmake_move();
            let cp = gain - 7 * i32::try_from(k).unwrap_or(i32::MAX / 8);
            let score = if mates {
                "mate 1".to_owned()
            } else {
                format!("cp {cp}")
            };
            (m, score)
        })
        .collect()
}

/// `m` and the first legal reply to it, in ICCS.
fn principal_variation(pos: &Position, m: Move) -> Vec<String> {
    let mut pos = pos.clone();
    let mut pv = vec![m.to_string()];
    pos.make_move(m);
    if let Some(reply) = pos.legal_move_list().iter().next() {
        pv.push(reply.to_string());
    }
    pv
}
