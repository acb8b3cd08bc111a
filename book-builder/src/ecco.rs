//! The ECCO code of lines, derived from games that carry one (`book-builder ecco`, the file
//! `data/openings.ecco`; the rule and how well it agrees with the masters: `docs/openings.md`).
//!
//! Every prefix of every game, to [`DeriveOptions::max_plies`] plies, is a line (a line and
//! its left-right mirror are one, [`line_keys`]); a line's games vote with their `ECCO` tags.
//! A line is *classified* when it has at least `min_games` games and one code has more than
//! half of them (so no tie can arise); a line that is not takes the code of its longest
//! classified prefix, and so does any line the games never played. The file keeps only the
//! classified lines whose code differs from the code their one-move-shorter prefix gets: the
//! others are answered the same without them. Lines rather than positions, because ECCO files
//! openings by their move order (a horse opening that transposes into a central cannon keeps
//! its A code): counted by position instead, the derived codes agree with the games' own in
//! 81.7% of held-out games rather than 94.7% (`docs/openings.md`).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use chariot_formats::opening::table::EccoInfo;
use chariot_formats::opening::{Ecco, EccoTable, line_keys, name_line};
use chariot_gamedb::db::{DbError, GameDb};
use chariot_gamedb::filter::Filter;
use chariot_rules::Move;

/// Plies of each game kept for deriving and checking (more than any rule looks at).
const KEPT_PLIES: usize = 40;

/// A game's first moves and the code its `ECCO` tag gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaggedLine {
    /// The first moves, from the usual start.
    pub moves: Vec<Move>,
    /// The game's code.
    pub code: Ecco,
}

/// The games of `db` from the usual start that carry an `ECCO` tag, in the order they were
/// stored, and how many games had none (or one that is not a code).
///
/// # Errors
/// The database's, as [`GameDb::for_each_game`].
pub fn tagged_lines(db: &GameDb) -> Result<(Vec<TaggedLine>, u64), DbError> {
    let mut lines = Vec::new();
    let mut untagged = 0;
    db.for_each_game(&Filter::default(), &mut |g| {
        match g.tag("ECCO").and_then(|t| t.parse::<Ecco>().ok()) {
            Some(code) => lines.push(TaggedLine {
                moves: g.moves.iter().copied().take(KEPT_PLIES).collect(),
                code,
            }),
            None => untagged += 1,
        }
        true
    })?;
    Ok((lines, untagged))
}

/// How codes are derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeriveOptions {
    /// Lines are counted to this many plies.
    pub max_plies: u32,
    /// A line needs this many games to be classified.
    pub min_games: u32,
}

impl Default for DeriveOptions {
    /// 16 plies (the masters' codes are settled by then: games that share their first 16
    /// plies always share their code), and one game.
    fn default() -> DeriveOptions {
        DeriveOptions {
            max_plies: 16,
            min_games: 1,
        }
    }
}

/// One line as counted.
#[derive(Debug, Default)]
struct Node {
    /// The line one move shorter (`None` for a first move).
    parent: Option<u64>,
    /// Its length in plies.
    plies: usize,
    /// Games by code.
    votes: BTreeMap<Ecco, u32>,
}

/// The code a line's votes give: the most frequent (the smallest of equals) when the line has
/// `min_games` games and it has more than half of them.
fn verdict(votes: &BTreeMap<Ecco, u32>, min_games: u32) -> Option<Ecco> {
    let total: u32 = votes.values().sum();
    let (&code, &n) = votes
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))?;
    (total >= min_games && 2 * n > total).then_some(code)
}

/// What a game's votes are counted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keying {
    /// Its lines ([`line_keys`]): what the file stores.
    Lines,
    /// The positions it reaches, transpositions and left-right mirrors merged as the book
    /// builder merges them: measured against lines ([`cross_validate`]), not stored.
    Positions,
}

