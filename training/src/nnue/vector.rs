//! The trainer's float vector loops (a row added to another, scaled and added, a dot product)
//! and `vectorised!`, which defines a function built of them that is compiled twice, for the
//! build's target and for AVX2 on x86-64 CPUs that have it. The loops are plain Rust that the
//! compiler vectorises; the build's generic target has only SSE2 (four lanes where AVX2 has
//! eight), so the trainer's forward and backward passes over a chunk of records are such
//! functions, loops inlined. Both compilations compute the same operations in the same order
//! (the dot product keeps 16 partial sums whatever the lanes), so the results are identical;
//! only the speed differs.

/// Whether the AVX2 compilation runs (checked once).
#[must_use]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *HAS.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Defines a function whose body, built of this module's `inline(always)` loops (and
/// `inline(always)` functions over them), is compiled twice: for the build's target and for
/// AVX2, which runs where the CPU has it.
macro_rules! vectorised {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$meta])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[inline(always)]
            fn plain($($arg: $ty),*) -> $ret $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            unsafe fn wide($($arg: $ty),*) -> $ret {
                plain($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            if $crate::nnue::vector::has_avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { wide($($arg),*) };
            }
            plain($($arg),*)
        }
    };
}
pub(crate) use vectorised;

/// `y[i] += x[i]` over the shorter of the two.
#[inline(always)]
pub fn add(y: &mut [f32], x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += x;
    }
}

/// `y[i] += a × x[i]` over the shorter of the two.
#[inline(always)]
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// `Σ a[i] × b[i]` over the shorter of the two, in 16 partial sums added at the end.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut sums = [0f32; 16];
    let whole = n / 16 * 16;
    for (x, y) in a[..whole].chunks_exact(16).zip(b[..whole].chunks_exact(16)) {
        for i in 0..16 {
            sums[i] += x[i] * y[i];
        }
    }
    let tail: f32 = a[whole..].iter().zip(&b[whole..]).map(|(x, y)| x * y).sum();
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    vectorised! {
        fn work(x: &[f32], y0: &[f32]) -> (f32, Vec<f32>) {
            let mut y = y0.to_vec();
            let d = dot(x, &y);
            axpy(&mut y, 2.0, x);
            add(&mut y, x);
            (d, y)
        }
    }

    #[test]
    fn the_loops_compute_what_they_say() {
        let x: Vec<f32> = (0..37).map(|i| i as f32 * 0.37).collect();
        let y0: Vec<f32> = (0..37).map(|i| 1.0 - i as f32 * 1.3).collect();
        let (d, y) = work(&x, &y0);
        let expected: f32 = x.iter().zip(&y0).map(|(a, b)| a * b).sum();
        assert!((d - expected).abs() < 1e-3);
        assert_eq!(y[3], (y0[3] + 2.0 * x[3]) + x[3]);
        assert_eq!(dot(&[], &[1.0]), 0.0);
    }
}
