//! Ratings from game files (`chariot-league --ratings`): every game of the files read through
//! the games crate (PGN, DhtmlXQ, XQF; plain or zstd), its players by their `Red` and `Black`
//! tags, and all of them fitted jointly by the match kit ([`chariot_matchkit::rating`]), on a
//! scale that puts an anchor player at a given rating.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use chariot_games::GameResult;
use chariot_matchkit::rating::{self, Outcome, Pool, Ratings};
use chariot_matchkit::stats::fmt_elo;

/// The games read from the files.
#[derive(Debug, Default)]
pub struct Games {
    /// The results, by player.
    pub pool: Pool,
    /// Games counted.
    pub counted: usize,
    /// Games left out: no result (`*`), a player's name missing, or one player on both sides.
    pub left_out: usize,
}

/// Why the games cannot be read or rated.
#[derive(Debug, thiserror::Error)]
pub enum RatingsError {
    /// A file cannot be read as a whole.
    #[error("cannot read {path}: {why}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// The fit is impossible (players never connected, a perfect score, no such anchor).
    #[error(transparent)]
    Fit(#[from] rating::RatingError),
}

/// Reads the games of `paths` into one pool.
///
/// # Errors
/// [`RatingsError::File`] for a file that cannot be read at all (games that cannot be read
/// inside a readable file are left out and counted).
pub fn read(paths: &[PathBuf]) -> Result<Games, RatingsError> {
    let mut games = Games::default();
    for path in paths {
        read_one(path, &mut games)?;
    }
    Ok(games)
}

fn read_one(path: &Path, games: &mut Games) -> Result<(), RatingsError> {
    let summary = chariot_games::read_file(path, &mut |record| {
        let outcome = match record.result {
            Some(GameResult::RedWins) => Some(Outcome::Win),
            Some(GameResult::Draw) => Some(Outcome::Draw),
            Some(GameResult::BlackWins) => Some(Outcome::Loss),
            Some(GameResult::Unfinished) | None => None,
        };
        let added = match (&record.red, &record.black, outcome) {
            (Some(red), Some(black), Some(outcome)) => games.pool.add(red, black, outcome).is_ok(),
            _ => false,
        };
        if added {
            games.counted += 1;
        } else {
            games.left_out += 1;
        }
    });
    if summary.failed() {
        let why = summary
            .problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        return Err(RatingsError::File {
            path: path.to_owned(),
            why,
        });
    }
    games.left_out += summary.skipped();
    Ok(())
}

/// Fits the ratings of `games`, with `anchor` (a player and its rating) fixing the scale.
///
/// # Errors
/// [`RatingsError::Fit`] when the pool cannot be rated.
pub fn fit(games: &Games, anchor: Option<(&str, f64)>) -> Result<Ratings, RatingsError> {
    Ok(rating::fit(&games.pool, anchor)?)
}

/// The players in rating order, strongest first (indices into `ratings.players`).
#[must_use]
pub fn by_rating(ratings: &Ratings) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ratings.players.len()).collect();
    order.sort_by(|&a, &b| {
        ratings.players[b]
            .elo
            .total_cmp(&ratings.players[a].elo)
            .then(a.cmp(&b))
    });
    order
}

/// The table of ratings, strongest first: each player's rating with its 95% interval, games
/// and score, and its distance to the next player below with that distance's interval.
#[must_use]
pub fn table(games: &Games, ratings: &Ratings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Ratings of {} players from {} games ({} left out), fitted jointly by maximum likelihood",
        ratings.players.len(),
        games.counted,
        games.left_out
    );
    let _ = match &ratings.anchor {
        Some((name, elo)) => writeln!(out, "Scale: {name} = {}", fmt_elo(*elo)),
        None => writeln!(out, "Scale: the pool's average = 0"),
    };
    let _ = writeln!(
        out,
        "95% intervals against the pool's average; the step is the distance to the next below"
    );
    let width = ratings
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "{:>4} {:<width$} {:>7} {:>17} {:>6} {:>6} {:>23}",
        "rank", "name", "Elo", "95%", "games", "score", "step (95%)"
    );
    let order = by_rating(ratings);
    for (rank, &i) in order.iter().enumerate() {
        let p = &ratings.players[i];
        let score = p
            .wdl
            .score()
            .map_or("-".to_owned(), |s| format!("{:.1}%", 100.0 * s));
        let step = order.get(rank + 1).map_or(String::new(), |&below| {
            let d = ratings.difference(i, below);
            format!(
                "{} ({} to {})",
                fmt_elo(d.elo),
                fmt_elo(d.lower),
                fmt_elo(d.upper)
            )
        });
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>7} {:>17} {:>6} {:>6} {:>23}",
            rank + 1,
            p.name,
            fmt_elo(p.elo),
            format!("{} to {}", fmt_elo(p.lower), fmt_elo(p.upper)),
            p.games,
            score,
            step
        );
    }
    out
}

