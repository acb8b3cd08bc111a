//! Character encodings of game files: detection and decoding.
//!
//! Chinese game files come in three encodings: UTF-8 (newer tools, with or without a BOM), GBK
//! (simplified Chinese, mainland tools) and Big5 (traditional Chinese, Taiwan and Hong Kong).
//! A file says nothing about which, so it is detected:
//!
//! 1. A byte-order mark decides (UTF-8, UTF-16 LE/BE).
//! 2. Text that is valid UTF-8 is UTF-8 (or plain ASCII). Legacy double-byte text is almost
//!    never valid UTF-8 by accident.
//! 3. Otherwise the text is decoded both as GB18030 and as Big5 and the decoding that yields
//!    more of the characters every Xiangqi file is full of (炮馬車兵卒進退平將帥仕士相象, their
//!    simplified forms, numerals, 年月日, 红黑胜负和) and fewer invalid sequences wins. Both
//!    encodings accept most of each other's byte pairs, so validity alone cannot tell them apart;
//!    the characters can: decoded the wrong way, a file is a soup of rare characters.
//!
//! GBK files are decoded as GB18030, its superset: encoding_rs's GBK decoder is GB18030 anyway,
//! and a strict GBK decoder rejects a few real files that use GB18030 or CP936 extensions.

use std::borrow::Cow;

use encoding_rs::{BIG5, Encoding, GB18030, UTF_16BE, UTF_16LE};

/// The encoding a text file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// 7-bit ASCII only (also valid UTF-8, GBK and Big5).
    Ascii,
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 with a byte-order mark.
    Utf8Bom,
    /// UTF-16 little-endian (with its byte-order mark).
    Utf16Le,
    /// UTF-16 big-endian (with its byte-order mark).
    Utf16Be,
    /// GB18030, the superset of GBK/CP936 and GB2312 (simplified Chinese).
    Gb18030,
    /// Big5 (traditional Chinese), with the HKSCS extensions as browsers decode it.
    Big5,
}

impl TextEncoding {
    /// The encoding's usual name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Ascii => "ASCII",
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Utf8Bom => "UTF-8 (BOM)",
            TextEncoding::Utf16Le => "UTF-16LE",
            TextEncoding::Utf16Be => "UTF-16BE",
            TextEncoding::Gb18030 => "GB18030",
            TextEncoding::Big5 => "Big5",
        }
    }
}

/// A decoded text file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text, borrowed when the input was already UTF-8.
    pub text: Cow<'a, str>,
    /// The encoding it was read in.
    pub encoding: TextEncoding,
    /// How many invalid byte sequences were replaced by U+FFFD.
    pub replaced: usize,
}

/// How many bytes the GB18030/Big5 contest looks at. A megabyte of game text holds thousands of
/// telling characters; scoring the whole of a 35 MB collection twice would only cost time.
const SAMPLE_BYTES: usize = 1 << 20;

/// Detects the encoding of `bytes` and decodes them (see the module notes).
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded<'_> {
    if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
        return with(TextEncoding::Utf8Bom, decode_utf8_lossy(rest));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xff\xfe") {
        return with(TextEncoding::Utf16Le, decode_with(UTF_16LE, rest));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xfe\xff") {
        return with(TextEncoding::Utf16Be, decode_with(UTF_16BE, rest));
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        let encoding = if text.is_ascii() {
            TextEncoding::Ascii
        } else {
            TextEncoding::Utf8
        };
        return Decoded {
            text: Cow::Borrowed(text),
            encoding,
            replaced: 0,
        };
    }
    let encoding = guess_legacy(bytes);
    let enc = if encoding == TextEncoding::Big5 {
        BIG5
    } else {
        GB18030
    };
    with(encoding, decode_with(enc, bytes))
}

/// Decodes `bytes` in a given encoding (no detection).
#[must_use]
pub fn decode_as(bytes: &[u8], encoding: TextEncoding) -> Decoded<'_> {
    let text = match encoding {
        TextEncoding::Ascii | TextEncoding::Utf8 => decode_utf8_lossy(bytes),
        TextEncoding::Utf8Bom => {
            decode_utf8_lossy(bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes))
        }
        TextEncoding::Utf16Le => {
            decode_with(UTF_16LE, bytes.strip_prefix(b"\xff\xfe").unwrap_or(bytes))
        }
        TextEncoding::Utf16Be => {
            decode_with(UTF_16BE, bytes.strip_prefix(b"\xfe\xff").unwrap_or(bytes))
        }
        TextEncoding::Gb18030 => decode_with(GB18030, bytes),
        TextEncoding::Big5 => decode_with(BIG5, bytes),
    };
    with(encoding, text)
}

