//! What a search may spend and which root moves it may consider.

use std::time::Duration;

use chariot_rules::Move;

/// The limits of one search. All fields are optional; with none set (and `infinite` false) the
/// search runs to the maximum depth. When several are set, the first one reached stops it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search to this depth in plies (`go depth`). `Some(0)` returns at once without a move.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (summed over all threads; exact with one thread).
    pub nodes: Option<u64>,
    /// Spend exactly this long (less the clock's move overhead when a clock is given).
    pub movetime: Option<Duration>,
    /// The game clock of the side to move: the search budgets its own time from it.
    pub clock: Option<TimeLeft>,
    /// Search until stopped (`go infinite`); time, depth and node limits are then ignored for
    /// stopping, though the search still ends early when no move remains to be searched.
    pub infinite: bool,
    /// Look for a mate in at most this many moves (`go mate`): stops as soon as one is proved;
    /// without one the search ends at depth `4 * mate - 1` (or an earlier limit).
    pub mate: Option<u32>,
    /// Only these root moves are considered (`searchmoves`); empty means all legal moves.
    pub searchmoves: Vec<Move>,
    /// These root moves are never played (UCCI `banmoves`, e.g. moves that would repeat a
    /// position illegally).
    pub banmoves: Vec<Move>,
}

/// What the side to move's game clock says: the time left and how it runs (the league's
/// `Clock` is the clock itself, ticking).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left on the clock.
    pub time: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves left until the next time control; `None` for sudden death (plus increment).
    pub movestogo: Option<u32>,
    /// The opponent's time left, when known (informational).
    pub opptime: Option<Duration>,
    /// Time lost per move outside the engine (GUI and pipe latency); the budget keeps this
    /// much in reserve for every move it still has to make.
    pub move_overhead: Duration,
    /// The GUI lets the engine ponder (UCCI/UCI option `ponder`): time spent on the opponent's
    /// clock is partly won back, so each move may take a quarter more.
    pub ponder: bool,
}
