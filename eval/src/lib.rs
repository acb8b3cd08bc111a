//! Chariot's evaluations, over the rules: the hand-written static evaluation (this crate's root),
//! the neural evaluation's inference ([`nnue`]), the strength [`levels`] shared with the search,
//! and [`quiet`], which says where the static evaluation can be taken at its word.
//!
//! Static evaluation: how good a position is for the side to move, in centipawns.
//!
//! The evaluation is a sum of terms, each a midgame/endgame pair per side, blended by the
//! [`phase`] (the attacking material left on the board):
//!
//! - material and piece-square tables ([`pst`]);
//! - mobility of chariots, horses and cannons, and blocked horse legs (蹩马腿);
//! - cannon threats on the enemy general's file: the central cannon with a screen and the
//!   empty-headed cannon (空头炮);
//! - king safety: missing advisors and elephants against the enemy's attacking force, and enemy
//!   attackers in the zone before the palace;
//! - soldiers: connected soldiers across the river, soldiers at a palace short of advisors;
//! - tempo for the side to move;
//! - a scale towards a draw when the stronger side has nothing left that can attack.
//!
//! All weights are fields of [`Params`]. [`EvalConfig`] selects which terms are used (the UCCI
//! `knowledge` option) and weighs the two generals' safety differently for the `style` option.

mod accumulator;
pub mod levels;
mod mobility;
pub mod nnue;
pub mod params;
pub mod pst;
pub mod quiet;
#[cfg(test)]
mod reference;
pub mod trace;

use std::fmt;
use std::sync::OnceLock;

pub use accumulator::Accumulator;
pub use params::Params;

use chariot_rules::{Color, Kind, Piece, Position, Square};
// Across the river (per side), and file i, where a soldier has no point to its right.
use crate::levels::{Level, Style};
use chariot_rules::tables::{ACROSS_RIVER, FILE_I};
use mobility::{LINES, horse_mobility};

/// The phase weight of a chariot; a horse or cannon counts half. Full board = [`MAX_PHASE`].
const PHASE_ROOK: i32 = 4;
const PHASE_MINOR: i32 = 2;
/// The phase of the full board: 4 chariots, 4 horses, 4 cannons.
pub const MAX_PHASE: i32 = 4 * PHASE_ROOK + 8 * PHASE_MINOR;

/// Which terms the evaluation uses and how it weighs the generals' safety.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalConfig {
    /// `None`: material only; `Tiny`/`Small`: plus piece-square tables; `Medium`: plus mobility,
    /// horse legs, soldiers and tempo; `Large`/`Huge`: everything (king safety, cannon threats,
    /// draw scaling).
    pub knowledge: Level,
    /// The side the engine plays (the style weights are relative to it).
    pub engine: Color,
    /// Percent weight of the engine's own general's safety (100 = neutral).
    pub own_king_weight: i32,
    /// Percent weight of the opponent's general's safety, i.e. of the engine's attack.
    pub their_king_weight: i32,
}

impl EvalConfig {
    /// Full knowledge, neutral style.
    pub const FULL: EvalConfig = EvalConfig {
        knowledge: Level::Large,
        engine: Color::Red,
        own_king_weight: 100,
        their_king_weight: 100,
    };

    /// The configuration for the given options, with the engine playing `engine`.
    #[must_use]
    pub const fn new(knowledge: Level, style: Style, engine: Color) -> EvalConfig {
        let (own, theirs) = match style {
            Style::Solid => (130, 90),
            Style::Normal => (100, 100),
            Style::Risky => (80, 120),
        };
        EvalConfig {
            knowledge,
            engine,
            own_king_weight: own,
            their_king_weight: theirs,
        }
    }
}

impl Default for EvalConfig {
    fn default() -> EvalConfig {
        EvalConfig::FULL
    }
}

