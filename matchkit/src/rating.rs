//! Ratings of a pool of players from all the games they played with one another: the
//! maximum-likelihood fit of the logistic Elo model over every game at once, as Ordo and
//! BayesElo do, rather than a chain of pairwise matches each with its own error.
//!
//! The model: a player rated `d` Elo above another scores `S(d) = 1 / (1 + 10^(−d/400))` on
//! average (a draw is half a point, as in [`crate::stats`]). The ratings that make the observed
//! points most likely satisfy, for every player, points = expected points; Newton's method finds
//! them. Ratings are defined up to a common shift: either the pool's average is 0, or one
//! player, the anchor, is given a rating and the scale is moved to match.
//!
//! Uncertainty: the covariance of the fit is the sandwich `H⁺ B H⁺`, with `H` the information
//! of the binomial model (`Σ n p (1 − p)` per pair of players) and `B` the observed spread of
//! the scores about their expectation (`Σ (s − p)²` over the games), so that draws, which
//! score closer to the expectation than a win or a loss, narrow it as they should. `H⁺` is the
//! inverse under the constraint that the ratings average 0: each player's interval is its
//! uncertainty against the pool's average (Ordo's `-V`, BayesElo's default), whatever the
//! anchor; the interval of a difference between two players is from the same covariance
//! ([`Ratings::difference`]). Intervals are 95%, normal.
//!
//! The fit exists only when no group of players won (or drew) nothing against the rest, that is
//! when "scored at least a draw against" connects every player to every other in both
//! directions; otherwise some rating would be infinite and [`fit`] says which players are the
//! cause.

use crate::stats::{EloEstimate, Wdl};

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The slope of the expected score per Elo at an even score, over `S(1 − S)`: `ln 10 / 400`.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// Results between the players of a pool, game by game.
#[derive(Clone, Debug, Default)]
pub struct Pool {
    names: Vec<String>,
    /// `results[i][j]` for `i < j`: `i`'s wins, draws and losses against `j` (the rest unused).
    results: Vec<Vec<Wdl>>,
}

/// A game's result from its first-named player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first-named player won.
    Win,
    /// A draw.
    Draw,
    /// The first-named player lost.
    Loss,
}

impl Pool {
    /// A pool without players or games.
    #[must_use]
    pub fn new() -> Pool {
        Pool::default()
    }

    /// The player's index, added when new.
    pub fn player(&mut self, name: &str) -> usize {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return i;
        }
        self.names.push(name.to_owned());
        for row in &mut self.results {
            row.push(Wdl::default());
        }
        self.results.push(vec![Wdl::default(); self.names.len()]);
        self.names.len() - 1
    }

    /// Adds one game of `a` against `b` (colours do not matter to the model).
    ///
    /// # Errors
    /// [`RatingError::SelfPlay`] when `a` and `b` are one player.
    pub fn add(&mut self, a: &str, b: &str, outcome: Outcome) -> Result<(), RatingError> {
        if a == b {
            return Err(RatingError::SelfPlay(a.to_owned()));
        }
        let (i, j) = (self.player(a), self.player(b));
        let (row, col, outcome) = if i < j {
            (i, j, outcome)
        } else {
            let flipped = match outcome {
                Outcome::Win => Outcome::Loss,
                Outcome::Draw => Outcome::Draw,
                Outcome::Loss => Outcome::Win,
            };
            (j, i, flipped)
        };
        let wdl = &mut self.results[row][col];
        match outcome {
            Outcome::Win => wdl.wins += 1,
            Outcome::Draw => wdl.draws += 1,
            Outcome::Loss => wdl.losses += 1,
        }
        Ok(())
    }

    /// The players, in the order they were first named.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `a`'s results against `b` (by index).
    ///
    /// # Panics
    /// When an index is not a player's.
    #[must_use]
    pub fn results(&self, a: usize, b: usize) -> Wdl {
        if a <= b {
            self.results[a][b]
        } else {
            self.results[b][a].flipped()
        }
    }

    /// Each player's results against the whole pool.
    #[must_use]
    pub fn totals(&self) -> Vec<Wdl> {
        let n = self.names.len();
        (0..n)
            .map(|i| {
                (0..n).filter(|&j| j != i).fold(Wdl::default(), |t, j| {
                    let r = self.results(i, j);
                    Wdl {
                        wins: t.wins + r.wins,
                        draws: t.draws + r.draws,
                        losses: t.losses + r.losses,
                    }
                })
            })
            .collect()
    }
}

