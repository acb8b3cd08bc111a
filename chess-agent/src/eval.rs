//! Static evaluation, hand-tuned: material, piece-square tables tapered between middlegame and
//! endgame, mobility, pawn structure (passed, doubled, isolated), king safety (pawn shield and
//! attackers near the king), the bishop pair and rooks on open files.
//!
//! The piece-square tables are not typed in: they are computed from a few ideas (centralise
//! knights and bishops, advance pawns, keep the king home in the middlegame and central in the
//! endgame, rooks on the seventh), so every number has a reason next to it. Scores are in
//! centipawns from the side to move's point of view.

use std::sync::OnceLock;

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, File, Position, Rank, Role, Square};

/// Middlegame and endgame values of pawn, knight, bishop, rook, queen, king.
const MATERIAL: [(i32, i32); 6] = [
    (100, 120),
    (320, 300),
    (335, 320),
    (480, 530),
    (960, 960),
    (0, 0),
];

/// The game phase each piece contributes (all pieces on the board: 24).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

/// The material value used by move ordering, SEE and delta pruning.
#[must_use]
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// Piece-square tables for White, `[role][square] = (mg, eg)`; Black reads them mirrored.
fn tables() -> &'static [[(i32, i32); 64]; 6] {
    static TABLES: OnceLock<[[(i32, i32); 64]; 6]> = OnceLock::new();
    TABLES.get_or_init(|| {
        let per_square: [[(i32, i32); 6]; 64] = std::array::from_fn(|sq| square_values(sq as i32));
        std::array::from_fn(|role| std::array::from_fn(|sq| per_square[sq][role]))
    })
}

/// The (mg, eg) bonus of each piece (pawn .. king) on square `sq` (0 = a1), for White.
fn square_values(sq: i32) -> [(i32, i32); 6] {
    let f = sq % 8;
    let r = sq / 8;
    // 0 on the rim .. 3 in the centre, per axis.
    let cf = 3 - (2 * f - 7).abs() / 2;
    let cr = 3 - (2 * r - 7).abs() / 2;
    let centre = cf + cr; // 0..6
    // Pawns: advance, above all in the centre; an unmoved d/e pawn blocks the bishops.
    let central_file = f == 3 || f == 4;
    let mut pawn_mg = 4 * (r - 1) + if central_file { 5 * (r - 1).min(3) } else { 0 };
    if central_file && r == 1 {
        pawn_mg -= 15;
    }
    let pawn_eg = if (1..7).contains(&r) { 8 * (r - 1) } else { 0 };
    // Rooks: the seventh rank, central files a little.
    let rook_mg = if r == 6 { 20 } else { 0 } + if central_file { 5 } else { 0 };
    // King: at home and castled in the middlegame, central in the endgame.
    let home = match f {
        1 | 2 | 6 => 25,
        0 | 7 => 15,
        3 | 5 => 0,
        _ => 5,
    };
    [
        (pawn_mg, pawn_eg),
        // Knights: strongly central, a rim knight is dim.
        (8 * centre - 25, 6 * centre - 20),
        // Bishops: mildly central; the long diagonals are already counted by mobility.
        (
            4 * centre - 10 + if r == 0 { -10 } else { 0 },
            3 * centre - 10,
        ),
        (rook_mg, if r == 6 { 15 } else { 0 }),
        // Queens: slightly central, no early adventures beyond the middle.
        (2 * centre - 5 - if r > 4 { 5 } else { 0 }, 4 * centre - 10),
        (home - 25 * r.min(3), 10 * centre - 30),
    ]
}

const MOBILITY: [(i32, i32); 6] = [(0, 0), (4, 4), (5, 5), (2, 4), (1, 2), (0, 0)];
const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 6, 12, 0];
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 25, 45, 70, 0];
const PASSED_EG: [i32; 8] = [0, 10, 20, 35, 60, 100, 150, 0];
const DOUBLED: (i32, i32) = (-10, -20);
const ISOLATED: (i32, i32) = (-12, -15);
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN: (i32, i32) = (25, 10);
const ROOK_HALF_OPEN: (i32, i32) = (12, 8);
const TEMPO: i32 = 10;
/// King-zone attack weight of knight, bishop, rook, queen.
const ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Evaluates `pos` from the side to move's point of view, in centipawns.
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut mg = 0;
    let mut eg = 0;
    let mut phase = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let (m, e, p) = side(board, color);
        mg += sign * m;
        eg += sign * e;
        phase += p;
    }
    let phase = phase.min(MAX_PHASE);
    let mut score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    score = scale_drawish(board, score);
    let white = if pos.turn() == Color::White {
        score
    } else {
        -score
    };
    white + TEMPO
}

/// Halves (or quarters) scores where the side ahead has no pawns and little extra material.
fn scale_drawish(board: &Board, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if (board.pawns() & board.by_color(strong)).any() {
        return score;
    }
    let material = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| value(r) * (board.by_role(r) & board.by_color(c)).count() as i32)
            .sum()
    };
    let diff = material(strong) - material(!strong);
    if diff < value(Role::Rook) {
        score / 4
    } else {
        score
    }
}

