/* A probe under the move-limit rules against a plain probe, on the same positions, timed
 * side by side: the issue-12 cost figure (bench/RESULTS.md; its history in bench/JOURNAL.md).
 *
 * Usage: bench_rules_probe --dir DIR [--variant V] [--pieces N] [--positions N]
 *                          [--rounds N]
 *
 * Draws --positions random positions of N pieces (default 3) that the tables in DIR
 * answer (pieces on random squares, men and kings at random; the ones the library
 * refuses are drawn again), warms the cache with one pass of each probe, then runs
 * --rounds rounds, each timing damero_probe over every position and then
 * damero_probe_rules (counts starting at the position, reading 1) over the same ones,
 * in CPU time of the thread. Prints each kind's fastest round and the ratio: on a shared
 * machine the fastest round is the one least disturbed. Only the public API is used. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe/damero.h"

struct options {
    const char *dir, *variant;
    int pieces, positions, rounds;
};

static void usage(void)
{
    fprintf(stderr, "usage: bench_rules_probe --dir DIR [--variant V] [--pieces N] "
                    "[--positions N] [--rounds N]\n");
    exit(2);
}

static struct options parse(int argc, char **argv)
{
    struct options o = { NULL, "russian", 3, 20000, 7 };
    for (int k = 1; k + 1 < argc; k += 2) {
        if (strcmp(argv[k], "--dir") == 0)
            o.dir = argv[k + 1];
        else if (strcmp(argv[k], "--variant") == 0)
            o.variant = argv[k + 1];
        else if (strcmp(argv[k], "--pieces") == 0)
            o.pieces = atoi(argv[k + 1]);
        else if (strcmp(argv[k], "--positions") == 0)
            o.positions = atoi(argv[k + 1]);
        else if (strcmp(argv[k], "--rounds") == 0)
            o.rounds = atoi(argv[k + 1]);
        else
            usage();
    }
    if (!o.dir || argc % 2 == 0 || o.pieces < 2 || o.positions < 1 || o.rounds < 1)
        usage();
    return o;
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

/* A random position of n pieces, each side at least one, that damero_probe answers. */
static damero_position random_position(damero_tb *tb, int squares, int n, uint64_t *seed)
{
    for (;;) {
        damero_position pos = { .side_to_move = (int)(next_random(seed) & 1) };
        uint64_t used = 0;
        for (int k = 0; k < n; k++) {
            int square = (int)(next_random(seed) % (uint64_t)squares);
            int side = k == 0 ? DAMERO_WHITE : k == 1 ? DAMERO_BLACK : (int)(next_random(seed) & 1);
            uint64_t bit = (uint64_t)1 << square;
            if (used & bit)
                break;
            used |= bit;
            if (next_random(seed) & 1)
                pos.kings[side] |= bit;
            else
                pos.men[side] |= bit;
        }
        damero_value v;
        if (__builtin_popcountll(used) == n && damero_probe(tb, &pos, &v) == DAMERO_OK)
            return pos;
    }
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds for one pass of the probe over every position. */
static double pass(damero_tb *tb, const damero_position *pos, int n, int rules)
{
    double start = cpu_seconds();
    for (int k = 0; k < n; k++) {
        damero_value v;
        damero_rules_value r;
        int status = rules ? damero_probe_rules(tb, &pos[k], NULL, 1, &r)
                           : damero_probe(tb, &pos[k], &v);
        if (status != DAMERO_OK) {
            fprintf(stderr, "bench_rules_probe: %s\n", damero_error_message());
            exit(1);
        }
    }
    return cpu_seconds() - start;
}

int main(int argc, char **argv)
{
    struct options o = parse(argc, argv);
    damero_tb *tb;
    damero_position start;
    if (damero_open(o.variant, o.dir, (size_t)256 << 20, &tb) != DAMERO_OK ||
        damero_start_position(tb, &start) != DAMERO_OK) {
        fprintf(stderr, "bench_rules_probe: %s\n", damero_error_message());
        return 1;
    }
    int squares = 64 - __builtin_clzll(start.men[0] | start.men[1] | start.kings[0] |
                                       start.kings[1]);
    damero_position *pos = malloc((size_t)o.positions * sizeof *pos);
    if (!pos)
        return 1;
    uint64_t seed = 2026;
    for (int k = 0; k < o.positions; k++)
        pos[k] = random_position(tb, squares, o.pieces, &seed);
    double best[2] = { 1e9, 1e9 };
    for (int round = 0; round <= o.rounds; round++)
        for (int rules = 0; rules < 2; rules++) {
            double t = pass(tb, pos, o.positions, rules);
            if (round > 0 && t < best[rules]) /* round 0 warms the cache */
                best[rules] = t;
        }
    printf("| %s | %d pieces | %d positions | plain %.3f µs | under the rules %.3f µs | "
           "ratio %.2f |\n", o.variant, o.pieces, o.positions, best[0] / o.positions * 1e6,
           best[1] / o.positions * 1e6, best[1] / best[0]);
    free(pos);
    damero_close(tb);
    return 0;
}
