//! The networks' vector kernels: adding and subtracting first-layer rows, the piece-square
//! network's clipped-ReLU dot product, and the king-bucketed network's pairwise activation to
//! bytes (its hidden layers' byte products are [`super::packed`]'s). Each has a portable
//! version (plain loops, which the compiler vectorises as far as the build's target allows)
//! and, on x86-64 CPUs with AVX2, a hand-written one chosen at run time ([`Kernel::Vnni`] runs
//! these AVX2 ones too). Both are integer arithmetic with the same wrapping and saturation, so
//! they give identical results on every input (tested below); which one runs only changes the
//! speed.
//!
//! Why the results cannot differ: the rows are added lane by lane with 16-bit wrapping in both;
//! the dot product clips each sum to `0..=clip` (the network's `QA`, 255), multiplies by a 16-bit
//! weight (at most 255 × 32,768 in magnitude, so a pair of products fits 32 bits) and adds with
//! 32-bit wrapping, which gives the same total in any order. The pairwise activation clips two
//! 16-bit sums to `0..=255` and rounds the first × 64 times the second over 32,768 as AVX2's
//! `mulhrs` does (at most 16,320 × 255, exact in 32 bits): the same integer either way.

/// Which implementation the kernels use on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain loops, on every CPU.
    Portable,
    /// AVX2 intrinsics (x86-64 CPUs that have them).
    Avx2,
    /// The AVX2 kernels, with AVX-512 VNNI's byte dot products (`vpdpbusd`, 256 bits wide)
    /// for the king-bucketed network's hidden layers ([`super::packed`]), on x86-64 CPUs that
    /// have both.
    Vnni,
}

/// Whether the CPU has AVX2 (the check is cached by the standard library).
#[inline]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has AVX2 and AVX-512 VNNI on 256-bit vectors.
#[inline]
fn has_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx2()
            && std::arch::is_x86_feature_detected!("avx512vnni")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl Kernel {
    /// The fastest implementation this CPU runs.
    #[must_use]
    pub fn detect() -> Kernel {
        if has_vnni() {
            Kernel::Vnni
        } else if has_avx2() {
            Kernel::Avx2
        } else {
            Kernel::Portable
        }
    }

    /// The implementation's name, for messages and the command line (`vnni`, `avx2`,
    /// `portable`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
            Kernel::Vnni => "vnni",
        }
    }

    /// Every implementation, the fastest first.
    pub const ALL: [Kernel; 3] = [Kernel::Vnni, Kernel::Avx2, Kernel::Portable];

    /// Whether this CPU can run the implementation.
    #[must_use]
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            Kernel::Avx2 => has_avx2(),
            Kernel::Vnni => has_vnni(),
        }
    }

    /// `acc[i] += row[i]` (16-bit, wrapping) over the shorter of the two.
    pub fn add_row(self, acc: &mut [i16], row: &[i16]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Vnni if has_avx2() => {
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
            Kernel::Avx2 | Kernel::Vnni if has_avx2() => {
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
            Kernel::Avx2 | Kernel::Vnni if has_avx2() => {
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
            Kernel::Avx2 | Kernel::Vnni if has_avx2() => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::update_from(out, base, add, sub) }
            }
            _ => portable::update_from(out, base, add, sub),
        }
    }

    /// As [`Kernel::update`] with a fixed number of rows, `A` added and `S` taken off: the
    /// king-bucketed network's update, whose loop over the rows the compiler unrolls (its
    /// sums are the same as [`Kernel::update`]'s).
    pub fn update_rows<const A: usize, const S: usize>(
        self,
        out: &mut [i16],
        base: &[i16],
        add: [&[i16]; A],
        sub: [&[i16]; S],
    ) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Vnni if has_avx2() => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::update_rows(out, base, add, sub) }
            }
            _ => portable::update_from(out, base, &add, &sub),
        }
    }

    /// The pairwise clipped ReLU: with `half = acc.len() / 2`, `out[i] = clamp(acc[i], 0, 255) ×
    /// clamp(acc[half + i], 0, 255) / 512`, rounded (at most 127, ready for [`Kernel::affine_packed`]),
    /// for each `i` below the shorter of `half` and `out.len()`.
    pub fn pairwise_bytes(self, acc: &[i16], out: &mut [u8]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Vnni if has_avx2() => {
                // SAFETY: the CPU has AVX2 (checked just above).
                unsafe { avx2::pairwise_bytes(acc, out) }
            }
            _ => portable::pairwise_bytes(acc, out),
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
}

