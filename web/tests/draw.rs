//! The engine's answer to a draw offer (`chariot_web::draw`): the rule at its edges, and games
//! at every level, where an offer before a move used to be accepted (issue 47).

use std::sync::Arc;
use std::time::Duration;

use chariot_engine::search::Options;
use chariot_formats::egtb::{Tablebases, Wdl};
use chariot_rules::{Color, Position};
use chariot_web::draw::{DRAW_MARGIN, Known, LOST, OPENING_PLIES, accepts};
use chariot_web::game::{Game, Setup};
use chariot_web::play_levels::LEVELS;

fn tables() -> Arc<Tablebases> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/egtb");
    Arc::new(Tablebases::open(&[dir]).unwrap())
}

/// A game with the built-in book and the shipped tables; the engine has opened when the
/// person plays Black.
fn game(fen: Option<&str>, human: Color, level: u8) -> Game {
    let mut g = Game::new(
        &Setup {
            fen: fen.map(str::to_owned),
            human,
            level,
            ..Setup::default()
        },
        Arc::new(chariot_formats::book::builtin::book_set()),
        tables(),
        &Options::default(),
    )
    .unwrap();
    g.engine_reply(Duration::from_secs(5));
    g
}

const CAP: Duration = Duration::from_secs(5);

#[test]
fn the_rule_accepts_what_is_fair_for_the_engine() {
    // In the opening: only when clearly lost.
    for plies in [0, 1, OPENING_PLIES - 1] {
        assert!(!accepts(Known::Open, 0, plies), "even at ply {plies}");
        assert!(
            !accepts(Known::Open, -DRAW_MARGIN, plies),
            "a little worse at {plies}"
        );
        assert!(!accepts(Known::Open, LOST + 1, plies));
        assert!(accepts(Known::Open, LOST, plies), "lost at ply {plies}");
    }
    // After it: when not better.
    for plies in [OPENING_PLIES, 100] {
        assert!(accepts(Known::Open, DRAW_MARGIN, plies));
        assert!(accepts(Known::Open, -500, plies));
        assert!(!accepts(Known::Open, DRAW_MARGIN + 1, plies));
    }
    // What the tables and the rules know decides, at any ply and whatever the score.
    for (plies, score) in [(0, 0), (0, 900), (50, -900)] {
        assert!(accepts(Known::DeadDrawn, score, plies));
        assert!(accepts(Known::Tables(Wdl::Draw), score, plies));
        assert!(accepts(Known::Tables(Wdl::Loss), score, plies));
        assert!(!accepts(Known::Tables(Wdl::Win), score, plies));
    }
}

#[test]
fn what_is_known_without_a_search() {
    let tables = tables();
    // Advisors and elephants only: nobody can ever win.
    let bare = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1").unwrap();
    assert_eq!(Known::of(&bare, &tables, Color::Black), Known::DeadDrawn);
    // A chariot and two advisors against a bare general: the tables' value, for either side.
    let won = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1").unwrap();
    assert_eq!(
        Known::of(&won, &tables, Color::Red),
        Known::Tables(Wdl::Win)
    );
    assert_eq!(
        Known::of(&won, &tables, Color::Black),
        Known::Tables(Wdl::Loss)
    );
    assert_eq!(
        Known::of(&Position::start(), &tables, Color::Red),
        Known::Open
    );
}

#[test]
fn an_offer_before_a_move_is_declined_at_every_level() {
    for level in 1..=LEVELS {
        for human in [Color::Red, Color::Black] {
            let mut g = game(None, human, level);
            assert!(
                !g.offer_draw(CAP).unwrap(),
                "level {level}, the person {human:?}, after {} plies",
                g.moves().len()
            );
            assert!(g.is_on());
        }
    }
}

#[test]
fn an_offer_is_accepted_when_the_position_is_drawn_or_lost_for_the_engine() {
    // Nothing can cross the river: accepted at once, at the strongest level too.
    let mut g = game(
        Some("3akab2/9/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1"),
        Color::Red,
        LEVELS,
    );
    assert!(g.offer_draw(CAP).unwrap());
    assert_eq!(g.outcome().unwrap().code(), "agreement");
    // The tables: the engine (Black) is mated whatever it does; as Red it wins and plays on.
    let won = "4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1";
    assert!(game(Some(won), Color::Red, LEVELS).offer_draw(CAP).unwrap());
    let mut g = game(Some(won), Color::Black, LEVELS);
    assert_eq!(g.moves().len(), 1, "the engine opened");
    assert!(!g.offer_draw(CAP).unwrap());
    // A search: a chariot down (not in the tables), the engine accepts even at the start.
    let down = "R2ak4/4a4/9/9/9/2p6/9/9/9/4K4 w - - 0 1";
    assert!(game(Some(down), Color::Red, 1).offer_draw(CAP).unwrap());
}
