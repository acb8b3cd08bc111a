//! When the engine accepts the person's draw offer.
//!
//! A draw is agreed only when it is fair for the engine. Before (issue 47) every offer made
//! before a move was accepted at every level, the strongest too: the search that judged it
//! answered from the opening book, whose moves carry no evaluation (a score of 0), and 0 is
//! "not better". Now what the rules and the tables know decides first ([`Known`]); otherwise a
//! search without the book, of at least [`JUDGE_NODES`] nodes, gives the engine's score, and
//! the engine accepts
//!
//! - in the first [`OPENING_PLIES`] plies of the game, only when it is clearly lost (its score at
//!   most [`LOST`]): an even opening is a game to be played, not agreed;
//! - after them, when it is not better (its score at most the engine's own draw margin,
//!   [`DRAW_MARGIN`], which its UCCI front end applies to offers too).

use chariot_formats::egtb::{Tablebases, Wdl};
use chariot_rules::{Color, Position};

pub use chariot_engine::api::verdict::DRAW_MARGIN;

/// The plies at the start of a game (the moves it was given to start from count) in which the
/// engine plays on from any position it is not clearly losing.
pub const OPENING_PLIES: usize = 20;

/// A score (centipawns, the engine's side) at or below which a draw saves the engine, so it
/// accepts one even in the opening: a horse or cannon down, or worse.
pub const LOST: i32 = -300;

/// The least search that judges an offer, whatever the level (level 1 searches 300 nodes a
/// move, too few to tell an even position from a lost one); a few hundredths of a second.
pub const JUDGE_NODES: u64 = 20_000;

/// What is known of a position without a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The tables' value for the engine.
    Tables(Wdl),
    /// Neither side has a piece that can cross the river: nobody can ever win.
    DeadDrawn,
    /// Nothing: the engine's search decides.
    Open,
}

impl Known {
    /// What the rules and `tables` know of `pos` for `engine`'s side. A table that cannot be
    /// read knows nothing (the search decides).
    #[must_use]
    pub fn of(pos: &Position, tables: &Tablebases, engine: Color) -> Known {
        if chariot_engine::api::verdict::no_attackers(pos) {
            return Known::DeadDrawn;
        }
        match tables.probe(pos) {
            Ok(Some(value)) => {
                let for_mover = value.wdl();
                Known::Tables(if pos.turn() == engine {
                    for_mover
                } else {
                    match for_mover {
                        Wdl::Win => Wdl::Loss,
                        Wdl::Draw => Wdl::Draw,
                        Wdl::Loss => Wdl::Win,
                    }
                })
            }
            Ok(None) | Err(_) => Known::Open,
        }
    }

    /// `true` when a search is needed to answer an offer.
    #[must_use]
    pub fn is_open(self) -> bool {
        self == Known::Open
    }
}

/// Whether the engine accepts a draw offered after `plies` plies of the game, knowing `known`
/// and, for [`Known::Open`] positions, its search's `score` (centipawns for the engine; mates
/// as the engine API's [`chariot_engine::api::centipawns`] counts them).
#[must_use]
pub fn accepts(known: Known, score: i32, plies: usize) -> bool {
    match known {
        Known::Tables(wdl) => wdl != Wdl::Win,
        Known::DeadDrawn => true,
        Known::Open if plies < OPENING_PLIES => score <= LOST,
        Known::Open => score <= DRAW_MARGIN,
    }
}
