#!/usr/bin/env bash
# Measures chariot's search speed against ElephantEye's in the same run: `chariot bench` (fixed
# positions to a fixed depth, single-threaded) against ElephantEye's `go depth 10` from the start
# position, alternating the two, and prints each one's nodes per second of CPU time (user) and of
# wall time, and the ratio of the medians. CPU time is the fairer figure on a shared machine.
#
# usage: scripts/compare-nps.sh /path/to/eleeye [RUNS=3] [BENCH_DEPTH]
# ElephantEye is not part of Chariot: build it yourself, outside this repository. It is run from
# its own directory with `setoption usebook false`. This script builds chariot, nothing else.
set -euo pipefail
eleeye=$(realpath "${1:?usage: $0 /path/to/eleeye [runs] [bench depth]}")
runs=${2:-3}
depth=${3:-}
cd "$(dirname "$0")/.."
cargo build --release -q -p chariot
chariot=$PWD/target/release/chariot
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {printf "%.0f\n", (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# chariot bench: prints "nodes user_seconds wall_seconds".
run_chariot() {
  /usr/bin/time -f '%U %e' -o "$tmp/time" "$chariot" bench $depth > "$tmp/bench.out" 2>&1
  local nodes
  nodes=$(sed -n 's/^Total nodes: *//p' "$tmp/bench.out")
  echo "$nodes $(cat "$tmp/time")"
}

# ElephantEye go depth 10 from the start position: commands through a FIFO, `quit` once it has
# answered. Prints "nodes user_seconds wall_seconds" (wall from its own `info time`).
run_eleeye() {
  local fifo=$tmp/in
  rm -f "$fifo"; mkfifo "$fifo"
  ( cd "$(dirname "$eleeye")" && /usr/bin/time -f '%U %e' -o "$tmp/time" "$eleeye" < "$fifo" > "$tmp/ee.out" 2>&1 ) &
  local pid=$!
  exec 3> "$fifo"
  printf 'ucci\nsetoption usebook false\nposition startpos\ngo depth 10\n' >&3
  local waited=0
  until grep -q '^bestmove' "$tmp/ee.out" 2>/dev/null; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 12000 ] || { echo "ElephantEye did not answer within 10 minutes" >&2; exit 1; }
  done
  printf 'quit\n' >&3
  exec 3>&-
  wait "$pid"
  local line nodes ms
  line=$(grep '^info time' "$tmp/ee.out" | tail -n 1)
  nodes=$(echo "$line" | awk '{print $5}')
  ms=$(echo "$line" | awk '{print $3}')
  echo "$nodes $(awk '{print $1}' "$tmp/time") $(echo "$ms / 1000" | bc -l)"
}

c_cpu=(); c_wall=(); e_cpu=(); e_wall=()
for i in $(seq "$runs"); do
  read -r cn cu cw < <(run_chariot)
  read -r en eu ew < <(run_eleeye)
  c_cpu+=("$(echo "$cn / $cu" | bc)"); c_wall+=("$(echo "$cn / $cw" | bc)")
  e_cpu+=("$(echo "$en / $eu" | bc)"); e_wall+=("$(echo "$en / $ew" | bc)")
  printf 'run %d: chariot bench %s nodes, %.2f s CPU, %.2f s wall | eleeye go depth 10: %s nodes, %.2f s CPU, %.2f s wall\n' \
    "$i" "$cn" "$cu" "$cw" "$en" "$eu" "$ew"
done
mc=$(printf '%s\n' "${c_cpu[@]}" | median); me=$(printf '%s\n' "${e_cpu[@]}" | median)
mcw=$(printf '%s\n' "${c_wall[@]}" | median); mew=$(printf '%s\n' "${e_wall[@]}" | median)
printf 'median nps (CPU time):  chariot %d, eleeye %d, ratio chariot/eleeye %.2f\n' "$mc" "$me" "$(echo "$mc / $me" | bc -l)"
printf 'median nps (wall time): chariot %d, eleeye %d, ratio chariot/eleeye %.2f\n' "$mcw" "$mew" "$(echo "$mcw / $mew" | bc -l)"
