//! ChessDB's replies, word for word: what `/chessdb.php` answers, as text (`move:h2e2,score:1,...`)
//! or as JSON (`json=1`), in the formats of chessdb.cn's Xiangqi cloud book (its API page,
//! `chessdb.cn/cloudbook_api_en.html`, and its server, `noobpwnftw/chessdb` `web/chessdb.php`).
//! What the fields hold, and where this server takes them from, is [`crate::chessdb`]'s and
//! `docs/web-api.md`'s; this module only writes them.
//!
//! Two details of ChessDB's text are kept because its clients expect them: a text reply to a
//! request with a board ends with a NUL byte (ChessDB's own workers cut the reply there), and
//! the JSON form writes `winrate` as a string and an unknown move's `score` as `"??"`.

use chariot_rules::Move;
use serde::Serialize;
use serde::ser::Serializer;

/// A move's score in a `queryall` line: a number on ChessDB's scale, or `??` for a legal move
/// the server knows nothing about (`showall=1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineScore {
    /// Centipawn-like, for the side to move (wins as 30000 less the plies to mate).
    Known(i32),
    /// Written `??`.
    Unknown,
}

impl Serialize for LineScore {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LineScore::Known(v) => s.serialize_i32(*v),
            LineScore::Unknown => s.serialize_str("??"),
        }
    }
}

impl std::fmt::Display for LineScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineScore::Known(v) => write!(f, "{v}"),
            LineScore::Unknown => f.write_str("??"),
        }
    }
}

/// What a `queryall` line's note says after its mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteBody {
    /// A book move: the moves known after it and how many of those are good (`16-03`).
    Book {
        /// Moves the book has for the position after this move.
        replies: usize,
        /// Of those, the ones within ChessDB's margin of the best reply.
        good: usize,
    },
    /// A table move: `W`, `D` or `L` for the side to move, the metric (`M` distance to mate,
    /// `C` to conversion, `R` decided by the perpetual-check rule) and the distance in plies.
    Table {
        /// `W`, `D` or `L`.
        wdl: char,
        /// `M`, `C` or `R`.
        metric: char,
        /// Plies (0 for a draw and a rule value).
        plies: u32,
    },
    /// A legal move nothing is known about: `??-??`.
    Unknown,
}

/// One move of a `queryall` reply.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveLine {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move.
    pub score: LineScore,
    /// 2 best, 1 good, 0 other (ChessDB's `rank`); it also decides the note's mark (`!`, `*`,
    /// `?`).
    pub rank: u8,
    /// The note after the mark.
    pub note: NoteBody,
    /// The side to move's chance of winning in percent, given for book moves whose score is
    /// no win or loss (`|score| < 10000`).
    pub winrate: Option<f64>,
}

impl MoveLine {
    /// `! (16-03)`, `* (W-M-0011)`, `? (??-??)`.
    fn note(&self) -> String {
        let mark = match self.rank {
            2 => '!',
            1 => '*',
            _ => '?',
        };
        match self.note {
            NoteBody::Book { replies, good } => format!("{mark} ({replies:02}-{good:02})"),
            NoteBody::Table { wdl, metric, plies } => {
                format!("{mark} ({wdl}-{metric}-{plies:04})")
            }
            NoteBody::Unknown => format!("{mark} (??-??)"),
        }
    }

    /// The win rate as ChessDB writes it: two decimals.
    fn winrate(&self) -> Option<String> {
        self.winrate.map(|w| format!("{w:.2}"))
    }
}

/// What `querybest` suggests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Best {
    /// A book move: `move:h2e2`.
    Book(Move),
    /// The tables' move: `egtb:h2e2`.
    Table(Move),
    /// Candidates to search further: `search:h2e2|search:b2e2` (the tables' drawing moves, or
    /// the move of the server's short search).
    Search(Vec<Move>),
}

/// How the repetition rules judge one move in `queryrule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// No repetition rule applies.
    None,
    /// The move repeats the position and the repetition is a draw.
    Draw,
    /// The move repeats the position by a perpetual check or chase of the mover's: forbidden.
    Ban,
}

impl Rule {
    fn word(self) -> &'static str {
        match self {
            Rule::None => "none",
            Rule::Draw => "draw",
            Rule::Ban => "ban",
        }
    }
}

/// A reply that is one of ChessDB's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Nothing is known about the position.
    Unknown,
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The board is no legal position.
    InvalidBoard,
    /// `queryrule`'s move list is missing, too short or too long, or has a move that is not
    /// legal where it is played.
    InvalidMovelist,
    /// `querybest` has nothing to suggest.
    NoBestMove,
    /// The server is searching as many positions as it will at once.
    RateLimitExceeded,
    /// No action this endpoint answers, or no board.
    InvalidParameters,
}

