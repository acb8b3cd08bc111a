//! Which weights are tuned, within which bounds, and the descent itself.
//!
//! The descent is Adam (Kingma and Ba) on the full training set: every iteration computes the
//! exact gradient of the mean squared error over all positions ([`super::model`]) and moves
//! each weight by about the learning rate in the direction its own gradient history suggests.
//! Adam suits this problem because the weights differ in scale (a chariot ~900, a mobility
//! point ~3) and in how often they are used (a material weight in every position, a table cell
//! in a few thousand): the step of each weight is normalised by its own gradient size. The
//! learning rate decays exponentially to a tenth over the run, so that the last iterations
//! settle instead of jittering.
//!
//! Two directions change nothing in the evaluation: adding a constant to a piece's table and
//! subtracting it from the piece's value, and adding a constant to a general's table (each
//! side always has one general, so it cancels). The gradient along them is zero, but Adam's
//! per-weight normalisation can still drift along them; after each step the tables are
//! therefore re-centred: each table's average over the tuned points (weighted by how often
//! pieces stood there) is put back to its starting value, and the difference moved into the
//! piece's value. Without bounds and untuned cells this leaves the evaluation of every training
//! position unchanged; with them it is what keeps the bounds meaningful: a table cell's bound
//! then limits its value relative to the rest of its table, the level being the piece's value.
//!
//! An optional ridge penalty ([`Settings::l2`]) pulls every tuned weight towards its starting
//! value, which keeps weights with little evidence (a table cell used in a few thousand
//! positions) near the hand-set values while well-supported ones still move.
//!
//! Table cells on which pieces stood only rarely in the training positions
//! ([`Settings::min_uses`]) are not tuned: a few hundred positions from a few dozen games say
//! more about those games than about the point.
//!
//! Each weight is kept within bounds ([`bounds`]) that keep the evaluation sensible: values
//! positive, mobility not negative, blocked legs not a bonus, tables within two pawns or so.

use std::fmt;
use std::str::FromStr;

use super::dataset::Dataset;
use super::model::error_and_gradient;
use crate::adam::Adam;
use chariot_eval::Params;
use chariot_eval::trace::{CELLS, TABLE_COUNT, TABLES, WEIGHTS, Weights};
use chariot_rules::Kind;

/// A group of weights that is tuned or left alone as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Pst,
    /// Chariot, horse and cannon mobility.
    Mobility,
    /// Blocked horse legs.
    HorseLegs,
    /// Central and empty-headed cannons.
    Cannons,
    /// Missing defenders and king danger.
    KingSafety,
    /// Connected soldiers and soldiers at the palace.
    Soldiers,
    /// The side to move's bonus.
    Tempo,
}

impl Group {
    /// Every group.
    pub const ALL: [Group; 8] = [
        Group::Material,
        Group::Pst,
        Group::Mobility,
        Group::HorseLegs,
        Group::Cannons,
        Group::KingSafety,
        Group::Soldiers,
        Group::Tempo,
    ];

