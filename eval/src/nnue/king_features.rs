//! The king-bucketed network's inputs: piece-square features that know where the viewer's own
//! general stands.
//!
//! From a perspective the board is first turned as for the piece-square features (Black's view
//! reflected top to bottom, so that both sides see their own general in the lower palace), then
//! mirrored left to right when the viewer's general stands on the right-hand file of its palace
//! (file f): the general is then always on file d or e, and a position and its mirror image read
//! alike. What is left of the general's square picks one of six buckets, one for each square it
//! can then stand on: 3 ranks × 2 file groups (the centre file e, the side file d). Each bucket has
//! its own 1,260 features (`relation × 630 + kind × 90 + square`, as [`super::features`]), so a
//! feature index is `bucket × 1,260 + relation × 630 + kind × 90 + square`, 7,560 in all.
//!
//! Why these buckets: the palace has nine squares, which fold to six under the mirror; every
//! square the general can reach gets its own weights, so the first layer can tell a general at
//! home from one driven up or aside, at the price of refreshing the viewer's sums whenever its
//! general moves (every general move changes the folded square). That refresh is cheap with a
//! cache of the sums last seen in each bucket ([`super::refresh::RefreshCache`]).

use chariot_rules::{Color, Piece, Square};

/// The general's buckets: 3 ranks × 2 file groups.
pub const BUCKETS: usize = 6;
/// Features per bucket: own and enemy × 7 kinds × 90 squares.
pub const PER_BUCKET: usize = 2 * 7 * 90;
/// Inputs per perspective.
pub const INPUTS: usize = BUCKETS * PER_BUCKET;

/// How a perspective sees the board: its general's bucket and whether the board is mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Orientation {
    /// The bucket, `0..BUCKETS`: `rank × 2 + side`, with the rank counted from the viewer's back
    /// rank and side 1 for file d (or f, mirrored), 0 for file e.
    pub bucket: u8,
    /// The board is mirrored left to right (the general stands on file f).
    pub mirror: bool,
}

impl Orientation {
    /// How `perspective` sees the board with its general on `general`. A general outside its
    /// palace (which a legal position never has) is taken to its nearest palace square, so any
    /// placement has an orientation.
    #[inline]
    #[must_use]
    pub fn of(perspective: Color, general: Square) -> Orientation {
        let own = if perspective.is_red() {
            general
        } else {
            general.flip()
        };
        let mirror = own.file() > 4;
        let file = if mirror { 8 - own.file() } else { own.file() };
        let side = u8::from(file < 4);
        Orientation {
            bucket: own.rank().min(2) * 2 + side,
            mirror,
        }
    }

    /// The feature of `piece` on `sq` in this orientation of `perspective`.
    #[inline]
    #[must_use]
    pub fn index(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        let relation = usize::from(piece.color() != perspective);
        let sq = if perspective.is_red() { sq } else { sq.flip() };
        let sq = if self.mirror { sq.mirror() } else { sq };
        usize::from(self.bucket) * PER_BUCKET
            + relation * 630
            + piece.kind().index() * 90
            + sq.index()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Kind;

    #[test]
    fn the_nine_palace_squares_fold_to_six_buckets() {
        let mut seen = [0; BUCKETS];
        for rank in 0..3 {
            for file in 3..6 {
                let red = Orientation::of(Color::Red, Square::new(file, rank));
                let black = Orientation::of(Color::Black, Square::new(file, 9 - rank));
                assert_eq!(red, black, "both sides see their palace alike");
                assert_eq!(red.mirror, file == 5);
                seen[usize::from(red.bucket)] += 1;
            }
        }
        // The centre file's squares have a bucket each, the side files share theirs.
        assert_eq!(seen, [1, 2, 1, 2, 1, 2]);
        assert_eq!(Orientation::of(Color::Red, Square::new(4, 0)).bucket, 0);
        assert_eq!(Orientation::of(Color::Red, Square::new(3, 2)).bucket, 5);
        // Outside the palace: the nearest palace square's bucket, never a panic.
        for sq in Square::all() {
            for colour in Color::ALL {
                assert!(usize::from(Orientation::of(colour, sq).bucket) < BUCKETS);
            }
        }
    }

    #[test]
    fn features_are_distinct_and_in_range() {
        for colour in Color::ALL {
            for bucket_square in [Square::new(4, 0), Square::new(5, 1), Square::new(3, 2)] {
                let general = if colour.is_red() {
                    bucket_square
                } else {
                    bucket_square.flip()
                };
                let o = Orientation::of(colour, general);
                let mut all: Vec<usize> = Square::all()
                    .flat_map(|sq| {
                        Color::ALL.into_iter().flat_map(move |c| {
                            Kind::ALL
                                .into_iter()
                                .map(move |k| o.index(colour, Piece::new(c, k), sq))
                        })
                    })
                    .collect();
                all.sort_unstable();
                all.dedup();
                assert_eq!(all.len(), PER_BUCKET);
                let first = usize::from(o.bucket) * PER_BUCKET;
                assert!(all[0] == first && all[PER_BUCKET - 1] == first + PER_BUCKET - 1);
            }
        }
    }

    #[test]
    fn a_general_on_file_f_sees_the_board_mirrored() {
        let chariot = Piece::new(Color::Red, Kind::Chariot);
        let on_d = Orientation::of(Color::Red, Square::new(3, 0));
        let on_f = Orientation::of(Color::Red, Square::new(5, 0));
        assert_eq!(on_d.bucket, on_f.bucket);
        assert_eq!(
            on_d.index(Color::Red, chariot, Square::new(0, 3)),
            on_f.index(Color::Red, chariot, Square::new(8, 3))
        );
    }
}
