//! Board diagrams for people: Chinese piece characters on a drawn board, optionally in colour.
//!
//! Used by the engine's `d` command and by the tools that show positions (book probes,
//! tablebase probes).

use std::fmt::Write;

use crate::{Color, Position, Square};

/// How to draw a diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiagramStyle {
    /// Use ANSI colours (red pieces in red, black pieces bold), for terminals.
    pub ansi: bool,
    /// Simplified characters (帅 车 马), to match simplified move text printed beside the
    /// board; otherwise traditional (帥 俥 傌).
    pub simplified: bool,
}

/// Draws the board with Red at the bottom, file letters and rank numbers (ICCS) on the edges,
/// the river between ranks 4 and 5, then the FEN and the side to move.
///
/// Each point is two columns wide so that the Chinese characters line up; an empty point is
/// drawn as `·`, and the palace diagonals are left to the imagination.
#[must_use]
pub fn diagram(pos: &Position, style: DiagramStyle) -> String {
    let mut s = String::new();
    let files = "   a  b  c  d  e  f  g  h  i";
    let _ = writeln!(s, "{files}");
    for rank in (0..10u8).rev() {
        let _ = write!(s, "{rank} ");
        for file in 0..9u8 {
            let sq = Square::new(file, rank);
            match pos.piece_at(sq) {
                Some(p) => {
                    let ch = if style.simplified {
                        p.chinese_simplified()
                    } else {
                        p.chinese()
                    };
                    match (style.ansi, p.color()) {
                        (true, Color::Red) => {
                            let _ = write!(s, "\x1b[31;1m{ch}\x1b[0m");
                        }
                        (true, Color::Black) => {
                            let _ = write!(s, "\x1b[1m{ch}\x1b[0m");
                        }
                        (false, _) => s.push(ch),
                    }
                }
                None => s.push_str(" ·"),
            }
            if file < 8 {
                s.push(' ');
            }
        }
        let _ = writeln!(s, " {rank}");
        if rank == 5 {
            let _ = writeln!(s, "  ───── 楚 河 ───── 漢 界 ─────");
        }
    }
    let _ = writeln!(s, "{files}");
    let side = match pos.turn() {
        Color::Red => "red (紅)",
        Color::Black => "black (黑)",
    };
    let _ = writeln!(s, "fen {}", pos.fen());
    let _ = writeln!(
        s,
        "key {:016x}   to move: {side}{}",
        pos.key(),
        if pos.in_check() { "   in check" } else { "" }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_diagram_shows_every_piece() {
        let d = diagram(&Position::start(), DiagramStyle::default());
        assert_eq!(
            d.chars()
                .filter(|c| "俥傌相仕帥炮兵車馬象士將砲卒".contains(*c))
                .count(),
            32
        );
        assert!(d.contains("9 車 馬 象 士 將 士 象 馬 車 9"));
        assert!(d.contains("0 俥 傌 相 仕 帥 仕 相 傌 俥 0"));
        assert!(!d.contains('\x1b'));
        assert!(
            diagram(
                &Position::start(),
                DiagramStyle {
                    ansi: true,
                    ..DiagramStyle::default()
                }
            )
            .contains("\x1b[31;1m帥")
        );
    }
}
