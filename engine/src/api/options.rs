//! The engine's options: one registry of every option, each with its kind (check, spin, combo,
//! string, button), its default, its range or choices, its UCCI, UCI and CECP (XBoard) names,
//! and the action that a new value takes on the engine.
//!
//! Stockfish's `Engine` is the model: each option is registered once, with an on-change action
//! (`Hash` resizes the table, `EvalFile` loads the network), and `uci.cpp` only turns words into
//! `set` calls and prints the registry. Here [`Engine::set_option`] finds an option by any
//! protocol's name, reads the value by its kind and runs its action; the protocol front ends
//! ([`crate::protocol`]) print [`OPTIONS`] in their words and report what comes back. Options
//! that only change how the protocol reads and writes (`usemillisec`, `batch`, `UCI_Variant`)
//! are registered here too, so that one table says what the engine offers; their values are in
//! [`Settings`], where the front end reads them.
//!
//! Every option listed does what it says; options the engine cannot honour are not listed.

use std::sync::Arc;
use std::thread;
use std::time::Duration;

use super::Engine;
use crate::resources::{self, ResourceError};
use crate::search::{Level, Options, Style};
use chariot_rules::notation::SquareNaming;

/// One option: its names, its kind and what a new value does.
#[derive(Clone, Copy, Debug)]
pub struct EngineOption {
    /// The UCCI name (`None`: not offered in UCCI).
    pub ucci: Option<&'static str>,
    /// The UCI name (`None`: not offered in UCI).
    pub uci: Option<&'static str>,
    /// The name in XBoard's protocol, CECP (`None`: not offered there, where a protocol command
    /// sets it instead: `memory` the hash size, `cores` the threads, `hard`/`easy` pondering,
    /// `new` a new game, `variant` the variant).
    pub cecp: Option<&'static str>,
    /// The kind of value, with its default and range or choices, and the action it takes.
    pub kind: Kind,
}

impl EngineOption {
    /// The option's name for messages: its UCI name, else its UCCI name, else its CECP name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.uci.or(self.ucci).or(self.cecp).unwrap_or_default()
    }

    /// Whether `name` is one of the option's names (ASCII case ignored).
    #[must_use]
    pub fn is_called(&self, name: &str) -> bool {
        [self.ucci, self.uci, self.cecp]
            .into_iter()
            .flatten()
            .any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// What a check option does with its new value.
pub type CheckAction = fn(&mut Engine, bool) -> Vec<Notice>;
/// What a spin option does with its new value (within the option's range).
pub type SpinAction = fn(&mut Engine, i64) -> Vec<Notice>;
/// What a combo option does with a word (in lower case): `None` when the word is none of the
/// option's.
pub type ComboAction = fn(&mut Engine, &str) -> Option<Vec<Notice>>;
/// What a string option does with its new value (as sent; empty when none was).
pub type StringAction = fn(&mut Engine, &str) -> Result<Vec<Notice>, OptionError>;
/// What pressing a button does.
pub type ButtonAction = fn(&mut Engine) -> Vec<Notice>;

/// The kind of an option's value, with what the protocols declare about it and the action a
/// new value takes (run by [`Engine::set_option`], which reads the value first).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// `true` or `false` (also `on`/`off`, `1`/`0`, in any case).
    Check {
        /// The default.
        default: bool,
        /// The action.
        on_change: CheckAction,
    },
    /// A whole number within `min..=max`.
    Spin {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
        /// The default.
        default: i64,
        /// The action.
        on_change: SpinAction,
    },
    /// One of a few words (in any case). The action may take more words than it lists (a level
    /// option takes `tiny` and `huge`, which UCCI names but the option does not offer).
    Combo {
        /// The words offered, in their natural order (the protocols list the default first).
        choices: &'static [&'static str],
        /// The default, one of `choices`.
        default: &'static str,
        /// The action.
        on_change: ComboAction,
    },
    /// Text; empty by default, which GUIs send as `<empty>` ([`resources::EMPTY`]).
    String {
        /// The action.
        on_change: StringAction,
    },
    /// No value: an action.
    Button {
        /// The action.
        on_change: ButtonAction,
    },
}

