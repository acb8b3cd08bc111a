//! The 16-bit move encoding of Polyglot books, also used as the transposition table's move.
//!
//! Bits 0-5 hold the target square, 6-11 the origin (`a1` = 0, `h8` = 63), 12-14 the promotion
//! piece (0 none, 1 knight, 2 bishop, 3 rook, 4 queen). Castling is written as the king taking
//! its own rook (`e1h1`), which is exactly shakmaty's `Move::Castle { king, rook }`.

use shakmaty::{Move, MoveList, Role};

/// Packs a move into Polyglot's 16 bits.
#[must_use]
pub fn pack(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promotion = match m.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    to | (from << 6) | (promotion << 12)
}

/// Finds the legal move in `moves` that `packed` stands for, if any.
#[must_use]
pub fn unpack(packed: u16, moves: &MoveList) -> Option<Move> {
    // Bit 15 is unused by Polyglot; ignore it rather than reject the entry.
    let packed = packed & 0x7fff;
    moves.iter().copied().find(|&m| pack(m) == packed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn every_start_move_round_trips() {
        let moves = Chess::default().legal_moves();
        for &m in &moves {
            assert_eq!(unpack(pack(m), &moves), Some(m));
        }
        // e2e4: from 12, to 28.
        let e4 = moves.iter().find(|m| m.to() as u8 == 28).copied().unwrap();
        assert_eq!(pack(e4), 28 | (12 << 6));
    }
}
