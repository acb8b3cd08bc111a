//! Character-level helpers shared by the parsers: full-width folding, numerals, file numbers.

use crate::Color;

/// Folds full-width ASCII forms (`Ｃ２＝５`, `＋`, `－`, `．`, `１`) to ASCII, and the dashes and
/// minus signs that real files use for `-` (`–`, `—`, `−`) to `-`. Other characters are kept.
pub(crate) fn fold(c: char) -> char {
    match c {
        // U+FF01..U+FF5E mirror ASCII 0x21..0x7E at a fixed offset.
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        _ => c,
    }
}

/// `true` for the CJK characters that mark Chinese move text (and any other CJK ideograph,
/// so that malformed Chinese text is reported as Chinese).
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

/// The value 1-9 of a file or count written as an ASCII digit, a full-width digit or a Chinese
/// numeral 一..九.
pub(crate) fn numeral(c: char) -> Option<u8> {
    let c = fold(c);
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => CHINESE_NUMERALS
            .iter()
            .position(|&n| n == c)
            .map(|i| i as u8 + 1),
    }
}

/// 一 to 九.
pub(crate) const CHINESE_NUMERALS: [char; 9] =
    ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Full-width １ to ９ (U+FF11..U+FF19), as Chinese text writes Black's numbers.
pub(crate) const FULL_WIDTH_DIGITS: [char; 9] =
    ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The file number 1-9 of board file `file` (0 = a) for `color`, counted from that player's right:
/// Red's file 1 is the i-file, Black's file 1 is the a-file.
pub(crate) fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The board file (0 = a) of `color`'s file number `n` (1-9); `None` when `n` is out of range.
pub(crate) fn board_file(color: Color, n: u8) -> Option<u8> {
    if !(1..=9).contains(&n) {
        return None;
    }
    Some(match color {
        Color::Red => 9 - n,
        Color::Black => n - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_numerals() {
        assert_eq!("Ｃ２＝５".chars().map(fold).collect::<String>(), "C2=5");
        assert_eq!("＋－．".chars().map(fold).collect::<String>(), "+-.");
        assert_eq!(fold('–'), '-');
        assert_eq!(numeral('５'), Some(5));
        assert_eq!(numeral('九'), Some(9));
        assert_eq!(numeral('7'), Some(7));
        assert_eq!(numeral('0'), None);
        assert_eq!(numeral('十'), None);
        for color in Color::ALL {
            for f in 0..9 {
                assert_eq!(board_file(color, file_number(color, f)), Some(f));
            }
        }
        assert_eq!(file_number(Color::Red, 8), 1);
        assert_eq!(file_number(Color::Black, 0), 1);
        assert_eq!(board_file(Color::Red, 0), None);
        assert_eq!(board_file(Color::Red, 10), None);
    }
}
