//! A deterministic stand-in for a fuzz target until one is registered in `fuzz/`: random text
//! built from the characters of move notation, read against positions with castling, en
//! passant, promotions and ambiguous pieces. Reading must never panic; a move that is read must
//! be legal, and the agent's own spelling of it must read back as the same move.

use chess_agent::san::{format_move, parse_move};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1n4k1/P1P5/8/8/8/8/8/R3K2R w KQ - 0 1",
    "6k1/8/8/R7/8/8/8/R3N1NK w - - 0 1",
];

const ALPHABET: &[&str] = &[
    "a", "b", "c", "d", "e", "f", "g", "h", "1", "2", "3", "4", "5", "6", "7", "8", "K", "Q", "R",
    "B", "N", "P", "q", "r", "n", "x", ":", "+", "#", "=", "-", "O", "0", "o", "e.p.", "ep", " ",
    "\r", "\n", "(", ")", "/", "!", "?", "重走", "é",
];

#[test]
fn random_move_text_never_panics_and_reads_only_legal_moves() {
    let positions: Vec<Chess> = FENS
        .iter()
        .map(|f| {
            f.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        })
        .collect();
    // Every legal move, as the agent writes it, reads back.
    for pos in &positions {
        for &m in &pos.legal_moves() {
            let text = format_move(pos, m);
            assert_eq!(parse_move(pos, &text), Ok(m), "{text}");
        }
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut read = 0;
    for _ in 0..40_000 {
        let len = (next() % 8) as usize;
        let text: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        for pos in &positions {
            if let Ok(m) = parse_move(pos, &text) {
                read += 1;
                assert!(pos.is_legal(m), "{text:?}");
                let written = format_move(pos, m);
                assert_eq!(parse_move(pos, &written), Ok(m), "{text:?} -> {written}");
            }
        }
    }
    assert!(
        read > 100,
        "the generator should hit real moves, got {read}"
    );
}
