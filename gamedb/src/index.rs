//! The game database's position index: for every game, the positions of its first
//! [`INDEX_PLIES`] plies (each once, where the game first reaches it) with the move played
//! there. "The games through this position" and their move statistics are then one indexed
//! lookup, where replaying every game took seconds: the explorer (`GET /api/games?fen=`).
//!
//! The table (`docs/formats/game-db.md`) is keyed by the position's Zobrist key (the opening
//! book's key, [`Position::key`]) and the game, without a row id, so the games of one position
//! are stored together.

use chariot_rules::{Move, Position};
use rusqlite::types::Value;
use rusqlite::{Connection, Transaction};

use crate::filter::Filter;
use chariot_games::record::GameResult;

/// How deep each game is indexed: 60 plies (30 moves each), the openings and early middlegames
/// an explorer is asked about. A position first reached later is not found.
pub const INDEX_PLIES: usize = 60;

/// The index's table.
pub(crate) const SCHEMA: &str = "
CREATE TABLE positions (
    key     INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,
    next    INTEGER,
    PRIMARY KEY (key, game_id)
) WITHOUT ROWID;
";

/// One row of the index: a position a game reached, the game, the ply and the move played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Row {
    key: i64,
    game_id: i64,
    ply: u8,
    next: Option<u16>,
}

/// Adds the rows of one stored game to `rows`: its start position and the positions after each
/// of its first [`INDEX_PLIES`] plies, each with the move played from it (none where the game
/// ends).
pub(crate) fn game_rows(rows: &mut Vec<Row>, game_id: i64, start: &Position, moves: &[Move]) {
    let mut pos = start.clone();
    for ply in 0..=moves.len().min(INDEX_PLIES) {
        let next = moves.get(ply).copied();
        rows.push(Row {
            key: key_value(pos.key()),
            game_id,
            ply: ply as u8,
            next: next.map(Move::to_u16),
        });
        match next {
            Some(m) if ply < INDEX_PLIES => pos.make_move(m),
            _ => break,
        }
    }
}

/// Writes index rows, sorted first: rows in key order touch each page of the table once
/// where rows in game order land on a random page each (the import's index writes were most
/// of its time). A position a game reaches twice keeps its first ply.
pub(crate) fn insert_rows(tx: &Transaction<'_>, rows: &mut [Row]) -> rusqlite::Result<()> {
    /// Rows per statement: one statement of many rows costs SQLite far less than as many
    /// statements of one (each is a step of the virtual machine and a search from the root).
    const CHUNK: usize = 64;
    rows.sort_unstable();
    let statement = |n: usize| {
        let values = vec!["(?, ?, ?, ?)"; n].join(", ");
        format!("INSERT OR IGNORE INTO positions (key, game_id, ply, next) VALUES {values}")
    };
    let mut full = tx.prepare_cached(&statement(CHUNK))?;
    let mut chunks = rows.chunks_exact(CHUNK);
    for chunk in &mut chunks {
        bind_rows(&mut full, chunk)?;
        full.raw_execute()?;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut stmt = tx.prepare(&statement(rest.len()))?;
        bind_rows(&mut stmt, rest)?;
        stmt.raw_execute()?;
    }
    Ok(())
}

/// Binds `rows` to a statement of as many `(?, ?, ?, ?)` groups.
fn bind_rows(stmt: &mut rusqlite::Statement<'_>, rows: &[Row]) -> rusqlite::Result<()> {
    for (i, r) in rows.iter().enumerate() {
        let at = 4 * i + 1;
        stmt.raw_bind_parameter(at, r.key)?;
        stmt.raw_bind_parameter(at + 1, r.game_id)?;
        stmt.raw_bind_parameter(at + 2, r.ply)?;
        stmt.raw_bind_parameter(at + 3, r.next)?;
    }
    Ok(())
}

/// A Zobrist key as SQLite stores it (the same 64 bits, signed).
fn key_value(key: u64) -> i64 {
    i64::from_ne_bytes(key.to_ne_bytes())
}

/// `true` when the database has the index (schema 2; a schema-1 file opened read-only has not).
pub(crate) fn present(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'positions'",
        [],
        |row| row.get::<_, i64>(0),
    )
    .map(|n| n == 1)
}

/// What the games reaching a position did next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveStats {
    /// The move played, `None` for games that ended in the position.
    pub mv: Option<Move>,
    /// Games.
    pub games: u64,
    /// Won by Red.
    pub red_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// The players' mean rating over the games with both ratings, `None` without any.
    pub mean_elo: Option<u32>,
}

/// One game of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its row id (`GET /api/games/ID`).
    pub id: i64,
    /// Red.
    pub red: Option<String>,
    /// Black.
    pub black: Option<String>,
    /// The event.
    pub event: Option<String>,
    /// The date, normalised.
    pub date: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `None` when unknown.
    pub result: Option<&'static str>,
    /// Its length in plies.
    pub plies: u32,
    /// Red's rating.
    pub red_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
    /// Its first [`OPENING_PLIES`] moves, for naming its opening; empty for a game from a
    /// set-up position.
    pub opening: Vec<Move>,
}

/// The moves of each listed game that [`GameRow::opening`] holds: as many as an opening's code
/// and name are settled in (`chariot_formats::opening`).
pub const OPENING_PLIES: usize = 16;

/// The order of the game list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The newest first (games without a date last).
    #[default]
    Newest,
    /// The highest rated first (the players' mean rating; unrated games last).
    Rating,
}

/// The games through a position, as the explorer shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explored {
    /// Games through the position that the filter selects.
    pub total: u64,
    /// What they played next, the most played first.
    pub moves: Vec<MoveStats>,
    /// One page of them.
    pub games: Vec<GameRow>,
}

