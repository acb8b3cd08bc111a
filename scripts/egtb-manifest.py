#!/usr/bin/env python3
"""Keeps the record of a generated table set: one line per table with its entries, the cost of
generating it, its files' sizes and SHA-256 digests, and whether `verify` and `crosscheck` passed.

A large set (the fourth: 23.6 G entries, some 16 CPU-hours to generate and verify on two cores)
is built across sessions and machines. Generation is deterministic (the same tables byte for
byte from every build that writes the same format), so a check passed on a file holds for any
file with the same digest: the record lets a later run keep what was verified before and check
only what is new, and it is where each table's peak memory is stated.

Usage:
  egtb-manifest.py --dir TABLES --out MANIFEST.tsv [--egtb-gen BIN] [--times LOG]
                   [--verify JSONL...] [--crosscheck JSONL...] [--repacked]
  egtb-manifest.py --dir TABLES --out MANIFEST.tsv --todo PLAN.mk [--only SIG...]

--times     `/usr/bin/time -f '%C | %e | %U | %S | %M'` lines of `egtb-gen gen SIG` jobs (the
            Makefile of `egtb-gen plan` run with EGTB_GEN="/usr/bin/time -a -o LOG -f ... egtb-gen")
--verify    `egtb-gen verify --json` output (one object per file), in one or more files: e.g.
            TABLES/*.verify.json, the verdicts `make check` keeps (the Makefile of `egtb-gen plan`)
--crosscheck `egtb-gen crosscheck --json` output, likewise (TABLES/*.crosscheck.json)
--repacked  the files were rewritten by `egtb-gen repack` since the record was written: a table
            whose files are in format version 3 where the record's were older (column `format`,
            `-` for records from before the column) takes the new digests and keeps its checks,
            since `repack` compared every entry of each new file with the old one

With --todo PLAN (a Makefile of `egtb-gen plan`), nothing is written: the make goals still due
are printed, one a line, in the plan's order: `DIR/TABLE.verify.json` for each table the record
does not say passed `verify`, `DIR/TABLE.crosscheck.json` likewise (a table not in the record
yet gets both, and make generates it, and the tables it needs, first). So a new machine picks up
where the record stands:

  make -k -j 2 -f fourth.mk $(egtb-manifest.py --dir tables --out fourth.tsv --todo fourth.mk)

--only SIG... keeps the goals of those tables: a part of the set for one session (tables sharing
the tables they need, such as one pair of attacking pieces, cost least together).

Lines already in MANIFEST.tsv are kept (for tables not in TABLES now) and merged (a table found
again keeps its earlier results when its digests are the same). A table whose digest differs
from the record is an error (exit status 1): the same build inputs must give the same bytes
(but see --repacked).
"""
import argparse
import hashlib
import json
import os
import re
import signal
import subprocess
import sys