/// The evaluation terms, for [`Breakdown`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Pst,
    /// Chariot, horse and cannon mobility.
    Mobility,
    /// Blocked horse legs.
    HorseLegs,
    /// Central and empty-headed cannons against the enemy general.
    Cannons,
    /// Safety of the own general (missing defenders, attackers near the palace).
    KingSafety,
    /// Soldier structure.
    Pawns,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// All terms in display order.
    pub const ALL: [Term; 8] = [
        Term::Material,
        Term::Pst,
        Term::Mobility,
        Term::HorseLegs,
        Term::Cannons,
        Term::KingSafety,
        Term::Pawns,
        Term::Tempo,
    ];

    /// The term's name in the breakdown table.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Pst => "piece-square",
            Term::Mobility => "mobility",
            Term::HorseLegs => "horse legs",
            Term::Cannons => "cannon threats",
            Term::KingSafety => "king safety",
            Term::Pawns => "soldiers",
            Term::Tempo => "tempo",
        }
    }
}

/// Where the terms go: nowhere in the search, into a table for `chariot eval`.
trait Sink {
    /// Whether the sink keeps the terms apart (else only their sums matter).
    const SEPARATES: bool;

    fn add(&mut self, term: Term, color: Color, mg: i32, eg: i32);
}

struct NoTrace;

impl Sink for NoTrace {
    const SEPARATES: bool = false;

    #[inline(always)]
    fn add(&mut self, _: Term, _: Color, _: i32, _: i32) {}
}

/// The evaluation split into its terms (for `chariot eval`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Per term: (midgame, endgame) for Red and for Black, each from that side's view.
    pub terms: Vec<(Term, [(i32, i32); 2])>,
    /// The phase, 0 (bare endgame) to [`MAX_PHASE`].
    pub phase: i32,
    /// The draw scale applied to the blended score, in 1/16 (16 = none).
    pub scale: i32,
    /// The final evaluation from Red's view.
    pub red: i32,
    /// The final evaluation from the side to move's view (what [`evaluate`] returns).
    pub side_to_move: i32,
}

impl Sink for Breakdown {
    const SEPARATES: bool = true;

    fn add(&mut self, term: Term, color: Color, mg: i32, eg: i32) {
        let i = match self.terms.iter().position(|(t, _)| *t == term) {
            Some(i) => i,
            None => {
                self.terms.push((term, [(0, 0); 2]));
                self.terms.len() - 1
            }
        };
        let cell = &mut self.terms[i].1[color.index()];
        cell.0 += mg;
        cell.1 += eg;
    }
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>8} {:>8} {:>8} {:>8} {:>10}",
            "term", "red mg", "red eg", "black mg", "black eg", "red-black"
        )?;
        let blend =
            |mg: i32, eg: i32| (mg * self.phase + eg * (MAX_PHASE - self.phase)) / MAX_PHASE;
        for term in Term::ALL {
            let Some((_, [r, b])) = self.terms.iter().find(|(t, _)| *t == term) else {
                continue;
            };
            let net = blend(r.0 - b.0, r.1 - b.1);
            writeln!(
                f,
                "{:<16} {:>8} {:>8} {:>8} {:>8} {:>10}",
                term.name(),
                r.0,
                r.1,
                b.0,
                b.1,
                net
            )?;
        }
        writeln!(
            f,
            "phase {}/{}, draw scale {}/16",
            self.phase, MAX_PHASE, self.scale
        )?;
        writeln!(f, "evaluation (red): {}", self.red)?;
        write!(f, "evaluation (side to move): {}", self.side_to_move)
    }
}

/// The evaluation of `pos` from the side to move's view, in centipawns, with full knowledge.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &EvalConfig::FULL)
}

/// The evaluation of `pos` from the side to move's view under `config`.
#[must_use]
pub fn evaluate_with(pos: &Position, config: &EvalConfig) -> i32 {
    evaluate_incremental(pos, config, &Accumulator::new(pos))
}

/// [`evaluate_with`] given the position's [`Accumulator`], kept up to date move by move (the
/// search's way: it spares summing the piece-square tables at every node).
///
/// # Panics
/// In debug builds, when `acc` is not the accumulator of `pos`.
#[must_use]
#[inline]
pub fn evaluate_incremental(pos: &Position, config: &EvalConfig, acc: &Accumulator) -> i32 {
    debug_assert_eq!(*acc, Accumulator::new(pos), "stale accumulator for {pos}");
    // The lazy evaluation with a window nothing falls outside: one copy of the evaluation's
    // code serves both (`Evaluator::run` is left to the breakdown).
    let (v, exact) =
        Evaluator::new(pos, config, default_tables(), acc).lazy(-EVAL_BOUND, EVAL_BOUND);
    debug_assert!(exact);
    v
}

