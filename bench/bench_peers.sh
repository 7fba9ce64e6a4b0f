#!/usr/bin/env bash
# damero against other draughts programs on the same work, by CPU time: the rows of the
# peers table in bench/RESULTS.md (their history: the issue-14 section of
# bench/JOURNAL.md).
#
#   PEERS=DIR bench/bench_peers.sh [BUILD_DIR] [ROUNDS]
#
# DIR holds the other programs, built from their sources (mobydam/test/perft-native,
# scan/src/scan-perft, mustitz/source/{mustitz-perft,rus-checkers},
# samuel/genalldatabases, GWDEGTB/{generate_egtb,gwd_upto4.sh}); a row whose program is
# missing is skipped. The commands of a row run in turn, ROUNDS rounds (default 3), in a
# scratch directory; each run's CPU time (user + system) and wall time are printed, then
# the median CPU time of each command. On a machine shared with other jobs wall time is
# unreliable: compare the CPU medians of one row.
set -euo pipefail
. "$(cd "$(dirname "$0")" && pwd)/cpu_rows.sh"
build=$(cd "${1:-build}" && pwd)
rounds=${2:-3}
: "${PEERS:?set PEERS to the folder holding the other programs}"
P=$PEERS
D="$build/damero"
[ -x "$D" ] || { echo "no $D: build first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; $(uptime | sed 's/.*load/load/')"

have() { [ -x "$P/$1" ]; }

have mobydam/test/perft-native && have scan/src/scan-perft &&
  row "international perft, depths 1-10, one thread" \
    "damero=$D perft --variant international --depth 10" \
    "mobydam=$P/mobydam/test/perft-native -b -c 10" \
    "scan=$P/scan/src/scan-perft 10"
have mustitz/source/mustitz-perft &&
  row "russian perft, depths 1-11, one thread, sequences taking pieces in another order kept apart" \
    "damero=$D perft --variant russian --depth 11 --keep-duplicates" \
    "mustitz=$P/mustitz/source/mustitz-perft 11"
if have mustitz/source/rus-checkers; then
  row "russian KKKKvK from nothing, one thread" \
    "damero=rm -rf R && $D gen --variant russian KKKKvK --threads 1 --dir R" \
    "mustitz=rm -rf M && mkdir M && printf 'set etb_dir M\netb gen WB\netb gen WWB\netb gen WWWB\netb gen WWWWB\nquit\n' | $P/mustitz/source/rus-checkers"
  row "russian KKKvKK from nothing, one thread" \
    "damero=rm -rf R && $D gen --variant russian KKKvKK --threads 1 --dir R" \
    "mustitz=rm -rf M && mkdir M && printf 'set etb_dir M\netb gen WB\netb gen WWB\netb gen WWBB\netb gen WWWB\netb gen WWWBB\nquit\n' | $P/mustitz/source/rus-checkers"
fi
have samuel/genalldatabases &&
  row "english, every material of 2-4 pieces, one thread" \
    "damero=rm -rf E && $D gen --variant english --pieces 4 --threads 1 --dir E" \
    "samuel=rm -rf S && mkdir S && cd S && $P/samuel/genalldatabases"
have GWDEGTB/generate_egtb &&
  row "international, every material of 2-4 pieces, two threads" \
    "damero=rm -rf I && $D gen --variant international --pieces 4 --threads 2 --dir I" \
    "GWDEGTB=rm -rf G && mkdir G && cd G && $P/GWDEGTB/gwd_upto4.sh $P/GWDEGTB/generate_egtb 2" \
    "GWDEGTB-no-verification=rm -rf G && mkdir G && cd G && EGTB_VERIFICATION=none $P/GWDEGTB/gwd_upto4.sh $P/GWDEGTB/generate_egtb 2"
