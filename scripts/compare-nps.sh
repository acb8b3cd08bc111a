#!/usr/bin/env bash
# Measures chariot's search speed against ElephantEye's in the same run: `chariot bench` (fixed
# positions to a fixed depth, single-threaded) against ElephantEye's `go depth 10` from the start
# position, alternating the two, and prints each one's nodes per second of CPU time (user) and of
# wall time, and the ratio of the medians. CPU time is the fairer figure on a shared machine.
#
# usage: scripts/compare-nps.sh /path/to/eleeye [RUNS=3] [BENCH_DEPTH] [PRUNING]
#
# With PRUNING (a level of the `pruning` option: none, small, ...), both engines search the 16
# bench positions to BENCH_DEPTH (required then), Chariot with `bench --pruning PRUNING`: with
# `small` (the null move only, as ElephantEye prunes) the two trees are of the same kind, mostly
# quiescence nodes, which compares the speed of the code rather than the shape of the trees.
# ElephantEye is not part of Chariot: build it yourself, outside this repository. It is run from
# its own directory with `setoption usebook false`. This script builds chariot, nothing else.
set -euo pipefail
eleeye=$(realpath "${1:?usage: $0 /path/to/eleeye [runs] [bench depth] [pruning]}")
runs=${2:-3}
depth=${3:-}
pruning=${4:-}
if [ -n "$pruning" ] && [ -z "$depth" ]; then
  echo "a pruning level needs a bench depth (usage: $0 ELEEYE RUNS DEPTH PRUNING)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
cargo build --release -q -p chariot
chariot=$PWD/target/release/chariot
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {printf "%.0f\n", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# chariot bench: prints "nodes user_seconds wall_seconds".
run_chariot() {
  /usr/bin/time -f '%U %e' -o "$tmp/time" "$chariot" bench $depth ${pruning:+--pruning "$pruning"} > "$tmp/bench.out" 2>&1
  local nodes
  nodes=$(sed -n 's/^Total nodes: *//p' "$tmp/bench.out")
  echo "$nodes $(cat "$tmp/time")"
}

# ElephantEye: `go depth 10` from the start position, or with a pruning level `go depth DEPTH`
# from each bench position in turn. Commands go through a FIFO, `quit` once it has answered.
# Prints "nodes user_seconds wall_seconds" (wall from its own `info time` lines).
run_eleeye() {
  local fifo=$tmp/in
  rm -f "$fifo"; mkfifo "$fifo"
  ( cd "$(dirname "$eleeye")" && /usr/bin/time -f '%U %e' -o "$tmp/time" "$eleeye" < "$fifo" > "$tmp/ee.out" 2>&1 ) &
  local pid=$!
  exec 3> "$fifo"
  printf 'ucci\nsetoption usebook false\n' >&3
  local searches=0 fen
  while IFS= read -r fen; do
    searches=$((searches + 1))
    printf 'position %s\ngo depth %s\n' "$fen" "$ee_depth" >&3
    local waited=0
    until [ "$(grep -c '^bestmove\|^nobestmove' "$tmp/ee.out" 2>/dev/null)" -ge "$searches" ]; do
      sleep 0.05
      waited=$((waited + 1))
      [ "$waited" -lt 12000 ] || { echo "ElephantEye did not answer within 10 minutes" >&2; exit 1; }
    done
  done < "$tmp/positions"
  printf 'quit\n' >&3
  exec 3>&-
  wait "$pid"
  local nodes ms
  # Each search's last `info time` line holds its totals.
  nodes=$(awk '/^info time/ {n = $5} /^(no)?bestmove/ {sum += n; n = 0} END {print sum}' "$tmp/ee.out")
  ms=$(awk '/^info time/ {t = $3} /^(no)?bestmove/ {sum += t; t = 0} END {print sum}' "$tmp/ee.out")
  echo "$nodes $(awk '{print $1}' "$tmp/time") $(echo "$ms / 1000" | bc -l)"
}

# The positions ElephantEye searches (UCCI `position` arguments).
if [ -n "$pruning" ]; then
  # (A bad level stops the script here, with chariot's message.)
  "$chariot" bench 1 --pruning "$pruning" | sed -n 's/^Position .*  \([^ ]*\) \([wb]\) \(.*\)$/fen \1 \2 \3/p' > "$tmp/positions"
  [ "$(wc -l < "$tmp/positions")" -eq 16 ] || { echo "could not read the bench positions from chariot bench" >&2; exit 1; }
  ee_depth=$depth
  ee_label="16 bench positions, go depth $depth"
else
  ee_depth=10
  echo startpos > "$tmp/positions"
  ee_label="go depth 10"
fi

c_cpu=(); c_wall=(); e_cpu=(); e_wall=()
for i in $(seq "$runs"); do
  read -r cn cu cw < <(run_chariot)
  read -r en eu ew < <(run_eleeye)
  c_cpu+=("$(echo "$cn / $cu" | bc)"); c_wall+=("$(echo "$cn / $cw" | bc)")
  e_cpu+=("$(echo "$en / $eu" | bc)"); e_wall+=("$(echo "$en / $ew" | bc)")
  printf 'run %d: chariot bench %s nodes, %.2f s CPU, %.2f s wall | eleeye %s: %s nodes, %.2f s CPU, %.2f s wall\n' \
    "$i" "$cn" "$cu" "$cw" "$ee_label" "$en" "$eu" "$ew"
done
mc=$(printf '%s\n' "${c_cpu[@]}" | median); me=$(printf '%s\n' "${e_cpu[@]}" | median)
mcw=$(printf '%s\n' "${c_wall[@]}" | median); mew=$(printf '%s\n' "${e_wall[@]}" | median)
printf 'median nps (CPU time):  chariot %d, eleeye %d, ratio chariot/eleeye %.2f\n' "$mc" "$me" "$(echo "$mc / $me" | bc -l)"
printf 'median nps (wall time): chariot %d, eleeye %d, ratio chariot/eleeye %.2f\n' "$mcw" "$mew" "$(echo "$mcw / $mew" | bc -l)"
