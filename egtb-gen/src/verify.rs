//! `egtb-gen verify`: re-checks a table through the library's reader only, independently of
//! the generator's code (no unmoves, no counters, no shared state).
//!
//! 1. **Locally**, every legal position against its moves (forward move generation by the rules
//!    core; captures read from the smaller tables in the same directory): a position without a
//!    move is lost at 0; a position decided by mate, or drawn, holds exactly the best of its
//!    successors' values ([`Value`]'s order, one ply further; in a DTC table a capture or
//!    soldier's move into a position decided by mate is a win or loss at 1 ply,
//!    [`Metric::before_move`]); a position decided by the
//!    perpetual-check rule holds a rule value of the same kind as that best (a win when its
//!    best move leads to a rule loss, a loss when every move loses and one only by the rule).
//!    This proves every distance to mate (by induction on it), as in version 1, and every
//!    distance to conversion (by induction on the conversions still possible, then on it).
//! 2. **Globally**, the rule: the drawn and rule-decided positions form the game's region, and
//!    the game of `docs/egtb.md` is solved again for both winners by a different method than
//!    the generator's ([`game`]: attractors as sequences of sweeps, each node judged afresh from
//!    all its successors, not a backward search with counters), on moves generated when a
//!    position is looked at rather than stored ([`moves`]: successors by the rules core's move
//!    generation, predecessors by putting a piece back and asking the rules core, not by the
//!    generator's unmoves). Every stored stage and plies must equal the recomputed ones, and
//!    every stored draw must be won by neither side. Local consistency cannot show the latter:
//!    a cycle of wrongly drawn positions is locally consistent, so the game has to be solved
//!    again. Memory: two bits an entry and some 13 bytes a position of the region (`KRABKRAB`,
//!    229 M positions in its region, peaked at 1.9 GiB with its sub-tables).
//!    When no position of a colour has a winning capture and no position of the other side lacks
//!    a move that gives no check (pass 1 counts them), that colour's game provably decides
//!    nothing (its stage 0 and first core are empty) and is not solved.
//! 3. The header's statistics must match the counts.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use chariot_formats::egtb::index::Placement;
use chariot_formats::egtb::{
    Indexer, Metric, RuleRank, Signature, TableFile, Value, is_conversion,
};
use chariot_rules::{Color, Position};
use chariot_rules::{Move, Waivers};
use rayon::prelude::*;

use crate::dtm::Progress;
use crate::error::TableError;
use crate::loaded::Loaded;
use crate::perpetual::chase_targets;
use crate::pipeline::readable_table;
use crate::region::Region;

pub mod moves;
pub mod rule_game;

use moves::{Moves, quiet_successor};
use rule_game::{Facts, Game, Solution, TooDeep};

/// The first inconsistency of a table, if any: (entry, FEN, stored, expected).
pub type Inconsistency = (u64, String, Value, Value);

/// Re-checks one table (see the module notes); `Ok(None)` when it is consistent.
///
/// # Errors
/// When the table or a table its captures lead to cannot be read, or the header's statistics
/// disagree with the table.
pub fn verify_table(path: &Path) -> Result<Option<Inconsistency>, TableError> {
    verify_table_with(path, &())
}

/// [`verify_table`], reporting its stages to `progress` (the positions checked in pass 1, then
/// each winner's game and the comparison).
///
/// # Errors
/// As [`verify_table`].
pub fn verify_table_with(
    path: &Path,
    progress: &dyn Progress,
) -> Result<Option<Inconsistency>, TableError> {
    let mut results = verify_tables_with(&[path], progress);
    results.pop().unwrap_or(Ok(None))
}

