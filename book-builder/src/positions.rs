//! Training positions for tuning the evaluation: quiet positions from games with a result.
//!
//! Every game with a known result is replayed; from the plies after the opening (the first
//! [`ExtractOptions::skip_plies`], which a book covers and whose positions recur in thousands of
//! games), up to [`ExtractOptions::per_game`] positions are taken in a pseudo-random order
//! seeded by the game's moves, so that the choice does not depend on which file or in what order
//! the game was read. A position is taken only when
//!
//! - its side to move is not in check and it is quiet ([`chariot_eval::quiet`]): the static
//!   evaluation is what a capture search would say;
//! - it has not been taken before (by Zobrist key, over all games: the first game to reach a
//!   position labels it);
//!
//! Games are deduplicated by their moves (the same game in two files counts once). Sampling a
//! few positions per game rather than all keeps neighbouring, nearly identical positions of one
//! game from dominating. The output is `chariot_formats::positions`' text format.
//!
//! One game in [`ExtractOptions::held_out_every`] (chosen by the game's moves) is marked held
//! out, for a separate file that the tuner only measures on. Holding out whole games rather
//! than single positions matters: positions of one game share its result, so a weight fitted to
//! one game's positions would look good on the same game's other positions.

use std::collections::HashSet;

use chariot_eval::quiet::is_quiet;
use chariot_rules::{DecidedResult, Move, Position, Setup, Waivers};

use chariot_games::checked::ContentHash;
use chariot_games::record::GameResult;

/// How positions are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtractOptions {
    /// Plies at the start of each game that are never taken (the opening).
    pub skip_plies: usize,
    /// At most this many positions per game.
    pub per_game: usize,
    /// Varies the pseudo-random choice; the same seed gives the same positions.
    pub seed: u64,
    /// Mark one game in this many as held out (0: none).
    pub held_out_every: u64,
}

impl Default for ExtractOptions {
    fn default() -> ExtractOptions {
        ExtractOptions {
            skip_plies: 16,
            per_game: 40,
            seed: 0,
            held_out_every: 0,
        }
    }
}

/// The positions taken from one game.
#[derive(Clone, Debug, Default)]
pub struct Chosen {
    /// The positions with the game's outcome, in ply order.
    pub positions: Vec<(Position, DecidedResult)>,
    /// Whether the game is held out (see [`ExtractOptions::held_out_every`]).
    pub held_out: bool,
}

/// What an extraction saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtractStats {
    /// Games offered.
    pub games: usize,
    /// Games used (a result known, not seen before, moves legal).
    pub used: usize,
    /// Games skipped for an unknown result.
    pub no_result: usize,
    /// Games skipped as duplicates of an earlier game.
    pub duplicates: usize,
    /// Games skipped because their start position or a move was not legal.
    pub invalid: usize,
    /// Positions looked at (after the skipped plies), until a game's quota was full.
    pub examined: usize,
    /// Of those, in check.
    pub in_check: usize,
    /// Of those, not quiet.
    pub not_quiet: usize,
    /// Of those, seen before.
    pub repeated: usize,
    /// Positions taken, by result: Black won, draw, Red won.
    pub taken: [usize; 3],
    /// Games marked held out.
    pub held_out_games: usize,
    /// Positions taken from them (included in `taken`).
    pub held_out: usize,
}

/// Chooses positions game by game; see the module documentation.
pub struct Extractor {
    options: ExtractOptions,
    games: HashSet<[u8; 16]>,
    positions: HashSet<u64>,
    stats: ExtractStats,
}

impl Extractor {
    /// An extractor with nothing seen yet.
    #[must_use]
    pub fn new(options: ExtractOptions) -> Extractor {
        Extractor {
            options,
            games: HashSet::new(),
            positions: HashSet::new(),
            stats: ExtractStats::default(),
        }
    }

    /// What was seen so far.
    #[must_use]
    pub fn stats(&self) -> &ExtractStats {
        &self.stats
    }