/// What setting an option has to tell the user besides that it was set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// What was loaded or is now used (`2 book files loaded, ...`, `evaluating with ...`).
    Note(String),
    /// A problem that did not stop the change (an endgame table that could not be opened).
    Warning(String),
}

/// Why an option was not set. The engine is as it was (except where a [`Notice`] of an
/// earlier, successful step said otherwise).
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    /// No option has this name in any protocol.
    #[error("unknown option {0:?}")]
    Unknown(String),
    /// A check option's value is not `true` or `false`.
    #[error("option {name}: expected true or false{}", found(.value.as_deref()))]
    NotCheck {
        /// The option's name as sent.
        name: String,
        /// The value as sent.
        value: Option<String>,
    },
    /// A spin option's value is not a number.
    #[error("option {name}: expected a number from {min} to {max}{}", found(.value.as_deref()))]
    NotNumber {
        /// The option's name as sent.
        name: String,
        /// The value as sent.
        value: Option<String>,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A spin option's value is outside its range.
    #[error("option {name}: {value} is outside {min}..{max}")]
    OutOfRange {
        /// The option's name as sent.
        name: String,
        /// The value.
        value: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A combo option's value is none of its words.
    #[error("option {name}: expected {}{}", either(choices), found(.value.as_deref()))]
    NotAChoice {
        /// The option's name as sent.
        name: String,
        /// The words the option offers.
        choices: &'static [&'static str],
        /// The value as sent.
        value: Option<String>,
    },
    /// A combo of one word (`UCI_Variant`) was sent another: the GUI asks for something the
    /// engine does not play.
    #[error("{option}: only {supported} is supported{}", found(.value.as_deref()))]
    Unsupported {
        /// The option's own name.
        option: &'static str,
        /// Its one word.
        supported: &'static str,
        /// The value as sent.
        value: Option<String>,
    },
    /// A book of `bookfiles` could not be opened; the previous books are kept.
    #[error("bookfiles: {0} (the previous books are kept)")]
    Books(ResourceError),
    /// The network of `evalfile` could not be read; the previous evaluation is kept.
    #[error("evalfile: {0} (the previous evaluation is kept)")]
    Network(ResourceError),
}

/// `, found "x"` for a value, `, but no value was given` for none (never Rust's `Some(..)`).
fn found(value: Option<&str>) -> String {
    match value {
        Some(v) => format!(", found {v:?}"),
        None => ", but no value was given".to_owned(),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn either(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The values of the options that are neither search [`Options`] nor the books, tables and
/// network: how the protocol reads and writes, and how time is planned. The protocol front
/// ends read them from [`Engine::settings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// UCCI `usemillisec`: times in `go` are milliseconds (else seconds).
    pub use_millisec: bool,
    /// UCCI `batch`: commands are not read while thinking.
    pub batch: bool,
    /// `debug` (UCI `debug on`): the protocol session echoes each command it reads as `info
    /// string debug: <line>`.
    pub debug: bool,
    /// `ponder` / `Ponder`: time is planned assuming the GUI lets the engine ponder.
    pub ponder: bool,
    /// UCI `Move Overhead`: time per move kept in reserve for GUI latency.
    pub move_overhead: Duration,
    /// How squares are named: ranks 1 to 10 once a GUI has sent `UCI_Variant xiangqi`
    /// (Fairy-Stockfish's naming), else 0 to 9.
    pub naming: SquareNaming,
    /// `usennue` / `Use NNUE`: evaluate with a network (else the hand-written evaluation).
    pub use_nnue: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            use_millisec: false,
            batch: false,
            debug: false,
            ponder: false,
            move_overhead: Duration::from_millis(30),
            naming: SquareNaming::ZeroBased,
            use_nnue: true,
        }
    }
}

/// The words of a level option (`idle`, `pruning`, `knowledge`, `randomness`, `blunders`), in
/// order.
pub const LEVELS: &[&str] = &["none", "small", "medium", "large"];

