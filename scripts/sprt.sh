#!/bin/bash
# SPRT between two Chariot builds with chariot-league (docs/STRENGTH.md, "How versions are
# compared").
#
# usage: scripts/sprt.sh NEW_BINARY OLD_BINARY [LIMIT] [GAMES] [ELO1]
#   LIMIT  a time control such as 4+0.04, or nNODES such as n30000 (fixed nodes per move;
#          the default) for changes that do not affect speed or time management
#   GAMES  the most games to play (default 800); ELO1 the SPRT's alternative (default 15)
#
# Openings: 10-ply random walks through data/book.xqb, each with both colours; books off;
# two games at a time. The games go to NEW-vs-OLD.pgn in the current directory.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
NEW=$(realpath "$1"); OLD=$(realpath "$2"); LIM=${3:-n30000}; GAMES=${4:-800}; ELO1=${5:-15}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $LIM in
  n*) EACH=(tc=120+1 "nodes=${LIM#n}") ;;
  *) EACH=("tc=$LIM") ;;
esac
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" -p chariot-league
exec "$ROOT/target/release/chariot-league" \
  --engine cmd="$NEW" name="$(basename "$NEW")" --engine cmd="$OLD" name="$(basename "$OLD")" \
  --each "${EACH[@]}" option.usebook=false --games "$GAMES" --concurrency 2 \
  --book "$ROOT/data/book.xqb" --book-ply 10 --srand "$RANDOM" \
  --sprt elo0=0 elo1="$ELO1" alpha=0.05 beta=0.1 --ratinginterval 20 \
  --pgnout "$(basename "$NEW")-vs-$(basename "$OLD").pgn"
