//! The engine's options, with their UCCI and UCI names, and how `setoption` values are read.
//!
//! Every option listed here does what it says; options the engine cannot honour are not listed.

use crate::search::{Level, Style};

/// One configurable option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// UCCI `usemillisec`: times in `go` are milliseconds (else seconds).
    UseMillisec,
    /// UCCI `batch`: commands are not read while thinking.
    Batch,
    /// `debug` / UCI `debug on`: extra `info` lines.
    Debug,
    /// `ponder` / `Ponder`: plan time assuming the GUI lets the engine ponder.
    Ponder,
    /// `hashsize` / `Hash`: transposition table MiB.
    Hash,
    /// `threads` / `Threads`: search threads.
    Threads,
    /// `idle`: leave processor time to other programs.
    Idle,
    /// `pruning`: how selective the search is.
    Pruning,
    /// `knowledge`: how much the evaluation knows.
    Knowledge,
    /// `randomness`: noise to vary play.
    Randomness,
    /// `style`: solid, normal or risky.
    Style,
    /// `newgame` / `ucinewgame`: forget the previous game.
    NewGame,
    /// UCI `Clear Hash`.
    ClearHash,
    /// UCI `MultiPV`.
    MultiPv,
    /// UCI `Move Overhead` (ms per move kept in reserve for GUI latency).
    MoveOverhead,
    /// UCI `UCI_Variant` (only `xiangqi`): switches to ranks 1-10.
    Variant,
    /// `usebook` / `OwnBook`: play book moves.
    UseBook,
    /// `bookfiles` / `BookFile`: `;`-separated book files (empty: the built-in book).
    BookFiles,
    /// `useegtb` / `UseEGTB`: play and score by endgame tables.
    UseEgtb,
    /// `egtbpaths` / `EGTBPath`: `;`-separated table directories or files.
    EgtbPaths,
    /// `usennue` / `Use NNUE`: evaluate with a neural network (the built-in one, or
    /// `evalfile`'s); `false`: the hand-written evaluation.
    UseNnue,
    /// `evalfile` / `EvalFile`: a neural network (`.nnue`) to evaluate with; empty: the
    /// built-in network.
    EvalFile,
}

/// Which protocol an option is offered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCCI.
    Ucci,
    /// UCI.
    Uci,
}

/// The option table: id, UCCI name, UCI name, declaration after the name (type, range, default).
///
/// A combo lists its default as its FIRST `var`: UCI2WB (XBoard's adapter) drops the `default`
/// field of a combo, so XBoard takes the first choice for the default and sends it back at every
/// engine start; listed in the natural order, `pruning none`, `knowledge none` and `style solid`
/// would come back and weaken the engine. The `default` field stays, after the choices, where
/// UCCI 3.0 puts it; GUIs that read it are unaffected. A unit test keeps the rule.
pub const OPTIONS: &[(OptionId, Option<&str>, Option<&str>, &str)] = &[
    (
        OptionId::UseMillisec,
        Some("usemillisec"),
        None,
        "type check default false",
    ),
    (
        OptionId::Batch,
        Some("batch"),
        None,
        "type check default false",
    ),
    (
        OptionId::Debug,
        Some("debug"),
        None,
        "type check default false",
    ),
    (
        OptionId::Ponder,
        Some("ponder"),
        Some("Ponder"),
        "type check default false",
    ),
    (
        OptionId::Hash,
        Some("hashsize"),
        Some("Hash"),
        "type spin min 0 max 32768 default 16",
    ),
    (
        OptionId::Threads,
        Some("threads"),
        Some("Threads"),
        "type spin min 0 max 256 default 1",
    ),
    (
        OptionId::Idle,
        Some("idle"),
        None,
        "type combo var none var small var medium var large default none",
    ),
    (
        OptionId::Pruning,
        Some("pruning"),
        Some("Pruning"),
        "type combo var large var none var small var medium default large",
    ),
    (
        OptionId::Knowledge,
        Some("knowledge"),
        Some("Knowledge"),
        "type combo var large var none var small var medium default large",
    ),
    (
        OptionId::Randomness,
        Some("randomness"),
        Some("Randomness"),
        "type combo var none var small var medium var large default none",
    ),
    (
        OptionId::Style,
        Some("style"),
        Some("Style"),
        "type combo var normal var solid var risky default normal",
    ),
    (OptionId::NewGame, Some("newgame"), None, "type button"),
    (OptionId::ClearHash, None, Some("Clear Hash"), "type button"),
    (
        OptionId::MultiPv,
        None,
        Some("MultiPV"),
        "type spin min 1 max 64 default 1",
    ),
    (
        OptionId::MoveOverhead,
        None,
        Some("Move Overhead"),
        "type spin min 0 max 5000 default 30",
    ),
    (
        OptionId::Variant,
        None,
        Some("UCI_Variant"),
        "type combo var xiangqi default xiangqi",
    ),
    (
        OptionId::UseBook,
        Some("usebook"),
        Some("OwnBook"),
        "type check default true",
    ),
    (
        OptionId::BookFiles,
        Some("bookfiles"),
        Some("BookFile"),
        "type string default <empty>",
    ),
    (
        OptionId::UseEgtb,
        Some("useegtb"),
        Some("UseEGTB"),
        "type check default true",
    ),
    (
        OptionId::EgtbPaths,
        Some("egtbpaths"),
        Some("EGTBPath"),
        "type string default <empty>",
    ),
    (
        OptionId::UseNnue,
        Some("usennue"),
        Some("Use NNUE"),
        "type check default true",
    ),
    (
        OptionId::EvalFile,
        Some("evalfile"),
        Some("EvalFile"),
        "type string default <empty>",
    ),
];

