//! FEN text and the unvalidated [`Setup`] it describes.
//!
//! Parsing is lenient where real files are (`w` or `r` for Red, `h`/`e` for horse/elephant,
//! missing fields), strict where it matters (the board must be exactly 10 ranks of 9 files), and
//! never panics. Writing always gives the canonical UCCI form
//! `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.

use std::fmt;
use std::str::FromStr;

use super::piece::{Color, Piece};
use super::square::{FILES, RANKS, SQUARES, Square};

/// The start position in UCCI FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A board, a side to move and move counters, not yet checked against the rules.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; SQUARES],
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (the FEN's fifth field).
    pub halfmoves: u32,
    /// The move number, starting at 1 and increased after Black moves (the FEN's sixth field).
    pub fullmoves: u32,
}

impl Setup {
    /// An empty board, Red to move.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            board: [None; SQUARES],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The start position.
    #[must_use]
    pub fn start() -> Setup {
        START_FEN
            .parse()
            .unwrap_or_else(|_| unreachable!("the start FEN parses"))
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The setup reflected left to right.
    #[must_use]
    pub fn mirror(&self) -> Setup {
        let mut out = self.clone();
        for sq in Square::all() {
            out.board[sq.mirror().index()] = self.board[sq.index()];
        }
        out
    }

    /// The board as FEN piece placement (the first field).
    #[must_use]
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.board[Square::new(file, rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The canonical FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        format!(
            "{} {} - - {} {}",
            self.board_fen(),
            self.turn.fen_char(),
            self.halfmoves,
            self.fullmoves
        )
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({})", self.fen())
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

/// Why a FEN could not be read. Each variant names the offending part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty or blank.
    #[error("empty FEN")]
    Empty,
    /// The board field does not have exactly 10 ranks.
    #[error("the board has {0} ranks separated by '/', expected 10")]
    RankCount(usize),
    /// A rank describes more or fewer than 9 files.
    #[error("rank {rank} ({text:?}) covers {files} files, expected 9")]
    RankWidth {
        /// The rank (9 = Black's back rank, the first in the FEN).
        rank: u8,
        /// The rank's text.
        text: String,
        /// How many files it covers.
        files: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    #[error("unexpected character {ch:?} in rank {rank} of the board")]
    BadBoardChar {
        /// The rank it was found in.
        rank: u8,
        /// The character.
        ch: char,
    },
    /// The side to move is not `w`, `r` or `b`.
    #[error("invalid side to move {0:?}: expected w (or r) for Red, b for Black")]
    BadTurn(String),
    /// A move counter is not a number.
    #[error("invalid {field} {text:?}: expected a non-negative number")]
    BadCounter {
        /// Which counter.
        field: &'static str,
        /// Its text.
        text: String,
    },
    /// Text after the six fields.
    #[error("unexpected text after the FEN: {0:?}")]
    Trailing(String),
}

impl FromStr for Setup {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let board_field = fields.next().ok_or(FenError::Empty)?;
        let mut setup = Setup::empty();
        let ranks: Vec<&str> = board_field.split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_fen_char(ch) {
                    if file < FILES as usize {
                        setup.board[Square::new(file as u8, rank).index()] = Some(piece);
                    }
                    file += 1;
                } else {
                    return Err(FenError::BadBoardChar { rank, ch });
                }
                if file > FILES as usize {
                    break;
                }
            }
            if file != FILES as usize {
                let files = text
                    .chars()
                    .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
                    .sum();
                return Err(FenError::RankWidth {
                    rank,
                    text: (*text).to_owned(),
                    files,
                });
            }
        }
        // The side to move; UCCI files and many tools write `w`, some `r` or `red`.
        if let Some(turn) = fields.next() {
            setup.turn = match turn.to_ascii_lowercase().as_str() {
                "w" | "r" | "red" => Color::Red,
                "b" | "black" => Color::Black,
                _ => return Err(FenError::BadTurn(turn.to_owned())),
            };
        }
        // Two unused fields (castling, en passant) come next, usually "- -". Some writers omit
        // them and give the counters straight away; accept both shapes.
        let rest: Vec<&str> = fields.collect();
        let counters: &[&str] = match rest.as_slice() {
            [] => &[],
            [a, b, tail @ ..] if !is_number(a) && !is_number(b) => tail,
            [a, tail @ ..] if !is_number(a) => tail,
            all => all,
        };
        match counters {
            [] => {}
            [half] => setup.halfmoves = counter("halfmove clock", half)?,
            [half, full] => {
                setup.halfmoves = counter("halfmove clock", half)?;
                setup.fullmoves = counter("move number", full)?.max(1);
            }
            [_, _, extra @ ..] => return Err(FenError::Trailing(extra.join(" "))),
        }
        Ok(setup)
    }
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn counter(field: &'static str, text: &str) -> Result<u32, FenError> {
    text.parse().map_err(|_| FenError::BadCounter {
        field,
        text: text.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let s: Setup = START_FEN.parse().unwrap();
        assert_eq!(s.fen(), START_FEN);
        assert_eq!(s.piece_at("e0".parse().unwrap()).unwrap().fen_char(), 'K');
        assert_eq!(s.piece_at("h7".parse().unwrap()).unwrap().fen_char(), 'c');
    }

    #[test]
    fn lenient_forms() {
        let alt = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
        assert_eq!(alt.parse::<Setup>().unwrap().fen(), START_FEN);
        let counters_only = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b 3 7";
        let s: Setup = counters_only.parse().unwrap();
        assert_eq!((s.turn, s.halfmoves, s.fullmoves), (Color::Black, 3, 7));
        let board_only = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        assert_eq!(board_only.parse::<Setup>().unwrap().fen(), START_FEN);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!("".parse::<Setup>(), Err(FenError::Empty));
        assert_eq!("9/9/9".parse::<Setup>(), Err(FenError::RankCount(3)));
        assert!(matches!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w".parse::<Setup>(),
            Err(FenError::RankWidth {
                rank: 0,
                files: 8,
                ..
            })
        ));
        assert!(matches!(
            "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".parse::<Setup>(),
            Err(FenError::BadBoardChar { rank: 9, ch: 'x' })
        ));
        assert!(matches!(
            START_FEN.replace(" w ", " x ").parse::<Setup>(),
            Err(FenError::BadTurn(_))
        ));
        assert!(matches!(
            (START_FEN.to_owned() + " extra").parse::<Setup>(),
            Err(FenError::Trailing(_))
        ));
    }
}
