//! Opening names composed from the players' terms: Red's system, then Black's defence
//! (`中炮过河车对屏风马两头蛇`, "Central Cannon, River-Crossing Chariot vs Screen Horses,
//! Two-Headed Snake"). No table of names: each [`Term`] is recognised from the moves of the
//! line, by the rules below (`docs/openings.md` lists them with their moves).
//!
//! A line is first turned so that the first move off the central file starts on the right
//! half of the board (files e to i), as ECCO writes its lines (炮二平五 rather than 炮八平五),
//! so that "left" and "right" mean the same in a line and its mirror image. Terms are looked
//! for in the first [`NAME_PLIES`] plies only: the opening, not the middlegame.
//!
//! - **Red's first move** names the opening: a cannon to the centre 中炮; to the far palace
//!   corner 过宫炮, the near one 士角炮, the far third file 金钩炮, the near one 兵底炮, the edge
//!   边炮局; a cannon two ranks up 巡河炮局, three or four (across the river) 过河炮局 (a
//!   capture names none); an elephant to the centre
//!   飞相局, to the edge 边相局; the third or seventh pawn 仙人指路, the central one 中兵局, an
//!   edge one 边兵局; a horse to the third or seventh file 起马局, to the edge 边马局; an advisor
//!   上仕局; a chariot 横车局.
//! - **Black's first reply** to an opening other than the central cannon is named the same
//!   way (中炮, 过宫炮, 士角炮, 金钩炮, 卒底炮 for a cannon moved one file onto the third or
//!   seventh file, 边炮, 巡河炮, 起马, 边马, 飞象, 挺卒, 上士, 横车). Against the pawn opening, the
//!   pawn that mirrors Red's (卒７进１ against 兵七进一) within Black's first two moves is 对兵局.
//! - **Against the central cannon**, Black's defence is the first of these that forms within
//!   Black's first four moves: a cannon to the centre (顺炮 from the side Red's came from, 列炮
//!   from the other; 后补顺炮 and 后补列炮 after the first move); both horses on their third
//!   and seventh files 屏风马, or 反宫马 with a cannon at a palace corner between them; a horse
//!   on the third (seventh) file with the other on the far edge 单提马; a horse with a cannon on
//!   the palace corner across from it 反宫马; a cannon to its edge beside its horse 三步虎; a
//!   cannon four ranks up onto the file of Red's chariot 左炮封车 (右炮封车). A 三步虎 or 炮封车
//!   followed by a cannon to the centre within Black's first six moves adds 转列炮. Without a
//!   defence after four moves, a first move of a horse is 进左马 or 进右马.
//! - **Red's system** against a defence: the other cannon to the seventh file 五七炮, the sixth
//!   五六炮, the ninth 五九炮, four ranks up 五八炮, two ranks up 巡河炮; the first chariot
//!   developed, to the horse's file 直车 or one rank up 横车, and when it goes on to Red's river
//!   bank 巡河车 or across the river 过河车. Same-direction cannons name both chariots as they
//!   come out in the first three moves each (直车, 横车; 缓开车 when none came out).
//! - **Black's variation** of the screen horses: the first of a cannon to the edge off a file
//!   where Red's chariot stands 平炮兑车, the left (right) horse to the river 左马盘河
//!   (右马盘河), both third and seventh pawns advanced 两头蛇.

use chariot_rules::{Color, Kind, Move, Position, Square};

use super::Family;

/// Terms are recognised in this many plies of a line.
pub const NAME_PLIES: usize = 16;
/// The last ply (from 0) at which Black's defence against the central cannon can form: Black's
/// fourth move.
const DEFENCE_LAST: usize = 7;
/// The last ply at which a 三步虎 or 炮封车 turns into opposite cannons: Black's sixth move.
const SWITCH_LAST: usize = 11;
/// Same-direction cannons: Red's chariot counts by Red's third move, Black's by Black's third.
const CHARIOT_RED_LAST: usize = 4;
const CHARIOT_BLACK_LAST: usize = 5;
/// The mutual pawns: Black's pawn by Black's second move.
const PAWNS_LAST: usize = 3;

