//! Games against the misbehaving test engine (`chariot-test-engine`): every kind of failure
//! loses the game for the engine at fault with the reason recorded, quickly.

use std::time::{Duration, Instant};

use chariot_league::game::{
    self, Adjudication, EndReason, Ending, GameResult, GameSpec, PlayedGame,
};
use chariot_league::openings::Opening;
use chariot_league::referee::JudgeReferee;
use chariot_matchkit::client::{EngineConfig, Protocol, ProtocolChoice};
use chariot_matchkit::interrupt::Interrupt;
use chariot_rules::Position;
use chariot_rules::judge::Reason;
use chariot_rules::notation::parse_move;

const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_chariot-test-engine");

fn engine(mode: &str, tc: &str) -> EngineConfig {
    let mut c = EngineConfig::new(TEST_ENGINE, tc.parse().unwrap());
    c.launch.args = vec![mode.to_owned()];
    c.handshake = Duration::from_secs(2);
    c
}

fn play_from(
    red: &EngineConfig,
    black: &EngineConfig,
    opening: &Opening,
    adj: Adjudication,
) -> PlayedGame {
    let referee = JudgeReferee::default();
    let spec = GameSpec {
        red: (red, "red"),
        black: (black, "black"),
        opening,
        referee: &referee,
        adjudication: adj,
        tablebases: None,
        trace: None,
        interrupt: &Interrupt::default(),
    };
    game::play(&spec)
}

fn play(red: &EngineConfig, black: &EngineConfig) -> PlayedGame {
    play_from(
        red,
        black,
        &Opening::start_position(),
        Adjudication::default(),
    )
}

fn red_loses(record: &PlayedGame) -> &EndReason {
    assert_eq!(
        record.ending.outcome,
        GameResult::BlackWins,
        "{}",
        record.ending
    );
    &record.ending.reason
}

#[test]
fn two_good_engines_finish_by_the_rules() {
    let good = engine("good", "5+0.1");
    let r = play(&good, &good);
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
    assert!(r.moves.len() > 4);
}