impl Keying {
    /// The keys of the first `plies` moves of `moves`, one after each move (a position a game
    /// reaches again is counted once).
    fn keys(self, moves: &[Move], plies: usize) -> Vec<u64> {
        let moves = &moves[..moves.len().min(plies)];
        match self {
            Keying::Lines => line_keys(moves).collect(),
            Keying::Positions => {
                let mut pos = chariot_rules::Position::start();
                let mut keys = Vec::with_capacity(moves.len());
                for &m in moves {
                    if !pos.is_legal(m) {
                        break;
                    }
                    pos.make_move(m);
                    let key = pos.key().min(pos.mirror_key());
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
                keys
            }
        }
    }
}

/// The entries of the table derived from `lines`: the classified lines whose code their
/// prefix does not already give (or every classified position).
fn entries<'a>(
    lines: impl Iterator<Item = &'a TaggedLine>,
    opts: DeriveOptions,
    keying: Keying,
) -> Vec<(u64, Ecco)> {
    let mut nodes: HashMap<u64, Node> = HashMap::new();
    for line in lines {
        let mut parent = None;
        for (i, key) in keying
            .keys(&line.moves, opts.max_plies as usize)
            .into_iter()
            .enumerate()
        {
            let node = nodes.entry(key).or_default();
            node.parent = parent;
            node.plies = i + 1;
            *node.votes.entry(line.code).or_default() += 1;
            parent = Some(key);
        }
    }
    // Shorter lines first, so that a line's prefix has its code when the line is reached.
    let mut order: Vec<(usize, u64)> = nodes.iter().map(|(&k, n)| (n.plies, k)).collect();
    order.sort_unstable();
    let mut gets: HashMap<u64, Option<Ecco>> = HashMap::with_capacity(order.len());
    let mut out = Vec::new();
    for (_, key) in order {
        let node = &nodes[&key];
        let inherited = node.parent.and_then(|p| gets.get(&p).copied().flatten());
        let own = verdict(&node.votes, opts.min_games);
        // Positions form a graph (a position has several prefixes: transpositions), where the
        // code inherited through one is not the code inherited through another: each
        // classified position is kept.
        if let Some(code) = own
            && (own != inherited || keying == Keying::Positions)
        {
            out.push((key, code));
        }
        gets.insert(key, own.or(inherited));
    }
    out
}

/// The table derived from `lines`, with `metadata` lines (source, licence).
#[must_use]
pub fn derive(lines: &[TaggedLine], opts: DeriveOptions, metadata: String) -> EccoTable {
    EccoTable::new(
        EccoInfo {
            max_plies: opts.max_plies,
            min_games: opts.min_games,
            games: u32::try_from(lines.len()).unwrap_or(u32::MAX),
            metadata,
        },
        entries(lines.iter(), opts, Keying::Lines),
    )
}

/// How often derived codes agree with the games' own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Games classified.
    pub games: u64,
    /// Given their own code.
    pub exact: u64,
    /// Given a code of their own code's family.
    pub family: u64,
    /// Given no code.
    pub none: u64,
}

/// Cross-validation over `folds` parts: each game (the `i`-th in fold `i % folds`) classified
/// by the table derived from the other parts' games, their votes counted under `keying`.
#[must_use]
pub fn cross_validate(
    lines: &[TaggedLine],
    opts: DeriveOptions,
    folds: u32,
    keying: Keying,
) -> Agreement {
    let folds = folds.max(2) as usize;
    let mut a = Agreement::default();
    for fold in 0..folds {
        let training = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| i % folds != fold)
            .map(|(_, l)| l);
        let table = EccoTable::new(EccoInfo::default(), entries(training, opts, keying));
        for line in lines.iter().skip(fold).step_by(folds) {
            a.games += 1;
            let code = keying
                .keys(&line.moves, opts.max_plies as usize)
                .into_iter()
                .rev()
                .find_map(|k| table.get(k));
            match code {
                Some(code) => {
                    a.exact += u64::from(code == line.code);
                    a.family += u64::from(code.family() == line.code.family());
                }
                None => a.none += 1,
            }
        }
    }
    a
}

/// How the namer's names agree with the games' codes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameCheck {
    /// Games named.
    pub games: u64,
    /// Whose name's family ([`chariot_formats::opening::OpeningName::family`]) is their code's.
    pub family: u64,
    /// Summed over the codes, the games of each code's most frequent name.
    pub commonest: u64,
    /// Games without a name.
    pub unnamed: u64,
    /// The codes whose family the name contradicts, with the name and its games, the most
    /// games first.
    pub contradictions: Vec<(Ecco, String, u64)>,
}

