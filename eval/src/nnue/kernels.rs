//! The network's vector kernels: adding and subtracting a first-layer row, and the output
//! layer's clipped-ReLU dot product. Each has a portable version (plain loops, which the
//! compiler vectorises as far as the build's target allows) and, on x86-64 CPUs with AVX2, a
//! hand-written one chosen at run time. Both are integer arithmetic with the same wrapping
//! behaviour, so they give identical results on every input (tested below); which one runs only
//! changes the speed.
//!
//! Why the results cannot differ: the rows are added lane by lane with 16-bit wrapping in both;
//! the dot product clips each sum to `0..=clip` (the network's `QA`, 255), multiplies by a 16-bit
//! weight (at most 255 × 32,768 in magnitude, so a pair of products fits 32 bits) and adds with
//! 32-bit wrapping, which gives the same total in any order.

/// Which implementation the kernels use on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain loops, on every CPU.
    Portable,
    /// AVX2 intrinsics (x86-64 CPUs that have them).
    Avx2,
}

impl Kernel {
    /// The fastest implementation this CPU runs.
    #[must_use]
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// The implementation's name, for messages (`avx2`, `portable`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
        }
    }

    /// Whether this CPU can run the implementation.
    #[must_use]
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            Kernel::Avx2 => Kernel::detect() == Kernel::Avx2,
        }
    }

    /// `acc[i] += row[i]` (16-bit, wrapping) over the shorter of the two.
    pub fn add_row(self, acc: &mut [i16], row: &[i16]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::detect() == Kernel::Avx2 => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::update::<false>(acc, row) }
            }
            _ => portable::add_row(acc, row),
        }
    }

    /// `acc[i] -= row[i]` (16-bit, wrapping) over the shorter of the two.
    pub fn sub_row(self, acc: &mut [i16], row: &[i16]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::detect() == Kernel::Avx2 => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::update::<true>(acc, row) }
            }
            _ => portable::sub_row(acc, row),
        }
    }

    /// `Σ clamp(acc[i], 0, clip) × w[i]` (32-bit, wrapping) over the shorter of the two;
    /// `clip` must be at most 255 for the products to fit (see the module notes).
    #[must_use]
    pub fn dot_crelu(self, acc: &[i16], w: &[i16], clip: i16) -> i32 {
        debug_assert!((0..=255).contains(&clip));
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::detect() == Kernel::Avx2 => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::dot_crelu(acc, w, clip) }
            }
            _ => portable::dot_crelu(acc, w, clip),
        }
    }
}

/// The kernels in plain Rust.
mod portable {
    pub fn add_row(acc: &mut [i16], row: &[i16]) {
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(*w);
        }
    }

    pub fn sub_row(acc: &mut [i16], row: &[i16]) {
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(*w);
        }
    }

    pub fn dot_crelu(acc: &[i16], w: &[i16], clip: i16) -> i32 {
        acc.iter().zip(w).fold(0i32, |sum, (&a, &w)| {
            sum.wrapping_add(i32::from(a.clamp(0, clip)) * i32::from(w))
        })
    }
}

/// The kernels with AVX2 intrinsics: 16 lanes of 16 bits at a time, the tail (lengths that are
/// not a multiple of 16) by the portable code.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi16,
        _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16,
        _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
    };

    use super::portable;

    const LANES: usize = 16;

    /// `acc[i] += row[i]`, or `-=` with `SUB`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update<const SUB: bool>(acc: &mut [i16], row: &[i16]) {
        let n = acc.len().min(row.len());
        let whole = n / LANES * LANES;
        for i in (0..whole).step_by(LANES) {
            let a = acc[i..i + LANES].as_mut_ptr().cast::<__m256i>();
            let w = row[i..i + LANES].as_ptr().cast::<__m256i>();
            // SAFETY: both ranges are 16 i16s (32 bytes) in bounds; unaligned loads and stores.
            unsafe {
                let (x, y) = (_mm256_loadu_si256(a), _mm256_loadu_si256(w));
                let sum = if SUB {
                    _mm256_sub_epi16(x, y)
                } else {
                    _mm256_add_epi16(x, y)
                };
                _mm256_storeu_si256(a, sum);
            }
        }
        if SUB {
            portable::sub_row(&mut acc[whole..n], &row[whole..n]);
        } else {
            portable::add_row(&mut acc[whole..n], &row[whole..n]);
        }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot_crelu(acc: &[i16], w: &[i16], clip: i16) -> i32 {
        let n = acc.len().min(w.len());
        let whole = n / LANES * LANES;
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(clip);
        let mut sum = _mm256_setzero_si256();
        for i in (0..whole).step_by(LANES) {
            let a = acc[i..i + LANES].as_ptr().cast::<__m256i>();
            let b = w[i..i + LANES].as_ptr().cast::<__m256i>();
            // SAFETY: both ranges are 16 i16s (32 bytes) in bounds; unaligned loads.
            let (a, b) = unsafe { (_mm256_loadu_si256(a), _mm256_loadu_si256(b)) };
            let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, b));
        }
        // Eight 32-bit lanes to one.
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one).wrapping_add(portable::dot_crelu(&acc[whole..n], &w[whole..n], clip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::network::QA;
    use chariot_rules::random::Rng;

    fn vector(rng: &mut Rng, n: usize) -> Vec<i16> {
        // Every 16-bit value is possible, with the extremes and the clip bounds drawn often.
        (0..n)
            .map(|_| match rng.below(8) {
                0 => i16::MIN,
                1 => i16::MAX,
                2 => QA,
                3 => rng.below(600) as i16 - 300,
                _ => rng.below(65_536) as i16,
            })
            .collect()
    }

    #[test]
    fn every_kernel_gives_the_portable_results() {
        let mut rng = Rng::seeded(17);
        let kernels = [Kernel::Portable, Kernel::Avx2];
        let mut compared = 0;
        for kernel in kernels.into_iter().filter(|k| k.available()) {
            for n in [0, 1, 4, 15, 16, 17, 31, 32, 128, 129, 256, 1024] {
                for _ in 0..20 {
                    let acc = vector(&mut rng, n);
                    let row = vector(&mut rng, n);
                    let (mut a, mut b) = (acc.clone(), acc.clone());
                    kernel.add_row(&mut a, &row);
                    portable::add_row(&mut b, &row);
                    assert_eq!(a, b, "{} add_row, {n} lanes", kernel.name());
                    kernel.sub_row(&mut a, &row);
                    portable::sub_row(&mut b, &row);
                    assert_eq!(a, b, "{} sub_row, {n} lanes", kernel.name());
                    assert_eq!(a, acc, "adding and subtracting a row is the identity");
                    assert_eq!(
                        kernel.dot_crelu(&acc, &row, QA),
                        portable::dot_crelu(&acc, &row, QA),
                        "{} dot_crelu, {n} lanes",
                        kernel.name()
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared >= 240);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(Kernel::detect(), Kernel::Avx2);
            assert!(compared >= 480, "the AVX2 kernels were compared");
        }
    }

    #[test]
    fn the_dot_product_clips_and_weighs() {
        let acc = [-5, 0, 3, 300, 255, 1000];
        let w = [7, 7, 2, -1, 1, 3];
        // 0 + 0 + 6 - 255 + 255 + 765
        for kernel in [Kernel::Portable, Kernel::detect()] {
            assert_eq!(kernel.dot_crelu(&acc, &w, QA), 771);
        }
    }
}
