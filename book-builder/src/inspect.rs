//! Looking into a book: the moves of one position ([`probe_text`], [`probe_json`]), the main
//! lines as a tree ([`tree`]), and what the whole book holds ([`stats`]).
//!
//! Everything here reads the book only through [`Book::probe`] and [`Book::entries`], the same
//! way the engine does, so what it shows is what the engine would play.

use std::collections::HashSet;
use std::fmt::Write;

use chariot_formats::book::{Book, BookMove, canonical};
use chariot_rules::display::{DiagramStyle, diagram};
use chariot_rules::notation::{Notation, format_move};
use chariot_rules::{Color, Move, Position};

/// One book move with everything a report shows about it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveLine {
    /// The book move.
    pub book: BookMove,
    /// ICCS (`h2e2`).
    pub iccs: String,
    /// WXF (`C2.5`).
    pub wxf: String,
    /// Chinese (`炮二平五`).
    pub chinese: String,
    /// The share of the position's total weight (the chance of being played with the
    /// engine's medium randomness).
    pub probability: f64,
    /// Wins, draws and losses as fractions of the games, for the side that plays the move.
    pub wdl: (f64, f64, f64),
}

/// The book moves of `pos` with their notations and shares, best weight first.
#[must_use]
pub fn move_lines(book: &Book, pos: &Position) -> Vec<MoveLine> {
    let moves = book.probe(pos);
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    let mover = pos.turn();
    moves
        .into_iter()
        .map(|m| {
            let name = |n| format_move(pos, m.mv, n).unwrap_or_else(|_| m.mv.to_string());
            let (wins, losses) = m.stats.wins_losses(mover);
            let games = f64::from(m.stats.games.max(1));
            let draws = f64::from(m.stats.draws);
            MoveLine {
                iccs: m.mv.to_string(),
                wxf: name(Notation::Wxf),
                chinese: name(Notation::Chinese),
                probability: if total == 0 {
                    0.0
                } else {
                    f64::from(m.weight) / total as f64
                },
                wdl: (
                    f64::from(wins) / games,
                    draws / games,
                    f64::from(losses) / games,
                ),
                book: m,
            }
        })
        .collect()
}

/// The width of `s` on a terminal: CJK and full-width characters take two columns.
fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if ('\u{1100}'..='\u{115f}').contains(&c)
                || ('\u{2e80}'..='\u{a4cf}').contains(&c)
                || ('\u{ac00}'..='\u{d7a3}').contains(&c)
                || ('\u{f900}'..='\u{faff}').contains(&c)
                || ('\u{fe30}'..='\u{fe4f}').contains(&c)
                || ('\u{ff00}'..='\u{ff60}').contains(&c)
                || ('\u{ffe0}'..='\u{ffe6}').contains(&c)
            {
                2
            } else {
                1
            }
        })
        .sum()
}

/// `s` padded with spaces to `w` terminal columns.
fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The probe report for people: the board, then one line per book move.
#[must_use]
pub fn probe_text(book: &Book, pos: &Position, style: DiagramStyle) -> String {
    let mut s = diagram(pos, style);
    let lines = move_lines(book, pos);
    if lines.is_empty() {
        let _ = writeln!(s, "\nnot in the book");
        return s;
    }
    let games: u64 = lines.iter().map(|l| u64::from(l.book.stats.games)).sum();
    let _ = writeln!(
        s,
        "\n{} book {}, {games} {}; win/draw/loss in % of each move's games for {}, the side to move \
         (games without a result make up the rest of 100%)",
        lines.len(),
        if lines.len() == 1 { "move" } else { "moves" },
        if games == 1 { "game" } else { "games" },
        side(pos.turn())
    );
    let _ = writeln!(
        s,
        "{} {} {} {:>7} {:>6} {:>6} {:>6} {:>5} {:>8} {:>6}",
        pad("move", 5),
        pad("WXF", 5),
        pad("Chinese", 9),
        "games",
        "win",
        "draw",
        "loss",
        "elo",
        "weight",
        "prob"
    );
    for l in &lines {
        let st = &l.book.stats;
        let elo = if st.mean_elo == 0 {
            "-".to_owned()
        } else {
            st.mean_elo.to_string()
        };
        let _ = writeln!(
            s,
            "{} {} {} {:>7} {:>5.1}% {:>5.1}% {:>5.1}% {:>5} {:>8} {:>5.1}%",
            pad(&l.iccs, 5),
            pad(&l.wxf, 5),
            pad(&l.chinese, 9),
            st.games,
            100.0 * l.wdl.0,
            100.0 * l.wdl.1,
            100.0 * l.wdl.2,
            elo,
            l.book.weight,
            100.0 * l.probability
        );
    }
    s
}

