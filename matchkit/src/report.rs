//! What a match runner prints, whatever the game: the running score or table and the final
//! statistics, as text and as JSON. The wording follows cutechess-cli's, which scripts already parse
//! (`Score of A vs B: W - L - D [score] N`, `Elo difference: X +/- Y`).

use std::fmt::Write as _;

use crate::standings::Standings;
use crate::stats::{
    EloEstimate, Sprt, SprtDecision, Wdl, elo_pentanomial, elo_trinomial, fmt_elo, los,
};

/// What an interrupted run says before its final report: `Interrupted by SIGTERM: 2 games in
/// progress abandoned (...)`.
#[must_use]
pub fn interrupted_line(signal: &str, s: &Standings) -> String {
    let what = match s.abandoned {
        0 => " between games".to_owned(),
        k => format!(
            ": {} in progress abandoned (not counted, not written)",
            chariot_cli::count(k as u64, "game", "games")
        ),
    };
    format!(
        "Interrupted by {signal}{what}; the same command with --resume (and --pgnout) plays the \
         rest"
    )
}

/// `Score of A vs B: W - L - D [0.550] N` for a two-engine match.
#[must_use]
pub fn score_line(names: &[String], s: &Standings) -> String {
    let w = s.first;
    format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score().unwrap_or(0.5),
        w.games()
    )
}

/// The Elo estimate of a two-engine match, and whether it is pentanomial: it is when every
/// finished game is in a complete pair (an opening played with both colours), otherwise it is
/// trinomial over all games.
pub fn match_estimate(s: &Standings) -> (Option<EloEstimate>, bool) {
    let pairs = s.pairs.pairs();
    let paired = pairs > 0 && pairs * 2 == s.first.games();
    let e = if paired {
        elo_pentanomial(&s.pairs)
    } else {
        elo_trinomial(&s.first)
    };
    (e, paired)
}

/// The Elo lines of a two-engine match, with the SPRT line when a test runs.
///
/// When every finished game is in a complete pair (an opening played with both colours) the
/// estimate is pentanomial; otherwise it is trinomial over all games, and a second line gives
/// the pentanomial estimate of the complete pairs, the games the SPRT counts.
#[must_use]
pub fn match_elo(names: &[String], s: &Standings, sprt: Option<&Sprt>) -> String {
    let mut out = String::new();
    let w = s.first;
    let pairs = s.pairs.pairs();
    let (est, paired) = match_estimate(s);
    if let Some(e) = est {
        let _ = write!(
            out,
            "Elo difference ({} vs {}): {}",
            names[0],
            names[1],
            estimate(&e, if paired { "pentanomial" } else { "trinomial" })
        );
        if let Some(l) = los(&w) {
            let _ = write!(out, ", LOS: {:.1} %", 100.0 * l);
        }
        if let Some(d) = w.draw_ratio() {
            let _ = write!(out, ", DrawRatio: {:.1} %", 100.0 * d);
        }
    }
    if !paired
        && pairs > 0
        && let Some(e) = elo_pentanomial(&s.pairs)
    {
        let _ = write!(
            out,
            "\nElo difference on the {pairs} complete game {}: {}",
            if pairs == 1 { "pair" } else { "pairs" },
            estimate(&e, "pentanomial")
        );
    }
    if pairs > 0 && !out.is_empty() {
        let p = s.pairs.0;
        let _ = write!(
            out,
            "\nGame pairs (0, 1/2, 1, 3/2, 2 points): [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        );
    }
    if let Some(t) = sprt {
        let st = s.sprt_status(t);
        if !out.is_empty() {
            out.push('\n');
        }
        let verdict = match st.decision {
            SprtDecision::Continue => "",
            SprtDecision::AcceptH0 => " - H0 was accepted",
            SprtDecision::AcceptH1 => " - H1 was accepted",
        };
        let _ = write!(
            out,
            "SPRT (elo0 {}, elo1 {}, alpha {}, beta {}): llr {:.3} ({:.1}%), lbound {:.3}, ubound {:.3}{verdict}",
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            st.llr,
            100.0 * st.llr / st.upper,
            st.lower,
            st.upper
        );
    }
    out
}

/// `X +/- M (95%: L to U, MODEL)`.
fn estimate(e: &crate::stats::EloEstimate, model: &str) -> String {
    format!(
        "{} +/- {} (95%: {} to {}, {model})",
        fmt_elo(e.elo),
        fmt_elo(e.margin()),
        fmt_elo(e.lower),
        fmt_elo(e.upper)
    )
}

/// The standings table of a tournament: rank, name, Elo against the field with its margin,
/// games, points, score, draws.
#[must_use]
pub fn table(names: &[String], s: &Standings) -> String {
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| s.points(b).total_cmp(&s.points(a)).then(a.cmp(&b)));
    let mut out = format!(
        "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>7} {:>7}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Points", "Score", "Draw"
    );
    for (rank, &p) in order.iter().enumerate() {
        let w: Wdl = s.players[p];
        let (elo, margin) = match elo_trinomial(&w) {
            Some(e) => (fmt_elo(e.elo), fmt_elo(e.margin())),
            None => ("-".into(), "-".into()),
        };
        let pct = |x: Option<f64>| x.map_or("-".to_owned(), |v| format!("{:.1}%", 100.0 * v));
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>7} {:>7}",
            rank + 1,
            names[p],
            elo,
            margin,
            w.games(),
            format!("{:.1}", s.points(p)),
            pct(w.score()),
            pct(w.draw_ratio()),
        );
    }
    out
}

