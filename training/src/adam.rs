//! The one optimiser of both trainers: Adam (Kingma and Ba, 2015), for the network's `f32`
//! weights ([`crate::nnue::train`]) and the hand-written evaluation's `f64` weights
//! ([`crate::tune::optimize`]).
//!
//! The caller keeps the weights and, beside each, its two moment estimates; [`Adam`] keeps the
//! step count and its bias corrections. Per step: [`Adam::next_step`] once, then
//! [`Adam::delta`] for each weight with its gradient, subtracting what it returns (a trainer
//! may clip or clamp after). The usual constants: β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸.

use std::ops::{Add, Div, Mul, Sub};

/// The floating-point types Adam runs on.
pub trait Float:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The value of an `f64` constant in this type.
    fn of(x: f64) -> Self;
    /// `self` to the power `n`.
    #[must_use]
    fn powi(self, n: i32) -> Self;
    /// The square root.
    #[must_use]
    fn sqrt(self) -> Self;
}

impl Float for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn powi(self, n: i32) -> f32 {
        f32::powi(self, n)
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
}

impl Float for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn powi(self, n: i32) -> f64 {
        f64::powi(self, n)
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
}

/// Adam's step count and bias corrections.
#[derive(Clone, Copy, Debug)]
pub struct Adam<F> {
    step: i32,
    /// 1 − β₁ᵗ.
    c1: F,
    /// 1 − β₂ᵗ.
    c2: F,
}

impl<F: Float> Default for Adam<F> {
    fn default() -> Adam<F> {
        Adam::new()
    }
}

impl<F: Float> Adam<F> {
    /// The decay of the first moment (the gradient's running mean).
    pub const BETA1: f64 = 0.9;
    /// The decay of the second moment (the squared gradient's running mean).
    pub const BETA2: f64 = 0.999;
    /// The guard against division by zero.
    pub const EPSILON: f64 = 1e-8;

    /// Before the first step.
    #[must_use]
    pub fn new() -> Adam<F> {
        Adam {
            step: 0,
            c1: F::of(1.0),
            c2: F::of(1.0),
        }
    }

    /// Starts the next step (the first is step 1).
    pub fn next_step(&mut self) {
        self.step += 1;
        self.c1 = F::of(1.0) - F::of(Self::BETA1).powi(self.step);
        self.c2 = F::of(1.0) - F::of(Self::BETA2).powi(self.step);
    }

    /// The steps taken so far.
    #[must_use]
    pub fn steps(&self) -> i32 {
        self.step
    }

    /// Updates a weight's moments `m` and `v` with its gradient `g` and returns what to
    /// subtract from the weight at learning rate `lr`.
    #[inline]
    pub fn delta(&self, g: F, m: &mut F, v: &mut F, lr: F) -> F {
        let (b1, b2) = (F::of(Self::BETA1), F::of(Self::BETA2));
        *m = b1 * *m + (F::of(1.0) - b1) * g;
        *v = b2 * *v + (F::of(1.0) - b2) * g * g;
        lr * (*m / self.c1) / ((*v / self.c2).sqrt() + F::of(Self::EPSILON))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Minimises (x − 3)² + 10 (y + 1)² from the origin in both precisions.
    fn minimise<F: Float + Into<f64>>() -> (f64, f64) {
        let mut adam = Adam::<F>::new();
        let (mut x, mut y) = (F::of(0.0), F::of(0.0));
        let (mut mx, mut vx, mut my, mut vy) = (F::of(0.0), F::of(0.0), F::of(0.0), F::of(0.0));
        for _ in 0..3000 {
            adam.next_step();
            let gx = F::of(2.0) * (x - F::of(3.0));
            let gy = F::of(20.0) * (y + F::of(1.0));
            x = x - adam.delta(gx, &mut mx, &mut vx, F::of(0.05));
            y = y - adam.delta(gy, &mut my, &mut vy, F::of(0.05));
        }
        assert_eq!(adam.steps(), 3000);
        (x.into(), y.into())
    }

    #[test]
    fn adam_finds_a_quadratics_minimum_in_both_precisions() {
        for (x, y) in [minimise::<f32>(), minimise::<f64>()] {
            assert!((x - 3.0).abs() < 1e-3 && (y + 1.0).abs() < 1e-3, "{x} {y}");
        }
    }

    #[test]
    fn the_first_step_moves_each_weight_by_about_the_learning_rate() {
        // Bias-corrected, the first step is lr · g/|g| whatever the gradient's scale.
        let mut adam = Adam::<f64>::new();
        adam.next_step();
        for g in [1e-3, 1.0, 1e3] {
            let (mut m, mut v) = (0.0, 0.0);
            let d = adam.delta(g, &mut m, &mut v, 0.1);
            assert!((d - 0.1).abs() < 1e-6, "{g}: {d}");
        }
    }
}
