/* Perft speed of every variant, from the initial position and from a king-heavy one.
 *
 * Prints leaf nodes per second on one core (leaf moves counted, not made, as the best
 * draughts programs measure it). Usage: bench_perft [SECONDS_PER_CASE]. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "core/notation.h"
#include "core/perft.h"

/* Kings on both back ranks, each side's men on its third rank: long king rays, captures
 * and promotions all in play. */
static struct position king_heavy(const struct variant *v)
{
    const struct geometry *g = v->board();
    struct position p = { .side = v->first_to_move };

    p.kings[WHITE] = g->rank_mask[0];
    p.kings[BLACK] = g->rank_mask[g->ranks - 1];
    p.men[WHITE] = g->rank_mask[2];
    p.men[BLACK] = g->rank_mask[g->ranks - 3];
    return p;
}

/* Deepens until one depth takes at least `budget` seconds; prints that depth's figures. */
static void run(const struct variant *v, const char *label, const struct position *p,
                double budget)
{
    char fen[FEN_SIZE];

    for (int depth = 1; depth <= 20; depth++) {
        double start = seconds_now();
        uint64_t nodes = perft(v, p, depth, 0);
        double elapsed = seconds_now() - start;
        if (elapsed >= budget || depth == 20) {
            fen_print(v, p, fen);
            printf("%-14s %-11s depth %2d %13" PRIu64 " nodes %8.3f s %8.1f Mnodes/s  %s\n",
                   v->name, label, depth, nodes, elapsed, (double)nodes / elapsed / 1e6,
                   label[0] == 'k' ? fen : "");
            fflush(stdout);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    double budget = argc > 1 ? atof(argv[1]) : 1.0;

    if (budget <= 0) {
        fprintf(stderr, "usage: bench_perft [SECONDS_PER_CASE > 0]\n");
        return 2;
    }
    for (const struct variant *v = variants; v->name; v++) {
        struct position p;
        position_initial(v, &p);
        run(v, "initial", &p, budget);
        p = king_heavy(v);
        run(v, "king-heavy", &p, budget);
    }
    return 0;
}
