#!/usr/bin/env bash
# XBoard plays a whole game of Chariot against Chariot over XBoard's own protocol (CECP, `variant
# xiangqi`), with no adapter, under a virtual X display (docs/protocol.md, "XBoard and
# WinBoard"). Installs what it needs when it is missing: Debian's xboard and xvfb (imagemagick
# too when a screenshot is asked for). Passes when XBoard saved the game with a result that is
# no forfeit (no illegal move, no false claim, no loss on time) and neither engine answered a
# command with `Error`, `Illegal move` or `tellusererror`. Leaves XBoard's debug log (every line
# both ways) and the PGN in TARGET/xboard-test/; with SCREENSHOT=FILE it also takes a screenshot
# of the board mid-game.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/games"

need=()
command -v xboard >/dev/null 2>&1 || need+=(xboard)
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb)
if [ -n "${SCREENSHOT:-}" ] && ! command -v import >/dev/null 2>&1; then need+=(imagemagick); fi
if ((${#need[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "xboard-tests: installing ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The test profile (optimised, as `cargo test` builds the binaries), as the other scripts use.
cargo build --profile test -p chariot
target=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
engine="$target/debug/chariot"
out="$target/xboard-test"
rm -rf "$out"
mkdir -p "$out/home"

# 10 seconds a side and 0.2 s a move, both engines pondering: a game takes a minute or two.
# Each engine keeps 200 ms a move for the pipes and the GUI (`Move Overhead`, sent by XBoard as
# `option Move Overhead=200`): two engines and XBoard share the machine, and the default 30 ms
# lost games on time on two busy cores. XBoard judges the game itself (-testClaims: a false
# result claim forfeits; -checkMates: it ends mated games) and applies its Asian perpetual-check
# and -chase rule at the third occurrence of a position (-repeatsToDraw 3), as Chariot's judge
# does. Its settings file is written to the scratch HOME, not the user's.
xboard_args=(
  -variant xiangqi
  -fcp "$engine" -fd "$out" -scp "$engine" -sd "$out"
  -firstOptions "Move Overhead=200" -secondOptions "Move Overhead=200"
  -matchGames 1 -tc 0:10 -inc 0.2 -mps 0
  -saveGameFile "$out/games.pgn" -popupExitMessage false
  -debugMode true -nameOfDebugFile "$out/xboard.debug" -engineDebugOutput 2
  -autoCallFlag true -testClaims true -checkMates true -repeatsToDraw 3
  -xexit
)
export HOME="$out/home" SCREENSHOT="${SCREENSHOT:-}"
started=$(date +%s)
timeout 300 xvfb-run -a -s "-screen 0 1400x1000x24 -nolisten tcp" bash -c '
  xboard "$@" >"'"$out"'/xboard.out" 2>&1 &
  pid=$!
  if [ -n "$SCREENSHOT" ]; then
    sleep 20
    import -window root "$SCREENSHOT" || echo "xboard-tests: no screenshot" >&2
  fi
  wait "$pid"
' xboard "${xboard_args[@]}" || {
  echo "xboard-tests: XBoard did not finish the game (exit $?); see $out/xboard.debug" >&2
  exit 1
}

pgn="$out/games.pgn"
fail() {
  echo "xboard-tests: $1 (see $out/xboard.debug and $pgn)" >&2
  exit 1
}
[ -s "$pgn" ] || fail "XBoard saved no game"
result=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$pgn")
case "$result" in
  1-0 | 0-1 | 1/2-1/2) ;;
  *) fail "the game has no result: '$result'" ;;
esac
# The comment before the result says how the game ended.
ending=$(tr '\n' ' ' <"$pgn" | grep -o '{[^{}]*} *\(1-0\|0-1\|1/2-1/2\) *$' | sed 's/ *$//' || true)
if grep -Eqi 'forfeit|false|illegal|invalid|on time|flag|exited|crash' <<<"$ending"; then
  fail "the game ended badly: $ending"
fi
if grep -E '^[0-9]+ <(first|second) *: *(Error|Illegal move|tellusererror)' "$out/xboard.debug"; then
  fail "an engine reported a protocol error"
fi
plies=$(grep -c '^[0-9]* <\(first\|second\) *: *move ' "$out/xboard.debug" || true)
echo "xboard-tests: Chariot vs Chariot over CECP under Xvfb: $ending," \
  "$plies moves in $(($(date +%s) - started)) s"
