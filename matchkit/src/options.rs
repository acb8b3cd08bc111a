//! An engine's options as it declares them in its handshake, and the check of a value against
//! its declaration (what a GUI does before it sends `setoption`).
//!
//! UCI declares `option name NAME type KIND [default D] [min N] [max N] [var V]...` (NAME may
//! have spaces: Pikafish's `Move Overhead`); UCCI 3.0 `option NAME type KIND ...` with the same
//! words, its `default` after the choices (`option idle type combo var none var small default
//! none`). UCI's `<empty>` is an empty string. A value for a string option may not hold a line
//! break: it would end the `setoption` line and the rest would reach the engine as a command.

use std::fmt;

use thiserror::Error;

/// What kind of option, with what its declaration says of the values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check {
        /// The default (`false` when not declared).
        default: bool,
    },
    /// A whole number, maybe within bounds.
    Spin {
        /// The default (the minimum, else 0, when not declared).
        default: i64,
        /// The least value allowed, if declared.
        min: Option<i64>,
        /// The greatest value allowed, if declared.
        max: Option<i64>,
    },
    /// One of a list of words.
    Combo {
        /// The default (the first choice when not declared).
        default: String,
        /// The choices, as declared.
        choices: Vec<String>,
    },
    /// Any one line of text (a path, a name).
    String {
        /// The default (empty for UCI's `<empty>`).
        default: String,
    },
    /// An action without a value (`Clear Hash`): setting it presses it.
    Button,
}

/// One option an engine declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Its name, as declared (options are looked up regardless of case).
    pub name: String,
    /// Its kind and values.
    pub kind: OptionKind,
}

/// Why a value cannot be given to an option.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OptionValueError {
    /// A check option takes `true` or `false`.
    #[error("{name} takes true or false, not {value:?}")]
    NotBool {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// A spin option takes a whole number within its bounds.
    #[error("{name} takes a whole number{range}, not {value:?}")]
    NotInRange {
        /// The option.
        name: String,
        /// ` from MIN to MAX`, or what part of it is declared.
        range: String,
        /// The value given.
        value: String,
    },
    /// A combo option takes one of its choices.
    #[error("{name} takes one of {choices}, not {value:?}")]
    NotAChoice {
        /// The option.
        name: String,
        /// The choices, comma-separated.
        choices: String,
        /// The value given.
        value: String,
    },
    /// A value with a line break.
    #[error("a value of {name} may not hold a line break")]
    LineBreak {
        /// The option.
        name: String,
    },
    /// A button takes no value.
    #[error("{name} is a button: it takes no value (an empty one presses it)")]
    Button {
        /// The option.
        name: String,
    },
}

/// The words that start a part of an option's declaration after `type KIND`.
const KEYWORDS: [&str; 4] = ["default", "min", "max", "var"];

impl EngineOption {
    /// Reads an `option` line of UCI (`option name NAME type ...`) or UCCI (`option NAME type
    /// ...`); `None` for a line without a name or a known type (`check`, `spin`, `combo`,
    /// `string`, `button`).
    #[must_use]
    pub fn parse(line: &str) -> Option<EngineOption> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"option") {
            return None;
        }
        let type_at = words.iter().position(|&w| w == "type")?;
        let name_from = if words.get(1) == Some(&"name") { 2 } else { 1 };
        let name = words.get(name_from..type_at)?.join(" ");
        if name.is_empty() {
            return None;
        }
        let kind = *words.get(type_at + 1)?;
        // The parts after the kind: each keyword with the words up to the next keyword.
        let mut parts: Vec<(&str, String)> = Vec::new();
        for &w in &words[type_at + 2..] {
            match parts.last_mut() {
                _ if KEYWORDS.contains(&w) => parts.push((w, String::new())),
                Some((_, value)) => {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(w);
                }
                None => {}
            }
        }
        let part = |key: &str| {
            parts
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| if v == "<empty>" { "" } else { v.as_str() })
        };
        let number = |key: &str| part(key).and_then(|v| v.parse::<i64>().ok());
        let kind = match kind {
            "check" => OptionKind::Check {
                default: part("default").is_some_and(|v| v.eq_ignore_ascii_case("true")),
            },
            "spin" => {
                let (min, max) = (number("min"), number("max"));
                OptionKind::Spin {
                    default: number("default").or(min).unwrap_or(0),
                    min,
                    max,
                }
            }
            "combo" => {
                let choices: Vec<String> = parts
                    .iter()
                    .filter(|(k, v)| *k == "var" && !v.is_empty())
                    .map(|(_, v)| v.clone())
                    .collect();
                let default = part("default")
                    .map(str::to_owned)
                    .or_else(|| choices.first().cloned())
                    .unwrap_or_default();
                OptionKind::Combo { default, choices }
            }
            "string" => OptionKind::String {
                default: part("default").unwrap_or("").to_owned(),
            },
            "button" => OptionKind::Button,
            _ => return None,
        };
        Some(EngineOption { name, kind })
    }

    /// The kind's name as declared: `check`, `spin`, `combo`, `string`, `button`.
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::String { .. } => "string",
            OptionKind::Button => "button",
        }
    }

    /// The default value as text (empty for a button).
    #[must_use]
    pub fn default_value(&self) -> String {
        match &self.kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } | OptionKind::String { default } => default.clone(),
            OptionKind::Button => String::new(),
        }
    }

    /// `value` as this option takes it: `true`/`false` for a check (any case), a whole number
    /// within the bounds for a spin, one of the choices for a combo (any case; the declared
    /// spelling is returned), one line for a string, nothing for a button.
    ///
    /// # Errors
    /// [`OptionValueError`] saying what the option takes.
    pub fn check(&self, value: &str) -> Result<String, OptionValueError> {
        let name = || self.name.clone();
        if value.contains(['\n', '\r']) {
            return Err(OptionValueError::LineBreak { name: name() });
        }
        match &self.kind {
            OptionKind::Check { .. } => match value.trim().to_ascii_lowercase().as_str() {
                v @ ("true" | "false") => Ok(v.to_owned()),
                _ => Err(OptionValueError::NotBool {
                    name: name(),
                    value: value.to_owned(),
                }),
            },
            OptionKind::Spin { min, max, .. } => value
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|v| min.is_none_or(|m| *v >= m) && max.is_none_or(|m| *v <= m))
                .map(|v| v.to_string())
                .ok_or_else(|| OptionValueError::NotInRange {
                    name: name(),
                    range: Range(*min, *max).to_string(),
                    value: value.to_owned(),
                }),
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(value.trim()))
                .cloned()
                .ok_or_else(|| OptionValueError::NotAChoice {
                    name: name(),
                    choices: choices.join(", "),
                    value: value.to_owned(),
                }),
            OptionKind::String { .. } => Ok(value.to_owned()),
            OptionKind::Button if value.trim().is_empty() => Ok(String::new()),
            OptionKind::Button => Err(OptionValueError::Button { name: name() }),
        }
    }
}

