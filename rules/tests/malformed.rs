//! A corpus of malformed FENs: each gives a clear, specific error; nothing panics.

use chariot_rules::{Color, FenError, Position, PositionError, Setup};
use proptest::prelude::*;

/// A check on the error a FEN gives.
type Expect = Box<dyn Fn(&PositionError) -> bool>;

#[test]
fn malformed_fens_give_specific_errors() {
    use PositionError as P;
    let cases: Vec<(&str, Expect)> = vec![
        ("", Box::new(|e| *e == P::Fen(FenError::Empty))),
        ("   ", Box::new(|e| *e == P::Fen(FenError::Empty))),
        (
            "rnbakabnr/9/1c5c1",
            Box::new(|e| *e == P::Fen(FenError::RankCount(3))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w",
            Box::new(|e| *e == P::Fen(FenError::RankCount(11))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
            Box::new(|e| {
                matches!(
                    e,
                    P::Fen(FenError::RankWidth {
                        rank: 0,
                        files: 10,
                        ..
                    })
                )
            }),
        ),
        (
            "rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            Box::new(|e| {
                matches!(
                    e,
                    P::Fen(FenError::RankWidth {
                        rank: 8,
                        files: 8,
                        ..
                    })
                )
            }),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/0/RNBAKABNR w",
            Box::new(|e| matches!(e, P::Fen(FenError::BadBoardChar { ch: '0', .. }))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w",
            Box::new(|e| matches!(e, P::Fen(FenError::BadBoardChar { ch: 'Q', .. }))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
            Box::new(|e| matches!(e, P::Fen(FenError::BadTurn(_)))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            Box::new(|e| matches!(e, P::Fen(FenError::BadCounter { .. }))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 9",
            Box::new(|e| matches!(e, P::Fen(FenError::Trailing(_)))),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",
            Box::new(|e| *e == P::MissingGeneral(Color::Red)),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5C1/4K4/RNBAKABNR w",
            Box::new(|e| *e == P::TooManyGenerals(Color::Red, 2)),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/KC5C1/9/RNBA1ABNR w",
            Box::new(|e| {
                matches!(
                    e,
                    P::GeneralOutsidePalace {
                        color: Color::Red,
                        ..
                    }
                )
            }),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w",
            Box::new(|e| matches!(e, P::UnreachableSquare { .. })),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1B3C1/9/RN1AKABNR w",
            Box::new(|e| matches!(e, P::UnreachableSquare { .. })),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P2/1C5C1/P8/RNBAKABNR w",
            Box::new(|e| matches!(e, P::UnreachableSquare { .. })),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PP2P1P1P/1C5C1/9/RNBAKABNR w",
            Box::new(|e| matches!(e, P::UnreachableSquare { .. })),
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/R8/P1P1P1P2/1C5C1/9/RNBAKABNR w",
            Box::new(|e| {
                matches!(
                    e,
                    P::TooManyOfKind {
                        letter: 'R',
                        count: 3,
                        max: 2,
                        ..
                    }
                )
            }),
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/4K4 w",
            Box::new(|e| *e == P::GeneralsFacing),
        ),
        (
            "RRRRkRRRR/RRRRRRRRR/9/9/9/9/9/9/9/3K5 w",
            Box::new(|e| *e == P::TooManyPieces(Color::Red, 18)),
        ),
        (
            "4k4/9/9/9/9/9/9/9/4R4/4K4 w",
            Box::new(|e| *e == P::OppositeInCheck(Color::Black)),
        ),
        (
            "3k5/9/9/9/9/9/9/9/4r4/4K4 b",
            Box::new(|e| *e == P::OppositeInCheck(Color::Red)),
        ),
    ];
    for (fen, expected) in &cases {
        let err = Position::from_fen(fen).expect_err(fen);
        assert!(expected(&err), "{fen:?}: unexpected error {err:?}");
        assert!(!err.to_string().is_empty());
    }
    // The messages name the problem.
    let msg = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/A8/RNB1KABNR w")
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "the red advisor on a1 stands on a square it can never reach"
    );
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,120}") {
        let _ = s.parse::<Setup>();
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn fen_like_text_never_panics(s in "[rnbakcpRNBAKCPhHeE1-9/ wb0-9-]{0,100}") {
        if let Ok(pos) = Position::from_fen(&s) {
            let again = Position::from_fen(&pos.fen()).unwrap();
            prop_assert_eq!(again.fen(), pos.fen());
            let _ = pos.legal_move_list();
        }
    }
}