/// Beyond every evaluation (and every lazy bound of one).
const EVAL_BOUND: i32 = 1 << 24;

/// How far the terms beyond material, piece-square tables and tempo (mobility, horse legs,
/// soldiers, the general's safety) move the evaluation at most, for a lazy evaluation. Over the
/// positions of `chariot bench` they stay within 180 centipawns in 99.5% of the positions
/// evaluated and within 240 in 99.97% (docs/search.md, "Lazy evaluation").
pub const LAZY_MARGIN: i32 = 200;

/// [`evaluate_incremental`] when it may fall inside `(alpha, beta)`; otherwise a bound of it.
/// The quick part of the evaluation (material, piece-square tables and tempo, blended by phase
/// and scaled for drawish material the same way) comes first: the full evaluation is usually
/// within [`LAZY_MARGIN`] of it, so when the quick part is at least `beta + LAZY_MARGIN` the
/// result is `quick - LAZY_MARGIN`, when at most `alpha - LAZY_MARGIN` it is
/// `quick + LAZY_MARGIN`, and the flag is `false`. Otherwise the other terms are added to the
/// quick part's sums (nothing is computed twice) and the flag is `true`: the exact evaluation.
#[must_use]
#[inline]
pub fn evaluate_lazy(
    pos: &Position,
    config: &EvalConfig,
    acc: &Accumulator,
    alpha: i32,
    beta: i32,
) -> (i32, bool) {
    debug_assert_eq!(*acc, Accumulator::new(pos), "stale accumulator for {pos}");
    Evaluator::new(pos, config, default_tables(), acc).lazy(alpha, beta)
}

/// The evaluation with every term listed (the weights of [`Params::DEFAULT`]).
#[must_use]
pub fn breakdown(pos: &Position, config: &EvalConfig) -> Breakdown {
    let mut out = Breakdown {
        terms: Vec::new(),
        phase: 0,
        scale: 16,
        red: 0,
        side_to_move: 0,
    };
    let acc = Accumulator::new(pos);
    let v = Evaluator::new(pos, config, default_tables(), &acc).run(&mut out);
    out.side_to_move = v;
    out.red = if pos.turn() == Color::Red { v } else { -v };
    let (phase, scale) = phase_and_scale(pos, &out);
    out.phase = phase;
    out.scale = scale;
    out
}

fn phase_and_scale(pos: &Position, b: &Breakdown) -> (i32, i32) {
    let acc = Accumulator::new(pos);
    let phase = phase_of(&acc);
    let mut mg = 0;
    let mut eg = 0;
    for (_, [r, bl]) in &b.terms {
        mg += r.0 - bl.0;
        eg += r.1 - bl.1;
    }
    let blended = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    (phase, draw_scale(pos, &acc, blended))
}

/// The game phase from the chariots, horses and cannons on the board: [`MAX_PHASE`] at the
/// start, 0 when none are left.
#[must_use]
pub fn phase(pos: &Position) -> i32 {
    phase_of(&Accumulator::new(pos))
}

#[inline]
fn phase_of(acc: &Accumulator) -> i32 {
    let mut p = 0;
    for c in Color::ALL {
        p += PHASE_ROOK * acc.count_of(c, Kind::Chariot.index());
        p += PHASE_MINOR * acc.count_of(c, Kind::Horse.index());
        p += PHASE_MINOR * acc.count_of(c, Kind::Cannon.index());
    }
    p.min(MAX_PHASE)
}

/// Material plus piece-square values per piece and square, precomputed from [`Params`].
/// Indexed by the raw piece byte (`Piece::slot`), as the board holds it; the entries of the
/// bytes that are no piece are zero.
pub struct Tables {
    /// `psq[piece byte][sq]` = (material + pst) as (midgame, endgame).
    psq: [[(i32, i32); 90]; 16],
    /// `material[piece byte]` = (midgame, endgame).
    material: [(i32, i32); 16],
    params: Params,
}

