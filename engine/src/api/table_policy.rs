//! When and how the engine plays from its endgame tables.
//!
//! When the tables cover the position, a won position is played by the quickest mate and a lost
//! one by the longest defence, answered at once with the distance; where only distance-to-
//! conversion tables are open, by the quickest conversion and the longest resistance to it
//! (which wins too: the distance falls with every move until a capture or soldier's move, and
//! those cannot repeat); a position won by the perpetual-check rule is played by the rule's
//! plan. In a drawn position the tables do not say
//! which draw is most promising, so the search chooses, among the drawing moves only. Banned
//! moves and `searchmoves` are never played.

use chariot_formats::egtb::{Metric, ProbeError, Tablebases, Value};
use chariot_rules::{Move, Position};

/// How many plies of the table's line after the chosen move are reported as its PV.
const LINE_PLIES: usize = 24;

/// What the tables decide for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableDecision {
    /// The tables do not cover the position (or every allowed move is banned).
    NotCovered,
    /// Play this move: the position is won or lost (by mate or by the rule).
    Play {
        /// The move.
        best: Move,
        /// Its value for the side to move.
        value: Value,
        /// What the value's distance counts.
        metric: Metric,
        /// The move and the table's line after it.
        line: Vec<Move>,
    },
    /// The position is drawn: search, but only among these moves.
    SearchAmong(Vec<Move>),
}

/// Decides `pos` by the tables.
///
/// # Errors
/// A table that cannot be read (a damaged block): the caller searches instead and says why.
pub fn decide(
    tables: &Tablebases,
    pos: &Position,
    banmoves: &[Move],
    searchmoves: &[Move],
) -> Result<TableDecision, ProbeError> {
    let Some((metric, values)) = tables.move_values_with_metric(pos)? else {
        return Ok(TableDecision::NotCovered);
    };
    let allowed: Vec<(Move, Value)> = values
        .into_iter()
        .filter(|(m, _)| !banmoves.contains(m))
        .filter(|(m, _)| searchmoves.is_empty() || searchmoves.contains(m))
        .collect();
    // The first of the best keeps the choice deterministic; wins by the perpetual-check rule
    // are played by the rule's plan (`Tablebases::choose`).
    let Some((best, value)) = tables.choose(pos, &allowed)? else {
        return Ok(TableDecision::NotCovered);
    };
    if value == Value::Draw {
        return Ok(TableDecision::SearchAmong(
            allowed
                .iter()
                .filter(|(_, v)| *v == Value::Draw)
                .map(|(m, _)| *m)
                .collect(),
        ));
    }
    let mut after = pos.clone();
    after.make_move(best);
    let mut line = vec![best];
    line.extend(tables.line(&after, LINE_PLIES).unwrap_or_default());
    Ok(TableDecision::Play {
        best,
        value,
        metric,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_iccs;

    fn tables() -> Tablebases {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
        Tablebases::open(&[dir]).unwrap()
    }

    fn mv(s: &str) -> Move {
        parse_iccs(s).unwrap()
    }

    #[test]
    fn a_won_position_is_played_by_the_quickest_mate_and_a_ban_is_honoured() {
        let t = tables();
        // Red's chariot mates on e8 or d1... whichever the table finds quickest: one ply.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1").unwrap();
        let TableDecision::Play {
            best,
            value,
            metric,
            line,
        } = decide(&t, &pos, &[], &[]).unwrap()
        else {
            panic!("a won position is played");
        };
        assert_eq!((value, metric), (Value::Win(1), Metric::Dtm));
        assert_eq!(line[0], best);
        // With the mating moves banned, the next quickest win is played instead.
        let mates: Vec<Move> = t
            .move_values(&pos)
            .unwrap()
            .unwrap()
            .into_iter()
            .filter(|(_, v)| *v == Value::Win(1))
            .map(|(m, _)| m)
            .collect();
        assert!(mates.contains(&best));
        let TableDecision::Play {
            best: other, value, ..
        } = decide(&t, &pos, &mates, &[]).unwrap()
        else {
            panic!("still won");
        };
        assert!(!mates.contains(&other));
        assert_eq!(value, Value::Win(3));
        // searchmoves restrict the same way.
        let TableDecision::Play { best, .. } = decide(&t, &pos, &[], &[mv("e1e2")]).unwrap() else {
            panic!("still won");
        };
        assert_eq!(best, mv("e1e2"));
    }

    #[test]
    fn with_dtc_tables_alone_a_won_position_is_played_by_the_quickest_conversion() {
        let mut t = tables();
        t.retain_metric(Metric::Dtc);
        // The chariot takes the unprotected advisor at once: a conversion in one ply.
        let pos = Position::from_fen("4k4/9/5a3/9/9/9/9/9/5R3/3K5 w - - 0 1").unwrap();
        let TableDecision::Play {
            best,
            value,
            metric,
            ..
        } = decide(&t, &pos, &[], &[]).unwrap()
        else {
            panic!("a won position is played");
        };
        assert_eq!(
            (best, value, metric),
            (mv("f1f7"), Value::Win(1), Metric::Dtc)
        );
        // The DTM tables answer the same position with the mate in 5 (the king steps aside
        // first), not with the capture.
        let TableDecision::Play {
            best,
            value,
            metric,
            ..
        } = decide(&tables(), &pos, &[], &[]).unwrap()
        else {
            panic!("won");
        };
        assert_eq!(
            (best, value, metric),
            (mv("d0d1"), Value::Win(5), Metric::Dtm)
        );
    }

    #[test]
    fn a_drawn_position_is_searched_among_its_drawing_moves() {
        let t = tables();
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1").unwrap();
        let TableDecision::SearchAmong(moves) = decide(&t, &pos, &[mv("d0d1")], &[]).unwrap()
        else {
            panic!("a draw is searched");
        };
        assert!(!moves.is_empty() && !moves.contains(&mv("d0d1")));
        let start = Position::start();
        assert_eq!(
            decide(&t, &start, &[], &[]).unwrap(),
            TableDecision::NotCovered
        );
    }
}
