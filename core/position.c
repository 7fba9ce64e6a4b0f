#include "core/position.h"

#include <stdio.h>

#include "core/notation.h"

/* A rank seen from side s: White's rank r is Black's rank ranks - 1 - r. */
static int rank_of_side(const struct geometry *g, enum side s, int r)
{
    return s == WHITE ? r : g->ranks - 1 - r;
}

bb_t man_squares(const struct variant *v, enum side s)
{
    const struct geometry *g = v->board();
    bb_t squares = 0;
    for (int r = v->men_first_rank; r < g->ranks - 1; r++)
        squares |= g->rank_mask[rank_of_side(g, s, r)];
    return squares;
}

void position_initial(const struct variant *v, struct position *p)
{
    const struct geometry *g = v->board();
    /* the men fill whole ranks: 3 of 4 squares on 8x8, 4 of 5 on 10x10, 2 of 8 on the
     * orthogonal board */
    int rows = v->men_per_side / bb_count(g->rank_mask[0]);

    *p = (struct position){ .side = v->first_to_move };
    for (int s = WHITE; s <= BLACK; s++)
        for (int r = v->men_first_rank; r < v->men_first_rank + rows; r++)
            p->men[s] |= g->rank_mask[rank_of_side(g, (enum side)s, r)];
}

void position_flip_colours(const struct variant *v, const struct position *p,
                           struct position *out)
{
    const struct geometry *g = v->board();
    struct position flipped = { .side = side_other(p->side) };

    for (int s = WHITE; s <= BLACK; s++) {
        flipped.men[side_other(s)] = geometry_transform(g, SYM_ROTATE_180, p->men[s]);
        flipped.kings[side_other(s)] = geometry_transform(g, SYM_ROTATE_180, p->kings[s]);
    }
    *out = flipped;
}

static const char *side_name(enum side s) { return s == WHITE ? "white" : "black"; }

int position_validate(const struct variant *v, const struct position *p, char *err,
                      size_t err_size)
{
    const struct geometry *g = v->board();
    bb_t sets[4] = { p->men[WHITE], p->kings[WHITE], p->men[BLACK], p->kings[BLACK] };
    bb_t seen = 0;
    char name[SQUARE_NAME_SIZE];

    for (int i = 0; i < 4; i++) {
        if (sets[i] & ~g->board) {
            snprintf(err, err_size, "a piece stands off the playable squares");
            return -1;
        }
        if (sets[i] & seen) {
            square_name(v, bb_first(sets[i] & seen), name);
            snprintf(err, err_size, "square %s is used twice", name);
            return -1;
        }
        seen |= sets[i];
    }
    for (int s = WHITE; s <= BLACK; s++) {
        bb_t crowned = p->men[s] & promotion_rank(g, (enum side)s);
        bb_t behind = p->men[s] & ~man_squares(v, (enum side)s) & ~crowned;
        int count = bb_count(position_pieces(p, (enum side)s));
        if (crowned) {
            square_name(v, bb_first(crowned), name);
            snprintf(err, err_size, "a %s man cannot stand on %s, %s's promotion rank",
                     side_name((enum side)s), name, side_name((enum side)s));
            return -1;
        }
        if (behind) {
            square_name(v, bb_first(behind), name);
            snprintf(err, err_size, "a %s man cannot stand on %s, behind the ranks %s's "
                     "men start on (men never move back)", side_name((enum side)s), name,
                     side_name((enum side)s));
            return -1;
        }
        if (count > v->men_per_side) {
            snprintf(err, err_size, "too many %s pieces: %d (at most %d in %s)",
                     side_name((enum side)s), count, v->men_per_side, v->name);
            return -1;
        }
    }
    if (p->side != WHITE && p->side != BLACK) {
        snprintf(err, err_size, "the side to move is neither White nor Black");
        return -1;
    }
    return 0;
}
