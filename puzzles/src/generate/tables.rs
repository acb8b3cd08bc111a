//! Puzzles from the endgame tables: positions where the side to move wins by mate and exactly
//! one move wins.
//!
//! Positions are drawn with the seeded generator: a table (those with a DTM table whose strong
//! side has a piece that can give check), then an index of it, the strong side to move. A
//! position is taken when it is legal, the tables call it a win by mate in at most
//! [`Settings::max_table_dtm`] plies, and one move alone wins. The line then follows the tables:
//! the one winning move, the longest defence, and on while the solver again has one winning move
//! (up to [`Settings::max_table_moves`] of them); a mate ends it (any mate is accepted, so a
//! last move that mates need not be the only one), and a position with several winning moves
//! ends it before the defence that led there. A line that reaches mate is a mate in N, else the
//! goal is to win; a line of one move that does not mate is not taken (a single winning move
//! is most often a piece saved or taken).

use chariot_formats::egtb::{Indexer, Metric, Signature, Tablebases, Value};
use chariot_rules::random::Rng;
use chariot_rules::{Color, Position, Waivers};

use super::{Rejected, Settings};
use crate::record::{Difficulty, Goal, Puzzle, Source};
use crate::verify::{mates_at_once, winning_moves};

/// How many positions are drawn for each puzzle wanted before giving up.
const TRIES_PER_PUZZLE: usize = 2_000;

/// The tables positions are drawn from: a DTM table whose strong side can give check.
#[must_use]
pub fn candidates(tables: &Tablebases) -> Vec<Signature> {
    tables
        .signatures()
        .into_iter()
        .filter(|&s| s.strong.has_attackers() && tables.metrics(s).contains(&Metric::Dtm))
        .collect()
}

/// Up to `settings.table_puzzles` puzzles drawn from `tables` with `settings.seed`, none with an
/// id in `taken` (which they are added to).
pub fn puzzles(
    tables: &Tablebases,
    settings: &Settings,
    taken: &mut std::collections::HashSet<String>,
    rejected: &mut Rejected,
) -> Vec<Puzzle> {
    let signatures = candidates(tables);
    let mut out = Vec::new();
    if signatures.is_empty() {
        return out;
    }
    let indexers: Vec<Indexer> = signatures
        .iter()
        .filter_map(|&s| Indexer::new(s).ok())
        .collect();
    let mut rng = Rng::seeded(settings.seed);
    let mut tries = settings.table_puzzles * TRIES_PER_PUZZLE;
    while out.len() < settings.table_puzzles && tries > 0 {
        tries -= 1;
        let indexer = &indexers[rng.below(indexers.len())];
        let idx = rng.next_u64() % indexer.size();
        let placement = indexer.decode(idx);
        let Ok(pos) = indexer.position(&placement, Color::Red, Waivers::NONE) else {
            continue;
        };
        let id = Puzzle::id_of(&pos);
        if taken.contains(&id) {
            continue;
        }
        match tables.probe(&pos) {
            Ok(Some(Value::Win(d))) if d <= settings.max_table_dtm => {}
            _ => continue,
        }
        let Some(puzzle) = line_from(tables, &pos, settings, indexer.signature()) else {
            rejected.count("table position without a line of only winning moves");
            continue;
        };
        taken.insert(id);
        out.push(puzzle);
    }
    out
}

/// The puzzle of a table position won by mate, when one move alone wins there.
fn line_from(
    tables: &Tablebases,
    start: &Position,
    settings: &Settings,
    signature: Signature,
) -> Option<Puzzle> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    let mut mated = false;
    loop {
        let wins = winning_moves(tables, &pos)?;
        let m = match wins[..] {
            [(m, Value::Win(_))] => m,
            _ => match wins.iter().find(|(m, _)| mates_at_once(&pos, *m)) {
                Some(&(m, _)) if !line.is_empty() => m,
                _ => {
                    // Several winning moves: the line ends before the defence that led here.
                    line.pop();
                    break;
                }
            },
        };
        pos.make_move(m);
        line.push(m);
        if !pos.has_legal_move() {
            mated = true;
            break;
        }
        if line.len().div_ceil(2) == settings.max_table_moves {
            break;
        }
        let (reply, _) = tables.best_move(&pos).ok().flatten()?;
        pos.make_move(reply);
        line.push(reply);
    }
    // One move alone is too little, unless it mates: a single winning move is most often a
    // piece saved or taken.
    let moves = line.len().div_ceil(2);
    if moves == 0 || (moves == 1 && !mated) {
        return None;
    }
    let goal = if mated {
        Goal::Mate(moves as u32)
    } else {
        Goal::Win
    };
    Some(Puzzle {
        id: Puzzle::id_of(start),
        source: Source::Tables,
        goal,
        difficulty: Difficulty::Medium,
        position: start.clone(),
        line,
        title: signature.to_string(),
    })
}
