//! `KEY=VALUE` settings as the command lines take them, after cutechess-cli
//! (`--engine cmd=./eleeye name=EleEye option.Hash=16`): splitting the words, and reading the
//! engine settings that every runner built on this crate understands alike (`chariot-league`'s
//! and `chess-board match`'s). Errors are said without the option's name; the caller puts its
//! own in front (`--engine #2: ...`).

use std::path::PathBuf;
use std::time::Duration;

use crate::engine::{DEFAULT_GRACE, DEFAULT_HANDSHAKE};
use crate::process::{Launch, resolve_command};

/// Splits `KEY=VALUE` words into pairs (the value may be empty, the key not).
///
/// # Errors
///
/// The first word that is not `KEY=VALUE`.
pub fn key_values(words: &[String]) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_owned(), v.to_owned())),
            _ => Err(format!("{w:?} is not KEY=VALUE")),
        })
        .collect()
}

/// The engine settings every runner reads alike, from `--each` and one engine's own settings
/// (its own win): `cmd=`, `name=`, `dir=`, `arg=` (repeatable), `option.NAME=VALUE`,
/// `timemargin=MS` and `handshake=SECONDS`.
#[derive(Clone, Debug)]
pub struct EngineSettings {
    /// `cmd=`: the program as written (see [`EngineSettings::launch`]).
    pub cmd: Option<String>,
    /// `name=`.
    pub name: Option<String>,
    /// `dir=`: the working directory.
    pub dir: Option<PathBuf>,
    /// The engine's own `arg=` words, or those of `--each` when it has none.
    pub args: Vec<String>,
    /// `option.NAME=VALUE`, each name once with its last value, in the order first given.
    pub options: Vec<(String, String)>,
    /// `timemargin=`: the grace after the clock runs out ([`DEFAULT_GRACE`] when not given).
    pub grace: Duration,
    /// `handshake=`: the time for the handshake ([`DEFAULT_HANDSHAKE`] when not given; at most
    /// an hour).
    pub handshake: Duration,
}

impl EngineSettings {
    /// Reads `each`, then `own`. A key that is not one of these goes to `other` with its value
    /// (the runner's own settings); `other` says `unknown setting` for a key it does not know
    /// either.
    ///
    /// # Errors
    ///
    /// The first value that cannot be read, or the first error of `other`.
    pub fn read(
        each: &[(String, String)],
        own: &[(String, String)],
        mut other: impl FnMut(&str, &str) -> Result<(), String>,
    ) -> Result<EngineSettings, String> {
        let mut s = EngineSettings {
            cmd: None,
            name: None,
            dir: None,
            args: Vec::new(),
            options: Vec::new(),
            grace: DEFAULT_GRACE,
            handshake: DEFAULT_HANDSHAKE,
        };
        let (mut args_each, mut args_own) = (Vec::new(), Vec::new());
        for (from_each, (k, v)) in each
            .iter()
            .map(|p| (true, p))
            .chain(own.iter().map(|p| (false, p)))
        {
            match k.as_str() {
                "cmd" => s.cmd = Some(v.clone()),
                "name" => s.name = Some(v.clone()),
                "dir" => s.dir = Some(PathBuf::from(v)),
                "arg" if from_each => args_each.push(v.clone()),
                "arg" => args_own.push(v.clone()),
                "timemargin" => {
                    let ms: u64 = v
                        .parse()
                        .map_err(|_| format!("timemargin={v:?} is not milliseconds"))?;
                    s.grace = Duration::from_millis(ms);
                }
                "handshake" => {
                    let secs: f64 = v
                        .parse()
                        .ok()
                        .filter(|x: &f64| x.is_finite() && *x > 0.0)
                        .ok_or_else(|| {
                            format!("handshake={v:?} is not a positive number of seconds")
                        })?;
                    s.handshake = Duration::from_secs_f64(secs.min(3600.0));
                }
                _ => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        s.options.retain(|(n, _)| n != name);
                        s.options.push((name.to_owned(), v.clone()));
                    }
                    _ => other(k, v)?,
                },
            }
        }
        s.args = if args_own.is_empty() {
            args_each
        } else {
            args_own
        };
        Ok(s)
    }

    /// How to start the engine whose program is `cmd`: looked up in `dir=` first
    /// ([`resolve_command`]), run there with the `arg=` words.
    #[must_use]
    pub fn launch(&self, cmd: &str) -> Launch {
        Launch {
            command: resolve_command(cmd, self.dir.as_deref()),
            args: self.args.clone(),
            dir: self.dir.clone(),
            ..Launch::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(words: &str) -> Vec<(String, String)> {
        let words: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
        key_values(&words).unwrap()
    }

    #[test]
    fn own_settings_win_and_unknown_keys_go_to_the_runner() {
        let each = pairs("arg=-x option.Hash=16 timemargin=50 proto=uci");
        let own = pairs("cmd=eng arg=-y arg=-z option.Hash=32 option.Threads=2 handshake=2.5");
        let mut seen = Vec::new();
        let s = EngineSettings::read(&each, &own, |k, v| {
            seen.push(format!("{k}={v}"));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, ["proto=uci"]);
        assert_eq!(s.cmd.as_deref(), Some("eng"));
        assert_eq!(s.args, ["-y", "-z"]);
        assert_eq!(
            s.options,
            [
                ("Hash".to_owned(), "32".to_owned()),
                ("Threads".to_owned(), "2".to_owned())
            ]
        );
        assert_eq!(s.grace, Duration::from_millis(50));
        assert_eq!(s.handshake, Duration::from_millis(2500));
        assert_eq!(s.launch("eng").args, ["-y", "-z"]);
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(
            key_values(&["oops".to_owned()]).unwrap_err(),
            "\"oops\" is not KEY=VALUE"
        );
        let e = EngineSettings::read(&pairs("handshake=0"), &[], |_, _| Ok(())).unwrap_err();
        assert!(e.contains("handshake=\"0\""), "{e}");
        let e = EngineSettings::read(&[], &pairs("option.=1"), |k, _| {
            Err(format!("unknown setting {k:?}"))
        })
        .unwrap_err();
        assert_eq!(e, "unknown setting \"option.\"");
    }
}