/// A level by its UCCI name in lower case (the [`LEVELS`], and `tiny` and `huge`).
fn level_word(word: &str) -> Option<Level> {
    [
        Level::None,
        Level::Tiny,
        Level::Small,
        Level::Medium,
        Level::Large,
        Level::Huge,
    ]
    .into_iter()
    .find(|l| l.name() == word)
}

/// Reads a level as the level options do (the [`LEVELS`], and `tiny` and `huge`; any case).
///
/// # Errors
/// [`OptionError::NotAChoice`] naming `name` and the value.
pub fn level(name: &str, value: Option<&str>) -> Result<Level, OptionError> {
    value
        .and_then(|v| level_word(&v.to_ascii_lowercase()))
        .ok_or_else(|| OptionError::NotAChoice {
            name: name.to_owned(),
            choices: LEVELS,
            value: value.map(str::to_owned),
        })
}

fn style_word(word: &str) -> Option<Style> {
    match word {
        "solid" => Some(Style::Solid),
        "normal" => Some(Style::Normal),
        "risky" => Some(Style::Risky),
        _ => None,
    }
}

/// Sets one search option (a new hash size takes effect at once).
fn search(engine: &mut Engine, change: impl FnOnce(&mut Options)) -> Vec<Notice> {
    let mut options = engine.options().clone();
    change(&mut options);
    engine.set_options(options);
    Vec::new()
}

/// Sets one setting.
fn setting(engine: &mut Engine, change: impl FnOnce(&mut Settings)) -> Vec<Notice> {
    change(&mut engine.settings);
    Vec::new()
}

/// A level option's action.
fn set_level(
    engine: &mut Engine,
    word: &str,
    field: fn(&mut Options) -> &mut Level,
) -> Option<Vec<Notice>> {
    let level = level_word(word)?;
    Some(search(engine, |o| *field(o) = level))
}