    /// The positions to take from one game: `start` is the start position's FEN (at least its
    /// board and side to move; `None` for the usual start), `moves` the game's moves.
    ///
    /// Returns the chosen positions; none for a game without a result, a duplicate, or one
    /// whose moves are not legal.
    pub fn game(
        &mut self,
        start: Option<&str>,
        moves: &[Move],
        result: Option<GameResult>,
    ) -> Chosen {
        self.stats.games += 1;
        let Some(outcome) = result.and_then(GameResult::decided) else {
            self.stats.no_result += 1;
            return Chosen::default();
        };
        let mut hash = ContentHash::new();
        hash.update(start.unwrap_or("").as_bytes());
        hash.update(b"\0");
        for m in moves {
            hash.update(&m.to_u16().to_le_bytes());
        }
        if !self.games.insert(hash.finish()) {
            self.stats.duplicates += 1;
            return Chosen::default();
        }
        let Some(line) = replay(start, moves, self.options.skip_plies) else {
            self.stats.invalid += 1;
            return Chosen::default();
        };
        self.stats.used += 1;

        // Visit the candidate plies in an order drawn from the game's hash and the seed.
        let digest = hash.finish();
        let mut rng = chariot_rules::random::Rng::seeded(
            u64::from_le_bytes(digest[..8].try_into().unwrap_or_default()) ^ self.options.seed,
        );
        // Another part of the hash, so that the choice of games does not follow the seed.
        let number = u64::from_le_bytes(digest[8..].try_into().unwrap_or_default());
        let every = self.options.held_out_every;
        let held_out = every != 0 && number % every == 0;
        let mut order: Vec<usize> = (0..line.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut chosen = Vec::new();
        for i in order {
            if chosen.len() >= self.options.per_game {
                break;
            }
            self.stats.examined += 1;
            let mut pos = line[i].clone();
            if pos.in_check() {
                self.stats.in_check += 1;
                continue;
            }
            if !is_quiet(&mut pos) {
                self.stats.not_quiet += 1;
                continue;
            }
            if !self.positions.insert(pos.key()) {
                self.stats.repeated += 1;
                continue;
            }
            chosen.push(i);
        }
        chosen.sort_unstable();
        // By Red's score: Black won, draw, Red won.
        self.stats.taken[usize::from(outcome.code())] += chosen.len();
        if held_out {
            self.stats.held_out_games += 1;
            self.stats.held_out += chosen.len();
        }
        Chosen {
            positions: chosen
                .into_iter()
                .map(|i| (line[i].clone(), outcome))
                .collect(),
            held_out,
        }
    }
}

/// The positions of a game after `skip` plies and more (without move history), `None` when
/// the start is not a legal position or a move is not legal.
fn replay(start: Option<&str>, moves: &[Move], skip: usize) -> Option<Vec<Position>> {
    let mut pos = match start {
        None => Position::start(),
        Some(fen) => {
            // Stored starts may hold only the board and side to move.
            let mut fields: Vec<&str> = fen.split_whitespace().collect();
            let defaults = ["", "", "-", "-", "0", "1"];
            while fields.len() < defaults.len() {
                fields.push(defaults[fields.len()]);
            }
            let setup: Setup = fields.join(" ").parse().ok()?;
            Position::from_setup(&setup, Waivers::NONE).ok()?
        }
    };
    let mut out = Vec::new();
    for (ply, &m) in moves.iter().enumerate() {
        if ply >= skip {
            out.push(snapshot(&pos));
        }
        if !pos.is_legal(m) {
            return None;
        }
        pos.make_move(m);
    }
    if moves.len() >= skip {
        out.push(snapshot(&pos));
    }
    Some(out)
}

/// The position alone, without the moves that led to it (a copy with a long history would
/// cost memory for nothing).
fn snapshot(pos: &Position) -> Position {
    Position::from_setup(&pos.to_setup(), Waivers::ALL).unwrap_or_else(|_| pos.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_games::checked::check;
    use chariot_games::read_all;

    fn sample_games() -> Vec<chariot_games::checked::Game> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/games/samples/ccpd-masters-sample.pgn"
        );
        let data = std::fs::read(path).unwrap();
        let (_, records) = read_all(&data);
        records.iter().filter_map(|r| check(r).ok()).collect()
    }

