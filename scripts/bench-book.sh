#!/usr/bin/env bash
# Times the book pipeline on the master collection: reading alone (the reference, in the same
# run), import into a fresh game database, compile, and book probes against move generation.
#
# usage: scripts/bench-book.sh [COLLECTION=data/games/ccpd-masters.big5.pgn.zst] [RUNS=3]
set -euo pipefail
collection=${1:-data/games/ccpd-masters.big5.pgn.zst}
runs=${2:-3}
cd "$(dirname "$0")/.."
cargo build --release -q -p book-builder
bb=target/release/book-builder
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
since() { echo "$(now) - $1" | bc -l; }

reads=(); imports=(); compiles=()
for i in $(seq "$runs"); do
  t=$(now); "$bb" read "$collection" > /dev/null; reads+=("$(since "$t")")
  rm -f "$dir"/games.db*
  t=$(now); "$bb" import "$collection" --db "$dir/games.db" --max-problems 0 > "$dir/import.txt"
  imports+=("$(since "$t")")
  t=$(now); "$bb" compile --db "$dir/games.db" -o "$dir/book.xqb" --max-ply 40 > "$dir/compile.txt"
  compiles+=("$(since "$t")")
  printf 'run %s: read %.2f s, import %.2f s, compile (max ply 40) %.2f s\n' \
    "$i" "${reads[-1]}" "${imports[-1]}" "${compiles[-1]}"
done
grep '^total' "$dir/import.txt"
cat "$dir/compile.txt"
mr=$(printf '%s\n' "${reads[@]}" | median)
mi=$(printf '%s\n' "${imports[@]}" | median)
mc=$(printf '%s\n' "${compiles[@]}" | median)
printf 'median: read %.2f s, import %.2f s (%.2fx reading), compile %.2f s (%.2fx reading)\n' \
  "$mr" "$mi" "$(echo "$mi / $mr" | bc -l)" "$mc" "$(echo "$mc / $mr" | bc -l)"
"$bb" bench --book "$dir/book.xqb"
"$bb" bench --book data/book.xqb
