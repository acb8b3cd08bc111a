#!/usr/bin/env bash
# Installs Snakemake from PyPI into a virtual environment of its own, unless it is there
# already, and prints the directory of its `snakemake` for PATH. The data plans' test
# (chariot/tests/datagen_plan.rs) runs Snakefiles with it; `.ci/run` calls this when snakemake
# is not on the path. PyPI rather than Debian's package: bookworm's snakemake is 7.21, older
# than the executor plugins (`--executor slurm`) of the cluster recipe in docs/tuning.md. On a
# fresh Debian, python3 has no venv module until python3-venv is installed, so that is
# installed first when missing.
#
#   export PATH="$(scripts/install-snakemake.sh):$PATH"
set -euo pipefail
venv="${CHARIOT_SNAKEMAKE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/chariot/snakemake-venv}"
if [ ! -x "$venv/bin/snakemake" ]; then
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "install-snakemake: installing python3-venv" >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      python3-venv >&2
  fi
  echo "install-snakemake: installing snakemake into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'snakemake>=8,<10' >&2
fi
"$venv/bin/snakemake" --version >/dev/null
echo "$venv/bin"
