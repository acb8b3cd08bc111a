//! What the engine writes, in each protocol's words: search reports, notes and the answer.
//!
//! UCCI scores are one number of centipawns with mates as ±(10000 − plies) (ElephantEye's
//! scale), reports carry no bounds (UCCI has no syntax for them), book notes are `info message`
//! and the answer may carry `draw` or `resign`. UCI scores are `cp N` or `mate M` in moves,
//! bounds are marked, and a position without a move answers `bestmove (none)`.

use crate::api::{Answer, Source, centipawns};
use crate::search::{Bound, Info, Report, Score};
use chariot_formats::egtb::{Metric, Value as TbValue};

use super::Proto;
use super::uci::SquareNaming;

/// A UCI score: `cp N`, or `mate M` with M in moves (negative when mated).
#[must_use]
pub fn uci_score(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(p) if p > 0 => format!("mate {}", (p + 1) / 2),
        Score::Mate(p) => format!("mate {}", -((-p + 1) / 2)),
    }
}

/// How the engine writes for one protocol.
#[derive(Clone, Copy, Debug)]
pub struct Writer {
    /// The protocol.
    pub proto: Proto,
    /// How squares are named (UCI with `UCI_Variant xiangqi`: ranks 1-10).
    pub naming: SquareNaming,
}

impl Writer {
    fn line(&self, moves: &[chariot_rules::Move]) -> String {
        moves
            .iter()
            .map(|&m| self.naming.format(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A search report as an `info` line; `None` for what the protocol cannot say (a bound in
    /// UCCI).
    #[must_use]
    pub fn report(&self, r: &Report<'_>) -> Option<String> {
        let pv = |info: &Info| self.line(&info.pv);
        Some(match (self.proto, r) {
            (Proto::Ucci, Report::Iteration(info)) => {
                if info.bound != Bound::Exact {
                    return None;
                }
                format!(
                    "info depth {} score {} time {} nodes {} nps {} pv {}",
                    info.depth,
                    centipawns(info.score),
                    info.time.as_millis(),
                    info.nodes,
                    info.nps,
                    pv(info)
                )
            }
            (Proto::Uci, Report::Iteration(info)) => {
                let bound = match info.bound {
                    Bound::Exact => "",
                    Bound::Lower => " lowerbound",
                    Bound::Upper => " upperbound",
                };
                format!(
                    "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
                    info.depth,
                    info.seldepth,
                    info.multipv,
                    uci_score(info.score),
                    info.nodes,
                    info.nps,
                    info.hashfull,
                    info.tbhits,
                    info.time.as_millis(),
                    pv(info)
                )
            }
            (Proto::Ucci, Report::CurrMove { mv, .. }) => {
                format!("info currmove {}", self.naming.format(*mv))
            }
            (Proto::Uci, Report::CurrMove { depth, mv, number }) => format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                self.naming.format(*mv)
            ),
            (Proto::Ucci, Report::String(s)) => format!("info message {s}"),
            (Proto::Uci, Report::String(s)) => format!("info string {s}"),
        })
    }

    /// The lines that answer a `go` without a move: UCCI `nobestmove` (the specification's
    /// word); UCI `bestmove (none)` (UCI has no `nobestmove`; `(none)` is what Stockfish and
    /// Pikafish write and what GUIs and cchess parse, where `0000` crashed cchess), preceded by
    /// `info depth 0 score mate 0` when `mated` (no legal move: in Xiangqi a stalemate is lost too).
    #[must_use]
    pub fn no_move(&self, mated: bool) -> Vec<String> {
        match self.proto {
            Proto::Ucci => vec!["nobestmove".to_owned()],
            Proto::Uci if mated => vec![
                "info depth 0 score mate 0".to_owned(),
                "bestmove (none)".to_owned(),
            ],
            Proto::Uci => vec!["bestmove (none)".to_owned()],
        }
    }

    /// The lines that end a `go`: what a book or table move says about itself, then `bestmove`
    /// (with `ponder`, and in UCCI `draw` or `resign`) or UCCI's `nobestmove`.
    #[must_use]
    pub fn answer(&self, a: &Answer) -> Vec<String> {
        let mut lines = Vec::new();
        match &a.source {
            Source::Search => {
                if self.proto == Proto::Ucci {
                    lines.push(format!(
                        "info time {} nodes {}",
                        a.elapsed.as_millis(),
                        a.result.nodes
                    ));
                }
            }
            Source::Book(choice) => {
                let pv = self.line(
                    &[a.result.best, a.result.ponder]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>(),
                );
                let s = choice.chosen.stats;
                let pct = |n: u32| {
                    if s.games == 0 {
                        0.0
                    } else {
                        100.0 * f64::from(n) / f64::from(s.games)
                    }
                };
                let text = format!(
                    "book move {}: {} games, red {:.0}% draw {:.0}% black {:.0}%, weight {} ({:.0}%)",
                    self.naming.format(choice.chosen.mv),
                    s.games,
                    pct(s.red_wins),
                    pct(s.draws),
                    pct(s.black_wins),
                    choice.chosen.weight,
                    100.0 * choice.share()
                );
                match self.proto {
                    Proto::Uci => {
                        lines.push(format!("info depth 1 score cp 0 nodes 0 time 0 pv {pv}"));
                        lines.push(format!("info string {text}"));
                    }
                    Proto::Ucci => {
                        lines.push(format!("info depth 0 score 0 pv {pv}"));
                        lines.push(format!("info message {text}"));
                    }
                }
            }
            Source::Tables {
                value,
                metric,
                line,
            } => {
                let pv = self.line(line);
                match self.proto {
                    Proto::Uci => {
                        // A win by the rule, or by distance to conversion, is no mate: it
                        // scores as the search scores it.
                        let score = match (value, metric) {
                            (TbValue::Win(_) | TbValue::Loss(_), Metric::Dtm) => {
                                uci_score(a.result.score)
                            }
                            _ => a.result.score.to_string(),
                        };
                        lines.push(format!(
                            "info depth {} score {score} nodes 0 tbhits 1 time 0 pv {pv}",
                            line.len()
                        ));
                    }
                    Proto::Ucci => lines.push(format!(
                        "info depth {} score {} pv {pv}",
                        line.len(),
                        centipawns(a.result.score)
                    )),
                }
            }
        }
        let Some(best) = a.result.best else {
            lines.extend(self.no_move(a.result.score == Score::Mate(0)));
            return lines;
        };
        let mut last = format!("bestmove {}", self.naming.format(best));
        if let Some(p) = a.result.ponder {
            last += &format!(" ponder {}", self.naming.format(p));
        }
        if self.proto == Proto::Ucci {
            if a.verdict.resign {
                last += " resign";
            } else if a.verdict.draw {
                last += " draw";
            }
        }
        lines.push(last);
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_mates_count_moves() {
        assert_eq!(uci_score(Score::Cp(-35)), "cp -35");
        assert_eq!(uci_score(Score::Mate(1)), "mate 1");
        assert_eq!(uci_score(Score::Mate(3)), "mate 2");
        assert_eq!(uci_score(Score::Mate(-2)), "mate -1");
        assert_eq!(uci_score(Score::Mate(0)), "mate 0");
        assert_eq!(centipawns(Score::Mate(3)), 9997);
        assert_eq!(centipawns(Score::Mate(-2)), -9998);
    }
}
