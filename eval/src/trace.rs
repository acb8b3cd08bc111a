//! The evaluation as a function of its weights, for tuning.
//!
//! Texel tuning evaluates the same positions again and again under changing weights. Almost all
//! of the evaluation is linear in its weights: a chariot's mobility term is the number of points
//! it attacks times `rook_mobility_mg`, a piece-square bonus is one table cell. A [`Trace`]
//! records, once per position, how often each weight is used (Red's uses minus Black's); the
//! score for any weights is then a short dot product. What is not linear is kept as raw inputs:
//!
//! - the phase blend: a midgame weight counts `phase` times, an endgame weight
//!   `MAX_PHASE - phase` times, a weight shared by both (the advisor and elephant tables)
//!   `MAX_PHASE` times, and the sum is divided by `MAX_PHASE` ([`Blend`]);
//! - king safety, `(missing advisors * missing_advisor + ...) * force / 8` and
//!   `king_attack * units^2 / 8`, with integer division, from [`KingInputs`];
//! - the draw scale, which depends on the sign of the score: the trace keeps the scale for
//!   either sign.
//!
//! The weights are one flat vector ([`Weights`]): the fields of [`Params`] in the order of
//! [`Params::NAMES`], then the piece-square tables of [`super::pst`], one weight per pair of
//! left-right mirrored points (the tables are symmetric). [`Trace::evaluate`] gives exactly what
//! [`super::evaluate_with`] gives under [`super::EvalConfig::FULL`] (from Red's view); a test
//! checks this over many positions, so a change to the evaluation that the trace does not follow
//! fails there.

use super::mobility::{HORSE_LEGS, LINES};
use super::pst::{self, Table};
use super::{
    ACROSS_RIVER, ATTACKING_SOLDIERS, Accumulator, FILE_I, MAX_PHASE, NEAR_PALACE, Params,
    for_each_square, phase_of, sparse_count,
};
use chariot_rules::{Color, Kind, Piece, Position, Square};

/// The number of piece-square tables ([`TABLES`]).
pub const TABLE_COUNT: usize = 12;
/// Weights per table: 10 ranks of 5 files (a..e; files f..i mirror d..a).
pub const CELLS: usize = 50;
/// The number of weights: the fields of [`Params`] and the table cells.
pub const WEIGHTS: usize = Params::COUNT + TABLE_COUNT * CELLS;

/// All weights of the evaluation, in trace order (see the module documentation).
pub type Weights = [i32; WEIGHTS];

/// How a weight enters the phase blend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blend {
    /// A midgame weight: counted `phase` times.
    Midgame,
    /// An endgame weight: counted `MAX_PHASE - phase` times.
    Endgame,
    /// Used in the midgame and the endgame alike: counted `MAX_PHASE` times.
    Both,
    /// A king-safety weight, used through [`KingInputs`] (in the midgame only) and never in the
    /// linear part.
    KingSafety,
}

impl Blend {
    /// How many times a use of a weight counts at `phase` (the sum is divided by `MAX_PHASE`).
    #[inline]
    #[must_use]
    pub const fn factor(self, phase: i32) -> i32 {
        match self {
            Blend::Midgame => phase,
            Blend::Endgame => MAX_PHASE - phase,
            Blend::Both => MAX_PHASE,
            Blend::KingSafety => 0,
        }
    }
}

/// A piece-square table as the trace sees it.
#[derive(Clone, Copy, Debug)]
pub struct TableInfo {
    /// The constant's name in `pst.rs`.
    pub name: &'static str,
    /// The kind of piece it is for.
    pub kind: Kind,
    /// How it enters the blend.
    pub blend: Blend,
    /// Its built-in values.
    pub values: &'static Table,
}

