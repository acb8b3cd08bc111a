//! Which games of the database a book is built from: date range, ratings, event and player
//! names, results, and whether games from set-up positions count.
//!
//! A [`Filter`] becomes one SQL `WHERE` clause with bound parameters ([`Filter::sql`]), so the
//! database does the selecting, and a few `key: value` lines ([`Filter::describe`]) that go
//! into the book's metadata, so a book says what it was built from.

use std::fmt;

use rusqlite::types::Value;

use chariot_games::record::GameResult;

/// Why a filter cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    /// A date bound is not `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    #[error("date {0:?}: expected YYYY, YYYY-MM or YYYY-MM-DD")]
    Date(String),
    /// A result is not one of the accepted spellings.
    #[error("result {0:?}: expected 1-0, 0-1, 1/2-1/2 (or red, black, draw) or unknown")]
    Result(String),
    /// An empty name to match.
    #[error("an empty {0} name matches every game; leave the option out instead")]
    EmptyName(&'static str),
}

/// A result to select, including "unknown".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultFilter {
    /// A known result.
    Known(GameResult),
    /// Games without a known result.
    Unknown,
}

impl std::str::FromStr for ResultFilter {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<ResultFilter, FilterError> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "1-0" | "red" => ResultFilter::Known(GameResult::RedWins),
            "0-1" | "black" => ResultFilter::Known(GameResult::BlackWins),
            "1/2-1/2" | "draw" => ResultFilter::Known(GameResult::Draw),
            "unknown" | "*" => ResultFilter::Unknown,
            _ => return Err(FilterError::Result(s.to_owned())),
        })
    }
}

impl fmt::Display for ResultFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultFilter::Known(r) => f.write_str(r.pgn()),
            ResultFilter::Unknown => f.write_str("unknown"),
        }
    }
}

/// A date bound: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateBound(String);

impl std::str::FromStr for DateBound {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<DateBound, FilterError> {
        let parts: Vec<&str> = s.trim().split('-').collect();
        let bad = || FilterError::Date(s.to_owned());
        let widths = [4, 2, 2];
        if parts.len() > 3 {
            return Err(bad());
        }
        for (p, w) in parts.iter().zip(widths) {
            if p.len() != w || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
        }
        let num = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
        if num(1).is_some_and(|m| !(1..=12).contains(&m))
            || num(2).is_some_and(|d| !(1..=31).contains(&d))
        {
            return Err(bad());
        }
        Ok(DateBound(parts.join("-")))
    }
}

impl fmt::Display for DateBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The joins that name a game's players and event over `games g`: Red `pr`, Black `pb`, event
/// `ev` ([`Filter::sql`]'s clause needs none of them).
pub(crate) const JOINS: &str = "LEFT JOIN players pr ON pr.id = g.red_id \
                     LEFT JOIN players pb ON pb.id = g.black_id \
                     LEFT JOIN events ev ON ev.id = g.event_id";

/// A selection of games. The default selects every game from the usual start position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Games on or after this date (a game's date is compared at the bound's precision; games
    /// without a date are left out when a bound is given).
    pub from: Option<DateBound>,
    /// Games on or before this date (`2005` includes all of 2005).
    pub to: Option<DateBound>,
    /// Both players rated at least this (games without both ratings are left out).
    pub min_elo: Option<u32>,
    /// Games whose event name contains one of these (case, and simplified against traditional
    /// Chinese, ignored: [`crate::fold`]).
    pub events: Vec<String>,
    /// Games in which one of the players' names contains one of these (case, and simplified
    /// against traditional Chinese, ignored: [`crate::fold`]).
    pub players: Vec<String>,
    /// With `players`: only games where that player has this colour (`None`: either).
    pub player_color: Option<chariot_rules::Color>,
    /// Games with one of these results (empty: any).
    pub results: Vec<ResultFilter>,
    /// Also games from set-up positions (the default is only games from the usual start).
    pub setups: bool,
}

impl Filter {
    /// Checks the names: an empty name would match every game, which is never what was meant.
    ///
    /// # Errors
    /// [`FilterError::EmptyName`].
    pub fn validate(&self) -> Result<(), FilterError> {
        if self.events.iter().any(|e| e.trim().is_empty()) {
            return Err(FilterError::EmptyName("event"));
        }
        if self.players.iter().any(|p| p.trim().is_empty()) {
            return Err(FilterError::EmptyName("player"));
        }
        Ok(())
    }