impl Status {
    /// ChessDB's word for it.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Status::Unknown => "unknown",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::InvalidBoard => "invalid board",
            Status::InvalidMovelist => "invalid movelist",
            Status::NoBestMove => "nobestmove",
            Status::RateLimitExceeded => "rate limit exceeded",
            Status::InvalidParameters => "invalid parameters",
        }
    }
}

/// An answer of the endpoint.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `queryall`: the moves, best first.
    Moves(Vec<MoveLine>),
    /// `querybest`.
    Best(Best),
    /// `querypv`: the score of the line's first move and the line (its length is the `depth`).
    Pv {
        /// For the side to move.
        score: i32,
        /// The line, from the position.
        pv: Vec<Move>,
    },
    /// `queryscore`.
    Eval(i32),
    /// `queryrule`: every legal move after the move list, with the rules' verdict.
    Rules(Vec<(Move, Rule)>),
    /// One of ChessDB's words.
    Status(Status),
}

fn joined<T>(items: &[T], each: impl Fn(&T) -> String) -> String {
    items.iter().map(each).collect::<Vec<_>>().join("|")
}

impl Reply {
    /// The text form, with the NUL byte ChessDB ends a reply about a board with (every reply
    /// but `invalid parameters`, which ChessDB gives to requests without a board).
    #[must_use]
    pub fn text(&self) -> String {
        let body = match self {
            Reply::Moves(lines) => joined(lines, |l| {
                let mut s = format!(
                    "move:{},score:{},rank:{},note:{}",
                    l.mv,
                    l.score,
                    l.rank,
                    l.note()
                );
                if let Some(w) = l.winrate() {
                    s.push_str(",winrate:");
                    s.push_str(&w);
                }
                s
            }),
            Reply::Best(Best::Book(m)) => format!("move:{m}"),
            Reply::Best(Best::Table(m)) => format!("egtb:{m}"),
            Reply::Best(Best::Search(moves)) => joined(moves, |m| format!("search:{m}")),
            Reply::Pv { score, pv } => format!(
                "score:{score},depth:{},pv:{}",
                pv.len(),
                joined(pv, ToString::to_string)
            ),
            Reply::Eval(score) => format!("eval:{score}"),
            Reply::Rules(rules) => joined(rules, |(m, r)| format!("move:{m},rule:{}", r.word())),
            Reply::Status(s) => s.word().to_owned(),
        };
        if *self == Reply::Status(Status::InvalidParameters) {
            body
        } else {
            body + "\0"
        }
    }

