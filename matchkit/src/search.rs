//! One search as a GUI asks for it, beside a runner's [`Engine::think`]: a position, the limits
//! of `go` (the clocks, a depth, nodes, a time for the move, or no limit until told to stop),
//! when to send `stop`, and every `info` line handed to the caller as it comes (a GUI's
//! analysis lines, MultiPV).
//!
//! The `go` line in each protocol ([`search_go`]):
//!
//! - UCI: `go [wtime T btime T winc I binc I [movestogo M]] [depth D] [nodes N] [movetime MS]
//!   [infinite]`, every limit given (an engine stops at the first it reaches), milliseconds.
//! - UCCI 3.0 takes one mode: `go depth infinite` for no limit, else `go depth D`, else `go
//!   nodes N`, else a time for the move as `go time T movestogo 1` (a period of one move), else
//!   the clocks as [`crate::client::go_command`] writes them; times in the engine's units
//!   (milliseconds after `usemillisec`, else whole seconds, at least 1). The caller's waits
//!   still hold whatever mode is sent.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::client::{Engine, Go, Line, Protocol, Reply, Think, go_command};
use crate::clock::Clock;
use crate::engine::{Failure, uci_go};
use crate::info::Info;
use crate::interrupt::Interrupt;

/// The limits of one search besides the clocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// At most this depth (`go depth D`).
    pub depth: Option<u32>,
    /// At most this many nodes (`go nodes N`).
    pub nodes: Option<u64>,
    /// This long for the move (`go movetime MS`).
    pub movetime: Option<Duration>,
    /// No limit: the engine searches until it is told to stop (`go infinite`).
    pub infinite: bool,
}

/// The clocks of a game, as `go` gives them.
#[derive(Clone, Copy, Debug)]
pub struct Clocks<'a> {
    /// The clock of the side to move.
    pub own: &'a Clock,
    /// The opponent's clock.
    pub opp: &'a Clock,
    /// The first player (Red, White) is to move: its clock is UCI's `wtime`.
    pub first_to_move: bool,
}

/// One search request.
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    /// The position from the last capture on (what UCCI engines are sent).
    pub since_capture: Line<'a>,
    /// The position from the game's start (what UCI engines are sent).
    pub from_start: Line<'a>,
    /// Moves that would commit a forbidden repetition (sent with UCCI `banmoves`).
    pub banned: &'a [String],
    /// The game's clocks, if it has them.
    pub clocks: Option<Clocks<'a>>,
    /// The other limits.
    pub limits: Limits,
    /// Send `stop` this long after `go` (`None`: only when `stop` is set).
    pub stop_after: Option<Duration>,
    /// Give up with [`Failure::Timeout`] this long after `go` (`None`: the grace after a
    /// `stop`, [`crate::client::EngineConfig::grace`]).
    pub give_up_after: Option<Duration>,
    /// Set by the caller to stop the search now (an analysis that ends, a reader gone): `stop`
    /// is sent and the answer waited for, within the grace.
    pub stop: Option<&'a AtomicBool>,
}

impl Engine {
    /// Sends the position and the `go` of `req` ([`search_go`]) and waits for the answer,
    /// handing every `info` line to `on_info` as it comes; `stop` and the give-up as the
    /// request says.
    ///
    /// # Errors
    /// [`Failure::Timeout`], [`Failure::Disconnected`], [`Failure::Garbage`].
    pub fn search(
        &mut self,
        req: &Search<'_>,
        on_info: &mut dyn FnMut(&Info),
    ) -> Result<Reply, Failure> {
        let line = search_go(self.protocol(), self.millisec(), req);
        self.run_go(
            &Go {
                since_capture: &req.since_capture,
                from_start: &req.from_start,
                banned: req.banned,
                line: &line,
                stop_after: req.stop_after,
                give_up_after: req.give_up_after,
                stop: req.stop,
                interrupt: None,
            },
            on_info,
        )
    }
}

