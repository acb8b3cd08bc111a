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
  scripts/apt-install.sh client-tests python3-venv
fi
venv="$root/target/client-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check cchess==1.25.5

# The test profile (optimised, as `cargo test` builds the binaries), as the browser tests use.
cargo build --profile test -p chariot
target=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
"$venv/bin/python" chariot/tests/clients/cchess_games.py "$target/debug/chariot"
