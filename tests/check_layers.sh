#!/usr/bin/env bash
# Checks that each folder of the source tree includes only the folders it may use, and
# that every include of a project header names its folder ("core/movegen.h"):
#
#   core/     the game                        -> nothing else
#   format/   the table format                -> core
#   rules/    the move-limit rules' semantics -> core, format
#   probe/    libdamero's probing API         -> core, format, rules
#   store/    a set of tables in memory       -> core, format
#   solve/    retrograde analysis             -> core, format, store
#   rulegen/  the rule tables                 -> core, format, rules, store, solve
#   gen/      the build                       -> core, format, rules, store, solve, rulegen
#   verify/   the move-limit rules' checks    -> core, format, rules, store, solve, rulegen
#   cli/      the damero command              -> everything
#   fuzz/     the libFuzzer targets           -> everything
#
# and that probe/internal.h, what probe/'s files share, is included from probe/ alone.
#
# usage: tests/check_layers.sh [SOURCE_ROOT]   (default: the tree this script is in)
# Prints each offending include as FILE:LINE and exits 1 when there is any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

declare -A allowed=(
  [core]="core"
  [format]="core format"
  [rules]="core format rules"
  [probe]="core format rules probe"
  [store]="core format store"
  [solve]="core format store solve"
  [rulegen]="core format rules store solve rulegen"
  [gen]="core format rules store solve rulegen gen"
  [verify]="core format rules store solve rulegen verify"
  [cli]="core format rules probe store solve rulegen gen verify cli"
  [fuzz]="core format rules probe store solve rulegen gen verify cli fuzz"
)

bad=0
for folder in "${!allowed[@]}"; do
  [ -d "$root/$folder" ] || continue
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    header=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<< "${rest#*:}")
    [ -n "$header" ] || continue
    where=${file#"$root"/}
    case $header in
      probe/internal.h)
        if [ "$folder" != probe ]; then
          echo "$where:$line: $folder/ may not include $header (private to probe/: use probe/damero.h)"
          bad=1
        fi ;;
      */*)
        target=${header%%/*}
        if [[ " ${allowed[$folder]} " != *" $target "* ]]; then
          echo "$where:$line: $folder/ may not include $header ($folder/ uses: ${allowed[$folder]})"
          bad=1
        fi ;;
      *)
        echo "$where:$line: include \"$header\" does not name its folder (write \"FOLDER/$header\")"
        bad=1 ;;
    esac
  done < <(grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$root/$folder"/*.[ch] 2>/dev/null || true)
done
if [ "$bad" -ne 0 ]; then
  echo "layer check failed: see the folder rules in tests/check_layers.sh and CMakeLists.txt" >&2
  exit 1
fi
echo "layers: every include stays within its folder's rules"
