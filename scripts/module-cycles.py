#!/usr/bin/env python3
"""Lists cycles of modules that import each other, of any length, per crate of the workspace.

A module is a top-level module of a crate (`crate::search`, `crate::eval`) or a file inside one
(`search::ordering`); `use crate::a::b`, `use super::x` and paths written inline
(`crate::a::f()`) count as imports. Modules are compared as siblings under their common parent (`search::pvs` importing
`eval` is `search -> eval`). Prints one line per cycle (a strongly connected group of
siblings, with the imports that close it) and exits 1 if there is any.
Usage: scripts/module-cycles.py [CRATE_SRC_DIR...] (default: every member's src/).
"""
import os, re, sys

def modules(src):
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith('.rs'):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ('mod', 'lib', 'main'):
                rel = rel[:-1]
            if rel and rel[0] == 'bin':
                continue
            out['::'.join(rel)] = path
    return out

REF = re.compile(r'\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)')

def imports(name, path, known):
    text = open(path, encoding='utf-8').read()
    text = re.split(r'\n#\[cfg\(test\)\]\s*\nmod tests', text)[0]
    # Comments (doc links included) are not imports.
    text = re.sub(r'//[^\n]*', '', text)
    parts = name.split('::') if name else []
    found = set()
    for m in REF.finditer(text):
        segs = m.group(2).split('::')[1:]
        if m.group(1) == 'crate':
            base = []
        else:
            # `super` in a file module `a::b` (a/b.rs) is `a`; in `a` (a/mod.rs) it is the crate.
            is_dir = path.endswith('mod.rs')
            base = parts[:-1] if not is_dir else parts[:-1]
        full = base + segs
        # The longest known module prefix is the target.
        for n in range(len(full), 0, -1):
            cand = '::'.join(full[:n])
            if cand in known:
                found.add(cand)
                break
    found.discard(name)
    return found

def level(name, target):
    """Compare at the level where the two paths part: siblings under a common parent."""
    a, b = name.split('::'), target.split('::')
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    if i == len(a) or i == len(b):
        return None  # a parent and its own child: not a layering question
    return '::'.join(a[:i + 1]), '::'.join(b[:i + 1])

def cycles(edges):
    """Strongly connected groups of more than one module (Tarjan), each as a sorted list."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    srcs = sys.argv[1:] or [os.path.join(d, 'src') for d in sorted(os.listdir('.'))
                            if os.path.isfile(os.path.join(d, 'Cargo.toml')) and os.path.isdir(os.path.join(d, 'src'))]
    bad = 0
    for src in srcs:
        known = modules(src)
        edges = {}
        for name, path in known.items():
            for t in imports(name, path, known):
                pair = level(name, t)
                if pair:
                    edges.setdefault(pair, set()).add(f'{name} -> {t}')
        for group in cycles(edges):
            bad += 1
            members = set(group)
            why = sorted(w for (a, b), ws in edges.items()
                         if a in members and b in members for w in ws)
            print(f'{src}: {" <-> ".join(group)}: ' + '; '.join(why))
    sys.exit(1 if bad else 0)


main()
