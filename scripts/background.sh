#!/usr/bin/env bash
# Runs a long job (self-play, a match, data generation) in the background at the lowest CPU
# share: in a session of its own (setsid), whose scheduler autogroup gets nice 19, so that builds,
# tests and the person at the machine get the cores first and the job takes what is left. A plain
# `nice` is not enough on Linux with autogroups: nice weighs a process only against the others
# of its own session. docs/tuning.md, "Long jobs in the background".
#
#     scripts/background.sh LOG COMMAND [ARG...]    # prints the job's process id
set -euo pipefail
if (($# < 2)); then
  echo "usage: scripts/background.sh LOG COMMAND [ARG...]" >&2
  exit 2
fi
log=$1
shift
setsid bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null || renice -n 19 $$ >/dev/null; exec nice -n 19 "$@"' \
  background "$@" >"$log" 2>&1 </dev/null &
echo $!
