//! Arbitrary text as an opponent's move line for the chess contest agent, against positions
//! where every input form matters: reading must never panic; an error names the text; a move
//! that is read is legal, and the agent's own SAN for it (`format_move`) reads back as itself.

#![no_main]

use std::sync::OnceLock;

use chess_agent::san::{MoveTextError, format_move, parse_move, parse_text};
use libfuzzer_sys::fuzz_target;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The start position; both sides able to castle both ways; an en passant capture available;
/// a pawn that can promote by a push and by two captures; two knights and two rooks that need
/// file, rank and full-square disambiguation (three queens on a rank and file).
const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1r1n3k/2P5/8/8/8/8/5ppp/K7 w - - 0 1",
    "1k6/8/2Q1Q3/8/2Q5/8/1N3N2/R3K2R w KQ - 0 1",
];

fn positions() -> &'static [Chess] {
    static POSITIONS: OnceLock<Vec<Chess>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        FENS.iter()
            .map(|f| {
                f.parse::<Fen>()
                    .expect("fuzz FEN")
                    .into_position(CastlingMode::Standard)
                    .unwrap_or_else(|e| panic!("fuzz position {f}: {e}"))
            })
            .collect()
    })
}

/// The text an error names (trimmed as the reader trims it), or none for an empty line.
fn named(e: &MoveTextError) -> Option<&str> {
    match e {
        MoveTextError::Empty => None,
        MoveTextError::Syntax(t) | MoveTextError::Illegal(t) | MoveTextError::Ambiguous(t) => {
            Some(t)
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = parse_text(&text) {
        if let Some(t) = named(&e) {
            assert!(text.contains(t.trim()), "{e} for {text:?}");
        }
    }
    for pos in positions() {
        match parse_move(pos, &text) {
            Ok(m) => {
                assert!(pos.is_legal(m), "{text:?} gave the illegal move {m:?}");
                let written = format_move(pos, m);
                assert_eq!(parse_move(pos, &written), Ok(m), "{written:?} for {text:?}");
            }
            Err(e) => {
                if let Some(t) = named(&e) {
                    assert!(text.contains(t.trim()), "{e} for {text:?}");
                }
            }
        }
    }
});
