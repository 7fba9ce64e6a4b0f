# The timing helper the benchmark scripts share, sourced (not run) after `set -euo
# pipefail`, with $rounds set, in a scratch directory (it writes time.out and times.K).
#
# row TITLE NAME=COMMAND...: the commands in turn, $rounds rounds; CPU medians.
row() {
  local title=$1 k i
  shift
  local names=() cmds=()
  for a in "$@"; do names+=("${a%%=*}"); cmds+=("${a#*=}"); done
  echo "## $title"
  for k in "${!names[@]}"; do : > "times.$k"; done
  for i in $(seq "$rounds"); do
    for k in "${!names[@]}"; do
      /usr/bin/time -f "%U %S %e" -o time.out bash -c "${cmds[$k]}" > /dev/null 2>&1 ||
        echo "   (${names[$k]} failed)"
      awk '{ printf "%.2f %.2f\n", $1 + $2, $3 }' time.out >> "times.$k"
    done
  done
  for k in "${!names[@]}"; do
    printf '  %-18s median CPU %6s s   runs CPU/wall: %s\n' "${names[$k]}" \
      "$(cut -d' ' -f1 "times.$k" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
      "$(awk '{ printf "%s/%s ", $1, $2 }' "times.$k")"
  done
}