/// Why a pool cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// A game of a player against itself.
    #[error("{0} cannot play itself")]
    SelfPlay(String),
    /// Fewer than two players.
    #[error("a pool of {0} players cannot be rated: two are needed at least")]
    TooFew(usize),
    /// The anchor is no player of the pool.
    #[error("the anchor {0:?} played no game in the pool")]
    NoAnchor(String),
    /// Some players never met the others, directly or through opponents in common.
    #[error("{0:?} never played the others, directly or through opponents in common")]
    Disconnected(Vec<String>),
    /// A group of players won or drew every game against the rest (or lost every one): its
    /// ratings would be infinitely far from theirs.
    #[error(
        "{0:?} scored every point or none against the rest of the pool: their distance to it is infinite"
    )]
    Unbounded(Vec<String>),
    /// Newton's method did not settle (it always does when the fit exists).
    #[error("the fit did not converge")]
    NoConvergence,
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Rating {
    /// The player.
    pub name: String,
    /// The rating on the scale.
    pub elo: f64,
    /// The lower end of the 95% interval (against the pool's average).
    pub lower: f64,
    /// The upper end of the 95% interval.
    pub upper: f64,
    /// The player's results against the pool.
    pub games: u32,
    /// Wins, draws and losses.
    pub wdl: Wdl,
}

/// The ratings of a pool and the covariance of the fit.
#[derive(Clone, Debug)]
pub struct Ratings {
    /// Every player, in the pool's order.
    pub players: Vec<Rating>,
    /// The anchor and its rating, if one was given (otherwise the pool's average is 0).
    pub anchor: Option<(String, f64)>,
    /// The covariance of the ratings under the constraint that they average 0, in Elo².
    covariance: Vec<Vec<f64>>,
}

impl Ratings {
    /// The difference `a − b` (by index) with its 95% interval.
    ///
    /// # Panics
    /// When an index is not a player's.
    #[must_use]
    pub fn difference(&self, a: usize, b: usize) -> EloEstimate {
        let c = &self.covariance;
        let var = (c[a][a] + c[b][b] - 2.0 * c[a][b]).max(0.0);
        let elo = self.players[a].elo - self.players[b].elo;
        let half = Z95 * var.sqrt();
        EloEstimate {
            elo,
            lower: elo - half,
            upper: elo + half,
        }
    }

    /// The index of the player named `name`.
    #[must_use]
    pub fn index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }
}

/// Fits the ratings of `pool`. With `anchor` (a player's name and its rating) the scale puts
/// that player at that rating; without, the pool's average is 0.
///
/// # Errors
/// [`RatingError`]: fewer than two players, an anchor not in the pool, players never connected
/// to the others by games, or a group of players whose ratings would be infinite.
pub fn fit(pool: &Pool, anchor: Option<(&str, f64)>) -> Result<Ratings, RatingError> {
    let n = pool.names.len();
    if n < 2 {
        return Err(RatingError::TooFew(n));
    }
    let anchor_index = match anchor {
        Some((name, _)) => Some(
            pool.names
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| RatingError::NoAnchor(name.to_owned()))?,
        ),
        None => None,
    };
    check_bounded(pool)?;

    // Newton's method on the log-likelihood, the ratings kept at an average of 0.
    let mut r = vec![0.0; n];
    let mut converged = false;
    for _ in 0..200 {
        let (grad, info) = gradient_and_information(pool, &r);
        let inverse = pseudo_inverse(&info).ok_or(RatingError::NoConvergence)?;
        let step: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| inverse[i][j] * grad[j]).sum())
            .collect();
        // Far from the solution a full step can overshoot: at most 200 Elo at a time.
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if largest > 200.0 {
            200.0 / largest
        } else {
            1.0
        };
        for (ri, si) in r.iter_mut().zip(&step) {
            *ri += scale * si;
        }
        if largest < 1e-9 {
            converged = true;
            break;
        }
    }
    if !converged || r.iter().any(|x| !x.is_finite()) {
        return Err(RatingError::NoConvergence);
    }

    let covariance = sandwich(pool, &r).ok_or(RatingError::NoConvergence)?;
    let shift = match (anchor, anchor_index) {
        (Some((_, elo)), Some(a)) => elo - r[a],
        _ => 0.0,
    };
    let totals = pool.totals();
    let players = (0..n)
        .map(|i| {
            let half = Z95 * covariance[i][i].max(0.0).sqrt();
            let elo = r[i] + shift;
            Rating {
                name: pool.names[i].clone(),
                elo,
                lower: elo - half,
                upper: elo + half,
                games: totals[i].games(),
                wdl: totals[i],
            }
        })
        .collect();
    Ok(Ratings {
        players,
        anchor: anchor.map(|(name, elo)| (name.to_owned(), elo)),
        covariance,
    })
}

/// The expected score of `a` against `b` at ratings `ra`, `rb`.
fn expected(ra: f64, rb: f64) -> f64 {
    crate::stats::score_from_elo(ra - rb)
}

