//! The model that links evaluations to results, its error and the error's gradient.
//!
//! A position evaluated at `e` centipawns (Red's view) is expected to score
//! `1 / (1 + 10^(-K e / 400))` for Red: the logistic curve of the Elo formula, with `K`
//! stretching the centipawn scale to fit. The error of a set of weights is the mean of
//! `(result - expected)^2` over the positions. `K` is fitted first, with the built-in weights,
//! and then held fixed while the weights move: otherwise the weights and `K` could trade scale
//! against each other.
//!
//! For the gradient the evaluation is taken as a real-valued function of real-valued weights:
//! the trace's sums without the integer divisions (the phase blend, the king-safety eighths),
//! the draw scale chosen by the sign of the unrounded score. That is the evaluation the integer
//! one rounds; [`error`] measures the integer one exactly.

use std::f64::consts::LN_10;

use super::dataset::Dataset;
use chariot_eval::MAX_PHASE;
use chariot_eval::trace::{
    ATTACK_UNITS, BLENDS, KING_ATTACK, KingInputs, MISSING_ADVISOR, MISSING_ELEPHANT, WEIGHTS,
    Weights,
};

/// The expected score for Red of a position evaluated at `eval` (Red's view).
#[inline]
#[must_use]
pub fn expected(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The exact evaluations (Red's view) of all positions under `w`.
#[must_use]
pub fn evaluations(data: &Dataset, w: &Weights) -> Vec<i32> {
    (0..data.len()).map(|i| data.evaluate(i, w)).collect()
}

/// The mean squared error of the exact evaluations `evals` of `data`'s positions at scale `k`
/// (0 for an empty set).
#[must_use]
pub fn error_of(data: &Dataset, evals: &[i32], k: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(&data.result)
        .map(|(&e, &r)| (f64::from(r) - expected(k, f64::from(e))).powi(2))
        .sum();
    sum / data.len() as f64
}

/// The mean squared error of the exact evaluations under `w` at scale `k`.
#[must_use]
pub fn error(data: &Dataset, w: &Weights, k: f64) -> f64 {
    error_of(data, &evaluations(data, w), k)
}

/// The `K` in `0.01..=10` with the least error for the evaluations `evals` (a golden-section
/// search; the error is unimodal in `K` in practice).
#[must_use]
pub fn fit_k(data: &Dataset, evals: &[i32]) -> f64 {
    let f = |k: f64| error_of(data, evals, k);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-5 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The king-safety penalty of one side under real-valued weights, and its derivatives with
/// respect to `missing_advisor`, `missing_elephant`, `king_attack` and the four attack units.
fn penalty(k: &KingInputs, w: &[f64]) -> (f64, [f64; 7]) {
    let force = f64::from(k.force) / 8.0;
    let (ma, mb) = (
        f64::from(k.missing_advisors),
        f64::from(k.missing_elephants),
    );
    let mut value = (ma * w[MISSING_ADVISOR] + mb * w[MISSING_ELEPHANT]) * force;
    let mut d = [ma * force, mb * force, 0.0, 0.0, 0.0, 0.0, 0.0];
    let attackers: u32 = k.zone.iter().map(|&n| u32::from(n)).sum();
    if attackers >= 2 {
        let units: f64 = k
            .zone
            .iter()
            .zip(ATTACK_UNITS)
            .map(|(&n, u)| f64::from(n) * w[u])
            .sum();
        value += w[KING_ATTACK] * units * units / 8.0;
        d[2] = units * units / 8.0;
        for (j, &n) in k.zone.iter().enumerate() {
            d[3 + j] = w[KING_ATTACK] * 2.0 * units * f64::from(n) / 8.0;
        }
    }
    (value, d)
}

/// The weights [`penalty`]'s derivatives belong to, in its order.
const KING_WEIGHTS: [usize; 7] = [
    MISSING_ADVISOR,
    MISSING_ELEPHANT,
    KING_ATTACK,
    ATTACK_UNITS[0],
    ATTACK_UNITS[1],
    ATTACK_UNITS[2],
    ATTACK_UNITS[3],
];

/// Phases 0..=MAX_PHASE.
const PHASES: usize = MAX_PHASE as usize + 1;

/// The real-valued evaluation (Red's view) of position `i` and the draw scale that applies,
/// given the weights pre-multiplied by their blend factor for each phase (`blended`).
#[inline]
fn evaluate_real(data: &Dataset, i: usize, blended: &[f64], w: &[f64]) -> (f64, f64) {
    let phase = usize::from(data.phase[i]);
    let row = &blended[phase * WEIGHTS..(phase + 1) * WEIGHTS];
    let mut sum = 0.0;
    for &(j, n) in &data.features[data.offsets[i] as usize..data.offsets[i + 1] as usize] {
        sum += f64::from(n) * row[usize::from(j)];
    }
    let [red, black] = &data.king[i];
    sum += phase as f64 * (penalty(black, w).0 - penalty(red, w).0);
    let scale = f64::from(data.scale[i][usize::from(sum <= 0.0)]) / 16.0;
    (sum / f64::from(MAX_PHASE) * scale, scale)
}

/// `blended[phase * WEIGHTS + j] = w[j] * factor(j, phase)`.
fn blend(w: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; PHASES * WEIGHTS];
    for phase in 0..PHASES {
        for j in 0..WEIGHTS {
            out[phase * WEIGHTS + j] = w[j] * f64::from(BLENDS[j].factor(phase as i32));
        }
    }
    out
}

/// The mean squared error of the real-valued evaluation under `w` (one value per weight) at
/// scale `k`, and its gradient, computed on `threads` threads.
///
/// # Panics
/// If `w` has fewer than [`WEIGHTS`] values.
#[must_use]
pub fn error_and_gradient(data: &Dataset, w: &[f64], k: f64, threads: usize) -> (f64, Vec<f64>) {
    let n = data.len();
    if n == 0 {
        return (0.0, vec![0.0; WEIGHTS]);
    }
    let blended = blend(w);
    let threads = threads.clamp(1, n);
    let chunk = n.div_ceil(threads);
    // d(expected)/d(eval) = p (1 - p) ln 10 K / 400.
    let slope = LN_10 * k / 400.0;
    let part = |range: std::ops::Range<usize>| {
        // Gradient with respect to each weight's blended value, by phase; king weights apart.
        let mut by_phase = vec![0.0; PHASES * WEIGHTS];
        let mut king = [0.0; 7];
        let mut sum = 0.0;
        for i in range {
            let (e, scale) = evaluate_real(data, i, &blended, w);
            let p = 1.0 / (1.0 + (-e * slope).exp());
            let r = f64::from(data.result[i]);
            sum += (r - p) * (r - p);
            // d(loss)/d(sum of the trace) for this position.
            let g = -2.0 * (r - p) * p * (1.0 - p) * slope * scale / f64::from(MAX_PHASE);
            let phase = usize::from(data.phase[i]);
            let row = &mut by_phase[phase * WEIGHTS..(phase + 1) * WEIGHTS];
            for &(j, c) in &data.features[data.offsets[i] as usize..data.offsets[i + 1] as usize] {
                row[usize::from(j)] += g * f64::from(c);
            }
            let [red, black] = &data.king[i];
            if red.force != 0 || black.force != 0 || red.zone != [0; 4] || black.zone != [0; 4] {
                let (_, dr) = penalty(red, w);
                let (_, db) = penalty(black, w);
                for j in 0..7 {
                    king[j] += g * phase as f64 * (db[j] - dr[j]);
                }
            }
        }
        (sum, by_phase, king)
    };
    let parts: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let range = t * chunk..((t + 1) * chunk).min(n);
                s.spawn(move || part(range))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut sum = 0.0;
    let mut grad = vec![0.0; WEIGHTS];
    for (s, by_phase, king) in parts {
        sum += s;
        for phase in 0..PHASES {
            for j in 0..WEIGHTS {
                grad[j] +=
                    by_phase[phase * WEIGHTS + j] * f64::from(BLENDS[j].factor(phase as i32));
            }
        }
        for (j, v) in KING_WEIGHTS.iter().zip(king) {
            grad[*j] += v;
        }
    }
    let n = n as f64;
    for g in &mut grad {
        *g /= n;
    }
    (sum / n, grad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_eval::trace::{Trace, default_weights, piece_cells};
    use chariot_rules::testing::Rng;
    use chariot_rules::{Position, START_FEN};

    /// A small set from random play, labelled by a rule that depends on the evaluation so that
    /// the fit has something to find.
    fn dataset() -> Dataset {
        let mut data = Dataset::new();
        let mut rng = Rng::seeded(0x0123_4567_89ab_cdef);
        let mut next = move || rng.next_u64();
        let w = default_weights();
        for _ in 0..40 {
            let mut pos = Position::from_fen(START_FEN).unwrap();
            for ply in 0..120 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                let caps: Vec<_> = moves.iter().filter(|&&m| pos.is_capture(m)).collect();
                let r = next() as usize;
                let m = if !caps.is_empty() && r.is_multiple_of(2) {
                    *caps[r / 2 % caps.len()]
                } else {
                    moves[r % moves.len()]
                };
                pos.make_move(m);
                if ply % 3 == 0 && !pos.in_check() {
                    let t = Trace::new(&pos);
                    let e = t.evaluate(&w);
                    let score = if e > 150 {
                        1.0
                    } else if e < -150 {
                        0.0
                    } else {
                        0.5
                    };
                    data.push(&t, score, &piece_cells(&pos));
                }
            }
        }
        data
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let data = dataset();
        assert!(data.len() > 500, "{}", data.len());
        let w: Vec<f64> = default_weights().iter().map(|&v| f64::from(v)).collect();
        let k = 1.2;
        let (e, grad) = error_and_gradient(&data, &w, k, 2);
        let (e1, grad1) = error_and_gradient(&data, &w, k, 1);
        assert!((e - e1).abs() < 1e-12);
        // A weight of each kind: material, mobility, a table cell, king safety (linear and
        // squared), tempo.
        let names = [
            "rook_mg",
            "horse_eg",
            "cannon_mobility_mg",
            "missing_advisor",
            "king_attack",
            "attack_unit_rook",
            "tempo_mg",
        ];
        let mut checked: Vec<usize> = names
            .iter()
            .map(|n| chariot_eval::Params::index_of(n).unwrap())
            .collect();
        // The busiest cell of each table.
        for t in 0..chariot_eval::trace::TABLE_COUNT {
            let base = chariot_eval::Params::COUNT + t * chariot_eval::trace::CELLS;
            let busiest = (base..base + chariot_eval::trace::CELLS)
                .max_by_key(|&c| data.uses(c))
                .unwrap();
            checked.push(busiest);
        }
        for j in checked {
            assert!((grad[j] - grad1[j]).abs() < 1e-12);
            let h = 0.01;
            let mut up = w.clone();
            up[j] += h;
            let mut down = w.clone();
            down[j] -= h;
            let numeric = (error_and_gradient(&data, &up, k, 1).0
                - error_and_gradient(&data, &down, k, 1).0)
                / (2.0 * h);
            let tolerance = 1e-6 + 1e-3 * numeric.abs();
            assert!(
                (numeric - grad[j]).abs() < tolerance,
                "{}: analytic {} numeric {numeric}",
                chariot_eval::trace::weight_name(j),
                grad[j]
            );
        }
        assert!(e > 0.0 && e < 0.25);
    }

    #[test]
    fn real_and_integer_errors_agree_and_k_is_fitted() {
        let data = dataset();
        let wi = default_weights();
        let w: Vec<f64> = wi.iter().map(|&v| f64::from(v)).collect();
        let evals = evaluations(&data, &wi);
        let k = fit_k(&data, &evals);
        let best = error_of(&data, &evals, k);
        for other in [k * 0.8, k * 1.25] {
            assert!(error_of(&data, &evals, other) > best);
        }
        // The integer evaluation rounds the real one: the errors barely differ.
        let (real, _) = error_and_gradient(&data, &w, k, 1);
        assert!((real - best).abs() < 1e-3, "{real} vs {best}");
        assert_eq!(error(&data, &wi, k), best);
    }
}
