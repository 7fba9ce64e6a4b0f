#!/bin/sh
# How close `damero gen --estimate` comes to the build it estimates: for each set, the
# estimate (in a fresh folder, so that every material is to solve), then the build
# itself, timed; prints the load average before each, the estimated and the real
# processor and wall seconds, and the ratios estimate / real. Prefer the processor
# time's ratio on a machine shared with other work: its wall time depends on the load.
#   bench/bench_estimate.sh [--threads T] DAMERO VARIANT:PIECES[:METRICS]...
# e.g. bench/bench_estimate.sh build/damero russian:5 russian:5:wdl international:4
set -eu
threads=2
if [ "$1" = --threads ]; then
    threads=$2
    shift 2
fi
damero=$1
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_estimate.XXXXXX")
trap 'rm -rf "$work"' EXIT

# seconds TEXT: "1 h 5 min", "7 min 30 s" or "12.5 s" in seconds.
seconds() {
    echo "$1" | awk '{ s = 0; for (i = 1; i < NF; i += 2)
        s += $i * ($(i + 1) == "h" ? 3600 : $(i + 1) == "min" ? 60 : 1); print s }'
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

printf 'set\tload before\test. CPU s\treal CPU s\tratio\test. wall s\treal wall s\tratio\n'
for set in "$@"; do
    variant=${set%%:*} rest=${set#*:}
    pieces=${rest%%:*} metrics=all
    [ "$rest" = "$pieces" ] || metrics=${rest#*:}
    dir=$work/$variant-$pieces-$metrics
    args="--variant $variant --pieces $pieces --metrics $metrics --threads $threads --dir $dir"
    before=$(load)
    # shellcheck disable=SC2086 # args are words
    line=$("$damero" gen $args --estimate | grep '^time about')
    wall_text=$(echo "$line" | sed 's/^time about \(.*\) wall on.*/\1/')
    cpu_text=$(echo "$line" | sed 's/.*threads* (\(.*\) of processor time).*/\1/')
    est_wall=$(seconds "$wall_text") est_cpu=$(seconds "$cpu_text")
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S %e' -o "$work/time" "$damero" gen $args >/dev/null
    read -r user sys wall <"$work/time"
    cpu=$(echo "$user + $sys" | bc)
    printf '%s up to %s, %s\t%s\t%.1f\t%.1f\t%.2f\t%.1f\t%.1f\t%.2f\n' "$variant" "$pieces" \
        "$metrics" "$before" "$est_cpu" "$cpu" "$(echo "$est_cpu / $cpu" | bc -l)" \
        "$est_wall" "$wall" "$(echo "$est_wall / $wall" | bc -l)"
    rm -rf "$dir"
done
