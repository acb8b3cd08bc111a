#!/usr/bin/env bash
# Reproduces web/assets/vendor/chessgroundx/ from the pinned npm release of chessgroundx
# (GPL-3.0, https://github.com/gbtami/chessgroundx): the ES modules as published, their
# source-map comments removed (the maps are not shipped), the base stylesheet and the licence.
# Needs node and npm; the project's build and run need neither (the files are committed and
# embedded in the `chariot` binary).
set -euo pipefail
VERSION=10.7.4
INTEGRITY='sha512-M+i/y3BStkZCj0wZzH3TwycDt/YFXr8uGFQqKUkmgoGmiG0xhxpB0Kb5xJHxnzGGKVUOJu7Dftc/zzmdul5fBg=='
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/web/assets/vendor/chessgroundx"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "chessgroundx@$VERSION" >/dev/null
tarball="chessgroundx-$VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
  echo "vendor-chessgroundx: $tarball has integrity $got, expected $INTEGRITY" >&2
  exit 1
fi
tar xzf "$tarball"
rm -rf "$out"
mkdir -p "$out"
for f in package/*.js; do
  sed '/^\/\/# sourceMappingURL=/d' "$f" >"$out/$(basename "$f")"
done
cp package/assets/chessground.base.css package/LICENSE "$out/"
echo "chessgroundx $VERSION ($INTEGRITY) from the npm registry; see scripts/vendor-chessgroundx.sh" >"$out/VERSION"
echo "vendored chessgroundx $VERSION into $out"
