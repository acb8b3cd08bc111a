//! What the runner prints: a line per finished game, the running score or table, and the
//! final statistics. The wording follows cutechess-cli's, which scripts already parse
//! (`Score of A vs B: W - L - D [score] N`, `Elo difference: X +/- Y`).

use std::fmt::Write as _;

use crate::stats::{Sprt, SprtDecision, Wdl, elo_pentanomial, elo_trinomial, fmt_elo, los};
use crate::tournament::{Finished, Standings};

/// `Finished game 3 (A vs B): 1-0 {Red mates}`.
#[must_use]
pub fn game_line(f: &Finished) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        f.job.number,
        f.record.red,
        f.record.black,
        f.record.ending.outcome.pgn(),
        f.record.ending
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

/// The Elo lines of a two-engine match, with the SPRT line when a test runs.
#[must_use]
pub fn match_elo(names: &[String], s: &Standings, sprt: Option<&Sprt>) -> String {
    let mut out = String::new();
    let w = s.first;
    // Pentanomial when every game so far is in a complete pair (openings played both ways).
    let paired = s.pairs.pairs() > 0 && s.pairs.pairs() * 2 == w.games();
    let est = if paired {
        elo_pentanomial(&s.pairs)
    } else {
        elo_trinomial(&w)
    };
    if let Some(e) = est {
        let _ = write!(
            out,
            "Elo difference ({} vs {}): {} +/- {} (95%: {} to {}, {})",
            names[0],
            names[1],
            fmt_elo(e.elo),
            fmt_elo(e.margin()),
            fmt_elo(e.lower),
            fmt_elo(e.upper),
            if paired { "pentanomial" } else { "trinomial" }
        );
        if let Some(l) = los(&w) {
            let _ = write!(out, ", LOS: {:.1} %", 100.0 * l);
        }
        if let Some(d) = w.draw_ratio() {
            let _ = write!(out, ", DrawRatio: {:.1} %", 100.0 * d);
        }
        if paired {
            let p = s.pairs.0;
            let _ = write!(
                out,
                "\nGame pairs (0, 1/2, 1, 3/2, 2 points): [{}, {}, {}, {}, {}]",
                p[0], p[1], p[2], p[3], p[4]
            );
        }
    }
    if let Some(t) = sprt {
        let st = t.status_pentanomial_or_trinomial(s);
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