/// The kernels with AVX2 intrinsics: 16 lanes of 16 bits or 32 of 8 bits at a time, the tail
/// (lengths that are not a multiple of the lanes) by the portable code.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi16,
        _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mulhrs_epi16,
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

    /// `out = base + Σ add − Σ sub` for a fixed number of rows, 16 lanes at a time, four
    /// vectors (64 lanes) an iteration.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_rows<const A: usize, const S: usize>(
        out: &mut [i16],
        base: &[i16],
        add: [&[i16]; A],
        sub: [&[i16]; S],
    ) {
        const STEP: usize = 4 * LANES;
        let n = portable::shortest(out, base, &add, &sub);
        let whole = n / STEP * STEP;
        let (o, b) = (out.as_mut_ptr(), base.as_ptr());
        for i in (0..whole).step_by(STEP) {
            // SAFETY: every slice holds at least `whole` lanes (`n` is the shortest), so the 64
            // lanes from `i` are in bounds; unaligned loads and stores.
            unsafe {
                let load =
                    |p: *const i16, k: usize| _mm256_loadu_si256(p.add(i + k * LANES).cast());
                let mut v = [load(b, 0), load(b, 1), load(b, 2), load(b, 3)];
                for row in add {
                    for (k, v) in v.iter_mut().enumerate() {
                        *v = _mm256_add_epi16(*v, load(row.as_ptr(), k));
                    }
                }
                for row in sub {
                    for (k, v) in v.iter_mut().enumerate() {
                        *v = _mm256_sub_epi16(*v, load(row.as_ptr(), k));
                    }
                }
                for (k, v) in v.into_iter().enumerate() {
                    _mm256_storeu_si256(o.add(i + k * LANES).cast(), v);
                }
            }
        }
        if whole < n {
            let add = add.map(|r| &r[whole..n]);
            let sub = sub.map(|r| &r[whole..n]);
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
            assert_ne!(Kernel::detect(), Kernel::Portable);
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

    /// The kernels of the king-bucketed network: the fused update with up to three rows added
    /// and three taken off, the same with the rows of a move (one added, one or two taken off)
    /// as the network updates its sums, and the activation to bytes at several clips (its
    /// hidden layers: `super::packed`).
    #[test]
    fn every_kernel_gives_the_portable_results_for_the_bigger_network() {
        let mut rng = Rng::seeded(29);
        let mut compared = 0;
        for kernel in Kernel::ALL.into_iter().filter(|k| k.available()) {
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

                    let [to, from, captured, ..] = &rows[..] else {
                        unreachable!("six rows")
                    };
                    let (mut a, mut b) = (vec![5; n], vec![5; n]);
                    kernel.update_rows(&mut a, &base, [to], [from]);
                    portable::update_from(&mut b, &base, &[to], &[from]);
                    assert_eq!(a, b, "{} update of a move, {n} lanes", kernel.name());
                    kernel.update_rows(&mut a, &base, [to], [from, captured]);
                    portable::update_from(&mut b, &base, &[to], &[from, captured]);
                    assert_eq!(a, b, "{} update of a capture, {n} lanes", kernel.name());

                    let pairs = [&base[..], &rows[0]].concat();
                    let (mut a, mut b) = (vec![9; n], vec![9; n]);
                    kernel.pairwise_bytes(&pairs, &mut a);
                    portable::pairwise_bytes(&pairs, &mut b);
                    assert_eq!(a, b, "{} pairwise_bytes, {n} lanes", kernel.name());
                    assert!(a.iter().all(|&x| x <= 127));
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
    fn the_activation_clips() {
        // Pairs (first half, second half): clipped to 0..=255, multiplied, divided by 512 and
        // rounded.
        let acc = [-300, 255, 100, 1000, 40, 7, i16::MAX, 20, 255, 255, 300, 3];
        let x = [0, 10, 50, 127, 20, 0];
        for kernel in [Kernel::Portable, Kernel::detect()] {
            let mut out = [9; 6];
            kernel.pairwise_bytes(&acc, &mut out);
            assert_eq!(out, x, "{}", kernel.name());
        }
    }
}