COLUMNS = [
    "table", "entries", "gen_cpu_s", "gen_peak_mib", "dtm_bytes", "dtc_bytes",
    "dtm_sha256", "dtc_sha256", "verify", "crosscheck", "format",
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(path):
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "table":
                continue
            row = dict(zip(COLUMNS, fields))
            row.setdefault("format", "-")
            rows[fields[0]] = row
    return rows


def read_times(path):
    """Table -> (CPU seconds, peak MiB) of its last `gen` job."""
    out = {}
    if not path:
        return out
    with open(path) as f:
        for line in f:
            m = re.search(r" gen (\S+) .*\| *([\d.]+) *\| *([\d.]+) *\| *([\d.]+) *\| *(\d+)\s*$", line)
            if m:
                cpu = float(m.group(3)) + float(m.group(4))
                out[m.group(1)] = (f"{cpu:.1f}", f"{int(m.group(5)) / 1024:.0f}")
    return out


def read_results(paths):
    """File name -> "ok" or "FAILED" from JSON lines with `file` and `ok`, in these files."""
    out = {}
    for path in paths or []:
        with open(path) as f:
            for line in f:
                try:
                    o = json.loads(line)
                except json.JSONDecodeError:
                    continue
                out[os.path.basename(o["file"])] = "ok" if o.get("ok") else "FAILED"
    return out


def read_plan(path):
    """The tables of a Makefile of `egtb-gen plan`, in its order (each after the tables it needs)."""
    with open(path) as f:
        return [m.group(1) for m in re.finditer(r"^\$\(DIR\)/(\w+)\.verify\.json:", f.read(), re.M)]


def todo(ap, args, rows):
    """Prints the plan's goals that the record does not show done."""
    # Quietly stop when the reader does (`| head`).
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    tables = read_plan(args.todo)
    if not tables:
        ap.error(f"--todo {args.todo}: no table's verify rule in it (not a Makefile of `egtb-gen plan`?)")
    unknown = sorted(set(args.only or []) - set(tables))
    if unknown:
        ap.error(f"--only: not tables of {args.todo}: {' '.join(unknown)}")
    only = set(args.only or tables)
    base = args.dir.rstrip("/") or "/"
    for t in tables:
        if t not in only:
            continue
        row = rows.get(t, {})
        for check in ("verify", "crosscheck"):
            if row.get(check) != "ok":
                print(f"{base}/{t}.{check}.json")
    return 0


def verdict(results, table):
    """The table's verdict from its two files' results: ok, FAILED, partial or -."""
    got = [results.get(f"{table}.egtb"), results.get(f"{table}.dtc.egtb")]
    if "FAILED" in got:
        return "FAILED"
    if all(g == "ok" for g in got):
        return "ok"
    return "partial" if any(got) else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, help="the set's directory of .egtb files")
    ap.add_argument("--out", required=True, help="the record (docs/egtb-sets/NAME.tsv), merged if present")
    ap.add_argument("--egtb-gen", default="egtb-gen", help="the egtb-gen binary (for `info --json`)")
    ap.add_argument("--times", help="`/usr/bin/time -f '%%C | %%e | %%U | %%S | %%M'` lines of the gen jobs")
    ap.add_argument("--verify", nargs="+", metavar="JSONL",
                    help="`egtb-gen verify --json` output (JSON lines), one or more files")
    ap.add_argument("--crosscheck", nargs="+", metavar="JSONL",
                    help="`egtb-gen crosscheck --json` output (JSON lines), one or more files")
    ap.add_argument("--todo", metavar="PLAN",
                    help="print the goals of this Makefile of `egtb-gen plan` that the record does not show done; write nothing")
    ap.add_argument("--only", nargs="+", metavar="SIG", help="with --todo: only these tables' goals")
    ap.add_argument("--repacked", action="store_true",
                    help="files rewritten by `egtb-gen repack` since the record: take their version 3 digests")
    args = ap.parse_args()
    if args.only and not args.todo:
        ap.error("--only goes with --todo")
    if args.todo:
        if not os.path.isfile(args.todo):
            ap.error(f"--todo {args.todo}: no such file")
        # The directory need not exist yet: make generates into it.
        return todo(ap, args, read_manifest(args.out))
    if not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir}: no such directory")
    for flag, paths in (("--times", [args.times]), ("--verify", args.verify), ("--crosscheck", args.crosscheck)):
        for path in paths or []:
            if path and not os.path.isfile(path):
                ap.error(f"{flag} {path}: no such file")

    rows = read_manifest(args.out)
    times = read_times(args.times)
    verified = read_results(args.verify)
    crosschecked = read_results(args.crosscheck)
    errors = []
    tables = sorted(f[: -len(".dtc.egtb")] for f in os.listdir(args.dir) if f.endswith(".dtc.egtb"))
    for t in tables:
        dtm, dtc = (os.path.join(args.dir, f"{t}{ext}") for ext in (".egtb", ".dtc.egtb"))
        if not os.path.exists(dtm):
            continue
        infos = [json.loads(line) for line in subprocess.run(
            [args.egtb_gen, "info", "--json", dtm, dtc], check=True,
            capture_output=True, text=True).stdout.splitlines()]
        info = infos[0]
        versions = sorted({str(i["format_version"]) for i in infos})
        new = {
            "table": t,
            "entries": str(2 * info["entries_per_side"]),
            "gen_cpu_s": times.get(t, ("-", "-"))[0],
            "gen_peak_mib": times.get(t, ("-", "-"))[1],
            "dtm_bytes": str(os.path.getsize(dtm)),
            "dtc_bytes": str(os.path.getsize(dtc)),
            "dtm_sha256": sha256(dtm),
            "dtc_sha256": sha256(dtc),
            "verify": verdict(verified, t),
            "crosscheck": verdict(crosschecked, t),
            "format": "/".join(versions),
        }
        old = rows.get(t)
        if old:
            if (old["dtm_sha256"], old["dtc_sha256"]) != (new["dtm_sha256"], new["dtc_sha256"]):
                older = old["format"] == "-" or "3" not in old["format"].split("/")
                if not (args.repacked and older and new["format"] == "3"):
                    why = " (not a version 1 or 2 file repacked to version 3)" if args.repacked else ""
                    errors.append(f"{t}: the files' digests differ from the record in {args.out}{why}")
                    continue
            for k in ("gen_cpu_s", "gen_peak_mib"):
                if new[k] == "-":
                    new[k] = old[k]
            for k in ("verify", "crosscheck"):
                if new[k] in ("-", "partial") and old[k] in ("ok", "FAILED"):
                    new[k] = old[k]
        rows[t] = new

    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("# One line per table: entries (both sides to move), generation CPU seconds and peak\n")
        f.write("# memory (MiB, resident), the DTM and DTC files' bytes and SHA-256, verify and crosscheck\n")
        f.write("# (ok, FAILED, partial, - for not yet), the files' format version (- before the column\n")
        f.write("# was kept: 1 or 2). Written by scripts/egtb-manifest.py.\n")
        f.write("\t".join(COLUMNS) + "\n")
        for t in sorted(rows):
            f.write("\t".join(rows[t].get(c, "-") for c in COLUMNS) + "\n")
    os.replace(tmp, args.out)

    done = list(rows.values())
    print(f"{args.out}: {len(done)} tables, "
          f"{sum(int(r['entries']) for r in done) / 1e9:.2f} G entries, "
          f"verify ok {sum(r['verify'] == 'ok' for r in done)}, "
          f"crosscheck ok {sum(r['crosscheck'] == 'ok' for r in done)}, "
          f"failed {sum('FAILED' in (r['verify'], r['crosscheck']) for r in done)}")
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
