#!/usr/bin/env python3
"""How often a level finds a mate in two (docs/STRENGTH.md, "The web app's levels").

The positions are the shipped mate problems (data/puzzles/*.eglib), each main line less its last
three plies: mates in two by the composer's line. A level (NODES:KNOWLEDGE:RANDOMNESS:BLUNDERS,
the engine options of web/src/play_levels.rs) plays each position TRIES times (its noise and
blind spots change with every search, its book off); a move counts when a full search (depth 6)
then finds the defender mated within two more moves. Positions where the full search finds no
mate are not counted.

    scripts/level-mates.py [--tries 3] [--chariot PATH] 100:small:huge:huge 12000:large:none:none
"""
import argparse
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


class Engine:
    """Chariot over UCI with some options set."""

    def __init__(self, path, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('uci')
        self.until('uciok')
        for name, value in {**options, 'OwnBook': 'false'}.items():
            self.send(f'setoption name {name} value {value}')
        self.send('isready')
        self.until('readyok')

    def send(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()

    def until(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('level-mates: the engine exited')
            lines.append(line.strip())
            if line.startswith(word):
                return lines

    def go(self, fen, moves, limit):
        self.send('ucinewgame')
        self.send(f'position fen {fen} moves {" ".join(moves)}'.rstrip())
        self.send(f'go {limit}')
        return self.until('bestmove')


def positions():
    """(FEN, moves) of every problem's main line less its last three plies."""
    found = []
    for path in sorted((ROOT / 'data/puzzles').glob('*.eglib')):
        for line in path.read_text().splitlines():
            if line.startswith('#') or line.count('|') != 2:
                continue
            _, fen, solution = line.split('|')
            moves = solution.split(',')
            if len(moves) % 2 == 1 and len(moves) >= 3:
                found.append((fen + ' - - 0 1', moves[:-3]))
    return found


def mated_soon(judge, fen, moves):
    """Whether the side to move after `moves` is mated within two moves."""
    lines = judge.go(fen, moves, 'depth 6')
    if lines[-1].startswith('bestmove (none)'):
        return True
    score = None
    for line in lines:
        m = re.search(r'score (cp|mate) (-?\d+)', line)
        if m:
            score = int(m.group(2)) if m.group(1) == 'mate' else None
    return score is not None and -2 <= score < 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('levels', nargs='+', help='NODES:KNOWLEDGE:RANDOMNESS:BLUNDERS')
    ap.add_argument('--tries', type=int, default=3)
    ap.add_argument('--chariot', default=str(ROOT / 'target/release/chariot'))
    args = ap.parse_args()
    judge = Engine(args.chariot, {})
    # The positions where the full search finds the mate in two, each move checked the same way.
    mates = [(fen, pre) for fen, pre in positions() if mated_soon(judge, fen, pre + [judge.go(fen, pre, 'depth 8')[-1].split()[1]])]
    for level in args.levels:
        nodes, knowledge, randomness, blunders = level.split(':')
        engine = Engine(args.chariot, {'Knowledge': knowledge, 'Randomness': randomness, 'Blunders': blunders})
        found = 0
        for fen, pre in mates:
            for _ in range(args.tries):
                best = engine.go(fen, pre, f'nodes {nodes}')[-1].split()[1]
                found += mated_soon(judge, fen, pre + [best])
        tries = len(mates) * args.tries
        print(f'{level}: a mating move in {found} of {tries} tries ({100 * found / tries:.0f}%), {len(mates)} positions')


if __name__ == '__main__':
    main()
