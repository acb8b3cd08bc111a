//! The networks' vector kernels: adding and subtracting first-layer rows, the piece-square
//! network's clipped-ReLU dot product, and the king-bucketed network's pairwise activation to
//! bytes and its byte-by-byte affine layers. Each has a portable version (plain loops, which the compiler
//! vectorises as far as the build's target allows) and, on x86-64 CPUs with AVX2, a
//! hand-written one chosen at run time. Both are integer arithmetic with the same wrapping and
//! saturation, so they give identical results on every input (tested below); which one runs
//! only changes the speed.
//!
//! Why the results cannot differ: the rows are added lane by lane with 16-bit wrapping in both;
//! the dot product clips each sum to `0..=clip` (the network's `QA`, 255), multiplies by a 16-bit
//! weight (at most 255 × 32,768 in magnitude, so a pair of products fits 32 bits) and adds with
//! 32-bit wrapping, which gives the same total in any order. The pairwise activation clips two
//! 16-bit sums to `0..=255` and rounds the first × 64 times the second over 32,768 as AVX2's
//! `mulhrs` does (at most 16,320 × 255, exact in 32 bits): the same integer either way. The
//! affine layers multiply bytes
//! (unsigned inputs, signed weights) and add each pair of neighbouring products (inputs `2k` and
//! `2k + 1`) with 16-bit saturation, as AVX2's `maddubs` does, then add the pairs with 32-bit
//! wrapping; the portable code saturates the same pairs. With inputs of at most 127, as the
//! networks' activations are, no pair saturates (2 × 127 × 128 < 32,768) and the sum is exact.

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

    /// `out[i] = base[i] + Σ add[k][i] − Σ sub[k][i]` (16-bit, wrapping) over the shortest of
    /// them all: the first-layer sums after a move from those before it, in one pass.
    pub fn update(self, out: &mut [i16], base: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::detect() == Kernel::Avx2 => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::update_from(out, base, add, sub) }
            }
            _ => portable::update_from(out, base, add, sub),
        }
    }

    /// The pairwise clipped ReLU: with `half = acc.len() / 2`, `out[i] = clamp(acc[i], 0, 255) ×
    /// clamp(acc[half + i], 0, 255) / 512`, rounded (at most 127, ready for [`Kernel::affine`]),
    /// for each `i` below the shorter of `half` and `out.len()`.
    pub fn pairwise_bytes(self, acc: &[i16], out: &mut [u8]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::detect() == Kernel::Avx2 => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::pairwise_bytes(acc, out) }
            }
            _ => portable::pairwise_bytes(acc, out),
        }
    }

    /// For each row `j` of `out.len()` rows, `out[j] = Σ x[i] × w[j × n + i]` where `n =
    /// x.len()`, the products of neighbouring inputs added with 16-bit saturation and the pairs
    /// with 32-bit wrapping (see the module notes: exact when every `x[i]` is at most 127).
    ///
    /// # Panics
    ///
    /// When `w` holds fewer than `out.len() × x.len()` weights.
    pub fn affine(self, x: &[u8], w: &[i8], out: &mut [i32]) {
        assert!(
            w.len() >= out.len() * x.len(),
            "too few weights for the layer"
        );
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if Kernel::detect() == Kernel::Avx2 => {
                // SAFETY: the CPU has AVX2 (checked just above); `w` holds every row.
                unsafe { avx2::affine(x, w, out) }
            }
            _ => portable::affine(x, w, out),
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

    pub fn update_from(out: &mut [i16], base: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = shortest(out, base, add, sub);
        out[..n].copy_from_slice(&base[..n]);
        for row in add {
            add_row(&mut out[..n], row);
        }
        for row in sub {
            sub_row(&mut out[..n], row);
        }
    }

    /// The length [`update_from`] works over: the shortest of its slices.
    pub fn shortest(out: &[i16], base: &[i16], add: &[&[i16]], sub: &[&[i16]]) -> usize {
        add.iter()
            .chain(sub)
            .fold(out.len().min(base.len()), |n, row| n.min(row.len()))
    }

    pub fn pairwise_bytes(acc: &[i16], out: &mut [u8]) {
        let (first, second) = acc.split_at(acc.len() / 2);
        for ((o, &a), &b) in out.iter_mut().zip(first).zip(second) {
            let (a, b) = (i32::from(a.clamp(0, 255)), i32::from(b.clamp(0, 255)));
            // `mulhrs`: the product over 2^14, plus one, halved.
            *o = (((((a << 6) * b) >> 14) + 1) >> 1) as u8;
        }
    }

    /// One row of [`affine`]: pairs of products saturated to 16 bits, as `maddubs`.
    pub fn affine_row(x: &[u8], w: &[i8]) -> i32 {
        x.chunks(2).zip(w.chunks(2)).fold(0i32, |sum, (x, w)| {
            let pair: i32 = x
                .iter()
                .zip(w)
                .map(|(&a, &b)| i32::from(a) * i32::from(b))
                .sum();
            sum.wrapping_add(pair.clamp(i16::MIN.into(), i16::MAX.into()))
        })
    }

    pub fn affine(x: &[u8], w: &[i8], out: &mut [i32]) {
        let n = x.len();
        for (j, o) in out.iter_mut().enumerate() {
            *o = affine_row(x, &w[j * n..(j + 1) * n]);
        }
    }
}

