/* Un-moves: the quiet moves that could have led to a position, for retrograde analysis.
 *
 * In position p the side that just moved is the one not to move. Its last move, if it
 * was not a capture, was a king move, a man's step (forward, or sideways on the
 * orthogonal board), or a man's step onto the last rank that crowned it. A predecessor is
 * kept only if that move was legal there, that is, if the side that moved had no capture
 * to make (capture is compulsory), and if the man stood where men can stand. */
#ifndef DAMERO_UNMOVE_H
#define DAMERO_UNMOVE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/movegen.h"

enum unmove_kind {
    UNMOVE_KING,      /* a king moved from `from` to `to` */
    UNMOVE_MAN,       /* a man stepped from `from` to `to` */
    UNMOVE_PROMOTION, /* a man stepped from `from` to `to` and was crowned there */
};

struct unmove {
    uint8_t from, to; /* square bits, as the forward move goes */
    uint8_t kind;     /* enum unmove_kind */
};

struct unmove_list {
    int count;
    bool overflow; /* more than MAX_MOVES un-moves: the list holds only the first ones */
    struct unmove moves[MAX_MOVES];
};

/* Every quiet move of the side not to move in p that leads to p from a position where it
 * was legal. Thread-safe. */
void generate_unmoves(const struct variant *v, const struct position *p,
                      struct unmove_list *list);

/* Only the king moves of the side not to move that lead to p, whether or not that side
 * had a capture to make before them: for a caller that knows which positions have one
 * (the retrograde solver). Faster than generate_unmoves. Thread-safe. */
void generate_king_unmoves(const struct variant *v, const struct position *p,
                           struct unmove_list *list);

/* The men's sideways steps of the side not to move that lead to p: with the king moves,
 * the quiet moves that leave its men as advanced as they were, which the retrograde
 * solver iterates within a level of men configurations (none where men step forward
 * only). Unchecked for captures, as generate_king_unmoves. Thread-safe. */
void generate_sideways_unmoves(const struct variant *v, const struct position *p,
                               struct unmove_list *list);

/* The position before the un-move u of p. */
void unmake_move(const struct position *p, const struct unmove *u, struct position *out);

#endif
