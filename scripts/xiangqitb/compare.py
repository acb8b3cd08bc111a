#!/usr/bin/env python3
"""Compare Chariot's tables with xiangqitb's, position by position.

Input: the output of `dump` (scripts/xiangqitb/dump.cpp: "BOARD side W|D|L" for every position
xiangqitb stores) and the output of `egtb-gen probe --json --value-only` on the same positions, in
the same order (scripts/xiangqitb/README.md). Prints, per side to move, the W/D/L counts of both over the positions that are
legal in both (each position and its mirror image counted once) and every kind of difference with
up to --examples example positions.

Usage: compare.py XQ_DUMP CHARIOT_JSON [--examples N]
"""
import argparse
import json
import sys
from collections import Counter, defaultdict

WDL = {"win": "W", "draw": "D", "loss": "L"}


def rows(board):
    """The board's ranks as strings of 9 characters, '.' for an empty square."""
    out = []
    for row in board.split("/"):
        squares = []
        for c in row:
            squares.extend(["."] * int(c) if c.isdigit() else [c])
        out.append("".join(squares))
    return out


def canonical(board):
    """One name for a board and its mirror image (files a..i reversed), which the rules treat
    alike."""
    plain = rows(board)
    return min("/".join(plain), "/".join(r[::-1] for r in plain))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump")
    parser.add_argument("probe")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()

    seen = set()
    theirs = defaultdict(Counter)
    ours = defaultdict(Counter)
    differences = defaultdict(list)
    rejected = Counter()
    with open(args.dump) as dump, open(args.probe) as probe:
        for line_no, (xq_line, our_line) in enumerate(zip(dump, probe), 1):
            board, side, xq = xq_line.split()
            answer = json.loads(our_line)
            if answer["fen"] != f"{board} {side}":
                sys.exit(f"{args.probe}:{line_no}: position {answer['fen']!r} is not the dump's {board} {side}")
            if "error" in answer:
                rejected[(side, xq, answer["error"].split(":")[-1].strip())] += 1
                continue
            key = (canonical(board), side)
            if key in seen:
                continue
            seen.add(key)
            mine = WDL[answer["wdl"]]
            theirs[side][xq] += 1
            ours[side][mine] += 1
            if mine != xq:
                differences[(side, xq, mine)].append(f"{board} {side}")

    for side in ("w", "b"):
        name = "red" if side == "w" else "black"
        t, o = theirs[side], ours[side]
        print(f"{name} to move: xiangqitb W {t['W']} D {t['D']} L {t['L']}; "
              f"chariot W {o['W']} D {o['D']} L {o['L']}")
    for (side, xq, why), n in sorted(rejected.items()):
        print(f"not a legal position for chariot ({side} to move, xiangqitb {xq}): {n} ({why})")
    if not differences:
        print("no differences")
    for (side, xq, mine), fens in sorted(differences.items()):
        print(f"{side} to move, xiangqitb {xq}, chariot {mine}: {len(fens)}")
        for fen in fens[: args.examples]:
            print(f"    {fen}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
