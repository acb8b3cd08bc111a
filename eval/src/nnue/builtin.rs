//! The network built into every Chariot binary: `data/nets/chariot-net10a.nnue`, trained by
//! `chariot train` on Chariot's own self-play (`docs/tuning.md`, "The gate"). The engine
//! evaluates with it unless told otherwise (`usennue false` / UCI `Use NNUE`, or another file
//! through `evalfile` / `EvalFile`).

use std::sync::{Arc, LazyLock};

use super::Network;
use super::file::{NetError, from_bytes};

/// The network's bytes, as compiled into the binary.
pub static BYTES: &[u8] = include_bytes!("../../../data/nets/chariot-net10a.nnue");

/// The name the built-in network goes by in messages.
pub const NAME: &str = "built-in network chariot-net10a";

static NETWORK: LazyLock<Result<Arc<Network>, NetError>> =
    LazyLock::new(|| from_bytes(NAME, BYTES).map(Arc::new));

/// The built-in network, checked like any file (once, then shared).
///
/// # Errors
///
/// The file's [`NetError`], should the compiled-in bytes ever be damaged.
pub fn network() -> Result<Arc<Network>, &'static NetError> {
    NETWORK.as_ref().map(Arc::clone)
}

/// The built-in network, or `None` (the hand-written evaluation) if its bytes are damaged, so
/// that a program plays rather than not at all.
#[must_use]
pub fn default_network() -> Option<Arc<Network>> {
    network().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn the_built_in_network_loads_and_evaluates() {
        let net = network().expect("the built-in network is valid");
        assert!(net.hidden() > 0);
        // Symmetric start: the side to move's score is small either way.
        let v = net.evaluate_position(&Position::start());
        assert!(v.abs() < 200, "{v}");
    }
}