/// The `option` lines a protocol lists after `ucci`/`uci`.
#[must_use]
pub fn declarations(proto: Proto) -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|&(_, ucci, uci, decl)| match proto {
            Proto::Ucci => ucci.map(|n| format!("option {n} {decl}")),
            Proto::Uci => uci.map(|n| format!("option name {n} {decl}")),
        })
        .collect()
}

/// Finds an option by the name a GUI sent (case-insensitive; both protocols' names accepted).
#[must_use]
pub fn lookup(name: &str) -> Option<OptionId> {
    OPTIONS.iter().find_map(|&(id, ucci, uci, _)| {
        let hit = |n: Option<&str>| n.is_some_and(|n| n.eq_ignore_ascii_case(name));
        (hit(ucci) || hit(uci)).then_some(id)
    })
}

/// `, found "x"` for a value, `, but no value was given` for none (never Rust's `Some(..)`).
pub fn found(value: Option<&str>) -> String {
    match value {
        Some(v) => format!(", found {v:?}"),
        None => ", but no value was given".to_owned(),
    }
}

/// Reads a check value (`true`/`false`, also `on`/`off`).
///
/// # Errors
/// A message naming the option and the value.
pub fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true" | "on" | "1") => Ok(true),
        Some("false" | "off" | "0") => Ok(false),
        _ => Err(format!(
            "option {name}: expected true or false{}",
            found(value)
        )),
    }
}

/// Reads a spin value within `min..=max`.
///
/// # Errors
/// A message naming the option, the value and the range.
pub fn spin(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let v: i64 = value.and_then(|v| v.trim().parse().ok()).ok_or_else(|| {
        format!(
            "option {name}: expected a number from {min} to {max}{}",
            found(value)
        )
    })?;
    if (min..=max).contains(&v) {
        Ok(v)
    } else {
        Err(format!("option {name}: {v} is outside {min}..{max}"))
    }
}

/// Reads a UCCI level (`none`, `small`, `medium`, `large`; `tiny` and `huge` also accepted).
///
/// # Errors
/// A message naming the option and the value.
pub fn level(name: &str, value: Option<&str>) -> Result<Level, String> {
    Ok(match value.map(str::to_ascii_lowercase).as_deref() {
        Some("none") => Level::None,
        Some("tiny") => Level::Tiny,
        Some("small") => Level::Small,
        Some("medium") => Level::Medium,
        Some("large") => Level::Large,
        Some("huge") => Level::Huge,
        _ => {
            return Err(format!(
                "option {name}: expected none, small, medium or large{}",
                found(value)
            ));
        }
    })
}

/// Reads a style.
///
/// # Errors
/// A message naming the option and the value.
pub fn style(name: &str, value: Option<&str>) -> Result<Style, String> {
    Ok(match value.map(str::to_ascii_lowercase).as_deref() {
        Some("solid") => Style::Solid,
        Some("normal") => Style::Normal,
        Some("risky") => Style::Risky,
        _ => {
            return Err(format!(
                "option {name}: expected solid, normal or risky{}",
                found(value)
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_protocols_find_their_names() {
        assert_eq!(lookup("hashsize"), Some(OptionId::Hash));
        assert_eq!(lookup("hash"), Some(OptionId::Hash));
        assert_eq!(lookup("clear hash"), Some(OptionId::ClearHash));
        assert_eq!(lookup("nonsense"), None);
        assert!(
            declarations(Proto::Ucci)
                .contains(&"option usemillisec type check default false".to_owned())
        );
        assert!(
            declarations(Proto::Uci)
                .iter()
                .any(|d| d.starts_with("option name Hash type spin"))
        );
        assert!(
            declarations(Proto::Uci)
                .iter()
                .all(|d| !d.contains("usemillisec"))
        );
    }

    #[test]
    fn every_combo_lists_its_default_first() {
        for &(_, ucci, uci, decl) in OPTIONS {
            if !decl.starts_with("type combo") {
                continue;
            }
            let first = decl
                .split(" var ")
                .nth(1)
                .and_then(|v| v.split_whitespace().next());
            let default = decl.split(" default ").nth(1);
            assert_eq!(first, default, "{ucci:?}/{uci:?}: {decl}");
        }
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(check("ponder", Some("TRUE")), Ok(true));
        assert!(check("ponder", Some("maybe")).is_err());
        assert_eq!(spin("Hash", Some("64"), 0, 100), Ok(64));
        assert!(spin("Hash", Some("640"), 0, 100).is_err());
        assert!(spin("Hash", None, 0, 100).is_err());
        assert_eq!(level("pruning", Some("medium")), Ok(Level::Medium));
        assert!(style("style", Some("wild")).is_err());
    }
}