/// The piece-square tables, in weight order (the order of `pst.rs`).
pub const TABLES: [TableInfo; TABLE_COUNT] = {
    const fn t(name: &'static str, kind: Kind, blend: Blend, values: &'static Table) -> TableInfo {
        TableInfo {
            name,
            kind,
            blend,
            values,
        }
    }
    [
        t("PAWN_MG", Kind::Soldier, Blend::Midgame, &pst::PAWN_MG),
        t("PAWN_EG", Kind::Soldier, Blend::Endgame, &pst::PAWN_EG),
        t("HORSE_MG", Kind::Horse, Blend::Midgame, &pst::HORSE_MG),
        t("HORSE_EG", Kind::Horse, Blend::Endgame, &pst::HORSE_EG),
        t("ROOK_MG", Kind::Chariot, Blend::Midgame, &pst::ROOK_MG),
        t("ROOK_EG", Kind::Chariot, Blend::Endgame, &pst::ROOK_EG),
        t("CANNON_MG", Kind::Cannon, Blend::Midgame, &pst::CANNON_MG),
        t("CANNON_EG", Kind::Cannon, Blend::Endgame, &pst::CANNON_EG),
        t("KING_MG", Kind::General, Blend::Midgame, &pst::KING_MG),
        t("KING_EG", Kind::General, Blend::Endgame, &pst::KING_EG),
        t("ADVISOR", Kind::Advisor, Blend::Both, &pst::ADVISOR),
        t("ELEPHANT", Kind::Elephant, Blend::Both, &pst::ELEPHANT),
    ]
};

/// The tables (by position in [`TABLES`]) a kind uses: (midgame, endgame), the same one twice
/// for a table shared by both.
const fn tables_of(kind: Kind) -> (usize, usize) {
    match kind {
        Kind::Soldier => (0, 1),
        Kind::Horse => (2, 3),
        Kind::Chariot => (4, 5),
        Kind::Cannon => (6, 7),
        Kind::General => (8, 9),
        Kind::Advisor => (10, 10),
        Kind::Elephant => (11, 11),
    }
}

/// The weight of table `table`'s point `i` (an index into a [`Table`], rank 9 first).
#[must_use]
pub const fn cell_weight(table: usize, i: usize) -> usize {
    let (row, file) = (i / 9, i % 9);
    let file = if file > 4 { 8 - file } else { file };
    Params::COUNT + table * CELLS + row * 5 + file
}

/// The weight indices of the king-safety weights, found by name at compile time.
mod king {
    use super::Params;

    const fn at(name: &str) -> usize {
        match Params::index_of(name) {
            Some(i) => i,
            None => panic!("no such weight"),
        }
    }

    /// `missing_advisor`.
    pub const MISSING_ADVISOR: usize = at("missing_advisor");
    /// `missing_elephant`.
    pub const MISSING_ELEPHANT: usize = at("missing_elephant");
    /// `king_attack`.
    pub const KING_ATTACK: usize = at("king_attack");
    /// Chariot, horse, cannon, soldier, in the order of the accumulator's zone counts.
    pub const UNITS: [usize; 4] = [
        at("attack_unit_rook"),
        at("attack_unit_horse"),
        at("attack_unit_cannon"),
        at("attack_unit_pawn"),
    ];
}

pub use king::{KING_ATTACK, MISSING_ADVISOR, MISSING_ELEPHANT, UNITS as ATTACK_UNITS};

/// How each weight enters the blend.
pub const BLENDS: [Blend; WEIGHTS] = {
    let mut b = [Blend::Both; WEIGHTS];
    let mut i = 0;
    while i < Params::COUNT {
        let name = Params::NAMES[i].as_bytes();
        let n = name.len();
        b[i] = if n > 3 && name[n - 3] == b'_' && name[n - 2] == b'm' && name[n - 1] == b'g' {
            Blend::Midgame
        } else if n > 3 && name[n - 3] == b'_' && name[n - 2] == b'e' && name[n - 1] == b'g' {
            Blend::Endgame
        } else {
            Blend::KingSafety
        };
        i += 1;
    }
    let mut t = 0;
    while t < TABLE_COUNT {
        let mut c = 0;
        while c < CELLS {
            b[Params::COUNT + t * CELLS + c] = TABLES[t].blend;
            c += 1;
        }
        t += 1;
    }
    b
};

