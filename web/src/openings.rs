//! Opening names for the pages: a line's ECCO code (derived from the master games, the file
//! compiled into the program) and its name in Chinese and English
//! (`chariot_formats::opening`, `docs/openings.md`). `GET /api/opening` (in [`crate::position`])
//! answers for any line; the position, a game and the explorer's game list carry the same
//! object.

use chariot_formats::opening::{self, Opening};
use chariot_rules::{Move, Position};
use serde::Serialize;

/// A line's opening as the API shows it: lichess's `eco` and the name in both languages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningView {
    /// The ECCO code (`C45`), `null` while the masters' games do not agree on one.
    pub eco: Option<String>,
    /// The name in Chinese (`中炮过河车对屏风马`), `null` when the line has none.
    pub name_zh: Option<String>,
    /// The name in English ("Central Cannon, River-Crossing Chariot vs Screen Horses").
    pub name_en: Option<String>,
}

/// The opening of `moves` played from `start`, `None` when neither a code nor a name is known
/// (a line from a set-up position, no move yet).
#[must_use]
pub fn opening_of(start: &Position, moves: &[Move]) -> Option<Opening> {
    let o = opening::identify(opening::builtin::table(), start, moves);
    (!o.is_unknown()).then_some(o)
}

/// The view of `moves` played from `start` (see [`opening_of`]).
#[must_use]
pub fn view(start: &Position, moves: &[Move]) -> Option<OpeningView> {
    opening_of(start, moves).map(|o| OpeningView {
        eco: o.ecco.map(|c| c.to_string()),
        name_zh: o.name.as_ref().map(opening::OpeningName::zh),
        name_en: o.name.as_ref().map(opening::OpeningName::en),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_rules::notation::parse_move;

    fn line(text: &str) -> Vec<Move> {
        let mut pos = Position::start();
        text.split_whitespace()
            .map(|t| {
                let m = parse_move(&pos, t).unwrap();
                pos.make_move(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_line_from_the_start_is_named_and_coded() {
        let v = view(
            &Position::start(),
            &line(
                "炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３ 兵七进一 卒７进１ 车二进六 \
                 炮８平９ 车二平三 炮９退１ 马八进七 士４进５ 炮八平九",
            ),
        )
        .unwrap();
        assert_eq!(v.name_zh.as_deref(), Some("五九炮过河车对屏风马平炮兑车"));
        assert_eq!(v.eco.as_deref(), Some("C45"));
        assert!(view(&Position::start(), &[]).is_none());
    }
}