/// `"1 book file"`, `"2 book files"`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Every option, in the order the protocols list them.
///
/// A combo lists its choices in their natural order here; the protocols print its default
/// first (`docs/protocol.md`, "UCI2WB").
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        ucci: Some("usemillisec"),
        uci: None,
        cecp: None,
        kind: Kind::Check {
            default: false,
            on_change: |e, on| setting(e, |s| s.use_millisec = on),
        },
    },
    EngineOption {
        ucci: Some("batch"),
        uci: None,
        cecp: None,
        kind: Kind::Check {
            default: false,
            on_change: |e, on| setting(e, |s| s.batch = on),
        },
    },
    EngineOption {
        ucci: Some("debug"),
        uci: None,
        cecp: None,
        kind: Kind::Check {
            default: false,
            on_change: |e, on| setting(e, |s| s.debug = on),
        },
    },
    EngineOption {
        ucci: Some("ponder"),
        uci: Some("Ponder"),
        cecp: None,
        kind: Kind::Check {
            default: false,
            on_change: |e, on| setting(e, |s| s.ponder = on),
        },
    },
    EngineOption {
        ucci: Some("hashsize"),
        uci: Some("Hash"),
        cecp: None,
        kind: Kind::Spin {
            min: 0,
            max: 32768,
            default: 16,
            // 0 lets the engine choose (UCCI): 64 MiB.
            on_change: |e, mb| search(e, |o| o.hash_mb = if mb == 0 { 64 } else { mb as usize }),
        },
    },
    EngineOption {
        ucci: Some("threads"),
        uci: Some("Threads"),
        cecp: None,
        kind: Kind::Spin {
            min: 0,
            max: 256,
            default: 1,
            // 0 lets the engine choose (UCCI): every processor.
            on_change: |e, n| {
                let n = if n == 0 {
                    thread::available_parallelism().map_or(1, |n| n.get())
                } else {
                    n as usize
                };
                search(e, |o| o.threads = n)
            },
        },
    },
    EngineOption {
        ucci: Some("idle"),
        uci: None,
        cecp: Some("Idle"),
        kind: Kind::Combo {
            choices: LEVELS,
            default: "none",
            on_change: |e, w| set_level(e, w, |o| &mut o.idle),
        },
    },
    EngineOption {
        ucci: Some("pruning"),
        uci: Some("Pruning"),
        cecp: Some("Pruning"),
        kind: Kind::Combo {
            choices: LEVELS,
            default: "large",
            on_change: |e, w| set_level(e, w, |o| &mut o.pruning),
        },
    },
    EngineOption {
        ucci: Some("knowledge"),
        uci: Some("Knowledge"),
        cecp: Some("Knowledge"),
        kind: Kind::Combo {
            choices: LEVELS,
            default: "large",
            on_change: |e, w| set_level(e, w, |o| &mut o.knowledge),
        },
    },
    EngineOption {
        ucci: Some("randomness"),
        uci: Some("Randomness"),
        cecp: Some("Randomness"),
        kind: Kind::Combo {
            choices: LEVELS,
            default: "none",
            on_change: |e, w| set_level(e, w, |o| &mut o.randomness),
        },
    },
    EngineOption {
        ucci: Some("blunders"),
        uci: Some("Blunders"),
        cecp: Some("Blunders"),
        kind: Kind::Combo {
            choices: LEVELS,
            default: "none",
            on_change: |e, w| set_level(e, w, |o| &mut o.blunders),
        },
    },
    EngineOption {
        ucci: Some("style"),
        uci: Some("Style"),
        cecp: Some("Style"),
        kind: Kind::Combo {
            choices: &["solid", "normal", "risky"],
            default: "normal",
            on_change: |e, w| {
                let style = style_word(w)?;
                Some(search(e, |o| o.style = style))
            },
        },
    },
    EngineOption {
        ucci: Some("newgame"),
        uci: None,
        cecp: None,
        kind: Kind::Button {
            on_change: |e| {
                e.new_game();
                Vec::new()
            },
        },
    },
    EngineOption {
        ucci: None,
        uci: Some("Clear Hash"),
        cecp: Some("Clear Hash"),
        kind: Kind::Button {
            on_change: |e| {
                e.clear_hash();
                Vec::new()
            },
        },
    },
    EngineOption {
        ucci: None,
        uci: Some("MultiPV"),
        cecp: Some("MultiPV"),
        kind: Kind::Spin {
            min: 1,
            max: 64,
            default: 1,
            on_change: |e, n| search(e, |o| o.multipv = n as usize),
        },
    },
    EngineOption {
        ucci: None,
        uci: Some("Move Overhead"),
        cecp: Some("Move Overhead"),
        kind: Kind::Spin {
            min: 0,
            max: 5000,
            default: 30,
            on_change: |e, ms| setting(e, |s| s.move_overhead = Duration::from_millis(ms as u64)),
        },
    },
    EngineOption {
        ucci: None,
        uci: Some("UCI_Variant"),
        cecp: None,
        kind: Kind::Combo {
            choices: &["xiangqi"],
            default: "xiangqi",
            // A GUI built for Fairy-Stockfish names ranks 1 to 10.
            on_change: |e, w| {
                (w == "xiangqi").then(|| setting(e, |s| s.naming = SquareNaming::OneBased))
            },
        },
    },
    EngineOption {
        ucci: Some("usebook"),
        uci: Some("OwnBook"),
        cecp: Some("OwnBook"),
        kind: Kind::Check {
            default: true,
            on_change: |e, on| {
                e.set_use_book(on);
                Vec::new()
            },
        },
    },
    EngineOption {
        ucci: Some("bookfiles"),
        uci: Some("BookFile"),
        cecp: Some("BookFile"),
        kind: Kind::String {
            on_change: |e, value| {
                let paths = resources::parse_list(value);
                e.set_books(resources::load_books(&paths).map_err(OptionError::Books)?);
                let files = e.books().books().len();
                Ok(vec![Notice::Note(format!(
                    "{} loaded, {}",
                    count(files, "book file", "book files"),
                    count(e.book_entries(), "entry", "entries")
                ))])
            },
        },
    },
    EngineOption {
        ucci: Some("useegtb"),
        uci: Some("UseEGTB"),
        cecp: Some("UseEGTB"),
        kind: Kind::Check {
            default: true,
            on_change: |e, on| {
                e.set_use_egtb(on);
                Vec::new()
            },
        },
    },
    EngineOption {
        ucci: Some("egtbpaths"),
        uci: Some("EGTBPath"),
        cecp: Some("EGTBPath"),
        kind: Kind::String {
            on_change: |e, value| {
                let paths = resources::parse_list(value);
                let (tables, problems) = resources::load_tables(&paths);
                let mut notices: Vec<Notice> = problems
                    .iter()
                    .map(|p| Notice::Warning(format!("egtbpaths: {p}")))
                    .collect();
                notices.push(Notice::Note(format!(
                    "{} found",
                    count(tables.len(), "endgame table", "endgame tables")
                )));
                e.set_tables(tables);
                Ok(notices)
            },
        },
    },
    EngineOption {
        ucci: Some("usennue"),
        uci: Some("Use NNUE"),
        cecp: Some("Use NNUE"),
        kind: Kind::Check {
            default: true,
            on_change: |e, on| {
                e.settings.use_nnue = on;
                e.apply_network()
            },
        },
    },
    EngineOption {
        ucci: Some("evalfile"),
        uci: Some("EvalFile"),
        cecp: Some("EvalFile"),
        kind: Kind::String {
            on_change: |e, value| {
                e.eval_file = match resources::parse_path(value) {
                    None => None,
                    Some(path) => {
                        let net =
                            resources::load_network_file(&path).map_err(OptionError::Network)?;
                        Some((path, net))
                    }
                };
                Ok(e.apply_network())
            },
        },
    },
];

