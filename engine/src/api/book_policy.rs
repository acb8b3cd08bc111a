//! When and how the engine plays from its opening books.
//!
//! A book move is played only when the engine is asked to play (not to analyse), the move is not
//! banned, is among `searchmoves` when those are given, and does not return to a position of the
//! game (a book knows no repetition rules). Among the moves left one is drawn with probability
//! proportional to `weight^(1/temperature)`, the temperature set by the `randomness` option:
//! none plays the heaviest move always, larger randomness spreads the choice.

use chariot_eval::levels::Level;
use chariot_formats::book::{BookMove, BookSet, choose};
use chariot_rules::{Move, Position};

/// A book move chosen to be played, with what the book says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct BookChoice {
    /// The move.
    pub chosen: BookMove,
    /// The heaviest book move after it, as the move to ponder on.
    pub ponder: Option<Move>,
    /// The sum of the weights the choice was made among.
    pub total_weight: u32,
}

impl BookChoice {
    /// The chosen move's share of the weights, 0 to 1.
    #[must_use]
    pub fn share(&self) -> f64 {
        f64::from(self.chosen.weight) / f64::from(self.total_weight.max(1))
    }
}

/// The temperature of the book choice for a `randomness` level.
#[must_use]
pub fn temperature(randomness: Level) -> f64 {
    match randomness {
        Level::None => 0.0,
        Level::Tiny | Level::Small => 0.5,
        Level::Medium => 1.0,
        Level::Large | Level::Huge => 2.0,
    }
}

/// The book moves of `pos` the engine may play: not banned, among `searchmoves` when given, and
/// not back to a position of the game.
#[must_use]
pub fn candidates(
    books: &BookSet,
    pos: &Position,
    banmoves: &[Move],
    searchmoves: &[Move],
) -> Vec<BookMove> {
    let history: Vec<u64> = pos.history().iter().map(|u| u.key).collect();
    books
        .probe(pos)
        .into_iter()
        .filter(|m| !banmoves.contains(&m.mv))
        .filter(|m| searchmoves.is_empty() || searchmoves.contains(&m.mv))
        .filter(|m| {
            let mut after = pos.clone();
            after.make_move(m.mv);
            !history.contains(&after.key())
        })
        .collect()
}

/// Chooses the book move to play in `pos`, drawing with `random` (0 to 1); `None` when the
/// books have no move the engine may play.
#[must_use]
pub fn choose_move(
    books: &BookSet,
    pos: &Position,
    banmoves: &[Move],
    searchmoves: &[Move],
    randomness: Level,
    random: f64,
) -> Option<BookChoice> {
    let moves = candidates(books, pos, banmoves, searchmoves);
    let chosen = choose(&moves, temperature(randomness), random)?;
    let mut after = pos.clone();
    after.make_move(chosen.mv);
    let ponder = books
        .probe(&after)
        .into_iter()
        .max_by_key(|m| m.weight)
        .map(|m| m.mv);
    Some(BookChoice {
        chosen,
        ponder,
        total_weight: moves.iter().map(|m| m.weight).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_formats::book::{Book, BookWriter, BuildInfo, Entry, MoveStats, canonical};
    use chariot_rules::notation::parse_iccs;

    /// A book with two moves from the start (h2e2 weight 30, c3c4 weight 10) and one reply.
    fn books() -> BookSet {
        let mut w = BookWriter::new(BuildInfo::default());
        let start = Position::start();
        let mut add = |pos: &Position, mv: &str, weight: u32| {
            let m = parse_iccs(mv).unwrap();
            let (key, stored) = canonical(pos, m, false);
            w.push(Entry {
                key,
                mv: stored,
                stats: MoveStats {
                    games: weight,
                    ..MoveStats::default()
                },
                weight,
            });
        };
        add(&start, "h2e2", 30);
        add(&start, "c3c4", 10);
        let mut after = start.clone();
        after.make_move(parse_iccs("h2e2").unwrap());
        add(&after, "h9g7", 5);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("test.xqb");
        w.write(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        BookSet::from_books(vec![Book::from_bytes("test.xqb", bytes).unwrap()])
    }

    fn mv(s: &str) -> Move {
        parse_iccs(s).unwrap()
    }

    #[test]
    fn without_randomness_the_heaviest_move_is_played_with_its_ponder_move() {
        let b = books();
        for random in [0.0, 0.5, 0.99] {
            let c = choose_move(&b, &Position::start(), &[], &[], Level::None, random).unwrap();
            assert_eq!(c.chosen.mv, mv("h2e2"));
            assert_eq!(c.ponder, Some(mv("h9g7")));
            assert!((c.share() - 0.75).abs() < 1e-9);
        }
    }

    #[test]
    fn randomness_draws_in_proportion_to_weight() {
        let b = books();
        // Temperature 1 (medium): h2e2 covers 0..0.75 of the draw, c3c4 the rest.
        let at = |r| {
            choose_move(&b, &Position::start(), &[], &[], Level::Medium, r)
                .unwrap()
                .chosen
                .mv
        };
        assert_eq!(at(0.7), mv("h2e2"));
        assert_eq!(at(0.8), mv("c3c4"));
        // Over many draws the shares come out near 3:1.
        let mut rng = chariot_rules::random::Rng::seeded(1);
        let n = 4000;
        let h2e2 = (0..n).filter(|_| at(rng.unit()) == mv("h2e2")).count();
        assert!((2800..3200).contains(&h2e2), "{h2e2} of {n}");
    }

    #[test]
    fn banned_moves_searchmoves_and_repetitions_are_honoured() {
        let b = books();
        let start = Position::start();
        let c = choose_move(&b, &start, &[mv("h2e2")], &[], Level::None, 0.0).unwrap();
        assert_eq!(c.chosen.mv, mv("c3c4"));
        let c = choose_move(&b, &start, &[], &[mv("c3c4")], Level::None, 0.0).unwrap();
        assert_eq!(c.chosen.mv, mv("c3c4"));
        assert!(
            choose_move(&b, &start, &[mv("h2e2"), mv("c3c4")], &[], Level::None, 0.0).is_none()
        );
        // The start position reached again by horse moves: h2e2 is fine, but a book move that
        // returns to a position of the game is not played.
        let mut pos = start.clone();
        for m in ["h2e2", "h9g7", "e2h2", "g7h9"] {
            pos.make_move(mv(m));
        }
        let c = choose_move(&b, &pos, &[], &[], Level::None, 0.0).unwrap();
        assert_eq!(
            c.chosen.mv,
            mv("c3c4"),
            "h2e2 would repeat the position after move 1"
        );
    }
}
