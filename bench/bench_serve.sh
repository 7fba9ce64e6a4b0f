#!/usr/bin/env bash
# The speed of `damero serve`, the figures bench/RESULTS.md records: the API's latency
# for a position with all its moves, the page's from a click to the answer (headless
# Chromium), and requests per second under wrk (Debian's wrk package), all on loopback.
#
#   bench/bench_serve.sh [BUILD_DIR]
#
# Builds russian up to 5 pieces into /tmp/damero-bench-tables when missing (as
# bench_probe.sh does; about a minute on 2 cores), serves it on a free port, and runs
# bench/bench_serve.py against it (about a minute), which also times damero annotate.
#
#   bench/bench_serve.sh [BUILD_DIR] --load
#
# instead runs bench/bench_serve_load.py (about 25 seconds): cheap requests alone, then
# beside searches under the rules (half of them dropped) and slow clients (issue 40).
set -euo pipefail
build=${1:-build}
mode=${2:-}
dir=/tmp/damero-bench-tables
[ -x "$build/damero" ] || { echo "no $build/damero: build first" >&2; exit 2; }
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
# Debian's python3, whose python3-selenium drives Chromium
python=/usr/bin/python3
[ -x "$python" ] || python=python3

"$build/damero" gen --variant russian --pieces 5 --dir "$dir" >&2
out=$(mktemp)
# under --load, libmicrohttpd notes every connection refused or cut: not wanted here
log=/dev/stderr
[ "$mode" = --load ] && log=/dev/null
"$build/damero" serve --dir "$dir" --port 0 > "$out" 2> "$log" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$out"' EXIT
for _ in $(seq 50); do
  grep -q http "$out" && break
  sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$out")
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$mode" = --load ]; then
  "$python" "$(dirname "$0")/bench_serve_load.py" "$url" russian "W:WKe3:Bf6,c3,Kc1" \
    "W:WKa1,Kc3,Ke1:BKh8,Kf8" "W:WKa1,Kc3,e3:BKh8,f8" "W:Wc3,e3,g3:Bb6,d6" "B:WKa1,c3:BKh8,f6,d8" "W:WKb2,Kd2:BKh8,Kf8,d6"
  exit
fi
"$python" "$(dirname "$0")/bench_serve.py" "$url" "$build/damero" "$dir" russian \
  "W:WKa1,Kc3,Ke1:BKh8,Kf8" "W:WKa1,Kc3,e3:BKh8,f8" "W:Wc3,e3,g3:Bb6,d6" "B:WKa1,c3:BKh8,f6,d8" "W:WKb2,Kd2:BKh8,Kf8,d6"