/// The option one of whose names is `name` (ASCII case ignored; every protocol's names).
#[must_use]
pub fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.is_called(name))
}

impl Engine {
    /// The values of the options that are not search [`Options`] (time planning, and how the
    /// protocol reads and writes).
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets the option called `name` (any protocol's name, any case) to `value` (`None` for
    /// a button, or when no value was sent) and runs its action; returns what the action has
    /// to say (what was loaded, a table that could not be opened).
    ///
    /// # Errors
    /// [`OptionError::Unknown`] for a name no option has; a value the option cannot take
    /// ([`OptionError::NotCheck`], [`OptionError::NotNumber`], [`OptionError::OutOfRange`],
    /// [`OptionError::NotAChoice`], [`OptionError::Unsupported`]); a book or network file that
    /// cannot be read ([`OptionError::Books`], [`OptionError::Network`]). The engine is then as
    /// it was.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<Vec<Notice>, OptionError> {
        let option = find(name).ok_or_else(|| OptionError::Unknown(name.to_owned()))?;
        let owned = || value.map(str::to_owned);
        match option.kind {
            Kind::Check { on_change, .. } => {
                let on = match value.map(str::to_ascii_lowercase).as_deref() {
                    Some("true" | "on" | "1") => true,
                    Some("false" | "off" | "0") => false,
                    _ => {
                        return Err(OptionError::NotCheck {
                            name: name.to_owned(),
                            value: owned(),
                        });
                    }
                };
                Ok(on_change(self, on))
            }
            Kind::Spin {
                min,
                max,
                on_change,
                ..
            } => {
                let n: i64 = value.and_then(|v| v.trim().parse().ok()).ok_or_else(|| {
                    OptionError::NotNumber {
                        name: name.to_owned(),
                        value: owned(),
                        min,
                        max,
                    }
                })?;
                if !(min..=max).contains(&n) {
                    return Err(OptionError::OutOfRange {
                        name: name.to_owned(),
                        value: n,
                        min,
                        max,
                    });
                }
                Ok(on_change(self, n))
            }
            Kind::Combo {
                choices, on_change, ..
            } => {
                let word = value.map(str::to_ascii_lowercase);
                word.and_then(|w| on_change(self, &w))
                    .ok_or_else(|| match choices {
                        [one] => OptionError::Unsupported {
                            option: option.name(),
                            supported: one,
                            value: owned(),
                        },
                        _ => OptionError::NotAChoice {
                            name: name.to_owned(),
                            choices,
                            value: owned(),
                        },
                    })
            }
            Kind::String { on_change } => on_change(self, value.unwrap_or("")),
            Kind::Button { on_change } => Ok(on_change(self)),
        }
    }

