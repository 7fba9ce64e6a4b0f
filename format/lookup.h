/* The one path from a position to where its value is stored.
 *
 * The generator (store/tableset.c), the probe library (probe/read_value.c) and verify
 * all look a position up the same way: either the game is over (the side to move has no
 * piece left, or the variant's rule on lone pieces has ended it), or the value is in the
 * table of the position's canonical material, at the index of the position turned to
 * that material's colour orientation. */
#ifndef DAMERO_LOOKUP_H
#define DAMERO_LOOKUP_H

#include <stdbool.h>

#include "core/game_end.h"
#include "core/position.h"
#include "format/material.h"

enum lookup_status {
    LOOKUP_TABLE,        /* the value is in the table of `material`, at `oriented` */
    LOOKUP_GAME_OVER,    /* the game has ended: `over` says how for the side to move */
    LOOKUP_NO_OPPONENT,  /* only the side to move has pieces: the game ended before */
    LOOKUP_TOO_MANY,     /* more pieces than any table can hold (MATERIAL_MAX_PIECES) */
};

struct lookup {
    struct material material; /* canonical: the table that holds the value */
    struct position oriented; /* the position in that table's colour orientation */
    bool flipped;             /* whether the colours were swapped to get there */
    enum game_end over;       /* LOOKUP_GAME_OVER: the result for the side to move */
};

/* Where the value of p is stored. Fills *out when LOOKUP_TABLE is returned, out->over
 * when LOOKUP_GAME_OVER is. Thread-safe. */
enum lookup_status lookup_position(const struct variant *v, const struct position *p,
                                   struct lookup *out);

#endif