/// Names every line and compares the name's family with the code's.
#[must_use]
pub fn check_names(lines: &[TaggedLine]) -> NameCheck {
    let mut check = NameCheck::default();
    let mut by_code: BTreeMap<Ecco, BTreeMap<String, u64>> = BTreeMap::new();
    let mut against: BTreeMap<(Ecco, String), u64> = BTreeMap::new();
    for line in lines {
        check.games += 1;
        let Some(name) = name_line(&line.moves) else {
            check.unnamed += 1;
            continue;
        };
        let zh = name.zh();
        if name.family() == line.code.family() {
            check.family += 1;
        } else {
            *against.entry((line.code, zh.clone())).or_default() += 1;
        }
        *by_code.entry(line.code).or_default().entry(zh).or_default() += 1;
    }
    check.commonest = by_code
        .values()
        .map(|names| names.values().copied().max().unwrap_or(0))
        .sum();
    check.contradictions = against
        .into_iter()
        .map(|((code, name), n)| (code, name, n))
        .collect();
    check
        .contradictions
        .sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    check
}

/// The collection the shipped ECCO file is derived from: the master games, which carry the
/// codes (the other collections in `data/games/` have none).
pub const SOURCE: crate::defaults::Source = crate::defaults::SOURCES[0];

/// The metadata lines of a table derived from `source` with `opts`.
#[must_use]
pub fn metadata(source: &str, opts: DeriveOptions) -> String {
    format!(
        "tool: book-builder {}\nsource: {source}\nrule: lines of up to {} plies from the usual \
         start, left-right mirrors merged; a line of at least {} is classified when one code has \
         more than half of them; a line takes the code of its longest classified prefix",
        env!("CARGO_PKG_VERSION"),
        opts.max_plies,
        chariot_cli::count(u64::from(opts.min_games), "game", "games")
    )
}