    /// The `WHERE` clause over `games g` alone (names are matched in subqueries over the small
    /// `players` and `events` tables), with its parameters in order.
    #[must_use]
    pub fn sql(&self) -> (String, Vec<Value>) {
        let mut clauses = Vec::new();
        let mut args = Vec::new();
        if !self.setups {
            clauses.push("g.start IS NULL".to_owned());
        }
        // Compare at the bound's precision: `substr(date, 1, len)` of `1996-04-17` against
        // `1996-04` is `1996-04`. A year-only date is shorter than a month bound and fails it,
        // since it cannot be placed.
        if let Some(from) = &self.from {
            clauses.push(format!(
                "length(g.date) >= {0} AND substr(g.date, 1, {0}) >= ?",
                from.0.len()
            ));
            args.push(Value::Text(from.0.clone()));
        }
        if let Some(to) = &self.to {
            clauses.push(format!(
                "length(g.date) >= {0} AND substr(g.date, 1, {0}) <= ?",
                to.0.len()
            ));
            args.push(Value::Text(to.0.clone()));
        }
        if let Some(elo) = self.min_elo {
            clauses.push("g.red_elo >= ? AND g.black_elo >= ?".to_owned());
            args.push(Value::Integer(i64::from(elo)));
            args.push(Value::Integer(i64::from(elo)));
        }
        if !self.events.is_empty() {
            let any: Vec<&str> = self
                .events
                .iter()
                .map(|_| {
                    "g.event_id IN (SELECT id FROM events WHERE instr(fold(name), fold(?)) > 0)"
                })
                .collect();
            clauses.push(format!("({})", any.join(" OR ")));
            args.extend(self.events.iter().map(|e| Value::Text(e.trim().to_owned())));
        }
        if !self.players.is_empty() {
            // Each name is bound once per colour it may have.
            // The names are matched once, in the small players table, not once per game.
            const NAMED: &str = "(SELECT id FROM players WHERE instr(fold(name), fold(?)) > 0)";
            let (test, binds) = match self.player_color {
                None => (format!("g.red_id IN {NAMED} OR g.black_id IN {NAMED}"), 2),
                Some(chariot_rules::Color::Red) => (format!("g.red_id IN {NAMED}"), 1),
                Some(chariot_rules::Color::Black) => (format!("g.black_id IN {NAMED}"), 1),
            };
            let any: Vec<&str> = self.players.iter().map(|_| test.as_str()).collect();
            clauses.push(format!("({})", any.join(" OR ")));
            for p in &self.players {
                for _ in 0..binds {
                    args.push(Value::Text(p.trim().to_owned()));
                }
            }
        }
        if !self.results.is_empty() {
            let mut any = Vec::new();
            for r in &self.results {
                match r {
                    ResultFilter::Known(r) => {
                        any.push("g.result = ?");
                        args.push(Value::Text(r.pgn().to_owned()));
                    }
                    ResultFilter::Unknown => any.push("g.result IS NULL"),
                }
            }
            clauses.push(format!("({})", any.join(" OR ")));
        }
        if clauses.is_empty() {
            clauses.push("1".to_owned());
        }
        (clauses.join(" AND "), args)
    }

    /// `key: value` lines saying what the filter selects, for a book's metadata (none for the
    /// default filter).
    #[must_use]
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(d) = &self.from {
            lines.push(format!("filter-from: {d}"));
        }
        if let Some(d) = &self.to {
            lines.push(format!("filter-to: {d}"));
        }
        if let Some(e) = self.min_elo {
            lines.push(format!("filter-min-elo: {e}"));
        }
        for e in &self.events {
            lines.push(format!("filter-event: {}", e.trim()));
        }
        for p in &self.players {
            lines.push(format!("filter-player: {}", p.trim()));
        }
        if let (Some(c), false) = (self.player_color, self.players.is_empty()) {
            lines.push(format!("filter-player-color: {c}"));
        }
        if !self.results.is_empty() {
            let r: Vec<String> = self.results.iter().map(ToString::to_string).collect();
            lines.push(format!("filter-result: {}", r.join(", ")));
        }
        if self.setups {
            lines.push("filter-setups: included".into());
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_bounds_are_checked() {
        assert_eq!("1996".parse::<DateBound>().unwrap().to_string(), "1996");
        assert_eq!(
            "1996-04-17".parse::<DateBound>().unwrap().to_string(),
            "1996-04-17"
        );
        for bad in [
            "96",
            "1996-4",
            "1996-13",
            "1996-04-32",
            "1996-04-17-01",
            "abcd",
            "",
        ] {
            assert!(bad.parse::<DateBound>().is_err(), "{bad}");
        }
    }

    #[test]
    fn results_parse() {
        assert_eq!(
            "draw".parse::<ResultFilter>(),
            Ok(ResultFilter::Known(GameResult::Draw))
        );
        assert_eq!("unknown".parse::<ResultFilter>(), Ok(ResultFilter::Unknown));
        assert!("2-0".parse::<ResultFilter>().is_err());
    }

    #[test]
    fn parameters_match_placeholders() {
        let f = Filter {
            from: Some("1990".parse().unwrap()),
            to: Some("2000-06".parse().unwrap()),
            min_elo: Some(2400),
            events: vec!["cup".into()],
            players: vec!["Hu".into(), "Lü".into()],
            player_color: Some(chariot_rules::Color::Red),
            results: vec![
                ResultFilter::Known(GameResult::RedWins),
                ResultFilter::Unknown,
            ],
            setups: true,
        };
        let (sql, args) = f.sql();
        assert_eq!(sql.matches('?').count(), args.len());
        assert_eq!(f.describe().len(), 9);
        assert_eq!(Filter::default().sql().0, "g.start IS NULL");
        assert!(Filter::default().describe().is_empty());
        let empty = Filter {
            players: vec![" ".into()],
            ..Filter::default()
        };
        assert_eq!(empty.validate(), Err(FilterError::EmptyName("player")));
    }
}
