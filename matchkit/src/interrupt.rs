//! Stopping a run cleanly when the user interrupts it (Ctrl-C, `kill`).
//!
//! The first SIGINT or SIGTERM sets a flag: the tournament starts no more games, the games in
//! progress are abandoned (their engines stopped, nothing written, so `--resume` plays them
//! again) and the runner prints its final report on the games that finished, then exits with
//! 128 + the signal's number, as a shell reports a program the signal killed. A second signal
//! kills the runner at once, as if it had no handler.
//!
//! The engines' waits poll the flag every [`POLL`], so that a long think does not delay the
//! stop.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// How often a wait for an engine looks at the flag.
pub const POLL: Duration = Duration::from_millis(50);

/// How long an engine's failure waits for the flag before it is blamed on the engine. Ctrl-C
/// reaches the engines of the runner's process group at the same moment as the runner, and on
/// a loaded machine an engine can die of it, and its death be seen, before the runner's own
/// handler has run.
pub const SETTLE: Duration = Duration::from_millis(500);

/// Whether, and by which signal, the run was interrupted. Clones share the flag.
///
/// [`Interrupt::default`] is never set by a signal (library users and tests); the command line
/// uses [`Interrupt::on_signals`].
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// The signal's number, 0 while none came.
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers of SIGINT and SIGTERM: the first sets the flag, the second kills
    /// the process with the signal's default action.
    ///
    /// # Errors
    /// When the operating system refuses a handler.
    pub fn on_signals() -> io::Result<Interrupt> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        use signal_hook::flag;
        let interrupt = Interrupt::default();
        let armed = Arc::new(AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM] {
            // The order matters: the default action is checked before the first signal arms it.
            flag::register_conditional_default(sig, Arc::clone(&armed))?;
            flag::register(sig, Arc::clone(&armed))?;
            flag::register_usize(sig, Arc::clone(&interrupt.signal), number(sig))?;
        }
        Ok(interrupt)
    }

    /// Sets the flag as signal `number` would (what the handlers do; also for tests).
    pub fn raise(&self, number: usize) {
        self.signal.store(number.max(1), Ordering::SeqCst);
    }

    /// `true` once a signal came.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.signal.load(Ordering::Relaxed) != 0
    }

    /// `true` if a signal came or comes within `wait` (looked at every few milliseconds).
    #[must_use]
    pub fn set_within(&self, wait: Duration) -> bool {
        let until = std::time::Instant::now() + wait;
        loop {
            if self.is_set() {
                return true;
            }
            if std::time::Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The signal's name (`SIGINT`, `SIGTERM`, or `signal N`), if one came.
    #[must_use]
    pub fn signal_name(&self) -> Option<String> {
        match self.signal.load(Ordering::Relaxed) {
            0 => None,
            n => Some(
                std::ffi::c_int::try_from(n)
                    .ok()
                    .and_then(signal_hook::low_level::signal_name)
                    .map_or_else(|| format!("signal {n}"), str::to_owned),
            ),
        }
    }

    /// The exit code of an interrupted run: 128 + the signal's number (130 for SIGINT, 143 for
    /// SIGTERM), or `None` if no signal came.
    #[must_use]
    pub fn exit_code(&self) -> Option<u8> {
        match self.signal.load(Ordering::Relaxed) {
            0 => None,
            n => Some(u8::try_from(128 + n.min(127)).unwrap_or(u8::MAX)),
        }
    }
}

/// A signal's number as the flag holds it.
fn number(sig: std::ffi::c_int) -> usize {
    usize::try_from(sig).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_interrupt_is_seen_by_its_clones_with_the_shell_exit_code() {
        let a = Interrupt::default();
        let b = a.clone();
        assert!(!b.is_set());
        assert_eq!((b.signal_name(), b.exit_code()), (None, None));
        a.raise(number(signal_hook::consts::SIGTERM));
        assert!(b.is_set());
        assert_eq!(b.signal_name().as_deref(), Some("SIGTERM"));
        assert_eq!(b.exit_code(), Some(143));
        a.raise(number(signal_hook::consts::SIGINT));
        assert_eq!(
            (b.signal_name().as_deref(), b.exit_code()),
            (Some("SIGINT"), Some(130))
        );
        assert!(!Interrupt::default().is_set(), "a new flag is not shared");
    }

    #[test]
    fn set_within_waits_for_a_signal_that_comes_late() {
        let a = Interrupt::default();
        assert!(!a.set_within(Duration::from_millis(20)));
        let b = a.clone();
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            b.raise(number(signal_hook::consts::SIGINT));
        });
        assert!(a.set_within(Duration::from_secs(10)));
        raiser.join().unwrap();
    }
}
