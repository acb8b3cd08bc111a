//! Match statistics: Elo difference with a 95% interval, likelihood of superiority, and the
//! sequential probability ratio test. `docs/league.md` derives the formulas.
//!
//! All Elo figures are logistic Elo: a score `s` (wins plus half the draws, over the games)
//! means `-400 log10(1/s - 1)` Elo. The interval comes from the normal approximation of the
//! mean score: per game (trinomial: win, draw, loss) or per game pair (pentanomial: the pair's
//! total 0, 1/2, 1, 3/2, 2) when the games were played in pairs with colours swapped on one
//! opening, which removes the opening's bias from the variance. The SPRT is the generalised
//! SPRT with the same normal approximation (the method of fishtest and of current cutechess).

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Wdl {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

impl Wdl {
    /// Games.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: wins plus half the draws.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score per game, `None` without games.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The share of draws, `None` without games.
    #[must_use]
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| f64::from(self.draws) / f64::from(n))
    }

    /// The same results from the other side.
    #[must_use]
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The per-game outcomes as a distribution: (score, count) pairs.
    fn outcomes(&self) -> [(f64, u32); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }
}

/// Game pairs by their total score: index `k` counts pairs that scored `k/2` points
/// (0, 1/2, 1, 3/2, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Pairs.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Adds a pair whose two game scores (1, 1/2 or 0 each) add up to `half_points / 2`.
    pub fn add(&mut self, half_points: usize) {
        if let Some(c) = self.0.get_mut(half_points) {
            *c += 1;
        }
    }

    /// The pair outcomes as per-game scores: (score, count) pairs.
    fn outcomes(&self) -> [(f64, u32); 5] {
        let p = self.0;
        [
            (0.0, p[0]),
            (0.25, p[1]),
            (0.5, p[2]),
            (0.75, p[3]),
            (1.0, p[4]),
        ]
    }
}

