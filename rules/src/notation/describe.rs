//! The position-dependent half of WXF and Chinese notation: finding the move a [`Description`]
//! names, and describing a move so that exactly that move is named.
//!
//! Both notations describe a move by the piece (kind and the file it stands on, counted from the
//! mover's right), a direction (forward, backward, sideways) and a number: the destination file,
//! or for a general, chariot, cannon or soldier moving along its file, the number of ranks.
//! When several like pieces share a file, a tandem mark ([`Tandem`]) says which one is meant.

use crate::{Color, Kind, Move, Piece, Position, Square};

use super::error::MoveTextError;
use super::text::{board_file, file_number};
use super::{Action, Description, Notation, Tandem};

/// `true` for the pieces that move along files and ranks (general, chariot, cannon, soldier):
/// their forward and backward numbers count ranks. The others (advisor, elephant, horse) move
/// diagonally and their numbers name the destination file.
pub(crate) fn moves_straight(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::General | Kind::Chariot | Kind::Cannon | Kind::Soldier
    )
}

/// How far "forward" is in ranks for `color`.
fn forward(color: Color) -> i32 {
    if color.is_red() { 1 } else { -1 }
}

/// The squares of `color`'s pieces of `kind` on board file `file`, front first.
fn on_file(pos: &Position, piece: Piece, file: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = pos
        .pieces(piece)
        .into_iter()
        .filter(|sq| sq.file() == file)
        .collect();
    // Bitboard order is by rank from Red's back rank; the front is the far end for the mover.
    squares.sort_by_key(|sq| sq.relative_rank(piece.color()));
    squares.reverse();
    squares
}

/// The square a piece of `kind` and `color` on `from` reaches by `action` with number `target`,
/// if the geometry allows one (legality is checked separately).
fn destination(
    kind: Kind,
    color: Color,
    from: Square,
    action: Action,
    target: u8,
) -> Option<Square> {
    let (f, r) = (i32::from(from.file()), i32::from(from.rank()));
    match action {
        Action::Sideways => {
            if !moves_straight(kind) {
                return None;
            }
            let to_file = i32::from(board_file(color, target)?);
            if to_file == f {
                return None;
            }
            Square::try_new(to_file, r)
        }
        Action::Forward | Action::Backward => {
            let dir = if action == Action::Forward {
                forward(color)
            } else {
                -forward(color)
            };
            if moves_straight(kind) {
                return Square::try_new(f, r + dir * i32::from(target));
            }
            let to_file = i32::from(board_file(color, target)?);
            let ranks = match (kind, (to_file - f).abs()) {
                (Kind::Advisor, 1) => 1,
                (Kind::Elephant, 2) => 2,
                (Kind::Horse, 1) => 2,
                (Kind::Horse, 2) => 1,
                _ => return None,
            };
            Square::try_new(to_file, r + dir * ranks)
        }
    }
}

