#!/usr/bin/env python3
"""Prints the workspace's crates by layer with what each depends on, and checks the layering.

The layers, bottom to top, are those of docs/architecture.md. A crate may depend only on crates
of a lower layer (or, within the tools, on a tool listed before it: the web app uses the book
builder's probe). Exits 1, naming the arrow, when a crate depends on one at its own layer or
above, or when a workspace member is missing from the list below (a new crate must be placed).

Usage: scripts/crate-layers.py [--quiet]
"""
import json
import subprocess
import sys

# (layer, crates in it). Order within the tools matters: a tool may use one listed before it.
LAYERS = [
    ('beside all', ['chariot-cli']),
    ('rules', ['chariot-rules']),
    ('files', ['chariot-formats', 'chariot-games', 'chariot-gamedb']),
    ('match kit', ['chariot-matchkit']),
    ('evaluation', ['chariot-eval']),
    ('engine', ['chariot-engine']),
    ('training', ['chariot-training']),
    ('puzzles', ['chariot-puzzles']),
    ('tools', ['egtb-gen', 'book-builder', 'chariot-league', 'chariot-web', 'chariot']),
    ('chess wing', ['chess-agent', 'chess-board']),
]
# Within the files layer the game database sits over the game files.
INSIDE = {'chariot-gamedb': {'chariot-games'}}
# The chess wing uses none of the Xiangqi layers but the match kit (and its rules crate, for
# the one seeded generator) and the shared command-line conventions.
CHESS_MAY_USE = {'chariot-matchkit', 'chariot-rules', 'chariot-cli'}


def main():
    meta = json.loads(subprocess.run(
        ['cargo', 'metadata', '--format-version', '1', '--no-deps'],
        check=True, capture_output=True, text=True).stdout)
    members = {p['name']: p for p in meta['packages']}
    rank = {}
    for i, (_, crates) in enumerate(LAYERS):
        for j, c in enumerate(crates):
            rank[c] = (i, j)
    bad = []
    for name in members:
        if name not in rank:
            bad.append(f'{name}: not placed in a layer (scripts/crate-layers.py, LAYERS)')
    for name, p in members.items():
        deps = sorted(d['name'] for d in p['dependencies']
                      if d['kind'] is None and d['name'] in members)
        layer, pos = rank.get(name, (None, None))
        for d in deps:
            if d not in rank or layer is None:
                continue
            dl, dp = rank[d]
            lname = LAYERS[layer][0]
            ok = (dl < layer or (lname == 'tools' and dl == layer and dp < pos)
                  or d in INSIDE.get(name, ()))
            if lname == 'chess wing':
                ok = d in CHESS_MAY_USE or (dl == layer and dp < pos)
            if not ok:
                bad.append(f'{name} ({lname}) -> {d} ({LAYERS[dl][0]})')
        if '--quiet' not in sys.argv:
            print(f'{LAYERS[layer][0] if layer is not None else "?":<11} {name:<17} '
                  f'-> {", ".join(deps) if deps else "-"}')
    for b in bad:
        print('layering:', b)
    sys.exit(1 if bad else 0)


main()
