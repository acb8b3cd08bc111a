//! The judge of a solver's move: the stored move, another mate as fast (proved by the search),
//! another table win as fast, a mate at once; wrong moves; the rest of a line off the stored one.

use std::path::PathBuf;
use std::sync::Arc;

use chariot_formats::egtb::{Tablebases, Value};
use chariot_puzzles::{Difficulty, Goal, Judge, JudgeError, Prover, Puzzle, Source, Verdict};
use chariot_rules::{Move, Position};

fn tables() -> Arc<Tablebases> {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "data", "egtb"]
        .iter()
        .collect();
    Arc::new(Tablebases::open(&[dir]).unwrap())
}

fn mv(pos: &Position, text: &str) -> Move {
    pos.legal_move_list()
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", pos.fen()))
}

/// A rook against an advisor, Red to move: e6d6 and e0d0 both mate in 2 (the tables say Win(3)
/// for both), e0e1 mates in 3, e6e8 gives the rook away.
const KRKA: &str = "9/3k5/3a5/4R4/9/9/9/9/9/4K4 w - - 0 1";

/// The puzzle of KRKA with `goal`, its line e6d6 and on as the tables play it (to mate for a
/// mate, one move for a win).
fn krka(tables: &Tablebases, goal: Goal, source: Source) -> Puzzle {
    let position = Position::from_fen(KRKA).unwrap();
    let mut line = vec![mv(&position, "e6d6")];
    if goal != Goal::Win {
        let mut pos = position.clone();
        pos.make_move(line[0]);
        while pos.has_legal_move() {
            let (m, _) = tables.best_move(&pos).unwrap().unwrap();
            pos.make_move(m);
            line.push(m);
        }
        assert_eq!(line.len(), 3);
    }
    Puzzle {
        id: Puzzle::id_of(&position),
        source,
        goal,
        difficulty: Difficulty::Easy,
        position,
        line,
        title: "KRKA".into(),
    }
}

fn after(p: &Puzzle, moves: &[Move]) -> Position {
    let mut pos = p.position.clone();
    for &m in moves {
        pos.make_move(m);
    }
    pos
}

#[test]
fn another_mate_as_fast_is_accepted_and_answered() {
    let tables = tables();
    let mut prover = Prover::new(Some(Arc::clone(&tables)), 200_000);
    let mut judge = Judge::new(&mut prover, &tables);
    let p = krka(&tables, Goal::Mate(2), Source::Tables);
    let start = p.position.clone();
    assert_eq!(
        judge.judge(&p, &[], p.line[0]).unwrap(),
        Verdict::Correct {
            reply: Some(p.line[1]),
            solved: false
        }
    );
    // The other mate in 2: correct, and the opponent defends.
    let other = mv(&start, "e0d0");
    let Verdict::Correct {
        reply: Some(reply),
        solved: false,
    } = judge.judge(&p, &[], other).unwrap()
    else {
        panic!("e0d0 mates in 2 too");
    };
    let played = [other, reply];
    let here = after(&p, &played);
    // Off the stored line, the rest of a winning line comes from the search: one move, a mate.
    let rest = judge.continuation(&p, &played).unwrap();
    assert_eq!(rest.len(), 1);
    let mut end = here.clone();
    end.make_move(rest[0]);
    assert!(!end.has_legal_move(), "{} does not mate", rest[0]);
    assert_eq!(
        judge.judge(&p, &played, rest[0]).unwrap(),
        Verdict::Correct {
            reply: None,
            solved: true
        }
    );
    // A move that does not mate in the last move left is wrong.
    let idle = here
        .legal_move_list()
        .iter()
        .copied()
        .find(|&m| {
            let mut q = here.clone();
            q.make_move(m);
            q.has_legal_move()
        })
        .unwrap();
    assert_eq!(judge.judge(&p, &played, idle).unwrap(), Verdict::Wrong);
    // A slower mate (in 3) and a move that throws the rook away are wrong.
    assert_eq!(
        judge.judge(&p, &[], mv(&start, "e0e1")).unwrap(),
        Verdict::Wrong
    );
    assert_eq!(
        judge.judge(&p, &[], mv(&start, "e6e8")).unwrap(),
        Verdict::Wrong
    );
}

#[test]
fn a_table_win_as_fast_is_accepted_a_slower_one_is_not() {
    let tables = tables();
    let mut prover = Prover::new(Some(Arc::clone(&tables)), 200_000);
    let mut judge = Judge::new(&mut prover, &tables);
    let p = krka(&tables, Goal::Win, Source::Tables);
    let start = p.position.clone();
    let values = tables.move_values(&start).unwrap().unwrap();
    let value = |text: &str| {
        values
            .iter()
            .find(|(m, _)| *m == mv(&start, text))
            .unwrap()
            .1
    };
    assert_eq!(value("e0d0"), Value::Win(3));
    assert_eq!(value("e0e1"), Value::Win(5));
    let solved = Verdict::Correct {
        reply: None,
        solved: true,
    };
    assert_eq!(judge.judge(&p, &[], p.line[0]).unwrap(), solved);
    assert_eq!(judge.judge(&p, &[], mv(&start, "e0d0")).unwrap(), solved);
    assert_eq!(
        judge.judge(&p, &[], mv(&start, "e0e1")).unwrap(),
        Verdict::Wrong
    );
}

#[test]
fn a_tactic_takes_its_one_move_only() {
    let tables = tables();
    let mut prover = Prover::new(Some(Arc::clone(&tables)), 20_000);
    let mut judge = Judge::new(&mut prover, &tables);
    let position = Position::start();
    let p = Puzzle {
        id: Puzzle::id_of(&position),
        source: Source::Masters,
        goal: Goal::Win,
        difficulty: Difficulty::Easy,
        line: vec![mv(&position, "h2e2")],
        position,
        title: "a game".into(),
    };
    let solved = Verdict::Correct {
        reply: None,
        solved: true,
    };
    assert_eq!(
        judge.judge(&p, &[], mv(&p.position, "h2e2")).unwrap(),
        solved
    );
    assert_eq!(
        judge.judge(&p, &[], mv(&p.position, "b2e2")).unwrap(),
        Verdict::Wrong
    );
    assert_eq!(judge.continuation(&p, &[]).unwrap(), p.line);
}

#[test]
fn moves_that_cannot_be_judged_say_why() {
    let tables = tables();
    let mut prover = Prover::new(Some(Arc::clone(&tables)), 20_000);
    let mut judge = Judge::new(&mut prover, &tables);
    let p = krka(&tables, Goal::Mate(2), Source::Tables);
    assert_eq!(
        judge.judge(&p, &p.line[..1], p.line[1]),
        Err(JudgeError::NotSolversTurn(1))
    );
    assert_eq!(
        judge.judge(&p, &[p.line[0], p.line[1], p.line[2], p.line[1]], p.line[0]),
        Err(JudgeError::Over(2))
    );
    let black_move = after(&p, &p.line[..1]).legal_move_list().as_slice()[0];
    assert_eq!(
        judge.judge(&p, &[], black_move),
        Err(JudgeError::IllegalMove(black_move.to_string()))
    );
    assert_eq!(
        judge.judge(&p, &[black_move, p.line[1]], p.line[0]),
        Err(JudgeError::Illegal {
            number: 1,
            text: black_move.to_string()
        })
    );
}
