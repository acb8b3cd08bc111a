//! The Board's protocol words: how an agent is told its colour and that its move was rejected,
//! and in which encoding.
//!
//! The rules say the Board tells each agent whether it moves first (White) or second (Black),
//! "知道自己是执先手(白棋)或是后手(黑棋)", and sends the signal "重走" after an illegal move; the exact
//! input format was "再行决定" (left to be decided). The Board therefore sends the rules' own
//! words by default: `先手`, `后手` and `重走`, in UTF-8. Agents written for English words get
//! `white`, `black` and `redo` with `--words english`; the contest's Windows Board may have
//! written GBK, which `--encoding gbk` reproduces (move text is ASCII in every encoding).

use shakmaty::Color;

/// Which words the Board says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Words {
    /// `先手`, `后手`, `重走`: the rules' own words.
    #[default]
    Chinese,
    /// `white`, `black`, `redo`.
    English,
}

/// How the Chinese words are encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Encoding {
    /// UTF-8.
    #[default]
    Utf8,
    /// GBK, the code page of Chinese Windows (936).
    Gbk,
}

/// The words and their encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Protocol {
    /// The words.
    pub words: Words,
    /// Their encoding.
    pub encoding: Encoding,
}

impl Protocol {
    /// The line telling an agent its colour.
    #[must_use]
    pub fn colour(&self, colour: Color) -> &'static [u8] {
        match (self.words, self.encoding, colour) {
            (Words::English, _, Color::White) => b"white",
            (Words::English, _, Color::Black) => b"black",
            (Words::Chinese, Encoding::Utf8, Color::White) => "先手".as_bytes(),
            (Words::Chinese, Encoding::Utf8, Color::Black) => "后手".as_bytes(),
            (Words::Chinese, Encoding::Gbk, Color::White) => &[0xcf, 0xc8, 0xca, 0xd6],
            (Words::Chinese, Encoding::Gbk, Color::Black) => &[0xba, 0xf3, 0xca, 0xd6],
        }
    }

    /// The retry signal after a rejected move.
    #[must_use]
    pub fn retry(&self) -> &'static [u8] {
        match (self.words, self.encoding) {
            (Words::English, _) => b"redo",
            (Words::Chinese, Encoding::Utf8) => "重走".as_bytes(),
            (Words::Chinese, Encoding::Gbk) => &[0xd6, 0xd8, 0xd7, 0xdf],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_each_encoding() {
        let utf8 = Protocol::default();
        assert_eq!(utf8.colour(Color::White), "先手".as_bytes());
        assert_eq!(utf8.colour(Color::Black), "后手".as_bytes());
        assert_eq!(utf8.retry(), "重走".as_bytes());
        let gbk = Protocol {
            encoding: Encoding::Gbk,
            ..Protocol::default()
        };
        // GB 2312 code points (GBK extends it): 先 CFC8, 手 CAD6, 后 BAF3, 重 D6D8, 走 D7DF.
        assert_eq!(gbk.colour(Color::White), b"\xcf\xc8\xca\xd6");
        assert_eq!(gbk.colour(Color::Black), b"\xba\xf3\xca\xd6");
        assert_eq!(gbk.retry(), b"\xd6\xd8\xd7\xdf");
        let english = Protocol {
            words: Words::English,
            encoding: Encoding::Gbk,
        };
        assert_eq!(english.colour(Color::Black), b"black");
        assert_eq!(english.retry(), b"redo");
    }
}