/// The ratings as one JSON object: `players` strongest first (name, elo, lower, upper, games,
/// wins, draws, losses, and `opponents`: each player it met, with their games, its wins, draws
/// and losses against it, and the fitted distance to it, `elo` above it with `lower` and
/// `upper`), the `anchor`, and the games counted and left out.
#[must_use]
pub fn json(games: &Games, ratings: &Ratings) -> serde_json::Value {
    let order = by_rating(ratings);
    let players: Vec<serde_json::Value> = order
        .iter()
        .map(|&i| {
            let p = &ratings.players[i];
            let opponents: Vec<serde_json::Value> = order
                .iter()
                .filter_map(|&j| {
                    let met = games.pool.results(i, j);
                    (j != i && met.games() > 0).then(|| {
                        let d = ratings.difference(i, j);
                        serde_json::json!({
                            "name": ratings.players[j].name,
                            "games": met.games(),
                            "wins": met.wins,
                            "draws": met.draws,
                            "losses": met.losses,
                            "elo": round(d.elo),
                            "lower": round(d.lower),
                            "upper": round(d.upper),
                        })
                    })
                })
                .collect();
            serde_json::json!({
                "name": p.name,
                "elo": round(p.elo),
                "lower": round(p.lower),
                "upper": round(p.upper),
                "games": p.games,
                "wins": p.wdl.wins,
                "draws": p.wdl.draws,
                "losses": p.wdl.losses,
                "opponents": opponents,
            })
        })
        .collect();
    serde_json::json!({
        "event": "ratings",
        "games": games.counted,
        "left_out": games.left_out,
        "anchor": ratings.anchor.as_ref().map(|(name, elo)| serde_json::json!({"name": name, "elo": elo})),
        "players": players,
    })
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "\
[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n\n\
[Red \"B\"]\n[Black \"A\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n\n\
[Red \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 h9g7 1/2-1/2\n\n\
[Red \"B\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 0-1\n\n\
[Red \"B\"]\n[Black \"C\"]\n[Result \"1-0\"]\n\n1. h2e2 1-0\n\n\
[Red \"C\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 1/2-1/2\n\n\
[Red \"C\"]\n[Black \"A\"]\n[Result \"*\"]\n\n1. h2e2 *\n\n";

    #[test]
    fn games_of_several_files_are_rated_on_the_anchors_scale() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        std::fs::write(&path, GAMES).unwrap();
        let games = read(std::slice::from_ref(&path)).unwrap();
        assert_eq!((games.counted, games.left_out), (6, 1));
        let ratings = fit(&games, Some(("B", 1000.0))).unwrap();
        let elo = |name: &str| ratings.players[ratings.index(name).unwrap()].elo;
        // A scored 2.5 of 4 against B (89 Elo), B 1.5 of 2 against C (191 Elo).
        assert!((elo("B") - 1000.0).abs() < 1e-9);
        assert!((elo("A") - 1088.7).abs() < 0.5, "{}", elo("A"));
        assert!((elo("C") - 809.2).abs() < 0.5, "{}", elo("C"));
        let text = table(&games, &ratings);
        assert!(text.contains("Scale: B = 1000"), "{text}");
        assert!(text.lines().nth(4).unwrap().contains(" A "), "{text}");
        let j = json(&games, &ratings);
        assert_eq!(j["players"][0]["name"], "A");
        let b = &j["players"][1];
        assert_eq!(b["opponents"][0]["name"], "A");
        assert_eq!(b["opponents"][0]["games"], 4);
        assert_eq!(b["opponents"][1]["wins"], 1);
        assert!(
            (b["opponents"][1]["elo"].as_f64().unwrap() - 190.8).abs() < 0.1,
            "{b}"
        );
        assert_eq!(j["games"], 6);
        // A missing file is an error naming it; an anchor without games is one too.
        let missing = dir.path().join("none.pgn");
        let e = read(&[path.clone(), missing]).unwrap_err().to_string();
        assert!(e.contains("none.pgn"), "{e}");
        let e = fit(&games, Some(("Z", 0.0))).unwrap_err().to_string();
        assert!(e.contains("\"Z\""), "{e}");
    }
}
