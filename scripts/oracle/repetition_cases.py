#!/usr/bin/env python3
"""Generate data/vectors/repetition.tsv: games judged by Fairy-Stockfish (pyffish).

Each line is a short game (a start FEN and moves in ICCS) and how pyffish judges its final
position: `is_optional_game_end` (repetition under the AXF chasing rules, the 50-move rule) and,
when the side to move has no legal move, `game_result` (mate and stalemate lose). The games are
built so that no earlier position already ended the game, so a judge that agrees with pyffish
must say "ongoing" after every earlier move and give pyffish's result after the last one.

Kinds of games (the `kind` column):

* `cycle`: a position reached by random play from a seed, then both sides play a tour of moves
  that returns to it (one piece back and forth, two pieces, or a chariot or cannon around three
  squares of a line), repeated until pyffish ends the game. Moves that give check, attack a piece
  or flee from an attack are preferred, so that perpetual checks and chases are common.
  The start FEN is the position where the cycle begins, so that the repetition window is the
  whole move list. `cycle-pre` keeps the random moves that led there in the move list (the
  window then starts after them, and a capture among them must not matter).
* `short`: a `cycle` game cut one move before pyffish ends it: still going.
* `random`: random play without a cycle: still going (or mate).
* `limit`: a start FEN with a halfmove clock near 100 and a few quiet moves (pyffish's
  50-move rule; the Rust test runs the judge with a 100-ply limit for these).
* `mate`: random play in a sparse position until one side has no legal move.

Squares: pyffish numbers ranks 1-10; they are converted to ICCS ranks 0-9 here.

Usage: scripts/oracle/repetition_cases.py [--seed N] [--count N] > data/vectors/repetition.tsv
(the committed file: --count 70, default seed; about 15 minutes on a loaded machine)
"""

import argparse
import os
import random
import re
import sys

import pyffish as sf

V = "xiangqi"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def to_sf(m):
    """ICCS (ranks 0-9) to pyffish (ranks 1-10)."""
    a, b, c, d = re.match(r"([a-i])(\d)([a-i])(\d)$", m).groups()
    return f"{a}{int(b) + 1}{c}{int(d) + 1}"


def from_sf(m):
    a, b, c, d = re.match(r"([a-i])(\d+)([a-i])(\d+)$", m).groups()
    return f"{a}{int(b) - 1}{c}{int(d) - 1}"


def rev(m):
    return m[2:] + m[:2]


class Game:
    """A start FEN and ICCS moves, with pyffish answers cached per prefix."""

    def __init__(self, fen, moves=()):
        self.fen = fen
        self.moves = list(moves)

    def sfm(self, extra=()):
        return [to_sf(m) for m in self.moves] + [to_sf(m) for m in extra]

    def legal(self, extra=()):
        return [from_sf(m) for m in sf.legal_moves(V, self.fen, self.sfm(extra))]

    def fen_after(self, extra=()):
        return sf.get_fen(V, self.fen, self.sfm(extra))

    def turn(self, extra=()):
        return self.fen_after(extra).split()[1]


def flip_turn(fen):
    parts = fen.split()
    parts[1] = "b" if parts[1] == "w" else "w"
    return " ".join(parts)


def board_of(fen):
    """{square: piece letter} of a FEN (ICCS squares)."""
    out = {}
    rows = fen.split()[0].split("/")
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out[f"{'abcdefghi'[f]}{rank}"] = c
                f += 1
    return out


def outcome(game):
    """pyffish's judgement of the final position: (result, raw value, reason)."""
    fen, moves = game.fen, game.sfm()
    if not sf.legal_moves(V, fen, moves):
        value = sf.game_result(V, fen, moves)
        reason = "checkmate" if sf.gives_check(V, fen, moves) else "stalemate"
        return side_result(game, value), value, reason
    ended, value = sf.is_optional_game_end(V, fen, moves)
    if not ended:
        return "ongoing", value, "-"
    halfmoves = int(game.fen_after().split()[4])
    if halfmoves >= 100:
        return side_result(game, value), value, "movelimit"
    result = side_result(game, value)
    if result == "draw":
        return result, value, "repetition"
    return result, value, repetition_reason(game, result)