/// The built-in weights ([`Params::DEFAULT`] and the tables of `pst.rs`).
#[must_use]
pub fn default_weights() -> Weights {
    let mut w = [0; WEIGHTS];
    w[..Params::COUNT].copy_from_slice(&Params::DEFAULT.to_array());
    for (t, info) in TABLES.iter().enumerate() {
        for (i, &v) in info.values.iter().enumerate() {
            w[cell_weight(t, i)] = v;
        }
    }
    w
}

/// The [`Params`] part of a weight vector.
#[must_use]
pub fn params_of(w: &Weights) -> Params {
    let mut a = [0; Params::COUNT];
    a.copy_from_slice(&w[..Params::COUNT]);
    Params::from_array(&a)
}

/// Table `table` (a position in [`TABLES`]) of a weight vector, as a full symmetric table.
#[must_use]
pub fn table_of(w: &Weights, table: usize) -> Table {
    std::array::from_fn(|i| w[cell_weight(table, i)])
}

/// A readable name for weight `i`: a field name, or a table and point (`HORSE_MG[c7]`, the
/// point from Red's side, files a..e).
#[must_use]
pub fn weight_name(i: usize) -> String {
    if i < Params::COUNT {
        return Params::NAMES[i].to_owned();
    }
    let (t, c) = ((i - Params::COUNT) / CELLS, (i - Params::COUNT) % CELLS);
    let (row, file) = (c / 5, c % 5);
    match TABLES.get(t) {
        Some(info) => format!(
            "{}[{}{}]",
            info.name,
            char::from(b'a' + file as u8),
            9 - row
        ),
        None => format!("weight {i}"),
    }
}

/// The raw inputs of one side's king safety.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingInputs {
    /// Advisors missing (0..=2).
    pub missing_advisors: u8,
    /// Elephants missing (0..=2).
    pub missing_elephants: u8,
    /// The enemy's attacking force, `2 * chariots + horses + cannons`, at most 8.
    pub force: u8,
    /// Enemy chariots, horses, cannons and soldiers in the zone before the palace.
    pub zone: [u8; 4],
}

impl KingInputs {
    /// The penalty (midgame centipawns, subtracted from this side) under weights `w`, with the
    /// evaluation's integer arithmetic.
    #[must_use]
    pub fn penalty(&self, w: &Weights) -> i32 {
        let defence = (i32::from(self.missing_advisors) * w[MISSING_ADVISOR]
            + i32::from(self.missing_elephants) * w[MISSING_ELEPHANT])
            * i32::from(self.force)
            / 8;
        defence
            + self
                .danger_units(w)
                .map_or(0, |u| w[KING_ATTACK] * u * u / 8)
    }

    /// The attack units under weights `w`, `None` when fewer than two attackers are in the zone
    /// (then there is no danger term).
    #[must_use]
    pub fn danger_units(&self, w: &Weights) -> Option<i32> {
        let attackers: i32 = self.zone.iter().map(|&n| i32::from(n)).sum();
        (attackers >= 2).then(|| {
            self.zone
                .iter()
                .zip(ATTACK_UNITS)
                .map(|(&n, u)| i32::from(n) * w[u])
                .sum()
        })
    }
}

/// How often each weight is used in one position, and the non-linear inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// (weight index, Red's uses minus Black's), by increasing index, without zeros.
    pub features: Vec<(u16, i16)>,
    /// The phase, 0..=[`MAX_PHASE`].
    pub phase: u8,
    /// King-safety inputs of Red and Black.
    pub king: [KingInputs; 2],
    /// The draw scale in 1/16 when Red is ahead, and when Black is ahead or the score is 0.
    pub scale: [u8; 2],
}