/// Declares the terms with their words, each variant documented by them.
macro_rules! terms {
    ($($term:ident => $zh:literal, $en:literal;)*) => {
        /// One term of an opening's name, in Chinese and English.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Term {
            $(#[doc = concat!($zh, " (", $en, ")")] $term,)*
        }

        impl Term {
            /// The words: simplified Chinese and English.
            #[must_use]
            pub const fn words(self) -> (&'static str, &'static str) {
                match self {
                    $(Term::$term => ($zh, $en),)*
                }
            }
        }
    };
}

terms! {
    CentralCannon => "中炮", "Central Cannon";
    PalaceCannon => "过宫炮", "Palace-Crossing Cannon";
    AdvisorCannon => "士角炮", "Advisor-Corner Cannon";
    GoldenHookCannon => "金钩炮", "Golden-Hook Cannon";
    RedPawnCannon => "兵底炮", "Cannon Behind the Pawn";
    BlackPawnCannon => "卒底炮", "Cannon Behind the Pawn";
    EdgeCannonOpening => "边炮局", "Edge Cannon Opening";
    EdgeCannon => "边炮", "Edge Cannon";
    RiverCannonOpening => "巡河炮局", "River-Patrol Cannon Opening";
    RiverCannon => "巡河炮", "River-Patrol Cannon";
    CrossingCannonOpening => "过河炮局", "River-Crossing Cannon Opening";
    ElephantOpening => "飞相局", "Elephant Opening";
    EdgeElephantOpening => "边相局", "Edge Elephant Opening";
    Elephant => "飞象", "Elephant";
    PawnOpening => "仙人指路", "Pawn Opening";
    MutualPawns => "对兵局", "Mutual Pawns Opening";
    CentralPawnOpening => "中兵局", "Central Pawn Opening";
    EdgePawnOpening => "边兵局", "Edge Pawn Opening";
    PawnAdvance => "挺卒", "Pawn Advance";
    HorseOpening => "起马局", "Horse Opening";
    Horse => "起马", "Horse";
    EdgeHorseOpening => "边马局", "Edge Horse Opening";
    EdgeHorse => "边马", "Edge Horse";
    AdvisorOpening => "上仕局", "Advisor Opening";
    Advisor => "上士", "Advisor";
    ChariotOpening => "横车局", "Horizontal Chariot Opening";
    FiveSeven => "五七炮", "Five-Seven Cannons";
    FiveSix => "五六炮", "Five-Six Cannons";
    FiveEight => "五八炮", "Five-Eight Cannons";
    FiveNine => "五九炮", "Five-Nine Cannons";
    StraightChariot => "直车", "Straight Chariot";
    HorizontalChariot => "横车", "Horizontal Chariot";
    RiverChariot => "巡河车", "River-Patrol Chariot";
    CrossingChariot => "过河车", "River-Crossing Chariot";
    DelayedChariot => "缓开车", "Delayed Chariot";
    SameCannons => "顺炮", "Same-Direction Cannons";
    OppositeCannons => "列炮", "Opposite-Direction Cannons";
    LateSameCannon => "后补顺炮", "Delayed Same-Direction Cannon";
    LateOppositeCannon => "后补列炮", "Delayed Opposite-Direction Cannon";
    ScreenHorses => "屏风马", "Screen Horses";
    ReversePalaceHorses => "反宫马", "Reverse Palace Horses";
    SingleHorse => "单提马", "Single Lifted Horse";
    ThreeStepTiger => "三步虎", "Three-Step Tiger";
    LeftCannonBlocks => "左炮封车", "Left Cannon Blocking the Chariot";
    RightCannonBlocks => "右炮封车", "Right Cannon Blocking the Chariot";
    ThenOppositeCannons => "转列炮", "then Opposite-Direction Cannons";
    LeftHorse => "进左马", "Left Horse";
    RightHorse => "进右马", "Right Horse";
    CannonExchange => "平炮兑车", "Cannon Shift for Chariot Exchange";
    TwoHeadedSnake => "两头蛇", "Two-Headed Snake";
    LeftHorseRiver => "左马盘河", "Left Horse to the River";
    RightHorseRiver => "右马盘河", "Right Horse to the River";
}

/// An opening's name: Red's terms, then Black's (after 对, "vs"), and the ECCO family it
/// belongs to by its terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningName {
    red: Vec<Term>,
    black: Vec<Term>,
}

