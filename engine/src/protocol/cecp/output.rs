//! What the engine writes in CECP: the `feature` lines of the handshake (the options from the
//! engine's registry, [`crate::api::options`]), thinking output, and the lines that end a
//! search: `offer draw`, `resign`, `move MOVE` and a result claim.
//!
//! Thinking output is `ply score time nodes seldepth speed tbhits<TAB>pv`: time in centiseconds,
//! the score in centipawns from the side to move's view, mates as ±(100000 + moves) as the
//! specification asks, and a `?` (fail low) or `!` (fail high) after a bound's line. A book or
//! table move is reported with its line in parentheses, the specification's way of saying that
//! no search was made.

use crate::api::options::{Kind, OPTIONS};
use crate::api::{Answer, Source};
use crate::search::{Bound, Report, Score};
use chariot_rules::{Ending, Move};

/// CECP's mate score: mate in N moves is `MATE + N`, mated in N is `-(MATE + N)`.
pub const MATE: i64 = 100_000;

/// A score as CECP writes it: centipawns, mates as ±([`MATE`] + moves).
#[must_use]
pub fn score(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(p) if p > 0 => MATE + i64::from((p + 1) / 2),
        Score::Mate(p) => -(MATE + i64::from((-p + 1) / 2)),
    }
}

/// The `feature` lines that answer `protover`, with `name` as `myname`: the protocol features,
/// one `feature option="..."` per option the registry offers in CECP, then `feature done=1`.
///
/// `usermove=1` and `setboard=1` make the GUI send `usermove MOVE` and FENs; `sigint=0
/// sigterm=0` because input is read on its own thread; `colors=0` because the obsolete
/// `white`/`black` are not needed; `memory=1 smp=1` so that the GUI's hash size and core count
/// arrive as `memory` and `cores`; `debug=1` so that notes can be written as `# ...` lines;
/// `nps=0` because node-rate time is not supported.
#[must_use]
pub fn features(name: &str) -> Vec<String> {
    let mut lines = vec![format!(
        "feature myname=\"{name}\" variants=\"xiangqi\" setboard=1 usermove=1 time=1 draw=1 \
         ping=1 playother=1 analyze=1 sigint=0 sigterm=0 colors=0 reuse=1 san=0 memory=1 smp=1 \
         debug=1 nps=0 pause=0"
    )];
    lines.extend(OPTIONS.iter().filter_map(|o| {
        o.cecp
            .map(|n| format!("feature option=\"{n} {}\"", declaration(&o.kind)))
    }));
    lines.push("feature done=1".to_owned());
    lines
}

/// What follows an option's name in `feature option="..."`: `-check 0`, `-spin 30 0 5000`,
/// `-combo solid /// *normal /// risky` (the default marked), `-string `, `-button`.
fn declaration(kind: &Kind) -> String {
    match kind {
        Kind::Check { default, .. } => format!("-check {}", u8::from(*default)),
        Kind::Spin {
            min, max, default, ..
        } => format!("-spin {default} {min} {max}"),
        Kind::Combo {
            choices, default, ..
        } => {
            let marked: Vec<String> = choices
                .iter()
                .map(|c| {
                    if c == default {
                        format!("*{c}")
                    } else {
                        (*c).to_owned()
                    }
                })
                .collect();
            format!("-combo {}", marked.join(" /// "))
        }
        Kind::String { .. } => "-string ".to_owned(),
        Kind::Button { .. } => "-button".to_owned(),
    }
}

/// Moves as CECP writes them: ICCS coordinates, ranks 0-9 from Red's side (`h2e2`), which is
/// what XBoard uses on boards of ten ranks.
#[must_use]
pub fn line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A search report as a thinking line, or a `#` note for the search's own text; `None` for what
/// CECP has no words for (the current move).
#[must_use]
pub fn thinking(r: &Report<'_>) -> Option<String> {
    match r {
        Report::Iteration(info) => {
            let mark = match info.bound {
                Bound::Exact => "",
                Bound::Upper => "?",
                Bound::Lower => "!",
            };
            Some(format!(
                "{} {} {} {} {} {} {}\t{}{mark}",
                info.depth,
                score(info.score),
                info.time.as_millis() / 10,
                info.nodes,
                info.seldepth,
                info.nps,
                info.tbhits,
                line(&info.pv)
            ))
        }
        Report::CurrMove { .. } => None,
        Report::String(text) => Some(format!("# {text}")),
    }
}

/// The thinking line for a move the engine did not search for (from a book or the tables), or
/// `None` after a search (its lines were reported as it ran).
#[must_use]
pub fn source_line(a: &Answer) -> Option<String> {
    match &a.source {
        Source::Search => None,
        Source::Book(choice) => {
            let s = choice.chosen.stats;
            Some(format!(
                "0 0 0 0 (book {}: {} games, {:.0}% of the book's weight here)",
                choice.chosen.mv,
                s.games,
                100.0 * choice.share()
            ))
        }
        Source::Tables { line: moves, .. } => Some(format!(
            "{} {} 0 0 (tables) {}",
            moves.len(),
            score(a.result.score),
            line(moves)
        )),
    }
}

/// A result claim: `1-0 {Red mates}`, `0-1 {Red loses by perpetual check}`, `1/2-1/2 {draw by
/// repetition}` (Red is XBoard's White, the side that moves first).
#[must_use]
pub fn claim(ending: &Ending) -> String {
    format!("{} {{{ending}}}", ending.outcome.pgn())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_are_100000_plus_moves() {
        assert_eq!(score(Score::Cp(-35)), -35);
        assert_eq!(score(Score::Mate(1)), 100_001);
        assert_eq!(score(Score::Mate(3)), 100_002);
        assert_eq!(score(Score::Mate(-2)), -100_001);
        assert_eq!(score(Score::Mate(0)), -100_000);
    }

    #[test]
    fn the_options_come_from_the_registry_with_cecp_names() {
        let lines = features("Chariot");
        assert!(lines[0].starts_with("feature myname=\"Chariot\" variants=\"xiangqi\""));
        assert_eq!(lines.last().map(String::as_str), Some("feature done=1"));
        let has = |l: &str| lines.iter().any(|x| x == l);
        assert!(has(
            "feature option=\"Style -combo solid /// *normal /// risky\""
        ));
        assert!(has("feature option=\"Move Overhead -spin 30 0 5000\""));
        assert!(has("feature option=\"OwnBook -check 1\""));
        assert!(has("feature option=\"Clear Hash -button\""));
        assert!(has("feature option=\"EvalFile -string \""));
        assert!(has(
            "feature option=\"Idle -combo *none /// small /// medium /// large\""
        ));
        // What a protocol command sets is no option: memory, cores, hard/easy, new, variant.
        for name in [
            "Hash",
            "Threads",
            "Ponder",
            "newgame",
            "UCI_Variant",
            "usemillisec",
        ] {
            assert!(
                !lines
                    .iter()
                    .any(|l| l.contains(&format!("option=\"{name} "))),
                "{name}: {lines:?}"
            );
        }
        let combos = lines.iter().filter(|l| l.contains(" -combo ")).count();
        assert_eq!(combos, 6, "{lines:?}");
    }
}