/// An Elo difference with its 95% interval. Bounds may be infinite (a score of 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub lower: f64,
    /// The upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the interval's width: the `±` figure cutechess prints.
    #[must_use]
    pub fn margin(&self) -> f64 {
        if self.lower.is_finite() && self.upper.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// The Elo difference a mean score means: `-400 log10(1/s - 1)`, infinite at 0 and 1.
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a side that is `elo` Elo stronger.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of a discrete distribution given as (value, count) pairs; `None` when
/// it is empty.
fn mean_var(outcomes: &[(f64, u32)]) -> Option<(f64, f64, f64)> {
    let n: f64 = outcomes.iter().map(|&(_, c)| f64::from(c)).sum();
    if n == 0.0 {
        return None;
    }
    let mean = outcomes.iter().map(|&(x, c)| x * f64::from(c)).sum::<f64>() / n;
    let var = outcomes
        .iter()
        .map(|&(x, c)| f64::from(c) * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// The estimate from a distribution of per-unit scores.
fn estimate(outcomes: &[(f64, u32)]) -> Option<EloEstimate> {
    let (n, mean, var) = mean_var(outcomes)?;
    let se = (var / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        lower: elo_from_score(mean - Z95 * se),
        upper: elo_from_score(mean + Z95 * se),
    })
}

/// The Elo difference from wins, draws and losses (trinomial model); `None` without games.
#[must_use]
pub fn elo_trinomial(wdl: &Wdl) -> Option<EloEstimate> {
    estimate(&wdl.outcomes())
}

/// The Elo difference from game pairs (pentanomial model); `None` without pairs.
#[must_use]
pub fn elo_pentanomial(penta: &Pentanomial) -> Option<EloEstimate> {
    estimate(&penta.outcomes())
}

/// The likelihood of superiority: the probability that the side is the stronger, from its wins
/// and losses (draws carry no information here): `Φ((W − L) / √(W + L))`. `None` without
/// decisive games.
#[must_use]
pub fn los(wdl: &Wdl) -> Option<f64> {
    let (w, l) = (f64::from(wdl.wins), f64::from(wdl.losses));
    (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
}

/// The error function, to 1.5e-7 (Abramowitz and Stegun 7.1.26).
#[must_use]
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// The pseudo-count added to every outcome in the SPRT's likelihood ratio.
pub const PRIOR: f64 = 0.5;

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of the null hypothesis.
    pub elo0: f64,
    /// The Elo of the alternative hypothesis.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the log-likelihood ratio fell to the lower bound.
    AcceptH0,
    /// H1 accepted: the log-likelihood ratio rose to the upper bound.
    AcceptH1,
}

/// The state of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(β / (1 − α))`.
    pub lower: f64,
    /// `ln((1 − β) / α)`.
    pub upper: f64,
    /// The decision.
    pub decision: SprtDecision,
}

impl Sprt {
    /// A test from `KEY=VALUE` settings, as the command lines take it (`--sprt elo0=0 elo1=5`):
    /// `elo0` and `elo1` (required, `elo1` above `elo0`), `alpha` and `beta` (default 0.05,
    /// each between 0 and 0.5).
    ///
    /// # Errors
    ///
    /// A value that is not a finite number, an unknown key, a missing or out-of-range value,
    /// said without the option's name (the caller puts it in front).
    pub fn from_settings(settings: &[(String, String)]) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for (k, v) in settings {
            let x: f64 = v
                .parse()
                .map_err(|_| format!("{k}={v:?} is not a number"))?;
            if !x.is_finite() {
                return Err(format!("{k}={v:?} is not a finite number"));
            }
            match k.as_str() {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                _ => return Err(format!("unknown setting {k:?} (elo0, elo1, alpha, beta)")),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("needs elo0= and elo1=".to_owned());
        };
        if elo1 <= elo0 {
            return Err("elo1 must be greater than elo0".to_owned());
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// `ln(β / (1 − α))` and `ln((1 − β) / α)`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised log-likelihood ratio of a distribution of per-unit scores: with `n`
    /// units, mean `s` and variance `v`,
    /// `LLR = n (s1 − s0) (2s − s0 − s1) / (2v)`, where `s0`, `s1` are the expected scores at
    /// `elo0` and `elo1`.
    ///
    /// Every outcome is counted [`PRIOR`] times more than seen (a prior of half a unit on
    /// each), so that a one-sided or all-alike sample has a variance instead of none and the test
    /// still decides, but not on a handful of games; in samples of real size the prior is lost
    /// in the noise.
    fn llr(&self, outcomes: &[(f64, u32)]) -> f64 {
        let n: u32 = outcomes.iter().map(|&(_, c)| c).sum();
        if n == 0 {
            return 0.0;
        }
        let weights: Vec<(f64, f64)> = outcomes
            .iter()
            .map(|&(x, c)| (x, f64::from(c) + PRIOR))
            .collect();
        let total: f64 = weights.iter().map(|&(_, w)| w).sum();
        let s = weights.iter().map(|&(x, w)| x * w).sum::<f64>() / total;
        let var = weights
            .iter()
            .map(|&(x, w)| w * (x - s).powi(2))
            .sum::<f64>()
            / total;
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        f64::from(n) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The test on game results (trinomial).
    #[must_use]
    pub fn status_trinomial(&self, wdl: &Wdl) -> SprtStatus {
        self.status(self.llr(&wdl.outcomes()))
    }

    /// The test on game pairs (pentanomial).
    #[must_use]
    pub fn status_pentanomial(&self, penta: &Pentanomial) -> SprtStatus {
        self.status(self.llr(&penta.outcomes()))
    }

    fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// An Elo figure for tables: `34.9`, `inf`, `-inf`.
#[must_use]
pub fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        // An even score must not print as "-0.0".
        let x = if x.abs() < 0.05 { 0.0 } else { x };
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_scores() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7, var = (60*.09 + 20*.04 + 20*.49)/100 = 0.16.
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = elo_trinomial(&wdl).unwrap();
        let se = (0.16f64 / 100.0).sqrt();
        assert!(close(e.elo, elo_from_score(0.7), 1e-9));
        assert!(close(e.lower, elo_from_score(0.7 - Z95 * se), 1e-9));
        assert!(close(e.upper, elo_from_score(0.7 + Z95 * se), 1e-9));
        assert!(close(e.elo, 147.19, 0.01));
        assert!(e.lower < e.elo && e.elo < e.upper);
        assert!(elo_trinomial(&Wdl::default()).is_none());
    }

    #[test]
    fn pentanomial_is_tighter_when_pairs_agree() {
        // 50 pairs, each a win and a draw: every pair scores 3/2; variance zero.
        let mut p = Pentanomial::default();
        for _ in 0..50 {
            p.add(3);
        }
        let e = elo_pentanomial(&p).unwrap();
        assert!(close(e.margin(), 0.0, 1e-9));
        assert!(close(e.elo, elo_from_score(0.75), 1e-9));
    }

    #[test]
    fn los_and_erf() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_27, 2e-7));
        let even = Wdl {
            wins: 10,
            draws: 5,
            losses: 10,
        };
        assert!(close(los(&even).unwrap(), 0.5, 1e-9));
        let w = Wdl {
            wins: 30,
            draws: 0,
            losses: 20,
        };
        // Φ(10/√50) = Φ(1.4142) = 0.92135
        assert!(close(los(&w).unwrap(), 0.921_35, 1e-4));
    }

    #[test]
    fn sprt_llr_by_hand_and_decisions() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_98, 1e-8) && close(hi, 2.944_438_98, 1e-8));
        let wdl = Wdl {
            wins: 600,
            draws: 200,
            losses: 400,
        };
        // With the prior: 600.5 wins, 200.5 draws, 400.5 losses.
        let (w, d, l) = (600.5, 200.5, 400.5);
        let s = (w + d / 2.0) / 1201.5;
        let var = (w * (1.0 - s) * (1.0 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / 1201.5;
        let (s0, s1) = (0.5, score_from_elo(5.0));
        let expected = 1200.0 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
        let st = sprt.status_trinomial(&wdl);
        assert!(close(st.llr, expected, 1e-9));
        assert_eq!(st.decision, SprtDecision::AcceptH1);
        let st = sprt.status_trinomial(&wdl.flipped());
        assert_eq!(st.decision, SprtDecision::AcceptH0);
        let st = sprt.status_trinomial(&Wdl {
            wins: 5,
            draws: 5,
            losses: 5,
        });
        assert_eq!(st.decision, SprtDecision::Continue);
        assert_eq!(sprt.status_trinomial(&Wdl::default()).llr, 0.0);
        // One-sided samples still decide, but not on a handful of games.
        let wins = |w| Wdl {
            wins: w,
            draws: 0,
            losses: 0,
        };
        assert_eq!(
            sprt.status_trinomial(&wins(10)).decision,
            SprtDecision::Continue
        );
        assert_eq!(
            sprt.status_trinomial(&wins(60)).decision,
            SprtDecision::AcceptH1
        );
        // Identical engines: every pair splits; H0 (no gain) is accepted, after a while.
        let mut even = Pentanomial::default();
        for _ in 0..50 {
            even.add(2);
        }
        assert_eq!(
            sprt.status_pentanomial(&even).decision,
            SprtDecision::Continue
        );
        for _ in 0..200 {
            even.add(2);
        }
        assert_eq!(
            sprt.status_pentanomial(&even).decision,
            SprtDecision::AcceptH0
        );
    }
}
