//! How an external engine is given to `chariot serve`: `--engine NAME=CMD [KEY=VALUE ...]`.
//!
//! Each `--engine` is one value, one engine ([`EngineSpec::parse_value`]): its words split as a
//! shell splits them, so the settings go inside the quotes with the name and program
//! (`--engine 'fsf=/usr/games/fairy-stockfish proto=uci option.Hash=64'`). A word without `=`
//! is an argument of the program (`--engine 'ee=eleeye -q'`; `arg=WORD` for one with `=`).
//!
//! NAME is the engine's name in the API and the page (letters, digits, `.`, `_`, `-`); CMD the
//! program (a path, or a name the `PATH` finds). The words after it are the engine settings of
//! the match kit's command lines (`chariot_matchkit::settings`), as `chariot-league` reads
//! them: `option.NAME=VALUE` (an option set at every start, checked against what the engine
//! declares), `arg=WORD` (repeatable), `dir=DIR`, `proto=ucci|uci|auto`,
//! `variant=auto|xiangqi|none`, `timemargin=MS` (the grace after a time limit before the loss
//! on time; 1000 by default here, as a browser's round trip is no engine's fault), and
//! `handshake=SECONDS`.

use std::time::Duration;

use chariot_matchkit::client::{EngineConfig, ProtocolChoice, VariantChoice};
use chariot_matchkit::clock::TimeControl;
use chariot_matchkit::settings::{EngineSettings, key_values};

/// The grace after a time limit before an external engine loses on time, unless
/// `timemargin=` says otherwise.
pub const DEFAULT_GRACE: Duration = Duration::from_millis(1000);

/// One external engine as the server was told it.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Its name in the API and the page.
    pub name: String,
    /// How the match kit's client starts and drives it; its `options` are set at every start.
    pub config: EngineConfig,
}

impl EngineSpec {
    /// Reads the value of one `--engine`: its words split as a shell would, then read as
    /// [`EngineSpec::parse`] reads them.
    ///
    /// # Errors
    /// A quote that does not close, and those of [`EngineSpec::parse`].
    pub fn parse_value(value: &str) -> Result<EngineSpec, String> {
        let words =
            shlex::split(value).ok_or_else(|| format!("{value:?}: a quote is not closed"))?;
        EngineSpec::parse(&words)
    }

    /// Reads `NAME=CMD [KEY=VALUE | WORD ...]` (a WORD without `=` is an argument of the
    /// program, as `arg=WORD`).
    ///
    /// # Errors
    /// What is wrong, naming the word: no `=` in the first word, a name with other characters
    /// than letters, digits, `.`, `_` and `-`, an empty command, an unknown setting or a value
    /// that cannot be read.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let (first, rest) = words
            .split_first()
            .ok_or_else(|| "NAME=CMD is missing".to_owned())?;
        let (name, cmd) = first
            .split_once('=')
            .ok_or_else(|| format!("{first:?} is not NAME=CMD"))?;
        check_name(name)?;
        if cmd.is_empty() {
            return Err(format!("{first:?}: the command is empty"));
        }
        let ctx = |e: String| format!("{name}: {e}");
        let words: Vec<String> = rest
            .iter()
            .map(|w| {
                if w.contains('=') {
                    w.clone()
                } else {
                    format!("arg={w}")
                }
            })
            .collect();
        let pairs = key_values(&words).map_err(ctx)?;
        let mut protocol = ProtocolChoice::Auto;
        let mut variant = VariantChoice::Auto;
        let settings = EngineSettings::read(&[], &pairs, |k, v| {
            match k {
                "proto" => protocol = v.parse()?,
                "variant" => variant = v.parse()?,
                _ => {
                    return Err(format!(
                        "unknown setting {k:?} (option.NAME, arg, dir, proto, variant, timemargin, handshake)"
                    ));
                }
            }
            Ok(())
        })
        .map_err(ctx)?;
        if settings.cmd.is_some() || settings.name.is_some() {
            return Err(ctx(
                "the name and command are given by NAME=CMD, not cmd= or name=".into(),
            ));
        }
        let given_grace = pairs.iter().any(|(k, _)| k == "timemargin");
        // The time control is the kit's for runners' clocks; the web's games send their own.
        let mut config = EngineConfig::new(
            cmd,
            TimeControl {
                moves: None,
                base: Duration::from_secs(60),
                increment: Duration::ZERO,
            },
        );
        config.name = Some(name.to_owned());
        config.launch = settings.launch(cmd);
        config.protocol = protocol;
        config.variant = variant;
        config.options = settings.options;
        config.grace = if given_grace {
            settings.grace
        } else {
            DEFAULT_GRACE
        };
        config.handshake = settings.handshake;
        Ok(EngineSpec {
            name: name.to_owned(),
            config,
        })
    }
}

/// A name the API can carry in a path: 1 to 40 letters, digits, `.`, `_` or `-`.
fn check_name(name: &str) -> Result<(), String> {
    let fine = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if name.is_empty() || name.len() > 40 || !name.chars().all(fine) {
        return Err(format!(
            "engine name {name:?}: 1 to 40 letters, digits, '.', '_' or '-'"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_matchkit::client::Protocol;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn reads_the_name_command_and_settings() {
        let spec = EngineSpec::parse(&words(
            "fsf=/usr/games/fairy-stockfish proto=uci option.Hash=32 arg=-q timemargin=300",
        ))
        .unwrap();
        assert_eq!(spec.name, "fsf");
        assert_eq!(
            spec.config.launch.command,
            std::path::PathBuf::from("/usr/games/fairy-stockfish")
        );
        assert_eq!(spec.config.launch.args, ["-q"]);
        assert_eq!(spec.config.protocol, ProtocolChoice::Fixed(Protocol::Uci));
        assert_eq!(spec.config.options, [("Hash".to_owned(), "32".to_owned())]);
        assert_eq!(spec.config.grace, Duration::from_millis(300));
        let plain = EngineSpec::parse(&words("pikafish=pikafish")).unwrap();
        assert_eq!(plain.config.grace, DEFAULT_GRACE);
        assert_eq!(plain.config.protocol, ProtocolChoice::Auto);
    }

    #[test]
    fn one_value_is_one_engine_split_as_a_shell_splits_words() {
        let spec =
            EngineSpec::parse_value("pika=\"/opt/pika fish/pikafish\" -x arg=--y=1 option.Hash=8")
                .unwrap();
        assert_eq!(spec.name, "pika");
        assert_eq!(
            spec.config.launch.command,
            std::path::PathBuf::from("/opt/pika fish/pikafish")
        );
        assert_eq!(spec.config.launch.args, ["-x", "--y=1"]);
        assert_eq!(spec.config.options.len(), 1);
        assert!(
            EngineSpec::parse_value("a='b")
                .unwrap_err()
                .contains("quote")
        );
    }

    #[test]
    fn mistakes_are_named() {
        let error = |s: &str| EngineSpec::parse(&words(s)).unwrap_err();
        assert!(error("fsf").contains("not NAME=CMD"));
        assert!(error("=x").contains("engine name"));
        assert!(error("a/b=x").contains("engine name \"a/b\""));
        assert!(error("fsf=").contains("command is empty"));
        assert!(error("fsf=x proto=cecp").contains("unknown protocol"));
        assert!(error("fsf=x tc=10").contains("unknown setting \"tc\""));
        assert!(error("fsf=x cmd=y").contains("NAME=CMD"));
        assert!(error("fsf=x =oops").contains("KEY=VALUE"));
    }
}
