#!/usr/bin/env bash
# The web app's end-to-end tests (web/tests/browser): headless Chromium driven by playwright-core
# against `chariot serve` (every *.test.mjs: app.test.mjs; engines.test.mjs with Debian's
# Fairy-Stockfish as an external engine; levels.test.mjs, the levels' Elo labels; wholegame.test.mjs,
# a whole game by clicks and by taps; harness.mjs is what they share). Installs what they need when it is missing: Debian's chromium, fonts-noto-cjk
# (without CJK fonts every Chinese character in a screenshot is an empty box) and
# fairy-stockfish, and the pinned npm packages (package-lock.json). Lints the app's scripts first (ESLint: a name
# used but never defined fails here, not only in the test that reaches it). Writes the
# screenshots to docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

need=()
dpkg -s chromium >/dev/null 2>&1 || need+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || need+=(fonts-noto-cjk)
dpkg -s fairy-stockfish >/dev/null 2>&1 || need+=(fairy-stockfish)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
if ((${#need[@]})); then scripts/apt-install.sh browser-tests "${need[@]}"; fi

(cd web/tests/browser && npm ci --no-audit --no-fund --loglevel=error)
(cd web && tests/browser/node_modules/.bin/eslint --config tests/browser/eslint.config.mjs \
  assets/js tests/browser/*.mjs)
# The test profile (optimised, as `cargo test` builds the binaries) so the engine answers quickly.
cargo build --profile test -p chariot -p book-builder
target=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
export CHARIOT_BIN="$target/debug/chariot"
export BOOK_BUILDER_BIN="$target/debug/book-builder"
export SCREENSHOTS="$root/docs/screenshots"
cd web/tests/browser
node --test --test-concurrency=1 ./*.test.mjs
