//! A plain evaluation for tests: every term computed by walking the board, with none of the
//! shortcuts of the real one (incremental sums, occupancy masks, line tables, piece counts).
//! The real evaluation must agree with it exactly; see the test at the end.

use super::{EvalConfig, MAX_PHASE, PHASE_MINOR, PHASE_ROOK, Params, pst};
use crate::levels::Level;
use chariot_rules::tables::{DOWN, HORSE_STEPS, RAYS, UP};
use chariot_rules::{Color, Kind, Piece, Position, Square};

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

fn count(pos: &Position, color: Color, kind: Kind) -> i32 {
    Square::all()
        .filter(|&s| pos.piece_at(s) == Some(Piece::new(color, kind)))
        .count() as i32
}

fn squares(pos: &Position, color: Color, kind: Kind) -> Vec<Square> {
    Square::all()
        .filter(|&s| pos.piece_at(s) == Some(Piece::new(color, kind)))
        .collect()
}

/// Chariot and cannon attack counts along the four lines from `sq`.
fn line_mobility(pos: &Position, sq: Square) -> (i32, i32) {
    let (mut rook, mut cannon) = (0, 0);
    for ray in &RAYS[sq.index()] {
        let mut screen = false;
        for &s in &ray.sq[..ray.len as usize] {
            let occupied = pos.board()[s as usize] != 0;
            if !screen {
                rook += 1;
                if occupied {
                    screen = true;
                } else {
                    cannon += 1;
                }
            } else if occupied {
                cannon += 1;
                break;
            }
        }
    }
    (rook, cannon)
}