/// The log-likelihood's gradient (per Elo) and the information matrix (per Elo²) at `r`.
fn gradient_and_information(pool: &Pool, r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = r.len();
    let mut grad = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let wdl = pool.results[i][j];
            let games = f64::from(wdl.games());
            if games == 0.0 {
                continue;
            }
            let p = expected(r[i], r[j]);
            let g = K * (wdl.points() - games * p);
            grad[i] += g;
            grad[j] -= g;
            let w = K * K * games * p * (1.0 - p);
            info[i][i] += w;
            info[j][j] += w;
            info[i][j] -= w;
            info[j][i] -= w;
        }
    }
    (grad, info)
}

/// The covariance `H⁺ B H⁺` of the ratings at the fit `r` (see the module's note).
fn sandwich(pool: &Pool, r: &[f64]) -> Option<Vec<Vec<f64>>> {
    let n = r.len();
    let (_, info) = gradient_and_information(pool, r);
    let mut spread = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            let wdl = pool.results[i][j];
            let p = expected(r[i], r[j]);
            let squares = f64::from(wdl.wins) * (1.0 - p).powi(2)
                + f64::from(wdl.draws) * (0.5 - p).powi(2)
                + f64::from(wdl.losses) * p.powi(2);
            let w = K * K * squares;
            spread[i][i] += w;
            spread[j][j] += w;
            spread[i][j] -= w;
            spread[j][i] -= w;
        }
    }
    let h = pseudo_inverse(&info)?;
    Some(multiply(&multiply(&h, &spread), &h))
}

fn multiply(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (0..n).map(|k| a[i][k] * b[k][j]).sum())
                .collect()
        })
        .collect()
}

