#!/usr/bin/env bash
# Counts the instructions Chariot's search executes per node, and optionally ElephantEye's, with
# valgrind's callgrind: a measure that does not depend on the machine's load, so that a speed-up
# of two or three per cent can be seen in one run where timings on a shared machine need dozens.
# (Instructions are not time: cache misses cost time without instructions. Confirm a change with
# scripts/compare-nps.sh.)
#
# usage: scripts/count-instructions.sh [BENCH_DEPTH=10] [/path/to/eleeye [EE_DEPTH=8]]
#
# Chariot: `chariot bench BENCH_DEPTH` less `chariot bench 1` (start-up and table clearing).
# ElephantEye (built outside this repository): `go depth EE_DEPTH` from the start position,
# book off, run from its own directory; its start-up is small next to the search and is counted.
set -euo pipefail
depth=${1:-10}
eleeye=${2:-}
ee_depth=${3:-8}
for n in "$depth" "$ee_depth"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "depths are whole numbers from 1, not '$n' (usage: $0 [BENCH_DEPTH] [ELEEYE [EE_DEPTH]])" >&2; exit 2; }
done
if [ -n "$eleeye" ]; then
  [ -f "$eleeye" ] && [ -x "$eleeye" ] || { echo "$eleeye: not an executable ElephantEye" >&2; exit 2; }
  eleeye=$(realpath "$eleeye")
fi
command -v valgrind > /dev/null || { echo "valgrind is needed (apt install valgrind)" >&2; exit 2; }
cd "$(dirname "$0")/.."
cargo build --release -q -p chariot
chariot=$PWD/target/release/chariot
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints the instructions callgrind collected for the command.
count() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$@" 2> "$tmp/err" > "$tmp/out"
  sed -n 's/.*Collected : //p' "$tmp/err"
}

base=$(count "$chariot" bench 1)
total=$(count "$chariot" bench "$depth")
nodes=$(sed -n 's/^Total nodes: *//p' "$tmp/out")
per=$(( (total - base) / nodes ))
printf 'chariot bench %s: %s nodes, %s instructions (start-up %s), %s per node\n' \
  "$depth" "$nodes" "$total" "$base" "$per"

if [ -n "$eleeye" ]; then
  fifo=$tmp/in
  mkfifo "$fifo"
  ( cd "$(dirname "$eleeye")" && valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.ee" \
      "$eleeye" < "$fifo" > "$tmp/ee.out" 2> "$tmp/ee.err" ) &
  pid=$!
  exec 3> "$fifo"
  printf 'ucci\nsetoption usebook false\nposition startpos\ngo depth %s\n' "$ee_depth" >&3
  until grep -q '^bestmove' "$tmp/ee.out" 2> /dev/null; do sleep 0.5; done
  printf 'quit\n' >&3
  exec 3>&-
  wait "$pid"
  ee_nodes=$(grep '^info time' "$tmp/ee.out" | tail -n 1 | awk '{print $5}')
  ee_total=$(sed -n 's/.*Collected : //p' "$tmp/ee.err")
  ee_per=$(( ee_total / ee_nodes ))
  printf 'eleeye go depth %s: %s nodes, %s instructions, %s per node\n' \
    "$ee_depth" "$ee_nodes" "$ee_total" "$ee_per"
  printf 'instructions per node, eleeye/chariot: %s\n' "$(echo "scale=2; $ee_per / $per" | bc)"
fi
