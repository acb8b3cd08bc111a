//! The one parser of an engine's `info` lines, UCCI's and UCI's alike.
//!
//! A line is read word by word into an [`Info`]: `depth`, `seldepth`, `multipv`, the score
//! (UCCI `score N`; UCI `score cp N` or `score mate N`, maybe followed by `lowerbound` or
//! `upperbound`), `nodes`, `nps`, `time` (milliseconds), `hashfull`, `tbhits`, and the
//! principal variation after `pv` (moves as text, read by the game's side). Everything after
//! `string` (UCI) or `message` (UCCI) is free text; so is the rest of the line after `pv`.
//! Words the parser does not know (`currmove`, `wdl W D L`, an engine's own) are skipped.
//!
//! [`read_info`] keeps what a runner keeps of a line: its depth and score, and nothing of a line
//! whose score is a UCI `lowerbound`/`upperbound`: a bound is what a fail-high or fail-low
//! search proved of the score, not the score, and a GUI that showed it would show a jump the
//! engine did not mean (cutechess and fastchess do the same).
//!
//! Pikafish, for one, writes `info depth 12 seldepth 17 multipv 1 score cp 31 nodes 50133 nps
//! 501330 hashfull 12 tbhits 0 time 100 pv h2e2 h9g7`, and `info depth 0 score mate 0` when the
//! side to move has no move.

use std::time::Duration;

use crate::engine::EngineScore;

/// A score that is a bound, not the score: what a fail-high (`lowerbound`) or fail-low
/// (`upperbound`) search proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is at least this (`lowerbound`).
    Lower,
    /// The score is at most this (`upperbound`).
    Upper,
}

/// What one `info` line says; a field the line does not give is `None` (or empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Selective depth.
    pub seldepth: Option<u32>,
    /// Which of several lines (MultiPV), from 1.
    pub multipv: Option<u32>,
    /// The score, from the side to move's view.
    pub score: Option<EngineScore>,
    /// `lowerbound` or `upperbound` after the score.
    pub bound: Option<Bound>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time searched.
    pub time: Option<Duration>,
    /// The hash table's fill, per mille.
    pub hashfull: Option<u32>,
    /// Tablebase hits.
    pub tbhits: Option<u64>,
    /// The principal variation, moves as the engine wrote them.
    pub pv: Vec<String>,
    /// The text after `string` or `message`.
    pub text: Option<String>,
}

impl Info {
    /// Reads an `info` line (the word `info` first); `None` for a line that is not one.
    #[must_use]
    pub fn parse(line: &str) -> Option<Info> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return None;
        }
        let mut info = Info::default();
        let mut i = 1;
        while i < words.len() {
            match words[i] {
                "depth" => info.depth = number(&words, i + 1).or(info.depth),
                "seldepth" => info.seldepth = number(&words, i + 1).or(info.seldepth),
                "multipv" => info.multipv = number(&words, i + 1).or(info.multipv),
                "nodes" => info.nodes = number(&words, i + 1).or(info.nodes),
                "nps" => info.nps = number(&words, i + 1).or(info.nps),
                "hashfull" => info.hashfull = number(&words, i + 1).or(info.hashfull),
                "tbhits" => info.tbhits = number(&words, i + 1).or(info.tbhits),
                "time" => {
                    info.time = number(&words, i + 1)
                        .map(Duration::from_millis)
                        .or(info.time)
                }
                "score" => {
                    let (score, used) = match words.get(i + 1).copied() {
                        Some("cp") => (number(&words, i + 2).map(EngineScore::Cp), 3),
                        Some("mate") => (number(&words, i + 2).map(EngineScore::Mate), 3),
                        Some(w) => (w.parse().ok().map(EngineScore::Cp), 2),
                        None => (None, 1),
                    };
                    info.score = score.or(info.score);
                    i += used;
                    continue;
                }
                "lowerbound" => info.bound = Some(Bound::Lower),
                "upperbound" => info.bound = Some(Bound::Upper),
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|&w| w.to_owned()).collect();
                    break;
                }
                "string" | "message" => {
                    info.text = Some(words[i + 1..].join(" "));
                    break;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            // A keyword with one value.
            i += if matches!(words[i], "lowerbound" | "upperbound") {
                1
            } else {
                2
            };
        }
        Some(info)
    }
}