/// One book move as `probe --json` prints it (the fields of lichess's explorer, named for
/// Xiangqi: `red_wins`, `draws`, `black_wins`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct ProbeMove {
    /// The probed position.
    pub fen: String,
    /// ICCS.
    #[serde(rename = "move")]
    pub mv: String,
    /// WXF.
    pub wxf: String,
    /// Chinese (simplified).
    pub chinese: String,
    /// Games with the move.
    pub games: u32,
    /// Of those, won by Red.
    pub red_wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Won by Black.
    pub black_wins: u32,
    /// Mean Elo of the player who made the move, `null` when unknown.
    pub mean_elo: Option<u16>,
    /// The book's weight.
    pub weight: u32,
    /// Share of the position's total weight (0 to 1).
    pub probability: f64,
    /// Score for the side to move (win 1, draw ½) over the games with a result.
    pub score: f64,
}

/// The book moves of `pos` for scripts.
#[must_use]
pub fn probe_moves(book: &Book, pos: &Position) -> Vec<ProbeMove> {
    let fen = pos.fen();
    move_lines(book, pos)
        .into_iter()
        .map(|l| {
            let st = l.book.stats;
            ProbeMove {
                fen: fen.clone(),
                mv: l.iccs,
                wxf: l.wxf,
                chinese: l.chinese,
                games: st.games,
                red_wins: st.red_wins,
                draws: st.draws,
                black_wins: st.black_wins,
                mean_elo: (st.mean_elo != 0).then_some(st.mean_elo),
                weight: l.book.weight,
                probability: l.probability,
                score: st.score(pos.turn()),
            }
        })
        .collect()
}

/// The probe report for scripts: one JSON object per book move and line.
#[must_use]
pub fn probe_json(book: &Book, pos: &Position) -> String {
    probe_moves(book, pos)
        .iter()
        .filter_map(|m| serde_json::to_string(m).ok())
        .map(|line| line + "\n")
        .collect()
}

/// How [`tree`] prunes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeOptions {
    /// Plies to show below the root.
    pub depth: u32,
    /// At most this many moves per position (the most played).
    pub top: usize,
    /// Leave out moves played in less than this share of the position's games (0 to 1).
    pub min_share: f64,
}

/// One node of [`tree_json`]: a book move with its statistics and the moves after it.
#[derive(Debug, serde::Serialize)]
pub struct TreeNode {
    /// The book move and its statistics.
    #[serde(flatten)]
    pub stats: ProbeMove,
    /// Share of the position's games (0 to 1).
    pub share: f64,
    /// The book moves after it (as deep as asked).
    pub children: Vec<TreeNode>,
}

/// The tree of [`tree`] as data, for `tree --json`.
#[must_use]
pub fn tree_json(book: &Book, root: &Position, opts: TreeOptions) -> Vec<TreeNode> {
    fn nodes(book: &Book, pos: &mut Position, depth: u32, o: TreeOptions) -> Vec<TreeNode> {
        if depth == 0 {
            return Vec::new();
        }
        let mut moves = probe_moves(book, pos);
        let games: u64 = moves.iter().map(|m| u64::from(m.games)).sum();
        moves.sort_by_key(|m| std::cmp::Reverse(m.games));
        let mut out = Vec::new();
        for m in moves
            .into_iter()
            .filter(|m| games == 0 || f64::from(m.games) / games as f64 >= o.min_share)
            .take(o.top)
        {
            let share = if games == 0 {
                0.0
            } else {
                f64::from(m.games) / games as f64
            };
            let Ok(mv) = chariot_rules::notation::parse_iccs(&m.mv) else {
                continue;
            };
            pos.make_move(mv);
            let children = nodes(book, pos, depth - 1, o);
            pos.unmake_move();
            out.push(TreeNode {
                stats: m,
                share,
                children,
            });
        }
        out
    }
    let mut pos = root.clone();
    pos.clear_history();
    nodes(book, &mut pos, opts.depth, opts)
}

