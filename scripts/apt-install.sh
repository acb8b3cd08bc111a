#!/usr/bin/env bash
# Installs Debian packages for a test script, with sudo unless already root, quietly.
#
# usage: scripts/apt-install.sh WHO PACKAGE...   (WHO names the script in the message)
set -euo pipefail
who=$1
shift
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
echo "$who: installing $*" >&2
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
