#!/usr/bin/env bash
# Measures each web level against the next with chariot-league (docs/STRENGTH.md): the levels
# are read from web/src/play_levels.rs (node budget, knowledge, randomness) and played as UCCI
# engines with the same settings; GAMES games a pair (default 20) from 6-ply openings of the
# built-in book, each opening with both colours, one game at a time. Prints one JSON summary
# line per pair (chariot-league --json's last line) and writes the games to OUT (default
# target/level-ladder).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${GAMES:-20}
out=${OUT:-target/level-ladder}
mkdir -p "$out"
cargo build --release -p chariot -p chariot-league >/dev/null 2>&1
mapfile -t levels < <(sed -n 's/^ *spec(\([0-9_]*\), Amount::\([A-Za-z]*\), Amount::\([A-Za-z]*\)),$/\1 \2 \3/p' web/src/play_levels.rs)
if [ "${#levels[@]}" -lt 2 ]; then
  echo "level-ladder: no levels found in web/src/play_levels.rs" >&2
  exit 1
fi
engine() {
  local n=$1 nodes=$2 knowledge=$3 randomness=$4
  echo "--engine cmd=target/release/chariot name=L$n nodes=${nodes//_/} option.knowledge=${knowledge,,} option.randomness=${randomness,,} option.hashsize=8"
}
for ((i = 0; i + 1 < ${#levels[@]}; i++)); do
  rm -f "$out/L$((i + 1))-L$((i + 2)).pgn"
  # shellcheck disable=SC2046
  target/release/chariot-league \
    $(engine $((i + 1)) ${levels[i]}) $(engine $((i + 2)) ${levels[i + 1]}) \
    --tc 600 --games "$games" --book data/book.xqb --book-ply 6 --srand 7 --maxmoves 150 \
    --pgnout "$out/L$((i + 1))-L$((i + 2)).pgn" --json | tail -n 1
done
