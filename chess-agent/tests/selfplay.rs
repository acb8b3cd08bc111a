//! Two agents play each other through the contest protocol for a few dozen plies; every move
//! they write must satisfy the output rules and be legal.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use common::check_output;
use shakmaty::{Chess, Color, Position};

struct Agent {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

fn agent(colour: &str) -> Agent {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess-agent"))
        .args(["--time", "3", "--hash", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{colour}").unwrap();
    Agent {
        child,
        stdin,
        stdout,
    }
}

#[test]
fn forty_plies_of_self_play() {
    let mut white = agent("white");
    let mut black = agent("black");
    let mut pos = Chess::default();
    for _ in 0..40 {
        if pos.is_game_over() {
            break;
        }
        let (mover, other) = if pos.turn() == Color::White {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        let mut line = String::new();
        mover.stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n') && !line.ends_with("\r\n"), "{line:?}");
        let text = line.trim_end_matches('\n');
        let m = check_output(&pos, text);
        pos.play_unchecked(m);
        writeln!(other.stdin, "{text}").unwrap();
    }
    for mut a in [white, black] {
        drop(a.stdin);
        assert!(a.child.wait().unwrap().success());
    }
}
