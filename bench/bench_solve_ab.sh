#!/bin/sh
# Times the building of single materials by two damero binaries, alternately, round by
# round, on the same machine: each build starts from a copy (hard links) of a folder of
# finished tables with the material's own files taken out, so that only that material is
# solved. Prints CPU time (user+sys) and wall time of each run and checks that both
# binaries write the same bytes as the folder's originals.
#   bench/bench_solve_ab.sh [--threads T] [--metrics wdl] OLD_DAMERO NEW_DAMERO TABLE_ROOT
#                           VARIANT ROUNDS MATERIAL...
# --threads: the builds' threads (default 2; 1 measures the work per position alone);
# --metrics wdl: WDL-only builds (damero gen --metrics wdl), against a TABLE_ROOT built so.
# TABLE_ROOT holds VARIANT/ with every table the materials depend on (and the materials'
# own files, compared against). Never modified: copies are made with cp -al in a
# temporary folder and the build writes new files through new names. The copy's build
# lock is removed: a hard link to the original's would make the builds wait on each other.
set -eu
threads=2 metrics=
while [ $# -gt 0 ]; do
    case $1 in
        --threads) threads=$2; shift 2 ;;
        --metrics) metrics="--metrics $2"; shift 2 ;;
        *) break ;;
    esac
done
old=$1 new=$2 root=$3 variant=$4 rounds=$5
shift 5
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_solve_ab.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf 'material\tbinary\tround\tuser+sys s\twall s\tmax RSS MB\tsame bytes\n'
for m in "$@"; do
    for r in $(seq 1 "$rounds"); do
        for which in old new; do
            bin=$old
            [ "$which" = new ] && bin=$new
            rm -rf "$work/t"
            mkdir -p "$work/t"
            cp -al "$root/$variant" "$work/t/$variant"
            rm -f "$work/t/$variant/$m".* "$work/t/$variant/.damero-gen.lock"
            /usr/bin/time -f '%U %S %e %M' -o "$work/time" \
                "$bin" gen --variant "$variant" "$m" --threads "$threads" $metrics --dir "$work/t" >/dev/null
            same=yes
            for f in "$root/$variant/$m".*; do
                cmp -s "$f" "$work/t/$variant/$(basename "$f")" || same=no
            done
            read -r user sys wall rss <"$work/time"
            printf '%s\t%s\t%s\t%.2f\t%.2f\t%.0f\t%s\n' "$m" "$which" "$r" \
                "$(echo "$user + $sys" | bc)" "$wall" "$(echo "$rss / 1024" | bc)" "$same"
        done
    done
done
