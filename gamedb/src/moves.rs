//! How the database stores a game's moves: a BLOB of two bytes a move, each the move's 16 bits
//! (`Move::to_u16`) little-endian (`docs/formats/game-db.md`). Apart from [`crate::db`] so that
//! the position index reads the moves of the games it lists without depending on it.

use chariot_rules::Move;

/// Decodes a moves BLOB; `None` when its length is odd or a value is not a move.
#[must_use]
pub fn decode_moves(bytes: &[u8]) -> Option<Vec<Move>> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|c| Move::from_u16(u16::from_le_bytes([c[0], c[1]])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_decode() {
        let m = chariot_rules::notation::parse_iccs("h2e2").unwrap();
        let bytes = m.to_u16().to_le_bytes();
        assert_eq!(decode_moves(&bytes), Some(vec![m]));
        assert_eq!(decode_moves(&bytes[..1]), None);
        assert_eq!(decode_moves(&[0xff, 0xff]), None);
    }
}