/// [`verify_table_with`] for several files of one table at once (its DTM and its DTC file, as
/// `gen` writes them): one result per file, in order. The files are checked against the same
/// moves, generated once per position, and when they agree on the game's region (the drawn and
/// rule-decided positions) and its exits, as files of one table do, the game is solved once
/// for all of them: about half the work of checking them one by one. Files of different
/// tables, or that disagree on the region, are checked one by one, with the same results.
pub fn verify_tables_with(
    paths: &[&Path],
    progress: &dyn Progress,
) -> Vec<Result<Option<Inconsistency>, TableError>> {
    // The tables the captures lead to are read once for all the files (a DTC file's captures
    // read the DTM files where they are there, as the DTM file's do).
    let mut cache = HashMap::new();
    let opened: Vec<Result<Opened, TableError>> =
        paths.iter().map(|p| Opened::open(p, &mut cache)).collect();
    // A table has two files at most (DTM and DTC); the same file given twice is checked twice.
    let joint = opened.len() == 2
        && opened.iter().all(|o| {
            o.as_ref().is_ok_and(|o| {
                let first = opened[0].as_ref().ok().map(|f| &f.header);
                first.is_some_and(|f| {
                    f.signature == o.header.signature && f.key_scheme == o.header.key_scheme
                })
            })
        });
    if !joint {
        return opened
            .into_iter()
            .map(|o| check(&[o?], progress).pop().unwrap_or(Ok(None)))
            .collect();
    }
    let files: Vec<Opened> = opened.into_iter().filter_map(Result::ok).collect();
    check(&files, progress)
}

/// A table file opened for checking, with the tables its captures lead to.
struct Opened {
    path: std::path::PathBuf,
    header: chariot_formats::egtb::Header,
    own: Arc<Loaded>,
    subs: HashMap<Signature, Arc<Loaded>>,
}

/// The files read so far, by path.
type Cache = HashMap<std::path::PathBuf, Arc<Loaded>>;

/// Reads the file at `path`, or takes it from `cache`.
fn load(path: &Path, cache: &mut Cache) -> Result<Arc<Loaded>, TableError> {
    if let Some(l) = cache.get(path) {
        return Ok(Arc::clone(l));
    }
    let f = TableFile::open(path).map_err(|source| TableError::File {
        path: path.to_owned(),
        source,
    })?;
    let l = Arc::new(Loaded::from_file(&f).map_err(|source| TableError::Load {
        path: path.to_owned(),
        source,
    })?);
    cache.insert(path.to_owned(), Arc::clone(&l));
    Ok(l)
}

impl Opened {
    fn open(path: &Path, cache: &mut Cache) -> Result<Opened, TableError> {
        let t = TableFile::open(path).map_err(|source| TableError::File {
            path: path.to_owned(),
            source,
        })?;
        let header = t.header().clone();
        let dir = path.parent().unwrap_or(Path::new("."));
        // The key scheme must be one the index knows.
        Indexer::with_scheme(header.signature, header.key_scheme)?;
        let own = Arc::new(Loaded::from_file(&t).map_err(|source| TableError::Load {
            path: path.to_owned(),
            source,
        })?);
        let mut subs: HashMap<Signature, Arc<Loaded>> = HashMap::new();
        // A DTM table's captures need the DTM of the tables they lead to; a DTC table's only
        // their results, from either file.
        for s in header.signature.captures() {
            let p = readable_table(dir, s, header.coding.metric == Metric::Dtm);
            subs.insert(s, load(&p, cache)?);
        }
        subs.insert(header.signature, Arc::clone(&own));
        Ok(Opened {
            path: path.to_owned(),
            header,
            own,
            subs,
        })
    }

    /// The stored value of entry `e`, if it decodes.
    fn stored(&self, e: u64) -> Option<Value> {
        self.own.coding.decode(self.own.code(e)).ok()
    }
}

/// What pass 1 finds of one file in a chunk of entries.
#[derive(Clone, Default)]
struct FileChunk {
    bad: Option<Inconsistency>,
    /// Per half: wins, draws, losses, rule wins, rule losses, unused.
    counts: [[u64; 6]; 2],
}

/// What pass 1 finds in a chunk of entries.
#[derive(Default)]
struct Chunk {
    /// Per file.
    files: Vec<FileChunk>,
    /// The files disagree on the region or its exits (in a position all of them hold
    /// consistently so far).
    split: bool,
    /// Per colour as the winner: whether its game can decide anything.
    possible: [bool; 2],
    /// The region's membership bits of the chunk's entries (a word per 64).
    words: Vec<u64>,
    /// What the game needs of the chunk's positions in the region.
    facts: Facts,
}

/// The column of a value in the counts: wins, draws, losses, rule wins, rule losses.
fn column(v: Value) -> usize {
    match v {
        Value::Win(_) => 0,
        Value::Draw => 1,
        Value::Loss(_) => 2,
        Value::RuleWin(_) => 3,
        Value::RuleLoss(_) => 4,
    }
}