/// The pieces a description designates, before looking at where they go; or why there are none.
fn designated(d: &Description, pos: &Position) -> Result<Vec<Square>, String> {
    let us = pos.turn();
    let piece = Piece::new(us, d.kind);
    let name = format!("{us} {}", d.kind.name());
    let files: Vec<u8> = match d.file {
        Some(n) => vec![board_file(us, n).ok_or_else(|| format!("file {n} is not a file 1-9"))?],
        None => (0..9).collect(),
    };
    let mut found = Vec::new();
    for file in files {
        let squares = on_file(pos, piece, file);
        match d.tandem {
            Some(t) => {
                if let Some(i) = t.index(squares.len()) {
                    found.push(squares[i]);
                }
            }
            // The WXF rule for three or five soldiers on a file: the front and rear ones carry
            // tandem marks, so the plain file names the middle one.
            None if squares.len() >= 3 && squares.len() % 2 == 1 => {
                found.push(squares[squares.len() / 2])
            }
            None => found.extend(squares),
        }
    }
    if !found.is_empty() {
        return Ok(found);
    }
    Err(match (d.file, d.tandem) {
        (Some(n), None) => format!("{us} has no {} on file {n}", d.kind.name()),
        (None, None) => format!("{us} has no {}", d.kind.name()),
        (Some(n), Some(t)) => {
            let count = board_file(us, n).map_or(0, |f| on_file(pos, piece, f).len());
            format!(
                "file {n} holds {count} {name}{}, so none is the {t} one",
                plural(count)
            )
        }
        (None, Some(t)) => format!("no file holds {} {name}s for a {t} one", tandem_needs(t)),
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// How many like pieces a tandem mark needs on a file, in words.
fn tandem_needs(t: Tandem) -> String {
    match t {
        Tandem::Middle => "three or five".to_owned(),
        Tandem::Nth(k) if k > 2 => format!("{k} or more"),
        _ => "two or more".to_owned(),
    }
}

/// The legal move `d` names in `pos`; errors name `text`.
pub(crate) fn resolve(d: &Description, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
    let us = pos.turn();
    let pieces = designated(d, pos).map_err(|reason| MoveTextError::NoSuchPiece {
        text: text.to_owned(),
        reason,
    })?;
    let mut legal = Vec::new();
    let mut why = None;
    for &from in &pieces {
        let Some(to) = destination(d.kind, us, from, d.action, d.target) else {
            continue;
        };
        let m = Move::new(from, to);
        if pos.is_legal(m) {
            legal.push(m);
        } else if why.is_none() {
            why = Some(super::iccs::why_illegal(m, pos));
        }
    }
    match legal.as_slice() {
        [m] => Ok(*m),
        [] => {
            let reason = why.unwrap_or_else(|| no_destination(d, us, &pieces));
            Err(MoveTextError::Illegal {
                text: text.to_owned(),
                reason,
            })
        }
        _ => Err(MoveTextError::Ambiguous {
            text: text.to_owned(),
            moves: legal,
        }),
    }
}

/// Why the designated pieces have no square to go to with this direction and number.
fn no_destination(d: &Description, us: Color, pieces: &[Square]) -> String {
    let name = format!("{us} {}", d.kind.name());
    let at = pieces
        .iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if d.action == Action::Sideways && !moves_straight(d.kind) {
        return format!("a {} never moves sideways (平, '.')", d.kind.name());
    }
    if d.action == Action::Sideways
        && pieces
            .iter()
            .all(|sq| Some(sq.file()) == board_file(us, d.target))
    {
        return format!("the {name} on {at} already stands on file {}", d.target);
    }
    if moves_straight(d.kind) || d.action == Action::Sideways {
        return format!(
            "the {name} on {at} cannot go {} {} (off the board)",
            direction_word(d.action),
            d.target
        );
    }
    format!(
        "the {name} on {at} cannot reach file {} moving {}",
        d.target,
        direction_word(d.action)
    )
}

fn direction_word(action: Action) -> &'static str {
    match action {
        Action::Forward => "forward",
        Action::Backward => "backward",
        Action::Sideways => "sideways to file",
    }
}

/// The direction and number of a move of `piece` from `from` to `to`.
fn action_and_target(piece: Piece, from: Square, to: Square) -> (Action, u8) {
    let color = piece.color();
    if from.rank() == to.rank() {
        return (Action::Sideways, file_number(color, to.file()));
    }
    let ahead = (i32::from(to.rank()) - i32::from(from.rank())) * forward(color) > 0;
    let action = if ahead {
        Action::Forward
    } else {
        Action::Backward
    };
    let target = if moves_straight(piece.kind()) {
        from.rank().abs_diff(to.rank())
    } else {
        file_number(color, to.file())
    };
    (action, target)
}

/// The descriptions of the legal move `m`, best first, in the conventions of `notation`
/// (WXF or Chinese). The caller writes the first one its notation can express and that reads
/// back as `m`.
///
/// The conventions:
/// - One like piece on the file, or an advisor or elephant (whose direction already tells two
///   on a file apart, the usage of real game records): the plain file, `C2.5`, `炮二平五`.
/// - Two or three on the file: front and rear marks (`R+`/`R-`, 前/后), and the middle one of
///   three is `P3` in WXF (the plain file) and 中 in Chinese.
/// - Four or five soldiers: WXF `++`, `P+`, `P3` (middle of five), `P-`, `--`; Chinese 一二三四五
///   counted from the front.
/// - Tandem soldiers on two files: the file is given too: WXF `3+`, `33`, `3-`; Chinese
///   `前兵七`, `中兵七`, `后兵七`.
pub(crate) fn describe(pos: &Position, m: Move, notation: Notation) -> Vec<Description> {
    let Some(piece) = pos.piece_at(m.from()) else {
        return Vec::new();
    };
    let (from, color, kind) = (m.from(), piece.color(), piece.kind());
    let (action, target) = action_and_target(piece, from, m.to());
    let file = file_number(color, from.file());
    let plain = Description {
        kind,
        file: Some(file),
        tandem: None,
        action,
        target,
    };

    let column = on_file(pos, piece, from.file());
    let count = column.len();
    let index = column.iter().position(|&sq| sq == from).unwrap_or(0);
    let other_tandem_files = (0..9)
        .filter(|&f| f != from.file() && on_file(pos, piece, f).len() >= 2)
        .count();
    let with_file = other_tandem_files > 0;

    let tandem = match notation {
        Notation::Wxf => match (count, index) {
            (c, i) if c >= 3 && c % 2 == 1 && i == c / 2 => {
                if with_file {
                    Some(Tandem::Middle)
                } else {
                    None
                }
            }
            (c, 0) if c >= 4 => Some(Tandem::Front),
            (c, i) if c >= 4 && i == c - 1 => Some(Tandem::Rear),
            (_, 0) => Some(Tandem::WxfFront),
            (c, i) if i == c - 1 => Some(Tandem::WxfRear),
            (c, 1) if c >= 4 => Some(Tandem::WxfFront),
            (c, i) if c >= 4 && i == c - 2 => Some(Tandem::WxfRear),
            // Six or more like pieces on a file (waived counts): WXF has no mark for this one.
            _ => Some(Tandem::Nth(index as u8 + 1)),
        },
        _ => match (count, index) {
            (c, i) if c >= 4 => Some(Tandem::Nth(i as u8 + 1)),
            (_, 0) => Some(Tandem::Front),
            (c, i) if i == c - 1 => Some(Tandem::Rear),
            _ => Some(Tandem::Middle),
        },
    };
    let tandem_form = match tandem {
        Some(t) => Description {
            file: with_file.then_some(file),
            tandem: Some(t),
            ..plain
        },
        None => plain,
    };
    let tandem_with_file = Description {
        file: Some(file),
        ..tandem_form
    };

    let mut out = Vec::with_capacity(3);
    if count == 1 || matches!(kind, Kind::Advisor | Kind::Elephant) {
        out.push(plain);
    }
    if count > 1 {
        out.push(tandem_form);
        out.push(tandem_with_file);
    }
    out.push(plain);
    out
}

/// Writes the legal move `m` with `render`, which turns a description into text in some
/// notation (or `None` when the notation cannot express that description), checking that the
/// text reads back as `m` with `parse`.
pub(crate) fn write_move(
    pos: &Position,
    m: Move,
    notation: Notation,
    render: impl Fn(&Description, Color) -> Option<String>,
    parse: impl Fn(&str) -> Result<Description, MoveTextError>,
) -> Result<String, MoveTextError> {
    if !pos.is_legal(m) {
        let text = m.to_string();
        return Err(MoveTextError::Illegal {
            reason: super::iccs::why_illegal(m, pos),
            text,
        });
    }
    let us = pos.turn();
    for d in describe(pos, m, notation) {
        let Some(text) = render(&d, us) else { continue };
        if parse(&text).and_then(|back| resolve(&back, pos, &text)) == Ok(m) {
            return Ok(text);
        }
    }
    Err(MoveTextError::Inexpressible {
        mv: m,
        notation,
        reason: "too many like pieces on one file for the notation's tandem marks".to_owned(),
    })
}
