//! Arbitrary bytes as a game file (PGN, DhtmlXQ, XQF, zstd, any encoding): reading must never
//! panic, and what is reported must be consistent (games counted, warnings only for games that
//! were read, errors only for games that were not).

#![no_main]

use chariot_games::{Severity, read_all};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (summary, games) = read_all(data);
    assert_eq!(summary.games, games.len());
    for pair in games.windows(2) {
        assert!(pair[0].number < pair[1].number);
    }
    for p in &summary.problems {
        match (p.game, p.severity) {
            (Some(n), Severity::Warning) => assert!(games.iter().any(|g| g.number == n)),
            (Some(n), Severity::Error) => assert!(games.iter().all(|g| g.number != n)),
            (None, _) => {}
        }
    }
});