/// Checks `files`, one or two of one table and key scheme (see [`verify_tables_with`]): one
/// result per file. Where they turn out to differ in the region or its exits, or one of them is
/// inconsistent already in pass 1, the others are checked alone.
fn check(
    files: &[Opened],
    progress: &dyn Progress,
) -> Vec<Result<Option<Inconsistency>, TableError>> {
    let n = files.len();
    debug_assert!(n <= 2, "one table has two files at most");
    let h0 = &files[0].header;
    let ix = match Indexer::with_scheme(h0.signature, h0.key_scheme) {
        Ok(ix) => ix,
        Err(e) => {
            return files
                .iter()
                .map(|_| Err(TableError::from(e.clone())))
                .collect();
        }
    };
    let size = ix.size();
    let total = 2 * size;
    let waivers = Waivers {
        placement: true,
        counts: true,
        opposite_check: false,
    };
    // A legal entry's position and placement.
    let legal_at = |e: u64| -> Option<(Position, Placement)> {
        let turn = if e < size { Color::Red } else { Color::Black };
        let p = ix.decode(e % size);
        if p.has_overlap() {
            return None;
        }
        Some((ix.position(&p, turn, waivers).ok()?, p))
    };
    let legal = |e: u64| legal_at(e).map(|(pos, _)| pos);
    let value_of = |t: &Loaded, pos: &Position| -> Option<Value> {
        let (tt, i) = t.indexer.index_of(pos).ok()?;
        t.coding
            .decode(t.code(tt.index() as u64 * t.indexer.size() + i))
            .ok()
    };
    const CHUNK: u64 = 1 << 14;
    // The chase targets of each winner's game (none when the table judges no chase).
    let targets = [
        chase_targets(&ix, Color::Red),
        chase_targets(&ix, Color::Black),
    ];
    let judge_chase = targets.iter().any(|t| !t.is_empty());
    // Every move of a legal position, valued in each file: per file the best value (`None`
    // when some successor cannot be read) and the best capture for the game (0 loses, 1 draws,
    // 2 wins); and the quiet moves into the game's region (successors stored as draws or rule
    // values; by the first file, the others must agree or `split` is set), with whether they
    // check (what they chase is asked later, only where it matters).
    //
    // A quiet move's successor is found from the placement without making the move, and the
    // codes of all of them are read before any is looked at: they lie all over the table, and
    // reads that do not wait on one another overlap their cache misses.
    type Edge = (u64, bool, Move);
    let explore = |pos: &mut Position,
                   placement: &Placement,
                   best: &mut [Option<Value>],
                   exit: &mut [u8],
                   child: &mut [Option<Value>],
                   region: &mut Vec<Edge>,
                   split: &mut bool,
                   scratch: &mut (Vec<u64>, Vec<[u16; 2]>)| {
        region.clear();
        exit.fill(0);
        let moves = pos.legal_move_list();
        if moves.is_empty() {
            best.fill(Some(Value::Loss(0)));
            return;
        }
        // The other side moves next, in the table's frame as in ours (a quiet move keeps the
        // material).
        let next_half = if pos.turn() == Color::Red { size } else { 0 };
        let (entries, codes) = scratch;
        let key = ix.defence_key(placement);
        entries.clear();
        entries.extend(moves.iter().map(|&m| {
            let quiet = (!pos.is_capture(m))
                .then(|| quiet_successor(&ix, key.as_ref(), placement, m))
                .flatten();
            quiet.map_or(u64::MAX, |i| next_half + i)
        }));
        codes.clear();
        codes.extend(entries.iter().map(|&e| {
            let mut c = [0u16; 2];
            if e != u64::MAX {
                for (c, f) in c.iter_mut().zip(files) {
                    *c = f.own.code(e);
                }
            }
            c
        }));
        let mut unread = [false; 2];
        best.fill(None);
        for (j, &m) in moves.iter().enumerate() {
            let capture = pos.is_capture(m);
            if capture {
                // A capture leads to a smaller table.
                pos.make_move(m);
                let sig = Signature::of(pos).0;
                for (c, f) in child.iter_mut().zip(files) {
                    *c = f.subs.get(&sig).and_then(|t| value_of(t, pos));
                }
                pos.unmake_move();
            } else if entries[j] == u64::MAX {
                child.fill(None);
            } else {
                for (k, (c, f)) in child.iter_mut().zip(files).enumerate() {
                    *c = f.own.coding.decode(codes[j][k]).ok();
                }
                // A quiet move into the region: its entry and whether it checks.
                let inside = |c: &Option<Value>| c.is_some_and(|v| v.dtm().is_none());
                if inside(&child[0]) {
                    region.push((entries[j], pos.gives_check(m), m));
                }
                if child[1..].iter().any(|c| inside(c) != inside(&child[0])) {
                    *split = true;
                }
            }
            let conversion = is_conversion(pos, m);
            for (k, (c, f)) in child.iter().zip(files).enumerate() {
                let Some(v) = c.map(|v| f.header.coding.metric.before_move(v, conversion)) else {
                    unread[k] = true;
                    continue;
                };
                best[k] = Some(best[k].map_or(v, |b| b.max(v)));
                if capture {
                    exit[k] = exit[k].max(match v {
                        Value::RuleWin(_) | Value::Win(_) => 2,
                        Value::Draw => 1,
                        _ => 0,
                    });
                }
            }
        }
        for (b, &u) in best.iter_mut().zip(&unread) {
            if u {
                *b = None;
            }
        }
        if exit[1..].iter().any(|&x| x != exit[0]) {
            *split = true;
        }
    };

    // Pass 1: local consistency, counts, and whether the game can decide anything at all. For
    // winner P it cannot when no P position has a winning capture and no position of the other
    // side lacks a way out that gives no check (then its stage 0 and first core are empty).
    progress.stage("checking every position", total);
    let chunks: Vec<Chunk> = (0..total.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            progress.advance(((c + 1) * CHUNK).min(total) - c * CHUNK);
            let mut out = Chunk {
                files: vec![FileChunk::default(); n],
                words: vec![0; CHUNK.div_ceil(64) as usize],
                ..Chunk::default()
            };
            let (mut best, mut exit, mut child) = (vec![None; n], vec![0u8; n], vec![None; n]);
            let mut region = Vec::new();
            let mut scratch = (Vec::new(), Vec::new());
            for e in c * CHUNK..((c + 1) * CHUNK).min(total) {
                let half = (e / size) as usize;
                let Some((mut pos, placement)) = legal_at(e) else {
                    for f in &mut out.files {
                        f.counts[half][5] += 1;
                    }
                    continue;
                };
                let mut stored = Vec::with_capacity(n);
                for (f, fc) in files.iter().zip(&mut out.files) {
                    let v = f.stored(e);
                    match v {
                        Some(v) => fc.counts[half][column(v)] += 1,
                        None if fc.bad.is_none() => {
                            fc.bad = Some((e, pos.fen(), Value::Draw, Value::Draw));
                        }
                        None => {}
                    }
                    stored.push(v);
                }
                if out.files.iter().all(|f| f.bad.is_some()) {
                    return out;
                }
                let mut split = false;
                explore(
                    &mut pos,
                    &placement,
                    &mut best,
                    &mut exit,
                    &mut child,
                    &mut region,
                    &mut split,
                    &mut scratch,
                );
                for ((fc, stored), expected) in out.files.iter_mut().zip(&stored).zip(&best) {
                    let (Some(stored), None) = (*stored, &fc.bad) else {
                        continue;
                    };
                    let Some(expected) = *expected else {
                        fc.bad = Some((e, pos.fen(), stored, Value::Draw));
                        continue;
                    };
                    let agrees = match stored {
                        Value::RuleWin(_) => matches!(expected, Value::RuleWin(_)),
                        Value::RuleLoss(_) => matches!(expected, Value::RuleLoss(_)),
                        _ => expected == stored,
                    };
                    if !agrees {
                        fc.bad = Some((e, pos.fen(), stored, expected));
                    }
                }
                if out.files.iter().all(|f| f.bad.is_some()) {
                    return out;
                }
                let inside = stored
                    .iter()
                    .map(|v| v.is_some_and(|v| v.dtm().is_none()))
                    .collect::<Vec<_>>();
                if split || inside.iter().any(|&i| i != inside[0]) {
                    out.split = true;
                }
                if inside[0] {
                    let mover = pos.turn().index();
                    let all_check = region.iter().all(|&(_, check, _)| check);
                    // The kinds every quiet move into the region chases some piece of, needed
                    // only where no capture saves the side to move; asked move by move until
                    // none is left.
                    let mut kinds = !0u8;
                    if judge_chase && exit[0] == 0 {
                        for &(_, _, m) in region.iter() {
                            kinds &= moves::chased_kinds(&pos, m).1;
                            if kinds == 0 {
                                break;
                            }
                        }
                    }
                    let exit = exit[0];
                    if exit == 2 {
                        out.possible[mover] = true;
                        out.facts.winning_exits.push(e);
                    }
                    if exit == 0 && all_check {
                        out.possible[1 - mover] = true;
                    }
                    if exit == 0 && (all_check || (judge_chase && kinds != 0)) {
                        out.facts.cornered.push((e, all_check, kinds));
                    }
                    if region.is_empty() {
                        out.facts.dead_ends.push(e);
                    }
                    out.facts.exit.push(exit);
                    let i = (e % CHUNK) as usize;
                    out.words[i / 64] |= 1 << (i % 64);
                }
            }
            out
        })
        .collect();

    // Each file's verdict of pass 1, if it has one already.
    let mut results: Vec<Option<Result<Option<Inconsistency>, TableError>>> = files
        .iter()
        .enumerate()
        .map(|(k, f)| pass_one_verdict(f, k, &chunks))
        .collect();
    // The rest share pass 2 only when every file got through pass 1 and they agree on the
    // region: otherwise each of the rest is checked alone.
    let split = chunks.iter().any(|c| c.split);
    if n > 1 && (split || results.iter().any(Option::is_some)) {
        return results
            .into_iter()
            .zip(files)
            .map(|(r, f)| {
                r.unwrap_or_else(|| {
                    check(std::slice::from_ref(f), progress)
                        .pop()
                        .unwrap_or(Ok(None))
                })
            })
            .collect();
    }
    if n == 1
        && let Some(r) = results.pop().flatten()
    {
        return vec![r];
    }
    let mut possible = [false; 2];
    for c in &chunks {
        possible[0] |= c.possible[0];
        possible[1] |= c.possible[1];
    }
    // A chase core needs no check: with chase targets the games are always solved.
    if judge_chase {
        possible = [true, true];
    }
    if !possible[0] && !possible[1] {
        // The game decides nothing: no rule value may be stored.
        return files
            .iter()
            .map(|f| {
                let bad = (0..total).into_par_iter().find_map_first(|e| {
                    let v = f.stored(e)?;
                    (v.by_rule() && legal(e).is_some()).then_some(e)
                });
                Ok(bad.map(|e| {
                    let fen = legal(e).map_or_else(String::new, |p| p.fen());
                    let stored = f.stored(e).unwrap_or(Value::Draw);
                    (e, fen, stored, Value::Draw)
                }))
            })
            .collect();
    }

    // Pass 2: the game solved again, on the region pass 1 found, its moves generated afresh
    // whenever a position is looked at.
    let mut words = Vec::with_capacity(total.div_ceil(64) as usize);
    let mut facts = Facts::default();
    for c in chunks {
        words.extend_from_slice(&c.words);
        facts.exit.extend_from_slice(&c.facts.exit);
        facts
            .winning_exits
            .extend_from_slice(&c.facts.winning_exits);
        facts.dead_ends.extend_from_slice(&c.facts.dead_ends);
        facts.cornered.extend_from_slice(&c.facts.cornered);
    }
    words.truncate(total.div_ceil(64) as usize);
    let region = Region::from_words(words);
    let moves = Moves::new(&ix, &region, waivers);
    let game = Game::new(&moves, &region, &facts, size);
    let mut solutions: Vec<Solution> = Vec::new();
    let mut stage_errors: Vec<Option<TableError>> = (0..n).map(|_| None).collect();
    for p in Color::ALL {
        progress.stage(&format!("the rule game, {p:?} winning"), 0);
        let solution = match game.solve(p, &targets[p.index()]) {
            Ok(s) => s,
            Err(TooDeep) => {
                return files
                    .iter()
                    .map(|f| {
                        Err(TableError::Header {
                            path: f.path.clone(),
                            reason: format!(
                                "{p:?}'s rule game, solved again, is deeper than verify can hold (2^11 stages or 2^21 plies)"
                            ),
                        })
                    })
                    .collect();
            }
        };
        let mut bits = 0u128;
        for (level, &chase) in solution.chase_levels.iter().enumerate() {
            if chase {
                bits |= 1 << (2 * level + 1);
            }
        }
        // A level whose core holds no position of the table is not a stage of the file.
        let used = solution.stages_used();
        let keep = if used >= 128 { !0 } else { (1u128 << used) - 1 };
        for (f, err) in files.iter().zip(&mut stage_errors) {
            let stored = f.header.coding.chase_stages[p.index()];
            if err.is_none() && bits & keep != stored {
                *err = Some(TableError::Header {
                    path: f.path.clone(),
                    reason: format!(
                        "chase stages {stored:#x} of {p:?}'s game in the header, {:#x} solved again",
                        bits & keep
                    ),
                });
            }
        }
        solutions.push(solution);
    }
    progress.stage("comparing the rule values", 0);
    files
        .iter()
        .zip(stage_errors)
        .map(|(f, err)| {
            if let Some(err) = err {
                return Err(err);
            }
            let bad = (0..total).into_par_iter().find_map_first(|e| {
                let d = region.get(e)?;
                let stored = f.stored(e)?;
                let mut expected = Value::Draw;
                for won in &solutions {
                    if let Some((stage, plies)) = won.rank(d) {
                        let rank = RuleRank { stage, plies };
                        let value = if plies % 2 == 1 {
                            Value::RuleWin(rank)
                        } else {
                            Value::RuleLoss(rank)
                        };
                        if expected != Value::Draw {
                            // Both sides win: impossible in a correct solution.
                            return Some((e, value));
                        }
                        expected = value;
                    }
                }
                (expected != stored).then_some((e, expected))
            });
            Ok(bad.map(|(e, expected)| {
                let fen = legal(e).map_or_else(String::new, |p| p.fen());
                let stored = f.stored(e).unwrap_or(Value::Draw);
                (e, fen, stored, expected)
            }))
        })
        .collect()
}