/// The pseudo-inverse of an information matrix whose rows sum to 0 (a weighted Laplacian of
/// a connected pool): `(M + 11ᵀ/n)⁻¹ − 11ᵀ/n`, the inverse on ratings that average 0. `None`
/// when the matrix is singular beyond the common shift.
fn pseudo_inverse(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let share = 1.0 / n as f64;
    let shifted: Vec<Vec<f64>> = m
        .iter()
        .map(|row| row.iter().map(|x| x + share).collect())
        .collect();
    let mut inverse = invert(shifted)?;
    for row in &mut inverse {
        for x in row.iter_mut() {
            *x -= share;
        }
    }
    Some(inverse)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting; `None`
/// when it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() <= 1e-13 * scale {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for j in 0..n {
            a[col][j] /= p;
            inv[col][j] /= p;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..n {
                        a[row][j] -= f * a[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Checks that the fit exists: every player is connected to every other by games, and by
/// "scored at least a draw against" in both directions.
fn check_bounded(pool: &Pool) -> Result<(), RatingError> {
    let n = pool.names.len();
    let played = |i: usize, j: usize| pool.results(i, j).games() > 0;
    let scored = |i: usize, j: usize| {
        let r = pool.results(i, j);
        r.wins + r.draws > 0
    };
    let names = |set: &[bool], keep: bool| -> Vec<String> {
        (0..n)
            .filter(|&i| set[i] == keep)
            .map(|i| pool.names[i].clone())
            .collect()
    };
    let connected = reach(n, played);
    if connected.iter().any(|&c| !c) {
        return Err(RatingError::Disconnected(names(&connected, false)));
    }
    // Those player 0 reaches by "scored against" and those who reach player 0: a player
    // outside either set belongs to a group that never scored against the others, or that
    // they never scored against.
    let forward = reach(n, scored);
    if forward.iter().any(|&c| !c) {
        return Err(RatingError::Unbounded(names(&forward, false)));
    }
    let backward = reach(n, |i, j| scored(j, i));
    if backward.iter().any(|&c| !c) {
        return Err(RatingError::Unbounded(names(&backward, false)));
    }
    Ok(())
}

/// The players reached from player 0 along `edge`.
fn reach(n: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, seen) in seen.iter_mut().enumerate() {
            if !*seen && j != i && edge(i, j) {
                *seen = true;
                stack.push(j);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_from_score, elo_trinomial};

    fn games(pool: &mut Pool, a: &str, b: &str, w: u32, d: u32, l: u32) {
        for (outcome, count) in [(Outcome::Win, w), (Outcome::Draw, d), (Outcome::Loss, l)] {
            for _ in 0..count {
                pool.add(a, b, outcome).unwrap();
            }
        }
    }

    #[test]
    fn two_players_get_the_difference_their_score_says() {
        let mut pool = Pool::new();
        games(&mut pool, "A", "B", 30, 20, 10);
        let ratings = fit(&pool, Some(("B", 1000.0))).unwrap();
        let a = &ratings.players[0];
        let expected = elo_from_score(40.0 / 60.0);
        assert!((a.elo - 1000.0 - expected).abs() < 1e-6, "{a:?}");
        assert!((ratings.players[1].elo - 1000.0).abs() < 1e-9);
        // The difference's interval is the trinomial one to first order.
        let d = ratings.difference(0, 1);
        let t = elo_trinomial(&Wdl {
            wins: 30,
            draws: 20,
            losses: 10,
        })
        .unwrap();
        assert!(
            (d.margin() - t.margin()).abs() < 0.1 * t.margin(),
            "{d:?} {t:?}"
        );
        assert_eq!((a.games, a.wdl.wins), (60, 30));
    }

    #[test]
    fn a_chain_is_fitted_jointly_and_more_games_narrow_it() {
        // A beats B and B beats C by 75% each: C is two steps below A, though A never met it.
        let mut pool = Pool::new();
        games(&mut pool, "A", "B", 30, 0, 10);
        games(&mut pool, "B", "C", 30, 0, 10);
        let r = fit(&pool, None).unwrap();
        let step = elo_from_score(0.75);
        let (a, b, c) = (r.players[0].elo, r.players[1].elo, r.players[2].elo);
        assert!((a - b - step).abs() < 1e-6 && (b - c - step).abs() < 1e-6);
        assert!((a + b + c).abs() < 1e-6, "the pool's average is 0");
        // Games of A against C add information about A against B too.
        let wide = r.difference(0, 1).margin();
        games(&mut pool, "A", "C", 36, 0, 4);
        let r = fit(&pool, None).unwrap();
        assert!(r.difference(0, 1).margin() < wide);
        // The middle of the chain is known best against the pool's average.
        let half = |i: usize| r.players[i].upper - r.players[i].elo;
        assert!(half(1) < half(0) && half(1) < half(2));
    }

    #[test]
    fn draws_narrow_the_interval() {
        let decisive = {
            let mut pool = Pool::new();
            games(&mut pool, "A", "B", 30, 0, 30);
            fit(&pool, None).unwrap().difference(0, 1).margin()
        };
        let drawn = {
            let mut pool = Pool::new();
            games(&mut pool, "A", "B", 15, 30, 15);
            fit(&pool, None).unwrap().difference(0, 1).margin()
        };
        assert!(drawn < decisive, "{drawn} {decisive}");
    }

    #[test]
    fn impossible_pools_are_errors_naming_the_players() {
        let mut pool = Pool::new();
        games(&mut pool, "A", "B", 3, 0, 1);
        assert_eq!(
            fit(&pool, Some(("Z", 0.0))).unwrap_err(),
            RatingError::NoAnchor("Z".into())
        );
        games(&mut pool, "C", "D", 1, 0, 1);
        assert_eq!(
            fit(&pool, None).unwrap_err(),
            RatingError::Disconnected(vec!["C".into(), "D".into()])
        );
        // C and D lose every game against A and B.
        games(&mut pool, "A", "C", 5, 0, 0);
        assert_eq!(
            fit(&pool, None).unwrap_err(),
            RatingError::Unbounded(vec!["C".into(), "D".into()])
        );
        games(&mut pool, "C", "B", 0, 1, 4);
        assert!(fit(&pool, None).is_ok());
        assert_eq!(
            pool.add("A", "A", Outcome::Draw).unwrap_err(),
            RatingError::SelfPlay("A".into())
        );
        assert_eq!(fit(&Pool::new(), None).unwrap_err(), RatingError::TooFew(0));
    }

    #[test]
    fn the_order_of_naming_does_not_matter() {
        let mut one = Pool::new();
        games(&mut one, "A", "B", 7, 2, 3);
        games(&mut one, "B", "C", 4, 4, 4);
        games(&mut one, "C", "A", 2, 1, 5);
        let mut two = Pool::new();
        games(&mut two, "C", "B", 4, 4, 4);
        games(&mut two, "A", "C", 5, 1, 2);
        games(&mut two, "B", "A", 3, 2, 7);
        let (r1, r2) = (fit(&one, None).unwrap(), fit(&two, None).unwrap());
        for p in &r1.players {
            let q = &r2.players[r2.index(&p.name).unwrap()];
            assert!((p.elo - q.elo).abs() < 1e-6 && (p.upper - q.upper).abs() < 1e-6);
        }
        // Points equal expected points at the fit.
        let totals = one.totals();
        for (i, p) in r1.players.iter().enumerate() {
            let expected: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| {
                    f64::from(one.results(i, j).games())
                        * crate::stats::score_from_elo(p.elo - r1.players[j].elo)
                })
                .sum();
            assert!((expected - totals[i].points()).abs() < 1e-6);
        }
    }
}