/// The evaluation of `pos` from the side to move's view, computed the slow, obvious way.
pub fn evaluate(pos: &Position, config: &EvalConfig) -> i32 {
    let p = &Params::DEFAULT;
    let k = config.knowledge;
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    for c in Color::ALL {
        let i = c.index();
        for kind in Kind::ALL {
            let (vm, ve) = material(p, kind);
            let (tm, te) = pst::tables(kind);
            for sq in squares(pos, c, kind) {
                mg[i] += vm;
                eg[i] += ve;
                if k >= Level::Tiny {
                    mg[i] += tm[pst::index(c, sq)];
                    eg[i] += te[pst::index(c, sq)];
                }
            }
        }
    }
    if k >= Level::Medium {
        for c in Color::ALL {
            let i = c.index();
            let (mut rook_mob, mut cannon_mob, mut horse_mob, mut blocked) = (0, 0, 0, 0);
            for sq in squares(pos, c, Kind::Chariot) {
                rook_mob += line_mobility(pos, sq).0;
            }
            for sq in squares(pos, c, Kind::Cannon) {
                cannon_mob += line_mobility(pos, sq).1;
            }
            for sq in squares(pos, c, Kind::Horse) {
                for (to, leg) in HORSE_STEPS[sq.index()].iter() {
                    let leg_free = pos.board()[leg] == 0;
                    let target = Piece::from_u8(pos.board()[to]);
                    blocked += i32::from(!leg_free);
                    horse_mob += i32::from(leg_free && target.is_none_or(|t| t.color() != c));
                }
            }
            mg[i] += rook_mob * p.rook_mobility_mg
                + horse_mob * p.horse_mobility_mg
                + cannon_mob * p.cannon_mobility_mg
                + blocked * p.horse_leg_blocked_mg;
            eg[i] += rook_mob * p.rook_mobility_eg
                + horse_mob * p.horse_mobility_eg
                + cannon_mob * p.cannon_mobility_eg
                + blocked * p.horse_leg_blocked_eg;

            let pawns = squares(pos, c, Kind::Soldier);
            let enemy_advisors = count(pos, c.opponent(), Kind::Advisor);
            let (mut connected, mut near_palace) = (0, 0);
            for &sq in &pawns {
                let rr = sq.relative_rank(c);
                if rr < 5 {
                    continue;
                }
                let right = Square::try_new(i32::from(sq.file()) + 1, i32::from(sq.rank()));
                if right.is_some_and(|r| pawns.contains(&r)) {
                    connected += 1;
                }
                if (6..=8).contains(&rr) && (3..=5).contains(&sq.file()) {
                    near_palace += 1;
                }
            }
            mg[i] += connected * p.pawn_connected_mg;
            eg[i] += connected * p.pawn_connected_eg
                + near_palace * (2 - enemy_advisors) * p.pawn_near_palace_eg;
        }
        let us = pos.turn().index();
        mg[us] += p.tempo_mg;
        eg[us] += p.tempo_eg;
    }
    if k >= Level::Large {
        for c in Color::ALL {
            let them = c.opponent();
            let weight = if c == config.engine {
                config.own_king_weight
            } else {
                config.their_king_weight
            };
            let ksq = pos.king(c);
            let dir = if c == Color::Red { UP } else { DOWN };
            let ray = &RAYS[ksq.index()][dir];
            let mut between = 0;
            for &s in &ray.sq[..ray.len as usize] {
                let Some(piece) = Piece::from_u8(pos.board()[s as usize]) else {
                    continue;
                };
                if piece == Piece::new(them, Kind::Cannon) {
                    let (cm, ce) = match between {
                        0 => (p.cannon_empty_mg, p.cannon_empty_eg),
                        1 => (p.cannon_screen_mg, p.cannon_screen_eg),
                        _ => (0, 0),
                    };
                    mg[them.index()] += cm * weight / 100;
                    eg[them.index()] += ce * weight / 100;
                    break;
                }
                between += 1;
                if between > 1 {
                    break;
                }
            }
            let force = (2 * count(pos, them, Kind::Chariot)
                + count(pos, them, Kind::Horse)
                + count(pos, them, Kind::Cannon))
            .min(8);
            let missing_a = 2 - count(pos, c, Kind::Advisor).min(2);
            let missing_b = 2 - count(pos, c, Kind::Elephant).min(2);
            let defence =
                (missing_a * p.missing_advisor + missing_b * p.missing_elephant) * force / 8;
            let in_zone = |kind: Kind| {
                squares(pos, them, kind)
                    .iter()
                    .filter(|s| (2..=6).contains(&s.file()) && s.relative_rank(c) <= 3)
                    .count() as i32
            };
            let (r, h, cn, pw) = (
                in_zone(Kind::Chariot),
                in_zone(Kind::Horse),
                in_zone(Kind::Cannon),
                in_zone(Kind::Soldier),
            );
            let units = r * p.attack_unit_rook
                + h * p.attack_unit_horse
                + cn * p.attack_unit_cannon
                + pw * p.attack_unit_pawn;
            let danger = if r + h + cn + pw >= 2 {
                p.king_attack * units * units / 8
            } else {
                0
            };
            mg[c.index()] -= (defence + danger) * weight / 100;
        }
    }
    let mut phase = 0;
    for c in Color::ALL {
        phase += PHASE_ROOK * count(pos, c, Kind::Chariot)
            + PHASE_MINOR * (count(pos, c, Kind::Horse) + count(pos, c, Kind::Cannon));
    }
    let phase = phase.min(MAX_PHASE);
    let mut red = ((mg[0] - mg[1]) * phase + (eg[0] - eg[1]) * (MAX_PHASE - phase)) / MAX_PHASE;
    if k >= Level::Large {
        let strong = if red > 0 { Color::Red } else { Color::Black };
        let attackers = count(pos, strong, Kind::Chariot)
            + count(pos, strong, Kind::Horse)
            + count(pos, strong, Kind::Cannon)
            + squares(pos, strong, Kind::Soldier)
                .iter()
                .filter(|s| (5..=8).contains(&s.relative_rank(strong)))
                .count() as i32;
        if attackers == 0 {
            red /= 16;
        }
    }
    if pos.turn() == Color::Red { red } else { -red }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::Style;
    use crate::{Accumulator, evaluate_incremental, evaluate_with};
    use chariot_rules::START_FEN;
    use chariot_rules::testing::Rng;

    /// The evaluation agrees with the plain one at every position of random games, for every
    /// knowledge level and style, from both sides' view.
    #[test]
    fn fast_evaluation_equals_the_plain_one() {
        let roots = [
            START_FEN,
            "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "3ak1b2/2n1a4/8b/4P4/9/2B3R2/9/9/5K3/3A1AB2 w - - 5 70",
        ];
        let levels = [Level::None, Level::Small, Level::Medium, Level::Large];
        let styles = [Style::Solid, Style::Normal, Style::Risky];
        let mut rng = Rng::seeded(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for fen in roots {
            for _ in 0..12 {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut acc = Accumulator::new(&pos);
                for ply in 0..160 {
                    let k = levels[ply % levels.len()];
                    let style = styles[ply % styles.len()];
                    let engine = Color::ALL[ply / 7 % 2];
                    let config = EvalConfig::new(k, style, engine);
                    let expected = evaluate(&pos, &config);
                    assert_eq!(evaluate_with(&pos, &config), expected, "{pos} {config:?}");
                    assert_eq!(evaluate_incremental(&pos, &config, &acc), expected);
                    checked += 1;
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.next_u64() as usize % moves.len()];
                    acc = acc.after_move(&pos, m);
                    pos.make_move(m);
                }
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
