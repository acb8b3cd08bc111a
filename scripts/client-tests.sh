#!/usr/bin/env bash
# Chariot driven by real clients nobody here wrote (docs/protocol.md, "Clients and their
# quirks"): PyPI's cchess plays two whole games through its own UCCI and UCI wrappers, every
# move checked by cchess's rules (chariot/tests/clients/cchess_games.py). Installs what it needs
# when it is missing: Debian's python3-venv, and cchess (pinned) in a virtual environment under
# target/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "client-tests: installing python3-venv"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
venv="$root/target/client-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check cchess==1.25.5

# The test profile (optimised, as `cargo test` builds the binaries), as the browser tests use.
cargo build --profile test -p chariot
"$venv/bin/python" chariot/tests/clients/cchess_games.py "$root/target/debug/chariot"