/// The main lines from `root` as an indented tree: per position the most played moves, with
/// games, the share of the position's games, and win/draw/loss in % for the side playing the
/// move (games without a result make up the rest, and are said).
#[must_use]
pub fn tree(book: &Book, root: &Position, opts: TreeOptions) -> String {
    let mut s = String::new();
    let mut pos = root.clone();
    pos.clear_history();
    branch(book, &mut pos, opts.depth, "", opts, &mut s);
    if s.is_empty() {
        s.push_str("not in the book\n");
    } else {
        s.insert_str(
            0,
            "move, games (share of the position's games), win/draw/loss in % for the side playing it\n",
        );
    }
    s
}

fn branch(
    book: &Book,
    pos: &mut Position,
    depth: u32,
    prefix: &str,
    o: TreeOptions,
    s: &mut String,
) {
    if depth == 0 {
        return;
    }
    let mut lines = move_lines(book, pos);
    let games: u64 = lines.iter().map(|l| u64::from(l.book.stats.games)).sum();
    lines.sort_by_key(|l| std::cmp::Reverse(l.book.stats.games));
    let shown: Vec<MoveLine> = lines
        .into_iter()
        .filter(|l| games == 0 || f64::from(l.book.stats.games) / games as f64 >= o.min_share)
        .take(o.top)
        .collect();
    for (i, l) in shown.iter().enumerate() {
        let last = i + 1 == shown.len();
        let share = if games == 0 {
            0.0
        } else {
            100.0 * f64::from(l.book.stats.games) / games as f64
        };
        let n = l.book.stats.games;
        let open = 100.0 * (1.0 - l.wdl.0 - l.wdl.1 - l.wdl.2);
        let _ = writeln!(
            s,
            "{prefix}{} {} {} {n} {} ({share:.0}%), win/draw/loss {:.0}/{:.0}/{:.0}%{}",
            if last { "└─" } else { "├─" },
            l.iccs,
            pad(&l.chinese, 8),
            if n == 1 { "game" } else { "games" },
            100.0 * l.wdl.0,
            100.0 * l.wdl.1,
            100.0 * l.wdl.2,
            if open >= 0.5 {
                format!(", {open:.0}% without a result")
            } else {
                String::new()
            }
        );
        pos.make_move(l.book.mv);
        let deeper = format!("{prefix}{}", if last { "   " } else { "│  " });
        branch(book, pos, depth - 1, &deeper, o, s);
        pos.unmake_move();
    }
}

/// Visits the positions reachable from the start position through book moves, breadth first,
/// each once at the first ply it is reached (transpositions and, in a mirror-merged book,
/// mirrors once), stopping after `limit` positions with book moves. `visit` gets the ply and
/// the position. Only one ply's positions are held at a time.
pub fn walk(book: &Book, limit: usize, visit: &mut dyn FnMut(usize, &Position)) {
    let mirror = book.info().mirror;
    let mut seen = HashSet::new();
    let start = Position::start();
    seen.insert(canonical(&start, Move::NONE, mirror).0);
    let mut frontier = vec![start];
    let mut total = 0;
    let mut ply = 0;
    while !frontier.is_empty() && total < limit {
        let mut next = Vec::new();
        for pos in frontier {
            let moves = book.probe(&pos);
            if moves.is_empty() {
                continue;
            }
            for m in &moves {
                let mut child = pos.clone();
                child.make_move(m.mv);
                child.clear_history();
                if seen.insert(canonical(&child, Move::NONE, mirror).0) {
                    next.push(child);
                }
            }
            visit(ply, &pos);
            total += 1;
            if total >= limit {
                break;
            }
        }
        frontier = next;
        ply += 1;
    }
}