/// Why the shipped ECCO file could not be built.
#[derive(Debug, thiserror::Error)]
pub enum EccoBuildError {
    /// The collection could not be imported.
    #[error(transparent)]
    Import(#[from] crate::defaults::DefaultBookError),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// No temporary directory for the database.
    #[error("cannot make a temporary directory for the game database: {0}")]
    Scratch(std::io::Error),
}

/// The games of the master collection in `data/games/` with their codes, read through a
/// temporary game database (so that they are checked against the rules and each game counts
/// once), the games without a code, and what importing the file did.
///
/// # Errors
/// [`EccoBuildError`] naming a missing or unreadable collection, or the database's error.
pub fn default_lines(
    data: &Path,
    progress: &mut dyn FnMut(usize),
) -> Result<(Vec<TaggedLine>, u64, crate::import::FileImport), EccoBuildError> {
    let scratch = tempfile::tempdir().map_err(EccoBuildError::Scratch)?;
    let (db, mut imports) = crate::defaults::import_collections(
        data,
        &[SOURCE],
        &scratch.path().join("games.db"),
        &mut |_, n| progress(n),
    )?;
    let (lines, untagged) = tagged_lines(&db)?;
    let import = imports.pop().map(|(_, r)| r).unwrap_or_default();
    Ok((lines, untagged, import))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_iccs;

    fn tagged(moves: &str, code: &str) -> TaggedLine {
        TaggedLine {
            moves: moves
                .split_whitespace()
                .map(|m| parse_iccs(m).unwrap())
                .collect(),
            code: code.parse().unwrap(),
        }
    }

    fn line(moves: &str) -> Vec<Move> {
        moves
            .split_whitespace()
            .map(|m| parse_iccs(m).unwrap())
            .collect()
    }

    fn code(text: &str) -> Option<Ecco> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn majorities_of_lines_and_the_longest_classified_prefix() {
        let games = [
            tagged("h2e2 h9g7 h0g2 b9c7", "C01"),
            tagged("h2e2 h9g7 h0g2 b9c7", "C01"),
            tagged("b2e2 b9c7 b0c2 h9g7", "C01"), // the mirror image
            tagged("h2e2 h9g7 h0g2 i9h9", "C10"),
            tagged("h2e2 h7e7", "D00"),
            tagged("g0e2", "A10"),
        ];
        let table = derive(&games, DeriveOptions::default(), String::new());
        // After h2e2: C01 3 of 5, a majority.
        assert_eq!(table.classify(&line("h2e2")), code("C01"));
        assert_eq!(table.classify(&line("h2e2 h9g7 h0g2 i9h9")), code("C10"));
        assert_eq!(table.classify(&line("h2e2 h7e7 h0g2")), code("D00"));
        assert_eq!(table.classify(&line("b2e2 b7e7")), code("D00"));
        assert_eq!(table.classify(&line("g0e2 h7e7")), code("A10"));
        assert_eq!(table.classify(&line("c3c4")), None);
        // Only where the code changes is a line stored: h2e2 (C01), ...i9h9 (C10), h7e7
        // (D00), g0e2 (A10).
        assert_eq!(table.entries().len(), 4);
        // With two games needed, h2e2 h7e7 (one game) takes h2e2's code.
        let two = derive(
            &games,
            DeriveOptions {
                min_games: 2,
                ..DeriveOptions::default()
            },
            String::new(),
        );
        assert_eq!(two.classify(&line("h2e2 h7e7")), code("C01"));
        assert_eq!(two.classify(&line("g0e2")), None);
    }

    #[test]
    fn positions_merge_the_transpositions_that_lines_keep_apart() {
        // A horse opening that transposes into the central cannon keeps its A code as a line.
        let games = [
            tagged("h2e2 h9g7 b0c2", "C01"),
            tagged("b0c2 h9g7 h2e2", "A40"),
            tagged("b0c2 h9g7 h2e2", "A40"),
        ];
        let opts = DeriveOptions::default();
        let by_line = EccoTable::new(
            EccoInfo::default(),
            entries(games.iter(), opts, Keying::Lines),
        );
        let by_position = EccoTable::new(
            EccoInfo::default(),
            entries(games.iter(), opts, Keying::Positions),
        );
        let keys = |keying: Keying, moves: &str| keying.keys(&line(moves), 16);
        let last = |t: &EccoTable, keys: Vec<u64>| keys.into_iter().rev().find_map(|k| t.get(k));
        assert_eq!(
            last(&by_line, keys(Keying::Lines, "h2e2 h9g7 b0c2")),
            code("C01")
        );
        // By position the three games meet after three plies, where A40 has the majority.
        assert_eq!(
            last(&by_position, keys(Keying::Positions, "h2e2 h9g7 b0c2")),
            code("A40")
        );
    }

    #[test]
    fn no_majority_no_code() {
        let games = [
            tagged("h2e2 h9g7", "C01"),
            tagged("h2e2 h9g7", "B05"),
            tagged("h2e2 b9c7", "B30"),
            tagged("h2e2 b9c7", "B30"),
        ];
        let table = derive(&games, DeriveOptions::default(), String::new());
        // h2e2: B30 2 of 4 is no majority; h9g7: a tie, none.
        assert_eq!(table.classify(&line("h2e2")), None);
        assert_eq!(table.classify(&line("h2e2 h9g7")), None);
        assert_eq!(table.classify(&line("h2e2 b9c7")), code("B30"));
    }

    #[test]
    fn the_order_of_the_games_changes_no_byte() {
        let mut games = vec![
            tagged("h2e2 h9g7 h0g2 b9c7", "C01"),
            tagged("h2e2 h9g7 h0g2 i9h9", "C10"),
            tagged("h2e2 h9g7 h0g2 i9h9", "C11"),
            tagged("g0e2 h7e7", "A27"),
            tagged("c3c4 b7c7", "E10"),
        ];
        let a = derive(&games, DeriveOptions::default(), "m".into()).to_bytes();
        games.reverse();
        assert_eq!(
            derive(&games, DeriveOptions::default(), "m".into()).to_bytes(),
            a
        );
    }

    #[test]
    fn held_out_games_and_names_are_counted() {
        let games: Vec<TaggedLine> = (0..10)
            .map(|i| {
                if i % 2 == 0 {
                    tagged("h2e2 h9g7 h0g2 b9c7", "C01")
                } else {
                    tagged("c3c4 b7c7", "E10")
                }
            })
            .collect();
        for keying in [Keying::Lines, Keying::Positions] {
            let a = cross_validate(&games, DeriveOptions::default(), 5, keying);
            assert_eq!((a.games, a.exact, a.family, a.none), (10, 10, 10, 0));
        }
        let n = check_names(&games);
        assert_eq!((n.games, n.family, n.commonest, n.unnamed), (10, 10, 10, 0));
        let wrong = [tagged("h2e2 h9g7 h0g2 b9c7", "B05")];
        let n = check_names(&wrong);
        assert_eq!(n.family, 0);
        assert_eq!(
            n.contradictions,
            vec![(code("B05").unwrap(), "中炮对屏风马".to_owned(), 1)]
        );
    }
}