def side_result(game, value):
    stm = game.turn()
    if value == 0:
        return "draw"
    winner = stm if value > 0 else ("b" if stm == "w" else "w")
    return "red" if winner == "w" else "black"


def repetition_reason(game, result):
    """`check` when the losing side gave check with every move since the earliest of the three
    occurrences of the final position, else `chase` (pyffish does not say which)."""
    n = len(game.moves)
    prefixes = [[to_sf(m) for m in game.moves[:i]] for i in range(n + 1)]
    fens = [sf.get_fen(V, game.fen, p) for p in prefixes]
    keys = [position_key(f) for f in fens]
    starts = [i for i in range(n + 1) if keys[i] == keys[-1] and (n - i) % 2 == 0]
    start = starts[-3] if len(starts) >= 3 else starts[0]
    loser = "w" if result == "black" else "b"
    for i in range(start, n):
        if fens[i].split()[1] == loser and not sf.gives_check(V, game.fen, prefixes[i + 1]):
            return "chase"
    return "check"


def position_key(fen):
    return " ".join(fen.split()[:2])


# --- seeds -------------------------------------------------------------------------------------

ADVISOR = {"d0", "f0", "e1", "d2", "f2"}
ELEPHANT = {"c0", "g0", "a2", "e2", "i2", "c4", "g4"}


def flip_sq(s):
    return f"{s[0]}{9 - int(s[1])}"


def reachable(piece, s):
    red = piece.isupper()
    own = s if red else flip_sq(s)
    f, r = "abcdefghi".index(own[0]), int(own[1])
    k = piece.upper()
    if k == "K":
        return 3 <= f <= 5 and r <= 2
    if k == "A":
        return own in ADVISOR
    if k == "B":
        return own in ELEPHANT
    if k == "P":
        return r >= 5 or (r in (3, 4) and f % 2 == 0)
    return True


def fen_of(board, turn):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in "abcdefghi":
            p = board.get(f"{f}{rank}")
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {turn} - - 0 1"


def generals_facing(board):
    kings = [s for s, p in board.items() if p in "Kk"]
    a, b = kings
    if a[0] != b[0]:
        return False
    lo, hi = sorted((int(a[1]), int(b[1])))
    return all(f"{a[0]}{r}" not in board for r in range(lo + 1, hi))


def legal_setup(board, turn):
    """The rules Chariot checks when it reads a FEN (see PositionError)."""
    if any(not reachable(p, s) for s, p in board.items()) or generals_facing(board):
        return False
    fen = fen_of(board, turn)
    if sf.validate_fen(fen, V) != 1:
        return False
    # The side not to move must not be in check.
    return not sf.gives_check(V, flip_turn(fen), []) and bool(sf.legal_moves(V, fen, []))


def random_sparse(rng, most=4):
    """A random legal position with the generals, up to two advisors and elephants and one to
    `most` other pieces a side."""
    squares = [f"{f}{r}" for r in range(10) for f in "abcdefghi"]
    while True:
        board = {}
        for color in "wb":
            up = color == "w"
            pieces = ["K"] + ["A"] * rng.randint(0, 2) + ["B"] * rng.randint(0, 2)
            pieces += rng.sample(["R", "R", "N", "N", "C", "C", "P", "P", "P"], rng.randint(1, most))
            for p in pieces:
                letter = p if up else p.lower()
                options = [s for s in squares if s not in board and reachable(letter, s)]
                board[rng.choice(options)] = letter
        turn = rng.choice("wb")
        if legal_setup(board, turn):
            return fen_of(board, turn)


def seed_fens():
    out = []
    for name in ("positions-from-games.tsv", "positions-random-play.tsv"):
        with open(os.path.join(ROOT, "data", "vectors", name)) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                fen = line.split("\t")[0]
                parts = fen.split()
                parts[4], parts[5] = "0", "1"
                fen = " ".join(parts)
                if sf.legal_moves(V, fen, []):
                    out.append(fen)
    return out


# --- cycles ------------------------------------------------------------------------------------


def after(fen, m):
    return sf.get_fen(V, fen, [to_sf(m)])


def legal_at(fen):
    return [from_sf(m) for m in sf.legal_moves(V, fen, [])]


