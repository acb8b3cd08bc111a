#!/usr/bin/env bash
# Measures the web app's levels on one Elo scale (docs/STRENGTH.md, "The web app's levels").
#
# Every level of web/src/play_levels.rs is played as a UCCI engine with the same settings (its
# node budget and the knowledge, randomness and blunders options) by chariot-league: each level
# against the next (NEXT games an encounter, default 200) and the one after next (SECOND,
# default 60), and the anchor, Debian's Fairy-Stockfish at the node budget of ANCHOR in
# play_levels.rs, against the levels of ANCHOR_LEVELS (default "6 7 8"; ANCHOR_GAMES each,
# default 100). NEXT and SECOND may also be lists, one count an encounter, weakest first.
# Openings are 6-ply walks through the built-in book, each played with both colours; the clock
# (600 s) is only a safety limit; the endgame tables adjudicate, a game both engines score at
# 1,000 or more (about a chariot) for 5 moves each is lost, and 150 moves each are a draw.
# Each encounter's games go to OUT/A-B.pgn (default target/level-ladder); a stopped run
# carries on where it stopped (--resume), and raising a count plays only the games added.
# Then `chariot-league --ratings` fits all the games jointly, with the anchor at its rating,
# and the table is printed: the Markdown of docs/STRENGTH.md and the `measured(...)` lines of
# play_levels.rs.
#
#     scripts/level-ladder.sh                    # play what is missing, then the table
#     scripts/level-ladder.sh --table data/levels   # the table of the games in a directory
#
# The committed games are data/levels/*.pgn.zst (zstd -19 of OUT's files). Long runs belong in
# the background: scripts/background.sh LOG scripts/level-ladder.sh
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a next <<<"${NEXT:-200}"
read -r -a second <<<"${SECOND:-60}"
anchor_games=${ANCHOR_GAMES:-100}
read -r -a anchor_levels <<<"${ANCHOR_LEVELS:-6 7 8}"
out=${OUT:-target/level-ladder}
play=1
if [ "${1:-}" = "--table" ]; then
  out=${2:?usage: scripts/level-ladder.sh [--table DIR]}
  play=""
fi
fsf=${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}
if [ -n "$play" ] && [ ! -x "$fsf" ]; then
  scripts/apt-install.sh level-ladder fairy-stockfish
fi
cargo build --release -p chariot -p chariot-league >/dev/null 2>&1
bin=$(cargo metadata --format-version 1 --no-deps | jq -r .target_directory)/release
league=$bin/chariot-league