/// What the whole book holds (`book-builder stats`; `--json` prints it as it is).
#[derive(Clone, Debug, serde::Serialize)]
pub struct BookStats {
    /// The file.
    pub file: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Whether [`Book::verify`] passed.
    pub verified: bool,
    /// What it found wrong, if anything.
    pub problem: Option<String>,
    /// Entries (position and move).
    pub entries: usize,
    /// Positions (distinct keys).
    pub positions: usize,
    /// Entries of weight 0 (kept for their statistics, never played).
    pub zero_weight_entries: usize,
    /// Games the book was built from.
    pub games: u64,
    /// Build parameters.
    pub max_ply: u32,
    /// Moves played in fewer games were left out.
    pub min_games: u32,
    /// Moves scoring less were left out (0 to 1).
    pub min_score: f64,
    /// Whether a position and its mirror share entries.
    pub mirror_merged: bool,
    /// Positions with book moves reached from the start position, per ply.
    pub reached_by_ply: Vec<usize>,
    /// The build's metadata lines (filters, sources).
    pub metadata: Vec<String>,
}

/// Works out [`BookStats`].
#[must_use]
pub fn book_stats(book: &Book) -> BookStats {
    let info = book.info();
    let problem = book.verify().err().map(|e| e.to_string());
    let mut keys = 0usize;
    let mut last = None;
    let mut zero = 0usize;
    for e in book.entries() {
        if last != Some(e.key) {
            keys += 1;
            last = Some(e.key);
        }
        zero += usize::from(e.weight == 0);
    }
    let mut levels: Vec<usize> = Vec::new();
    walk(book, usize::MAX, &mut |ply, _| {
        if levels.len() <= ply {
            levels.resize(ply + 1, 0);
        }
        levels[ply] += 1;
    });
    BookStats {
        file: book.path().display().to_string(),
        bytes: book.file_size() as u64,
        verified: problem.is_none(),
        problem,
        entries: book.len(),
        positions: keys,
        zero_weight_entries: zero,
        games: info.games,
        max_ply: info.max_ply,
        min_games: info.min_games,
        min_score: f64::from(info.min_score_permille) / 1000.0,
        mirror_merged: info.mirror,
        reached_by_ply: levels,
        metadata: info.metadata.lines().map(str::to_owned).collect(),
    }
}

/// What the whole book holds: entries, positions, plies covered, size, build parameters, and
/// the result of [`Book::verify`].
#[must_use]
pub fn stats(book: &Book) -> String {
    let st = book_stats(book);
    let mut s = String::new();
    let verdict = match &st.problem {
        None => "verified: checksums, key order and moves are sound".to_owned(),
        Some(e) => format!("VERIFY FAILED: {e}"),
    };
    let _ = writeln!(s, "{}: {} bytes; {verdict}", st.file, st.bytes);
    let _ = writeln!(
        s,
        "entries: {}; positions: {} ({:.2} moves each); entries of weight 0: {}",
        st.entries,
        st.positions,
        if st.positions == 0 {
            0.0
        } else {
            st.entries as f64 / st.positions as f64
        },
        st.zero_weight_entries
    );
    let _ = writeln!(
        s,
        "built from {} {}: max ply {}, min games {}, min score {:.3}, {}",
        st.games,
        if st.games == 1 { "game" } else { "games" },
        st.max_ply,
        st.min_games,
        st.min_score,
        if st.mirror_merged {
            "mirrored positions merged"
        } else {
            "mirrored positions apart"
        }
    );
    let reached: usize = st.reached_by_ply.iter().sum();
    let by_ply: Vec<String> = st
        .reached_by_ply
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{i}:{n}"))
        .collect();
    let _ = writeln!(
        s,
        "from the start position: {reached} positions with book moves, plies 0 to {}",
        st.reached_by_ply.len().saturating_sub(1)
    );
    if !by_ply.is_empty() {
        let _ = writeln!(s, "  by ply: {}", by_ply.join(" "));
    }
    if st.positions > reached {
        let _ = writeln!(
            s,
            "  {} positions are not reached from the start (set-up games, or cut off by the thresholds)",
            st.positions - reached
        );
    }
    if !st.metadata.is_empty() {
        let _ = writeln!(s, "metadata:");
        for line in &st.metadata {
            let _ = writeln!(s, "  {line}");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_count_cjk_twice() {
        assert_eq!(width("h2e2"), 4);
        assert_eq!(width("炮二平五"), 8);
        assert_eq!(width("马８进７"), 8);
        assert_eq!(pad("炮二平五", 10).len(), "炮二平五".len() + 2);
    }
}
