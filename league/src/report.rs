//! What the league prints of each game: a line per finished game, and its JSON line. The
//! score, the table and the final statistics are the match kit's (`chariot_matchkit::report`).

use crate::tournament::Finished;

/// `Finished game 3 (A vs B): 1-0 {Red mates}`.
#[must_use]
pub fn game_line(f: &Finished) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        f.job.number,
        f.record.red,
        f.record.black,
        f.record.ending.outcome.pgn(),
        f.record.ending
    )
}

/// `--json`: one finished game, as a line of JSON.
#[derive(Debug, serde::Serialize)]
pub struct GameJson<'a> {
    /// Always `"game"`.
    pub event: &'static str,
    /// The game number in the tournament.
    pub number: usize,
    /// Its round.
    pub round: u32,
    /// Red's name.
    pub red: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// The PGN `Termination` word.
    pub termination: &'static str,
    /// How it ended, for people.
    pub reason: String,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// The opening's name, when it has one.
    pub opening: Option<&'a str>,
    /// The FEN the game started from.
    pub fen: &'a str,
}

impl<'a> GameJson<'a> {
    /// The line for a finished game.
    #[must_use]
    pub fn new(f: &'a Finished) -> GameJson<'a> {
        let r = &f.record;
        GameJson {
            event: "game",
            number: f.job.number,
            round: f.job.round,
            red: &r.red,
            black: &r.black,
            result: r.ending.outcome.pgn(),
            termination: r.ending.pgn_termination(),
            reason: r.ending.to_string(),
            plies: r.moves.len(),
            opening: r.opening_name.as_deref(),
            fen: &r.start_fen,
        }
    }
}