impl Trace {
    /// The trace of `pos`.
    #[must_use]
    pub fn new(pos: &Position) -> Trace {
        let acc = Accumulator::new(pos);
        let mut p = Params::ZERO;
        let mut cells = [0i32; TABLE_COUNT * CELLS];
        for sq in pos.occupied() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let (c, kind) = (piece.color(), piece.kind());
            let s = sign(c);
            match kind {
                Kind::General => {}
                Kind::Advisor => {
                    (p.advisor_mg, p.advisor_eg) = (p.advisor_mg + s, p.advisor_eg + s)
                }
                Kind::Elephant => {
                    (p.elephant_mg, p.elephant_eg) = (p.elephant_mg + s, p.elephant_eg + s);
                }
                Kind::Horse => (p.horse_mg, p.horse_eg) = (p.horse_mg + s, p.horse_eg + s),
                Kind::Chariot => (p.rook_mg, p.rook_eg) = (p.rook_mg + s, p.rook_eg + s),
                Kind::Cannon => (p.cannon_mg, p.cannon_eg) = (p.cannon_mg + s, p.cannon_eg + s),
                Kind::Soldier => (p.pawn_mg, p.pawn_eg) = (p.pawn_mg + s, p.pawn_eg + s),
            }
            for t in table_set(kind) {
                cells[cell_weight(t, pst::index(c, sq)) - Params::COUNT] += s;
            }
        }
        for c in Color::ALL {
            mobility(pos, c, &mut p);
            soldiers(pos, &acc, c, &mut p);
        }
        let s = sign(pos.turn());
        p.tempo_mg += s;
        p.tempo_eg += s;
        let king = Color::ALL.map(|c| king_safety(pos, &acc, c, &mut p));

        let mut features = Vec::with_capacity(96);
        let all = p.to_array().into_iter().chain(cells);
        for (i, n) in all.enumerate() {
            if n != 0 {
                // Counts are bounded by the board (at most 90 points per weight and side).
                features.push((i as u16, n as i16));
            }
        }
        let scale_for = |strong: Color| {
            let pieces = acc.count_of(strong, Kind::Chariot.index())
                + acc.count_of(strong, Kind::Horse.index())
                + acc.count_of(strong, Kind::Cannon.index());
            let soldiers = pos.pieces(Piece::new(strong, Kind::Soldier)).0
                & ATTACKING_SOLDIERS[strong.index()];
            if pieces == 0 && soldiers == 0 { 1 } else { 16 }
        };
        Trace {
            features,
            phase: phase_of(&acc) as u8,
            king,
            scale: [scale_for(Color::Red), scale_for(Color::Black)],
        }
    }

    /// The evaluation from Red's view under weights `w`: for the built-in weights exactly
    /// [`super::evaluate_with`] under [`super::EvalConfig::FULL`], turned to Red's view.
    #[must_use]
    pub fn evaluate(&self, w: &Weights) -> i32 {
        evaluate_parts(&self.features, self.phase, &self.king, self.scale, w)
    }
}

/// [`Trace::evaluate`] from the parts of a trace (for traces stored in flat arrays).
#[must_use]
pub fn evaluate_parts(
    features: &[(u16, i16)],
    phase: u8,
    king: &[KingInputs; 2],
    scale: [u8; 2],
    w: &Weights,
) -> i32 {
    let phase = i32::from(phase);
    let mut sum = 0;
    for &(i, n) in features {
        let i = usize::from(i);
        sum += i32::from(n) * w[i] * BLENDS[i].factor(phase);
    }
    // King safety is a midgame penalty for the defender.
    sum += phase * (king[1].penalty(w) - king[0].penalty(w));
    let red = sum / MAX_PHASE;
    let scale = if red > 0 { scale[0] } else { scale[1] };
    red * i32::from(scale) / 16
}