/// The games through the position with Zobrist key `key` that `filter` selects: the moves
/// played there and the page of games from `offset` (at most `limit`) in `order`.
pub(crate) fn explore(
    conn: &Connection,
    key: u64,
    filter: &Filter,
    order: Order,
    offset: u64,
    limit: u64,
) -> rusqlite::Result<Explored> {
    let (clause, args) = filter.sql();
    let with_key = |extra: Vec<Value>| {
        let mut all = vec![Value::Integer(key_value(key))];
        all.extend(args.iter().cloned());
        all.extend(extra);
        all
    };
    // A filter by player or event selects a few hundred games through their indexes: start
    // from those and look each up in the index (about twice as fast on the start position of
    // the shipped collections); otherwise start from the position's entries.
    let from = if filter.players.is_empty() && filter.events.is_empty() {
        "FROM positions p JOIN games g ON g.id = p.game_id"
    } else {
        "FROM games g CROSS JOIN positions p ON p.key = ?1 AND p.game_id = g.id"
    };
    let sql = format!(
        "SELECT p.next, count(*), \
           coalesce(sum(g.result = '1-0'), 0), coalesce(sum(g.result = '1/2-1/2'), 0), \
           coalesce(sum(g.result = '0-1'), 0), \
           avg(CASE WHEN g.red_elo IS NOT NULL AND g.black_elo IS NOT NULL \
               THEN (g.red_elo + g.black_elo) / 2.0 END) \
         {from} WHERE p.key = ?1 AND ({clause}) GROUP BY p.next ORDER BY count(*) DESC, p.next"
    );
    let mut moves = Vec::new();
    {
        let mut stmt = conn.prepare(&renumber(&sql))?;
        let mut rows = stmt.query(rusqlite::params_from_iter(with_key(Vec::new())))?;
        while let Some(row) = rows.next()? {
            let next: Option<i64> = row.get(0)?;
            let mean: Option<f64> = row.get(5)?;
            moves.push(MoveStats {
                mv: next.and_then(|n| u16::try_from(n).ok().and_then(Move::from_u16)),
                games: row.get::<_, i64>(1)? as u64,
                red_wins: row.get::<_, i64>(2)? as u64,
                draws: row.get::<_, i64>(3)? as u64,
                black_wins: row.get::<_, i64>(4)? as u64,
                mean_elo: mean.map(|m| m.round() as u32),
            });
        }
    }
    let total = moves.iter().map(|m| m.games).sum();
    let order_by = match order {
        Order::Newest => "g.date IS NULL, g.date DESC, g.id DESC",
        Order::Rating => {
            "(g.red_elo IS NULL OR g.black_elo IS NULL), (g.red_elo + g.black_elo) DESC, g.id DESC"
        }
    };
    // Two bytes a move (`docs/formats/game-db.md`).
    let opening_bytes = 2 * OPENING_PLIES;
    let sql = format!(
        "SELECT g.id, g.red_id, g.black_id, g.event_id, g.date, g.result, g.plies, g.red_elo, \
         g.black_elo, CASE WHEN g.start IS NULL THEN substr(g.moves, 1, {opening_bytes}) END \
         {from} WHERE p.key = ?1 AND ({clause}) ORDER BY {order_by} LIMIT ? OFFSET ?"
    );
    let mut games = Vec::new();
    let mut stmt = conn.prepare(&renumber(&sql))?;
    let opening = |bytes: Option<Vec<u8>>| {
        // A BLOB that does not decode lists no opening; opening the game says what is wrong.
        bytes
            .and_then(|b| crate::moves::decode_moves(&b))
            .unwrap_or_default()
    };
    let page = vec![
        Value::Integer(i64::try_from(limit).unwrap_or(i64::MAX)),
        Value::Integer(i64::try_from(offset).unwrap_or(i64::MAX)),
    ];
    // Names for the page's games only (a join would look them up for every game selected).
    let mut player = conn.prepare_cached("SELECT name FROM players WHERE id = ?1")?;
    let mut event = conn.prepare_cached("SELECT name FROM events WHERE id = ?1")?;
    let mut rows = stmt.query(rusqlite::params_from_iter(with_key(page)))?;
    while let Some(row) = rows.next()? {
        let name = |stmt: &mut rusqlite::CachedStatement<'_>, id: Option<i64>| match id {
            Some(id) => stmt.query_row([id], |r| r.get::<_, String>(0)).map(Some),
            None => Ok(None),
        };
        let result: Option<String> = row.get(5)?;
        games.push(GameRow {
            id: row.get(0)?,
            red: name(&mut player, row.get(1)?)?,
            black: name(&mut player, row.get(2)?)?,
            event: name(&mut event, row.get(3)?)?,
            date: row.get(4)?,
            result: result
                .as_deref()
                .and_then(chariot_games::parse_result)
                .map(GameResult::pgn),
            plies: row.get(6)?,
            red_elo: row.get(7)?,
            black_elo: row.get(8)?,
            opening: opening(row.get(9)?),
        });
    }
    Ok(Explored {
        total,
        moves,
        games,
    })
}

/// The filter's clause numbers nothing (plain `?`); the key is `?1` before it, so every later
/// `?` becomes explicit in order: `?2`, `?3`...
fn renumber(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 1;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '?' {
            if chars.peek().is_some_and(char::is_ascii_digit) {
                continue;
            }
            n += 1;
            out.push_str(&n.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_after_the_key_are_numbered_in_order() {
        assert_eq!(
            renumber("WHERE p.key = ?1 AND (a = ? OR b = ?) LIMIT ? OFFSET ?"),
            "WHERE p.key = ?1 AND (a = ?2 OR b = ?3) LIMIT ?4 OFFSET ?5"
        );
    }
}