    /// The group's name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Group::Material => "material",
            Group::Pst => "pst",
            Group::Mobility => "mobility",
            Group::HorseLegs => "horse-legs",
            Group::Cannons => "cannons",
            Group::KingSafety => "king-safety",
            Group::Soldiers => "soldiers",
            Group::Tempo => "tempo",
        }
    }

    /// The group weight `i` belongs to.
    #[must_use]
    pub fn of(i: usize) -> Group {
        let Some(name) = Params::NAMES.get(i) else {
            return Group::Pst;
        };
        let base = name.trim_end_matches("_mg").trim_end_matches("_eg");
        match base {
            "pawn" | "advisor" | "elephant" | "horse" | "rook" | "cannon" => Group::Material,
            _ if base.ends_with("_mobility") => Group::Mobility,
            "horse_leg_blocked" => Group::HorseLegs,
            "cannon_screen" | "cannon_empty" => Group::Cannons,
            "pawn_connected" | "pawn_near_palace" => Group::Soldiers,
            "tempo" => Group::Tempo,
            _ => Group::KingSafety,
        }
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A group name that is not one of [`Group::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown weight group {0:?} (known: material, pst, mobility, horse-legs, cannons, king-safety, soldiers, tempo)"
)]
pub struct UnknownGroup(pub String);

impl FromStr for Group {
    type Err = UnknownGroup;

    fn from_str(s: &str) -> Result<Group, UnknownGroup> {
        Group::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGroup(s.to_owned()))
    }
}

/// The range weight `i` is kept in, table cells in `-table_bound..=table_bound`.
#[must_use]
pub fn bounds(i: usize, table_bound: f64) -> (f64, f64) {
    let Some(name) = Params::NAMES.get(i) else {
        return (-table_bound, table_bound);
    };
    let base = name.trim_end_matches("_mg").trim_end_matches("_eg");
    match base {
        "pawn" => (20.0, 300.0),
        "advisor" | "elephant" => (50.0, 500.0),
        "horse" | "cannon" => (150.0, 900.0),
        "rook" => (400.0, 1800.0),
        "horse_leg_blocked" => (-40.0, 0.0),
        _ if base.ends_with("_mobility") => (0.0, 40.0),
        "cannon_screen" | "cannon_empty" => (0.0, 200.0),
        "missing_advisor" | "missing_elephant" => (0.0, 150.0),
        "king_attack" => (0.0, 30.0),
        _ if base.starts_with("attack_unit") => (0.0, 10.0),
        "tempo" => (0.0, 60.0),
        _ => (0.0, 100.0),
    }
}

/// How to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Adam iterations (full passes over the training set).
    pub iterations: usize,
    /// The first iterations' step size in centipawns; it decays to a tenth.
    pub learning_rate: f64,
    /// The groups that are tuned; the others keep their starting values.
    pub groups: Vec<Group>,
    /// Threads for the gradient.
    pub threads: usize,
    /// Table cells on which fewer pieces than this stood in the training positions keep their
    /// starting values: too few positions to say anything about them.
    pub min_uses: u64,
    /// Table cells are kept within this many centipawns of zero.
    pub table_bound: f64,
    /// Ridge penalty: `l2 * ((w - start) / 100)^2` is added to the error for every tuned
    /// weight, so that a weight moves far from its starting value only when the data insist.
    pub l2: f64,
}

impl Settings {
    /// Which weights are tuned on `train`: those of the chosen groups, except rarely used cells.
    #[must_use]
    pub fn tuned(&self, train: &Dataset) -> Vec<bool> {
        (0..WEIGHTS)
            .map(|i| {
                self.groups.contains(&Group::of(i))
                    && (i < Params::COUNT || train.uses(i) >= self.min_uses)
            })
            .collect()
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            iterations: 1000,
            learning_rate: 1.0,
            groups: Group::ALL.to_vec(),
            threads: 1,
            min_uses: 0,
            table_bound: 150.0,
            l2: 0.0,
        }
    }
}

/// Re-centres the tables of `w` (see the module documentation): for each table, the average
/// over its tuned cells (weighted by how often pieces stood there) is set back to that of
/// `start`, the difference going into the piece's value; the general's table has no value and
/// simply shifts. Cells that are not tuned stay as they are: shifting them along would let them
/// drift without anything pulling them back, whenever the bounds hold other cells of the table.
fn recenter(w: &mut [f64], start: &[f64], data: &Dataset, tuned: &[bool], with_material: bool) {
    for (t, info) in TABLES.iter().enumerate() {
        if info.kind != Kind::General && !with_material {
            continue;
        }
        let cells = (Params::COUNT + t * CELLS..Params::COUNT + (t + 1) * CELLS)
            .filter(|&c| tuned[c] && data.uses(c) > 0);
        let (mut total, mut moved) = (0.0, 0.0);
        for c in cells.clone() {
            let u = data.uses(c) as f64;
            total += u;
            moved += u * (w[c] - start[c]);
        }
        if total == 0.0 {
            continue;
        }
        let shift = moved / total;
        for c in cells {
            w[c] -= shift;
        }
        let name = |suffix: &str| {
            let kind = match info.kind {
                Kind::Soldier => "pawn",
                Kind::Advisor => "advisor",
                Kind::Elephant => "elephant",
                Kind::Horse => "horse",
                Kind::Chariot => "rook",
                Kind::Cannon => "cannon",
                Kind::General => return None,
            };
            Params::index_of(&format!("{kind}_{suffix}"))
        };
        let values = match info.blend {
            chariot_eval::trace::Blend::Midgame => [name("mg"), None],
            chariot_eval::trace::Blend::Endgame => [name("eg"), None],
            _ => [name("mg"), name("eg")],
        };
        for v in values.into_iter().flatten() {
            w[v] += shift;
        }
    }
}

/// Tunes the weights of the chosen groups on `train` from `start` at scale `k`, calling
/// `report(iteration, training error before the step, weights)` after each iteration; returns
/// the real-valued weights.
pub fn tune(
    train: &Dataset,
    start: &Weights,
    k: f64,
    settings: &Settings,
    mut report: impl FnMut(usize, f64, &[f64]),
) -> Vec<f64> {
    let start: Vec<f64> = start.iter().map(|&v| f64::from(v)).collect();
    let mut w = start.clone();
    let tuned = settings.tuned(train);
    let pst = settings.groups.contains(&Group::Pst);
    let with_material = pst && settings.groups.contains(&Group::Material);
    let (mut m, mut v) = (vec![0.0; WEIGHTS], vec![0.0; WEIGHTS]);
    let mut adam = Adam::<f64>::new();
    let iterations = settings.iterations.max(1) as f64;
    for t in 1..=settings.iterations {
        let (error, grad) = error_and_gradient(train, &w, k, settings.threads);
        let lr = settings.learning_rate * 0.1f64.powf((t - 1) as f64 / iterations);
        adam.next_step();
        for i in (0..WEIGHTS).filter(|&i| tuned[i]) {
            let g = grad[i] + 2.0 * settings.l2 * (w[i] - start[i]) / 1e4;
            let step = adam.delta(g, &mut m[i], &mut v[i], lr);
            let (lo, hi) = bounds(i, settings.table_bound);
            w[i] = (w[i] - step).clamp(lo, hi);
        }
        if pst {
            recenter(&mut w, &start, train, &tuned, with_material);
        }
        report(t, error, &w);
    }
    w
}

/// Real-valued weights rounded to the nearest integers (missing ones 0).
#[must_use]
pub fn round(w: &[f64]) -> Weights {
    std::array::from_fn(|i| w.get(i).map_or(0.0, |v| v.round()) as i32)
}

/// Tuned weights (`tuned[i]`) within half a centipawn of a bound, as (index, which bound).
#[must_use]
pub fn at_bounds(w: &[f64], tuned: &[bool], table_bound: f64) -> Vec<(usize, f64)> {
    (0..WEIGHTS.min(w.len()).min(tuned.len()))
        .filter(|&i| tuned[i])
        .filter_map(|i| {
            let (lo, hi) = bounds(i, table_bound);
            if w[i] <= lo + 0.5 {
                Some((i, lo))
            } else if w[i] >= hi - 0.5 {
                Some((i, hi))
            } else {
                None
            }
        })
        .collect()
}

/// The number of table weights (cells) of all tables.
pub const TABLE_WEIGHTS: usize = TABLE_COUNT * CELLS;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::model::{error, evaluations, fit_k};
    use chariot_eval::trace::{Trace, default_weights, piece_cells};
    use chariot_rules::testing::Rng;
    use chariot_rules::{Position, START_FEN};

    #[test]
    fn groups_and_bounds_cover_every_weight() {
        let count = |g: Group| (0..WEIGHTS).filter(|&i| Group::of(i) == g).count();
        assert_eq!(count(Group::Material), 12);
        assert_eq!(count(Group::Pst), TABLE_WEIGHTS);
        assert_eq!(count(Group::Mobility), 6);
        assert_eq!(count(Group::HorseLegs), 2);
        assert_eq!(count(Group::Cannons), 4);
        assert_eq!(count(Group::KingSafety), 7);
        assert_eq!(count(Group::Soldiers), 3);
        assert_eq!(count(Group::Tempo), 2);
        // The built-in weights are within their bounds.
        for (i, &v) in default_weights().iter().enumerate() {
            let (lo, hi) = bounds(i, Settings::default().table_bound);
            assert!((lo..=hi).contains(&f64::from(v)), "{i} {v}");
        }
        for g in Group::ALL {
            assert_eq!(g.name().parse::<Group>(), Ok(g));
        }
        assert!("psts".parse::<Group>().is_err());
    }

    /// Positions of random play where Red's result follows its material plus a bonus for
    /// advanced soldiers: the tuner must lower the error and raise the soldier's value.
    #[test]
    fn tuning_lowers_the_error_and_keeps_the_evaluation_centred() {
        let mut data = Dataset::new();
        let mut rng = Rng::seeded(0x5555_1234_9876_abcd);
        let mut next = move || rng.next_u64();
        let w0 = default_weights();
        for _ in 0..30 {
            let mut pos = Position::from_fen(START_FEN).unwrap();
            for ply in 0..100 {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[next() as usize % moves.len()]);
                if ply % 2 == 0 && !pos.in_check() {
                    let t = Trace::new(&pos);
                    let pawns = |c| {
                        pos.pieces(chariot_rules::Piece::new(c, Kind::Soldier))
                            .count()
                    };
                    let red = t.evaluate(&w0)
                        + 150
                            * (pawns(chariot_rules::Color::Red) as i32
                                - pawns(chariot_rules::Color::Black) as i32);
                    let score = if red > 100 {
                        1.0
                    } else if red < -100 {
                        0.0
                    } else {
                        0.5
                    };
                    data.push(&t, score, &piece_cells(&pos));
                }
            }
        }
        let k = fit_k(&data, &evaluations(&data, &w0));
        let before = error(&data, &w0, k);
        // Bounds wide enough that no table cell reaches them.
        let settings = Settings {
            iterations: 60,
            learning_rate: 4.0,
            threads: 2,
            table_bound: 1000.0,
            ..Settings::default()
        };
        let mut errors = Vec::new();
        let w = tune(&data, &w0, k, &settings, |_, e, _| errors.push(e));
        assert_eq!(errors.len(), 60);
        let tuned = round(&w);
        let after = error(&data, &tuned, k);
        assert!(after < before, "{after} vs {before}");
        let pawn = Params::index_of("pawn_mg").unwrap();
        assert!(tuned[pawn] > w0[pawn], "{} vs {}", tuned[pawn], w0[pawn]);
        // Re-centring keeps every table's used average where it started (all cells are tuned
        // and no table cell reaches a bound here).
        assert!(
            at_bounds(&w, &settings.tuned(&data), settings.table_bound)
                .iter()
                .all(|&(i, _)| i < Params::COUNT)
        );
        for t in 0..TABLE_COUNT {
            let cells = Params::COUNT + t * CELLS..Params::COUNT + (t + 1) * CELLS;
            let avg = |w: &dyn Fn(usize) -> f64| {
                let total: f64 = cells.clone().map(|c| data.uses(c) as f64).sum();
                cells
                    .clone()
                    .map(|c| data.uses(c) as f64 * w(c))
                    .sum::<f64>()
                    / total.max(1.0)
            };
            let a = avg(&|c| w[c]);
            let b = avg(&|c| f64::from(w0[c]));
            assert!((a - b).abs() < 1e-6, "table {t}: {a} vs {b}");
        }
        // A ridge penalty keeps the weights nearer their start, at some cost in error.
        let ridge = Settings {
            l2: 0.05,
            ..settings.clone()
        };
        let wr = tune(&data, &w0, k, &ridge, |_, _, _| {});
        let distance = |w: &[f64]| -> f64 {
            w.iter()
                .zip(&w0)
                .map(|(a, &b)| (a - f64::from(b)).powi(2))
                .sum()
        };
        assert!(distance(&wr) < distance(&w) / 2.0);
        assert!(error(&data, &round(&wr), k) >= after);
        // Rarely used cells keep their values exactly.
        let rare = Settings {
            min_uses: 200,
            ..settings.clone()
        };
        let frozen: Vec<usize> = (Params::COUNT..WEIGHTS)
            .filter(|&c| data.uses(c) > 0 && data.uses(c) < 200)
            .collect();
        assert!(!frozen.is_empty());
        let w = tune(&data, &w0, k, &rare, |_, _, _| {});
        for c in frozen {
            assert_eq!(w[c], f64::from(w0[c]), "{c}");
        }
        // Only the chosen groups move.
        let only = Settings {
            iterations: 5,
            groups: vec![Group::Tempo],
            ..settings
        };
        let w = tune(&data, &w0, k, &only, |_, _, _| {});
        for i in 0..WEIGHTS {
            if Group::of(i) != Group::Tempo {
                assert_eq!(w[i], f64::from(w0[i]), "{i}");
            }
        }
    }
}