#[test]
fn a_crash_loses_with_the_exit_status() {
    let r = play(&engine("crash", "5"), &engine("good", "5"));
    match red_loses(&r) {
        EndReason::EngineFailure(e) => assert!(e.contains("exit code 3"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(r.moves.len(), 0);
}

#[test]
fn a_hang_loses_on_time_after_stop_and_grace() {
    let t = Instant::now();
    let r = play(&engine("good", "1"), &engine("hang", "0.5"));
    assert_eq!(r.ending.outcome, GameResult::RedWins, "{}", r.ending);
    assert_eq!(r.ending.reason, EndReason::TimeForfeit);
    // 0.5 s clock + 0.2 s grace + process start and kill: well under 3 s.
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn an_interrupt_abandons_a_long_think_at_once_without_a_result() {
    let referee = JudgeReferee::default();
    let opening = Opening::start_position();
    let (red, black) = (engine("hang", "600"), engine("good", "600"));
    let interrupt = Interrupt::default();
    let spec = GameSpec {
        red: (&red, "red"),
        black: (&black, "black"),
        opening: &opening,
        referee: &referee,
        adjudication: Adjudication::default(),
        tablebases: None,
        trace: None,
        interrupt: &interrupt,
    };
    let t = Instant::now();
    let raiser = interrupt.clone();
    let r = std::thread::scope(|s| {
        s.spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            raiser.raise(15);
        });
        game::play(&spec)
    });
    // Red would have thought for ten minutes; the game ends within a poll of the signal.
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(r.ending.outcome, GameResult::Unfinished, "{}", r.ending);
    assert_eq!(r.ending.reason, EndReason::Interrupted);
    assert_eq!(r.ending.to_string(), "abandoned: the run was interrupted");
    // Raised before the game: nothing is started or played.
    let t = Instant::now();
    let r = game::play(&spec);
    assert_eq!(r.ending.reason, EndReason::Interrupted);
    assert!(r.moves.is_empty());
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn an_engine_that_never_answers_the_handshake_loses() {
    let mut mute = engine("mute", "5");
    mute.handshake = Duration::from_millis(500);
    let t = Instant::now();
    let r = play(&mute, &engine("good", "5"));
    match red_loses(&r) {
        EndReason::EngineFailure(e) => assert!(e.contains("handshake"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn garbage_loses_but_noise_does_not() {
    let r = play(&engine("garbage", "5"), &engine("good", "5"));
    match red_loses(&r) {
        EndReason::EngineFailure(e) => assert!(e.contains("xyzzy"), "{e}"),
        other => panic!("{other:?}"),
    }
    let r = play(&engine("noise", "5"), &engine("good", "5"));
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
}

#[test]
fn an_illegal_move_loses_and_is_named() {
    let r = play(&engine("illegal", "5"), &engine("good", "5"));
    assert_eq!(red_loses(&r), &EndReason::IllegalMove("e0a0".to_owned()));
    assert_eq!(r.ending.pgn_termination(), "rules infraction");
}

#[test]
fn resignation_nobestmove_and_draw_agreement() {
    let r = play(&engine("resign", "5"), &engine("good", "5"));
    assert_eq!(red_loses(&r), &EndReason::Resignation);
    let r = play(&engine("nomove", "5"), &engine("good", "5"));
    assert_eq!(red_loses(&r), &EndReason::NoMove);
    // Red offers with its first move, Black accepts with its answer.
    let r = play(&engine("draw", "5"), &engine("draw", "5"));
    assert_eq!(
        r.ending,
        Ending {
            outcome: GameResult::Draw,
            reason: EndReason::Agreement
        }
    );
    assert_eq!(r.moves.len(), 1);
    // An offer to an engine that does not accept is just a move.
    let r = play(&engine("draw", "5"), &engine("good", "5"));
    assert_ne!(r.ending.reason, EndReason::Agreement);
}

#[test]
fn answering_stop_in_time_is_not_a_loss_but_answering_late_is() {
    let adj = Adjudication {
        max_moves: Some(2),
        ..Adjudication::default()
    };
    let start = Opening::start_position();
    let r = play_from(
        &engine("obey-stop", "0.2+0.2"),
        &engine("good", "5"),
        &start,
        adj,
    );
    assert_eq!(r.ending.reason, EndReason::MaxMoves, "{}", r.ending);
    let used = r.moves[0].elapsed.unwrap();
    assert!(used >= Duration::from_millis(190), "{used:?}");
    let r = play_from(
        &engine("late-stop", "0.2+0.2"),
        &engine("good", "5"),
        &start,
        adj,
    );
    assert_eq!(red_loses(&r), &EndReason::TimeForfeit);
}

/// Red's chariot checks Black's lone general on the 9th and 8th ranks in turn; the opening
/// already holds one round of checks and escapes.
fn perpetual_opening() -> Opening {
    let start = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1").unwrap();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for t in ["h0h9", "e9e8", "h9h8", "e8e9"] {
        let m = parse_move(&pos, t).unwrap();
        pos.make_move(m);
        moves.push(m);
    }
    Opening {
        name: Some("perpetual check".to_owned()),
        start,
        moves,
    }
}

#[test]
fn a_perpetual_check_loses_unless_the_engine_heeds_banmoves() {
    let opening = perpetual_opening();
    let black = engine("perpetual", "5");
    let adj = Adjudication {
        max_moves: Some(40),
        ..Adjudication::default()
    };
    let r = play_from(&engine("perpetual-deaf", "5"), &black, &opening, adj);
    assert_eq!(red_loses(&r), &EndReason::Rules(Reason::PerpetualCheck));
    assert_eq!(r.moves.len(), 9);
    // The same engine told the forbidden move with banmoves plays something else.
    let r = play_from(&engine("perpetual", "5"), &black, &opening, adj);
    assert_ne!(
        r.ending.reason,
        EndReason::Rules(Reason::PerpetualCheck),
        "{}",
        r.ending
    );
    // Its first own move would already repeat a position by perpetual check: banned.
    assert_ne!(r.moves[4].mv.to_string(), "h8h9");
}

#[test]
fn uci_engines_are_detected_and_fairy_squares_translated() {
    // Complains about `ucci`, then speaks UCI.
    let r = play(&engine("uci-only", "5"), &engine("good", "5"));
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
    // Exits on `ucci`: started again and spoken to in UCI.
    let r = play(&engine("good", "5"), &engine("uci-exit", "5"));
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
    // Lists UCI_Variant xiangqi: ranks 1-10 both ways, so no move is misread as illegal.
    let r = play(&engine("ranks1", "5"), &engine("ranks1", "5"));
    assert!(
        matches!(r.ending.reason, EndReason::Rules(_)),
        "{}",
        r.ending
    );
    assert!(r.moves.len() > 4);
    // A fixed protocol is used as given.
    let mut fixed = engine("good", "5");
    fixed.protocol = ProtocolChoice::Fixed(Protocol::Uci);
    let e = chariot_league::engine::Engine::start(&fixed, None).unwrap();
    assert_eq!(e.protocol(), Protocol::Uci);
    let mut ranks = engine("ranks1", "5");
    ranks.protocol = ProtocolChoice::Auto;
    let e = chariot_league::engine::Engine::start(&ranks, None).unwrap();
    assert_eq!((e.protocol(), e.ranks1()), (Protocol::Uci, true));
}

#[test]
fn a_missing_program_loses_and_two_make_no_result() {
    let missing = EngineConfig::new("/nonexistent/engine", "5".parse().unwrap());
    let r = play(&missing, &engine("good", "5"));
    match red_loses(&r) {
        EndReason::EngineFailure(e) => assert!(e.contains("could not be started"), "{e}"),
        other => panic!("{other:?}"),
    }
    let r = play(&missing, &missing);
    assert_eq!(r.ending.outcome, GameResult::Unfinished);
}

#[test]
fn score_adjudication() {
    // The test engine always reports score 0: a draw once both have done so long enough.
    let adj = Adjudication {
        draw: Some(game::DrawRule {
            move_number: 3,
            move_count: 2,
            score: 5,
        }),
        ..Adjudication::default()
    };
    let good = engine("good", "5");
    let r = play_from(&good, &good, &Opening::start_position(), adj);
    assert_eq!(r.ending.reason, EndReason::DrawAdjudication, "{}", r.ending);
    assert_eq!(r.moves.len(), 6);
}

fn tablebases() -> chariot_formats::egtb::Tablebases {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/egtb");
    chariot_formats::egtb::Tablebases::open(&[dir]).unwrap()
}

fn play_with_tables(
    fen: &str,
    tables: Option<&chariot_formats::egtb::Tablebases>,
    adj: Adjudication,
) -> PlayedGame {
    let good = engine("good", "5");
    let opening = Opening {
        name: None,
        start: Position::from_fen(fen).unwrap(),
        moves: Vec::new(),
    };
    let referee = JudgeReferee::default();
    game::play(&GameSpec {
        red: (&good, "red"),
        black: (&good, "black"),
        opening: &opening,
        referee: &referee,
        adjudication: adj,
        tablebases: tables,
        trace: None,
        interrupt: &Interrupt::default(),
    })
}

#[test]
fn tablebases_adjudicate_the_positions_they_cover() {
    let tables = tablebases();
    let pgn = |r: &PlayedGame| {
        chariot_league::pgn::write(
            r,
            &chariot_league::pgn::PgnContext {
                event: "e",
                site: "s",
                round: "1",
                notation: chariot_rules::notation::Notation::Iccs,
            },
        )
    };
    // Rook against a bare general: Red wins before anyone moves, whoever is to move.
    for (fen, side) in [
        ("3k5/9/9/9/9/9/9/9/9/R3K4 w", "red to move"),
        ("3k5/9/9/9/9/9/9/9/9/R3K4 b", "black to move"),
    ] {
        let r = play_with_tables(fen, Some(&tables), Adjudication::default());
        assert_eq!(
            r.ending.outcome,
            GameResult::RedWins,
            "{side}: {}",
            r.ending
        );
        let EndReason::TablebaseAdjudication(Some(plies)) = r.ending.reason else {
            panic!("{side}: {:?}", r.ending.reason);
        };
        // Red to move mates in an odd number of plies; Black to move is mated in an even one.
        assert_eq!(
            plies % 2,
            u32::from(side == "red to move"),
            "{side}: {plies}"
        );
        assert!(r.moves.is_empty());
        let text = pgn(&r);
        assert!(
            text.contains(&format!(
                "{{adjudicated by tablebase: red wins (mate in {plies} {})}} 1-0",
                if plies == 1 { "ply" } else { "plies" }
            )),
            "{text}"
        );
        assert!(text.contains("[Termination \"adjudication\"]"), "{text}");
    }
    // A cannon alone cannot mate: a draw.
    let r = play_with_tables(
        "3k5/9/9/9/9/9/9/9/9/C3K4 w",
        Some(&tables),
        Adjudication::default(),
    );
    assert_eq!(r.ending.outcome, GameResult::Draw, "{}", r.ending);
    assert_eq!(r.ending.reason, EndReason::TablebaseAdjudication(None));
    assert!(pgn(&r).contains("{adjudicated by tablebase: draw} 1/2-1/2"));
    // Positions the tables do not cover are played: the start position runs into --maxmoves.
    let adj = Adjudication {
        max_moves: Some(2),
        ..Adjudication::default()
    };
    let r = play_with_tables(chariot_rules::START_FEN, Some(&tables), adj);
    assert_eq!(r.ending.reason, EndReason::MaxMoves, "{}", r.ending);
    // Without tables the covered position is played on too.
    let r = play_with_tables("3k5/9/9/9/9/9/9/9/9/R3K4 w", None, adj);
    assert_eq!(r.ending.reason, EndReason::MaxMoves, "{}", r.ending);
    assert_eq!(r.moves.len(), 4);
}

#[test]
fn moves_an_engine_plays_from_its_book_are_written_as_book_moves() {
    let book = engine("book", "5+0.1");
    let good = engine("good", "5+0.1");
    let opening = Opening {
        name: None,
        start: Position::start(),
        moves: Vec::new(),
    };
    let adj = Adjudication {
        max_moves: Some(3),
        ..Adjudication::default()
    };
    let r = play_from(&book, &good, &opening, adj);
    assert_eq!(r.moves.len(), 6, "{}", r.ending);
    assert!(
        r.moves.iter().step_by(2).all(|m| m.book),
        "Red's moves came from its book"
    );
    assert!(r.moves.iter().skip(1).step_by(2).all(|m| !m.book));
    let pgn = chariot_league::pgn::write(
        &r,
        &chariot_league::pgn::PgnContext {
            event: "e",
            site: "s",
            round: "1",
            notation: chariot_rules::notation::Notation::Iccs,
        },
    );
    // Red's three moves say {book}; Black's carry a score, depth and time.
    assert_eq!(pgn.matches("{book}").count(), 3, "{pgn}");
    assert_eq!(pgn.matches("s}").count(), 3, "{pgn}");
}
