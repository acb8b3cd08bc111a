//! The 16-bit working state of a position while its table is generated: a tag in the top three
//! bits (undecided, decided by mate, drawn, illegal) and a distance in the low thirteen.
//!
//! Shared by the retrograde passes ([`crate::dtm`]) and the perpetual-check rule
//! ([`crate::perpetual`]), which reads the positions the passes left undecided.

use chariot_rules::Waivers;

use crate::perpetual_game::Exit;

pub(crate) const TAG: u16 = 13;
pub(crate) const MASK: u16 = (1 << TAG) - 1;
/// The longest distance the state can hold.
pub const MAX_DISTANCE: u32 = MASK as u32;
/// Undecided, captures (if any) not valued: all moves stay in the table.
pub(crate) const UNKNOWN: u16 = 0;
/// Undecided; the best capture loses at the low bits.
pub(crate) const CAP_LOSS: u16 = 1 << TAG;
/// Undecided; the best capture draws or is decided by the perpetual-check rule (the low bits
/// say which: [`CAP_IS_DRAW`], [`CAP_IS_RULE_WIN`], [`CAP_IS_RULE_LOSS`]), so the position is
/// not lost by mate.
pub(crate) const CAP_DRAW: u16 = 2 << TAG;
/// Low bits of [`CAP_DRAW`]: the best capture draws.
pub(crate) const CAP_IS_DRAW: u16 = 0;
/// Low bits of [`CAP_DRAW`]: the best capture wins by the rule.
pub(crate) const CAP_IS_RULE_WIN: u16 = 1;
/// Low bits of [`CAP_DRAW`]: the best capture loses by the rule.
pub(crate) const CAP_IS_RULE_LOSS: u16 = 2;
/// A capture wins at the low bits; a quicker quiet win may still be found.
pub(crate) const PEND_WIN: u16 = 3 << TAG;
/// Won at the low bits (final).
pub(crate) const WIN: u16 = 4 << TAG;
/// Lost at the low bits (final).
pub(crate) const LOSS: u16 = 5 << TAG;
/// Drawn (final).
pub(crate) const DRAW: u16 = 6 << TAG;
/// No legal position.
pub(crate) const ILLEGAL: u16 = 7 << TAG;

#[inline]
pub(crate) fn tag(v: u16) -> u16 {
    v & !MASK
}

#[inline]
pub(crate) fn dist(v: u16) -> u32 {
    u32::from(v & MASK)
}

#[inline]
pub(crate) fn undecided(v: u16) -> bool {
    tag(v) <= CAP_DRAW
}

/// Bit of a position's first-pass byte ([`facts`]): the side to move is in check.
pub(crate) const IN_CHECK: u8 = 1;
/// Bit of the first-pass byte: a capture leads to a position lost by mate for the opponent (a
/// conversion that keeps the win, for the distance to conversion).
pub(crate) const CAPTURE_WINS: u8 = 2;
/// The first-pass byte's top six bits count the moves that are no conversion (quiet moves of
/// any piece but a soldier), up to this many; a position with more counts them again.
pub(crate) const MANY_INSIDE: u8 = 63;

/// The byte the first pass keeps for a position: whether its side to move is in check, whether
/// a capture wins by mate, and how many of its moves are no conversion ([`MANY_INSIDE`] at most).
pub(crate) fn facts(in_check: bool, capture_wins: bool, inside: u8) -> u8 {
    u8::from(in_check) | if capture_wins { CAPTURE_WINS } else { 0 } | inside.min(MANY_INSIDE) << 2
}

/// `true` when the first-pass byte says the side to move is in check.
#[inline]
pub(crate) fn in_check(facts: u8) -> bool {
    facts & IN_CHECK != 0
}

/// The moves that are no conversion from the first-pass byte, or `None` when there are too
/// many to keep ([`MANY_INSIDE`] or more).
#[inline]
pub(crate) fn inside(facts: u8) -> Option<u8> {
    Some(facts >> 2).filter(|&n| n < MANY_INSIDE)
}

/// Legal positions only: placement and counts are the index's business.
pub(crate) const LEGAL_ONLY: Waivers = Waivers {
    placement: true,
    counts: true,
    opposite_check: false,
};

/// `true` for a position of the game's region: undecided by the retrograde passes, or drawn by
/// them (a position whose only non-losing moves are drawing captures: a move into it draws, so
/// the game must see it).
pub(crate) fn in_region(v: u16) -> bool {
    undecided(v) || tag(v) == DRAW
}

/// The best move out of the game's region for one of its positions: captures (valued in the
/// smaller tables) and quiet moves into positions decided by mate (always lost).
pub(crate) fn exit(v: u16) -> Exit {
    match v {
        _ if v == CAP_DRAW | CAP_IS_DRAW || v == DRAW => Exit::Draw,
        _ if v == CAP_DRAW | CAP_IS_RULE_WIN => Exit::Win,
        _ => Exit::Lose,
    }
}