mapfile -t levels < <(sed -n 's/^ *spec(\([0-9_]*\), Amount::\([A-Za-z]*\), Amount::\([A-Za-z]*\), Amount::\([A-Za-z]*\)),$/\1 \2 \3 \4/p' web/src/play_levels.rs)
anchor_nodes=$(sed -n '/^pub const ANCHOR/,/^};/s/^ *nodes: \([0-9_]*\),$/\1/p' web/src/play_levels.rs)
anchor_elo=$(sed -n '/^pub const ANCHOR/,/^};/s/^ *elo: \([0-9_]*\),$/\1/p' web/src/play_levels.rs)
anchor_nodes=${anchor_nodes//_/}
anchor_elo=${anchor_elo//_/}
if [ "${#levels[@]}" -lt 2 ] || [ -z "$anchor_nodes" ] || [ -z "$anchor_elo" ]; then
  echo "level-ladder: no levels or no anchor found in web/src/play_levels.rs" >&2
  exit 1
fi
anchor="FSF-$anchor_nodes"

# The engine settings of level N (from 1), or of the anchor.
engine() {
  if [ "$1" = "$anchor" ]; then
    echo "--engine cmd=$fsf name=$anchor proto=uci nodes=$anchor_nodes option.Hash=8 handshake=60"
    return
  fi
  local nodes knowledge randomness blunders
  read -r nodes knowledge randomness blunders <<<"${levels[$1 - 1]}"
  echo "--engine cmd=$bin/chariot name=L$1 nodes=${nodes//_/} option.knowledge=${knowledge,,} option.randomness=${randomness,,} option.blunders=${blunders,,} option.hashsize=8 handshake=60"
}

# Plays GAMES games of A against B (level numbers or the anchor's name) into OUT/LA-LB.pgn.
encounter() {
  local a=$1 b=$2 games=$3 name_a=L$1 name_b=L$2
  [ "$a" = "$anchor" ] && name_a=$a
  echo "level-ladder: $name_a vs $name_b, $games games" >&2
  # shellcheck disable=SC2046
  "$league" $(engine "$a") $(engine "$b") \
    --tc 600 --games "$games" --concurrency 2 --book data/book.xqb --book-ply 6 --srand 7 \
    --maxmoves 150 --egtb data/egtb --resign movecount=5 score=1000 twosided=true \
    --pgnout "$out/$name_a-$name_b.pgn" --resume --ratinginterval 0 >/dev/null
}

if [ -n "$play" ]; then
  mkdir -p "$out"
  n=${#levels[@]}
  # The I-th count of a list (from 1), or its last.
  count() {
    local -n list=$1
    local i=$(($2 <= ${#list[@]} ? $2 : ${#list[@]}))
    echo "${list[i - 1]}"
  }
  for ((i = 1; i < n; i++)); do
    encounter "$i" $((i + 1)) "$(count next "$i")"
  done
  for ((i = 1; i + 1 < n; i++)); do
    encounter "$i" $((i + 2)) "$(count second "$i")"
  done
  for l in "${anchor_levels[@]}"; do
    encounter "$anchor" "$l" "$anchor_games"
  done
fi

shopt -s nullglob
files=("$out"/*.pgn "$out"/*.pgn.zst)
if [ "${#files[@]}" = 0 ]; then
  echo "level-ladder: no games in $out" >&2
  exit 1
fi
json=$("$league" --ratings "${files[@]}" --anchor "$anchor=$anchor_elo" --json)
echo "Scale: $anchor (Fairy-Stockfish, $anchor_nodes nodes a move) = $anchor_elo; $(jq -r '"\(.games) games"' <<<"$json")"
echo
echo "| level | nodes a move | knowledge | randomness | blunders | Elo | 95% interval | games | above the level below (95%) |"
echo "|---|---|---|---|---|---|---|---|---|"
for ((i = 1; i <= ${#levels[@]}; i++)); do
  read -r nodes knowledge randomness blunders <<<"${levels[i - 1]}"
  jq -r --arg me "L$i" --arg below "L$((i - 1))" \
    --arg spec "${nodes//_/,} | ${knowledge,,} | ${randomness,,} | ${blunders,,}" '
      def r: (. + 0.5 | floor);
      def signed: if . > 0 then "+\(.)" elif . < 0 then "−\(-.)" else "0" end;
      .players[] | select(.name == $me) as $p
      | ([$p.opponents[] | select(.name == $below)] | first) as $step
      | "| \($me | ltrimstr("L")) | \($spec) | **\($p.elo | r)** | \($p.lower | r) to \($p.upper | r) | \($p.games) | "
        + (if $step then "\($step.elo | r | signed) (\($step.lower | r | signed) to \($step.upper | r | signed))" else "" end)
        + " |"' <<<"$json"
done
jq -r --arg a "$anchor" '.players[] | select(.name == $a) | "| anchor: \(.name) | | | | | \(.elo + 0.5 | floor) | \(.lower + 0.5 | floor) to \(.upper + 0.5 | floor) | \(.games) | |"' <<<"$json"
echo
echo "The measured(...) lines of web/src/play_levels.rs:"
for ((i = 1; i <= ${#levels[@]}; i++)); do
  jq -r --arg me "L$i" '.players[] | select(.name == $me)
    | "    measured(\(.elo + 0.5 | floor), \(.lower + 0.5 | floor), \(.upper + 0.5 | floor), \(.games)),"' <<<"$json"
done