/// The verdict of pass 1 on file `k` of `chunks`: its first inconsistency, or its statistics
/// against its header; `None` when it passed.
fn pass_one_verdict(
    f: &Opened,
    k: usize,
    chunks: &[Chunk],
) -> Option<Result<Option<Inconsistency>, TableError>> {
    let mut counts = [[0u64; 6]; 2];
    for c in chunks {
        if let Some(bad) = &c.files[k].bad {
            return Some(Ok(Some(bad.clone())));
        }
        for (total, part) in counts.iter_mut().zip(c.files[k].counts) {
            for (t, p) in total.iter_mut().zip(part) {
                *t += p;
            }
        }
    }
    for (half, s) in f.header.stats.iter().enumerate() {
        let header = [
            s.wins,
            s.draws,
            s.losses,
            s.rule_wins,
            s.rule_losses,
            s.unused,
        ];
        if header != counts[half] {
            return Some(Err(TableError::Header {
                path: f.path.clone(),
                reason: format!(
                    "header statistics {header:?} do not match the table's {:?} (wins, draws, losses, rule wins, rule losses, unused)",
                    counts[half]
                ),
            }));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The successor's entry from the parent's placement is the one the reader finds from the
    /// position itself, for every quiet move of many positions, in every key scheme and with
    /// pieces of every kind (groups of one and two, defenders, soldiers, mirrored placements).
    #[test]
    fn a_quiet_moves_successor_is_the_readers_entry() {
        let waivers = Waivers {
            placement: true,
            counts: true,
            opposite_check: false,
        };
        let mut checked = 0;
        for sig in ["KRABKNB", "KCAAKPB", "KNNKAB", "KPPKA", "KRBBKRA", "KCKC"] {
            let sig: Signature = sig.parse().unwrap();
            for scheme in 1..=4 {
                let ix = Indexer::with_scheme(sig, scheme).unwrap();
                let size = ix.size();
                // A fixed odd stride over the entries, both sides to move.
                let step = (2 * size / 300) | 1;
                for e in (0..2 * size).step_by(step as usize) {
                    let turn = if e < size { Color::Red } else { Color::Black };
                    let p = ix.decode(e % size);
                    if p.has_overlap() {
                        continue;
                    }
                    let Ok(mut pos) = Position::from_setup(&ix.setup(&p, turn), waivers) else {
                        continue;
                    };
                    for &m in pos.legal_move_list().iter() {
                        if pos.is_capture(m) {
                            continue;
                        }
                        pos.make_move(m);
                        let read = ix.index_of(&pos).ok().map(|(_, i)| i);
                        pos.unmake_move();
                        for key in [None, ix.defence_key(&p)] {
                            assert_eq!(
                                quiet_successor(&ix, key.as_ref(), &p, m),
                                read,
                                "{sig} scheme {scheme}: {} {m}",
                                pos.fen()
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }
}
