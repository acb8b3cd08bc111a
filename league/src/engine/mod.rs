//! Xiangqi engines as child processes spoken to over UCCI or UCI.
//!
//! The match kit's `process` owns the child and its pipes; [`client`] speaks the protocols over
//! it (with the kit's failures, scores and `info` parser): the
//! handshake (with protocol detection), options, positions with banned moves, `go` with the
//! clocks in the protocol's own form, and reading the answer within the time left and the grace.

pub mod client;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use chariot_matchkit::clock::TimeControl;
use chariot_matchkit::engine::{DEFAULT_GRACE, DEFAULT_HANDSHAKE};
use chariot_matchkit::process::Launch;
pub use client::{Engine, Reply, Think};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UCCI 3.0: `ucci`, `position fen ... moves ...`, `banmoves`, `go time ... opptime ...`.
    Ucci,
    /// UCI as Xiangqi engines speak it: `uci`, `go wtime ... btime ...`.
    Uci,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
        })
    }
}

/// How the protocol is chosen (`proto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// Try UCCI first, then UCI (`proto=auto`, the default).
    #[default]
    Auto,
    /// This protocol only.
    Fixed(Protocol),
}

impl FromStr for ProtocolChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<ProtocolChoice, String> {
        match s {
            "auto" => Ok(ProtocolChoice::Auto),
            "ucci" => Ok(ProtocolChoice::Fixed(Protocol::Ucci)),
            "uci" => Ok(ProtocolChoice::Fixed(Protocol::Uci)),
            _ => Err(format!(
                "unknown protocol {s:?} (expected ucci, uci or auto)"
            )),
        }
    }
}

/// Whether a UCI engine is a multi-variant engine to be told `UCI_Variant xiangqi` (and then
/// names squares as Fairy-Stockfish does, ranks 1-10) (`variant=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VariantChoice {
    /// Yes when the engine lists a `UCI_Variant` option offering `xiangqi` (`variant=auto`).
    #[default]
    Auto,
    /// Always: send `setoption name UCI_Variant value xiangqi`, ranks 1-10 (`variant=xiangqi`).
    Xiangqi,
    /// Never: ranks 0-9, no `UCI_Variant` (`variant=none`).
    None,
}

impl FromStr for VariantChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<VariantChoice, String> {
        match s {
            "auto" => Ok(VariantChoice::Auto),
            "xiangqi" => Ok(VariantChoice::Xiangqi),
            "none" => Ok(VariantChoice::None),
            _ => Err(format!(
                "unknown variant {s:?} (expected xiangqi, none or auto)"
            )),
        }
    }
}

/// Everything the runner needs to start and drive one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The name in tables and PGN; the engine's `id name` when `None`.
    pub name: Option<String>,
    /// Program, arguments, working directory.
    pub launch: Launch,
    /// Protocol to speak.
    pub protocol: ProtocolChoice,
    /// UCI variant handling.
    pub variant: VariantChoice,
    /// Lines of the configuration file (`conf=`), sent as they are after the handshake.
    pub conf_lines: Vec<String>,
    /// Options (`option.NAME=VALUE`), sent after the configuration file in the protocol's form.
    pub options: Vec<(String, String)>,
    /// The time control.
    pub tc: TimeControl,
    /// A node limit per move (`nodes=`): the engine is sent `go nodes N` instead of its clock.
    /// The clock of `tc` still runs and still flags an engine that does not answer in time,
    /// so it should be generous. Node-limited games are cheap and nearly reproducible, which
    /// suits testing changes that do not affect speed.
    pub nodes: Option<u64>,
    /// Grace after the clock runs out before the loss on time (`timemargin=`, milliseconds).
    pub grace: Duration,
    /// Time allowed for the handshake (`handshake=`, seconds).
    pub handshake: Duration,
}

impl EngineConfig {
    /// A configuration for `command` with the defaults: detected protocol, no options.
    #[must_use]
    pub fn new(command: impl Into<PathBuf>, tc: TimeControl) -> EngineConfig {
        EngineConfig {
            name: None,
            launch: Launch {
                command: command.into(),
                ..Launch::default()
            },
            protocol: ProtocolChoice::Auto,
            variant: VariantChoice::Auto,
            conf_lines: Vec::new(),
            options: Vec::new(),
            tc,
            nodes: None,
            grace: DEFAULT_GRACE,
            handshake: DEFAULT_HANDSHAKE,
        }
    }
}