fn with(encoding: TextEncoding, text: Cow<'_, str>) -> Decoded<'_> {
    let replaced = text
        .chars()
        .filter(|&c| c == char::REPLACEMENT_CHARACTER)
        .count();
    Decoded {
        text,
        encoding,
        replaced,
    }
}

fn decode_utf8_lossy(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

fn decode_with<'a>(encoding: &'static Encoding, bytes: &'a [u8]) -> Cow<'a, str> {
    encoding.decode_without_bom_handling(bytes).0
}

/// Chooses between GB18030 and Big5 for text that is not UTF-8.
fn guess_legacy(bytes: &[u8]) -> TextEncoding {
    // Start the sample at the line holding the first non-ASCII byte (ASCII headers tell nothing);
    // a line start is a character boundary in both encodings, whose trail bytes are never '\n'.
    let first_high = bytes.iter().position(|&b| b >= 0x80).unwrap_or(0);
    let start = bytes[..first_high]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = (start + SAMPLE_BYTES).min(bytes.len());
    let sample = &bytes[start..end];
    let gb = score(&decode_with(GB18030, sample));
    let big5 = score(&decode_with(BIG5, sample));
    if big5 > gb {
        TextEncoding::Big5
    } else {
        TextEncoding::Gb18030
    }
}

/// Characters that fill Xiangqi game files, in simplified and traditional forms.
const TELLING: &str = "炮砲包馬马車车兵卒進进退平將将帥帅仕士相象前後后\
    一二三四五六七八九十１２３４５６７８９年月日红紅黑胜勝负負和先杯赛賽局棋象";

/// Telling characters count for, invalid sequences against. A cut multibyte character at the end
/// of the sample costs one replacement, far less than the gap between right and wrong decodings.
fn score(text: &str) -> i64 {
    let mut s = 0i64;
    for c in text.chars() {
        if c == char::REPLACEMENT_CHARACTER {
            s -= 4;
        } else if !c.is_ascii() && TELLING.contains(c) {
            s += 1;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"全国象棋个人赛\"]\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n";
    const GAME_TRAD: &str =
        "[Event \"全國象棋個人賽\"]\n1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n";

    #[test]
    fn utf8_and_ascii() {
        let d = decode(GAME.as_bytes());
        assert_eq!(d.encoding, TextEncoding::Utf8);
        assert!(matches!(d.text, Cow::Borrowed(_)));
        assert_eq!(decode(b"1. h2e2 h9g7").encoding, TextEncoding::Ascii);
        let mut bom = b"\xef\xbb\xbf".to_vec();
        bom.extend_from_slice(GAME.as_bytes());
        let d = decode(&bom);
        assert_eq!((d.encoding, d.text.as_ref()), (TextEncoding::Utf8Bom, GAME));
    }

    #[test]
    fn utf16_with_bom() {
        let mut le = vec![0xff, 0xfe];
        le.extend(GAME.encode_utf16().flat_map(u16::to_le_bytes));
        let d = decode(&le);
        assert_eq!(
            (d.encoding, d.text.as_ref(), d.replaced),
            (TextEncoding::Utf16Le, GAME, 0)
        );
        let mut be = vec![0xfe, 0xff];
        be.extend(GAME.encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode(&be).text, GAME);
    }

    #[test]
    fn gbk_and_big5_are_told_apart() {
        let (gbk, _, bad) = GB18030.encode(GAME);
        assert!(!bad);
        let d = decode(&gbk);
        assert_eq!(
            (d.encoding, d.text.as_ref(), d.replaced),
            (TextEncoding::Gb18030, GAME, 0)
        );

        let (big5, _, bad) = BIG5.encode(GAME_TRAD);
        assert!(!bad);
        let d = decode(&big5);
        assert_eq!(
            (d.encoding, d.text.as_ref(), d.replaced),
            (TextEncoding::Big5, GAME_TRAD, 0)
        );

        // Traditional text in GBK (GBK has the traditional characters too) is still GBK.
        let (gbk_trad, _, bad) = GB18030.encode(GAME_TRAD);
        assert!(!bad);
        assert_eq!(decode(&gbk_trad).encoding, TextEncoding::Gb18030);
    }

    #[test]
    fn long_ascii_prefix_does_not_hide_the_chinese() {
        let mut text = "[Event \"x\"]\n1. h2e2 h9g7\n".repeat(100_000);
        text.push_str(GAME_TRAD);
        let (big5, _, _) = BIG5.encode(&text);
        let d = decode(&big5);
        assert_eq!(d.encoding, TextEncoding::Big5);
        assert!(d.text.ends_with(GAME_TRAD));
    }

    #[test]
    fn invalid_sequences_are_counted() {
        let d = decode_as(b"abc\xff\xfe\xfd", TextEncoding::Big5);
        assert!(d.replaced > 0);
        assert!(d.text.starts_with("abc"));
    }
}