impl Tables {
    /// The tables for a set of weights.
    #[must_use]
    pub fn new(params: &Params) -> Tables {
        let mut psq = [[(0, 0); 90]; 16];
        let mut materials = [(0, 0); 16];
        for color in Color::ALL {
            for kind in Kind::ALL {
                let piece = Piece::new(color, kind);
                let (mg, eg) = pst::tables(kind);
                let (vm, ve) = material(params, kind);
                materials[piece.slot()] = (vm, ve);
                for sq in Square::all() {
                    let i = pst::index(color, sq);
                    psq[piece.slot()][sq.index()] = (vm + mg[i], ve + eg[i]);
                }
            }
        }
        Tables {
            psq,
            material: materials,
            params: params.clone(),
        }
    }
}

fn default_tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables::new(&Params::DEFAULT))
}

fn material(p: &Params, kind: Kind) -> (i32, i32) {
    match kind {
        Kind::General => (0, 0),
        Kind::Advisor => (p.advisor_mg, p.advisor_eg),
        Kind::Elephant => (p.elephant_mg, p.elephant_eg),
        Kind::Horse => (p.horse_mg, p.horse_eg),
        Kind::Chariot => (p.rook_mg, p.rook_eg),
        Kind::Cannon => (p.cannon_mg, p.cannon_eg),
        Kind::Soldier => (p.pawn_mg, p.pawn_eg),
    }
}

/// The zone before each side's palace where enemy attackers count for king danger: files c..g,
/// the side's own ranks 0..3.
const fn king_zone(color: Color) -> u128 {
    let mut zone = 0u128;
    let mut sq = 0;
    while sq < 90 {
        let (file, rank) = (sq % 9, sq / 9);
        let own_rank = if color.is_red() { rank } else { 9 - rank };
        if file >= 2 && file <= 6 && own_rank <= 3 {
            zone |= 1 << sq;
        }
        sq += 1;
    }
    zone
}

/// The zones of both sides.
const ZONES: [u128; 2] = [king_zone(Color::Red), king_zone(Color::Black)];

/// `ZONE_OF[sq]`: bit `c` is set when `sq` lies in the zone of the side with index `c`.
const ZONE_OF: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = ((ZONES[0] >> sq) & 1) as u8 | (((ZONES[1] >> sq) & 1) as u8) << 1;
        sq += 1;
    }
    t
};

/// The index in [`Accumulator`]'s zone counts of a kind that counts as a zone attacker.
#[inline]
const fn zone_slot(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Chariot => Some(0),
        Kind::Horse => Some(1),
        Kind::Cannon => Some(2),
        Kind::Soldier => Some(3),
        _ => None,
    }
}

/// [`zone_slot`] by raw piece byte, [`NO_ZONE_SLOT`] for the other kinds and bytes.
const ZONE_SLOT: [u8; 16] = {
    let mut t = [NO_ZONE_SLOT; 16];
    let mut b = 0;
    while b < 16 {
        if let Some(p) = Piece::from_u8(b as u8)
            && let Some(slot) = zone_slot(p.kind())
        {
            t[b] = slot as u8;
        }
        b += 1;
    }
    t
};

/// See [`ZONE_SLOT`].
const NO_ZONE_SLOT: u8 = 4;

/// The points whose rank, counted from `color`'s side, lies in `lo..=hi`.
const fn relative_ranks(color: Color, lo: usize, hi: usize) -> u128 {
    let mut set = 0u128;
    let mut sq = 0;
    while sq < 90 {
        let rank = sq / 9;
        let own_rank = if color.is_red() { rank } else { 9 - rank };
        if own_rank >= lo && own_rank <= hi {
            set |= 1 << sq;
        }
        sq += 1;
    }
    set
}

/// Where a soldier can still attack: across the river but not on the last rank (relative ranks
/// 5..=8).
const ATTACKING_SOLDIERS: [u128; 2] = [
    relative_ranks(Color::Red, 5, 8),
    relative_ranks(Color::Black, 5, 8),
];

