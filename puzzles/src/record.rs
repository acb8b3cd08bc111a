//! One puzzle: a position, the side to move's task in it and the winning line, with where it
//! came from and how hard it is.

use std::fmt;
use std::str::FromStr;

use chariot_rules::{Color, Move, Position};
use sha2::{Digest, Sha256};

/// Where a puzzle came from. Each source has its own licence (`data/README.md`); the page and
/// the API name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The classical composed mate problems (梦入神机, 烂柯神机, 弈海烟波, 泥马渡康王) as
    /// walker8088/cchess distributes them, GPL-3.0.
    Classic,
    /// The mating attacks of the Chinese Chess Practical Dataset's mate collection, CC BY 4.0.
    CcpdMates,
    /// The Chinese Chess Practical Dataset's tactics games, CC BY 4.0.
    CcpdTactics,
    /// The master games Chariot's book is built from (CCPD, CC BY 4.0).
    Masters,
    /// Positions of Chariot's own endgame tables.
    Tables,
}

impl Source {
    /// Every source, in the file's order.
    pub const ALL: [Source; 5] = [
        Source::Classic,
        Source::CcpdMates,
        Source::CcpdTactics,
        Source::Masters,
        Source::Tables,
    ];

    /// The name in the file and the API: `classic`, `ccpd-mates`, `ccpd-tactics`, `masters`,
    /// `tables`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Source::Classic => "classic",
            Source::CcpdMates => "ccpd-mates",
            Source::CcpdTactics => "ccpd-tactics",
            Source::Masters => "masters",
            Source::Tables => "tables",
        }
    }

    /// `true` for the sources whose puzzles were found in played games.
    #[must_use]
    pub fn is_games(self) -> bool {
        matches!(
            self,
            Source::CcpdMates | Source::CcpdTactics | Source::Masters
        )
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Source {
    type Err = ();

    fn from_str(s: &str) -> Result<Source, ()> {
        Source::ALL.into_iter().find(|x| x.name() == s).ok_or(())
    }
}

/// What the solver must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Goal {
    /// Mate in this many of the solver's moves: the line ends in mate (or a position where the
    /// defender has no legal move, which loses in Xiangqi too).
    Mate(u32),
    /// Win: after the line the position is won (a decisive gain the search or the tables
    /// confirm), though not yet mate.
    Win,
}

impl fmt::Display for Goal {
    /// `mate3`, `win`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::Mate(n) => write!(f, "mate{n}"),
            Goal::Win => f.write_str("win"),
        }
    }
}

impl FromStr for Goal {
    type Err = ();

    fn from_str(s: &str) -> Result<Goal, ()> {
        if s == "win" {
            return Ok(Goal::Win);
        }
        let n: u32 = s
            .strip_prefix("mate")
            .filter(|d| !d.starts_with(['+', '0']))
            .and_then(|d| d.parse().ok())
            .ok_or(())?;
        Ok(Goal::Mate(n))
    }
}

/// How hard a puzzle is, from the work a search needs to find its first move
/// (`crate::difficulty`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// Found by the shallowest searches.
    Easy,
    /// In between.
    Medium,
    /// Found only by a deep search.
    Hard,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// `easy`, `medium`, `hard`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Difficulty {
    type Err = ();

    fn from_str(s: &str) -> Result<Difficulty, ()> {
        Difficulty::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or(())
    }
}

/// What a puzzle is about, for choosing puzzles: a puzzle may have more than one theme (a table
/// position that ends in mate is an endgame and a mate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The line ends in mate.
    Mate,
    /// A position of the endgame tables.
    Endgame,
    /// A decisive gain short of mate, found in a game.
    Tactic,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 3] = [Theme::Mate, Theme::Endgame, Theme::Tactic];

    /// `mate`, `endgame`, `tactic`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Theme::Mate => "mate",
            Theme::Endgame => "endgame",
            Theme::Tactic => "tactic",
        }
    }
}

impl FromStr for Theme {
    type Err = ();