/// The `go` line of a search in `protocol` (see the module's notes); `millisec` when a UCCI
/// engine takes milliseconds.
#[must_use]
pub fn search_go(protocol: Protocol, millisec: bool, req: &Search<'_>) -> String {
    let limits = req.limits;
    match protocol {
        Protocol::Uci => {
            let mut go = match req.clocks {
                Some(c) => uci_go(c.own, c.opp, c.first_to_move),
                None => "go".to_owned(),
            };
            if let Some(d) = limits.depth {
                go.push_str(&format!(" depth {d}"));
            }
            if let Some(n) = limits.nodes {
                go.push_str(&format!(" nodes {n}"));
            }
            if let Some(t) = limits.movetime {
                go.push_str(&format!(" movetime {}", t.as_millis()));
            }
            if limits.infinite {
                go.push_str(" infinite");
            }
            go
        }
        Protocol::Ucci => {
            if limits.infinite {
                return "go depth infinite".to_owned();
            }
            if let Some(d) = limits.depth {
                return format!("go depth {d}");
            }
            if let Some(n) = limits.nodes {
                return format!("go nodes {n}");
            }
            if let Some(t) = limits.movetime {
                let ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX);
                let time = if millisec { ms } else { (ms / 1000).max(1) };
                return format!("go time {time} movestogo 1");
            }
            match req.clocks {
                Some(c) => {
                    let never = Interrupt::default();
                    let think = Think {
                        since_capture: req.since_capture,
                        from_start: req.from_start,
                        banned: req.banned,
                        own: c.own,
                        opp: c.opp,
                        first_to_move: c.first_to_move,
                        draw_offered: false,
                        interrupt: &never,
                    };
                    go_command(protocol, millisec, &think)
                }
                None => "go depth infinite".to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;

    fn request<'a>(clocks: Option<Clocks<'a>>, limits: Limits) -> Search<'a> {
        let line = Line {
            fen: None,
            moves: &[],
        };
        Search {
            since_capture: line,
            from_start: line,
            banned: &[],
            clocks,
            limits,
            stop_after: None,
            give_up_after: None,
            stop: None,
        }
    }

    #[test]
    fn go_lines_in_both_protocols() {
        let tc: TimeControl = "60+1".parse().unwrap();
        let (own, opp) = (Clock::new(tc), Clock::new(tc));
        let clocks = Some(Clocks {
            own: &own,
            opp: &opp,
            first_to_move: false,
        });
        let depth = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        assert_eq!(
            search_go(Protocol::Uci, false, &request(clocks, depth)),
            "go wtime 60000 btime 60000 winc 1000 binc 1000 depth 8"
        );
        assert_eq!(
            search_go(Protocol::Ucci, false, &request(clocks, depth)),
            "go depth 8"
        );
        let movetime = Limits {
            movetime: Some(Duration::from_millis(1500)),
            nodes: Some(5000),
            ..Limits::default()
        };
        assert_eq!(
            search_go(Protocol::Uci, false, &request(None, movetime)),
            "go nodes 5000 movetime 1500"
        );
        let movetime = Limits {
            nodes: None,
            ..movetime
        };
        assert_eq!(
            search_go(Protocol::Ucci, false, &request(None, movetime)),
            "go time 1 movestogo 1"
        );
        assert_eq!(
            search_go(Protocol::Ucci, true, &request(None, movetime)),
            "go time 1500 movestogo 1"
        );
        assert_eq!(
            search_go(Protocol::Ucci, true, &request(clocks, Limits::default())),
            "go time 60000 increment 1000 opptime 60000 oppincrement 1000"
        );
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(
            search_go(Protocol::Uci, false, &request(None, infinite)),
            "go infinite"
        );
        assert_eq!(
            search_go(Protocol::Ucci, false, &request(None, infinite)),
            "go depth infinite"
        );
    }
}
