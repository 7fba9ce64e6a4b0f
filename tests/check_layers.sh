#!/usr/bin/env bash
# Checks that each folder of the source tree includes only the folders it may use, and
# that every include of a project header names its folder ("core/movegen.h"):
#
#   core/    the game                       -> nothing else
#   format/  the table format               -> core
#   probe/   libdamero's probing API        -> core, format
#   gen/     the generator                  -> core, format
#   verify/  the move-limit rules           -> core, format, gen
#   cli/     the damero command             -> everything
#   fuzz/    the libFuzzer targets          -> everything
#
# usage: tests/check_layers.sh [SOURCE_ROOT]   (default: the tree this script is in)
# Prints each offending include as FILE:LINE and exits 1 when there is any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}

declare -A allowed=(
  [core]="core"
  [format]="core format"
  [probe]="core format probe"
  [gen]="core format gen"
  [verify]="core format gen verify"
  [cli]="core format probe gen verify cli"
  [fuzz]="core format probe gen verify cli fuzz"
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
