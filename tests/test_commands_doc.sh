#!/usr/bin/env bash
# docs/commands.md quotes every command's help text; this checks that each quote is what
# the program prints, word for word, so that a changed option cannot leave the document
# behind.
#
#   tests/test_commands_doc.sh DAMERO            check (what ctest runs)
#   tests/test_commands_doc.sh --write DAMERO    rewrite the quotes from DAMERO's output
#
# The commands are those `damero --help` lists. In docs/commands.md the help text of
# `damero CMD --help` is the fenced block right after the line `<!-- damero CMD --help -->`
# (and `<!-- damero --help -->` for the command's own). With --write, the prose around
# the blocks is left as it is: read it again against the new help text.
set -euo pipefail
write=
if [ "${1:-}" = --write ]; then
  write=1
  shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--write] DAMERO" >&2; exit 2; }
damero=$1
doc=${DAMERO_COMMANDS_DOC:-$(cd "$(dirname "$0")/.." && pwd)/docs/commands.md}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/damero-commands-doc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The commands in the order `damero --help` lists them: the indented lines of its
# "Commands:" paragraph.
commands() {
  "$damero" --help | awk '/^Commands:/ { inside = 1; next }
                          inside && /^$/ { exit }
                          inside { print $1 }'
}

# The marker line before the block quoting `damero $1 --help` ($1 empty: `damero --help`).
marker() { echo "<!-- damero ${1:+$1 }--help -->"; }

# quoted NAME: the block that docs/commands.md quotes for NAME; fails when there is none.
quoted() {
  awk -v marker="$(marker "$1")" '
    $0 == marker { found = 1; next }
    found == 1 { if ($0 != "```") exit 1; found = 2; next }
    found == 2 { if ($0 == "```") { closed = 1; exit } print }
    END { exit !closed }' "$doc"
}

# The help texts as the program prints them, the command's own first.
names=("" $(commands))
for name in "${names[@]}"; do
  # shellcheck disable=SC2086 # no word: `damero --help`
  "$damero" $name --help > "$tmp/help.${name:-damero}"
done

if [ -n "$write" ]; then
  for name in "${names[@]}"; do
    grep -qxF "$(marker "$name")" "$doc" || {
      echo "$doc has no line '$(marker "$name")': add a section for the command by hand," \
        "with that line and an empty fenced block under it, then run --write again" >&2
      exit 1
    }
  done
  # Each marker's block replaced by the help file of its command, the rest copied.
  awk -v dir="$tmp" '
    /^<!-- damero (.* )?--help -->$/ {
      print
      name = $0; sub(/^<!-- damero /, "", name); sub(/ ?--help -->$/, "", name)
      file = dir "/help." (name == "" ? "damero" : name)
      print "```"
      while ((getline line < file) > 0) print line
      print "```"
      skipping = 1; fences = 0; next
    }
    skipping { if ($0 == "```" && ++fences == 2) skipping = 0; next }
    { print }' "$doc" > "$tmp/commands.md"
  cat "$tmp/commands.md" > "$doc"
  echo "rewrote the help texts of docs/commands.md from $damero"
fi

failures=0
for name in "${names[@]}"; do
  shown="damero ${name:+$name }--help"
  if ! quoted "$name" > "$tmp/quoted"; then
    echo "FAIL: docs/commands.md does not quote '$shown': it needs the line" \
      "'$(marker "$name")' followed by a fenced block"
    failures=$((failures + 1))
  elif ! diff -u --label "docs/commands.md" --label "$shown" \
      "$tmp/quoted" "$tmp/help.${name:-damero}"; then
    echo "FAIL: docs/commands.md quotes '$shown' as it was, not as the program prints it"
    failures=$((failures + 1))
  fi
done
# A quote of a command the program no longer has.
while IFS= read -r line; do
  name=${line#<!-- damero }
  name=${name%--help -->}
  name=${name% }
  if [[ " ${names[*]} " != *" $name "* ]]; then
    echo "FAIL: docs/commands.md quotes 'damero $name --help', a command damero --help does not list"
    failures=$((failures + 1))
  fi
done < <(grep -x '<!-- damero .*--help -->' "$doc" | grep -vxF "$(marker "")")

if [ "$failures" -ne 0 ]; then
  echo "$failures help text(s) not as printed. If the program is right, run" \
    "'tests/test_commands_doc.sh --write $damero' and read the prose around each changed" \
    "block in docs/commands.md again."
  exit 1
fi
echo "commands_doc: docs/commands.md quotes the help of damero and of its $((${#names[@]} - 1)) commands as printed"