    /// Gives the search the evaluation `usennue` and `evalfile` ask for, and says which.
    fn apply_network(&mut self) -> Vec<Notice> {
        let network = if self.settings.use_nnue {
            match &self.eval_file {
                Some((_, net)) => Some(Arc::clone(net)),
                // The built-in network (`None` only if its bytes were damaged).
                None => resources::default_network(),
            }
        } else {
            None
        };
        let file = self.eval_file.as_ref().map(|(path, _)| path.as_path());
        let note = format!(
            "evaluating with {}",
            resources::describe_evaluation(network.as_deref(), file)
        );
        self.set_network(network);
        vec![Notice::Note(note)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_formats::book::BookSet;
    use chariot_formats::egtb::Tablebases;

    fn engine() -> Engine {
        Engine::with(BookSet::default(), Tablebases::default())
    }

    /// What the options set, to compare engines by.
    fn state(e: &Engine) -> (Options, Settings, bool, bool) {
        (
            e.options().clone(),
            e.settings().clone(),
            e.use_book,
            e.use_egtb,
        )
    }

    #[test]
    fn every_name_finds_one_option_in_any_case() {
        // An option may have one name in several protocols (`ponder`, `Ponder`): counted once.
        let mut names: Vec<String> = OPTIONS
            .iter()
            .flat_map(|o| {
                let mut own: Vec<String> = [o.ucci, o.uci, o.cecp]
                    .into_iter()
                    .flatten()
                    .map(str::to_ascii_lowercase)
                    .collect();
                own.sort();
                own.dedup();
                own
            })
            .collect();
        let all = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all, "two options share a name");
        assert!(OPTIONS.iter().all(|o| o.ucci.is_some() || o.uci.is_some()));
        assert_eq!(find("idle").map(EngineOption::name), Some("idle"));
        assert_eq!(find("Idle").map(EngineOption::name), Some("idle"));
        assert_eq!(find("HASHSIZE").map(EngineOption::name), Some("Hash"));
        assert_eq!(find("hash").map(EngineOption::name), Some("Hash"));
        assert_eq!(
            find("clear hash").map(EngineOption::name),
            Some("Clear Hash")
        );
        assert!(find("nonsense").is_none());
    }

    #[test]
    fn every_combo_takes_each_of_its_choices_and_its_default_is_one() {
        for option in OPTIONS {
            let Kind::Combo {
                choices, default, ..
            } = option.kind
            else {
                continue;
            };
            assert!(choices.contains(&default), "{}", option.name());
            for choice in choices {
                let mut e = engine();
                let upper = choice.to_ascii_uppercase();
                assert!(
                    e.set_option(option.name(), Some(&upper)).is_ok(),
                    "{} {upper}",
                    option.name()
                );
            }
        }
    }

    #[test]
    fn a_fresh_engine_has_the_declared_defaults() {
        for option in OPTIONS {
            let value = match option.kind {
                Kind::Check { default, .. } => default.to_string(),
                Kind::Spin { default, .. } => default.to_string(),
                // Sending UCI_Variant at all is what switches the naming of squares.
                Kind::Combo { .. } if option.name() == "UCI_Variant" => continue,
                Kind::Combo { default, .. } => default.to_owned(),
                Kind::String { .. } | Kind::Button { .. } => continue,
            };
            let mut e = engine();
            let before = state(&e);
            e.set_option(option.name(), Some(&value)).unwrap();
            assert_eq!(state(&e), before, "{} {value}", option.name());
        }
    }

    #[test]
    fn values_are_read_by_kind_and_actions_act_on_the_engine() {
        let mut e = engine();
        e.set_option("hashsize", Some("0")).unwrap();
        assert_eq!(e.options().hash_mb, 64, "0 is the engine's choice");
        e.set_option("Hash", Some(" 8 ")).unwrap();
        assert_eq!(e.options().hash_mb, 8);
        e.set_option("threads", Some("0")).unwrap();
        assert!(e.options().threads >= 1);
        e.set_option("ponder", Some("ON")).unwrap();
        assert!(e.settings().ponder);
        e.set_option("pruning", Some("Tiny")).unwrap();
        assert_eq!(e.options().pruning, Level::Tiny);
        e.set_option("style", Some("RISKY")).unwrap();
        assert_eq!(e.options().style, Style::Risky);
        e.set_option("Move Overhead", Some("100")).unwrap();
        assert_eq!(e.settings().move_overhead, Duration::from_millis(100));
        e.set_option("uci_variant", Some("Xiangqi")).unwrap();
        assert_eq!(e.settings().naming, SquareNaming::OneBased);
        e.set_option("OwnBook", Some("false")).unwrap();
        assert!(!e.use_book);
        let notes = e.set_option("usennue", Some("false")).unwrap();
        assert_eq!(
            notes,
            [Notice::Note(
                "evaluating with the hand-written evaluation".into()
            )]
        );
        assert!(e.network().is_none());
        let notes = e.set_option("bookfiles", Some("<empty>")).unwrap();
        assert!(
            matches!(&notes[..], [Notice::Note(n)] if n.starts_with("1 book file loaded, ")),
            "{notes:?}"
        );
        assert_eq!(e.books().books().len(), 1);
        assert!(e.set_option("newgame", None).unwrap().is_empty());
    }

    #[test]
    fn bad_values_are_typed_errors_that_name_the_option_and_leave_the_engine_as_it_was() {
        let mut e = engine();
        let before = state(&e);
        let mut error = |name: &str, value: Option<&str>| {
            let err = e.set_option(name, value).unwrap_err();
            (err.to_string(), err)
        };
        let (text, err) = error("Nonsense", Some("1"));
        assert!(matches!(err, OptionError::Unknown(_)));
        assert_eq!(text, "unknown option \"Nonsense\"");
        let (text, err) = error("HashSize", Some("lots"));
        assert!(matches!(err, OptionError::NotNumber { .. }));
        assert_eq!(
            text,
            "option HashSize: expected a number from 0 to 32768, found \"lots\""
        );
        let (text, _) = error("MultiPV", Some("65"));
        assert_eq!(text, "option MultiPV: 65 is outside 1..64");
        let (text, _) = error("ponder", None);
        assert_eq!(
            text,
            "option ponder: expected true or false, but no value was given"
        );
        let (text, _) = error("idle", Some("wild"));
        assert_eq!(
            text,
            "option idle: expected none, small, medium or large, found \"wild\""
        );
        let (text, _) = error("style", Some("wild"));
        assert_eq!(
            text,
            "option style: expected solid, normal or risky, found \"wild\""
        );
        let (text, err) = error("uci_variant", Some("chess"));
        assert!(matches!(err, OptionError::Unsupported { .. }));
        assert_eq!(
            text,
            "UCI_Variant: only xiangqi is supported, found \"chess\""
        );
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.xqb");
        let (text, err) = error("BookFile", Some(missing.to_str().unwrap()));
        assert!(matches!(err, OptionError::Books(_)));
        assert!(
            text.starts_with("bookfiles: ") && text.ends_with("(the previous books are kept)"),
            "{text}"
        );
        let (_, err) = error("evalfile", Some("/nonexistent/x.nnue"));
        assert!(matches!(err, OptionError::Network(_)));
        assert_eq!(state(&e), before);
        assert!(e.network().is_some(), "the built-in network is kept");
        assert!(e.books().is_empty(), "no book was loaded");
    }

    #[test]
    fn a_table_directory_that_cannot_be_read_is_a_warning_before_the_count() {
        let mut e = engine();
        let notices = e.set_option("egtbpaths", Some("/nonexistent/dir")).unwrap();
        assert!(
            matches!(&notices[..], [Notice::Warning(w), Notice::Note(n)]
                if w.starts_with("egtbpaths: ") && n == "0 endgame tables found"),
            "{notices:?}"
        );
    }

    #[test]
    fn the_level_reader_is_the_options() {
        assert_eq!(level("pruning", Some("HUGE")).unwrap(), Level::Huge);
        assert_eq!(
            level("pruning", Some("lots")).unwrap_err().to_string(),
            "option pruning: expected none, small, medium or large, found \"lots\""
        );
    }
}
