//! How the sides are named in answers. A finished game's or a decided position's result is the
//! rules crate's [`chariot_rules::Ending`], serialised as `{"result", "winner", "why",
//! "reason"}` (its `serde` feature).

use chariot_rules::Color;

/// `red` or `black`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}