/// Where a side's soldier counts as at the enemy palace: relative ranks 6..=8, files d..f.
const NEAR_PALACE: [u128; 2] = {
    let mut sets = [0u128; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 90 {
            let (file, rank) = (sq % 9, sq / 9);
            let own_rank = if c == 0 { rank } else { 9 - rank };
            if own_rank >= 6 && own_rank <= 8 && file >= 3 && file <= 5 {
                sets[c] |= 1 << sq;
            }
            sq += 1;
        }
        c += 1;
    }
    sets
};

/// The number of squares in a set that usually holds none or a few (cheaper than a population
/// count on processors without one).
#[inline]
fn sparse_count(set: u128) -> i32 {
    let mut n = 0;
    for_each_square(set, |_| n += 1);
    n
}

/// Calls `f` with the index of every square of `set`, in increasing order. The two 64-bit halves
/// are walked one after the other, which is cheaper than 128-bit arithmetic per square.
#[inline(always)]
fn for_each_square(set: u128, mut f: impl FnMut(usize)) {
    let mut lo = set as u64;
    while lo != 0 {
        f(lo.trailing_zeros() as usize);
        lo &= lo - 1;
    }
    let mut hi = (set >> 64) as u64;
    while hi != 0 {
        f(64 + hi.trailing_zeros() as usize);
        hi &= hi - 1;
    }
}

/// The scale (in 1/16) for a position where the side ahead cannot attack: no chariot, horse,
/// cannon or soldier across the river means no mate is possible, whatever the material says.
#[inline]
fn draw_scale(pos: &Position, acc: &Accumulator, red_score: i32) -> i32 {
    let strong = if red_score > 0 {
        Color::Red
    } else {
        Color::Black
    };
    let pieces = acc.count_of(strong, Kind::Chariot.index())
        + acc.count_of(strong, Kind::Horse.index())
        + acc.count_of(strong, Kind::Cannon.index());
    let soldiers =
        pos.pieces(Piece::new(strong, Kind::Soldier)).0 & ATTACKING_SOLDIERS[strong.index()];
    if pieces == 0 && soldiers == 0 { 1 } else { 16 }
}

struct Evaluator<'a> {
    pos: &'a Position,
    config: &'a EvalConfig,
    tables: &'a Tables,
    acc: &'a Accumulator,
    mg: [i32; 2],
    eg: [i32; 2],
}

