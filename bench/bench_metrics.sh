#!/bin/sh
# The cost of each --metrics choice of damero gen: WDL alone, WDL + MTC (no DTM) and all
# three. First builds every material of VARIANT up to PIECES pieces once per choice, each
# into its own folder, then times the building of single MATERIALs alone, the choices in
# turn round by round: each from a copy (hard links) of its own choice's folder with the
# material's files taken out, so that only that material is solved and its successors
# are read as that choice's build reads them. Prints CPU time (user+sys), wall time and
# peak memory of each run, checks that each material alone writes the bytes of the whole
# build, and that the WDL + MTC files are the WDL-only build's .wdl and the whole build's
# .mtc.
#   bench/bench_metrics.sh [--threads T] DAMERO VARIANT PIECES ROUNDS MATERIAL...
# --threads: the builds' threads (default 1: the work per position alone).
set -eu
threads=1
if [ "$1" = --threads ]; then
    threads=$2
    shift 2
fi
damero=$1 variant=$2 pieces=$3 rounds=$4
shift 4
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_metrics.XXXXXX")
trap 'rm -rf "$work"' EXIT
metrics="wdl wdl+mtc all"

# timed ARGS...: runs damero gen ARGS; prints user+sys, wall and max RSS in MB.
timed() {
    /usr/bin/time -f '%U %S %e %M' -o "$work/time" "$damero" gen "$@" --threads "$threads" \
        >/dev/null
    read -r user sys wall rss <"$work/time"
    printf '%.2f\t%.2f\t%.1f' "$(echo "$user + $sys" | bc)" "$wall" "$(echo "$rss / 1024" | bc -l)"
}

printf 'set\tmetrics\tuser+sys s\twall s\tmax RSS MB\n'
for m in $metrics; do
    printf '%s up to %s\t%s\t%s\n' "$variant" "$pieces" "$m" \
        "$(timed --variant "$variant" --pieces "$pieces" --metrics "$m" --dir "$work/$m")"
done
same=yes
for f in "$work/all/$variant"/*.mtc; do
    cmp -s "$f" "$work/wdl+mtc/$variant/$(basename "$f")" || same=no
done
for f in "$work/wdl/$variant"/*.wdl; do
    cmp -s "$f" "$work/wdl+mtc/$variant/$(basename "$f")" || same=no
done
echo "WDL + MTC files the same as the WDL-only .wdl and the whole build's .mtc: $same"

printf '\nmaterial\tmetrics\tround\tuser+sys s\twall s\tmax RSS MB\tsame bytes\n'
for material in "$@"; do
    for r in $(seq 1 "$rounds"); do
        for m in $metrics; do
            rm -rf "$work/t"
            mkdir -p "$work/t"
            cp -al "$work/$m/$variant" "$work/t/$variant"
            rm -f "$work/t/$variant/$material".* "$work/t/$variant/.damero-gen.lock"
            figures=$(timed --variant "$variant" "$material" --metrics "$m" --dir "$work/t")
            same=yes
            for f in "$work/$m/$variant/$material".*; do
                cmp -s "$f" "$work/t/$variant/$(basename "$f")" || same=no
            done
            printf '%s\t%s\t%s\t%s\t%s\n' "$material" "$m" "$r" "$figures" "$same"
        done
    done
done
