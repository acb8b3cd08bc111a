//! Every evaluation weight in one place, as named integers, so that a tuner (e.g. Texel tuning
//! against game results) can read and write them without touching the evaluation code.
//!
//! Weights come in midgame/endgame pairs (`_mg`, `_eg`); the evaluation blends them by the
//! phase (see [`super::phase`]). Units are centipawns. The piece-square tables are in
//! [`super::pst`].

/// The evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Soldier (before the piece-square bonus for crossing the river), midgame.
    pub pawn_mg: i32,
    /// Soldier, endgame.
    pub pawn_eg: i32,
    /// Advisor, midgame.
    pub advisor_mg: i32,
    /// Advisor, endgame.
    pub advisor_eg: i32,
    /// Elephant, midgame.
    pub elephant_mg: i32,
    /// Elephant, endgame.
    pub elephant_eg: i32,
    /// Horse, midgame.
    pub horse_mg: i32,
    /// Horse, endgame (horses gain as the board empties).
    pub horse_eg: i32,
    /// Chariot, midgame.
    pub rook_mg: i32,
    /// Chariot, endgame.
    pub rook_eg: i32,
    /// Cannon, midgame.
    pub cannon_mg: i32,
    /// Cannon, endgame (cannons lose their screens as the board empties).
    pub cannon_eg: i32,

    /// Per square a chariot can move to, midgame.
    pub rook_mobility_mg: i32,
    /// Per square a chariot can move to, endgame.
    pub rook_mobility_eg: i32,
    /// Per square a horse can jump to (leg free, not an own piece), midgame.
    pub horse_mobility_mg: i32,
    /// Per square a horse can jump to, endgame.
    pub horse_mobility_eg: i32,
    /// Per square a cannon can move to or capture on, midgame.
    pub cannon_mobility_mg: i32,
    /// Per square a cannon can move to or capture on, endgame.
    pub cannon_mobility_eg: i32,
    /// Per blocked horse leg (蹩马腿) towards a square on the board, midgame (usually negative).
    pub horse_leg_blocked_mg: i32,
    /// Per blocked horse leg, endgame.
    pub horse_leg_blocked_eg: i32,

    /// A cannon on the enemy general's file with exactly one piece between (central cannon
    /// with a screen, 镇中炮), midgame.
    pub cannon_screen_mg: i32,
    /// The same, endgame.
    pub cannon_screen_eg: i32,
    /// A cannon facing the enemy general with nothing between (empty-headed cannon, 空头炮),
    /// midgame: the defender can neither block nor use the file.
    pub cannon_empty_mg: i32,
    /// The same, endgame.
    pub cannon_empty_eg: i32,

    /// Per missing advisor, scaled by the enemy's attacking force (midgame only).
    pub missing_advisor: i32,
    /// Per missing elephant, scaled by the enemy's attacking force (midgame only).
    pub missing_elephant: i32,
    /// King danger weight: the penalty is `king_attack * units^2 / 8` for the attack units of
    /// enemy pieces in the zone before the palace (midgame only).
    pub king_attack: i32,
    /// Attack units of an enemy chariot in the palace zone.
    pub attack_unit_rook: i32,
    /// Attack units of an enemy horse in the palace zone.
    pub attack_unit_horse: i32,
    /// Attack units of an enemy cannon in the palace zone.
    pub attack_unit_cannon: i32,
    /// Attack units of an enemy soldier in the palace zone.
    pub attack_unit_pawn: i32,

    /// A soldier across the river with another beside it, midgame.
    pub pawn_connected_mg: i32,
    /// The same, endgame.
    pub pawn_connected_eg: i32,
    /// A soldier at the enemy palace, per missing enemy advisor (endgame).
    pub pawn_near_palace_eg: i32,

    /// The side to move's bonus, midgame.
    pub tempo_mg: i32,
    /// The side to move's bonus, endgame.
    pub tempo_eg: i32,
}

impl Params {
    /// The built-in weights (hand-set from Xiangqi knowledge; not yet tuned).
    pub const DEFAULT: Params = Params {
        pawn_mg: 60,
        pawn_eg: 90,
        advisor_mg: 200,
        advisor_eg: 190,
        elephant_mg: 200,
        elephant_eg: 180,
        horse_mg: 400,
        horse_eg: 450,
        rook_mg: 900,
        rook_eg: 950,
        cannon_mg: 440,
        cannon_eg: 400,

        rook_mobility_mg: 3,
        rook_mobility_eg: 4,
        horse_mobility_mg: 8,
        horse_mobility_eg: 8,
        cannon_mobility_mg: 2,
        cannon_mobility_eg: 2,
        horse_leg_blocked_mg: -5,
        horse_leg_blocked_eg: -3,

        cannon_screen_mg: 25,
        cannon_screen_eg: 10,
        cannon_empty_mg: 60,
        cannon_empty_eg: 20,

        missing_advisor: 16,
        missing_elephant: 12,
        king_attack: 3,
        attack_unit_rook: 3,
        attack_unit_horse: 3,
        attack_unit_cannon: 2,
        attack_unit_pawn: 2,

        pawn_connected_mg: 6,
        pawn_connected_eg: 14,
        pawn_near_palace_eg: 12,

        tempo_mg: 12,
        tempo_eg: 6,
    };
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}
