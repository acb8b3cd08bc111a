#!/usr/bin/env bash
# External engines in the web app with a real engine nobody here wrote: Debian's Fairy-Stockfish
# plays and analyses through the API in its UCI mode (UCI_Variant xiangqi) and its UCCI mode
# (web/tests/fairy_stockfish.rs, ignored by a plain `cargo test` because it needs the package).
# Installs fairy-stockfish when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/games/fairy-stockfish ] && [ -z "${FAIRY_STOCKFISH:-}" ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "engine-tests: installing fairy-stockfish"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends fairy-stockfish >/dev/null
fi
cargo test -p chariot-web --test fairy_stockfish -- --ignored
