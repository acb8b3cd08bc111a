//! The king-bucketed network's hidden layers (`R` neurons, 16 or 32, over bytes) with their
//! weights packed by groups of four inputs: for each group, the `R` neurons' four weights one
//! after another (64 bytes for the first hidden layer, one cache line). A layer then reads its
//! weights in one sequential stream, which the processor's prefetchers follow (the rows one
//! after another, as the file keeps them, make sixteen streams of 512 bytes in the first
//! hidden layer, and it waited on them), and the vector code broadcasts each group of four
//! inputs and multiplies it by the group's weights: the sums land in the neurons' own lanes,
//! with no horizontal additions at the end (which cost the second hidden layer, 16 inputs,
//! more than its products). This is Stockfish's layout for the same layers.
//!
//! Every kernel gives the exact sum `Σ x[i] × w[j][i]` for inputs of at most 127 (as the
//! network's activations are): AVX2's `maddubs` then saturates no pair of products (2 × 127 ×
//! 128 < 32,768) and VNNI's `vpdpbusd` never saturates.

use super::kernels::Kernel;

/// The weights of a layer of `rows` neurons over `inputs` (the file's order: one row of
/// `inputs` a neuron), packed by groups of four inputs.
///
/// # Panics
///
/// When `w` does not hold `rows` rows of `inputs` or `inputs` is not a multiple of 4.
#[must_use]
pub fn pack(w: &[i8], inputs: usize, rows: usize) -> Vec<i8> {
    assert!(
        inputs.is_multiple_of(4) && w.len() == rows * inputs,
        "not a layer of groups of four"
    );
    let mut packed = vec![0; w.len()];
    for g in 0..inputs / 4 {
        for j in 0..rows {
            for k in 0..4 {
                packed[(g * rows + j) * 4 + k] = w[j * inputs + 4 * g + k];
            }
        }
    }
    packed
}

/// The layer sizes the kernels take: a multiple of 8 neurons (the 32-bit lanes of a vector),
/// at most 32.
const fn fits(rows: usize) -> bool {
    rows.is_multiple_of(8) && rows > 0 && rows <= 32
}

impl Kernel {
    /// A hidden layer's sums, `out[j] = Σ x[i] × w[j][i]` (32-bit, wrapping), of the weights
    /// [`pack`]ed for `R` neurons (8, 16, 24 or 32); exact when every `x[i]` is at most 127
    /// (see the module notes).
    ///
    /// # Panics
    ///
    /// When `x.len()` is not a multiple of 4 or `packed` holds fewer than `R × x.len()`
    /// weights.
    pub fn affine_packed<const R: usize>(self, x: &[u8], packed: &[i8], out: &mut [i32; R]) {
        const { assert!(fits(R), "8, 16, 24 or 32 neurons") };
        assert!(
            x.len().is_multiple_of(4) && packed.len() >= R * x.len(),
            "too few weights for the layer"
        );
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Vnni if Kernel::Vnni.available() => {
                // SAFETY: the CPU has AVX2 and VNNI (checked just above); the sizes are.
                unsafe { vnni::affine_packed(x, packed, out) }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Vnni if Kernel::Avx2.available() => {
                // SAFETY: the CPU has AVX2 (checked just above); the sizes are.
                unsafe { avx2::affine_packed(x, packed, out) }
            }
            _ => portable(x, packed, out),
        }
    }
}

/// The layer in plain Rust.
fn portable<const R: usize>(x: &[u8], packed: &[i8], out: &mut [i32; R]) {
    *out = [0; R];
    for (xs, ws) in x.chunks_exact(4).zip(packed.chunks_exact(4 * R)) {
        for (o, w) in out.iter_mut().zip(ws.chunks_exact(4)) {
            for (&a, &b) in xs.iter().zip(w) {
                *o = o.wrapping_add(i32::from(a) * i32::from(b));
            }
        }
    }
}