    /// The JSON form (`json=1`): `{"status": "ok", ...}` or `{"status": WORD}`.
    #[must_use]
    pub fn json(&self) -> String {
        #[derive(Serialize)]
        struct Line {
            uci: String,
            score: LineScore,
            rank: u8,
            note: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            winrate: Option<String>,
        }
        #[derive(Serialize)]
        struct Uci {
            uci: String,
        }
        #[derive(Serialize)]
        struct Ruled {
            uci: String,
            rule: &'static str,
        }
        #[derive(Serialize)]
        #[serde(untagged)]
        enum Body {
            Moves {
                status: &'static str,
                moves: Vec<Line>,
            },
            Book {
                status: &'static str,
                #[serde(rename = "move")]
                mv: String,
            },
            Egtb {
                status: &'static str,
                egtb: String,
            },
            Search {
                status: &'static str,
                search_moves: Vec<Uci>,
            },
            Pv {
                status: &'static str,
                score: i32,
                depth: usize,
                pv: Vec<String>,
            },
            Eval {
                status: &'static str,
                eval: i32,
            },
            Rules {
                status: &'static str,
                moves: Vec<Ruled>,
            },
            Status {
                status: &'static str,
            },
        }
        const OK: &str = "ok";
        let body = match self {
            Reply::Moves(lines) => Body::Moves {
                status: OK,
                moves: lines
                    .iter()
                    .map(|l| Line {
                        uci: l.mv.to_string(),
                        score: l.score,
                        rank: l.rank,
                        note: l.note(),
                        winrate: l.winrate(),
                    })
                    .collect(),
            },
            Reply::Best(Best::Book(m)) => Body::Book {
                status: OK,
                mv: m.to_string(),
            },
            Reply::Best(Best::Table(m)) => Body::Egtb {
                status: OK,
                egtb: m.to_string(),
            },
            Reply::Best(Best::Search(moves)) => Body::Search {
                status: OK,
                search_moves: moves.iter().map(|m| Uci { uci: m.to_string() }).collect(),
            },
            Reply::Pv { score, pv } => Body::Pv {
                status: OK,
                score: *score,
                depth: pv.len(),
                pv: pv.iter().map(ToString::to_string).collect(),
            },
            Reply::Eval(score) => Body::Eval {
                status: OK,
                eval: *score,
            },
            Reply::Rules(rules) => Body::Rules {
                status: OK,
                moves: rules
                    .iter()
                    .map(|(m, r)| Ruled {
                        uci: m.to_string(),
                        rule: r.word(),
                    })
                    .collect(),
            },
            Reply::Status(s) => Body::Status { status: s.word() },
        };
        // Plain data of strings and numbers: serialising it cannot fail.
        serde_json::to_string(&body).unwrap_or_else(|_| r#"{"status":"unknown"}"#.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        chariot_rules::notation::parse_iccs(text).unwrap()
    }

    #[test]
    fn queryall_lines_in_both_forms() {
        let reply = Reply::Moves(vec![
            MoveLine {
                mv: mv("h2e2"),
                score: LineScore::Known(1),
                rank: 2,
                note: NoteBody::Book {
                    replies: 16,
                    good: 0,
                },
                winrate: Some(50.151_515),
            },
            MoveLine {
                mv: mv("h0h9"),
                score: LineScore::Known(29_999),
                rank: 1,
                note: NoteBody::Table {
                    wdl: 'W',
                    metric: 'M',
                    plies: 1,
                },
                winrate: None,
            },
            MoveLine {
                mv: mv("a3a4"),
                score: LineScore::Unknown,
                rank: 0,
                note: NoteBody::Unknown,
                winrate: None,
            },
        ]);
        assert_eq!(
            reply.text(),
            "move:h2e2,score:1,rank:2,note:! (16-00),winrate:50.15|\
             move:h0h9,score:29999,rank:1,note:* (W-M-0001)|\
             move:a3a4,score:??,rank:0,note:? (??-??)\0"
        );
        assert_eq!(
            reply.json(),
            r#"{"status":"ok","moves":[{"uci":"h2e2","score":1,"rank":2,"note":"! (16-00)","winrate":"50.15"},{"uci":"h0h9","score":29999,"rank":1,"note":"* (W-M-0001)"},{"uci":"a3a4","score":"??","rank":0,"note":"? (??-??)"}]}"#
        );
    }

    #[test]
    fn the_other_replies_in_both_forms() {
        let cases = [
            (
                Reply::Best(Best::Book(mv("h2e2"))),
                "move:h2e2",
                r#"{"status":"ok","move":"h2e2"}"#,
            ),
            (
                Reply::Best(Best::Table(mv("h0h9"))),
                "egtb:h0h9",
                r#"{"status":"ok","egtb":"h0h9"}"#,
            ),
            (
                Reply::Best(Best::Search(vec![mv("e1e0"), mv("e1d1")])),
                "search:e1e0|search:e1d1",
                r#"{"status":"ok","search_moves":[{"uci":"e1e0"},{"uci":"e1d1"}]}"#,
            ),
            (
                Reply::Pv {
                    score: -12,
                    pv: vec![mv("h2e2"), mv("h9g7")],
                },
                "score:-12,depth:2,pv:h2e2|h9g7",
                r#"{"status":"ok","score":-12,"depth":2,"pv":["h2e2","h9g7"]}"#,
            ),
            (Reply::Eval(35), "eval:35", r#"{"status":"ok","eval":35}"#),
            (
                Reply::Rules(vec![(mv("h8h9"), Rule::Ban), (mv("h8h7"), Rule::None)]),
                "move:h8h9,rule:ban|move:h8h7,rule:none",
                r#"{"status":"ok","moves":[{"uci":"h8h9","rule":"ban"},{"uci":"h8h7","rule":"none"}]}"#,
            ),
            (
                Reply::Status(Status::InvalidBoard),
                "invalid board",
                r#"{"status":"invalid board"}"#,
            ),
        ];
        for (reply, text, json) in cases {
            assert_eq!(reply.text(), format!("{text}\0"));
            assert_eq!(reply.json(), json);
        }
        // The one reply about no board has no NUL.
        let none = Reply::Status(Status::InvalidParameters);
        assert_eq!(none.text(), "invalid parameters");
        assert_eq!(none.json(), r#"{"status":"invalid parameters"}"#);
    }
}