impl OpeningName {
    /// Red's terms (the opening and Red's system).
    #[must_use]
    pub fn red(&self) -> &[Term] {
        &self.red
    }

    /// Black's terms (the reply or defence and its variation); empty when none is known yet.
    #[must_use]
    pub fn black(&self) -> &[Term] {
        &self.black
    }

    /// The name in Chinese: `中炮过河车对屏风马`.
    #[must_use]
    pub fn zh(&self) -> String {
        let part = |terms: &[Term]| terms.iter().map(|t| t.words().0).collect::<String>();
        if self.black.is_empty() {
            part(&self.red)
        } else {
            format!("{}对{}", part(&self.red), part(&self.black))
        }
    }

    /// The name in English: "Central Cannon, River-Crossing Chariot vs Screen Horses".
    #[must_use]
    pub fn en(&self) -> String {
        let part = |terms: &[Term]| {
            terms
                .iter()
                .map(|t| t.words().1)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if self.black.is_empty() {
            part(&self.red)
        } else {
            format!("{} vs {}", part(&self.red), part(&self.black))
        }
    }

    /// The ECCO family the terms belong to: the central cannon against a central cannon D,
    /// against the screen horses C, against anything else B; the pawn opening E; the rest A.
    #[must_use]
    pub fn family(&self) -> Family {
        let all = || self.red.iter().chain(&self.black);
        let central = matches!(
            self.red.first(),
            Some(
                Term::CentralCannon
                    | Term::FiveSeven
                    | Term::FiveSix
                    | Term::FiveEight
                    | Term::FiveNine
                    | Term::SameCannons
                    | Term::OppositeCannons
            )
        );
        if central {
            if all().any(|t| {
                matches!(
                    t,
                    Term::SameCannons
                        | Term::OppositeCannons
                        | Term::LateSameCannon
                        | Term::LateOppositeCannon
                        | Term::ThenOppositeCannons
                )
            }) {
                Family::D
            } else if self.black.contains(&Term::ScreenHorses) {
                Family::C
            } else {
                Family::B
            }
        } else if matches!(
            self.red.first(),
            Some(Term::PawnOpening | Term::MutualPawns)
        ) {
            Family::E
        } else {
            Family::A
        }
    }
}

/// A square by file (0 = a) and rank (0 = Red's back rank).
fn at(file: u8, rank: u8) -> Square {
    Square::new(file, rank)
}

/// The piece of `color` and `kind` stands on `sq`.
fn holds(pos: &Position, sq: Square, color: Color, kind: Kind) -> bool {
    pos.piece_at(sq)
        .is_some_and(|p| p.color() == color && p.kind() == kind)
}

/// The name of the opening of `moves` played from the usual start, `None` when the first move
/// names none (a general's move) or there is no move. Moves after the first that is not legal
/// are ignored.
#[must_use]
pub fn name_line(moves: &[Move]) -> Option<OpeningName> {
    let mut moves: Vec<Move> = moves.iter().copied().take(NAME_PLIES).collect();
    // Turn the line so that its first move off the central file starts on the right half.
    let off_centre = moves
        .iter()
        .find(|m| !(m.from().file() == 4 && m.to().file() == 4));
    if off_centre.is_some_and(|m| m.from().file() < 4) {
        for m in &mut moves {
            *m = m.mirror();
        }
    }
    // The positions before each move, as far as the moves are legal.
    let mut positions = vec![Position::start()];
    for &m in &moves {
        let pos = positions.last().expect("one position at least");
        if !pos.is_legal(m) {
            break;
        }
        let mut next = pos.clone();
        next.make_move(m);
        positions.push(next);
    }
    moves.truncate(positions.len() - 1);
    let first = *moves.first()?;
    let opening = red_opening(&positions[0], first)?;
    if opening == Term::CentralCannon {
        return Some(central(&moves, &positions));
    }
    if opening == Term::PawnOpening {
        let red_file = first.from().file();
        let mutual = (1..moves.len().min(PAWNS_LAST + 1)).step_by(2).any(|ply| {
            let m = moves[ply];
            holds(&positions[ply], m.from(), Color::Black, Kind::Soldier)
                && m.from().file() == 8 - red_file
        });
        if mutual {
            return Some(OpeningName {
                red: vec![Term::MutualPawns],
                black: Vec::new(),
            });
        }
    }
    let black = moves
        .get(1)
        .and_then(|&m| black_reply(&positions[1], m))
        .into_iter()
        .collect();
    Some(OpeningName {
        red: vec![opening],
        black,
    })
}

/// The opening Red's first move `m` makes (the line turned to the right half).
fn red_opening(pos: &Position, m: Move) -> Option<Term> {
    let (from, to) = (m.from(), m.to());
    let kind = pos.piece_at(from)?.kind();
    let (f1, r1, f2, r2) = (from.file(), from.rank(), to.file(), to.rank());
    Some(match kind {
        Kind::Cannon if r1 == r2 => match f2 {
            4 => Term::CentralCannon,
            3 => Term::PalaceCannon,
            5 => Term::AdvisorCannon,
            2 => Term::GoldenHookCannon,
            6 => Term::RedPawnCannon,
            8 => Term::EdgeCannonOpening,
            _ => return None,
        },
        Kind::Cannon if f1 == f2 && r2 == r1 + 2 => Term::RiverCannonOpening,
        Kind::Cannon if f1 == f2 && (r1 + 3..=r1 + 4).contains(&r2) => Term::CrossingCannonOpening,
        Kind::Elephant if f2 == 4 => Term::ElephantOpening,
        Kind::Elephant => Term::EdgeElephantOpening,
        Kind::Soldier if f1 == 2 || f1 == 6 => Term::PawnOpening,
        Kind::Soldier if f1 == 4 => Term::CentralPawnOpening,
        Kind::Soldier => Term::EdgePawnOpening,
        Kind::Horse if f2 == 2 || f2 == 6 => Term::HorseOpening,
        Kind::Horse => Term::EdgeHorseOpening,
        Kind::Advisor => Term::AdvisorOpening,
        Kind::Chariot => Term::ChariotOpening,
        Kind::Cannon | Kind::General => return None,
    })
}

/// Black's first reply `m` to an opening other than the central cannon.
fn black_reply(pos: &Position, m: Move) -> Option<Term> {
    let (from, to) = (m.from(), m.to());
    let kind = pos.piece_at(from)?.kind();
    let (f1, r1, f2, r2) = (from.file(), from.rank(), to.file(), to.rank());
    let crosses = (f1 < 4) != (f2 < 4);
    Some(match kind {
        Kind::Cannon if r1 == r2 => match f2 {
            4 => Term::CentralCannon,
            3 | 5 if crosses => Term::PalaceCannon,
            3 | 5 => Term::AdvisorCannon,
            2 | 6 if crosses => Term::GoldenHookCannon,
            2 | 6 => Term::BlackPawnCannon,
            0 | 8 => Term::EdgeCannon,
            _ => return None,
        },
        Kind::Cannon if f1 == f2 && r2 + 2 == r1 => Term::RiverCannon,
        Kind::Horse if f2 == 2 || f2 == 6 => Term::Horse,
        Kind::Horse => Term::EdgeHorse,
        Kind::Elephant => Term::Elephant,
        Kind::Soldier if f1 == 2 || f1 == 6 => Term::PawnAdvance,
        Kind::Advisor => Term::Advisor,
        Kind::Chariot if r1 != r2 => Term::HorizontalChariot,
        _ => return None,
    })
}

/// Black's defence against the central cannon, as it forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defence {
    Same,
    Opposite,
    LateSame,
    LateOpposite,
    Screen,
    ReversePalace,
    Single,
    Tiger,
    CannonBlocks { left: bool },
}

