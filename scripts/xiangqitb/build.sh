#!/bin/sh
# Builds scripts/xiangqitb/dump against a checkout of xiangqitb (not part of this repository).
# Usage: scripts/xiangqitb/build.sh XIANGQITB_DIR OUT_DIR
# The checkout's sources are compiled in OUT_DIR; nothing is written into this repository.
set -eu
src=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/obj"
cd "$out/obj"
for f in "$src"/src/chess/*.cpp "$src"/src/egtb/*.cpp "$src"/src/util/*.cpp; do
  echo "g++ -O2 -std=c++17 -march=native -I$src/src -I$src/lib -w -c $f -o $(basename "$f" .cpp).o"
done > cmds
for f in "$src"/lib/LZMA/*.c "$src"/lib/lz4/*.c $(find "$src/lib/zstd" -name '*.c'); do
  echo "gcc -O2 -march=native -w -c $f -o c_$(basename "$f" .c).o"
done >> cmds
xargs -P "$(nproc)" -I{} sh -c "{}" < cmds
cd "$out"
g++ -O2 -std=c++17 -march=native -I"$src/src" -I"$src/lib" -w "$here/dump.cpp" obj/*.o -o dump -lpthread
echo "built $out/dump"
