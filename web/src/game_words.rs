//! The words of a played game's PGN in the game's language (issue 47, fault 8: a game played in
//! the Chinese page was saved with English words): the event, the players' names, the opening
//! and the sentence that says how the game ended, the last comment.

use chariot_rules::{Color, EndReason, Ending, Reason};

/// A language of the page and of the games played in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English (`en`).
    #[default]
    En,
    /// Chinese (`zh`), in simplified characters.
    Zh,
}

impl Lang {
    /// `en` or `zh`; `None` for anything else.
    #[must_use]
    pub fn parse(text: &str) -> Option<Lang> {
        match text {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The event of a game played in the web app.
    #[must_use]
    pub fn event(self) -> &'static str {
        match self {
            Lang::En => "Chariot web game",
            Lang::Zh => "Chariot 网页对局",
        }
    }

    /// The person's name when they gave none.
    #[must_use]
    pub fn person(self) -> &'static str {
        match self {
            Lang::En => "You",
            Lang::Zh => "棋手",
        }
    }

    /// The engine's name at `level`.
    #[must_use]
    pub fn engine(self, level: u8) -> String {
        match self {
            Lang::En => format!("Chariot (level {level})"),
            Lang::Zh => format!("Chariot（第 {level} 级）"),
        }
    }

    /// An opening's name (`[Opening]` of the PGN).
    #[must_use]
    pub fn opening(self, name: &chariot_formats::opening::OpeningName) -> String {
        match self {
            Lang::En => name.en(),
            Lang::Zh => name.zh(),
        }
    }

    /// How `ending` ended the game, as a sentence: the rules' English (`Red mates`), or
    /// Chinese (`红方胜：黑方被将死`).
    #[must_use]
    pub fn ending(self, ending: &Ending) -> String {
        match self {
            Lang::En => ending.to_string(),
            Lang::Zh => chinese_ending(ending),
        }
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::Red => "红方",
        Color::Black => "黑方",
    }
}

/// `红方胜：黑方被将死`, `和棋：重复局面`: the result, then why.
fn chinese_ending(ending: &Ending) -> String {
    let Some(winner) = ending.winner() else {
        let why = match &ending.reason {
            EndReason::Rules(Reason::MoveLimit { plies }) => {
                format!("{}回合无吃子", plies.div_ceil(2))
            }
            EndReason::Rules(Reason::PerpetualCheck) => "双方长将".to_owned(),
            EndReason::Rules(Reason::PerpetualChase) => "双方长捉".to_owned(),
            EndReason::Rules(_) => "重复局面".to_owned(),
            EndReason::Agreement => "双方议和".to_owned(),
            EndReason::DrawAdjudication => "按评分判和".to_owned(),
            EndReason::MaxMoves => "达到着数上限判和".to_owned(),
            EndReason::TablebaseAdjudication(_) | EndReason::TablebaseConversion(_) => {
                "残局库判和".to_owned()
            }
            EndReason::EngineFailure(e) => format!("双方引擎均出错（{e}）"),
            EndReason::Interrupted => return "对局中断".to_owned(),
            other => other_reason(other),
        };
        return format!("和棋：{why}");
    };
    let (w, l) = (side(winner), side(winner.opponent()));
    let why = match &ending.reason {
        EndReason::Rules(Reason::Checkmate) => format!("{l}被将死"),
        EndReason::Rules(Reason::Stalemate) => format!("{l}困毙（无着可走）"),
        EndReason::Rules(Reason::PerpetualCheck) => format!("{l}长将作负"),
        EndReason::Rules(Reason::PerpetualChase) => format!("{l}长捉作负"),
        EndReason::Rules(Reason::Repetition) => "重复局面".to_owned(),
        EndReason::Rules(Reason::MoveLimit { plies }) => {
            format!("{}回合无吃子", plies.div_ceil(2))
        }
        EndReason::Resignation => format!("{l}认输"),
        EndReason::TimeForfeit => format!("{l}超时"),
        EndReason::IllegalMove(m) => format!("{l}走出不合规则的着法 {m}"),
        EndReason::NoMove => format!("{l}未给出着法"),
        EndReason::EngineFailure(e) => format!("{l}的引擎出错（{e}）"),
        EndReason::ResignAdjudication => format!("按评分判{l}负"),
        EndReason::TablebaseAdjudication(Some(n)) => format!("残局库判定（{n} 步杀）"),
        EndReason::TablebaseAdjudication(None) => "残局库判定（对方只能长将）".to_owned(),
        EndReason::TablebaseConversion(n) => format!("残局库判定（{n} 步后转换）"),
        other => other_reason(other),
    };
    format!("{w}胜：{why}")
}

/// Reasons that do not go with the result they came with (a draw by resignation): said as
/// their kind.
fn other_reason(reason: &EndReason) -> String {
    match reason {
        EndReason::Resignation => "认输".to_owned(),
        EndReason::TimeForfeit => "超时".to_owned(),
        EndReason::Agreement => "议和".to_owned(),
        EndReason::Interrupted => "对局中断".to_owned(),
        _ => "裁定".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_said_in_the_games_language() {
        let mate = Ending::win(Color::Red, EndReason::Rules(Reason::Checkmate));
        assert_eq!(Lang::En.ending(&mate), "Red mates");
        assert_eq!(Lang::Zh.ending(&mate), "红方胜：黑方被将死");
        let resigned = Ending::win(Color::Black, EndReason::Resignation);
        assert_eq!(Lang::Zh.ending(&resigned), "黑方胜：红方认输");
        let limit = Ending::draw(EndReason::Rules(Reason::MoveLimit { plies: 120 }));
        assert_eq!(Lang::Zh.ending(&limit), "和棋：60回合无吃子");
        let chase = Ending::win(Color::Black, EndReason::Rules(Reason::PerpetualChase));
        assert_eq!(Lang::Zh.ending(&chase), "黑方胜：红方长捉作负");
        assert_eq!(
            Lang::Zh.ending(&Ending::draw(EndReason::Agreement)),
            "和棋：双方议和"
        );
        assert_eq!(Lang::parse("zh"), Some(Lang::Zh));
        assert_eq!(Lang::parse("fr"), None);
    }
}
