#include "core/unmove.h"

void unmake_move(const struct position *p, const struct unmove *u, struct position *out)
{
    enum side mover = side_other(p->side);
    bb_t from = bb_of(u->from), to = bb_of(u->to);

    *out = *p;
    out->side = mover;
    if (u->kind == UNMOVE_MAN) {
        out->men[mover] = (out->men[mover] & ~to) | from;
        return;
    }
    out->kings[mover] &= ~to;
    if (u->kind == UNMOVE_KING)
        out->kings[mover] |= from;
    else
        out->men[mover] |= from;
}

/* Adds u if the mover had no capture before it (or, without legal_only, whatever). */
static void add_if_legal(const struct variant *v, const struct position *p, bool legal_only,
                         struct unmove_list *list, int from, int to, enum unmove_kind kind)
{
    struct unmove u = { (uint8_t)from, (uint8_t)to, (uint8_t)kind };
    struct position before;

    if (legal_only) {
        unmake_move(p, &u, &before);
        if (has_capture(v, &before))
            return;
    }
    if (list->count == MAX_MOVES) {
        list->overflow = true;
        return;
    }
    list->moves[list->count++] = u;
}

static void add_king_unmoves(const struct variant *v, const struct position *p,
                             bool legal_only, struct unmove_list *list, int sq)
{
    const struct geometry *g = v->board();
    bb_t occupied = position_occupied(p);
    for (int d = 0; d < NUM_DIRS; d++) {
        int from;
        BB_FOR_EACH(from, king_quiet_targets(v, g, sq, (enum direction)d, occupied))
            add_if_legal(v, p, legal_only, list, from, sq, UNMOVE_KING);
    }
}

/* The steps of a man of the side that moved onto sq, in its directions first..last - 1
 * (geometry.h: the forward ones, then the sideways ones): each from the empty square
 * behind, where a man of that side can stand. */
static void add_man_unmoves(const struct variant *v, const struct position *p,
                            bool legal_only, struct unmove_list *list, int sq,
                            enum unmove_kind kind, int first, int last)
{
    const struct geometry *g = v->board();
    enum side mover = side_other(p->side);
    bb_t origins = man_squares(v, mover) & ~position_occupied(p);

    for (int i = first; i < last; i++) {
        int from = g->step[sq][direction_opposite(g->man_dir[mover][i])];
        if (from >= 0 && (origins & bb_of(from)))
            add_if_legal(v, p, legal_only, list, from, sq, kind);
    }
}

static void list_clear(struct unmove_list *list)
{
    list->count = 0;
    list->overflow = false;
}

void generate_king_unmoves(const struct variant *v, const struct position *p,
                           struct unmove_list *list)
{
    int sq;
    list_clear(list);
    BB_FOR_EACH(sq, p->kings[side_other(p->side)])
        add_king_unmoves(v, p, false, list, sq);
}

void generate_sideways_unmoves(const struct variant *v, const struct position *p,
                               struct unmove_list *list)
{
    const struct geometry *g = v->board();
    int sq;
    list_clear(list);
    BB_FOR_EACH(sq, p->men[side_other(p->side)])
        add_man_unmoves(v, p, false, list, sq, UNMOVE_MAN, g->num_man_forward, g->num_man_dirs);
}

void generate_unmoves(const struct variant *v, const struct position *p,
                      struct unmove_list *list)
{
    const struct geometry *g = v->board();
    enum side mover = side_other(p->side);
    bb_t crown = promotion_rank(g, mover);
    int sq;

    list_clear(list);
    BB_FOR_EACH(sq, p->kings[mover]) {
        add_king_unmoves(v, p, true, list, sq);
        if (crown & bb_of(sq))
            add_man_unmoves(v, p, true, list, sq, UNMOVE_PROMOTION, 0, g->num_man_dirs);
    }
    BB_FOR_EACH(sq, p->men[mover])
        add_man_unmoves(v, p, true, list, sq, UNMOVE_MAN, 0, g->num_man_dirs);
}
