//! Reading one input line as text, whatever the Board's encoding.
//!
//! The contest's Board runs on Chinese Windows, where a program's standard streams often carry
//! GBK rather than UTF-8. Move text is ASCII either way, but the colour words and the retry
//! signal are Chinese, and a byte sequence that is not UTF-8 must neither end the game (as
//! `read_line`'s `InvalidData` error would) nor go unrecognised. So lines are read as bytes: a
//! UTF-8 byte-order mark is dropped, UTF-8 is taken as it is, the protocol's Chinese words in
//! GBK are translated, and anything else is decoded lossily (and then reported as unreadable).

use std::io::BufRead;

/// The protocol's Chinese words in GBK, with their UTF-8 spelling.
const GBK_WORDS: [(&[u8], &str); 12] = [
    (&[0xd6, 0xd8, 0xd7, 0xdf], "重走"),
    (&[0xcf, 0xc8, 0xca, 0xd6], "先手"),
    (&[0xba, 0xf3, 0xca, 0xd6], "后手"),
    (&[0xe1, 0xe1, 0xca, 0xd6], "後手"),
    (&[0xb0, 0xd7], "白"),
    (&[0xba, 0xda], "黑"),
    (&[0xb0, 0xd7, 0xc6, 0xe5], "白棋"),
    (&[0xba, 0xda, 0xc6, 0xe5], "黑棋"),
    (&[0xb0, 0xd7, 0xb7, 0xbd], "白方"),
    (&[0xba, 0xda, 0xb7, 0xbd], "黑方"),
    (&[0xd6, 0xb4, 0xb0, 0xd7], "执白"),
    (&[0xd6, 0xb4, 0xba, 0xda], "执黑"),
];

/// Reads the next line, without its line ending; `None` at the end of the input.
///
/// # Errors
///
/// Only real read errors, never an encoding problem.
pub fn read<R: BufRead>(input: &mut R) -> std::io::Result<Option<String>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(None);
    }
    Ok(Some(decode(&bytes)))
}

/// Decodes one line's bytes (see the module documentation).
#[must_use]
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let bytes = bytes.trim_ascii();
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => GBK_WORDS.iter().find(|(gbk, _)| *gbk == bytes).map_or_else(
            || String::from_utf8_lossy(bytes).into_owned(),
            |(_, word)| (*word).to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        assert_eq!(decode(b"e4\r\n"), "e4");
        assert_eq!(decode("\u{feff}white\n".as_bytes()), "white");
        assert_eq!(decode("重走\n".as_bytes()), "重走");
        assert_eq!(decode(b"\xd6\xd8\xd7\xdf\r\n"), "重走");
        assert_eq!(decode(b"\xcf\xc8\xca\xd6\n"), "先手");
        assert_eq!(decode(b"\xff\xfe"), "\u{fffd}\u{fffd}");
        let mut input: &[u8] = b"a\n\xba\xf3\xca\xd6\nlast";
        assert_eq!(read(&mut input).unwrap().as_deref(), Some("a"));
        assert_eq!(read(&mut input).unwrap().as_deref(), Some("后手"));
        assert_eq!(read(&mut input).unwrap().as_deref(), Some("last"));
        assert_eq!(read(&mut input).unwrap(), None);
    }
}
