//! Tuned weights written back as Rust source: `params.rs` and `pst.rs` with new numbers.
//!
//! The weights are compile-time constants (the search reads them at every node), so the tuner's
//! result is new source text. The binary carries the source of both files as it was built;
//! [`params_source`] and [`pst_source`] replace only the numbers, in place, and leave every
//! comment and blank line alone, so that the result can be copied over the originals and
//! reviewed as a plain diff. Written with the built-in weights they give back the files
//! unchanged (a test checks this).

use chariot_eval::Params;
use chariot_eval::pst::Table;
use chariot_eval::trace::TABLES;

/// `eval/src/params.rs` as this binary was built from it.
pub const PARAMS_RS: &str = include_str!("../../../eval/src/params.rs");
/// `eval/src/pst.rs` as this binary was built from it.
pub const PST_RS: &str = include_str!("../../../eval/src/pst.rs");

/// Source text that does not have the expected shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// The `Params::DEFAULT` block or a table's constant is missing.
    #[error("{0} not found in the source")]
    Missing(String),
    /// A field appears in `Params::DEFAULT` other than once.
    #[error("field {name} appears {count} times in Params::DEFAULT")]
    Field {
        /// The field.
        name: &'static str,
        /// How often it was found.
        count: usize,
    },
    /// A table does not have ten rows before its closing `];`.
    #[error("table {0} does not have ten rows")]
    Rows(&'static str),
}

/// `params` written into the `Params::DEFAULT` block of `source` (the text of `params.rs`).
///
/// # Errors
/// [`SourceError`] when the block or a field is missing or a field repeats.
pub fn params_source(source: &str, params: &Params) -> Result<String, SourceError> {
    let head = "    pub const DEFAULT: Params = Params {";
    let mut lines: Vec<String> = source.lines().map(str::to_owned).collect();
    let start = lines
        .iter()
        .position(|l| l == head)
        .ok_or_else(|| SourceError::Missing("Params::DEFAULT".into()))?;
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l == "    };")
            .ok_or_else(|| SourceError::Missing("the end of Params::DEFAULT".into()))?;
    for (name, value) in Params::NAMES.iter().zip(params.to_array()) {
        let prefix = format!("        {name}: ");
        let found: Vec<usize> = (start..end)
            .filter(|&i| lines[i].starts_with(&prefix))
            .collect();
        if found.len() != 1 {
            return Err(SourceError::Field {
                name,
                count: found.len(),
            });
        }
        lines[found[0]] = format!("{prefix}{value},");
    }
    Ok(join(&lines, source))
}

/// The tables written into `source` (the text of `pst.rs`), in the order of
/// [`TABLES`].
///
/// # Errors
/// [`SourceError`] when a table's constant is missing or does not have ten rows.
pub fn pst_source(source: &str, tables: &[Table; TABLES.len()]) -> Result<String, SourceError> {
    let mut lines: Vec<String> = source.lines().map(str::to_owned).collect();
    for (info, table) in TABLES.iter().zip(tables) {
        let head = format!("pub const {}: Table = [", info.name);
        let start = lines
            .iter()
            .position(|l| *l == head)
            .ok_or_else(|| SourceError::Missing(info.name.to_owned()))?;
        if lines.get(start + 11).map(String::as_str) != Some("];") {
            return Err(SourceError::Rows(info.name));
        }
        for (r, row) in table.chunks(9).enumerate() {
            let cells: Vec<String> = row.iter().map(|v| format!("{v:>3}")).collect();
            lines[start + 1 + r] = format!("   {},", cells.join(","));
        }
    }
    Ok(join(&lines, source))
}

/// Lines joined with the line breaks of `original` (a final newline kept).
fn join(lines: &[String], original: &str) -> String {
    let mut out = lines.join("\n");
    if original.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_eval::trace::{default_weights, table_of};

    #[test]
    fn the_built_in_weights_give_the_files_back() {
        assert_eq!(
            params_source(PARAMS_RS, &Params::DEFAULT).unwrap(),
            PARAMS_RS
        );
        let w = default_weights();
        let tables = std::array::from_fn(|t| table_of(&w, t));
        assert_eq!(pst_source(PST_RS, &tables).unwrap(), PST_RS);
    }

    #[test]
    fn new_numbers_replace_the_old() {
        let mut p = Params::DEFAULT;
        p.rook_mg = 1234;
        p.tempo_eg = -7;
        let text = params_source(PARAMS_RS, &p).unwrap();
        assert!(text.contains("        rook_mg: 1234,\n"));
        assert!(text.contains("        tempo_eg: -7,\n"));
        assert_eq!(text.lines().count(), PARAMS_RS.lines().count());

        let w = default_weights();
        let mut tables: [Table; 12] = std::array::from_fn(|t| table_of(&w, t));
        tables[0][0] = -123;
        tables[0][8] = 45;
        let text = pst_source(PST_RS, &tables).unwrap();
        let first = text
            .lines()
            .skip_while(|l| *l != "pub const PAWN_MG: Table = [")
            .nth(1)
            .unwrap();
        assert!(
            first.starts_with("   -123,") && first.ends_with(", 45,"),
            "{first}"
        );
        assert_eq!(text.lines().count(), PST_RS.lines().count());
    }

    #[test]
    fn malformed_sources_are_refused() {
        assert_eq!(
            params_source("fn main() {}", &Params::DEFAULT),
            Err(SourceError::Missing("Params::DEFAULT".into()))
        );
        let twice = PARAMS_RS.replace(
            "        tempo_mg: ",
            "        tempo_mg: 1,\n        tempo_mg: ",
        );
        assert!(matches!(
            params_source(&twice, &Params::DEFAULT),
            Err(SourceError::Field {
                name: "tempo_mg",
                count: 2
            })
        ));
        let w = default_weights();
        let tables = std::array::from_fn(|t| table_of(&w, t));
        let short = PST_RS.replacen(
            "pub const ELEPHANT: Table = [\n",
            "pub const ELEPHANT: Table = [\n];\n",
            1,
        );
        assert_eq!(
            pst_source(&short, &tables),
            Err(SourceError::Rows("ELEPHANT"))
        );
        assert_eq!(
            pst_source("", &tables),
            Err(SourceError::Missing("PAWN_MG".into()))
        );
    }
}
