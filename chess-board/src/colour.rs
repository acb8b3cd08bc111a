//! The two sides as the referees use them: a colour's index in per-side arrays and its name in
//! the messages.

use shakmaty::Color;

/// Index of a colour in per-side arrays: White 0, Black 1.
#[must_use]
pub fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The colour's name in messages: `White` or `Black`.
#[must_use]
pub fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}