/// Takes `depth` and `score` from an `info` line: UCCI `score N`, UCI `score cp N` or
/// `score mate N`. A line with a bound score (UCI `lowerbound`/`upperbound`) is skipped whole.
/// The line is read by [`Info::parse`].
pub fn read_info(line: &str, score: &mut Option<EngineScore>, depth: &mut Option<u32>) {
    let Some(info) = Info::parse(line) else {
        return;
    };
    if info.bound.is_some() {
        return;
    }
    if let Some(d) = info.depth {
        *depth = Some(d);
    }
    if let Some(s) = info.score {
        *score = Some(s);
    }
}

/// The word at `i` as a number, if it is one.
fn number<T: std::str::FromStr>(words: &[&str], i: usize) -> Option<T> {
    words.get(i).and_then(|w| w.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scores_from_both_protocols() {
        let (mut s, mut d) = (None, None);
        read_info("info depth 6 score 4 pv c3c4 b9c7", &mut s, &mut d);
        assert_eq!((s, d), (Some(EngineScore::Cp(4)), Some(6)));
        read_info(
            "info depth 9 seldepth 12 multipv 1 score mate -3 nodes 5 pv a0a1",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(EngineScore::Mate(-3)), Some(9)));
        read_info(
            "info depth 10 score cp 20 lowerbound nodes 5",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(EngineScore::Mate(-3)), Some(9)));
        read_info("info string depth 99 score 5", &mut s, &mut d);
        assert_eq!(d, Some(9));
        assert_eq!(EngineScore::Cp(-150).to_string(), "-1.50");
        assert_eq!(EngineScore::Cp(7).to_string(), "+0.07");
        assert_eq!(EngineScore::Mate(-3).as_cp(), -29_997);
    }

    #[test]
    fn chess_info_lines_give_score_and_depth() {
        let (mut score, mut depth) = (None, None);
        read_info(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 1000 pv e2e4",
            &mut score,
            &mut depth,
        );
        assert_eq!((score, depth), (Some(EngineScore::Cp(-35)), Some(12)));
        read_info(
            "info depth 20 score mate 3 lowerbound",
            &mut score,
            &mut depth,
        );
        assert_eq!((score, depth), (Some(EngineScore::Cp(-35)), Some(12)));
        read_info("info depth 20 score mate 3", &mut score, &mut depth);
        assert_eq!((score, depth), (Some(EngineScore::Mate(3)), Some(20)));
        assert_eq!(EngineScore::Mate(-2).to_string(), "-M2");
    }

    #[test]
    fn reads_pikafish_lines() {
        let info = Info::parse(
            "info depth 12 seldepth 17 multipv 2 score cp -31 upperbound nodes 50133 nps 501330 \
             hashfull 12 tbhits 0 time 100 pv h2e2 h9g7",
        )
        .unwrap();
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(17));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some(EngineScore::Cp(-31)));
        assert_eq!(info.bound, Some(Bound::Upper));
        assert_eq!(info.nodes, Some(50_133));
        assert_eq!(info.nps, Some(501_330));
        assert_eq!(info.hashfull, Some(12));
        assert_eq!(info.tbhits, Some(0));
        assert_eq!(info.time, Some(Duration::from_millis(100)));
        assert_eq!(info.pv, ["h2e2", "h9g7"]);
        let none = Info::parse("info depth 0 score mate 0").unwrap();
        assert_eq!(
            (none.depth, none.score, none.pv.len()),
            (Some(0), Some(EngineScore::Mate(0)), 0)
        );
    }

    #[test]
    fn reads_ucci_lines_text_and_unknown_words() {
        let info = Info::parse("info depth 6 score 4 pv c3c4 b9c7").unwrap();
        assert_eq!(
            (info.depth, info.score, info.pv.len()),
            (Some(6), Some(EngineScore::Cp(4)), 2)
        );
        let info = Info::parse("info depth 3 currmove h2e2 currmovenumber 1 wdl 1 2 3").unwrap();
        assert_eq!((info.depth, info.score), (Some(3), None));
        let info = Info::parse("info string depth 99 score 5 book move").unwrap();
        assert_eq!(info.depth, None);
        assert_eq!(info.text.as_deref(), Some("depth 99 score 5 book move"));
        assert_eq!(Info::parse("bestmove h2e2"), None);
        // Values that are not numbers are not taken.
        let info = Info::parse("info depth x nodes -5 score cp").unwrap();
        assert_eq!((info.depth, info.nodes, info.score), (None, None, None));
    }
}
