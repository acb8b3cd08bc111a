//! Property tests over random games: make/unmake, incremental keys, FEN and mirror round trips.

use chariot_rules::{Move, Position, Setup, Waivers};
use proptest::prelude::*;

/// Start positions for the random games: the opening and a few sparse middlegames and endgames.
const ROOTS: [&str; 5] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "4k4/9/9/9/9/9/9/4n4/9/3K5 w - - 0 1",
];

/// Plays a random game: `choices` picks each move by index modulo the number of legal moves.
fn random_game(root: usize, choices: &[u16]) -> (Position, Vec<Move>) {
    let mut pos = Position::from_fen(ROOTS[root % ROOTS.len()]).unwrap();
    let mut played = Vec::new();
    for &c in choices {
        let moves = pos.legal_move_list();
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        pos.make_move(m);
        played.push(m);
    }
    (pos, played)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn make_unmake_restores_position_and_key(root in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let (mut pos, played) = random_game(root, &choices);
        prop_assert_eq!(pos.key(), pos.compute_key());
        let end_fen = pos.fen();
        // Each move's key is the key before the next one, and unmaking walks the keys back.
        let keys: Vec<u64> = pos.history().iter().map(|u| u.key).collect();
        for (i, _) in played.iter().enumerate().rev() {
            pos.unmake_move();
            prop_assert_eq!(pos.key(), keys[i]);
            prop_assert_eq!(pos.key(), pos.compute_key());
        }
        prop_assert_eq!(pos.fen(), Position::from_fen(ROOTS[root % ROOTS.len()]).unwrap().fen());
        for &m in &played {
            pos.make_move(m);
        }
        prop_assert_eq!(pos.fen(), end_fen);
    }

    #[test]
    fn fen_round_trips(root in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let (pos, _) = random_game(root, &choices);
        let fen = pos.fen();
        let again = Position::from_fen(&fen).unwrap();
        prop_assert_eq!(again.fen(), fen.clone());
        prop_assert_eq!(again.key(), pos.key());
        prop_assert_eq!(fen.parse::<Setup>().unwrap(), pos.to_setup());
    }

    #[test]
    fn mirror_is_an_involution_and_mirrors_moves(root in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let (pos, _) = random_game(root, &choices);
        let mirrored = pos.mirror();
        prop_assert_eq!(mirrored.mirror().fen(), pos.fen());
        let mut a: Vec<Move> = pos.legal_move_list().iter().map(|m| m.mirror()).collect();
        let mut b: Vec<Move> = mirrored.legal_move_list().to_vec();
        a.sort();
        b.sort();
        prop_assert_eq!(a, b);
        prop_assert_eq!(pos.in_check(), mirrored.in_check());
    }

    #[test]
    fn generated_moves_agree_with_is_legal_and_check_tests(root in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let (mut pos, _) = random_game(root, &choices);
        let legal = pos.legal_move_list();
        let mut pseudo = chariot_rules::MoveList::new();
        pos.pseudo_legal_moves(&mut pseudo);
        for &m in pseudo.iter() {
            prop_assert_eq!(pos.is_legal(m), legal.contains(m), "is_legal({}) in {}", m, pos.fen());
        }
        for &m in legal.iter() {
            let gives = pos.gives_check(m);
            let captures = pos.is_capture(m);
            pos.make_move(m);
            prop_assert_eq!(pos.in_check(), gives, "gives_check({})", m);
            pos.unmake_move();
            prop_assert_eq!(captures, pos.piece_at(m.to()).is_some());
        }
        let mut caps = chariot_rules::MoveList::new();
        pos.legal_captures(&mut caps);
        let expected: Vec<Move> = legal.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        prop_assert_eq!(caps.to_vec(), expected);
        // Any 16-bit value is safe to test for legality.
        for bits in [0u16, 1, 0x3fff, 0xffff, 90, 90 << 7] {
            if let Some(m) = Move::from_u16(bits) {
                let _ = pos.is_legal(m);
            }
        }
    }

    #[test]
    fn validated_positions_never_have_the_opposite_side_in_check(root in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..60)) {
        let (pos, _) = random_game(root, &choices);
        let strict = Position::from_setup(&pos.to_setup(), Waivers::NONE);
        prop_assert!(strict.is_ok(), "{:?}", strict.err());
    }
}