/// With AVX2: each group of four inputs broadcast to every 32-bit lane, `maddubs` and `madd` by
/// ones against the group's weights (neurons 0-7, 8-15, ...), added to the neurons' lanes.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16,
        _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_storeu_si256,
    };

    /// # Safety
    /// The CPU must have AVX2; `R` is a multiple of 8 up to 32, `x.len()` a multiple of 4 and
    /// `packed` holds `R × x.len()` weights.
    #[target_feature(enable = "avx2")]
    pub unsafe fn affine_packed<const R: usize>(x: &[u8], packed: &[i8], out: &mut [i32; R]) {
        let ones = _mm256_set1_epi16(1);
        let mut acc = [_mm256_setzero_si256(); 4];
        let (xp, wp) = (x.as_ptr(), packed.as_ptr());
        for g in 0..x.len() / 4 {
            // SAFETY: group `g`'s four inputs and its `4 × R` bytes of weights are in bounds
            // (the caller's sizes); unaligned loads.
            unsafe {
                let a = _mm256_set1_epi32(xp.add(4 * g).cast::<i32>().read_unaligned());
                let group = wp.add(4 * R * g);
                for (v, acc) in acc.iter_mut().enumerate().take(R / 8) {
                    let w = _mm256_loadu_si256(group.add(32 * v).cast());
                    let products = _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), ones);
                    *acc = _mm256_add_epi32(*acc, products);
                }
            }
        }
        for (v, acc) in acc.into_iter().enumerate().take(R / 8) {
            // SAFETY: eight i32s (32 bytes) from `8 × v < R` in bounds; unaligned store.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(8 * v).cast(), acc) };
        }
    }
}

