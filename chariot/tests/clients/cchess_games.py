"""Whole games of Chariot driven by PyPI's `cchess` (a client nobody here wrote).

cchess's own engine wrappers (`UcciEngine`, `UciEngine`) start Chariot and speak to it in their
own words: `ucci` / `uci`, `setoption name X value Y` (in UCCI too), `stop` before every `go`,
`position fen FEN`, `go depth N`. Every move Chariot answers is checked by cchess's own rules
(`ChessBoard.is_valid_iccs_move`) before it is played on cchess's board, and a game ends when
cchess's board says the side to move has no move (Xiangqi: that side has lost) or when a
position comes a third time (a draw the script referees: cchess sends positions without their
history, so the engine cannot see a repetition coming).

Two games: Red through UCCI and Black through UCI, then the other way round. One side searches
deeper with everything it knows; the other counts material only, without its book, so a game
ends in a mate well within the cap. Fails (exit 1) on an illegal or
missing move, an engine that stops answering, a `nobestmove` / `bestmove (none)` while cchess
still sees legal moves, a game that reaches the cap unfinished, or a win of the weak side.

usage: python3 cchess_games.py PATH/TO/chariot
"""

import sys
import time

from cchess import ChessBoard, FULL_INIT_FEN
from cchess.engine import UcciEngine, UciEngine

# Plies before a game counts as unfinished (a failure: the deeper side mates long before).
MAX_PLIES = 300
# Seconds one `go` may take before the engine counts as hung.
GO_TIMEOUT = 60


def start(kind, path, weak):
    """Starts Chariot through cchess's wrapper of `kind` and waits for its handshake; a weak
    one counts material only, without its book (a beginner, so that games end in a mate)."""
    engine = kind()
    if not engine.load(path):
        raise SystemExit(f"cchess could not start {path}")
    if not engine.wait_for_ready(timeout=20):
        raise SystemExit(f"{path} gave no {engine.ok_resp()} to cchess's {engine.init_cmd()}")
    # cchess's UCI-style setoption, sent in UCCI as well.
    engine.set_option("Hash", 16)
    if weak:
        engine.set_option("Knowledge", "none")
        engine.set_option("Use NNUE", "false")
        engine.set_option("OwnBook", "false")
    return engine


def best_move(engine, fen, depth):
    """Asks for a move the way cchess's GUI does (`stop`, then `position` and `go`).

    `stop_thinking` reads two of the engine's answers away, but cchess's queue also holds
    what came before (its own `ready` after the handshake, `info` lines), so the `nobestmove`
    that UCCI answers to the idle `stop` is read away here, as a GUI waiting for the `stop`'s
    answer does, before the `go` (docs/protocol.md, "Clients and their quirks").
    """
    engine.stop_thinking()
    while engine.get_action() is not None:
        pass
    engine.go_from(fen, {"depth": depth})
    deadline = time.time() + GO_TIMEOUT
    while time.time() < deadline:
        action = engine.get_action()
        if action is None:
            time.sleep(0.01)
            continue
        if action["action"] == "bestmove":
            return action["move"]
        if action["action"] in ("dead", "draw"):
            return None
    raise SystemExit(f"no bestmove within {GO_TIMEOUT} s for {fen}")


def play(path, red_kind, black_kind, red_depth, black_depth):
    """Plays one game and returns (plies, the winner's colour name or None for a draw)."""
    engines = {
        "red": (start(red_kind, path, red_depth < black_depth), red_depth),
        "black": (start(black_kind, path, black_depth < red_depth), black_depth),
    }
    board = ChessBoard(FULL_INIT_FEN)
    side = "red"
    # cchess sends each position without the moves before it, so the engine cannot see a
    # repetition coming; the script referees one, as a GUI does.
    seen = {}
    label = f"{red_kind.__name__} (depth {red_depth}) vs {black_kind.__name__} (depth {black_depth})"
    try:
        for ply in range(MAX_PLIES):
            fen = board.to_fen()
            if board.no_moves():
                winner = "black" if side == "red" else "red"
                print(f"{label}: {winner} wins at ply {ply} (cchess: {side} has no move)")
                return ply, winner
            seen[fen] = seen.get(fen, 0) + 1
            if seen[fen] == 3:
                print(f"{label}: drawn by threefold repetition at ply {ply}")
                return ply, None
            engine, depth = engines[side]
            move = best_move(engine, fen, depth)
            if move is None:
                raise SystemExit(f"{label}: no move at ply {ply} while cchess sees legal moves in {fen}")
            if not board.is_valid_iccs_move(move):
                raise SystemExit(f"{label}: ply {ply}: {move} is not legal by cchess in {fen}")
            board.move_iccs(move)
            board.next_turn()
            side = "black" if side == "red" else "red"
        raise SystemExit(f"{label}: no mate within {MAX_PLIES} plies; last {board.to_fen()}")
    finally:
        for engine, _ in engines.values():
            engine.quit()


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    path = sys.argv[1]
    _, winner = play(path, UcciEngine, UciEngine, 8, 1)
    if winner == "black":
        raise SystemExit("the material-only side (Black, UCI) won")
    _, winner = play(path, UciEngine, UcciEngine, 1, 8)
    if winner == "red":
        raise SystemExit("the material-only side (Red, UCI) won")
    print("cchess: both games legal move by move, to their end")


if __name__ == "__main__":
    main()