/// `--json`: the results at the end, as a line of JSON.
#[derive(Debug, serde::Serialize)]
pub struct ResultsJson<'a> {
    /// Always `"results"`.
    pub event: &'static str,
    /// Games finished (those of an earlier run included).
    pub finished: usize,
    /// Games without a result.
    pub unfinished: usize,
    /// Games counted from an earlier run (`--resume`).
    pub resumed: usize,
    /// A signal stopped the run before its schedule was done.
    pub interrupted: bool,
    /// Games in progress when it was interrupted (neither counted nor written).
    pub abandoned: usize,
    /// The players, best first.
    pub standings: Vec<PlayerJson<'a>>,
    /// Two engines: the match from the first engine's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#match: Option<MatchJson>,
}

/// A player's line of the standings.
#[derive(Debug, serde::Serialize)]
pub struct PlayerJson<'a> {
    /// 1-based rank.
    pub rank: usize,
    /// The name.
    pub name: &'a str,
    /// Games played.
    pub games: u32,
    /// Wins, draws and losses.
    #[serde(flatten)]
    pub wdl: Wdl,
    /// Points, Swiss byes included.
    pub points: f64,
    /// Elo against the field, with its 95% interval.
    #[serde(flatten)]
    pub elo: EloJson,
}

/// An Elo estimate with its 95% interval; `null` where infinite or unknown.
#[derive(Debug, serde::Serialize)]
pub struct EloJson {
    /// The estimate.
    pub elo: Option<f64>,
    /// Lower end of the interval.
    pub elo_lower: Option<f64>,
    /// Upper end of the interval.
    pub elo_upper: Option<f64>,
}

impl EloJson {
    fn of(e: Option<crate::stats::EloEstimate>) -> EloJson {
        EloJson {
            elo: e.and_then(|e| finite(e.elo)),
            elo_lower: e.and_then(|e| finite(e.lower)),
            elo_upper: e.and_then(|e| finite(e.upper)),
        }
    }
}

/// A two-engine match's statistics, from the first engine's side.
#[derive(Debug, serde::Serialize)]
pub struct MatchJson {
    /// Wins, draws and losses of the first engine.
    #[serde(flatten)]
    pub wdl: Wdl,
    /// The first engine's mean score.
    pub score: Option<f64>,
    /// The Elo difference and its 95% interval.
    #[serde(flatten)]
    pub elo: EloJson,
    /// `pentanomial` (every game in a complete pair) or `trinomial`.
    pub model: &'static str,
    /// Likelihood of superiority of the first engine.
    pub los: Option<f64>,
    /// Game pairs scoring 0, 1/2, 1, 3/2, 2 points for the first engine.
    pub pairs: [u32; 5],
    /// The Elo difference of the complete game pairs alone (pentanomial), when some games are
    /// not in one and `model` is therefore `trinomial`; the SPRT counts these pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs_elo: Option<EloJson>,
    /// The SPRT, when one runs.
    pub sprt: Option<SprtJson>,
}

/// The SPRT's state.
#[derive(Debug, serde::Serialize)]
pub struct SprtJson {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// Lower bound.
    pub lower: f64,
    /// Upper bound.
    pub upper: f64,
    /// `continue`, `H0` or `H1`.
    pub decision: &'static str,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some((x * 100.0).round() / 100.0)
}

