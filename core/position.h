/* A position: where the men and kings of each side stand, and who is to move. */
#ifndef DAMERO_POSITION_H
#define DAMERO_POSITION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/geometry.h"
#include "core/variant.h"

struct position {
    bb_t men[2];    /* indexed by enum side */
    bb_t kings[2];
    enum side side; /* to move */
};

static inline bb_t position_pieces(const struct position *p, enum side s)
{
    return p->men[s] | p->kings[s];
}

static inline bb_t position_occupied(const struct position *p)
{
    return p->men[WHITE] | p->men[BLACK] | p->kings[WHITE] | p->kings[BLACK];
}

static inline bool position_equal(const struct position *a, const struct position *b)
{
    return a->men[0] == b->men[0] && a->men[1] == b->men[1] && a->kings[0] == b->kings[0] &&
           a->kings[1] == b->kings[1] && a->side == b->side;
}

/* The rank on which a man of side s is crowned; a man never stands there. */
static inline bb_t promotion_rank(const struct geometry *g, enum side s)
{
    return g->rank_mask[s == WHITE ? g->ranks - 1 : 0];
}

/* The squares a man of side s can ever stand on: from the nearest rank its side's men
 * start on (they never move back) up to the rank before its promotion rank. */
bb_t man_squares(const struct variant *v, enum side s);

/* The starting position of the variant. */
void position_initial(const struct variant *v, struct position *p);

/* The same position with colours swapped: board turned 180 degrees, White's pieces given
 * to Black and Black's to White, the other side to move. Its value for the side to move
 * is the value of p for the side to move. */
void position_flip_colours(const struct variant *v, const struct position *p,
                           struct position *out);

/* Checks that p can stand on the variant's board: pieces only on playable squares, no
 * square used twice, men only where men can stand (man_squares: never on the promotion
 * rank, nor behind the ranks they start on), no more pieces per side than the variant
 * starts with. Returns 0, or -1 with a sentence naming the problem in err. */
int position_validate(const struct variant *v, const struct position *p, char *err,
                      size_t err_size);

#endif
