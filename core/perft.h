/* Perft: the number of move sequences of a given length from a position, the standard
 * check of a move generator against published figures. */
#ifndef DAMERO_PERFT_H
#define DAMERO_PERFT_H

#include <stdint.h>

#include "core/movegen.h"

/* Leaf nodes at `depth` plies below p (1 at depth 0). flags are enum move_flags: with
 * MOVES_KEEP_DUPLICATES, captures taking the same pieces in another order count apart;
 * with MOVES_KEEP_PATHS, every capture path does. Thread-safe. */
uint64_t perft(const struct variant *v, const struct position *p, int depth, unsigned flags);

#endif