def quiet_at(fen):
    board = board_of(fen)
    return [m for m in legal_at(fen) if m[2:] not in board]


def checks(fen, m):
    return sf.gives_check(V, fen, [to_sf(m)])


def attacked_by(fen, m):
    """Squares of enemy pieces that the piece moved by `m` could capture next, by its way of
    moving (pins ignored). Computed here, not by pyffish: it only steers the generator."""
    board = board_of(fen)
    board[m[2:]] = board.pop(m[:2])
    return targets(board, m[2:])


FILES = "abcdefghi"


def targets(board, s):
    """Enemy squares that the piece on `s` could capture by its way of moving."""
    piece = board[s]
    red = piece.isupper()
    kind = piece.upper()
    f, r = FILES.index(s[0]), int(s[1])

    def at(x, y):
        return f"{FILES[x]}{y}" if 0 <= x < 9 and 0 <= y < 10 else None

    def enemy(t):
        return t is not None and t in board and board[t].isupper() != red

    def palace(t):
        x, y = FILES.index(t[0]), int(t[1])
        return 3 <= x <= 5 and (y <= 2 if red else y >= 7)

    out = set()
    if kind in "RC":
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x, y, seen = f + df, r + dr, 0
            while at(x, y):
                t = at(x, y)
                if t in board:
                    if seen == (1 if kind == "C" else 0):
                        if enemy(t):
                            out.add(t)
                        break
                    seen += 1
                x, y = x + df, y + dr
    elif kind == "N":
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            leg = at(f, r + dr // 2) if abs(dr) == 2 else at(f + df // 2, r)
            if leg not in board and enemy(at(f + df, r + dr)):
                out.add(at(f + df, r + dr))
    elif kind == "B":
        for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
            t = at(f + df, r + dr)
            if t and (int(t[1]) <= 4 if red else int(t[1]) >= 5) and at(f + df // 2, r + dr // 2) not in board and enemy(t):
                out.add(t)
    elif kind in "AK":
        steps = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if kind == "A" else ((1, 0), (-1, 0), (0, 1), (0, -1))
        for df, dr in steps:
            t = at(f + df, r + dr)
            if t and palace(t) and enemy(t):
                out.add(t)
    else:
        ahead = 1 if red else -1
        crossed = r >= 5 if red else r <= 4
        for df, dr in ((0, ahead),) + (((1, 0), (-1, 0)) if crossed else ()):
            t = at(f + df, r + dr)
            if enemy(t):
                out.add(t)
    return out


def wants(mode, fen, m, previous=None):
    """Does move `m` in `fen` fit the steering `mode`?"""
    if mode == "check":
        return checks(fen, m)
    if mode == "attack":
        return bool(attacked_by(fen, m))
    if mode == "flee":
        return previous is not None and m[:2] in previous
    return True


# Steering for a four-ply cycle (m1, m2, back, back): what the first side's moves should do and
# what the second side's reply should do.
MODES = [
    ("check", "any"),
    ("check", "any"),
    ("check", "any"),
    ("check", "check"),
    ("check", "attack"),
    ("attack", "flee"),
    ("attack", "flee"),
    ("attack", "flee"),
    ("attack", "attack"),
    ("attack", "any"),
    ("any", "attack"),
    ("any", "any"),
]


def tour_oscillate(rng, fen, mode_x, mode_y):
    """One piece each, out and back: m1, m2, m1 reversed, m2 reversed. The first side's moves
    both fit `mode_x`; the reply fits `mode_y` ("flee": it moves a piece that m1 attacks, and
    m1 reversed attacks it again on its new square)."""
    xs = quiet_at(fen)
    rng.shuffle(xs)
    xs = [m for m in xs[:40] if wants(mode_x, fen, m)]
    for m1 in xs[:12]:
        fen1 = after(fen, m1)
        hit = attacked_by(fen, m1) if mode_y == "flee" else None
        ys = quiet_at(fen1)
        rng.shuffle(ys)
        ys = [m for m in ys[:40] if wants(mode_y, fen1, m, hit)]
        for m2 in ys[:8]:
            fen2 = after(fen1, m2)
            if rev(m1) not in quiet_at(fen2) or not wants(mode_x, fen2, rev(m1)):
                continue
            if mode_y == "flee" and m2[2:] not in attacked_by(fen2, rev(m1)):
                continue
            fen3 = after(fen2, rev(m1))
            if rev(m2) in quiet_at(fen3) and wants(mode_y if mode_y != "flee" else "any", fen3, rev(m2)):
                return [m1, m2, rev(m1), rev(m2)]
    return None


def tour_palindrome(rng, fen, mode_x, mode_y):
    """Both sides play two moves forward and take them back, in reverse order or (for two
    different pieces) in the same order."""
    crossed = rng.random() < 0.4
    played, fens, fwd = [], [fen], {0: [], 1: []}
    for i in range(4):
        cur = fens[-1]
        moves = quiet_at(cur)
        rng.shuffle(moves)
        mode = mode_x if i % 2 == 0 else mode_y
        hit = attacked_by(fens[-2], played[-1]) if mode == "flee" and played else None
        fitting = [m for m in moves[:20] if wants(mode, cur, m, hit)]
        m = (fitting or moves or [None])[0]
        if m is None:
            return None
        fwd[i % 2].append(m)
        played.append(m)
        fens.append(after(cur, m))
    order = (lambda ms: ms) if crossed else (lambda ms: list(reversed(ms)))
    back = {s: [rev(m) for m in order(fwd[s])] for s in (0, 1)}
    for i in range(2):
        for side in (0, 1):
            m = back[side][i]
            if m not in quiet_at(fens[-1]):
                return None
            played.append(m)
            fens.append(after(fens[-1], m))
    return played


def tour_line3(rng, fen):
    """Each side moves a chariot or cannon a -> b -> c -> a along one line."""
    plans, fens = [], [fen]
    for _ in range(2):
        cur = fens[-1]
        board = board_of(cur)
        sliders = [m for m in quiet_at(cur) if board[m[:2]].upper() in "RC"]
        rng.shuffle(sliders)
        plan = None
        for m in sliders[:10]:
            a, b = m[:2], m[2:]
            line = [x for x in all_squares() if (x[0] == a[0] == b[0] or x[1] == a[1] == b[1]) and x not in (a, b)]
            if line:
                c = rng.choice(line)
                plan = [m, b + c, c + a]
                break
        if plan is None:
            return None
        plans.append(plan)
        fens.append(after(cur, plan[0]))
    played = [plans[0][0], plans[1][0]]
    for j in (1, 2):
        for side in (0, 1):
            m = plans[side][j]
            if m not in quiet_at(fens[-1]):
                return None
            played.append(m)
            fens.append(after(fens[-1], m))
    return played


def all_squares():
    return [f"{f}{r}" for r in range(10) for f in "abcdefghi"]


def play_until_end(game, cycle, limit_repeats=4):
    """Play the cycle repeatedly; return the moves up to and including the first that ends the
    game per pyffish, or None if it never ends within `limit_repeats` cycles."""
    # The tour builders checked every move of the cycle; its positions repeat, so the moves stay
    # legal and none of them is mate. Only pyffish's verdict is needed after each move.
    played = []
    for _ in range(limit_repeats):
        for m in cycle:
            played.append(m)
            if sf.is_optional_game_end(V, game.fen, Game(game.fen, game.moves + played).sfm())[0]:
                return played
    return None


def random_moves(rng, game, n, quiet_only=False):
    out = []
    for _ in range(n):
        moves = game.legal(out)
        if quiet_only:
            board = board_of(game.fen_after(out))
            moves = [m for m in moves if m[2:] not in board]
        if not moves:
            break
        out.append(rng.choice(moves))
        if sf.is_optional_game_end(V, game.fen, Game(game.fen, game.moves + out).sfm())[0]:
            break
    return out


def make_cycle(rng, fen, with_pre, steer):
    """A cycle game from `fen` (after a few random moves), or None when none was found."""
    pre = random_moves(rng, Game(fen), rng.randint(0, 12))
    g = Game(fen, pre)
    if outcome(g)[0] != "ongoing" or not g.legal():
        return None
    start = g.fen_after()
    if not with_pre:
        # Restart from the position reached, with a fresh clock, so that the whole move list is
        # the repetition window.
        parts = start.split()
        parts[4], parts[5] = "0", "1"
        g = Game(" ".join(parts))
    mode_x, mode_y = rng.choice(MODES) if steer else ("any", "any")
    shape = rng.random()
    if shape < 0.6:
        cycle = tour_oscillate(rng, start, mode_x, mode_y)
    elif shape < 0.9:
        cycle = tour_palindrome(rng, start, mode_x, mode_y)
    else:
        cycle = tour_line3(rng, start)
    if not cycle:
        return None
    played = play_until_end(g, cycle)
    if played is None:
        return None
    return Game(g.fen, g.moves + played)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--count", type=int, default=60, help="cycle games wanted of each outcome kind")
    ap.add_argument("--attempts", type=int, default=6000, help="give up after this many tries")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seeds = seed_fens()
    sparse = [random_sparse(rng, rng.choice((2, 3, 4))) for _ in range(400)]

    cases = []

    def add(kind, game):
        result, value, reason = outcome(game)
        cases.append((kind, game.fen, " ".join(game.moves), result, reason, value))
        print(f"{len(cases)} {kind} {result} {reason}", file=sys.stderr)
        return reason

    # Cycles from positions of real games and random play: mostly quiet shuffles (draws).
    got = 0
    for i in range(args.attempts):
        if got >= args.count:
            break
        with_pre = i % 4 == 3
        game = make_cycle(rng, rng.choice(seeds), with_pre, steer=rng.random() < 0.5)
        if game is None:
            continue
        got += 1
        add("cycle-pre" if with_pre else "cycle", game)
        if got % 5 == 0:
            add("short", Game(game.fen, game.moves[:-1]))
    # Steered cycles in sparse positions, until each outcome kind has `count` games.
    wanted = {"check": args.count, "chase": args.count, "repetition": args.count}
    for i in range(args.attempts):
        if all(v <= 0 for v in wanted.values()):
            break
        with_pre = i % 4 == 3
        game = make_cycle(rng, rng.choice(sparse), with_pre, steer=True)
        if game is None:
            continue
        reason = outcome(game)[2]
        if wanted.get(reason, 0) <= 0:
            continue
        wanted[reason] -= 1
        got += 1
        add("cycle-pre" if with_pre else "cycle", game)
        if got % 5 == 0:
            add("short", Game(game.fen, game.moves[:-1]))
    pool = seeds + sparse
    for _ in range(40):
        fen = rng.choice(pool)
        g = Game(fen)
        g.moves = random_moves(rng, g, rng.randint(1, 30))
        if g.moves:
            add("random", g)
    for _ in range(25):
        fen = rng.choice(pool)
        parts = fen.split()
        parts[4] = str(rng.randint(92, 99))
        g = Game(" ".join(parts))
        g.moves = random_moves(rng, g, rng.randint(1, 10), quiet_only=True)
        if outcome(g)[2] == "repetition":
            continue
        add("limit", g)
    found = 0
    for _ in range(400):
        if found >= 25:
            break
        g = Game(rng.choice(sparse))
        # At most 99 plies from a clock of 0: the 50-move rule cannot interfere.
        g.moves = random_moves(rng, g, 99)
        if not g.legal():
            add("mate", g)
            found += 1

    print(f"# Games judged by pyffish {'.'.join(map(str, sf.version()))} (Fairy-Stockfish), variant xiangqi:")
    print("# is_optional_game_end (AXF chasing rules, 50-move rule) and game_result (no legal move).")
    print(f"# Generated by scripts/oracle/repetition_cases.py --seed {args.seed} --count {args.count};")
    print("# squares converted to ICCS ranks 0-9. pyffish never ends the game before the last move.")
    print("# reason: checkmate|stalemate|movelimit|repetition (draw), check|chase (the loser gave")
    print("# check with every move of the window, or not: pyffish does not say), - when ongoing.")
    print("# value: pyffish's raw score for the side to move (32000 = win).")
    print("# id\tkind\tfen\tmoves\tresult\treason\tvalue")
    for i, (kind, fen, moves, result, reason, value) in enumerate(cases, 1):
        print(f"{i}\t{kind}\t{fen}\t{moves}\t{result}\t{reason}\t{value}")


if __name__ == "__main__":
    main()
