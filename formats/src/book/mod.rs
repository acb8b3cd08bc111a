//! Opening books: statistics of the moves played in real games, per position, in a
//! memory-mapped file (`.xqb`, layout in `docs/formats/book.md`).
//!
//! Positions are found by their Zobrist key. A book built with mirror merging stores a position
//! and its left-right mirror under one key (the smaller of the two) with the moves in that
//! orientation; [`canonical`] says how, and probing mirrors the moves back. Several books can be
//! used together through [`BookSet`]: the first book that knows a position answers.

pub mod builtin;
pub mod eleeye;
mod file;

pub use file::{
    Book, BookError, BookWriter, BuildInfo, ENTRY_SIZE, Entry, FORMAT_VERSION, HEADER_SIZE, MAGIC,
};

use chariot_rules::{Move, Position};

/// The statistics of one move in one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// Games in which the move was played here.
    pub games: u32,
    /// Of those, won by Red.
    pub red_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by Black.
    pub black_wins: u32,
    /// Mean Elo of the player who made the move, over games where it is known (0: unknown).
    pub mean_elo: u16,
}

impl MoveStats {
    /// Wins and losses from the point of view of the side that played the move.
    #[must_use]
    pub fn wins_losses(&self, mover: chariot_rules::Color) -> (u32, u32) {
        match mover {
            chariot_rules::Color::Red => (self.red_wins, self.black_wins),
            chariot_rules::Color::Black => (self.black_wins, self.red_wins),
        }
    }

    /// The weight of the move for the side that plays it: 2 per win, 1 per draw (as Polyglot
    /// books count). See `docs/formats/book.md` for why.
    #[must_use]
    pub fn weight(&self, mover: chariot_rules::Color) -> u32 {
        let (wins, _) = self.wins_losses(mover);
        wins.saturating_mul(2).saturating_add(self.draws)
    }

    /// The score of the move for its player, 0.0 to 1.0 (wins + half the draws, per game);
    /// games without a result count as draws.
    #[must_use]
    pub fn score(&self, mover: chariot_rules::Color) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let (wins, losses) = self.wins_losses(mover);
        let draws = self.games.saturating_sub(wins + losses);
        (f64::from(wins) + f64::from(draws) / 2.0) / f64::from(self.games)
    }
}

/// A book move of a position, in that position's orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the probed position).
    pub mv: Move,
    /// Its statistics.
    pub stats: MoveStats,
    /// Its weight (higher is better; the file stores it).
    pub weight: u32,
}

/// The key and move under which a book stores `mv` played in `pos`.
///
/// With `mirror` false that is `(pos.key(), mv)`. With `mirror` true, the position and its
/// left-right mirror share the smaller of their two keys; when the mirror's key is the smaller,
/// the move is stored mirrored.
#[must_use]
pub fn canonical(pos: &Position, mv: Move, mirror: bool) -> (u64, Move) {
    let key = pos.key();
    if !mirror {
        return (key, mv);
    }
    let mirrored = pos.mirror_key();
    if mirrored < key {
        (mirrored, mv.mirror())
    } else {
        (key, mv)
    }
}

/// Several books used together (UCCI `bookfiles a.xqb;b.xqb`): the first book that has moves for
/// a position answers, so a small hand-made repertoire book can stand before a large general one.
#[derive(Default)]
pub struct BookSet {
    books: Vec<Book>,
}

impl BookSet {
    /// Opens each path of a `;`-separated list (empty parts are skipped).
    ///
    /// # Errors
    /// The first book that cannot be opened, with its path.
    pub fn open_list(list: &str) -> Result<BookSet, BookError> {
        let books = list
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(Book::open)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BookSet { books })
    }

    /// A set of already opened books.
    #[must_use]
    pub fn from_books(books: Vec<Book>) -> BookSet {
        BookSet { books }
    }

    /// The books, in order.
    #[must_use]
    pub fn books(&self) -> &[Book] {
        &self.books
    }

    /// `true` when the set has no book.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// The moves of the first book that knows `pos`, best weight first.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        self.books
            .iter()
            .map(|b| b.probe(pos))
            .find(|m| !m.is_empty())
            .unwrap_or_default()
    }
}

/// Picks a book move: with `temperature` 0 the highest weight (the first listed on ties);
/// otherwise at random with probability proportional to `weight^(1/temperature)`, drawn with
/// `random` (a number in 0..1). Returns `None` for an empty list or when every weight is 0.
#[must_use]
pub fn choose(moves: &[BookMove], temperature: f64, random: f64) -> Option<BookMove> {
    let best = moves
        .iter()
        .copied()
        .filter(|m| m.weight > 0)
        .max_by_key(|m| m.weight)?;
    if temperature <= 0.0 {
        // max_by_key returns the last maximum; prefer the first, as listed.
        return moves.iter().copied().find(|m| m.weight == best.weight);
    }
    let w: Vec<f64> = moves
        .iter()
        .map(|m| (f64::from(m.weight) / f64::from(best.weight)).powf(1.0 / temperature))
        .collect();
    let total: f64 = w.iter().sum();
    let mut r = random.clamp(0.0, 1.0 - f64::EPSILON) * total;
    for (m, w) in moves.iter().zip(&w) {
        if r < *w {
            return Some(*m);
        }
        r -= w;
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::Color;

    fn bm(weight: u32) -> BookMove {
        BookMove {
            mv: Move::NONE,
            stats: MoveStats::default(),
            weight,
        }
    }

    #[test]
    fn weights_and_scores_follow_the_mover() {
        let s = MoveStats {
            games: 10,
            red_wins: 5,
            draws: 3,
            black_wins: 2,
            mean_elo: 0,
        };
        assert_eq!(s.weight(Color::Red), 13);
        assert_eq!(s.weight(Color::Black), 7);
        assert!((s.score(Color::Red) - 0.65).abs() < 1e-9);
        assert!((s.score(Color::Black) - 0.35).abs() < 1e-9);
    }

    #[test]
    fn choosing() {
        let moves = [bm(10), bm(30), bm(30), bm(0)];
        assert_eq!(choose(&moves, 0.0, 0.5).map(|m| m.weight), Some(30));
        assert_eq!(choose(&[bm(0)], 1.0, 0.5), None);
        assert_eq!(choose(&[], 0.0, 0.5), None);
        // With temperature 1, probabilities are 1/7, 3/7, 3/7, 0.
        assert_eq!(choose(&moves, 1.0, 0.1).map(|m| m.weight), Some(10));
        assert_eq!(choose(&moves, 1.0, 0.2).map(|m| m.weight), Some(30));
        assert_eq!(choose(&moves, 1.0, 0.9999).map(|m| m.weight), Some(30));
    }

    #[test]
    fn canonical_keys_are_shared_by_mirrors() {
        let mut pos = Position::start();
        pos.make_move(chariot_rules::notation::parse_iccs("h2e2").unwrap());
        let m = chariot_rules::notation::parse_iccs("h9g7").unwrap();
        let mirror = pos.mirror();
        let (k1, m1) = canonical(&pos, m, true);
        let (k2, m2) = canonical(&mirror, m.mirror(), true);
        assert_eq!((k1, m1), (k2, m2));
        assert_eq!(canonical(&pos, m, false), (pos.key(), m));
    }
}