    fn extract(
        options: ExtractOptions,
        games: &[chariot_games::checked::Game],
    ) -> (Vec<String>, ExtractStats) {
        let mut ex = Extractor::new(options);
        let mut lines = Vec::new();
        for g in games {
            let chosen = ex.game(g.start.as_deref(), &g.moves, g.result);
            let mark = if chosen.held_out { "#" } else { "" };
            for (pos, o) in chosen.positions {
                lines.push(format!("{mark}{};{}", pos.fen(), o.score_text()));
            }
        }
        (lines, ex.stats().clone())
    }

    #[test]
    fn extraction_follows_the_rules_and_is_deterministic() {
        let games = sample_games();
        assert!(games.len() >= 10, "{}", games.len());
        let options = ExtractOptions {
            skip_plies: 10,
            per_game: 5,
            seed: 1,
            held_out_every: 3,
        };
        let (lines, stats) = extract(options, &games);
        assert!(!lines.is_empty());
        assert_eq!(stats.taken.iter().sum::<usize>(), lines.len());
        assert!(stats.used * 5 >= lines.len());
        let mut keys = HashSet::new();
        for line in &lines {
            let p = chariot_formats::positions::parse_line(line.trim_start_matches('#'))
                .unwrap()
                .unwrap();
            let mut pos = p.position;
            assert!(!pos.in_check() && is_quiet(&mut pos), "{line}");
            assert!(keys.insert(pos.key()), "duplicate {line}");
        }
        // Same input, same output; another seed, another choice.
        assert_eq!(extract(options, &games).0, lines);
        let other = extract(ExtractOptions { seed: 2, ..options }, &games).0;
        assert_ne!(other, lines);
        // Held out are whole games, the same ones whatever the seed; about one in three.
        let held = |lines: &[String]| -> HashSet<String> {
            lines
                .iter()
                .filter(|l| l.starts_with('#'))
                .cloned()
                .collect()
        };
        assert!(!held(&lines).is_empty());
        assert!(held(&lines).len() < lines.len());
        assert_eq!(stats.held_out, held(&lines).len());
        assert!(stats.held_out_games > 0 && stats.held_out_games < stats.used);
        let none = extract(
            ExtractOptions {
                held_out_every: 0,
                ..options
            },
            &games,
        );
        assert_eq!(none.1.held_out_games, 0);
        // A game offered twice counts once.
        let mut twice = games.clone();
        twice.extend(games.iter().cloned());
        let (again, stats) = extract(options, &twice);
        assert_eq!(again, lines);
        assert_eq!(stats.duplicates, games.len());
    }

    #[test]
    fn games_without_results_or_with_illegal_moves_give_nothing() {
        let games = sample_games();
        let g = &games[0];
        let mut ex = Extractor::new(ExtractOptions::default());
        assert!(ex.game(None, &g.moves, None).positions.is_empty());
        assert!(
            ex.game(None, &g.moves, Some(GameResult::Unfinished))
                .positions
                .is_empty()
        );
        let mut bad = g.moves.clone();
        bad.insert(3, bad[0]);
        assert!(
            ex.game(None, &bad, Some(GameResult::Draw))
                .positions
                .is_empty()
        );
        let s = ex.stats();
        assert_eq!((s.no_result, s.invalid, s.used), (2, 1, 0));
    }

    #[test]
    fn the_first_plies_are_skipped() {
        let games = sample_games();
        let g = &games[0];
        let skip = g.moves.len() - 2;
        let mut ex = Extractor::new(ExtractOptions {
            skip_plies: skip,
            per_game: 100,
            ..ExtractOptions::default()
        });
        // Only the positions after `skip`, `skip + 1` and all plies are candidates.
        let taken = ex.game(None, &g.moves, Some(GameResult::Draw)).positions;
        assert!(taken.len() <= 3);
        assert!(ex.stats().examined == 3);
    }
}
