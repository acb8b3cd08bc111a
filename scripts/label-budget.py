#!/usr/bin/env python3
"""How good a self-play label is at each node budget (docs/tuning.md, "The search budget of a
label"): the data's labels are a search's score at a node budget, and a budget twice as large
costs twice the CPU per position. This measures, on positions of Chariot's own self-play, how far
the score at each budget is from a reference search 64 times deeper than the usual 5,000 nodes,
in the trainer's units: the winning chance sigmoid(cp / 400).

    scripts/label-budget.py [CHARIOT] [POSITIONS]      # default target/release/chariot, 400

It makes the positions with `chariot datagen --shard` (seed 77, 5,000 nodes: the same on any
machine), then searches each one from a cleared hash table (UCI `ucinewgame`) at every budget.
Prints one line a budget: the mean and the root mean square of the difference from the reference
in winning chance, the share of positions whose best move is the reference's, and the relative
cost per position.
"""

import math
import os
import subprocess
import sys
import tempfile

BUDGETS = [1250, 2500, 5000, 10000, 20000]
REFERENCE = 320000
PIECES = "KABNRCPkabnrcp"


def records(path):
    """The positions of a training-data file (docs/formats/training-data.md) as FEN."""
    data = open(path, "rb").read()
    assert data[:8] == b"CHRTDATA", f"{path}: not a training-data file"
    size = int.from_bytes(data[12:16], "little")
    for off in range(16, len(data) - size + 1, size):
        rec = data[off:off + size]
        occupancy = int.from_bytes(rec[0:12], "little")
        codes = int.from_bytes(rec[12:28], "little")
        board = {}
        k = 0
        for sq in range(90):
            if occupancy >> sq & 1:
                board[sq] = PIECES[codes >> (4 * k) & 15]
                k += 1
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for file in range(9):
                p = board.get(file + 9 * rank)
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
            rows.append(row + (str(empty) if empty else ""))
        turn = "b" if rec[28] & 1 else "w"
        yield "/".join(rows) + f" {turn} - - 0 1"


class Engine:
    """Chariot over UCI."""

    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Hash value 64")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, word):
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(word):
                return lines
        raise RuntimeError(f"the engine stopped before {word!r}")

    def search(self, fen, nodes):
        """The score (cp, side to move) and best move of a `go nodes` search from an empty hash."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:1] == ["info"] and "score" in words and "cp" in words:
                if "lowerbound" in words or "upperbound" in words:
                    continue
                score = int(words[words.index("cp") + 1])
            if words[:1] == ["bestmove"]:
                return score, words[1]
        raise RuntimeError("no bestmove")


def chance(cp):
    return 1 / (1 + math.exp(-cp / 400))


def main():
    chariot = sys.argv[1] if len(sys.argv) > 1 else "target/release/chariot"
    want = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "positions.bin")
        subprocess.run([chariot, "datagen", "--shard", "--out", data, "--positions", str(want),
                        "--nodes", "5000", "--seed", "77"], check=True, stdout=subprocess.DEVNULL)
        fens = list(records(data))[:want]
    engine = Engine(chariot)
    rows = {n: [] for n in BUDGETS}
    for fen in fens:
        ref, ref_move = engine.search(fen, REFERENCE)
        if ref is None:
            continue  # a mate score: the data keeps no such position
        for n in BUDGETS:
            s, m = engine.search(fen, n)
            if s is not None:
                rows[n].append((chance(s) - chance(ref), m == ref_move))
    print(f"{len(fens)} positions of self-play (seed 77), reference {REFERENCE} nodes")
    print("nodes  | mean |error| | rms error | best move = reference's | cost")
    for n in BUDGETS:
        d = rows[n]
        mean = sum(abs(e) for e, _ in d) / len(d)
        rms = math.sqrt(sum(e * e for e, _ in d) / len(d))
        same = sum(1 for _, m in d if m) / len(d)
        print(f"{n:6} | {mean:.4f}       | {rms:.4f}    | {same:.1%}                   | {n / 5000:g}x")


if __name__ == "__main__":
    main()