/// With AVX-512 VNNI on 256-bit vectors: `vpdpbusd` does AVX2's three steps at once. It adds
/// into its accumulator, so consecutive groups take turns with sets of accumulators, eight
/// vectors in all, and a sum waits on its own accumulator only every few groups.
#[cfg(target_arch = "x86_64")]
mod vnni {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_dpbusd_epi32, _mm256_loadu_si256, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_storeu_si256,
    };

    /// `acc` plus, in each 32-bit lane, the four products of `a`'s bytes (unsigned) by the
    /// bytes at `w` (signed), exactly: `vpdpbusd`.
    ///
    /// # Safety
    /// The CPU must have AVX-512 VNNI and AVX-512 VL, and `w` must point to 32 readable bytes.
    #[inline]
    #[target_feature(enable = "avx2,avx512vnni,avx512vl")]
    unsafe fn dpbusd(acc: __m256i, a: __m256i, w: *const i8) -> __m256i {
        // SAFETY: the caller's: 32 readable bytes at `w` (an unaligned load).
        let w = unsafe { _mm256_loadu_si256(w.cast()) };
        _mm256_dpbusd_epi32(acc, a, w)
    }

    /// # Safety
    /// The CPU must have AVX2, AVX-512 VNNI and AVX-512 VL; `R` is a multiple of 8 up to 32,
    /// `x.len()` a multiple of 4 and `packed` holds `R × x.len()` weights.
    #[target_feature(enable = "avx2,avx512vnni,avx512vl")]
    pub unsafe fn affine_packed<const R: usize>(x: &[u8], packed: &[i8], out: &mut [i32; R]) {
        // Sets of accumulators: eight vectors in all, at most four sets.
        let ways = (64 / R).min(4);
        let mut acc = [[_mm256_setzero_si256(); 4]; 4];
        let (xp, wp) = (x.as_ptr(), packed.as_ptr());
        let groups = x.len() / 4;
        // SAFETY (the closure's loads): group `g`'s four inputs and its `4 × R` bytes of
        // weights are in bounds for `g < groups` (the caller's sizes); the CPU has VNNI (the
        // caller's).
        let step = |acc: &mut [__m256i; 4], g: usize| unsafe {
            let a = _mm256_set1_epi32(xp.add(4 * g).cast::<i32>().read_unaligned());
            let group = wp.add(4 * R * g);
            for (v, acc) in acc.iter_mut().enumerate().take(R / 8) {
                *acc = dpbusd(*acc, a, group.add(32 * v));
            }
        };
        let whole = groups / ways * ways;
        for g in (0..whole).step_by(ways) {
            for (k, acc) in acc.iter_mut().enumerate().take(ways) {
                step(acc, g + k);
            }
        }
        for g in whole..groups {
            step(&mut acc[0], g);
        }
        let mut total = acc[0];
        for set in &acc[1..ways] {
            for (t, &v) in total.iter_mut().zip(set) {
                *t = _mm256_add_epi32(*t, v);
            }
        }
        for (v, total) in total.into_iter().enumerate().take(R / 8) {
            // SAFETY: eight i32s (32 bytes) from `8 × v < R` in bounds; unaligned store.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(8 * v).cast(), total) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::random::Rng;

    fn exact_sums_of_every_kernel<const R: usize>(rng: &mut Rng, inputs: usize) -> usize {
        let w: Vec<i8> = (0..R * inputs)
            .map(|_| match rng.below(5) {
                0 => i8::MIN,
                1 => i8::MAX,
                _ => rng.below(256) as i8,
            })
            .collect();
        let x: Vec<u8> = (0..inputs)
            .map(|_| match rng.below(4) {
                0 => 0,
                1 => 127,
                _ => rng.below(128) as u8,
            })
            .collect();
        let exact: Vec<i32> = (0..R)
            .map(|j| {
                let row = &w[j * inputs..(j + 1) * inputs];
                x.iter()
                    .zip(row)
                    .map(|(&a, &b)| i32::from(a) * i32::from(b))
                    .sum()
            })
            .collect();
        let packed = pack(&w, inputs, R);
        let mut compared = 0;
        for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
            let mut out = [7; R];
            kernel.affine_packed(&x, &packed, &mut out);
            assert_eq!(
                out[..],
                exact[..],
                "{} kernel, {inputs} × {R}",
                kernel.name()
            );
            compared += 1;
        }
        compared
    }

    /// Every kernel gives the exact sums of the layer as the file's rows say, on random inputs
    /// up to 127 and weights with the extremes drawn often, at the sizes of both hidden layers
    /// and others.
    #[test]
    fn every_kernel_gives_the_exact_sums() {
        let mut rng = Rng::seeded(41);
        let mut compared = 0;
        for inputs in [0, 4, 8, 16, 28, 32, 64, 100, 512, 1024] {
            for _ in 0..10 {
                compared += exact_sums_of_every_kernel::<8>(&mut rng, inputs);
                compared += exact_sums_of_every_kernel::<16>(&mut rng, inputs);
                compared += exact_sums_of_every_kernel::<24>(&mut rng, inputs);
                compared += exact_sums_of_every_kernel::<32>(&mut rng, inputs);
            }
        }
        assert!(compared >= 400);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(compared >= 800, "the AVX2 kernel was compared");
        }
    }

    #[test]
    fn a_small_layer_weighs_its_inputs() {
        // Eight neurons over eight inputs: neuron j weighs input j by 127 − j and input 7 − j
        // by −128, the rest by 0.
        let (inputs, rows) = (8, 8);
        let mut w = vec![0i8; rows * inputs];
        for j in 0..rows {
            w[j * inputs + j] = 127 - j as i8;
            w[j * inputs + 7 - j] = i8::MIN;
        }
        let x = [1, 2, 3, 4, 5, 6, 7, 127];
        let expected: [i32; 8] = std::array::from_fn(|j| {
            let (own, mirror) = (i32::from(x[j]), i32::from(x[7 - j]));
            own * (127 - j as i32) - 128 * mirror
        });
        let packed = pack(&w, inputs, rows);
        for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
            let mut out = [0; 8];
            kernel.affine_packed(&x, &packed, &mut out);
            assert_eq!(out, expected, "{}", kernel.name());
        }
    }

    #[test]
    fn a_layer_that_does_not_fit_is_refused() {
        let packed = pack(&[0; 16 * 8], 8, 16);
        let result = std::panic::catch_unwind(|| {
            let mut out = [0; 16];
            Kernel::Portable.affine_packed(&[0; 16], &packed, &mut out);
        });
        assert!(result.is_err(), "16 inputs against the weights of 8");
    }
}
