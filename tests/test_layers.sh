#!/usr/bin/env bash
# The folder rules (tests/check_layers.sh): the tree keeps them, and the check catches a
# folder that includes one it must not, and an include that does not name its folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
check=$here/check_layers.sh
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# the tree as it is
"$check" "$root" >/dev/null || fail "the source tree breaks the folder rules: $("$check" "$root" 2>&1)"

# a copy with one wrong include at a time: each must be refused, naming the file
wrong() { # FOLDER FILE INCLUDE WORDS
  rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
  for folder in core format rules probe store solve rulegen gen verify cli; do cp -r "$root/$folder" "$tmp/tree/"; done
  sed -i "1i #include \"$3\"" "$tmp/tree/$1/$2"
  if out=$("$check" "$tmp/tree" 2>&1); then
    fail "$1/$2 including $3 was not caught"
  elif ! grep -q "$1/$2:1: .*$4" <<< "$out"; then
    fail "$1/$2 including $3: the message does not say so: $out"
  fi
}
wrong core movegen.c probe/damero.h "core/ may not include probe/damero.h"
wrong format index.c store/tableset.h "format/ may not include store/tableset.h"
wrong probe damero.c gen/build.h "probe/ may not include gen/build.h"
wrong probe cache.c cli/options.h "probe/ may not include cli/options.h"
wrong solve solve.c cli/options.h "solve/ may not include cli/options.h"
wrong gen build.c probe/damero.h "gen/ may not include probe/damero.h"
wrong verify verify.c probe/damero.h "verify/ may not include probe/damero.h"
wrong core geometry.c geometry.h "does not name its folder"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "layers: the tree keeps the folder rules, and 8 wrong includes were caught"
