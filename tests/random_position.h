/* Random legal-looking positions for property tests: any number of men and kings per side
 * on distinct squares, men only where men can stand (man_squares). Deterministic (seeded
 * xorshift). */
#ifndef DAMERO_RANDOM_POSITION_H
#define DAMERO_RANDOM_POSITION_H

#include <stdint.h>

#include "core/position.h"

static inline uint64_t random_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* A position with 1..max_per_side pieces a side, each a king with probability about
 * king_percent %. */
static inline struct position random_position(const struct variant *v, uint64_t *state,
                                              int max_per_side, int king_percent)
{
    const struct geometry *g = v->board();
    struct position p = { .side = (enum side)(random_next(state) & 1) };
    bb_t used = 0;

    for (int s = WHITE; s <= BLACK; s++) {
        int n = 1 + (int)(random_next(state) % (uint64_t)max_per_side);
        while (n > 0) {
            int bit = g->square_bit[random_next(state) % (uint64_t)g->num_squares];
            bool king = (int)(random_next(state) % 100) < king_percent;
            if (used & bb_of(bit))
                continue;
            if (!king && !(man_squares(v, (enum side)s) & bb_of(bit)))
                continue;
            used |= bb_of(bit);
            if (king)
                p.kings[s] |= bb_of(bit);
            else
                p.men[s] |= bb_of(bit);
            n--;
        }
    }
    return p;
}

#endif
