#include "core/unmove.h"

/* Backward directions of each side's men: the way a man came. */
static const enum direction backward[2][2] = {
    [WHITE] = { DIR_DOWN_LEFT, DIR_DOWN_RIGHT },
    [BLACK] = { DIR_UP_LEFT, DIR_UP_RIGHT },
};

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
    bb_t empty = g->board & ~position_occupied(p);
    for (int d = 0; d < NUM_DIRS; d++) {
        for (int from = g->step[sq][d]; from >= 0 && (empty & bb_of(from));
             from = g->step[from][d]) {
            add_if_legal(v, p, legal_only, list, from, sq, UNMOVE_KING);
            if (!v->flying_kings)
                break;
        }
    }
}

void generate_king_unmoves(const struct variant *v, const struct position *p,
                           struct unmove_list *list)
{
    int sq;
    list->count = 0;
    list->overflow = false;
    BB_FOR_EACH(sq, p->kings[side_other(p->side)])
        add_king_unmoves(v, p, false, list, sq);
}

void generate_unmoves(const struct variant *v, const struct position *p,
                      struct unmove_list *list)
{
    const struct geometry *g = v->board();
    enum side mover = side_other(p->side);
    bb_t empty = g->board & ~position_occupied(p);
    bb_t crown = promotion_rank(g, mover);
    int sq;

    list->count = 0;
    list->overflow = false;
    BB_FOR_EACH(sq, p->kings[mover]) {
        add_king_unmoves(v, p, true, list, sq);
        if (!(crown & bb_of(sq)))
            continue;
        for (int i = 0; i < 2; i++) {
            int from = g->step[sq][backward[mover][i]];
            if (from >= 0 && (empty & bb_of(from)))
                add_if_legal(v, p, true, list, from, sq, UNMOVE_PROMOTION);
        }
    }
    BB_FOR_EACH(sq, p->men[mover]) {
        for (int i = 0; i < 2; i++) {
            int from = g->step[sq][backward[mover][i]];
            if (from >= 0 && (empty & bb_of(from)))
                add_if_legal(v, p, true, list, from, sq, UNMOVE_MAN);
        }
    }
}
