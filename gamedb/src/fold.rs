//! Names compared as players write them: simplified and traditional Chinese folded together
//! (胡荣华 finds 胡榮華), letters in any case. The page's own script is simplified while most
//! of the master games' headers are traditional, so a filter that compared code points would
//! find nothing for a name typed in the page's script.
//!
//! Folding is traditional to simplified (`fast2s`, a character and phrase table) and then lower
//! case. It is a SQL function, `fold(text)`, registered on every connection of the database, so
//! the filters match inside SQLite on the small players and events tables.

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;

/// `text` with traditional Chinese characters made simplified and letters made lower case.
#[must_use]
pub fn fold(text: &str) -> String {
    fast2s::convert(text).to_lowercase()
}

/// Registers `fold(text)` on `conn` (deterministic, so SQLite may cache it).
///
/// # Errors
///
/// When SQLite refuses the function.
pub(crate) fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(
        "fold",
        1,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
        |ctx| {
            let text: Option<String> = ctx.get(0)?;
            Ok(text.map(|t| fold(&t)))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_and_cases_fold_together() {
        assert_eq!(fold("胡榮華"), fold("胡荣华"));
        assert_eq!(fold("呂欽"), fold("吕钦"));
        assert_eq!(fold("許銀川"), "许银川");
        assert_eq!(fold("Hu Ronghua"), "hu ronghua");
        assert_ne!(fold("胡荣华"), fold("许银川"));
    }

    #[test]
    fn sql_finds_a_traditional_name_by_its_simplified_spelling() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        let found: i64 = conn
            .query_row(
                "SELECT instr(fold('第一屆全國象棋個人賽 胡榮華'), fold(?))",
                ["胡荣华"],
                |r| r.get(0),
            )
            .unwrap();
        assert!(found > 0);
        let null: Option<String> = conn
            .query_row("SELECT fold(NULL)", [], |r| r.get(0))
            .unwrap();
        assert_eq!(null, None);
    }
}