/// The bounds of a spin option in words: ` from 1 to 512`, ` from 1`, ` up to 9`, or nothing.
struct Range(Option<i64>, Option<i64>);

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (Some(a), Some(b)) => write!(f, " from {a} to {b}"),
            (Some(a), None) => write!(f, " from {a}"),
            (None, Some(b)) => write!(f, " up to {b}"),
            (None, None) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(line: &str) -> EngineOption {
        EngineOption::parse(line).unwrap_or_else(|| panic!("{line}"))
    }

    #[test]
    fn reads_pikafish_and_fairy_stockfish_declarations() {
        let o = option("option name Move Overhead type spin default 10 min 0 max 5000");
        assert_eq!(o.name, "Move Overhead");
        assert_eq!(
            o.kind,
            OptionKind::Spin {
                default: 10,
                min: Some(0),
                max: Some(5000)
            }
        );
        let o = option("option name Debug Log File type string default <empty>");
        assert_eq!(
            (o.name.as_str(), o.default_value()),
            ("Debug Log File", String::new())
        );
        assert_eq!(
            option("option name Clear Hash type button").kind,
            OptionKind::Button
        );
        let o = option("option name UCI_ShowWDL type check default false");
        assert_eq!(o.kind, OptionKind::Check { default: false });
        let o = option(
            "option name Analysis_Contempt type combo default Both var Both var Off var White var Black",
        );
        assert_eq!(o.default_value(), "Both");
        assert_eq!(o.check("off").unwrap(), "Off");
        // Fairy-Stockfish in UCCI mode: no `name`, an empty string default.
        let o = option("option Debug_Log_File type string default ");
        assert_eq!(
            (o.name.as_str(), o.kind_name()),
            ("Debug_Log_File", "string")
        );
    }

    #[test]
    fn reads_ucci_declarations_with_the_default_last() {
        let o =
            option("option idle type combo var none var small var medium var large default none");
        assert_eq!(
            o.kind,
            OptionKind::Combo {
                default: "none".to_owned(),
                choices: ["none", "small", "medium", "large"]
                    .map(str::to_owned)
                    .to_vec()
            }
        );
        let o = option("option hashsize type spin min 0 max 1024 default 16");
        assert_eq!(o.default_value(), "16");
        assert_eq!(o.kind_name(), "spin");
        assert!(EngineOption::parse("option name X").is_none());
        assert!(EngineOption::parse("option name X type slider default 3").is_none());
        assert!(EngineOption::parse("id name X").is_none());
    }

    #[test]
    fn values_are_checked_against_the_declaration() {
        let spin = option("option name Threads type spin default 1 min 1 max 512");
        assert_eq!(spin.check(" 4 ").unwrap(), "4");
        let e = spin.check("0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Threads takes a whole number from 1 to 512, not \"0\""
        );
        assert!(spin.check("two").is_err());
        let check = option("option name Ponder type check default false");
        assert_eq!(check.check("TRUE").unwrap(), "true");
        assert!(matches!(
            check.check("yes"),
            Err(OptionValueError::NotBool { .. })
        ));
        let combo = option("option name Style type combo default normal var solid var normal");
        let e = combo.check("wild").unwrap_err();
        assert_eq!(
            e.to_string(),
            "Style takes one of solid, normal, not \"wild\""
        );
        let string = option("option name EvalFile type string default pikafish.nnue");
        assert_eq!(string.check("a b.nnue").unwrap(), "a b.nnue");
        assert!(matches!(
            string.check("x\nquit"),
            Err(OptionValueError::LineBreak { .. })
        ));
        let button = option("option name Clear Hash type button");
        assert_eq!(button.check("").unwrap(), "");
        assert!(button.check("now").is_err());
    }
}