/// One side's (mg, eg, phase) terms.
fn side(board: &Board, color: Color) -> (i32, i32, i32) {
    let tables = tables();
    let us = board.by_color(color);
    let them = board.by_color(!color);
    let occupied = board.occupied();
    let our_pawns = board.pawns() & us;
    let their_pawns = board.pawns() & them;
    let their_pawn_attacks = pawn_attacks(their_pawns, !color);
    let their_king = board.king_of(!color);
    let king_zone = their_king.map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from_square(k)
    });
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    let mut attack_units = 0;
    let mut attackers = 0;
    for sq in us {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let i = role_index(role);
        let rel = if color == Color::White {
            sq
        } else {
            sq.flip_vertical()
        };
        let (pm, pe) = tables[i][rel as usize];
        mg += MATERIAL[i].0 + pm;
        eg += MATERIAL[i].1 + pe;
        phase += PHASE[i];
        if matches!(role, Role::Pawn | Role::King) {
            continue;
        }
        let reach = attacks::attacks(sq, role.of(color), occupied);
        let mobile = (reach & !us & !their_pawn_attacks).count() as i32 - MOBILITY_BASE[i];
        mg += MOBILITY[i].0 * mobile;
        eg += MOBILITY[i].1 * mobile;
        if (reach & king_zone).any() {
            attackers += 1;
            attack_units += ATTACK_WEIGHT[i] * (reach & king_zone).count() as i32;
        }
        if role == Role::Rook {
            let file = Bitboard::from_file(sq.file());
            if (file & board.pawns()).is_empty() {
                mg += ROOK_OPEN.0;
                eg += ROOK_OPEN.1;
            } else if (file & our_pawns).is_empty() {
                mg += ROOK_HALF_OPEN.0;
                eg += ROOK_HALF_OPEN.1;
            }
        }
    }
    if (board.bishops() & us).more_than_one() {
        mg += BISHOP_PAIR.0;
        eg += BISHOP_PAIR.1;
    }
    // Attacks on the enemy king count for much more with a queen among the attackers' army.
    if attackers >= 2 && (board.queens() & us).any() {
        mg += attack_units * attack_units / 4;
    }
    let (pm, pe) = pawns(our_pawns, their_pawns, color);
    mg += pm;
    eg += pe;
    if let Some(king) = board.king_of(color) {
        mg += shield(king, our_pawns, color);
    }
    (mg, eg, phase)
}

fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in pawns {
        out |= attacks::pawn_attacks(color, sq);
    }
    out
}

/// Passed, doubled and isolated pawns.
fn pawns(ours: Bitboard, theirs: Bitboard, color: Color) -> (i32, i32) {
    let (mut mg, mut eg) = (0, 0);
    for sq in ours {
        let file = sq.file();
        let file_bb = Bitboard::from_file(file);
        let adjacent = adjacent_files(file);
        if (ours & adjacent).is_empty() {
            mg += ISOLATED.0;
            eg += ISOLATED.1;
        }
        let ahead = ahead_mask(sq, color);
        if (ours & file_bb & ahead).any() {
            mg += DOUBLED.0;
            eg += DOUBLED.1;
        }
        if (theirs & (file_bb | adjacent) & ahead).is_empty() {
            let rel = relative_rank(sq, color);
            mg += PASSED_MG[rel];
            eg += PASSED_EG[rel];
        }
    }
    (mg, eg)
}

/// Own pawns in front of a king at home (middlegame only).
fn shield(king: Square, ours: Bitboard, color: Color) -> i32 {
    if relative_rank(king, color) > 1 {
        return -20;
    }
    let files = Bitboard::from_file(king.file()) | adjacent_files(king.file());
    let forward = |n: i32| -> Bitboard {
        let r = king.rank() as i32 + if color == Color::White { n } else { -n };
        if (0..8).contains(&r) {
            Bitboard::from_rank(Rank::new(r as u32)) & files
        } else {
            Bitboard::EMPTY
        }
    };
    let near = (ours & forward(1)).count() as i32;
    let far = (ours & forward(2)).count() as i32;
    let covered = ((ours & (forward(1) | forward(2))).count() as i32).min(3);
    10 * near + 5 * far - 15 * (3 - covered)
}

fn adjacent_files(file: File) -> Bitboard {
    let f = file as u32;
    let mut out = Bitboard::EMPTY;
    if f > 0 {
        out |= Bitboard::from_file(File::new(f - 1));
    }
    if f < 7 {
        out |= Bitboard::from_file(File::new(f + 1));
    }
    out
}

/// The squares strictly ahead of `sq` (towards promotion) on all files.
fn ahead_mask(sq: Square, color: Color) -> Bitboard {
    let r = sq.rank() as u32;
    match color {
        Color::White if r >= 7 => Bitboard::EMPTY,
        Color::White => Bitboard(!0u64 << (8 * (r + 1))),
        Color::Black => Bitboard((1u64 << (8 * r)) - 1),
    }
}

fn relative_rank(sq: Square, color: Color) -> usize {
    let r = sq.rank() as usize;
    if color == Color::White { r } else { 7 - r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn eval(fen: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        evaluate(&pos)
    }

    #[test]
    fn start_is_balanced_and_symmetric() {
        let start = evaluate(&Chess::default());
        assert_eq!(start, TEMPO);
        // Mirrored positions evaluate the same for the side to move.
        let a = eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(a, b);
    }

    #[test]
    fn material_and_passed_pawns_count() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
        let far = eval("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let near = eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(near > far + 50, "{near} vs {far}");
    }
}