/// The results of a tournament for `--json`.
#[must_use]
pub fn results_json<'a>(
    names: &'a [String],
    s: &Standings,
    sprt: Option<&Sprt>,
) -> ResultsJson<'a> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| s.points(b).total_cmp(&s.points(a)).then(a.cmp(&b)));
    let standings = order
        .iter()
        .enumerate()
        .map(|(rank, &p)| {
            let w = s.players[p];
            PlayerJson {
                rank: rank + 1,
                name: &names[p],
                games: w.games(),
                wdl: w,
                points: s.points(p),
                elo: EloJson::of(elo_trinomial(&w)),
            }
        })
        .collect();
    let r#match = (names.len() == 2).then(|| {
        let w = s.first;
        let (e, paired) = match_estimate(s);
        MatchJson {
            wdl: w,
            score: w.score(),
            elo: EloJson::of(e),
            model: if paired { "pentanomial" } else { "trinomial" },
            los: los(&w),
            pairs: s.pairs.0,
            pairs_elo: (!paired && s.pairs.pairs() > 0)
                .then(|| EloJson::of(elo_pentanomial(&s.pairs))),
            sprt: sprt.map(|t| {
                let st = s.sprt_status(t);
                SprtJson {
                    llr: st.llr,
                    lower: st.lower,
                    upper: st.upper,
                    decision: match st.decision {
                        SprtDecision::Continue => "continue",
                        SprtDecision::AcceptH0 => "H0",
                        SprtDecision::AcceptH1 => "H1",
                    },
                }
            }),
        }
    });
    ResultsJson {
        event: "results",
        finished: s.finished,
        unfinished: s.unfinished,
        resumed: s.resumed,
        interrupted: s.interrupted,
        abandoned: s.abandoned,
        standings,
        r#match,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Pentanomial;

    fn standings(first: Wdl, pairs: Pentanomial) -> Standings {
        let mut s = Standings::default();
        s.players = vec![first, first.flipped()];
        s.byes = vec![0, 0];
        s.first = first;
        s.pairs = pairs;
        s.finished = first.games() as usize;
        s
    }

    fn names() -> Vec<String> {
        vec!["A".to_owned(), "B".to_owned()]
    }

    #[test]
    fn an_interrupted_run_says_how_many_games_it_abandoned() {
        let mut s = standings(Wdl::default(), Pentanomial([0; 5]));
        assert_eq!(
            interrupted_line("SIGINT", &s),
            "Interrupted by SIGINT between games; the same command with --resume (and --pgnout) \
             plays the rest"
        );
        s.abandoned = 1;
        assert!(
            interrupted_line("SIGTERM", &s)
                .starts_with("Interrupted by SIGTERM: 1 game in progress abandoned (not counted")
        );
        s.abandoned = 2;
        assert!(interrupted_line("SIGTERM", &s).contains(": 2 games in progress abandoned"));
        s.interrupted = true;
        let json = serde_json::to_value(results_json(&names(), &s, None)).unwrap();
        assert_eq!(
            (&json["interrupted"], &json["abandoned"]),
            (&true.into(), &2.into())
        );
    }

    #[test]
    fn a_match_of_complete_pairs_has_one_pentanomial_line() {
        let s = standings(
            Wdl {
                wins: 5,
                draws: 3,
                losses: 2,
            },
            Pentanomial([0, 1, 2, 1, 1]),
        );
        let text = match_elo(&names(), &s, None);
        assert!(text.starts_with("Elo difference (A vs B): "), "{text}");
        assert!(text.contains(", pentanomial), LOS"), "{text}");
        assert!(!text.contains("complete game pair"), "{text}");
        assert!(text.contains("Game pairs (0, 1/2, 1, 3/2, 2 points): [0, 1, 2, 1, 1]"));
    }

    #[test]
    fn a_match_ending_on_an_odd_game_also_shows_its_pairs() {
        // 11 games: five complete pairs (the SPRT's) and one game waiting for its partner.
        let pairs = Pentanomial([0, 1, 2, 1, 1]);
        let s = standings(
            Wdl {
                wins: 6,
                draws: 3,
                losses: 2,
            },
            pairs,
        );
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 15.0,
            alpha: 0.05,
            beta: 0.1,
        };
        let text = match_elo(&names(), &s, Some(&sprt));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].contains(", trinomial), LOS"), "{text}");
        let e = elo_pentanomial(&pairs).unwrap();
        assert_eq!(
            lines[1],
            format!(
                "Elo difference on the 5 complete game pairs: {}",
                estimate(&e, "pentanomial")
            )
        );
        assert!(lines[2].starts_with("Game pairs"), "{text}");
        assert!(lines[3].starts_with("SPRT"), "{text}");

        let json = serde_json::to_value(results_json(&names(), &s, Some(&sprt))).unwrap();
        let m = &json["match"];
        assert_eq!(m["model"], "trinomial");
        assert!(m["pairs_elo"]["elo"].as_f64().unwrap() > 0.0, "{json}");
        let paired = standings(
            Wdl {
                wins: 5,
                draws: 3,
                losses: 2,
            },
            pairs,
        );
        let json = serde_json::to_value(results_json(&names(), &paired, None)).unwrap();
        assert!(json["match"].get("pairs_elo").is_none(), "{json}");
    }
}
