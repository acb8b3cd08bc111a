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
    /// with a screen, 镇中炮), midgame. Such a cannon gives check, so this only counts in
    /// positions whose side to move is in check; the tuner never sees one, and the value is the
    /// hand-set one.
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
    /// The built-in weights: Texel-tuned on master games (`docs/tuning.md`), starting from
    /// values set by hand from Xiangqi knowledge.
    pub const DEFAULT: Params = Params {
        pawn_mg: 59,
        pawn_eg: 137,
        advisor_mg: 178,
        advisor_eg: 76,
        elephant_mg: 224,
        elephant_eg: 98,
        horse_mg: 336,
        horse_eg: 480,
        rook_mg: 875,
        rook_eg: 1112,
        cannon_mg: 449,
        cannon_eg: 521,

        rook_mobility_mg: 5,
        rook_mobility_eg: 10,
        horse_mobility_mg: 11,
        horse_mobility_eg: 11,
        cannon_mobility_mg: 3,
        cannon_mobility_eg: 5,
        horse_leg_blocked_mg: -6,
        horse_leg_blocked_eg: -7,

        cannon_screen_mg: 25,
        cannon_screen_eg: 10,
        cannon_empty_mg: 94,
        cannon_empty_eg: 0,

        missing_advisor: 28,
        missing_elephant: 17,
        king_attack: 5,
        attack_unit_rook: 4,
        attack_unit_horse: 6,
        attack_unit_cannon: 1,
        attack_unit_pawn: 7,

        pawn_connected_mg: 0,
        pawn_connected_eg: 0,
        pawn_near_palace_eg: 94,

        tempo_mg: 0,
        tempo_eg: 0,
    };
}

impl Params {
    /// The number of weights.
    pub const COUNT: usize = 36;

    /// The field names, in declaration order: the order of [`Params::to_array`].
    pub const NAMES: [&'static str; Params::COUNT] = [
        "pawn_mg",
        "pawn_eg",
        "advisor_mg",
        "advisor_eg",
        "elephant_mg",
        "elephant_eg",
        "horse_mg",
        "horse_eg",
        "rook_mg",
        "rook_eg",
        "cannon_mg",
        "cannon_eg",
        "rook_mobility_mg",
        "rook_mobility_eg",
        "horse_mobility_mg",
        "horse_mobility_eg",
        "cannon_mobility_mg",
        "cannon_mobility_eg",
        "horse_leg_blocked_mg",
        "horse_leg_blocked_eg",
        "cannon_screen_mg",
        "cannon_screen_eg",
        "cannon_empty_mg",
        "cannon_empty_eg",
        "missing_advisor",
        "missing_elephant",
        "king_attack",
        "attack_unit_rook",
        "attack_unit_horse",
        "attack_unit_cannon",
        "attack_unit_pawn",
        "pawn_connected_mg",
        "pawn_connected_eg",
        "pawn_near_palace_eg",
        "tempo_mg",
        "tempo_eg",
    ];

    /// Every weight 0 (a container for counts, e.g. in the tuner's trace).
    pub const ZERO: Params = Params {
        pawn_mg: 0,
        pawn_eg: 0,
        advisor_mg: 0,
        advisor_eg: 0,
        elephant_mg: 0,
        elephant_eg: 0,
        horse_mg: 0,
        horse_eg: 0,
        rook_mg: 0,
        rook_eg: 0,
        cannon_mg: 0,
        cannon_eg: 0,
        rook_mobility_mg: 0,
        rook_mobility_eg: 0,
        horse_mobility_mg: 0,
        horse_mobility_eg: 0,
        cannon_mobility_mg: 0,
        cannon_mobility_eg: 0,
        horse_leg_blocked_mg: 0,
        horse_leg_blocked_eg: 0,
        cannon_screen_mg: 0,
        cannon_screen_eg: 0,
        cannon_empty_mg: 0,
        cannon_empty_eg: 0,
        missing_advisor: 0,
        missing_elephant: 0,
        king_attack: 0,
        attack_unit_rook: 0,
        attack_unit_horse: 0,
        attack_unit_cannon: 0,
        attack_unit_pawn: 0,
        pawn_connected_mg: 0,
        pawn_connected_eg: 0,
        pawn_near_palace_eg: 0,
        tempo_mg: 0,
        tempo_eg: 0,
    };

