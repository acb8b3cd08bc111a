//! The training positions as evaluation traces, held in flat arrays.
//!
//! A million positions with some ninety weight uses each are kept as one array of
//! `(weight, count)` pairs and per-position offsets (about 400 bytes a position), so that a pass
//! over all of them walks memory in order. Positions are split into a training part and a
//! held-out part by their Zobrist key (key mod `holdout` = 0 is held out), which is the same for
//! the same file whatever its order. The held-out part only measures: it shows whether the fit
//! carries over to positions it has not seen.

use std::path::Path;

use chariot_eval::trace::{KingInputs, Trace, WEIGHTS, Weights, evaluate_parts, piece_cells};
use chariot_formats::positions::{PositionsError, Reader};

/// Traced positions with their results.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// All positions' `(weight, count)` pairs, position after position.
    pub(super) features: Vec<(u16, i16)>,
    /// Position `i`'s pairs are `features[offsets[i]..offsets[i + 1]]`.
    pub(super) offsets: Vec<u32>,
    /// Per position: the phase.
    pub(super) phase: Vec<u8>,
    /// Per position: king-safety inputs of Red and Black.
    pub(super) king: Vec<[KingInputs; 2]>,
    /// Per position: the draw scale when Red is ahead, when Black is.
    pub(super) scale: Vec<[u8; 2]>,
    /// Per position: Red's score in the game (1, 0.5, 0).
    pub(super) result: Vec<f32>,
    /// Per weight: how many pieces stood on that table cell, over all positions (zero for
    /// weights that are not table cells).
    pub(super) uses: Vec<u64>,
}

impl Dataset {
    /// An empty set.
    #[must_use]
    pub fn new() -> Dataset {
        Dataset {
            offsets: vec![0],
            uses: vec![0; WEIGHTS],
            ..Dataset::default()
        }
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there are no positions.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Adds a traced position with Red's score and the table cells its pieces use
    /// ([`piece_cells`]).
    pub fn push(&mut self, trace: &Trace, score: f64, cells: &[usize]) {
        self.features.extend_from_slice(&trace.features);
        self.offsets.push(self.features.len() as u32);
        self.phase.push(trace.phase);
        self.king.push(trace.king);
        self.scale.push(trace.scale);
        self.result.push(score as f32);
        for &c in cells {
            if let Some(u) = self.uses.get_mut(c) {
                *u += 1;
            }
        }
    }

    /// The trace of position `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn trace(&self, i: usize) -> Trace {
        Trace {
            features: self.features[self.offsets[i] as usize..self.offsets[i + 1] as usize]
                .to_vec(),
            phase: self.phase[i],
            king: self.king[i],
            scale: self.scale[i],
        }
    }

    /// The exact evaluation (Red's view) of position `i` under `w`: [`Trace::evaluate`]
    /// without building the trace.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn evaluate(&self, i: usize, w: &Weights) -> i32 {
        evaluate_parts(
            &self.features[self.offsets[i] as usize..self.offsets[i + 1] as usize],
            self.phase[i],
            &self.king[i],
            self.scale[i],
            w,
        )
    }

    /// Red's score in position `i`'s game.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn score(&self, i: usize) -> f64 {
        f64::from(self.result[i])
    }

    /// How many pieces stood on the table cell of weight `w` over all positions.
    #[must_use]
    pub fn uses(&self, w: usize) -> u64 {
        self.uses.get(w).copied().unwrap_or(0)
    }
}

/// A positions file read into a training and a held-out set.
#[derive(Clone, Debug)]
pub struct Split {
    /// The positions the weights are fitted to.
    pub train: Dataset,
    /// The positions kept aside for measuring.
    pub held_out: Dataset,
}

/// Reads a positions file: at most `max` positions (in file order), every one whose Zobrist
/// key is divisible by `holdout` into the held-out set (none when `holdout` is 0).
///
/// # Errors
/// The first [`PositionsError`] of the file.
pub fn load(path: &Path, max: usize, holdout: u64) -> Result<Split, PositionsError> {
    let mut split = Split {
        train: Dataset::new(),
        held_out: Dataset::new(),
    };
    for item in Reader::open(path)?.take(max) {
        let p = item?;
        let trace = Trace::new(&p.position);
        let cells = piece_cells(&p.position);
        let set = if holdout != 0 && p.position.key() % holdout == 0 {
            &mut split.held_out
        } else {
            &mut split.train
        };
        set.push(&trace, p.outcome.score(), &cells);
    }
    Ok(split)
}

/// Reads a whole positions file into one set (at most `max` positions, in file order).
///
/// # Errors
/// The first [`PositionsError`] of the file.
pub fn load_all(path: &Path, max: usize) -> Result<Dataset, PositionsError> {
    Ok(load(path, max, 0)?.train)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_eval::trace::default_weights;
    use chariot_formats::positions::FileWriter;
    use chariot_rules::DecidedResult;
    use chariot_rules::{Position, START_FEN};

    #[test]
    fn positions_are_split_by_key_and_kept_exactly() {
        let fens = [
            START_FEN,
            "2bak1c2/4a4/4b4/8R/3P3P1/9/2pc3r1/C3B4/4A4/2BAKN3 w - - 4 33",
            "3ak1b2/2n1a4/8b/4P4/9/2B3R2/9/9/5K3/3A1AB2 b - - 5 70",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ];
        let positions: Vec<Position> = fens
            .iter()
            .map(|f| Position::from_fen(f).unwrap())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        let mut w = FileWriter::create(&path, &[]).unwrap();
        for p in &positions {
            w.write(p, DecidedResult::DRAW).unwrap();
        }
        w.finish().unwrap();

        let all = load(&path, usize::MAX, 0).unwrap();
        assert_eq!((all.train.len(), all.held_out.len()), (4, 0));
        assert_eq!(load_all(&path, 3).unwrap().len(), 3);
        let weights = default_weights();
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(all.train.trace(i), Trace::new(p));
            assert_eq!(all.train.score(i), 0.5);
            assert_eq!(
                all.train.trace(i).evaluate(&weights),
                Trace::new(p).evaluate(&weights)
            );
        }
        // 32 pieces, of which the 8 advisors and elephants use one shared table, the other 24 a
        // midgame and an endgame table.
        let start_cells = piece_cells(&positions[0]).len() as u64;
        assert_eq!(start_cells, 8 + 2 * 24);
        assert!((0..WEIGHTS).map(|w| all.train.uses(w)).sum::<u64>() > start_cells);

        // Every key is divisible by 1: all held out. A limit stops early.
        let held = load(&path, 3, 1).unwrap();
        assert_eq!((held.train.len(), held.held_out.len()), (0, 3));
        let two = load(&path, usize::MAX, 2).unwrap();
        let odd = positions.iter().filter(|p| p.key() % 2 != 0).count();
        assert_eq!((two.train.len(), two.held_out.len()), (odd, 4 - odd));
    }
}