/// +1 for Red, -1 for Black.
const fn sign(c: Color) -> i32 {
    match c {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// The tables a kind uses (one or two).
fn table_set(kind: Kind) -> impl Iterator<Item = usize> {
    let (mg, eg) = tables_of(kind);
    std::iter::once(mg).chain((eg != mg).then_some(eg))
}

/// The table cells (weight indices) the pieces of `pos` stand on, one per piece and table: how
/// often each cell is used, for the tuner's statistics.
#[must_use]
pub fn piece_cells(pos: &Position) -> Vec<usize> {
    let mut out = Vec::with_capacity(64);
    for sq in pos.occupied() {
        if let Some(piece) = pos.piece_at(sq) {
            for t in table_set(piece.kind()) {
                out.push(cell_weight(t, pst::index(piece.color(), sq)));
            }
        }
    }
    out
}

/// Mobility and blocked legs of `c`'s chariots, horses and cannons (as in the evaluation).
fn mobility(pos: &Position, c: Color, p: &mut Params) {
    let s = sign(c);
    let own = (c as u8) << 3;
    let set = |kind: Kind| pos.pieces(Piece::new(c, kind)).0;
    let (mut rook, mut cannon, mut horse, mut blocked) = (0, 0, 0, 0);
    for_each_square(set(Kind::Chariot), |sq| rook += LINES.counts(pos, sq).0);
    for_each_square(set(Kind::Cannon), |sq| cannon += LINES.counts(pos, sq).1);
    for_each_square(set(Kind::Horse), |sq| {
        let jumps = &HORSE_LEGS[sq];
        for &(leg, n, targets) in &jumps.legs[..usize::from(jumps.len)] {
            if pos.board()[usize::from(leg)] != 0 {
                blocked += i32::from(n);
                continue;
            }
            for &to in &targets[..usize::from(n)] {
                let target = pos.board()[usize::from(to)];
                horse += i32::from(target == 0 || target & 8 != own);
            }
        }
    });
    p.rook_mobility_mg += s * rook;
    p.rook_mobility_eg += s * rook;
    p.cannon_mobility_mg += s * cannon;
    p.cannon_mobility_eg += s * cannon;
    p.horse_mobility_mg += s * horse;
    p.horse_mobility_eg += s * horse;
    p.horse_leg_blocked_mg += s * blocked;
    p.horse_leg_blocked_eg += s * blocked;
}

/// Connected soldiers and soldiers at a palace short of advisors.
fn soldiers(pos: &Position, acc: &Accumulator, c: Color, p: &mut Params) {
    let s = sign(c);
    let pawns = pos.pieces(Piece::new(c, Kind::Soldier)).0;
    let enemy_advisors = acc.count_of(c.opponent(), Kind::Advisor.index());
    let connected = sparse_count(pawns & ACROSS_RIVER[c.index()] & (pawns >> 1) & !FILE_I);
    let near = sparse_count(pawns & NEAR_PALACE[c.index()]) * (2 - enemy_advisors);
    p.pawn_connected_mg += s * connected;
    p.pawn_connected_eg += s * connected;
    p.pawn_near_palace_eg += s * near;
}

/// Cannon threats against `c`'s general (credited to the attacker) and the inputs of `c`'s
/// king-safety penalty.
fn king_safety(pos: &Position, acc: &Accumulator, c: Color, p: &mut Params) -> KingInputs {
    let them = c.opponent();
    let ksq = pos.king(c);
    // Walk from the general towards the enemy: an enemy cannon first is empty-headed, second
    // (behind one screen) a central cannon.
    let step: i32 = if c == Color::Red { 1 } else { -1 };
    let enemy_cannon = Piece::new(them, Kind::Cannon);
    let mut seen = 0;
    let mut rank = i32::from(ksq.rank()) + step;
    while let Some(sq) = Square::try_new(i32::from(ksq.file()), rank) {
        if let Some(piece) = pos.piece_at(sq) {
            if piece == enemy_cannon {
                let s = sign(them);
                if seen == 0 {
                    p.cannon_empty_mg += s;
                    p.cannon_empty_eg += s;
                } else {
                    p.cannon_screen_mg += s;
                    p.cannon_screen_eg += s;
                }
            }
            seen += 1;
            if seen == 2 || piece == enemy_cannon {
                break;
            }
        }
        rank += step;
    }
    let count = |kind: Kind, color: Color| acc.count_of(color, kind.index());
    let force =
        (2 * count(Kind::Chariot, them) + count(Kind::Horse, them) + count(Kind::Cannon, them))
            .min(8);
    KingInputs {
        missing_advisors: (2 - count(Kind::Advisor, c).min(2)) as u8,
        missing_elephants: (2 - count(Kind::Elephant, c).min(2)) as u8,
        force: force as u8,
        zone: acc.zone[c.index()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EvalConfig, evaluate_with};
    use chariot_rules::START_FEN;
    use chariot_rules::testing::Rng;

    fn red_eval(pos: &Position) -> i32 {
        let v = evaluate_with(pos, &EvalConfig::FULL);
        if pos.turn() == Color::Red { v } else { -v }
    }

    /// Positions of random games from a few roots and of the test vectors.
    fn positions() -> Vec<Position> {
        let mut out = Vec::new();
        let roots = [
            START_FEN,
            "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "3ak1b2/2n1a4/8b/4P4/9/2B3R2/9/9/5K3/3A1AB2 w - - 5 70",
            "4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1",
        ];
        let mut rng = Rng::seeded(0x1234_5678_9abc_def1);
        for fen in roots {
            for _ in 0..15 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..150 {
                    out.push(pos.clone());
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer captures now and then, so that games reach the endgame.
                    let caps: Vec<_> = moves.iter().filter(|&&m| pos.is_capture(m)).collect();
                    let r = rng.next_u64() as usize;
                    let m = if !caps.is_empty() && r.is_multiple_of(3) {
                        *caps[r / 3 % caps.len()]
                    } else {
                        moves[r % moves.len()]
                    };
                    pos.make_move(m);
                }
            }
        }
        for file in ["positions-from-games.tsv", "positions-random-play.tsv"] {
            let path = format!("{}/../data/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let fen = line.split('\t').next().unwrap();
                out.push(Position::from_fen(fen).unwrap());
            }
        }
        out
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        let w = default_weights();
        let positions = positions();
        assert!(positions.len() > 10_000, "{}", positions.len());
        let (mut scaled, mut danger, mut threats) = (0, 0, 0);
        for pos in &positions {
            let t = Trace::new(pos);
            assert_eq!(t.evaluate(&w), red_eval(pos), "{pos}");
            scaled += usize::from(t.scale.contains(&1));
            danger += usize::from(t.king.iter().any(|k| k.danger_units(&w).is_some()));
            threats += usize::from(t.features.iter().any(|&(i, _)| {
                Params::NAMES.get(usize::from(i)).is_some_and(|n| {
                    n.starts_with("cannon_empty") || n.starts_with("cannon_screen")
                })
            }));
        }
        // The non-linear parts were really exercised.
        assert!(
            scaled > 50 && danger > 500 && threats > 500,
            "{scaled} {danger} {threats}"
        );
    }

    #[test]
    fn weights_round_trip_through_params_and_tables() {
        let w = default_weights();
        assert_eq!(params_of(&w), Params::DEFAULT);
        for (t, info) in TABLES.iter().enumerate() {
            assert_eq!(&table_of(&w, t), info.values, "{}", info.name);
            assert_eq!(
                pst::tables(info.kind).0,
                TABLES[tables_of(info.kind).0].values
            );
            assert_eq!(
                pst::tables(info.kind).1,
                TABLES[tables_of(info.kind).1].values
            );
        }
    }

    #[test]
    fn weights_have_names_and_blends() {
        assert_eq!(weight_name(0), "pawn_mg");
        assert_eq!(BLENDS[0], Blend::Midgame);
        assert_eq!(
            BLENDS[Params::index_of("pawn_near_palace_eg").unwrap()],
            Blend::Endgame
        );
        assert_eq!(BLENDS[KING_ATTACK], Blend::KingSafety);
        // HORSE_MG (table 2), point c7 from Red's side: row 2, file c.
        let i = cell_weight(2, 2 * 9 + 2);
        assert_eq!(weight_name(i), "HORSE_MG[c7]");
        assert_eq!(cell_weight(2, 2 * 9 + 6), i, "g7 mirrors c7");
        assert_eq!(BLENDS[i], Blend::Midgame);
        assert_eq!(BLENDS[cell_weight(10, 85)], Blend::Both);
        assert_eq!(
            BLENDS.iter().filter(|b| **b == Blend::KingSafety).count(),
            7
        );
    }
}