impl<'a> Evaluator<'a> {
    fn new(
        pos: &'a Position,
        config: &'a EvalConfig,
        tables: &'a Tables,
        acc: &'a Accumulator,
    ) -> Evaluator<'a> {
        Evaluator {
            pos,
            config,
            tables,
            acc,
            mg: [0; 2],
            eg: [0; 2],
        }
    }

    #[inline(always)]
    fn add<S: Sink>(&mut self, sink: &mut S, term: Term, color: Color, mg: i32, eg: i32) {
        self.mg[color.index()] += mg;
        self.eg[color.index()] += eg;
        sink.add(term, color, mg, eg);
    }

    /// See [`evaluate_lazy`]: the terms of [`Evaluator::run`] in another order (the sums are
    /// the same), finished once after the quick ones and, inside the window, again after all.
    #[inline(never)]
    fn lazy(mut self, alpha: i32, beta: i32) -> (i32, bool) {
        self.quick_terms(&mut NoTrace);
        let quick = self.finish();
        if quick - LAZY_MARGIN >= beta {
            return (quick - LAZY_MARGIN, false);
        }
        if quick + LAZY_MARGIN <= alpha {
            return (quick + LAZY_MARGIN, false);
        }
        self.other_terms(&mut NoTrace);
        (self.finish(), true)
    }

    /// Every term, each told to `sink` (for the breakdown; the search uses
    /// [`Evaluator::lazy`]).
    fn run<S: Sink>(mut self, sink: &mut S) -> i32 {
        self.quick_terms(sink);
        self.other_terms(sink);
        self.finish()
    }

    /// The quick part of the evaluation: material, piece-square tables and tempo (as the
    /// knowledge level has them).
    #[inline(always)]
    fn quick_terms<S: Sink>(&mut self, sink: &mut S) {
        let k = self.config.knowledge;
        self.material_and_pst(sink, k >= Level::Tiny);
        if k >= Level::Medium {
            let p = &self.tables.params;
            let (mg, eg) = (p.tempo_mg, p.tempo_eg);
            self.add(sink, Term::Tempo, self.pos.turn(), mg, eg);
        }
    }

    /// The rest: mobility, horse legs and soldiers, then the generals' safety (as the knowledge
    /// level has them).
    #[inline(always)]
    fn other_terms<S: Sink>(&mut self, sink: &mut S) {
        let k = self.config.knowledge;
        if k >= Level::Medium {
            for c in Color::ALL {
                self.pieces(sink, c);
                self.pawns(sink, c);
            }
        }
        if k >= Level::Large {
            for c in Color::ALL {
                self.king_safety(sink, c);
            }
        }
    }

    /// The blended and scaled score of the terms added so far, from the side to move's view.
    #[inline]
    fn finish(&self) -> i32 {
        let k = self.config.knowledge;
        let phase = phase_of(self.acc);
        let mg = self.mg[0] - self.mg[1];
        let eg = self.eg[0] - self.eg[1];
        let mut red = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
        if k >= Level::Large {
            red = red * draw_scale(self.pos, self.acc, red) / 16;
        }
        if self.pos.turn() == Color::Red {
            red
        } else {
            -red
        }
    }

    fn material_and_pst<S: Sink>(&mut self, sink: &mut S, with_pst: bool) {
        if with_pst && !S::SEPARATES {
            // Material and piece-square values together, as the accumulator keeps them.
            for c in Color::ALL {
                let (all_mg, all_eg) = self.acc.psq[c.index()];
                self.add(sink, Term::Pst, c, all_mg, all_eg);
            }
            return;
        }
        let material = self.acc.material(self.tables);
        for c in Color::ALL {
            let (mat_mg, mat_eg) = material[c.index()];
            let (all_mg, all_eg) = self.acc.psq[c.index()];
            self.add(sink, Term::Material, c, mat_mg, mat_eg);
            if with_pst {
                self.add(sink, Term::Pst, c, all_mg - mat_mg, all_eg - mat_eg);
            }
        }
    }

    /// Mobility of chariots, horses and cannons; blocked horse legs.
    ///
    /// Chariot and cannon mobility count the squares they attack along their lines (empty
    /// squares up to and including the first piece for a chariot; empty squares before the screen
    /// plus the piece behind it for a cannon), whatever the colour of the pieces hit: a guarded
    /// own piece is as much a sign of activity as a threatened enemy one. The counts come from
    /// [`LINES`], indexed by the occupancy of the piece's rank and file (which the position
    /// keeps), so a line costs two look-ups.
    #[inline(always)]
    fn pieces<S: Sink>(&mut self, sink: &mut S, c: Color) {
        let pos = self.pos;
        let board = pos.board();
        let own = (c as u8) << 3;
        let p = &self.tables.params;
        let set = |kind: Kind| pos.pieces(Piece::new(c, kind)).0;
        let mut rook_mob = 0;
        for_each_square(set(Kind::Chariot), |sq| rook_mob += LINES.counts(pos, sq).0);
        let mut cannon_mob = 0;
        for_each_square(set(Kind::Cannon), |sq| {
            cannon_mob += LINES.counts(pos, sq).1
        });
        let (mut horse_mob, mut blocked) = (0, 0);
        for_each_square(set(Kind::Horse), |sq| {
            let (m, b) = horse_mobility(board, sq, own);
            horse_mob += m;
            blocked += b;
        });
        let mg = rook_mob * p.rook_mobility_mg
            + horse_mob * p.horse_mobility_mg
            + cannon_mob * p.cannon_mobility_mg;
        let eg = rook_mob * p.rook_mobility_eg
            + horse_mob * p.horse_mobility_eg
            + cannon_mob * p.cannon_mobility_eg;
        self.add(sink, Term::Mobility, c, mg, eg);
        self.add(
            sink,
            Term::HorseLegs,
            c,
            blocked * p.horse_leg_blocked_mg,
            blocked * p.horse_leg_blocked_eg,
        );
    }

    /// Connected soldiers across the river; soldiers at a palace short of advisors.
    #[inline(always)]
    fn pawns<S: Sink>(&mut self, sink: &mut S, c: Color) {
        let pos = self.pos;
        let p = &self.tables.params;
        let pawns = pos.pieces(Piece::new(c, Kind::Soldier)).0;
        let enemy_advisors = self.acc.count_of(c.opponent(), Kind::Advisor.index());
        // Soldiers across the river with another soldier on the point to their right.
        let connected = sparse_count(pawns & ACROSS_RIVER[c.index()] & (pawns >> 1) & !FILE_I);
        let near_palace = sparse_count(pawns & NEAR_PALACE[c.index()]);
        let near = near_palace * (2 - enemy_advisors) * p.pawn_near_palace_eg;
        self.add(
            sink,
            Term::Pawns,
            c,
            connected * p.pawn_connected_mg,
            connected * p.pawn_connected_eg + near,
        );
    }

    /// Safety of `c`'s general: the enemy's cannons on its file, missing defenders against the
    /// enemy's force, and enemy attackers before the palace. Cannon threats are credited to the
    /// attacker (term `Cannons`), the rest is a penalty for the defender.
    #[inline(always)]
    fn king_safety<S: Sink>(&mut self, sink: &mut S, c: Color) {
        let pos = self.pos;
        let p = &self.tables.params;
        let them = c.opponent();
        let ksq = pos.king(c);
        let weight = if c == self.config.engine {
            self.config.own_king_weight
        } else {
            self.config.their_king_weight
        };

        // Cannons on the general's file, looking towards the enemy: only the first two pieces
        // there matter (an enemy cannon first is empty-headed, second has one screen).
        let (file, rank) = (usize::from(ksq.file()), u32::from(ksq.rank()));
        let enemy_cannon = Piece::new(them, Kind::Cannon).to_u8();
        let at = |r: u32| pos.board()[file + 9 * r as usize];
        let occupied = u32::from(pos.file_occupancy(file));
        let mut ahead = if c == Color::Red {
            occupied & !((2u32 << rank) - 1)
        } else {
            occupied & ((1u32 << rank) - 1)
        };
        // The nearest occupied rank ahead of the general, if any.
        let mut next = || {
            if ahead == 0 {
                return None;
            }
            let r = if c == Color::Red {
                let r = ahead.trailing_zeros();
                ahead &= ahead - 1;
                r
            } else {
                let r = 31 - ahead.leading_zeros();
                ahead ^= 1 << r;
                r
            };
            Some(r)
        };
        let threat = match next() {
            Some(r) if at(r) == enemy_cannon => Some((p.cannon_empty_mg, p.cannon_empty_eg)),
            Some(_) => match next() {
                Some(r) if at(r) == enemy_cannon => Some((p.cannon_screen_mg, p.cannon_screen_eg)),
                _ => None,
            },
            None => None,
        };
        if let Some((mg, eg)) = threat {
            self.add(
                sink,
                Term::Cannons,
                them,
                mg * weight / 100,
                eg * weight / 100,
            );
        }

        // The enemy's attacking force against missing defenders.
        let count = |kind: Kind, color: Color| self.acc.count_of(color, kind.index());
        let force =
            (2 * count(Kind::Chariot, them) + count(Kind::Horse, them) + count(Kind::Cannon, them))
                .min(8);
        let missing_a = 2 - count(Kind::Advisor, c).min(2);
        let missing_b = 2 - count(Kind::Elephant, c).min(2);
        let defence = (missing_a * p.missing_advisor + missing_b * p.missing_elephant) * force / 8;

        // Enemy attackers in the zone before the palace (counted move by move).
        let [r, h, cn, pw] = self.acc.zone[c.index()].map(i32::from);
        let attackers = r + h + cn + pw;
        let units = r * p.attack_unit_rook
            + h * p.attack_unit_horse
            + cn * p.attack_unit_cannon
            + pw * p.attack_unit_pawn;
        let danger = if attackers >= 2 {
            p.king_attack * units * units / 8
        } else {
            0
        };
        let penalty = (defence + danger) * weight / 100;
        self.add(sink, Term::KingSafety, c, -penalty, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::{Setup, Waivers};

    /// The position with colours swapped: the board turned upside down, pieces recoloured.
    fn color_flip(pos: &Position) -> Position {
        let setup = pos.to_setup();
        let mut out = Setup::empty();
        for sq in Square::all() {
            out.board[sq.flip().index()] =
                setup.board[sq.index()].map(|p| Piece::new(p.color().opponent(), p.kind()));
        }
        out.turn = setup.turn.opponent();
        Position::from_setup(&out, Waivers::ALL).unwrap()
    }

    const FENS: [&str; 4] = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R b - - 4 3",
        "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
        "3k5/9/9/9/9/9/9/9/4p4/5K3 w - - 0 1",
    ];

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let v = evaluate(&Position::start());
        assert_eq!(
            v,
            (Params::DEFAULT.tempo_mg),
            "start position evaluates to {v}"
        );
    }

    #[test]
    fn evaluation_is_colour_and_mirror_symmetric() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&color_flip(&pos)), "{fen}");
            assert_eq!(evaluate(&pos), evaluate(&pos.mirror()), "{fen}");
        }
    }

    #[test]
    fn lazy_evaluation_is_exact_inside_the_window_and_a_bound_outside() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let acc = Accumulator::new(&pos);
            let v = evaluate(&pos);
            let cfg = EvalConfig::FULL;
            assert_eq!(
                evaluate_lazy(&pos, &cfg, &acc, -30_000, 30_000),
                (v, true),
                "{fen}"
            );
            for (alpha, beta) in [(v - 1, v + 1), (v - 500, v - 499), (v + 499, v + 500)] {
                let (w, exact) = evaluate_lazy(&pos, &cfg, &acc, alpha, beta);
                // Exact, or a bound outside the window (the search's only use of it).
                if exact {
                    assert_eq!(w, v, "{fen}");
                } else {
                    assert!(w >= beta || w <= alpha, "{fen}: {w} in ({alpha}, {beta})");
                }
            }
        }
    }

    #[test]
    fn breakdown_agrees_with_evaluate() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let b = breakdown(&pos, &EvalConfig::FULL);
            assert_eq!(b.side_to_move, evaluate(&pos), "{fen}");
            assert!(b.to_string().contains("mobility"));
        }
    }

    #[test]
    fn material_only_knowledge_counts_material() {
        // Red has an extra chariot; with material only, the score is exactly its value.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let cfg = EvalConfig {
            knowledge: Level::None,
            ..EvalConfig::FULL
        };
        let v = evaluate_with(&pos, &cfg);
        let ph = phase(&pos);
        let p = Params::DEFAULT;
        assert_eq!(
            v,
            (p.rook_mg * ph + p.rook_eg * (MAX_PHASE - ph)) / MAX_PHASE
        );
    }

    #[test]
    fn lone_advisors_cannot_win() {
        // Red has two advisors more but nothing that can attack: scaled towards a draw.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
        assert!(evaluate(&pos).abs() < 40, "{}", evaluate(&pos));
    }

    #[test]
    fn cannons_on_the_generals_file_are_threats() {
        let cannons = |fen: &str| {
            let b = breakdown(&Position::from_fen(fen).unwrap(), &EvalConfig::FULL);
            b.terms
                .iter()
                .find(|(t, _)| *t == Term::Cannons)
                .map_or((0, 0), |(_, v)| v[0])
        };
        let p = Params::DEFAULT;
        // Nothing between the cannon on e2 and the general on e9: the empty-headed cannon.
        assert_eq!(
            cannons("4k4/9/9/9/9/9/9/4C4/9/3K5 w - - 0 1"),
            (p.cannon_empty_mg, p.cannon_empty_eg)
        );
        // One screen (the soldier on e5): a central cannon (and check).
        assert_eq!(
            cannons("4k4/9/9/9/4p4/9/9/4C4/9/3K5 b - - 0 1"),
            (p.cannon_screen_mg, p.cannon_screen_eg)
        );
        // Off the file: nothing.
        assert_eq!(cannons("4k4/9/9/9/9/9/9/3C5/9/3K5 w - - 0 1"), (0, 0));
    }
}