/// The kernels with AVX2 intrinsics: 16 lanes of 16 bits or 32 of 8 bits at a time, the tail
/// (lengths that are not a multiple of the lanes) by the portable code.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_hadd_epi32, _mm_loadu_si128,
        _mm_madd_epi16, _mm_maddubs_epi16, _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi32,
        _mm_storeu_si128, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128,
        _mm256_extracti128_si256, _mm256_hadd_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_maddubs_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mulhrs_epi16,
        _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_setzero_si256,
        _mm256_slli_epi16, _mm256_storeu_si256, _mm256_sub_epi16,
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
        hsum(sum).wrapping_add(portable::dot_crelu(&acc[whole..n], &w[whole..n], clip))
    }

    /// The sum of eight 32-bit lanes (wrapping).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn hsum(sum: __m256i) -> i32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        hsum128(half)
    }

    /// The sum of four 32-bit lanes (wrapping).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn hsum128(half: __m128i) -> i32 {
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one)
    }

    /// `out = base + Σ add − Σ sub`, 16 lanes at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_from(out: &mut [i16], base: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        let n = portable::shortest(out, base, add, sub);
        let whole = n / LANES * LANES;
        for i in (0..whole).step_by(LANES) {
            let o = out[i..i + LANES].as_mut_ptr().cast::<__m256i>();
            // SAFETY: every range is 16 i16s (32 bytes) in bounds (`whole` is at most the
            // shortest slice); unaligned loads and stores.
            unsafe {
                let mut v = _mm256_loadu_si256(base[i..i + LANES].as_ptr().cast());
                for row in add {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row[i..i + LANES].as_ptr().cast()));
                }
                for row in sub {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(row[i..i + LANES].as_ptr().cast()));
                }
                _mm256_storeu_si256(o, v);
            }
        }
        if whole < n {
            fn tails<'a>(rows: &[&'a [i16]], range: std::ops::Range<usize>) -> Vec<&'a [i16]> {
                rows.iter().map(|r| &r[range.clone()]).collect()
            }
            let (add, sub) = (tails(add, whole..n), tails(sub, whole..n));
            portable::update_from(&mut out[whole..n], &base[whole..n], &add, &sub);
        }
    }

    /// The pairwise clipped ReLU, 32 outputs at a time: each half's sums clipped to
    /// `0..=255`, the first shifted left by 6, the rounded high halves of the products
    /// (`mulhrs`) packed to bytes and put back in order.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn pairwise_bytes(acc: &[i16], out: &mut [u8]) {
        let (first, second) = acc.split_at(acc.len() / 2);
        let n = first.len().min(out.len());
        let whole = n / 32 * 32;
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(255));
        let clip = |v| _mm256_min_epi16(_mm256_max_epi16(v, zero), top);
        for i in (0..whole).step_by(32) {
            // SAFETY: 32 i16s of each half and 32 bytes of `out` in bounds; unaligned access.
            unsafe {
                let product = |j: usize| {
                    let a = clip(_mm256_loadu_si256(first[j..j + 16].as_ptr().cast()));
                    let b = clip(_mm256_loadu_si256(second[j..j + 16].as_ptr().cast()));
                    _mm256_mulhrs_epi16(_mm256_slli_epi16::<6>(a), b)
                };
                // Packing works within 128-bit lanes: p0 0-7, p1 0-7, p0 8-15, p1 8-15; the
                // permutation restores the order.
                let packed = _mm256_packus_epi16(product(i), product(i + 16));
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                _mm256_storeu_si256(out[i..i + 32].as_mut_ptr().cast(), ordered);
            }
        }
        if whole < n {
            let tail: Vec<i16> = first[whole..n]
                .iter()
                .chain(&second[whole..n])
                .copied()
                .collect();
            portable::pairwise_bytes(&tail, &mut out[whole..n]);
        }
    }

    /// Each row's sum of byte products: 32 at a time (`maddubs` into saturated 16-bit pairs,
    /// `madd` by ones into 32-bit lanes), then 16 at a time, then the portable code; four rows
    /// at once, sharing the loads of `x` and adding their lanes together at the end.
    ///
    /// # Safety
    /// The CPU must have AVX2, and `w` must hold `out.len()` rows of `x.len()`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn affine(x: &[u8], w: &[i8], out: &mut [i32]) {
        let n = x.len();
        let whole = n / 32 * 32;
        let half = if n - whole >= 16 { whole + 16 } else { whole };
        let ones = _mm256_set1_epi16(1);
        let ones128 = _mm_set1_epi16(1);
        let blocks = out.len() / 4;
        for block in 0..blocks {
            let at = 4 * block * n;
            let rows = [
                &w[at..at + n],
                &w[at + n..at + 2 * n],
                &w[at + 2 * n..at + 3 * n],
                &w[at + 3 * n..at + 4 * n],
            ];
            let mut sums = [_mm256_setzero_si256(); 4];
            for i in (0..whole).step_by(32) {
                // SAFETY: 32 bytes of `x` and of each row in bounds; unaligned loads.
                unsafe {
                    let a = _mm256_loadu_si256(x[i..i + 32].as_ptr().cast());
                    for r in 0..4 {
                        let b = _mm256_loadu_si256(rows[r][i..i + 32].as_ptr().cast());
                        let products = _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), ones);
                        sums[r] = _mm256_add_epi32(sums[r], products);
                    }
                }
            }
            let mut tails = [_mm_setzero_si128(); 4];
            if half > whole {
                // SAFETY: 16 bytes of `x` and of each row in bounds; unaligned loads.
                unsafe {
                    let a = _mm_loadu_si128(x[whole..half].as_ptr().cast());
                    for r in 0..4 {
                        let b = _mm_loadu_si128(rows[r][whole..half].as_ptr().cast());
                        tails[r] = _mm_madd_epi16(_mm_maddubs_epi16(a, b), ones128);
                    }
                }
            }
            // Each 128-bit lane of `h` holds the four rows' sums of its half; the two halves
            // and the 16-byte tails' own four sums make the rows' totals.
            let h = _mm256_hadd_epi32(
                _mm256_hadd_epi32(sums[0], sums[1]),
                _mm256_hadd_epi32(sums[2], sums[3]),
            );
            let t = _mm_hadd_epi32(
                _mm_hadd_epi32(tails[0], tails[1]),
                _mm_hadd_epi32(tails[2], tails[3]),
            );
            let four = _mm_add_epi32(
                _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256::<1>(h)),
                t,
            );
            let mut totals = [0i32; 4];
            // SAFETY: four i32s (16 bytes) in bounds; unaligned store.
            unsafe { _mm_storeu_si128(totals.as_mut_ptr().cast(), four) };
            for (r, total) in totals.iter().enumerate() {
                out[4 * block + r] =
                    total.wrapping_add(portable::affine_row(&x[half..], &rows[r][half..]));
            }
        }
        for (j, o) in out.iter_mut().enumerate().skip(4 * blocks) {
            let row = &w[j * n..(j + 1) * n];
            let mut sum = _mm256_setzero_si256();
            for i in (0..whole).step_by(32) {
                // SAFETY: 32 bytes of `x` and of the row in bounds; unaligned loads.
                let (a, b) = unsafe {
                    (
                        _mm256_loadu_si256(x[i..i + 32].as_ptr().cast()),
                        _mm256_loadu_si256(row[i..i + 32].as_ptr().cast()),
                    )
                };
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), ones));
            }
            let mut tail = _mm_setzero_si128();
            if half > whole {
                // SAFETY: 16 bytes of `x` and of the row in bounds; unaligned loads.
                let (a, b) = unsafe {
                    (
                        _mm_loadu_si128(x[whole..half].as_ptr().cast()),
                        _mm_loadu_si128(row[whole..half].as_ptr().cast()),
                    )
                };
                tail = _mm_madd_epi16(_mm_maddubs_epi16(a, b), ones128);
            }
            *o = hsum(sum)
                .wrapping_add(hsum128(tail))
                .wrapping_add(portable::affine_row(&x[half..], &row[half..]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::psq::QA;
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

    fn bytes(rng: &mut Rng, n: usize, top: usize) -> Vec<u8> {
        (0..n)
            .map(|_| match rng.below(4) {
                0 => 0,
                1 => top as u8,
                _ => rng.below(top + 1) as u8,
            })
            .collect()
    }

    fn weights(rng: &mut Rng, n: usize) -> Vec<i8> {
        (0..n)
            .map(|_| match rng.below(5) {
                0 => i8::MIN,
                1 => i8::MAX,
                _ => rng.below(256) as i8,
            })
            .collect()
    }

    /// The kernels of the king-bucketed network: the fused update with up to three rows added
    /// and three taken off, the activation to bytes at several clips, and the affine layer on
    /// inputs up to 255 (where pairs saturate: the kernels must saturate alike) and up to 127
    /// (where the sum must be exact).
    #[test]
    fn every_kernel_gives_the_portable_results_for_the_bigger_network() {
        let mut rng = Rng::seeded(29);
        let mut compared = 0;
        for kernel in [Kernel::Portable, Kernel::Avx2]
            .into_iter()
            .filter(|k| k.available())
        {
            for n in [0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 64, 100, 512, 1024] {
                for _ in 0..10 {
                    let base = vector(&mut rng, n);
                    let rows: Vec<Vec<i16>> = (0..6).map(|_| vector(&mut rng, n)).collect();
                    let (na, ns) = (rng.below(4), rng.below(4));
                    let add: Vec<&[i16]> = rows[..na].iter().map(Vec::as_slice).collect();
                    let sub: Vec<&[i16]> = rows[3..3 + ns].iter().map(Vec::as_slice).collect();
                    let (mut a, mut b) = (vec![7; n], vec![7; n]);
                    kernel.update(&mut a, &base, &add, &sub);
                    portable::update_from(&mut b, &base, &add, &sub);
                    assert_eq!(a, b, "{} update, {n} lanes", kernel.name());
                    let mut slow = base.clone();
                    for row in &add {
                        portable::add_row(&mut slow, row);
                    }
                    for row in &sub {
                        portable::sub_row(&mut slow, row);
                    }
                    assert_eq!(a, slow, "the update is the rows added and taken off");

                    let pairs = [&base[..], &rows[0]].concat();
                    let (mut a, mut b) = (vec![9; n], vec![9; n]);
                    kernel.pairwise_bytes(&pairs, &mut a);
                    portable::pairwise_bytes(&pairs, &mut b);
                    assert_eq!(a, b, "{} pairwise_bytes, {n} lanes", kernel.name());
                    assert!(a.iter().all(|&x| x <= 127));

                    let rows_out = 1 + rng.below(17);
                    let w = weights(&mut rng, rows_out * n);
                    for top in [255, 127] {
                        let x = bytes(&mut rng, n, top);
                        let (mut a, mut b) = (vec![0; rows_out], vec![0; rows_out]);
                        kernel.affine(&x, &w, &mut a);
                        portable::affine(&x, &w, &mut b);
                        assert_eq!(a, b, "{} affine, inputs to {top}, {n}", kernel.name());
                        if top == 127 {
                            for (j, &got) in a.iter().enumerate() {
                                let exact: i64 = x
                                    .iter()
                                    .zip(&w[j * n..(j + 1) * n])
                                    .map(|(&x, &w)| i64::from(x) * i64::from(w))
                                    .sum();
                                assert_eq!(i64::from(got), exact, "row {j} of {n}");
                            }
                        }
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 150);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(compared >= 300, "the AVX2 kernels were compared");
        }
    }

    #[test]
    fn the_activation_clips_and_the_affine_layer_weighs() {
        // Pairs (first half, second half): clipped to 0..=255, multiplied, divided by 512 and
        // rounded.
        let acc = [-300, 255, 100, 1000, 40, 7, i16::MAX, 20, 255, 255, 300, 3];
        let x = [0, 10, 50, 127, 20, 0];
        for kernel in [Kernel::Portable, Kernel::detect()] {
            let mut out = [9; 6];
            kernel.pairwise_bytes(&acc, &mut out);
            assert_eq!(out, x, "{}", kernel.name());
            let w = [3, -1, 100, 2, 1, -1, 0, 4, 127, 127];
            let mut y = [0; 2];
            kernel.affine(&[10, 20, 30, 40, 50], &w, &mut y);
            assert_eq!(
                y,
                [
                    10 * 3 - 20 + 3000 + 80 + 50,
                    -10 + 30 * 4 + 40 * 127 + 50 * 127
                ]
            );
            let mut z = [0; 1];
            kernel.affine(&[200, 200], &[127, 127], &mut z);
            assert_eq!(z, [32_767]);
        }
    }
}
