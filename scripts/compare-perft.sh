#!/usr/bin/env bash
# Times `chariot perft DEPTH` against Fairy-Stockfish's `go perft DEPTH` in the same run,
# alternating the two, and prints each time and the ratio of the medians.
#
# usage: scripts/compare-perft.sh /path/to/fairy-stockfish [DEPTH=5] [RUNS=3]
# Fairy-Stockfish is not part of Chariot: build it yourself, outside this repository, with
# largeboards support (Xiangqi's board is 9x10).
set -euo pipefail
fsf=${1:?usage: $0 /path/to/fairy-stockfish [depth] [runs]}
depth=${2:-5}
runs=${3:-3}
cd "$(dirname "$0")/.."
cargo build --release -q -p chariot
chariot=target/release/chariot

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

ours=(); theirs=()
for _ in $(seq "$runs"); do
  t0=$(now); n1=$("$chariot" perft "$depth" | tail -n 1); t1=$(now)
  out=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft %s\nquit\n' "$depth" | "$fsf")
  t2=$(now)
  n2=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *//p')
  [ "$n1" = "$n2" ] || { echo "node counts differ: chariot $n1, fairy-stockfish $n2" >&2; exit 1; }
  ours+=("$(echo "$t1 - $t0" | bc -l)"); theirs+=("$(echo "$t2 - $t1" | bc -l)")
  printf 'perft %s = %s nodes: chariot %.2f s, fairy-stockfish %.2f s\n' "$depth" "$n1" "${ours[-1]}" "${theirs[-1]}"
done
mo=$(printf '%s\n' "${ours[@]}" | median); mt=$(printf '%s\n' "${theirs[@]}" | median)
printf 'median: chariot %.2f s, fairy-stockfish %.2f s, ratio %.1fx\n' "$mo" "$mt" "$(echo "$mt / $mo" | bc -l)"