/// The name of a central-cannon line (turned so that Red's cannon came from file h).
fn central(moves: &[Move], positions: &[Position]) -> OpeningName {
    let mut defence: Option<Defence> = None;
    let mut switched = false;
    let mut variation: Option<Term> = None;
    let mut system: Option<Term> = None;
    // Red's first chariot out: its development, its advance and where it stands.
    let mut developed: Option<Term> = None;
    let mut advanced: Option<Term> = None;
    let mut chariot_at: Option<Square> = None;
    // Same-direction cannons: each side's first chariot move in its first three moves.
    let mut red_chariot: Option<Term> = None;
    let mut black_chariot: Option<Term> = None;

    for (ply, &m) in moves.iter().enumerate() {
        let (before, after) = (&positions[ply], &positions[ply + 1]);
        let Some(piece) = before.piece_at(m.from()) else {
            continue;
        };
        let (f1, r1, f2, r2) = (
            m.from().file(),
            m.from().rank(),
            m.to().file(),
            m.to().rank(),
        );
        let kind = piece.kind();
        if ply % 2 == 0 {
            if kind == Kind::Cannon && (f1, r1) == (1, 2) && system.is_none() {
                system = match (f2, r2) {
                    (2, 2) => Some(Term::FiveSeven),
                    (3, 2) => Some(Term::FiveSix),
                    (0, 2) => Some(Term::FiveNine),
                    (1, 4) => Some(Term::RiverCannon),
                    (1, 6) => Some(Term::FiveEight),
                    _ => None,
                };
            }
            if kind == Kind::Chariot {
                if red_chariot.is_none() && ply <= CHARIOT_RED_LAST {
                    red_chariot = chariot_development(r1, r2, 1);
                }
                if chariot_at.is_none() && r1 == 0 {
                    match r2 {
                        0 => developed = Some(Term::StraightChariot),
                        1 => developed = Some(Term::HorizontalChariot),
                        _ => advanced = chariot_advance(r2),
                    }
                    chariot_at = Some(m.to());
                } else if chariot_at == Some(m.from()) {
                    if advanced.is_none() && f1 == f2 && r2 > r1 {
                        advanced = chariot_advance(r2);
                    }
                    chariot_at = Some(m.to());
                }
            }
            continue;
        }
        if kind == Kind::Chariot && black_chariot.is_none() && ply <= CHARIOT_BLACK_LAST {
            black_chariot = chariot_development(9 - r1, 9 - r2, 1);
        }
        let central_cannon = kind == Kind::Cannon && r1 == 7 && r2 == 7 && f2 == 4;
        match defence {
            None if ply <= DEFENCE_LAST => {
                defence = black_defence(after, m, kind, central_cannon, ply);
            }
            Some(Defence::Tiger | Defence::CannonBlocks { .. })
                if ply <= SWITCH_LAST && central_cannon && !switched =>
            {
                switched = true;
            }
            Some(Defence::Screen) if variation.is_none() => {
                variation = screen_variation(after, m, kind);
            }
            _ => {}
        }
    }

    match defence {
        Some(Defence::Same) => {
            let mut red = vec![Term::SameCannons];
            let mut black = Vec::new();
            if let Some(t) = red_chariot {
                red.push(t);
            } else if moves.len() > CHARIOT_RED_LAST {
                red.push(Term::DelayedChariot);
            }
            if let Some(t) = black_chariot {
                black.push(t);
            } else if moves.len() > CHARIOT_BLACK_LAST {
                black.push(Term::DelayedChariot);
            }
            return OpeningName { red, black };
        }
        Some(Defence::Opposite) => {
            return OpeningName {
                red: vec![Term::OppositeCannons],
                black: Vec::new(),
            };
        }
        _ => {}
    }
    let mut red = match system {
        Some(Term::RiverCannon) => vec![Term::CentralCannon, Term::RiverCannon],
        Some(t) => vec![t],
        None => vec![Term::CentralCannon],
    };
    red.extend(advanced.or(developed));
    let black = match defence {
        None => match moves.get(1).map(|m| (m.from(), m.to())) {
            Some((from, to))
                if moves.len() > DEFENCE_LAST && from == at(7, 9) && to == at(6, 7) =>
            {
                vec![Term::LeftHorse]
            }
            Some((from, to))
                if moves.len() > DEFENCE_LAST && from == at(1, 9) && to == at(2, 7) =>
            {
                vec![Term::RightHorse]
            }
            _ => Vec::new(),
        },
        Some(d) => {
            let mut terms = vec![match d {
                Defence::LateSame => Term::LateSameCannon,
                Defence::LateOpposite => Term::LateOppositeCannon,
                Defence::Screen => Term::ScreenHorses,
                Defence::ReversePalace => Term::ReversePalaceHorses,
                Defence::Single => Term::SingleHorse,
                Defence::Tiger => Term::ThreeStepTiger,
                Defence::CannonBlocks { left: true } => Term::LeftCannonBlocks,
                Defence::CannonBlocks { left: false } => Term::RightCannonBlocks,
                // Named above.
                Defence::Same | Defence::Opposite => Term::SameCannons,
            }];
            if switched {
                terms.push(Term::ThenOppositeCannons);
            }
            terms.extend(variation);
            terms
        }
    };
    OpeningName { red, black }
}