    fn from_str(s: &str) -> Result<Theme, ()> {
        Theme::ALL.into_iter().find(|x| x.name() == s).ok_or(())
    }
}

/// A puzzle: in `position` the side to move (the solver) plays the first move of `line`, the
/// opponent the second, and so on; the solver's move is the last. The line is one solution:
/// the judge (`crate::judge`) also accepts other moves that reach the goal as surely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its id: [`Puzzle::id_of`] the position.
    pub id: String,
    /// Where it came from.
    pub source: Source,
    /// What the solver must achieve.
    pub goal: Goal,
    /// How hard it is.
    pub difficulty: Difficulty,
    /// The position, the solver to move.
    pub position: Position,
    /// The winning line: the solver's moves and the opponent's replies, the solver's first and
    /// last.
    pub line: Vec<Move>,
    /// The problem's name, the game it comes from, or the table's material (`KRKN`).
    pub title: String,
}

impl Puzzle {
    /// The id of a puzzle in `position`: the first 8 hexadecimal digits of the SHA-256 of the
    /// FEN's board and side to move, so that an id stays the same whatever else changes, and
    /// a position is a puzzle at most once.
    #[must_use]
    pub fn id_of(position: &Position) -> String {
        let fen = position.fen();
        let key: Vec<&str> = fen.split(' ').take(2).collect();
        let digest = Sha256::digest(key.join(" ").as_bytes());
        digest[..4].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The side that solves it (to move in the position).
    #[must_use]
    pub fn solver(&self) -> Color {
        self.position.turn()
    }

    /// How many moves the solver makes in the line.
    #[must_use]
    pub fn solver_moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// Its themes.
    #[must_use]
    pub fn themes(&self) -> Vec<Theme> {
        let mut themes = Vec::new();
        if matches!(self.goal, Goal::Mate(_)) {
            themes.push(Theme::Mate);
        }
        if self.source == Source::Tables {
            themes.push(Theme::Endgame);
        }
        if self.source.is_games() && self.goal == Goal::Win {
            themes.push(Theme::Tactic);
        }
        themes
    }

    /// The position after the first `plies` moves of the line (all of them at most).
    #[must_use]
    pub fn after(&self, plies: usize) -> Position {
        let mut pos = self.position.clone();
        for &m in self.line.iter().take(plies) {
            pos.make_move(m);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for s in Source::ALL {
            assert_eq!(s.name().parse::<Source>(), Ok(s));
        }
        for d in Difficulty::ALL {
            assert_eq!(d.name().parse::<Difficulty>(), Ok(d));
        }
        for t in Theme::ALL {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
        }
        for g in [Goal::Win, Goal::Mate(1), Goal::Mate(12)] {
            assert_eq!(g.to_string().parse::<Goal>(), Ok(g));
        }
        for bad in [
            "mate", "mate0", "mate+1", "mate01", "mate-1", "Win", "mate 2",
        ] {
            assert_eq!(bad.parse::<Goal>(), Err(()), "{bad}");
        }
        assert_eq!("book".parse::<Source>(), Err(()));
    }

    #[test]
    fn an_id_depends_on_the_board_and_side_only() {
        let a = Position::from_fen("9/3ka4/4Pa3/2p2C3/4N4/9/9/9/3pp2p1/5K3 w - - 0 1").unwrap();
        let b = Position::from_fen("9/3ka4/4Pa3/2p2C3/4N4/9/9/9/3pp2p1/5K3 w - - 7 30").unwrap();
        let c = Position::from_fen("9/3ka4/4Pa3/2p2C3/4N4/9/9/9/3pp2p1/5K3 b - - 0 1").unwrap();
        assert_eq!(Puzzle::id_of(&a), Puzzle::id_of(&b));
        assert_ne!(Puzzle::id_of(&a), Puzzle::id_of(&c));
        assert_eq!(Puzzle::id_of(&a).len(), 8);
        assert!(Puzzle::id_of(&a).bytes().all(|b| b.is_ascii_hexdigit()));
    }
}
