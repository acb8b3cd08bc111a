//! What both architectures' outputs share: the scale of an evaluation and the output buckets,
//! chosen by the number of pieces on the board, so that an endgame is read by other weights than
//! an opening.

/// Centipawns per unit of the float network's output (the trainer's win-probability scale).
pub const SCALE: i32 = 400;
/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 16;

/// The output bucket of a position with `pieces` pieces on the board (generals included) in a
/// network of `buckets` buckets: the piece counts 2 to 32 split into `buckets` runs of nearly
/// equal length, fewest pieces first (always 0 for one bucket).
#[inline]
#[must_use]
pub fn output_bucket(buckets: usize, pieces: u32) -> usize {
    (pieces.clamp(2, 32) as usize - 2) * buckets / 31
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_bucket_follows_the_piece_count() {
        for buckets in 1..=MAX_BUCKETS {
            let of: Vec<usize> = (2..=32).map(|n| output_bucket(buckets, n)).collect();
            assert_eq!(of[0], 0);
            assert_eq!(of[30], buckets - 1, "32 pieces: the last bucket");
            assert!(of.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
            // Runs of nearly equal length: every bucket is used, none twice as often as another
            // but for rounding.
            let mut sizes = vec![0; buckets];
            for &b in &of {
                sizes[b] += 1;
            }
            let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(*min >= 1 && max - min <= 1, "{buckets} buckets: {sizes:?}");
        }
        assert_eq!(output_bucket(8, 0), 0, "out-of-range counts are clamped");
        assert_eq!(output_bucket(8, 40), 7);
    }
}
