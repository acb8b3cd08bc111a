//! Perft: counting the leaf nodes of the legal move tree, the standard test of move generation.

use super::mv::{Move, MoveList};
use super::position::Position;

/// The number of legal move sequences of length `depth` from `pos`.
///
/// The last ply is counted without making the moves ("bulk counting").
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Perft split by root move: each legal move with the count below it, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let list = pos.legal_move_list();
    list.iter()
        .map(|&m| {
            pos.make_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_to_depth_3() {
        let mut pos = Position::start();
        assert_eq!(perft(&mut pos, 1), 44);
        assert_eq!(perft(&mut pos, 2), 1_920);
        assert_eq!(perft(&mut pos, 3), 79_666);
        assert_eq!(divide(&mut pos, 2).iter().map(|x| x.1).sum::<u64>(), 1_920);
    }
}