/// A chariot's first move from its home rank, by the ranks it left and reached counted from
/// its own side: along the home rank 直车, `step` up 横车.
fn chariot_development(r1: u8, r2: u8, step: u8) -> Option<Term> {
    if r2 == r1 {
        Some(Term::StraightChariot)
    } else if r2 == r1 + step {
        Some(Term::HorizontalChariot)
    } else {
        None
    }
}

/// A Red chariot arriving on rank `r2`: Red's river bank 巡河车, across the river 过河车.
fn chariot_advance(r2: u8) -> Option<Term> {
    match r2 {
        4 => Some(Term::RiverChariot),
        5.. => Some(Term::CrossingChariot),
        _ => None,
    }
}

/// The defence Black's move `m` (of a `kind` piece, at `ply`) completes, if any; `after` is the
/// position it reached.
fn black_defence(
    after: &Position,
    m: Move,
    kind: Kind,
    central_cannon: bool,
    ply: usize,
) -> Option<Defence> {
    let (f1, r1, f2, r2) = (
        m.from().file(),
        m.from().rank(),
        m.to().file(),
        m.to().rank(),
    );
    let horse = |f| holds(after, at(f, 7), Color::Black, Kind::Horse);
    let cannon = |f| holds(after, at(f, 7), Color::Black, Kind::Cannon);
    if central_cannon {
        // Red's central cannon came from file h: a cannon from the same half is the same
        // direction.
        let same = f1 >= 4;
        return Some(match (ply == 1, same) {
            (true, true) => Defence::Same,
            (true, false) => Defence::Opposite,
            (false, true) => Defence::LateSame,
            (false, false) => Defence::LateOpposite,
        });
    }
    if horse(2) && horse(6) {
        return Some(if cannon(3) || cannon(5) {
            Defence::ReversePalace
        } else {
            Defence::Screen
        });
    }
    if (horse(2) && horse(8)) || (horse(6) && horse(0)) {
        return Some(Defence::Single);
    }
    if (horse(2) && cannon(5)) || (horse(6) && cannon(3)) {
        return Some(Defence::ReversePalace);
    }
    if kind == Kind::Cannon
        && r1 == 7
        && r2 == 7
        && (((f1, f2) == (7, 8) && horse(6)) || ((f1, f2) == (1, 0) && horse(2)))
    {
        return Some(Defence::Tiger);
    }
    if kind == Kind::Cannon
        && f1 == f2
        && r1 == 7
        && r2 == 3
        && (0..3).any(|r| holds(after, at(f1, r), Color::Red, Kind::Chariot))
    {
        return Some(Defence::CannonBlocks { left: f1 >= 4 });
    }
    None
}

/// The variation of the screen horses Black's move `m` makes, if any.
fn screen_variation(after: &Position, m: Move, kind: Kind) -> Option<Term> {
    let (f1, r1, f2, r2) = (
        m.from().file(),
        m.from().rank(),
        m.to().file(),
        m.to().rank(),
    );
    match kind {
        Kind::Cannon
            if r1 == 7
                && r2 == 7
                && matches!((f1, f2), (7, 8) | (1, 0))
                && (0..10).any(|r| holds(after, at(f1, r), Color::Red, Kind::Chariot)) =>
        {
            Some(Term::CannonExchange)
        }
        Kind::Horse if (f1, r1, f2, r2) == (6, 7, 5, 5) => Some(Term::LeftHorseRiver),
        Kind::Horse if (f1, r1, f2, r2) == (2, 7, 3, 5) => Some(Term::RightHorseRiver),
        Kind::Soldier
            if r1 == 6
                && (f1 == 2 || f1 == 6)
                && holds(after, at(8 - f1, 5), Color::Black, Kind::Soldier) =>
        {
            Some(Term::TwoHeadedSnake)
        }
        _ => None,
    }
}