    /// The weights as an array, in the order of [`Params::NAMES`].
    #[must_use]
    pub const fn to_array(&self) -> [i32; Params::COUNT] {
        [
            self.pawn_mg,
            self.pawn_eg,
            self.advisor_mg,
            self.advisor_eg,
            self.elephant_mg,
            self.elephant_eg,
            self.horse_mg,
            self.horse_eg,
            self.rook_mg,
            self.rook_eg,
            self.cannon_mg,
            self.cannon_eg,
            self.rook_mobility_mg,
            self.rook_mobility_eg,
            self.horse_mobility_mg,
            self.horse_mobility_eg,
            self.cannon_mobility_mg,
            self.cannon_mobility_eg,
            self.horse_leg_blocked_mg,
            self.horse_leg_blocked_eg,
            self.cannon_screen_mg,
            self.cannon_screen_eg,
            self.cannon_empty_mg,
            self.cannon_empty_eg,
            self.missing_advisor,
            self.missing_elephant,
            self.king_attack,
            self.attack_unit_rook,
            self.attack_unit_horse,
            self.attack_unit_cannon,
            self.attack_unit_pawn,
            self.pawn_connected_mg,
            self.pawn_connected_eg,
            self.pawn_near_palace_eg,
            self.tempo_mg,
            self.tempo_eg,
        ]
    }

    /// The weights from an array in the order of [`Params::NAMES`].
    #[must_use]
    pub const fn from_array(v: &[i32; Params::COUNT]) -> Params {
        Params {
            pawn_mg: v[0],
            pawn_eg: v[1],
            advisor_mg: v[2],
            advisor_eg: v[3],
            elephant_mg: v[4],
            elephant_eg: v[5],
            horse_mg: v[6],
            horse_eg: v[7],
            rook_mg: v[8],
            rook_eg: v[9],
            cannon_mg: v[10],
            cannon_eg: v[11],
            rook_mobility_mg: v[12],
            rook_mobility_eg: v[13],
            horse_mobility_mg: v[14],
            horse_mobility_eg: v[15],
            cannon_mobility_mg: v[16],
            cannon_mobility_eg: v[17],
            horse_leg_blocked_mg: v[18],
            horse_leg_blocked_eg: v[19],
            cannon_screen_mg: v[20],
            cannon_screen_eg: v[21],
            cannon_empty_mg: v[22],
            cannon_empty_eg: v[23],
            missing_advisor: v[24],
            missing_elephant: v[25],
            king_attack: v[26],
            attack_unit_rook: v[27],
            attack_unit_horse: v[28],
            attack_unit_cannon: v[29],
            attack_unit_pawn: v[30],
            pawn_connected_mg: v[31],
            pawn_connected_eg: v[32],
            pawn_near_palace_eg: v[33],
            tempo_mg: v[34],
            tempo_eg: v[35],
        }
    }

    /// The position of the weight called `name` in [`Params::NAMES`], `None` when there is none.
    #[must_use]
    pub const fn index_of(name: &str) -> Option<usize> {
        let mut i = 0;
        while i < Params::COUNT {
            if str_eq(Params::NAMES[i], name) {
                return Some(i);
            }
            i += 1;
        }
        None
    }
}

/// String equality usable in constants.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_follow_the_names() {
        // Distinct values, so that a field read or written under another name shows.
        let values: [i32; Params::COUNT] = std::array::from_fn(|i| 1000 + i as i32);
        let p = Params::from_array(&values);
        assert_eq!(p.to_array(), values);
        let debug = format!("{p:?}");
        for (name, v) in Params::NAMES.iter().zip(values) {
            let field = format!(" {name}: {v}");
            let at = debug
                .find(&field)
                .unwrap_or_else(|| panic!("{name} in {debug}"));
            // The whole number, not a prefix of a longer one.
            let next = debug[at + field.len()..].chars().next();
            assert!(matches!(next, Some(',' | ' ')), "{name} in {debug}");
        }
        assert_eq!(
            Params::from_array(&Params::DEFAULT.to_array()),
            Params::DEFAULT
        );
        assert_eq!(Params::ZERO.to_array(), [0; Params::COUNT]);
    }

    #[test]
    fn names_are_found() {
        for (i, name) in Params::NAMES.iter().enumerate() {
            assert_eq!(Params::index_of(name), Some(i));
        }
        assert_eq!(Params::index_of("no_such_weight"), None);
        assert_eq!(Params::index_of("pawn"), None);
    }
}
